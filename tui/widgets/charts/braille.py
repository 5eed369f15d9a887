"""The braille line above the chart (``b``): the curve shown as one line of braille
cells, the contract of :mod:`threshold_lab.core.curves.braille`, for a refreshable
braille display, with the active point's cell marked and the terminal's cursor on it."""

from __future__ import annotations

from rich.text import Text
from textual.geometry import Offset
from textual.reactive import reactive
from textual.widget import Widget
from threshold_lab.core.curves.braille import WIDTH, BrailleLine, braille_line, point_cell
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.tui.state.chart_modes import ChartMode
from threshold_lab.tui.state.frame import Frame

#: The curve each chart mode's braille line reads (both: the ROC curve).
CURVE_OF: dict[str, str] = {"roc": "roc", "both": "roc", "pr": "pr", "det": "det"}
#: What the line ends with where there is room: the curve it reads.
NAMES = {"roc": "ROC", "pr": "PR", "det": "DET"}


class BrailleStrip(Widget):
    """One line: the shown curve as :data:`WIDTH` braille cells (fewer on a narrower
    panel), the active point's cell reversed, then the curve's name where it fits."""

    DEFAULT_CSS = "BrailleStrip { height: 1; padding: 0 1; display: none; }"

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the screen)."""
    mode: reactive[ChartMode] = reactive("roc")
    """The chart panel's mode: the line reads its curve."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: The last line made, and the sweep and the kind and width it was made for: a
        #: threshold move changes only the cell marked, never the line.
        self._made: tuple[Sweep, str, int, BrailleLine] | None = None
        #: The cell the screen was last asked to put the cursor on.
        self._followed: int | None = None

    @property
    def kind(self) -> str | None:
        """The curve the line reads, or None (the chart shown is not a curve's)."""
        return CURVE_OF.get(self.mode)

    def cells(self) -> int:
        """How many cells the line has: :data:`WIDTH`, or the panel's room if less."""
        return max(1, min(WIDTH, self.content_region.width or WIDTH))

    def line(self) -> BrailleLine | None:
        """The line for the frame's curve (made once per sweep, kind and width)."""
        frame, kind = self.frame, self.kind
        if frame is None or kind is None:
            return None
        sweep, width = frame.analysis.sweep, self.cells()
        made = self._made
        if made is None or made[0] is not sweep or made[1] != kind or made[2] != width:
            made = (sweep, kind, width, braille_line(sweep, kind, width))
            self._made = made
        return made[3]

    def active_cell(self) -> int | None:
        """The cell of the active point (see :func:`point_cell`), or None."""
        frame, kind = self.frame, self.kind
        if frame is None or kind is None or frame.own is not None:
            return None  # each group at its own threshold: no one point is active
        a = frame.analysis
        return point_cell(a.sweep, kind, a.point, self.cells())

    def active_offset(self) -> Offset | None:
        """Where on the screen the active point's cell is, or None (not shown)."""
        cell = self.active_cell()
        if cell is None or not self.display or not self.region:
            return None
        region = self.content_region
        return Offset(region.x + cell, region.y)

    def render(self) -> Text:
        line, kind = self.line(), self.kind
        if line is None or kind is None:
            return Text("")
        text = Text(line.cells)
        cell = self.active_cell()
        if cell is not None:
            text.stylize("reverse", cell, cell + 1)
        place = getattr(self.screen, "place_cursor", None)
        if cell != self._followed and place is not None:
            self._followed = cell  # drawn: the cursor follows once this frame is shown
            self.call_after_refresh(place)
        name = NAMES[kind]
        if self.content_region.width >= len(line.cells) + 1 + len(name):
            text.append(f" {name}")
        return text

    def watch_frame(self) -> None:
        self.refresh()

    def watch_mode(self) -> None:
        self.refresh()
