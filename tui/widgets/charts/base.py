"""What every chart shares: the marks they are told apart by, the axis arithmetic that
puts a tick on the row of its value, plotext's bare canvas read as text, and the base
class that lays the axes, ticks, names and legend around a chart's canvas.

Each chart follows textual-plotext's pattern: ``replot()`` sets the title and legend
and refreshes, called when the frame changes; ``render()`` draws. The points come
prepared from core (:mod:`threshold_lab.core.drawing.prepared`), from the exact sweep,
never a grid; the charts only draw them.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Span, Text
from textual.geometry import Offset
from textual.reactive import reactive
from textual_plotext import PlotextPlot
from threshold_lab.core.drawing.lines import CurveLine
from threshold_lab.core.drawing.scaled import cell_of
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.widgets.text import tail_name

#: The marks, told apart by shape (not colour alone): the baseline is dashes ``-``,
#: the sweep a braille line (``*`` in ASCII), the active point ``O``, a bootstrap's
#: band's edges dots ``·`` (``.`` in ASCII).
CHANCE_MARK, ACTIVE_MARK = "-", "O"
#: A review band's reject point (its lower threshold), beside the active point ``O``.
LOW_MARK = "L"
BAND_MARK, BAND_MARK_ASCII = "\u00b7", "."
#: Each model's curve mark, by its place among the models (it keeps its mark whichever
#: model is shown): the first a braille line (``*`` in ASCII), then ASCII shapes that
#: are neither an axis's (``+ - |`` in ASCII), the score strip's (``+ o``) nor a letter
#: (the axis name reads ``x: FPR``).
MODEL_MARKS = ("#", "%", "&", "@", "$", "~")
#: How much of a model's name a legend gives.
LEGEND_NAME = 12
#: The charts that draw every model's curve, not the shown one's alone.
OVERLAID = ("roc", "pr", "det")
#: Where a tick's value would be: the axis values labelled on every chart.
TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)


def plot_cells(available: int) -> int:
    """How many cells of ``available`` the plot uses along one axis: one more than a
    multiple of four (so 0, 0.25, 0.5, 0.75 and 1 each fall exactly on a cell, and a
    tick's row is its value's row) when that loses at most a sixth of them; else an odd
    number, so 0, 0.5 and 1 do. A tick between two cells put a value of 0.8 on the
    0.75 tick's row; the rows given up go above the plot."""
    quarters = available - (available - 1) % 4
    if available >= 9 and available - quarters <= max(1, available // 6):
        return quarters
    return available - (available - 1) % 2 if available >= 3 else max(available, 1)


def unit_ticks(cells: int, least_apart: int) -> tuple[float, ...]:
    """The tick values on an axis of ``cells`` cells over 0..1: quarters, halves or
    the ends, the finest whose every value falls exactly on a cell with at least
    ``least_apart`` cells between neighbours."""
    for ticks in (TICKS, (0.0, 0.5, 1.0)):
        parts = len(ticks) - 1
        if (cells - 1) % parts == 0 and (cells - 1) // parts >= least_apart:
            return ticks
    return (0.0, 1.0)


def plain_canvas(plt: Any, cols: int, rows: int) -> list[str]:
    """What plotext drew on a ``cols`` x ``rows`` canvas: ``rows`` lines of ``cols``
    characters, the top row first. Read from plotext's grid of marks rather than from
    ``build()``, which wraps every cell in colour codes (none here: theme "clear") that
    a parse then strips again, half of a chart's drawing time. The same characters as
    ``build()``'s text (a test holds it to that)."""
    plt._set_sizes()
    plt._build_matrix()
    assert not plt.monitor.fast_plot  # plotext's fast plots keep no grid (never drawn here)
    grid = plt.monitor.matrix.marker
    lines = ["".join(row) for row in reversed(grid)][:rows]
    return [(line + " " * cols)[:cols] for line in lines + [""] * (rows - len(lines))]


def same_key(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    """Equal keys: the same values, and the very same objects where they are objects
    (a band's arrays are not compared element by element)."""
    if len(a) != len(b):
        return False
    plain = str | int | float | bool
    return all(x is y or (isinstance(x, plain) and x == y) for x, y in zip(a, b, strict=True))


def model_mark(index: int, ascii: bool) -> str:
    """The mark model ``index``'s curve is drawn with: ``braille``, or one character."""
    if index == 0:
        return "*" if ascii else "braille"
    return MODEL_MARKS[(index - 1) % len(MODEL_MARKS)]


def legend_name(name: str) -> str:
    """A model's name as a legend gives it (see :func:`tail_name`)."""
    return tail_name(name, LEGEND_NAME)


def is_braille(ch: str) -> bool:
    """Whether ``ch`` is a braille cell (the first model's curve, out of ASCII)."""
    return "\u2800" <= ch <= "\u28ff"


def tick_text(value: float) -> str:
    """A tick's label on a unit axis: two decimals."""
    return f"{value:.2f}"


class Chart(PlotextPlot):
    """The machinery every chart shares (the concrete charts are :class:`CurveChart`
    and its kinds): plotext draws on a bare canvas, with no axes of its own; the axes,
    the ticks and the axis names are laid around it here, at the cells the values
    fall on, so a tick's label and a point of that value share a row. Each chart
    says what it draws: its canvas, axes, ticks, title and legend.
    """

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the chart panel)."""
    ascii: reactive[bool] = reactive(False)
    """Draw the curve with ``*`` rather than braille."""

    def __init__(self, kind: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.kind = kind
        self._base: (
            tuple[object, tuple[object, ...], list[Text], tuple[int, int, int, int]] | None
        ) = None
        self._xlabels: dict[float, str] = {}
        #: The cell (column, row of the content) the active point was last drawn at,
        #: or None: where the terminal's cursor goes on the chart pane.
        self.active_cell: tuple[int, int] | None = None
        #: The cell the screen was last asked to put the cursor on (see :meth:`drawn_at`).
        self._followed: tuple[int, int] | None = None

    def drawn_at(self, cell: tuple[int, int] | None) -> None:
        """Record where the active point was just drawn; when it moved, the screen puts
        the terminal's cursor there once this frame is on screen (the screen's own call
        ran before the chart had drawn the new point, leaving the cursor a move behind)."""
        self.active_cell = cell
        place = getattr(self.screen, "place_cursor", None) if self.is_attached else None
        if cell != self._followed and place is not None:
            self._followed = cell
            self.call_after_refresh(place)

    def active_offset(self) -> Offset | None:
        """Where on the screen the active point is drawn, or None (not drawn, or this
        chart not shown)."""
        if self.active_cell is None or not self.display or not self.region:
            return None
        col, row = self.active_cell
        region = self.content_region
        return Offset(region.x + col, region.y + row)

    def watch_frame(self) -> None:
        if self.display:  # a hidden chart is drawn when it is shown again
            self.replot()

    def watch_ascii(self) -> None:
        self._base = None

    def on_resize(self) -> None:
        # The drawing is kept: its key holds the size and the border it was drawn for,
        # so a chart shown again (whose first frame was drawn before its resize
        # arrived) is not drawn twice at the same size.
        self.border_title = self._title()
        self.border_subtitle = self.legend_to_fit(self.size.width - 4)

    def replot(self) -> None:
        """Follow the frame: the title and legend, and the chart is drawn again."""
        if self.frame is None:
            return
        # The numbers are in the panel's summary line, which wraps between them:
        # a border title is cut at the border's width.
        self.border_title = self._title()
        self.border_subtitle = self.legend_to_fit(self.size.width - 4)
        self.refresh()

    @property
    def legend(self) -> str:
        """What each mark means, by shape."""
        return self.legend_to_fit(1000)

    def _title(self) -> str:
        """The chart's name, as its border shows it."""
        raise NotImplementedError

    def legend_to_fit(self, width: int) -> str:
        """The legend in its longest wording of at most ``width`` cells."""
        raise NotImplementedError

    def _axes(self) -> tuple[str, str]:
        """The x and y axes' names."""
        raise NotImplementedError

    def _x_axis(self, frame: Frame, available: int) -> tuple[int, tuple[float, ...]]:
        """The columns the plot takes of ``available``, and where on 0..1 its x ticks are."""
        raise NotImplementedError

    def _y_ticks(self, rows: int) -> tuple[tuple[float, str], ...]:
        """The y axis's ticks, (place on 0..1, label), on an axis of ``rows`` rows."""
        raise NotImplementedError

    def _canvas(self, frame: Frame, line: CurveLine | None, cols: int, rows: int) -> list[str]:
        """What the chart draws on a bare ``cols`` x ``rows`` canvas of the unit square."""
        raise NotImplementedError

    #: Marks drawn in the baseline's fainter colour (each chart names its own).
    faint_marks: frozenset[str] = frozenset()

    def _xtick(self, v: float) -> str:
        """The x axis's label at ``v`` of the unit square."""
        return self._xlabels.get(v, tick_text(v))

    def _mark_style(self, ch: str) -> Style | None:
        """A mark with a colour of its own (the metric chart's series), else None."""
        return None

    def _bare(self, cols: int, rows: int) -> Any:
        """plotext, cleared for a bare ``cols`` x ``rows`` canvas of the unit square:
        no axes, ticks or frame of its own (the chart lays its own around it)."""
        plt = self.plt
        plt.clear_figure()
        plt.plotsize(cols, rows)
        plt._set_size(cols, rows)  # as textual-plotext does (textual-plotext's issue 5)
        plt.xlim(0, 1)
        plt.ylim(0, 1)
        plt.xticks([])
        plt.yticks([])
        plt.xaxes(False, False)
        plt.yaxes(False, False)
        plt.frame(False)
        plt.theme("clear")
        return plt

    def _bordered(self) -> bool:
        """Whether a border carries the legend (none at 80x24, where the legend shares
        the axis name's line)."""
        return self.styles.border_bottom[0] not in ("", "none", "hidden", "blank")

    def _look(self, width: int, height: int) -> tuple[object, ...]:
        """What every chart's drawing is made for, whatever it draws: the size, the
        border, the theme and the character set. The first part of each drawing's key;
        the rest is what that chart draws from."""
        return (width, height, self._bordered(), self.app.theme, self.ascii)

    def _shown_mark(self, frame: Frame) -> str:
        """The shown model's mark: its place among the models' (the first's with one)."""
        rows = frame.update.models
        shown = next((i for i, r in enumerate(rows) if r.shown), 0)
        return model_mark(shown, self.ascii)

    def _build(
        self, frame: Frame, line: CurveLine | None, width: int, height: int
    ) -> tuple[list[Text], tuple[int, int, int, int]]:
        """The whole chart without the marker, and where its canvas is:
        (left column, top row, columns, rows)."""
        xname, yname = self._axes()
        rows = plot_cells(height - 3)  # the axis, its labels and its name below
        yticks = self._y_ticks(rows)
        margin = max(4, len(yname), *(len(t) for _, t in yticks)) + 1
        # Two columns on the right for the last tick's label, centred on x = 1.
        cols, xticks = self._x_axis(frame, width - margin - 2)
        axis = self.get_component_rich_style("curve-chart--axis")
        sweep = self.get_component_rich_style("curve-chart--sweep")
        chance = self.get_component_rich_style("curve-chart--chance")
        band_style = self.get_component_rich_style("curve-chart--band")
        other = self.get_component_rich_style("curve-chart--other")
        shown_mark = self._shown_mark(frame)
        labels = {rows - 1 - cell_of(v, rows): t for v, t in yticks}
        overlay = frame.update.models and self.kind in OVERLAID
        out: list[Text] = []
        for r, row in enumerate(self._canvas(frame, line, cols, rows)):
            if r in labels:
                left = f"{labels[r]:>{margin - 1}}┤"
            elif r == 1:  # the y axis's name, at its top
                left = f"{yname:>{margin - 1}}│"
            else:
                left = " " * (margin - 1) + "│"
            # Each mark its own one-cell span, as appending it with its style would
            # make (the spans, and so the screen, the same), without append's checks.
            spans = []
            for c, ch in enumerate(row, len(left)):
                if ch == " ":
                    continue
                own = self._mark_style(ch)
                if own is not None:
                    style = own
                elif ch in (BAND_MARK, BAND_MARK_ASCII):
                    style = band_style
                elif ch in self.faint_marks:
                    style = chance
                elif ch == shown_mark or (shown_mark == "braille" and is_braille(ch)):
                    style = sweep
                else:  # another model's mark (or a metric's letter, as the sweep's)
                    style = other if overlay else sweep
                if style:  # as append: a style that sets nothing makes no span
                    spans.append(Span(c, c + 1, style))
            out.append(Text(left + row, style=axis, spans=spans))
        rule = ["─"] * cols
        names = [" "] * (margin + cols + 2)
        for v in xticks:
            c = cell_of(v, cols)
            rule[c] = "┬"
            label = self._xtick(v)
            # Centred under its tick, kept inside the chart (a long score at x = 1).
            start = min(max(margin + c - len(label) // 2, 0), len(names) - len(label))
            names[start : start + len(label)] = label
        out.append(Text(" " * (margin - 1) + "└" + "".join(rule), style=axis))
        out.append(Text("".join(names).rstrip(), style=axis))
        name = Text(" " * margin + f"{xname:^{cols}}".rstrip(), style=axis)
        if not self._bordered():
            # No border to carry the legend (80x24): it shares the axis name's line,
            # which has room either side of the name.
            legend = self.legend_to_fit(width - 6 - len(xname))
            centre = margin + (cols - len(xname)) // 2
            # Under the plot's centre where it fits, else as far as keeps it whole.
            room = width - len(legend) - len(f"x: {xname}")
            gap = min(max(centre - len(legend), 3), max(room, 1))
            name = Text((legend + " " * gap + f"x: {xname}")[:width], style=axis)
        out.append(name)
        # Rows the plot cannot use (ticks falling on cells) go above it, so the axis
        # stays by the legend below.
        top = height - len(out)
        return [Text("") for _ in range(top)] + out, (margin, top, cols, rows)
