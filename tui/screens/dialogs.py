"""Small modal dialogs: a typed value, a yes/no question, a preset picker."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from rich.console import Group
from rich.padding import Padding
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
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

    def on_input_changed(self, event: Input.Changed) -> None:
        # A refusal was about the text as it was: once the text changes, it goes.
        # (query, not query_one: the dialog may be closing with its children gone.)
        for label in self.query("#dialog-error").results(Label):
            label.update("")
            label.display = False

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self._answered:
            return  # a second Enter that arrived with the first: the value is applied
        try:
            result = self.check(event.value)
        except InputError as exc:
            error = self.query_one("#dialog-error", Label)
            error.update(f"Refused: {exc}")
            error.display = True
            return
        self.answer(result)

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
