"""The row table: id, score, actual, predicted, cell, and what just changed.

It is virtual: only the lines on screen are ever formatted, read straight
from the dataset's arrays through a :class:`threshold_lab.core.session.rowview.RowView`, so ten
million rows scroll as easily as five. Rows can be shown in file order or by
score, filtered to one cell of the matrix, and the cursor can jump to the
rows either side of the threshold.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import BindingType
from textual.geometry import Offset
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.session.rowview import (
    CELLS,
    DIFFER,
    NOTHING_CHANGED,
    ORDER_NAMES,
    ORDERS,
    Changed,
    Order,
    RowOrder,
    RowView,
    make_view,
    next_boundary_position,
    row_texts,
    side_by_side,
)
from threshold_lab.tui.bindings import bindings
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.state.layout import longest_fitting
from threshold_lab.tui.widgets.text import blank, fitted, tail_name

#: Lines above the rows: the view's summary and the column names.
HEADER = 2
COLUMNS = ("id", "score", "actual", "pred", "cell")


class RowTable(Widget, can_focus=True, inherit_bindings=False):
    """Rows of the dataset; ``>`` and the highlight mark the selected one.

    Only vertical keys, the view keys and the keys that act on the selected row
    are bound here; left, right, home and end belong to the threshold. A key
    that would change the selected row does not change it here: the table
    posts a request naming the row (:class:`EditScore`, :class:`FlipLabel`,
    :class:`DeleteRow`) and the screen decides. It scrolls itself (``top`` is
    the first view position shown) rather than through Textual's scrolling,
    which lays out the whole screen again on every scroll.
    """

    class Say(Message):
        """Something the table wants the user told (a view change, a jump)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class RowRequest(Message):
        """The user asked for something to be done to data row ``row`` of ``data``.

        ``data`` is the rows the index refers to: a request that arrives after the
        rows changed (a delete queued just before it) names a row that may have
        moved or gone, and must be dropped.
        """

        def __init__(self, row: int, data: Dataset) -> None:
            super().__init__()
            self.row = row
            self.data = data

    class EditScore(RowRequest):
        """Edit the score of ``row`` (Enter)."""

    class FlipLabel(RowRequest):
        """Flip the actual label of ``row`` (space)."""

    class DeleteRow(RowRequest):
        """Remove ``row`` (Delete)."""

    #: What each key that acts on the selected row asks for, by its binding's id.
    REQUESTS: ClassVar[dict[str, type[RowRequest]]] = {
        "edit-score": EditScore,
        "flip-label": FlipLabel,
        "delete-row": DeleteRow,
    }

    #: The table's own keys, from the commands' declarations (tui/commands.py).
    BINDINGS: ClassVar[list[BindingType]] = bindings("rows")

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "row-table--header",
        "row-table--cursor",
        "row-table--summary",
    }
    """
    | Class | Description |
    | :- | :- |
    | `row-table--header` | The column names (id, score, actual, predicted, cell). |
    | `row-table--cursor` | The selected row (a bright cursor when the table has the keys). |
    | `row-table--summary` | The first line: which rows, in which order, what `*` marks. |
    """

    DEFAULT_CSS = """
    RowTable { background: $surface; }
    RowTable > .row-table--header { text-style: bold; color: $text; }
    RowTable > .row-table--summary { color: $text-muted; }
    RowTable > .row-table--cursor {
        /* unfocused: underlined, as the sweep table's mark is */
        background: $block-cursor-blurred-background; text-style: underline;
    }
    RowTable:focus > .row-table--cursor {
        /* a darker blue than Textual's cursor, so its text reaches 4.5:1 */
        background: $primary-darken-2; color: $text; text-style: bold;
    }
    """

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the screen)."""
    order: reactive[Order] = reactive("file")
    """Row order: ``file``, ``score-desc`` or ``score-asc`` (``o`` cycles)."""
    cell: reactive[str | None] = reactive(None)
    """Show only the rows of this cell of the matrix (``TP``, ``FP``, ``TN``, ``FN``),
    the rows several models decide differently (``differ``), or every row (None)."""

    def validate_order(self, order: str) -> Order:
        if order not in ORDERS:
            raise ValueError(f"no row order {order!r}; the orders are {', '.join(ORDERS)}")
        return order

    def validate_cell(self, cell: str | None) -> str | None:
        if cell not in (*CELLS, DIFFER):
            raise ValueError(f"no cell {cell!r}; the cells are TP, FP, TN, FN and {DIFFER}")
        return cell

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: Position of the cursor in the view (not the data row; see selected_row).
        self.cursor = 0
        #: View position of the first row on screen.
        self.top = 0
        self.view = RowView(0)
        self._orders: RowOrder | None = None
        self._widths = {"id": 2, "score": 5}

    # --- the view ----------------------------------------------------------------

    @property
    def analysis(self) -> Analysis | None:
        return None if self.frame is None else self.frame.analysis

    @property
    def changed(self) -> Changed:
        return NOTHING_CHANGED if self.frame is None else self.frame.update.changed

    @property
    def models(self) -> list[tuple[str, Dataset]]:
        """Several models of these rows, (name, rows) each; empty with one model."""
        rows = () if self.frame is None else self.frame.update.models
        return [(r.name, r.data) for r in rows if r.data is not None]

    @property
    def filters(self) -> tuple[str | None, ...]:
        """The filters ``f`` cycles through: the cells, and with several models the
        rows they decide differently."""
        paired = self.frame is None or self.frame.update.group_by is None
        return (*CELLS, DIFFER) if len(self.models) >= 2 and paired else CELLS

    def _order_cache(self, a: Analysis) -> RowOrder:
        if self._orders is None or self._orders.data is not a.data:
            self._orders = RowOrder(a.data, self._orders)
        return self._orders

    def _rebuild(self, keep_row: int | None) -> None:
        """Recompute the view, keeping ``keep_row`` selected when it is still shown."""
        a = self.analysis
        if a is None:
            return
        if self.cell not in self.filters:  # one model again (a preset): every row
            self.set_reactive(RowTable.cell, None)
        models = [d for _, d in self.models]
        if self._orders is not None and self._orders.data is not a.data:
            self._widths["score"] = 5  # other scores (an undone transform): narrow again
        cache = self._order_cache(a)
        self.view = make_view(a.data, a.threshold, self.order, self.cell, cache, models)
        position = None if keep_row is None else self.view.position_of(keep_row)
        self.cursor = position if position is not None else min(self.cursor, len(self.view) - 1)
        self.cursor = max(self.cursor, 0)
        self._show_cursor()
        self.refresh()

    def watch_frame(self, old_frame: Frame | None, frame: Frame | None) -> None:
        if frame is None:
            return
        old, new = (None if old_frame is None else old_frame.analysis), frame.analysis
        if old is not None and old.data is new.data and self.cell is None:
            self.refresh()  # only the predictions on screen change; the view stays
            return
        if frame.update.fresh:  # other rows altogether: start at the top
            self.cursor = self.top = 0
            self._rebuild(None)
            return
        keep = self.view.row_at(self.cursor)  # the row selected before, if still there
        self._rebuild(keep if keep is not None and keep < new.data.n else None)

    def watch_order(self) -> None:
        self._rebuild(self.selected_row)

    def watch_cell(self) -> None:
        self._rebuild(self.selected_row)

    @property
    def selected_row(self) -> int | None:
        """The selected row's index in the data, or None when the view is empty."""
        return self.view.row_at(self.cursor) if self.analysis is not None else None

    @property
    def summary(self) -> str:
        """One line saying which rows are shown, in which order."""
        return self.summary_to_fit(1000)

    def summary_to_fit(self, width: int) -> str:
        """:attr:`summary`, its later parts left off where ``width`` is short (which
        rows first, then their order, then what ``*`` means)."""
        a = self.analysis
        if a is None:
            return ""
        total = a.data.n
        what = {None: "rows", DIFFER: "rows decided differently"}.get(
            self.cell, f"{self.cell} rows"
        )
        n = len(self.view)
        if n == 0:
            shown = f"no {what} at this threshold"
        else:
            first = self.top + 1
            last = min(n, self.top + self._body_height())
            shown = f"{what} {first:,}-{last:,} of {n:,}"
            if self.cell is not None:
                shown += f" ({total:,} in all)"
        parts = [shown, ORDER_NAMES[self.order], "* changed"]
        return longest_fitting(width, *("; ".join(parts[:k]) for k in range(len(parts), 0, -1)))

    # --- keys ----------------------------------------------------------------------

    def select(self, row: int) -> None:
        """Select data row ``row``; if the view hides it, show every row in file order."""
        position = self.view.position_of(row)
        if position is None:
            self.cell = None
            self.order = "file"
            position = self.view.position_of(row)
        if position is not None:
            self._move_to(position)

    def _move_to(self, position: int) -> None:
        if len(self.view) == 0:
            return
        self.cursor = max(0, min(position, len(self.view) - 1))
        self._show_cursor()
        self.refresh()

    def action_move(self, delta: int) -> None:
        self._move_to(self.cursor + delta)

    def action_first(self) -> None:
        self._move_to(0)

    def action_last(self) -> None:
        self._move_to(len(self.view) - 1)

    def action_cycle_order(self) -> None:
        self.order = ORDERS[(ORDERS.index(self.order) + 1) % len(ORDERS)]
        self._say(f"Rows in {ORDER_NAMES[self.order]}.")

    def action_cycle_filter(self) -> None:
        filters = self.filters
        self.cell = filters[(filters.index(self.cell) + 1) % len(filters)]
        a = self.analysis
        if self.cell is None:
            self._say("Showing every row.")
        elif self.cell == DIFFER and a is not None:
            if len({d.n for _, d in self.models}) > 1:
                self._say(
                    "The models no longer have the same rows (an edit added or deleted "
                    "one): undo it (u) to see the rows they decide differently."
                )
                return
            names = " and ".join(n for n, _ in self.models)
            self._say(
                f"Showing only the rows {names} decide differently: {len(self.view):,} at "
                "this threshold, each model's score and cell side by side."
            )
        elif a is not None:
            self._say(
                f"Showing only {self.cell} rows: {len(self.view):,} at this "
                "threshold; the list follows the threshold."
            )

    def action_request(self, rid: str) -> None:
        """Ask the screen to act on the selected row (nothing when no row is shown)."""
        row, a = self.selected_row, self.analysis
        if row is not None and a is not None:
            # Straight to the screen, not bubbled: a request waits in the screen's
            # queue in key order with the screen's own (ctrl+z), which a bubbled one,
            # queued here first, would arrive after.
            self.screen.post_message(self.REQUESTS[rid](row, a.data))

    def action_boundary(self) -> None:
        a = self.analysis
        if a is None:
            return
        position = next_boundary_position(self.view, a.data, a.threshold, self.cursor)
        if position is None:
            self._say("No rows are shown; f shows every row.")
            return
        self._move_to(position)
        row = self.view.row_at(position)
        if row is not None:
            shown = row_texts(
                a.data, a.threshold, self.view.indices(position, position + 1), a.sweep.thresholds
            )[0]
            side = "at or above" if shown.predicted == "1" else "below"
            self._say(
                f"Row {shown.id}, score {shown.score}, is the "
                f"nearest score {side} the threshold; b again for the next."
            )

    def _say(self, text: str) -> None:
        self.post_message(self.Say(text))

    # --- scrolling and the terminal cursor -----------------------------------------

    def _body_height(self) -> int:
        return max(self.content_region.height - HEADER, 1)

    def _show_cursor(self) -> None:
        """Scroll so the cursor's line is visible."""
        body = self._body_height()
        top = min(self.top, max(len(self.view) - body, 0))
        if self.cursor < top:
            top = self.cursor
        elif self.cursor >= top + body:
            top = self.cursor - body + 1
        self.top = max(top, 0)
        self.call_after_refresh(self.place_cursor)

    def on_focus(self) -> None:
        # Layout may not be done yet when focus arrives; place the cursor after it.
        self.call_after_refresh(self.place_cursor)

    def on_resize(self) -> None:
        self._show_cursor()

    def on_mouse_scroll_down(self, event: events.MouseScrollDown) -> None:
        self._scroll(3)
        event.stop()

    def on_mouse_scroll_up(self, event: events.MouseScrollUp) -> None:
        self._scroll(-3)
        event.stop()

    def _scroll(self, lines: int) -> None:
        """Scroll the rows, the cursor staying on screen."""
        body = self._body_height()
        self.top = max(0, min(self.top + lines, len(self.view) - body))
        self.cursor = max(self.top, min(self.cursor, self.top + body - 1))
        self.refresh()
        self.call_after_refresh(self.place_cursor)

    def place_cursor(self) -> None:
        """Put the terminal cursor on the selected row, where braille displays and screen
        magnifiers follow focus."""
        if not self.has_focus or len(self.view) == 0:
            return
        region = self.content_region
        y = region.y + HEADER + self.cursor - self.top
        if region.y + HEADER <= y < region.bottom:
            self.app.cursor_position = Offset(region.x, y)

    def on_click(self, event: events.Click) -> None:
        line = event.y - HEADER
        if line >= 0:
            self._move_to(self.top + line)

    # --- drawing -------------------------------------------------------------------

    def _format(self, values: tuple[str, ...]) -> str:
        w = self._widths
        widths = (w["id"], w["score"], 6, 4, 4)
        return " ".join(f"{v:<{n}}" for v, n in zip(values, widths, strict=True))

    def render_line(self, y: int) -> Strip:
        width = self.content_region.width
        a = self.analysis
        if a is None:
            return blank(width, self.rich_style)
        if y == 0:
            style = self.get_component_rich_style("row-table--summary")
            return fitted(self.summary_to_fit(width), style, width, pad=self.rich_style)
        if y == 1:
            style = self.get_component_rich_style("row-table--header")
            if self.cell == DIFFER:
                return fitted("  " + self._format_sides(self._side_columns()), style, width)
            return fitted("  " + self._format(COLUMNS), style, width)
        position = self.top + y - HEADER
        if position >= len(self.view):
            return blank(width, self.rich_style)
        return self._row_strip(a, position, width)

    def _side_columns(self) -> tuple[str, ...]:
        """The column names of the decided-differently rows: id, actual, and each
        model's score and cell."""
        names = [tail_name(n, 10) for n, _ in self.models]
        per_model = [(f"{n} score", f"{n} cell") for n in names]
        return ("id", "actual", *(c for pair in per_model for c in pair))

    def _format_sides(self, values: tuple[str, ...]) -> str:
        w = self._widths
        widths = [w["id"], 6] + [max(w["score"], len(v)) for v in values[2::2]]
        cells = [max(4, len(v)) for v in values[3::2]]
        out = [f"{values[0]:<{widths[0]}}", f"{values[1]:<{widths[1]}}"]
        for k in range(len(cells)):
            out += [f"{values[2 + 2 * k]:<{widths[2 + k]}}", f"{values[3 + 2 * k]:<{cells[k]}}"]
        return " ".join(out)

    def _row_strip(self, a: Analysis, position: int, width: int) -> Strip:
        data = a.data
        rows = self.view.indices(position, position + 1)
        changed = bool(self.changed.mask(data.scores[rows], rows)[0])
        if self.cell == DIFFER:
            side = side_by_side(self.models, a.threshold, rows)[0]
            scores = [score for _, score, _ in side.models]
            columns = self._side_columns()
            pairs = (v for (_, score, cell) in side.models for v in (score, cell))
            values: tuple[str, ...] = (side.id, side.actual, *pairs)
            # Each model's score column as wide as its name's heading.
            values = tuple(v.ljust(len(columns[k])) if k >= 2 else v for k, v in enumerate(values))
        else:
            own = self.frame.own if self.frame is not None else None
            at = a.threshold if own is None else own.row_threshold(int(rows[0]))
            row = row_texts(data, at, rows, a.sweep.thresholds)[0]
            values = (row.id, row.score, row.actual, row.predicted, row.cell)
            scores = [row.score]
        grown = False
        for key, v in [("id", values[0])] + [("score", sc) for sc in scores]:
            if len(v) > self._widths[key]:
                self._widths[key] = len(v)
                grown = True
        if grown:  # columns only widen, so they never jump while scrolling
            self.call_after_refresh(self.refresh)
        selected = position == self.cursor
        # Two marks before the row: > for the selection, * when the prediction just changed.
        body = self._format_sides(values) if self.cell == DIFFER else self._format(values)
        text = (">" if selected else " ") + ("*" if changed else " ") + body
        style = self.get_component_rich_style("row-table--cursor") if selected else self.rich_style
        return fitted(text, style, width)
