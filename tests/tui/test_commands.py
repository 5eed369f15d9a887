"""Every command is declared once (tui/commands.py): the explorer's bindings, help, the
palette and plain mode's words and help are made from the declarations, and each
declaration is handled where it is bound."""

from __future__ import annotations

import io

from threshold_lab.core.data.presets import preset
from threshold_lab.core.session.session import Session
from threshold_lab.tui import commands as cmd
from threshold_lab.tui.plain import PlainSession, help_text
from threshold_lab.tui.screens.help import HELP_GROUPS
from threshold_lab.tui.screens.main import MainScreen
from threshold_lab.tui.widgets.row_table import RowTable
from threshold_lab.tui.widgets.sweep_table import SweepTable


def test_every_declaration_is_unique_and_labelled() -> None:
    keyed = [c for c in cmd.COMMANDS if c.KEY is not None]
    assert len({c.ID for c in keyed}) == len(keyed)
    for on in ("screen", "rows", "sweep"):
        keys = [c.KEY for c in cmd.keyed(on)]
        assert len(set(keys)) == len(keys), on
    for c in cmd.COMMANDS:
        assert c.label() and c.GROUP in cmd.GROUPS, c.__name__


def test_the_bindings_are_the_declarations() -> None:
    for widget, on in ((MainScreen, "screen"), (RowTable, "rows"), (SweepTable, "sweep")):
        ids = [getattr(b, "id", None) for b in widget.BINDINGS]
        assert ids == [c.ID for c in cmd.keyed(on)]
    for c in cmd.COMMANDS:
        if c.KEY is None:
            continue
        target = {"screen": MainScreen, "rows": RowTable, "sweep": SweepTable}[c.ON]
        action = c.ACTION.split("(")[0]
        if action.startswith("screen."):
            target, action = MainScreen, action.removeprefix("screen.")
        assert hasattr(target, f"action_{action}"), c.__name__


def test_help_groups_every_key() -> None:
    grouped = {i for ids in HELP_GROUPS.values() for i in ids}
    assert grouped == {c.ID for c in cmd.COMMANDS if c.KEY is not None}


def test_plain_mode_handles_every_word_it_declares() -> None:
    plain = PlainSession(Session(preset("canonical").data, 0.5, source="x"), io.StringIO())
    assert set(plain.handlers) == set(cmd.plain_commands())
    assert set(plain.commands) == set(cmd.plain_words())
    text = help_text()
    for c in cmd.plain_commands():
        assert f"  {c.PLAIN}" in text, c.__name__
