"""The explorer's key bindings, made from the commands' declarations
(:mod:`threshold_lab.tui.commands`): one Binding per command with a key."""

from __future__ import annotations

from textual.binding import Binding, BindingType
from threshold_lab.tui.commands import GROUPS, Command, keyed


def binding(command: type[Command]) -> Binding:
    """``command``'s binding: its key, action, footer text, id and label (tooltip)."""
    assert command.KEY is not None, f"{command.__name__} has no key"
    return Binding(
        command.KEY,
        command.ACTION,
        command.FOOTER,
        show=command.SHOW,
        key_display=command.KEY_DISPLAY,
        id=command.ID,
        tooltip=command.label(),
    )


def bindings(on: str) -> list[BindingType]:
    """The bindings of the main ``screen``, the ``rows`` table or the ``sweep`` table."""
    return [binding(c) for c in keyed(on)]


def help_groups() -> dict[str, set[str]]:
    """Help's sections: each group's binding ids, in :data:`GROUPS` order."""
    out: dict[str, set[str]] = {g: set() for g in GROUPS}
    for on in ("screen", "rows", "sweep"):
        for c in keyed(on):
            out[c.GROUP].add(c.ID)
    return {g: ids for g, ids in out.items() if ids}


def key_names(keys: str, *, ascii: bool = False) -> str:
    """A binding's keys as people type them: ``[``, not ``left_square_bracket``;
    arrows spelled ``left``/``right`` in ASCII (``<`` and ``>`` look like keys)."""
    return ", ".join(_key_name(k, ascii) for k in keys.split(","))


def _key_name(key: str, ascii: bool = False) -> str:
    arrows = {"left": "left", "right": "right"} if ascii else {"left": "←", "right": "→"}
    names = {
        **arrows,
        "shift+left": f"shift+{arrows['left']}",
        "shift+right": f"shift+{arrows['right']}",
        "left_square_bracket": "[",
        "right_square_bracket": "]",
        "left_curly_bracket": "{",
        "right_curly_bracket": "}",
        "question_mark": "?",
        "plus": "+",
        "minus": "-",
        "space": "space",
        "shift+n": "N",
        "shift+p": "P",
    }
    return names.get(key, key)
