"""The confusion matrix with its margins, and the metrics of the current threshold."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.metrics.metric import format_count
from threshold_lab.core.text.operating import partial_auc_short
from threshold_lab.core.threshold import format_threshold
from threshold_lab.tui.ascii import to_ascii
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.widgets.text import ItemLines, TextLines, wrap_items

SHORT_LIST = ("precision", "recall", "f1", "accuracy", "specificity", "fpr")
#: The panel's metrics in the order they are shown while rows last: the headline six,
#: then the rest of what ``m`` lists at this threshold.
PANEL_ORDER = (
    *SHORT_LIST,
    "npv",
    "fnr",
    "balanced_accuracy",
    "mcc",
    "fbeta",
    "prevalence",
    "queue_rate",
    "lr_plus",
    "lr_minus",
    "lift",
    "cohen_kappa",
    "informedness",
    "markedness",
    "diagnostic_odds_ratio",
    "fowlkes_mallows",
    "jaccard",
)


class ConfusionMatrix(TextLines):
    """The 2x2 counts, labelled axes and totals (the metric denominators)."""

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the screen)."""

    def watch_frame(self, frame: Frame | None) -> None:
        if frame is None:
            return
        k, c = frame.analysis.counts, format_count
        cells = [
            ("pooled" if frame.own is not None else "", "pred 1", "pred 0", "total"),
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


def formula_lines(line: str, width: int, tail: str | None = None) -> list[str]:
    """A metric's line broken only at its ``=`` signs when it is wider than ``width``:
    a formula, its counts and its value each stay whole, continuations indented.
    ``tail`` (an interval) follows as one more piece, kept whole.

    >>> formula_lines("precision = TP/(TP+FP) = 2/(2+1) = 2/3 ≈ 0.6667", 30)
    ['precision = TP/(TP+FP)', '  = 2/(2+1) = 2/3 ≈ 0.6667']
    >>> formula_lines("recall = 1/2 = 0.5", 30, "(95% CI 0.09 to 0.91, n = 2)")
    ['recall = 1/2 = 0.5', '  (95% CI 0.09 to 0.91, n = 2)']
    """
    whole = line if tail is None else f"{line} {tail}"
    if len(whole) <= width:
        return [whole]
    first, *rest = line.split(" = ")
    items = [Text(first), *(Text(f"= {r}") for r in rest)]
    if tail is not None:
        items.append(Text(tail))
    lines = [t.plain for t in wrap_items(items, max(width - 2, 8), sep=" ")]
    return [lines[0], *(f"  {t}" for t in lines[1:])]


class MetricsPanel(ItemLines):
    """The metrics of the current threshold, as many as the panel has rows for (the
    headline six first); ``m`` opens all of them."""

    DEFAULT_CSS = "MetricsPanel { height: 1fr; }"

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the screen)."""
    ascii: reactive[bool] = reactive(False)
    """Formulas in ASCII (``sqrt``, ``beta^2``) rather than with signs."""
    progress: reactive[str] = reactive("")
    """A bootstrap under way (``bootstrap 450/1000``), shown in the key hint."""

    def watch_frame(self) -> None:
        self.refresh()

    def watch_progress(self) -> None:
        self.refresh()

    def watch_ascii(self) -> None:
        self.refresh()

    def _shown(self, line: str) -> str:
        """``line`` as this panel writes it (ASCII stand-ins under ``--ascii``)."""
        return to_ascii(line) if self.ascii else line

    def lines_at(self, width: int) -> list[Text]:
        frame = self.frame
        if frame is None:
            return []
        a = frame.analysis
        sure = frame.update.sure
        measures = frame.readings.measures
        keys = ["i: " + ("hide" if sure is not None else "show") + " intervals"]
        if self.progress:
            keys.append(f"B: cancel {self.progress}")
        elif sure is not None and sure.boot is not None:
            keys.append("B: bootstrap off")
        elif sure is not None:
            keys.append("B: bootstrap")

        def hint(more: int) -> list[Text]:
            first = "m: all metrics" + (f" ({more} more)" if more else "")
            return wrap_items([Text(k) for k in (first, *keys)], width, sep="  ")

        # The hint's rows, at its longest: the metrics get the rest.
        reserve = len(hint(len(PANEL_ORDER)))
        room = max(self.content_region.height, len(SHORT_LIST) + reserve) - reserve
        lines: list[Text] = []
        shown = 0
        for name in PANEL_ORDER:
            m = a.metrics[name]
            measured = None if measures is None else measures[name].interval
            interval = None if measured is None else measured.short()
            tail = None if interval is None else f"({interval})"
            # The reduced fraction after the counts (8/10 = 4/5) where it costs no
            # line: the panel shows as many metrics as before it was added (m and
            # the report always have it).
            wrapped = min(
                (
                    formula_lines(self._shown(m.describe(reduced=r)), width, tail)
                    for r in (True, False)
                ),
                key=len,
            )
            if len(lines) + len(wrapped) > room:
                break
            style = "bold" if m.value is None else ""
            lines.extend(Text(t, style=style) for t in wrapped)
            shown += 1
        if shown == len(PANEL_ORDER):
            lines.extend(self._readout_lines(frame, width, room - len(lines)))
        for t in hint(len(PANEL_ORDER) - shown):
            t.stylize("dim")
            lines.append(t)
        return lines

    def _readout_lines(self, frame: Frame, width: int, room: int) -> list[Text]:
        """The operating points at fixed rates, one line each, under a heading, then the
        partial AUCs asked for, when every metric fitted and rows are left (``m`` lists
        them all, R jumps to each readout)."""
        if room < 3:
            return []
        out = [Text(self._shown("At fixed rates (R jumps to each):"), style="dim")]
        for p in frame.readings.partial:
            out.extend(Text(t) for t in formula_lines(self._shown(partial_auc_short(p)), width))
        for r in frame.readings.readouts[: room - 2]:
            at = (
                "undefined"
                if r.counts is None
                else (f"{r.value.short()} at {format_threshold(r.threshold)}")
            )
            out.extend(Text(t) for t in formula_lines(self._shown(f"{r.asked}: {at}"), width))
        return out if len(out) <= room - 1 else out[: room - 1]
