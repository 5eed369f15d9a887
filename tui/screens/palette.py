"""Textual's command palette, made to close only itself, once.

Textual's palette calls ``Screen.dismiss``, which pops whatever screen is on
top. Two Enters that arrive together (or Enter then Esc) both reach it before
the first has closed it, so the second popped the explorer itself, and its
command ran twice. Here, once the palette has closed, it takes no more input
(keys and selections already queued are dropped), and a dismiss of a palette
that is closed or not on top does nothing. The app opens a palette only when
none is open anywhere in the screen stack (Textual looks at the top screen only).
"""

from __future__ import annotations

import inspect
from contextlib import suppress

from textual import work
from textual.await_complete import AwaitComplete
from textual.command import CommandPalette
from textual.css.query import NoMatches
from textual.events import Key
from textual.message import Message
from textual.widgets import Button, Input, OptionList

#: Textual's own search worker, undecorated (``work`` keeps it as ``__wrapped__``).
_TEXTUAL_GATHER = inspect.unwrap(CommandPalette._gather_commands)

#: What makes the palette select or run a command.
_SELECTING = (Key, Input.Submitted, OptionList.OptionSelected, Button.Pressed)


class OncePalette(CommandPalette):
    """The command palette, closed at most once and only from the top of the stack."""

    _answered = False

    @property
    def answered(self) -> bool:
        """Whether it has closed (or begun to): whatever it was asked is settled."""
        return self._answered

    def dismiss(self, result: None = None) -> AwaitComplete:
        if self._answered or not self.is_mounted or self.app.screen is not self:
            return AwaitComplete()
        self._answered = True
        return super().dismiss(result)

    async def _on_message(self, message: Message) -> None:
        # Keys and selections queued before it closed would select and run again.
        if self._answered and isinstance(message, _SELECTING):
            return
        await super()._on_message(message)

    # Its "no matches" timer and its watchers query its children (its search worker is
    # cancelled on close); once it has closed they may be gone (NoMatches), so they stop.

    def _watch__list_visible(self) -> None:
        if not self._answered:
            super()._watch__list_visible()

    async def _watch__show_busy(self) -> None:
        if not self._answered:
            await super()._watch__show_busy()

    @work(exclusive=True, group=CommandPalette._GATHER_COMMANDS_GROUP)
    async def _gather_commands(self, search_value: str) -> None:
        # The search worker starts by finding its list; a palette closed (by Esc,
        # Enter or a quit) before the worker ran has none (NoMatches 'CommandList',
        # which ended the app; found by bench/keymash_tmux.py). Then it stops.
        if self._answered or not self.is_attached:
            return
        try:
            await _TEXTUAL_GATHER(self, search_value)
        except NoMatches:
            if self._answered or not self.is_attached or self.app.screen is not self:
                return
            raise

    def _action_command_list(self, action: str) -> None:
        # Textual's option list can page before it has laid out new options
        # (KeyError in OptionList._move_page); the key does nothing then.
        with suppress(KeyError):
            super()._action_command_list(action)
