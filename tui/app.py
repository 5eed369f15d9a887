"""The Textual application: wiring only. State and keys live on MainScreen."""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial

from textual.app import App, SystemCommand
from textual.screen import Screen

from core.presets import PRESETS
from core.session import Session
from tui.ascii import AsciiFilter
from tui.screens.help import key_names as _key_names
from tui.screens.main import MainScreen
from tui.widgets.row_table import RowTable


class ThresholdLab(App[None]):
    """Move one threshold; watch every count, metric and curve point follow."""

    CSS_PATH = "app.tcss"
    TITLE = "threshold-lab"
    ENABLE_COMMAND_PALETTE = True

    def __init__(
        self,
        session: Session,
        *,
        theme: str = "textual-dark",
        ascii: bool = False,
        playback_seconds: float = 1.0,
        demo: bool = False,
    ) -> None:
        super().__init__()
        self._main = MainScreen(session, playback_seconds=playback_seconds, demo=demo)
        self.theme = theme
        #: ASCII only: box drawing, braille and signs are rewritten (see tui.ascii).
        self.ascii = ascii
        if ascii:
            self._filters.append(AsciiFilter())
        # No motion unless asked: snapshots and screen readers both want stillness.
        self.animation_level = "none"

    def on_mount(self) -> None:
        self.set_class(self.ascii, "-ascii")
        self.push_screen(self._main)

    @property
    def main(self) -> MainScreen:
        return self._main

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        yield from super().get_system_commands(screen)
        for p in PRESETS.values():
            yield SystemCommand(
                f"Preset: {p.name}", p.description, lambda name=p.name: self._main.load_preset(name)
            )
        # Every key of the explorer is also a command, named with its key.
        rows = self._main.query_one(RowTable)
        for b in self._main.all_bindings():
            if b.action != "help":
                target = rows if b in RowTable.BINDINGS else self._main
                yield SystemCommand(
                    f"{b.tooltip or b.description} ({_key_names(b.key)})",
                    f"Key {_key_names(b.key)}",
                    partial(self.call_later, target.run_action, b.action),
                )
        yield SystemCommand("Help: keys", "Every key of the explorer", self._main.action_help)
