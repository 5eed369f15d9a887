"""Small modal dialogs: a typed value, a yes/no question, a preset picker."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option
from threshold_lab.core.data.presets import PRESETS
from threshold_lab.core.errors import InputError

ResultType = TypeVar("ResultType")


class Dialog(ModalScreen[ResultType]):
    """A modal screen that closes only itself, and only once.

    ``Screen.dismiss`` pops whatever screen is on top. Two Enters that arrive
    together both reach a dialog's input (or option list) before the first
    answer has closed it, so a second ``dismiss`` would pop the screen below:
    the explorer itself. :meth:`answer` ignores every answer after the first,
    and any answer while another screen is above this one.
    """

    _answered = False
    _ready = False

    def __init__(self) -> None:
        super().__init__()
        #: When it opened, on the clock Textual stamps each key with: a key stamped
        #: before this was typed while it opened and was sent to the screen below.
        self.opened_at = events.Event().time

    class Ready(Message):
        """A dialog can take keys now (or has gone): the app hands it the keys it held
        (see ``ThresholdLab.on_event``)."""

    @property
    def ready(self) -> bool:
        """Whether its widgets are up and focused, so that a key reaches them. Keys
        typed before then (``t0.9`` and Enter in one burst, or a paste) wait for it."""
        return self._ready

    def on_mount(self) -> None:
        self.call_after_refresh(self._now_ready)

    def on_unmount(self) -> None:
        self._ready = True
        self.app.post_message(self.Ready())

    def _now_ready(self) -> None:
        self._ready = True
        self.app.post_message(self.Ready())

    def take(self, event: events.Key | events.Paste) -> bool:
        """Act on a key that was typed while it opened, now, as typing it here would
        have: whether it could (if not, it goes the usual way). Only keys whose whole
        effect is immediate are taken, so the next one finds this dialog as the one
        before left it."""
        return False

    @property
    def answered(self) -> bool:
        """Whether it has closed (or begun to): whatever it was asked is settled."""
        return self._answered

    def answer(self, result: ResultType | None) -> None:
        """Close this dialog with ``result``, unless it is closed or not on top."""
        if self._answered or not self.is_mounted or self.app.screen is not self:
            return
        self._answered = True
        self.dismiss(result)


class ValueDialog(Dialog[object]):
    """Ask for one value. ``check`` turns the text into a value or raises InputError;
    a refused value shows why and the dialog stays open, so nothing is lost."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="dialog-cancel")]

    def __init__(
        self,
        title: str,
        value: str,
        check: Callable[[str], object],
        *,
        hint: str = "",
        enter: str = "applies",
    ) -> None:
        super().__init__()
        self.title_text = title
        self.value = value
        self.check = check
        self.hint = hint
        self.enter = enter

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.title_text, classes="dialog-title")
            if self.hint:
                # Plain text, never markup: a hint may show [optional] parts.
                yield Label(Text(self.hint), classes="dialog-hint")
            # The value is selected, so typing replaces it (t at 0.1 then 0.37 is 0.37).
            field = Input(value=self.value, id="dialog-input", select_on_focus=True)
            # Set before mounting, not in on_mount: a dialog pushed while the app is
            # closing (q, y and Enter together) is mounted with its children gone.
            field.set_reactive(Input.cursor_blink, False)
            yield field
            error = Label("", id="dialog-error", classes="dialog-error")
            error.display = False  # shown with a refusal, above the keys' line
            yield error
            yield Label(f"Enter {self.enter} · Esc cancels", classes="dialog-hint dialog-keys")

    def on_mount(self) -> None:
        # The field sets the terminal's cursor when it takes focus, which is before
        # the dialog is laid out (so it lands near the screen's corner): set it again
        # once the field has its place, for a magnifier or braille display to follow.
        self.call_after_refresh(self._cursor_to_field)

    def _cursor_to_field(self) -> None:
        for field in self.query("#dialog-input").results(Input):
            if field.has_focus:
                self.app.cursor_position = field.cursor_screen_offset
                field.refresh()  # the terminal's cursor moves when the screen is drawn

    def on_input_changed(self, event: Input.Changed) -> None:
        # A refusal was about the text as it was: once the text changes, it goes.
        # (query, not query_one: the dialog may be closing with its children gone.)
        for label in self.query("#dialog-error").results(Label):
            label.update("")
            label.display = False

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self._submit(event.value)

    def _submit(self, text: str) -> None:
        if self._answered:
            return  # a second Enter that arrived with the first: the value is applied
        try:
            result = self.check(text)
        except InputError as exc:
            error = self.query_one("#dialog-error", Label)
            error.update(f"Refused: {exc}")
            error.display = True
            return
        self.answer(result)

    def take(self, event: events.Key | events.Paste) -> bool:
        """Typed text goes into the field (replacing the selected value, as typing
        there does), Enter applies it and Esc cancels."""
        field = self.query_one("#dialog-input", Input)
        if isinstance(event, events.Paste):
            text = event.text.splitlines()[0] if event.text else ""
        elif event.key == "enter":
            self._submit(field.value)
            return True
        elif event.key == "escape":
            self.answer(None)
            return True
        elif event.is_printable and event.character is not None:
            text = event.character
        else:
            return False
        selection = field.selection
        if selection.is_empty:
            field.insert_text_at_cursor(text)
        else:
            field.replace(text, *selection)
        return True

    def action_cancel(self) -> None:
        self.answer(None)


class ConfirmDialog(Dialog[bool]):
    """A yes/no question: ``y`` or Enter for yes, ``n`` or Esc for no."""

    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes", id="confirm-yes"),
        Binding("n,escape", "answer(False)", "No", id="confirm-no"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(self.question, classes="dialog-title")
            yield Label("y: yes · n: no", classes="dialog-hint")

    def action_answer(self, yes: bool) -> None:
        self.answer(yes)

    def take(self, event: events.Key | events.Paste) -> bool:
        if isinstance(event, events.Key) and event.key in ("y", "enter", "n", "escape"):
            self.answer(event.key in ("y", "enter"))
            return True
        return False


class PresetPicker(Dialog[str | None]):
    """Choose a built-in fixture; each is described beside its name."""

    BINDINGS = [Binding("escape", "cancel", "Cancel", id="picker-cancel")]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label("Load a preset (Enter loads, Esc cancels)", classes="dialog-title")
            # The name on its own line, the description indented under it, so a
            # wrapped description never reads as the next preset.
            yield OptionList(
                *(
                    Option(
                        Group(
                            Text(p.name, style="bold"), Padding(Text(p.description), (0, 0, 0, 2))
                        ),
                        id=p.name,
                    )
                    for p in PRESETS.values()
                ),
                id="preset-list",
            )

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.answer(event.option.id)

    def action_cancel(self) -> None:
        self.answer(None)
