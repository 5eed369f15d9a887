"""Text for widgets redrawn on every key: a Static that asks for a layout only when its
height changes, and fitted lines for the Line-API tables.

Every key press rewrites several lines of text (the threshold bar, the
matrix, the metrics, the status sentence). ``Static.update`` lays out the
whole screen each time, which costs a full extra frame; the text here is
measured at its width instead, and the screen is laid out only when the
number of lines it needs has changed.
"""

from __future__ import annotations

from rich.segment import Segment
from rich.style import Style
from textual.reactive import reactive
from textual.strip import Strip
from textual.visual import VisualType
from textual.widgets import Static

from tui.explorer.frame import Frame


def fitted(text: str, style: Style, width: int, *, pad: Style | None = None) -> Strip:
    """One line of a Line-API table: ``text`` in ``style``, cut or padded to ``width``
    (the padding in ``pad``, by default the same style, so a highlight spans the row)."""
    strip = Strip([Segment(text, style)]).crop(0, width)
    return strip.extend_cell_length(width, style if pad is None else pad)


def blank(width: int, style: Style | None = None) -> Strip:
    """An empty line of a Line-API table, in ``style`` (the table's own, so empty
    lines match its rows). Its segment always carries a style, never None:
    Textual's NO_COLOR filter reads every segment's style and fails on None."""
    return Strip.blank(width, Style() if style is None else style)


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


class StatusLine(TextLines):
    """The status sentence of the active policy: what a screen reader reads after each key."""

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the screen)."""

    def watch_frame(self, frame: Frame | None) -> None:
        if frame is not None:
            self.show(frame.update.status, sticky=True)


class MessageLine(TextLines):
    """The sentence the last action said (a change made, a refusal and why)."""

    message: reactive[str] = reactive("")
    """The text to show (handed down by the screen)."""

    def watch_message(self, text: str) -> None:
        self.show(text)
