"""The Textual application: wiring only. State and keys live on MainScreen."""

from __future__ import annotations

import asyncio
import bisect
import signal
import string
import sys
import time
from collections.abc import Callable, Iterable
from functools import partial

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import CommandPalette
from textual.filter import Monochrome, NoColor
from textual.keys import _character_to_key
from textual.screen import Screen
from textual.theme import ThemeProvider
from threshold_lab.core.data.presets import PRESETS
from threshold_lab.core.lessons.lesson import Lesson
from threshold_lab.core.lessons.play import read_lesson
from threshold_lab.core.lessons.script import Item, Press, Wait
from threshold_lab.core.session import recovery
from threshold_lab.core.session.opening import Opened
from threshold_lab.core.session.session import Session
from threshold_lab.tui.ascii import AsciiFilter
from threshold_lab.tui.bindings import key_names
from threshold_lab.tui.screens import asking
from threshold_lab.tui.screens.dialogs import Dialog
from threshold_lab.tui.screens.loading import Loaded, LoadingScreen
from threshold_lab.tui.screens.main import MainScreen
from threshold_lab.tui.screens.palette import OncePalette
from threshold_lab.tui.terminal import hung_up
from threshold_lab.tui.widgets.row_table import RowTable

#: Textual's system commands the explorer has its own, better version of.
_TWICE = frozenset({"Quit", "Keys"})

#: Seconds between the keys a script replays: the screen answers each before the next.
SCRIPT_PACE = 0.3
#: Each printable character by its key name (``question_mark``: ``?``), for replaying.
_CHARACTER = {_character_to_key(c): c for c in string.printable if c.isprintable()}


#: How often the explorer asks whether its terminal is still there (see
#: :meth:`ThresholdLab._check_terminal`): one request a second, nothing drawn.
TERMINAL_CHECK_SECONDS = 1.0


def _again(event: events.Key | events.Paste) -> events.Key | events.Paste:
    """A held key as typed now: stamped now, so that coming back up unused (as
    Enter does from a field, whose own binding takes it there) it is not taken for
    a key typed before its dialog and held once more."""
    return event.copy() if isinstance(event, events.Key) else events.Paste(event.text)


def _dark(app: App[None], theme: str) -> bool:
    """Whether ``theme`` (a name the app knows) is a dark one."""
    found = app.get_theme(theme)
    return found is None or found.dark


class ThresholdLab(App[None]):
    """Move one threshold; watch every count, metric and curve point follow."""

    CSS_PATH = "app.tcss"
    TITLE = "threshold-lab"
    ENABLE_COMMAND_PALETTE = True

    def __init__(
        self,
        session: Session | None = None,
        *,
        theme: str = "textual-dark",
        ascii: bool = False,
        playback_seconds: float = 1.0,
        demo: bool = False,
        lesson: Lesson | None = None,
        lesson_step: int = 0,
        loader: tuple[str, Callable[[], Opened]] | None = None,
        rows_return: bool = False,
        opening: str = "",
        script: tuple[Item, ...] | None = None,
        recording: bool = False,
    ) -> None:
        super().__init__()
        #: A recorded demo to replay once the explorer opens (--script).
        self.script = script
        #: Every key pressed, with when (--record writes them as a script on closing).
        self.recording = recording
        self.pressed: list[tuple[float, str, str | None]] = []
        #: The rows go back to a Python caller on quitting (threshold_lab.explore):
        #: quitting with edits loses nothing, so it does not ask.
        self.rows_return = rows_return
        self.playback_seconds = playback_seconds
        self.demo = demo
        #: The lesson to run, from step ``lesson_step`` (0-based); --demo runs the tour,
        #: its questions (it has none) taken out.
        self.lesson = read_lesson("tour").without_questions() if demo else lesson
        self.lesson_step = lesson_step
        #: Set when the app ends without exploring (a cancelled or failed load).
        self.exit_note: str | None = None
        self._hung = False  # a hang-up is being handled
        #: Keys typed while a dialog opens, in order (see :meth:`on_event`).
        self._held: list[events.Key | events.Paste] = []
        self._loader = loader
        self._main: MainScreen | None = None
        if session is not None:
            self._main = MainScreen(
                session,
                playback_seconds=playback_seconds,
                lesson=self.lesson,
                lesson_step=lesson_step,
                ascii=ascii,
                opening=opening,
            )
        elif loader is None:
            raise ValueError("give a session or a loader")
        if self.no_color:
            # NO_COLOR: no colours at all. Textual alone paints its theme's colours in
            # greys over a background of its own; the terminal's own palette with every
            # colour taken off leaves its foreground and background, with bold,
            # underline and reverse video (the ANSI themes' marks) telling things apart.
            theme = (
                "ansi-light"
                if self.get_theme(theme) is not None and not _dark(self, theme)
                else "ansi-dark"
            )
            self._filters = [f for f in self._filters if not isinstance(f, Monochrome)]
            self._filters.append(NoColor())
        self.theme = theme
        #: ASCII only: box drawing, braille and signs are rewritten (see tui.ascii).
        self.ascii = ascii
        if ascii:
            self._filters.append(AsciiFilter())
        # No motion unless asked: snapshots and screen readers both want stillness.
        self.animation_level = "none"

    def on_mount(self) -> None:
        self.set_class(self.ascii, "-ascii")
        if not self.is_headless:  # a real terminal (or serve's browser tab) can hang up
            loop = asyncio.get_running_loop()
            for sig in (signal.SIGHUP, signal.SIGTERM):
                loop.add_signal_handler(sig, self._hang_up, sig)
            stdin = sys.__stdin__
            if stdin is not None and stdin.isatty():
                self.set_interval(
                    TERMINAL_CHECK_SECONDS, partial(self._check_terminal, stdin.fileno())
                )
        if self._main is not None:
            self.push_screen(self._main)
            self.call_after_refresh(self.start_script)
        elif self._loader is not None:
            self.push_screen(LoadingScreen(*self._loader))

    def on_loaded(self, message: Loaded) -> None:
        outcome = message.screen.outcome
        if isinstance(outcome, Opened):
            self._main = MainScreen(
                outcome.session,
                playback_seconds=self.playback_seconds,
                lesson=self.lesson,
                lesson_step=self.lesson_step,
                ascii=self.ascii,
                opening=outcome.opening,
            )
            self.switch_screen(self._main)
            self.call_after_refresh(self.start_script)
        else:
            self.exit_note = outcome
            self.exit(return_code=1 if message.screen.progress.cancelled else 2)

    def _check_terminal(self, fd: int) -> None:
        """A terminal can go with no SIGHUP reaching the explorer: under `make run`, or
        any program that keeps the terminal's hang-up for itself, the explorer is not
        the one the terminal signals, and Textual's input thread then reads end-of-file
        in a loop, a core's worth of CPU, for ever. A terminal that has hung up answers
        every request with an error (:func:`hung_up`): ending then is SIGHUP's end."""
        if hung_up(fd):
            self._hang_up(signal.SIGHUP)

    def _hang_up(self, signum: int) -> None:
        """SIGHUP (the terminal or SSH link went) or SIGTERM: keep unsaved edits in a
        recovery file, then end, giving the terminal back; the note goes to stderr."""
        if self._hung:
            return
        self._hung = True
        main = self._main
        said = "" if main is None else recovery.kept(main.session.recover, signum)
        self.exit_note = said or None
        self.exit(return_code=128 + signum)

    @property
    def main(self) -> MainScreen:
        if self._main is None:
            raise LookupError("the rows are still loading")
        return self._main

    def _holding(self) -> bool:
        """Whether a key must wait: a dialog is opening (its field not there yet to
        take it), or keys before it are still waiting."""
        screen = self.screen_stack[-1] if self.screen_stack else None
        return bool(self._held) or (isinstance(screen, Dialog) and not screen.ready)

    def _hold(self, event: events.Key | events.Paste) -> None:
        """Keep a key to hand on later, in the order it was typed."""
        bisect.insort(self._held, event, key=lambda e: e.time)

    def start_script(self) -> None:
        """Replay the script, key by key at a presenter's pace (its waits as written)."""
        if self.script is not None:
            self.run_worker(self._replay(self.script), name="script", exclusive=True)

    async def _replay(self, script: tuple[Item, ...]) -> None:
        for item in script:
            if isinstance(item, Wait):
                await asyncio.sleep(item.seconds)
                continue
            if isinstance(item, Press):
                keys = [(item.key, item.key if len(item.key) == 1 else _CHARACTER.get(item.key))]
            else:
                keys = [(_character_to_key(c), c) for c in item.text]
            for key, character in keys:
                self.post_message(events.Key(key, character))
                await asyncio.sleep(SCRIPT_PACE)
        self.notify("The script has played to its end.", timeout=3)

    async def on_event(self, event: events.Event) -> None:
        """Drop a key or mouse event that arrives while the app is closing (its
        screens are gone): Textual would raise ScreenStackError and print a
        traceback over the terminal the user just got back.

        Keys (and pastes) typed while a dialog opens go to the dialog, in order:
        ``t0.9`` and Enter typed in one burst set 0.9. They wait here until its field
        is there to take them (see also :meth:`_on_key`)."""
        if isinstance(event, events.InputEvent) and not self.screen_stack:
            return
        typed = isinstance(event, events.Key | events.Paste) and not event.is_forwarded
        if self.recording and isinstance(event, events.Key) and not event.is_forwarded:
            # What is typed into a field is kept as its characters (a type line).
            typed_into = isinstance(self.screen, Dialog) and event.is_printable
            char = event.character if typed_into else None
            self.pressed.append((time.monotonic(), event.key, char))
        if typed and self._holding():
            assert isinstance(event, events.Key | events.Paste)
            self._hold(event)
            return
        await super().on_event(event)

    async def _on_key(self, event: events.Key) -> None:
        # A key that bubbles back up to the app after the last screen went: stop
        # App._on_key (Textual calls each class's handler in turn) from seeking one.
        if not self.screen_stack:
            event.prevent_default()
            return
        # A key typed before a dialog opened but after the key that opened it: it
        # went to the screen below, whose widgets passed it up here, where Textual
        # would look it up among the dialog's keys and drop it (``0`` of ``t0.9``).
        # It is the dialog's: typed again there, in its turn.
        if await self._typed_before(event):
            return
        main = self._main
        if main is not None and self.screen is main and main.row_key_elsewhere(event.key):
            event.prevent_default()

    async def _on_paste(self, event: events.Paste) -> None:
        await self._typed_before(event)

    async def _typed_before(self, event: events.Key | events.Paste) -> bool:
        """Hand a key typed while a dialog opened to it: whether it was one."""
        top = self.screen_stack[-1] if self.screen_stack else None
        if not (isinstance(top, Dialog) and event.time < top.opened_at):
            return False
        event.prevent_default()
        again = event.copy() if isinstance(event, events.Key) else events.Paste(event.text)
        again.time = event.time
        if self._holding():
            self._hold(again)
        else:
            await self.on_event(_again(again))
        return True

    async def _bound(self, event: events.Key | events.Paste) -> bool:
        """Run a held key's binding now, if it has one where it is typed (the field's
        ctrl+u, the help's scrolling): whether it had. Done here, not queued, so the
        next key finds its effect (Textual's own lookup, as for a key typed there)."""
        if not isinstance(event, events.Key):
            return False
        return await self._check_bindings(event.key, priority=True) or await self._check_bindings(
            event.key
        )

    async def on_dialog_ready(self, message: Dialog.Ready) -> None:
        """Hand the waiting keys on: to a dialog, one by one as it takes them; to the
        explorer, all together (a key among them that opens a dialog holds the rest
        for that dialog again)."""
        while self._held and self.screen_stack:
            top = self.screen_stack[-1]
            if isinstance(top, Dialog):
                if not top.ready or top.answered:
                    return  # opening, or closing: its Ready (mounted, or gone) goes on
                held = self._held.pop(0)
                if top.take(held) or await self._bound(held):
                    continue
                await super().on_event(_again(held))
                continue
            rest, self._held = self._held, []
            for event in rest:
                await super().on_event(_again(event))

    async def action_quit(self) -> None:
        """Quit (ctrl+q, the palette's Quit); with unsaved edits, only after asking."""
        main = self._main
        if main is not None and main.is_mounted:
            asking.quit_app(main)
        else:
            await super().action_quit()

    def action_command_palette(self) -> None:
        """Open the command palette, unless one is open anywhere in the stack."""
        if self.use_command_palette and not any(
            isinstance(s, CommandPalette) for s in self.screen_stack
        ):
            self.push_screen(OncePalette(id="--command-palette"))

    def get_key_display(self, binding: Binding) -> str:
        """Keys as the footer shows them; with --ascii, arrows are spelled out (the
        filter's ``<`` and ``>`` read as keys of their own)."""
        shown = super().get_key_display(binding)
        if not self.ascii:
            return shown
        for arrow, word in (("←", "left"), ("→", "right"), ("↑", "up"), ("↓", "down")):
            shown = shown.replace(arrow, word)
        return shown

    def search_themes(self) -> None:
        """The palette's Theme command: its own palette, closed only once too (two
        Enters in Textual's popped the explorer; found by the soak)."""
        self.push_screen(OncePalette(providers=[ThemeProvider], placeholder="Search for themes…"))

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        if self._main is None or not self._main.is_mounted:
            yield from super().get_system_commands(screen)
            return  # still loading: the system commands (quit, help) only
        # Textual's Quit and Keys are the explorer's own q and ? below (q asks over
        # unsaved edits): listed once, not twice.
        yield from (c for c in super().get_system_commands(screen) if c.title not in _TWICE)
        for p in PRESETS.values():
            yield SystemCommand(
                f"Preset: {p.name}", p.description, lambda name=p.name: self._main.load_preset(name)
            )
        main = self._main
        classes = () if main.session.multiclass is None else main.session.multiclass.classes
        for c, name in enumerate(classes):
            yield SystemCommand(
                f"Class: {name}",
                f"Class {name} against the rest (class {c + 1} of {len(classes)})",
                partial(main.run, partial(main.session.set_class, name)),
            )
        # Every key of the explorer is also a command, named with its key.
        rows = self._main.query_one(RowTable)
        for b in self._main.all_bindings():
            target = rows if b in RowTable.BINDINGS else self._main
            keys = key_names(b.key, ascii=self.ascii)  # --ascii: "right", not ">"
            yield SystemCommand(
                f"{b.tooltip or b.description} ({keys})",
                f"Key {keys}",
                partial(self.call_later, target.run_action, b.action),
            )
