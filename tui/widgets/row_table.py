"""The editable row table: id, score, actual, predicted, cell, and what just changed."""

from __future__ import annotations

import numpy as np
from textual.binding import Binding
from textual.geometry import Offset
from textual.reactive import reactive
from textual.widgets import DataTable

from core.analysis import Analysis
from core.confusion import predict, row_cells


class RowTable(DataTable[str], inherit_bindings=False):
    """Rows of the dataset. Only vertical keys are bound here; left, right, home
    and end belong to the threshold, so the table does not take them."""

    BINDINGS = [
        Binding("up", "cursor_up", "Row up", show=False, id="row-up"),
        Binding("down", "cursor_down", "Row down", show=False, id="row-down"),
        Binding("pageup", "page_up", "Page up", show=False, id="row-page-up"),
        Binding("pagedown", "page_down", "Page down", show=False, id="row-page-down"),
    ]

    analysis: reactive[Analysis | None] = reactive(None)
    changed: reactive[frozenset[int]] = reactive(frozenset())

    def on_mount(self) -> None:
        self.cursor_type = "row"
        self.zebra_stripes = False
        self.add_columns("id", "score", "actual", "predicted", "cell", "changed")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.call_after_refresh(self.place_cursor)

    def on_focus(self) -> None:
        # Layout may not be done yet when focus arrives; place the cursor after it.
        self.call_after_refresh(self.place_cursor)

    def on_resize(self) -> None:
        self.call_after_refresh(self.place_cursor)

    def place_cursor(self) -> None:
        """Put the terminal cursor on the selected row, where braille displays and screen
        magnifiers follow focus."""
        if not self.has_focus or self.row_count == 0:
            return
        header = self.header_height if self.show_header else 0
        y = self.region.y + header + self.cursor_row - round(self.scroll_y)
        if self.region.y + header <= y < self.region.bottom:
            self.app.cursor_position = Offset(self.region.x, y)

    def watch_analysis(self) -> None:
        self._fill()

    def watch_changed(self) -> None:
        self._fill()

    def _fill(self) -> None:
        a = self.analysis
        if a is None or not self.columns:
            return
        row = self.cursor_row
        self.clear()
        data = a.data
        pred = predict(data, a.threshold)
        cells = row_cells(data, a.threshold)
        for i in range(data.n):
            self.add_row(
                data.row_id(i),
                repr(float(data.scores[i])),
                "1" if data.labels[i] else "0",
                "1" if pred[i] else "0",
                str(cells[i]),
                "* now " + str(cells[i]) if i in self.changed else "",
                key=str(i),
            )
        if data.n:
            self.move_cursor(row=int(np.clip(row, 0, data.n - 1)), animate=False)
