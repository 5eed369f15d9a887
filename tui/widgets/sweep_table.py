"""Every operating point of the sweep; the active one is highlighted and marked ``>``.

Virtual like the row table: a sweep of ten million points is scrolled, and
only the lines on screen are computed (counts and four metrics per line).
"""

from __future__ import annotations

from fractions import Fraction
from typing import ClassVar

from textual import events
from textual.binding import BindingType
from textual.geometry import Region
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.metrics.metric import Metric, format_count, format_decimal
from threshold_lab.core.text.scores import shown_score
from threshold_lab.tui.bindings import bindings
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.widgets.text import blank, fitted

#: The columns every table has; F1 and the metrics of a goal in force follow them
#: (:attr:`threshold_lab.core.session.update.Update.sweep_columns`).
COLUMNS = ("threshold", "TP", "FP", "TN", "FN", "TPR", "FPR", "precision")
#: Columns left out, in this order, when the table is too narrow for all of them
#: (the matrix above shows them for the active point); a goal's columns go last.
OPTIONAL = ("F1", "TN", "FN")
#: The columns of counts: the rest are metrics, shown as their counts (8/14) while
#: they fit, or decimals (``x``).
COUNT_COLUMNS = ("threshold", "TP", "FP", "TN", "FN")
#: A rate's counts wider than this are shown as a decimal (marked ≈ where it is not
#: exact); the metrics panel keeps the counts.
RATE_WIDTH = 9
#: Lines above the points: the summary and the column names (as in the row table).
HEADER = 2


def rate_text(m: Metric, *, decimals: bool = False) -> str:
    """A rate's cell: its counts (``8/14``, ``0/10``) while they fit :data:`RATE_WIDTH`,
    else, or with ``decimals``, its decimal: ``0.5`` where exact, ``≈0.5714`` where not.

    >>> from threshold_lab.core.metrics.metric import ratio
    >>> r = ratio(8, 14, reason="")
    >>> rate_text(r), rate_text(r, decimals=True), rate_text(ratio(7, 14, reason=""), decimals=True)
    ('8/14', '≈0.5714', '0.5')
    >>> rate_text(ratio(12346, 15000, reason="")), rate_text(ratio(12345, 15000, reason=""))
    ('≈0.8231', '0.823')
    """
    if m.value is None:
        return "undefined"
    if not decimals:
        short = m.short()
        if len(short) <= RATE_WIDTH:
            return short
    text = format_decimal(m.value)
    if m.exact is not None and Fraction(text) == m.exact:
        return text
    return f"≈{m.value:.4f}"


class SweepTable(Widget, can_focus=True, inherit_bindings=False):
    """Threshold, TP, FP, TN, FN, TPR (recall), FPR, precision and F1 per tie group,
    and the metrics of the goal in force; where the width is short, F1, then TN and
    FN, then the goal's columns are left out.

    It scrolls itself (``top`` is the first point shown), as the row table does.
    Focused (tab, or pane 4), up and down step the threshold through the
    operating points, so the active point is its cursor; a click picks a point.
    """

    #: The table's own keys, from the commands' declarations (tui/commands.py).
    BINDINGS: ClassVar[list[BindingType]] = bindings("sweep")

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "sweep-table--header",
        "sweep-table--active",
        "sweep-table--summary",
    }
    """
    | Class | Description |
    | :- | :- |
    | `sweep-table--header` | The column names (threshold, TP, FP, TN, FN, the rates). |
    | `sweep-table--active` | The active operating point (the cursor, when focused). |
    | `sweep-table--summary` | The first line: which points are shown of how many. |
    """

    DEFAULT_CSS = """
    SweepTable { background: $surface; }
    SweepTable > .sweep-table--summary { color: $text-muted; }
    SweepTable > .sweep-table--header { text-style: bold; color: $text; }
    SweepTable > .sweep-table--active {
        /* unfocused: marked and underlined, not the focused table's bright bar (the
           underline tells them apart without colour, under NO_COLOR too) */
        background: $panel; color: $text; text-style: bold underline;
    }
    SweepTable:focus > .sweep-table--active {
        background: $primary-darken-2; color: $text; text-style: bold;
    }
    """

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the screen)."""
    decimals: reactive[bool] = reactive(False)
    """Rates as decimals rather than as their counts (``x``, handed down by the screen)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._columns: tuple[str, ...] = COLUMNS
        self._widths = [len(c) for c in COLUMNS]
        self._curves: object = None
        self._lines_of: object = None
        self._lines: dict[int, tuple[str, ...]] = {}
        self.top = 0

    @property
    def analysis(self) -> Analysis | None:
        return None if self.frame is None else self.frame.analysis

    def watch_frame(self, frame: Frame | None) -> None:
        if frame is None:
            return
        a = frame.analysis
        columns = COLUMNS + tuple(heading for _, heading in frame.update.sweep_columns)
        if self._curves is not a.curves or columns != self._columns:
            # New rows (a new sweep) or other columns: widths start afresh.
            self._curves, self._columns = a.curves, columns
            count = max(len(format_count(a.data.positives)), len(format_count(a.data.negatives)))
            self._widths = [len(c) for c in columns]
            for j in range(1, 5):
                self._widths[j] = max(self._widths[j], count)
        self._show_active(a.point)
        self.refresh()

    def watch_decimals(self) -> None:
        # Every line again, and the rate columns as narrow as their new cells allow.
        self._lines_of = None
        self._widths = [
            w if c in COUNT_COLUMNS else len(c)
            for c, w in zip(self._columns, self._widths, strict=True)
        ]
        self.refresh()

    async def action_page(self, direction: int) -> None:
        await self.run_action(f"screen.group({direction * max(self._body_height() - 1, 1)})")

    async def on_click(self, event: events.Click) -> None:
        a = self.analysis
        point = self.top + event.y - HEADER
        if a is not None and event.y >= HEADER and point < a.sweep.size:
            await self.run_action(f"screen.group({point - a.point})")

    def _body_height(self) -> int:
        return max(self.content_region.height - HEADER, 1)

    def _show_active(self, point: int) -> None:
        """Keep the active point in view with a row of context above and below it
        where there is room; a jump out of view puts it a third of the way down.
        Every point is shown when all fit, and no blank rows trail a scrolled table."""
        a = self.analysis
        if a is None or self.content_region.height < 2:
            return  # not laid out yet: on_resize places it
        body, size = self._body_height(), a.sweep.size
        context = 1 if body >= 3 else 0
        if not self.top + context <= point < self.top + body - context:
            self.top = point - max(context, body // 3)
        self.top = max(0, min(self.top, size - body))

    def on_resize(self) -> None:
        if self.analysis is not None:
            self._show_active(self.analysis.point)
            self.refresh()

    def summary(self) -> str:
        """The line above the columns, as the row table has one: how many operating
        points, and which are shown when not all fit ("points 4-9 of 12")."""
        a = self.analysis
        if a is None:
            return ""
        size, body = a.sweep.size, self._body_height()
        shown = "; rates as decimals (x)" if self.decimals else ""
        if self.frame is not None and self.frame.own is not None:
            shown = "; none active: each group at its own threshold" + shown
            if size <= body:
                return f"{size} operating points of all rows{shown}"
            return f"operating points {self.top + 1}-{min(size, self.top + body)} of {size}{shown}"
        if size <= body:
            return f"{size} operating points; > the active one{shown}"
        last = min(size, self.top + body)
        return f"operating points {self.top + 1}-{last} of {size}; > the active one{shown}"

    def _format(self, values: tuple[str, ...]) -> str:
        shown = self._shown_columns()
        return " ".join(
            f"{v:<{n}}"
            for v, n, c in zip(values, self._widths, self._columns, strict=True)
            if c in shown
        )

    def _shown_columns(self) -> set[str]:
        """Every column that fits: F1, then TN and FN, then the goal's columns are
        left out of a narrow table."""
        shown = set(self._columns)
        width = self.content_region.width
        goal = self._columns[len(COLUMNS) + 1 :]
        for optional in (*OPTIONAL, *reversed(goal)):
            needed = 2 + sum(
                n + 1 for n, c in zip(self._widths, self._columns, strict=True) if c in shown
            )
            if needed - 1 <= width:
                break
            shown.discard(optional)
        return shown

    def cells_at(self, point: int) -> tuple[str, ...]:
        """The text of sweep point ``point``'s line, marker excluded (kept per sweep
        and per ``decimals``: a threshold move redraws the same lines with another one
        marked)."""
        a = self.analysis
        assert a is not None and self.frame is not None
        d = self.frame.update.deciding
        # A line holds the goal's columns too: they change with the goal, not the rows.
        key = (a.curves, self._columns, None if d is None else (d.goal, d.prevalence))
        if self._lines_of != key:
            self._lines_of, self._lines = key, {}
        cached = self._lines.get(point)
        if cached is None:
            cached = self._lines[point] = self._cells(a, point)
            if len(self._lines) > 4096:  # a long scroll: start again rather than grow
                self._lines = {point: cached}
        return cached

    def _cells(self, a: Analysis, point: int) -> tuple[str, ...]:
        s = a.sweep
        m = s.point_metrics(point)
        assert self.frame is not None
        more = self.frame.update.sweep_metrics(point)
        return (
            "above all"
            if point == 0
            else shown_score(float(s.thresholds[point - 1]), s.thresholds),
            *(format_count(v) for v in s.counts_at(point).cells()),
            *(rate_text(m[n], decimals=self.decimals) for n in ("tpr", "fpr", "precision")),
            *("" if x is None else rate_text(x, decimals=self.decimals) for x in more),
        )

    def render_lines(self, crop: Region) -> list[Strip]:
        # Widen the columns for every row about to be drawn first: widening them
        # from render_line left the rows drawn before it one column out of line.
        a = self.analysis
        if a is not None:
            before = self._widths
            for point in range(self.top, min(a.sweep.size, self.top + self._body_height())):
                values = self.cells_at(point)
                self._widths = [max(len(v), w) for v, w in zip(values, self._widths, strict=True)]
            if self._widths != before:
                # Lines drawn before (outside this crop) used the narrower columns.
                self.call_after_refresh(self.refresh)
        return super().render_lines(crop)

    def render_line(self, y: int) -> Strip:
        width = self.content_region.width
        a = self.analysis
        if a is None:
            return blank(width, self.rich_style)
        if y == 0:
            summary = self.summary()
            if len(summary) > width:  # "points 9-16 of 21" stays whole
                short = summary.replace("operating points", "points").split(";")[0]
                if self.frame is not None and self.frame.own is not None:
                    short += ", none active"  # each group at its own threshold
                # Decimals are said before the active point's mark, which the ">"
                # column shows anyway: a reader must know the cells are not counts.
                decimals = f"{short}; decimals (x)"
                summary = decimals if self.decimals and len(decimals) <= width else short
            return fitted(summary, self.get_component_rich_style("sweep-table--summary"), width)
        if y == 1:
            style = self.get_component_rich_style("sweep-table--header")
            return fitted("  " + self._format(self._columns), style, width)
        point = self.top + y - HEADER
        if point >= a.sweep.size:
            return blank(width, self.rich_style)
        values = self.cells_at(point)
        if any(len(v) > w for v, w in zip(values, self._widths, strict=True)):
            # Columns only widen, so they never jump while scrolling.
            self._widths = [max(len(v), w) for v, w in zip(values, self._widths, strict=True)]
            self.call_after_refresh(self.refresh)
        active = point == a.point and (self.frame is None or self.frame.own is None)
        text = (">" if active else " ") + " " + self._format(values)
        style = self.get_component_rich_style("sweep-table--active") if active else self.rich_style
        return fitted(text, style, width)
