"""The explorer's keys as one list: for help, the key line and the command palette."""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.events import Resize
from textual.keys import KEY_NAME_REPLACEMENTS, Keys, key_to_character
from textual.widgets import Static
from threshold_lab.tui.bindings import key_names
from threshold_lab.tui.commands import COMMANDS

#: Where the row table's own keys (edit, flip, delete) go among the screen's, so
#: help and the key line read in the order people learn them: each after this key.
ROW_KEYS_AFTER = {
    "edit-score": "type-threshold",
    "flip-label": "edit-score",
    "delete-row": "add-row",
}


_MODIFIERS = frozenset({"ctrl", "shift", "alt", "meta", "super", "hyper"})


def known_key(name: str) -> bool:
    """True when ``name`` is a key Textual knows: one character (``a``, ``?``), a
    named key (``enter``, ``right``, ``pageup``, ``f5``), a character's name
    (``question_mark``), each with any modifiers (``ctrl+z``, ``shift+tab``).

    >>> known_key("right"), known_key("ctrl+z"), known_key("?"), known_key("nosuchkey")
    (True, True, True, False)
    """
    *mods, base = name.split("+") if name != "+" else ["+"]
    if not base or not all(m in _MODIFIERS for m in mods):
        return False
    if len(base) == 1:
        return True
    named = {k.value.split("+")[-1] for k in Keys if not k.value.startswith("<")}
    return (
        base in named
        or base in KEY_NAME_REPLACEMENTS.values()
        or key_to_character(base) is not None
    )


def every_key(screen: Iterable[BindingType], rows: Iterable[BindingType]) -> list[Binding]:
    """The screen's bindings with the row table's own keys in their place
    (:data:`ROW_KEYS_AFTER`), then the table's movement and view keys."""
    table = {b.id: b for b in rows if isinstance(b, Binding)}
    placed: list[Binding] = []
    for b in (b for b in screen if isinstance(b, Binding)):
        placed.append(b)
        while placed[-1].id in ROW_KEYS_AFTER.values():
            after = next(k for k, v in ROW_KEYS_AFTER.items() if v == placed[-1].id)
            placed.append(table.pop(after))
    return placed + list(table.values())


def key_line(bindings: Iterable[Binding], width: int = 118) -> Text:
    """The keys the footer has no room for, from the bindings (plain, not markup),
    wrapped at ``width`` between keys, never inside one. The row table's arrows
    and pages (and the sweep table's) go without saying; its view keys do not."""
    quiet = {c.ID for c in COMMANDS if not c.ON_KEY_LINE}
    hidden = [
        b
        for b in bindings
        if not b.show
        and b.action.split("(")[0] != "move"
        and not (b.id or "").startswith("sweep-")
        and b.id not in quiet
    ]
    lines: list[str] = []
    for entry in (f"{key_names(b.key)} {b.description}" for b in hidden):
        if lines and len(lines[-1]) + 2 + len(entry) <= width:
            lines[-1] += "  " + entry
        else:
            lines.append(entry)
    return Text("\n".join(lines))


class KeyLine(Static):
    """The keys the footer has no room for, wrapped to the line's own width."""

    def __init__(self, bindings: list[Binding], *, id: str | None = None) -> None:
        super().__init__(key_line(bindings), id=id)
        self.bindings = bindings

    def on_resize(self, event: Resize) -> None:
        # The text's own width (the line's padding taken off), or a full line wraps.
        self.update(key_line(self.bindings, max(self.content_size.width, 20)))
