"""The pane bar: which of the explorer's panes is shown, and the keys that pick one.

At 80x24 there is room for one pane at a time (matrix and metrics, the chart,
the rows with the score strip, the sweep table); on a larger screen every pane
is shown and a number key zooms one to the whole body (0 shows them all again).
"""

from __future__ import annotations

from typing import Literal, get_args

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey
from threshold_lab.tui.widgets.text import TextLines

#: The panes, in key order: (key, name, label).
#: A pane of the explorer, or ``all`` of them.
Pane = Literal["matrix", "chart", "rows", "sweep", "all"]


def pane(name: str) -> Pane:
    """``name`` when it names a pane (a programmer's error otherwise)."""
    names: tuple[Pane, ...] = get_args(Pane)
    if name not in names:
        raise ValueError(f"no pane {name!r}; the panes are {', '.join(names)}")
    return name


PANES = (
    ("1", "matrix", "Matrix"),
    ("2", "chart", "Chart"),
    ("3", "rows", "Rows"),
    ("4", "sweep", "Sweep"),
)
#: What each pane holds, for the message a pane key says.
PANE_WORDS = {
    "matrix": "the confusion matrix and the metrics with their formulas",
    "chart": "the ROC or precision-recall chart (c for the next)",
    "rows": "the rows, under the score strip",
    "sweep": "the sweep table: up and down step through the operating points",
    "all": "every pane",
}


class PaneBar(TextLines):
    """``1 Matrix  [2 Chart]  3 Rows  4 Sweep  0 All``: the shown pane is bracketed and
    reversed (not told by colour alone). ``0 All`` is offered only where it fits."""

    view: reactive[Pane] = reactive("all")
    """The pane shown: ``matrix``, ``chart``, ``rows``, ``sweep`` or ``all``."""

    def validate_view(self, view: str) -> Pane:
        return pane(view)

    compact: reactive[bool] = reactive(False)
    """Only one pane fits: ``0 All`` is not offered."""

    def _label(self) -> Text:
        entries = [*PANES, *(() if self.compact else (("0", "all", "All"),))]
        text = Text()
        for key, name, label in entries:
            shown = name == self.view
            word = f"[{key} {label}]" if shown else f" {key} {label} "
            text.append(word, style="bold reverse" if shown else "")
            text.append(" ")
        return text

    def watch_view(self) -> None:
        self.show(self._label())

    def watch_compact(self) -> None:
        self.show(self._label())

    def on_mount(self) -> None:
        self.show(self._label())


class WholeFooter(Footer):
    """Textual's footer, holding only the keys that fit whole: a key cut at the screen's
    edge ("P Pre", "s Sav") reads as a different word. What it leaves out is in help."""

    def compose(self) -> ComposeResult:
        items = list(super().compose())
        room = self.app.size.width - 1
        kept: list[Widget] = []
        for item in items:
            if isinstance(item, FooterKey):
                width = cell_len(item.key_display) + cell_len(item.description)
                width += 2 if self.compact else 3
                if "-command-palette" in item.classes:
                    width += 2  # its separator
                if room - width < 0:
                    continue
                room -= width
            kept.append(item)
        self.styles.grid_size_columns = len(kept)
        yield from kept

    def on_resize(self) -> None:
        self.call_after_refresh(self.recompose)
