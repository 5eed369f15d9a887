"""The confusion matrix with its margins, and the metrics of the current threshold."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from core.analysis import Analysis
from core.metrics.metric import format_count
from tui.ascii import to_ascii
from tui.widgets.text import TextLines

SHORT_LIST = ("precision", "recall", "f1", "accuracy", "specificity", "fpr")


class ConfusionMatrix(TextLines):
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
        self.show("\n".join(lines))


def metric_text(a: Analysis, names: tuple[str, ...], *, ascii: bool = False) -> Text:
    """Each metric's formula with the counts filled in, one per line; undefined in bold.

    Plain Text, not markup: formulas and reasons are shown exactly as written.
    """
    text = Text()
    for i, name in enumerate(names):
        m = a.metrics[name]
        line = to_ascii(m.describe()) if ascii else m.describe()
        text.append(("\n" if i else "") + line, style="bold" if m.value is None else "")
    return text


class MetricsPanel(TextLines):
    """The headline metrics of the current threshold; ``m`` opens all of them."""

    analysis: reactive[Analysis | None] = reactive(None)

    def watch_analysis(self, a: Analysis | None) -> None:
        if a is not None:
            text = metric_text(a, SHORT_LIST, ascii=getattr(self.app, "ascii", False))
            text.append("\nm: all metrics", style="dim")
            self.show(text, sticky=True)
