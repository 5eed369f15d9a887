"""Every operating point of the sweep; the active one is highlighted and marked ``>``."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import DataTable

from core.analysis import Analysis
from core.metric import format_count
from core.threshold import format_threshold

#: Points held at once; a longer sweep shows this many around the active point.
WINDOW = 60


class SweepTable(DataTable[str]):
    """Threshold, TP, FP, TN, FN, TPR, FPR, precision and recall per tie group."""

    analysis: reactive[Analysis | None] = reactive(None)
    _shown: tuple[object, int] | None = None
    _marked: int | None = None

    def on_mount(self) -> None:
        self.cursor_type = "row"
        self.can_focus = False
        self.add_columns("", "threshold", "TP", "FP", "TN", "FN", "TPR", "FPR", "prec.", "recall")

    def _window_start(self, a: Analysis) -> int:
        size = a.sweep.size
        if size <= WINDOW:
            return 0
        if self._shown is not None and self._shown[0] is a.curves:
            start = self._shown[1]
            if start <= a.point < start + WINDOW:
                return start  # the active point is still in view: keep the window
        return max(0, min(a.point - WINDOW // 2, size - WINDOW))

    def watch_analysis(self, a: Analysis | None) -> None:
        if a is None or not self.columns:
            return
        start = self._window_start(a)
        if self._shown != (a.curves, start):
            self._shown = (a.curves, start)
            self._marked = None
            self.clear()
            s = a.sweep
            for k in range(start, min(start + WINDOW, s.size)):
                c = s.counts_at(k)
                m = s.point_metrics(k)
                label = "above all" if k == 0 else format_threshold(s.threshold_at(k))
                self.add_row(
                    "",
                    label,
                    *(format_count(v) for v in c.cells()),
                    *(m[n].short() for n in ("tpr", "fpr", "precision", "recall")),
                    key=str(k),
                )
        marker = self.ordered_columns[0].key
        if self._marked is not None and self._marked != a.point:
            self.update_cell(str(self._marked), marker, "")
        self.update_cell(str(a.point), marker, ">")
        self._marked = a.point
        self.move_cursor(row=a.point - start, animate=False)
