"""Text for widgets redrawn on every key: a Static that asks for a layout only when its
height changes, and fitted lines for the Line-API tables.

Every key press rewrites several lines of text (the threshold bar, the
matrix, the metrics, the status sentence). ``Static.update`` lays out the
whole screen each time, which costs a full extra frame; the text here is
measured at its width instead, and the screen is laid out only when the
number of lines it needs has changed.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.app import RenderResult
from textual.css.scalar import Unit
from textual.geometry import Size
from textual.reactive import reactive
from textual.strip import Strip
from textual.visual import VisualType
from textual.widget import Widget
from textual.widgets import Static
from threshold_lab.core.text.sentences import status_sentence
from threshold_lab.tui.state.frame import Frame


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
    counts_only: reactive[bool] = reactive(False)
    """The counts without precision and recall (a lesson hides the metrics)."""

    def watch_frame(self, frame: Frame | None) -> None:
        if frame is not None:
            status = frame.update.status
            if self.counts_only:
                status = status_sentence(frame.analysis, metrics=False)
            self.show(status, sticky=True)

    def watch_counts_only(self) -> None:
        self.watch_frame(self.frame)


class MessageLine(TextLines):
    """The sentence the last action said (a change made, a refusal and why). A
    sentence longer than the line's room is cut at a word and says so: the message
    log (``L``) has it whole."""

    message: reactive[str] = reactive("")
    """The text to show (handed down by the screen)."""

    #: What a cut message ends with.
    CUT = " … (L: the whole message)"

    def watch_message(self, text: str) -> None:
        self.show(self.fit(text))
        if not (self.is_mounted and self.content_region.width):
            # Not laid out yet: the line's width is unknown, so the text went uncut.
            # Fit it again once it is (a resize may have come first, and a long
            # opening line then stayed uncut, clipped without its note: a race a
            # snapshot caught under load).
            self.call_after_refresh(self._refit)

    def on_resize(self) -> None:
        self._refit()

    def _refit(self) -> None:
        self.show(self.fit(self.message))

    def fit(self, text: str) -> str:
        """``text`` as it fits the line's room (its width and most lines), cut at a
        word with :data:`CUT` when it does not."""
        width = self.content_region.width if self.is_mounted else 0
        most = self.styles.max_height
        rows = int(most.value) if most is not None and most.unit == Unit.CELLS else 2
        if width <= len(self.CUT) + 8 or not text:
            return text
        if self._lines(text, width) <= rows:
            return text
        room = width * rows - len(self.CUT)
        while True:  # the longest cut whose wrapped lines, with the note, still fit
            head = text[:room].rsplit(" ", 1)[0] if " " in text[:room] else text[:room]
            shown = head.rstrip(" ,;:") + self.CUT
            if self._lines(shown, width) <= rows or room <= width // 2:
                return shown
            room -= max(1, width // 8)

    def _lines(self, text: str, width: int) -> int:
        """How many lines ``text`` takes at ``width`` cells, wrapped as the screen wraps
        it: by cells, so a file name in a script of double-width characters (数据.csv)
        is measured at its width on screen, not its length in characters."""
        return len(Text(text).wrap(self.app.console, width))


def wrap_items(items: Sequence[Text], width: int, sep: str = " · ") -> list[Text]:
    """``items`` joined by ``sep`` in lines of at most ``width`` cells, broken only
    between items, never inside one ("61/90 ≈ 0.6778" is not split across lines).
    An item wider than a line is wrapped at its own spaces, alone on its lines.

    >>> [t.plain for t in wrap_items([Text("AUC 7/12 ≈ 0.5833"), Text("AP 34/45")], 20)]
    ['AUC 7/12 ≈ 0.5833', 'AP 34/45']
    """
    lines: list[Text] = []
    line: Text | None = None
    for item in items:
        if line is not None and line.cell_len + len(sep) + item.cell_len <= width:
            line.append(sep)
            line.append_text(item)
            continue
        if line is not None:
            lines.append(line)
        if item.cell_len <= width:
            line = Text()
            line.append_text(item)  # the item's style stays its own, not the line's
        else:
            *whole, line = item.wrap(Console(width=max(width, 1)), max(width, 1))
            lines.extend(whole)
    if line is not None:
        lines.append(line)
    return lines


class ItemLines(Widget):
    """Items (summaries, the threshold's parts) in as many lines as the width needs,
    broken only between items. ``choices`` are tried in order: the first that fits on
    one line is shown, else the last is wrapped, so a narrow screen gets the short
    form rather than a second line that moves everything below it."""

    DEFAULT_CSS = "ItemLines { height: auto; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._choices: tuple[tuple[Text, ...], ...] = ()
        self._lines: tuple[int, list[Text]] | None = None

    def show_items(self, *choices: Sequence[Text | str]) -> None:
        """Show the first of ``choices`` (each a sequence of items) that fits one line."""
        new = tuple(tuple(Text(i) if isinstance(i, str) else i for i in c) for c in choices)
        if new == self._choices:
            return
        before = self._lines
        self._choices, self._lines = new, None
        width = self.content_region.width
        same = before is not None and before[0] == width
        if same and before is not None and len(self.lines_at(width)) == len(before[1]):
            self.refresh()
        else:
            self.refresh(layout=True)

    def lines_at(self, width: int) -> list[Text]:
        if self._lines is not None and self._lines[0] == width:
            return self._lines[1]
        lines: list[Text] = []
        for choice in self._choices:
            lines = wrap_items(choice, width)
            if len(lines) <= self.lines_wanted(width):
                break
        self._lines = (width, lines)
        return lines

    def lines_wanted(self, width: int) -> int:
        """How many lines a choice may take before the next, shorter one is tried."""
        return 1

    @property
    def plain(self) -> str:
        """What is shown, as plain text (for tests and screen readers)."""
        return "\n".join(t.plain for t in self.lines_at(self.content_region.width or 80))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(len(self.lines_at(width)), 1)

    def render(self) -> RenderResult:
        return Text("\n").join(self.lines_at(self.content_region.width))


def tail_name(name: str, width: int) -> str:
    """``name`` whole up to ``width`` cells, else its end after ``…`` (where file-named
    models differ: ``…runs/model_b``)."""
    return name if len(name) <= width else "\u2026" + name[-(width - 1) :]
