"""The confusion matrix with its margins, and the metrics of the current threshold."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from core.analysis import Analysis
from core.metrics.metric import format_count
from tui.ascii import to_ascii
from tui.explorer.frame import Frame
from tui.widgets.text import TextLines

SHORT_LIST = ("precision", "recall", "f1", "accuracy", "specificity", "fpr")


class ConfusionMatrix(TextLines):
    """The 2x2 counts, labelled axes and totals (the metric denominators)."""

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the screen)."""

    def watch_frame(self, frame: Frame | None) -> None:
        if frame is None:
            return
        k, c = frame.analysis.counts, format_count
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

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the screen)."""
    ascii: reactive[bool] = reactive(False)
    """Formulas in ASCII (``sqrt``, ``beta^2``) rather than with signs."""

    def watch_frame(self) -> None:
        self._draw()

    def watch_ascii(self) -> None:
        self._draw()

    def _draw(self) -> None:
        if self.frame is not None:
            text = metric_text(self.frame.analysis, SHORT_LIST, ascii=self.ascii)
            text.append("\nm: all metrics", style="dim")
            self.show(text, sticky=True)
