"""The help screen: every key of the explorer, generated from its bindings."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static


class HelpScreen(ModalScreen[None]):
    """Lists every binding with its description; any of Esc, ? or q closes it."""

    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close help", id="help-close")]

    def __init__(self, bindings: list[Binding]) -> None:
        super().__init__()
        self.bindings = bindings

    def compose(self) -> ComposeResult:
        lines = ["[b]threshold-lab keys[/b]", ""]
        for b in self.bindings:
            keys = ", ".join(_key_name(k) for k in b.key.split(","))
            lines.append(f"  {keys:<24} {b.description}")
        lines += [
            "",
            "Rule: predicted positive if score >= threshold.",
            "Esc, ? or q closes this help.",
        ]
        with VerticalScroll(classes="dialog wide"):
            yield Static(
                "\n".join(lines)
                .replace("[", r"\[")
                .replace(r"\[b]", "[b]")
                .replace(r"\[/b]", "[/b]")
            )

    async def action_dismiss(self, result: None = None) -> None:
        self.dismiss(None)


def _key_name(key: str) -> str:
    names = {
        "left_square_bracket": "[",
        "right_square_bracket": "]",
        "question_mark": "?",
        "space": "space",
        "shift+n": "N",
        "shift+p": "P",
    }
    return names.get(key, key)
