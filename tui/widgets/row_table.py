"""The editable row table: id, score, actual, predicted, cell, and what just changed."""

from __future__ import annotations

import numpy as np
from textual.binding import Binding
from textual.geometry import Offset
from textual.reactive import reactive
from textual.widgets import DataTable

from core.analysis import Analysis
from core.confusion import predict, row_cells

#: Rows held by the table at once; larger data scroll through a window this size.
WINDOW = 60


class RowTable(DataTable[str], inherit_bindings=False):
    """Rows of the dataset, held as a window of at most :data:`WINDOW` rows so that
    millions of rows scroll without being built. Only vertical keys are bound
    here; left, right, home and end belong to the threshold."""

    BINDINGS = [
        Binding("up", "move(-1)", "Row up", show=False, id="row-up"),
        Binding("down", "move(1)", "Row down", show=False, id="row-down"),
        Binding("pageup", "move(-20)", "Page up", show=False, id="row-page-up"),
        Binding("pagedown", "move(20)", "Page down", show=False, id="row-page-down"),
    ]

    #: Index of the data row shown first in the window.
    offset = 0
    #: Index of the selected data row.
    selected = 0

    analysis: reactive[Analysis | None] = reactive(None)
    changed: reactive[frozenset[int]] = reactive(frozenset())

    def on_mount(self) -> None:
        self.cursor_type = "row"
        self.zebra_stripes = False
        self.add_columns("id", "score", "actual", "predicted", "cell", "changed")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.selected = self.offset + event.cursor_row  # e.g. after a mouse click
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

    @property
    def selected_row(self) -> int | None:
        """The selected row's index in the data (not in the window)."""
        a = self.analysis
        return None if a is None or a.data.n == 0 else self.selected

    def action_move(self, delta: int) -> None:
        a = self.analysis
        if a is None or a.data.n == 0:
            return
        self.select(int(np.clip(self.selected + delta, 0, a.data.n - 1)))

    def select(self, index: int) -> None:
        """Select data row ``index``, moving the window when it lies outside."""
        a = self.analysis
        if a is None:
            return
        self.selected = index
        if not self.offset <= index < self.offset + WINDOW:
            self.offset = int(np.clip(index - WINDOW // 2, 0, max(a.data.n - WINDOW, 0)))
            self._fill()
        else:
            self.move_cursor(row=index - self.offset, animate=False)

    def watch_analysis(self) -> None:
        self._fill()

    def watch_changed(self) -> None:
        self._fill()

    def _fill(self) -> None:
        a = self.analysis
        if a is None or not self.columns:
            return
        data = a.data
        self.selected = int(np.clip(self.selected, 0, max(data.n - 1, 0)))
        self.offset = int(np.clip(self.offset, 0, max(data.n - WINDOW, 0)))
        if not self.offset <= self.selected < self.offset + WINDOW:
            self.offset = int(np.clip(self.selected - WINDOW // 2, 0, max(data.n - WINDOW, 0)))
        window = slice(self.offset, min(self.offset + WINDOW, data.n))
        scores, labels = data.scores[window], data.labels[window]
        # Predictions and cells for the window only: O(window), not O(n).
        pred = predict(data, a.threshold, rows=window)
        cells = row_cells(data, a.threshold, rows=window)
        self.clear()
        for j in range(scores.shape[0]):
            i = self.offset + j
            self.add_row(
                data.row_id(i),
                repr(float(scores[j])),
                "1" if labels[j] else "0",
                "1" if pred[j] else "0",
                str(cells[j]),
                "* now " + str(cells[j]) if i in self.changed else "",
                key=str(i),
            )
        if data.n:
            self.move_cursor(row=self.selected - self.offset, animate=False)
