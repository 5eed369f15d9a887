"""Every operating point of the sweep; the active one is highlighted."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import DataTable

from core.analysis import Analysis
from core.metric import format_count
from core.threshold import format_threshold


class SweepTable(DataTable[str]):
    """Threshold, TP, FP, TN, FN, TPR, FPR, precision and recall per tie group."""

    analysis: reactive[Analysis | None] = reactive(None)
    _shown: object = None

    def on_mount(self) -> None:
        self.cursor_type = "row"
        self.can_focus = False
        self.add_columns("", "threshold", "TP", "FP", "TN", "FN", "TPR", "FPR", "prec.", "recall")

    def watch_analysis(self, a: Analysis | None) -> None:
        if a is None or not self.columns:
            return
        if self._shown is not a.curves:
            self._shown = a.curves
            self.clear()
            s = a.sweep
            for k in range(s.size):
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
        for k in range(a.sweep.size):
            self.update_cell(str(k), self.ordered_columns[0].key, ">" if k == a.point else "")
        self.move_cursor(row=a.point, animate=False)
