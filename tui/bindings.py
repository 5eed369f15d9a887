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
