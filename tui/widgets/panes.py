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
    "chart": "the chart (c for the next)",
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
    edge ("P Pre", "s Sav") reads as a different word. What it leaves out is in help.

    Textual rebuilds a footer's keys whenever the bindings may have changed (a key
    press, a focus change) and on every resize: two dozen widgets mounted and styled
    each time. This one rebuilds them only when what it shows would change."""

    #: What the keys now mounted show (None before the first composition).
    _shown: tuple[tuple[object, ...], ...] | None = None
    #: What they were made from (:meth:`_inputs`; None before the first composition).
    _made_from: tuple[object, ...] | None = None

    def _inputs(self) -> tuple[object, ...]:
        """Everything the keys are made from: the screen's active bindings (each with
        whether it is enabled and its tooltip), the width and the footer's settings.
        The same inputs make the same keys, so a recompose with them need not even
        make the keys to compare them (a dozen widgets made for nothing, five times
        in an explorer's first frame)."""
        if not self._bindings_ready:
            return (False,)
        active = tuple((b, on, tip) for _, b, on, tip in self.screen.active_bindings.values())
        return (
            True,
            self.app.size.width,
            self.compact,
            self.show_command_palette,
            self.app.ENABLE_COMMAND_PALETTE,
            active,
        )

    def _kept(self) -> list[Widget]:
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
                # The compact value a key will have once mounted, and the class its
                # watcher sets for it, set now: the watcher then has nothing to change
                # and the key is styled once. A key bound to the footer's value takes
                # it (Textual's default, True, became a class on mounting that the
                # binding then took away again: two restylings of every key); one not
                # bound (the palette's) keeps its own.
                if "compact" in (item._reactive_connect or {}):
                    item.set_reactive(FooterKey.compact, self.compact)
                item.set_class(item.compact, "-compact", update=False)
            kept.append(item)
        return kept

    def _shows(self, kept: list[Widget]) -> tuple[tuple[object, ...], ...]:
        return tuple(
            (
                type(w).__name__,
                w.key,
                w.key_display,
                w.description,
                w.action,
                w._disabled,
                str(w.tooltip),
                tuple(sorted(w.classes)),
            )
            if isinstance(w, FooterKey)
            else (type(w).__name__, object())  # never the same
            for w in kept
        )

    def compose(self) -> ComposeResult:
        self._made_from = self._inputs()
        kept = self._kept()
        self._shown = self._shows(kept)
        self.styles.grid_size_columns = len(kept)
        yield from kept

    async def recompose(self) -> None:
        attached = self._shown is not None and self.is_attached and not self._pruning
        if attached:
            inputs = self._inputs()
            if inputs == self._made_from:
                return  # made from the same bindings at the same width: the same keys
            if self._shows(self._kept()) == self._shown:
                self._made_from = inputs
                return  # the same keys, descriptions, states and classes: nothing to redo
        await super().recompose()

    def on_resize(self) -> None:
        self.call_after_refresh(self.recompose)
