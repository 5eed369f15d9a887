"""The threshold control's display: value, rule and place in the sweep."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from threshold_lab.core.text.scores import threshold_words
from threshold_lab.core.text.sentences import tie_group_rows, tie_group_text
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.widgets.text import ItemLines


class ThresholdBar(ItemLines):
    """Shows ``Threshold 0.5 · positive if score >= t · tie group 3 of 4 (...)``.

    Where the whole line does not fit (80 columns, a long threshold), the tie
    group's detail goes first, so the bar keeps one line and nothing below moves.
    """

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the screen)."""

    def watch_frame(self, frame: Frame | None) -> None:
        if frame is None:
            return
        a = frame.analysis
        own = frame.own
        if own is not None:  # no one threshold: each group's
            head = Text("Each group at its own threshold", style="bold")
            each = own.thresholds_words()
            self.show_items(
                (head, each, "all rows pooled; M shows one, O one threshold"), (head, each), (head,)
            )
            return
        t = threshold_words(a.threshold, a.sweep.thresholds)
        value = Text(f"Threshold {t}", style="bold")
        rule = (
            "nothing is predicted positive" if a.threshold is None else f"positive if score >= {t}"
        )
        # Above all, the place reads "before tie group 1 of 4": "above all scores"
        # is said once, by the value.
        where = tie_group_text(a)
        if where.startswith("above all scores ("):
            where = where.removeprefix("above all scores (").removesuffix(")")
        counted = tie_group_rows(a)  # the tie's count kept: tied rows enter together
        short = where.split(" (")[0]
        terse = "nothing positive" if a.threshold is None else f">= {t}"
        self.show_items(
            (value, rule, where),
            (value, rule, counted),
            (value, terse, counted),
            (value, terse, short),
        )
