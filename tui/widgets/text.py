"""Static text that asks for a layout only when its height changes.

Every key press rewrites several lines of text (the threshold bar, the
matrix, the metrics, the status sentence). ``Static.update`` lays out the
whole screen each time, which costs a full extra frame; the text here is
measured at its width instead, and the screen is laid out only when the
number of lines it needs has changed.
"""

from __future__ import annotations

from textual.visual import VisualType
from textual.widgets import Static


class TextLines(Static):
    """A Static whose :meth:`show` skips the layout pass when the height is unchanged."""

    _needed: int | None = None

    def show(self, content: VisualType, *, sticky: bool = False) -> None:
        """Show ``content``; with ``sticky`` a shorter text does not ask for a layout
        (the lines left over stay blank until the next one), so text whose wrapped
        height flickers by a line from key to key does not lay the screen out each time.
        """
        self.update(content, layout=False)
        if not self.display:
            # Hidden: nothing to lay out now; showing it again lays the screen out.
            self._needed = None
            return
        region = self.content_region
        if not self.is_mounted or region.width <= 0:
            self._needed = None
            self.refresh(layout=True)
            return
        needed = self.get_content_height(region.size, self.app.size, region.width)
        if sticky and self._needed is not None and needed < self._needed:
            return
        if needed != self._needed:
            self._needed = needed
            self.refresh(layout=True)
