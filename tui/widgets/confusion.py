"""The confusion matrix with its margins, and the metrics of the current threshold."""

from __future__ import annotations

from textual.reactive import reactive
from textual.widgets import Static

from core.analysis import Analysis
from core.metric import format_count
from core.metrics import METRIC_NAMES

SHORT_LIST = ("precision", "recall", "f1", "accuracy", "specificity", "fpr")


class ConfusionMatrix(Static):
    """The 2x2 counts, labelled axes and totals (the metric denominators)."""

    analysis: reactive[Analysis | None] = reactive(None)

    def watch_analysis(self, a: Analysis | None) -> None:
        if a is None:
            return
        k, c = a.counts, format_count
        cells = [
            ("", "pred 1", "pred 0", "total"),
            ("actual 1", f"TP {c(k.tp)}", f"FN {c(k.fn)}", c(k.actual_positive)),
            ("actual 0", f"FP {c(k.fp)}", f"TN {c(k.tn)}", c(k.actual_negative)),
            ("total", c(k.predicted_positive), c(k.predicted_negative), c(k.total)),
        ]
        widths = [max(len(r[i]) for r in cells) + 2 for i in range(4)]
        lines = [
            "".join(
                col.rjust(w) if j else col.ljust(w)
                for j, (col, w) in enumerate(zip(row, widths, strict=True))
            )
            for row in cells
        ]
        self.update("\n".join(lines))


class MetricsPanel(Static):
    """Each metric as its formula with the counts filled in, or undefined with why."""

    analysis: reactive[Analysis | None] = reactive(None)
    show_all: reactive[bool] = reactive(False)

    def watch_analysis(self) -> None:
        self._render_metrics()

    def watch_show_all(self) -> None:
        self._render_metrics()

    def _render_metrics(self) -> None:
        a = self.analysis
        if a is None:
            return
        names = METRIC_NAMES if self.show_all else SHORT_LIST
        lines = []
        for name in names:
            m = a.metrics[name]
            text = m.describe().replace("[", r"\[")
            lines.append(f"[b]{text}[/b]" if m.value is None else text)
        if not self.show_all:
            lines.append("[dim]m: all metrics[/dim]")
        self.update("\n".join(lines))
