"""The band line under the goal line: a review band's three parts, shown while a band
is set (``D`` or ``--band-goal``)."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.widgets.text import ItemLines


class BandLine(ItemLines):
    """``Band · accept >= 0.64: 7 (TP 7, FP 0) · reject < 0.33: 6 (TN 6, FN 0) · review
    7 (3 positives, 4 negatives) · coverage 13/20 · { } move the reject threshold``."""

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the screen)."""

    def watch_frame(self, frame: Frame | None) -> None:
        band = None if frame is None else frame.update.review
        self.display = band is not None
        if band is None:
            return
        head = Text("Band", style="bold")
        accept, reject, review, coverage = band.parts()
        keys = "{ } move the reject threshold"
        self.show_items(
            (head, accept, reject, review, coverage, keys),
            (head, accept, reject, review, coverage),
            (head, *band.short_parts(), keys),
            (head, *band.short_parts()),
        )
