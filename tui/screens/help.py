"""The help screen: every key of the explorer, generated from its bindings."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from tui.screens.dialogs import Dialog


class HelpScreen(Dialog[None]):
    """Lists every binding with its description; any of Esc, ? or q closes it."""

    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close help", id="help-close")]

    def __init__(self, bindings: list[Binding]) -> None:
        super().__init__()
        self.bindings = bindings

    def compose(self) -> ComposeResult:
        lines = [f"  {key_names(b.key):<24} {b.tooltip or b.description}" for b in self.bindings]
        lines += [
            "",
            "Rule: predicted positive if score >= threshold.",
            "Esc, ? or q closes this help.",
        ]
        with VerticalScroll(classes="dialog wide"):
            yield Static(titled("threshold-lab keys", lines))

    async def action_dismiss(self, result: None = None) -> None:
        self.answer(None)  # closes only itself, once (two Esc together)


def titled(title: str, lines: list[str]) -> Text:
    """A bold title, a blank line, then ``lines`` as plain text (never parsed as markup)."""
    text = Text()
    text.append(title, style="bold")
    text.append("\n\n" + "\n".join(lines))
    return text


def key_names(keys: str) -> str:
    """A binding's keys as people type them: ``[``, not ``left_square_bracket``."""
    return ", ".join(_key_name(k) for k in keys.split(","))


def _key_name(key: str) -> str:
    names = {
        "left": "←",
        "right": "→",
        "shift+left": "shift+←",
        "shift+right": "shift+→",
        "left_square_bracket": "[",
        "right_square_bracket": "]",
        "question_mark": "?",
        "plus": "+",
        "minus": "-",
        "space": "space",
        "shift+n": "N",
        "shift+p": "P",
    }
    return names.get(key, key)


class MetricsScreen(Dialog[None]):
    """Every metric of the current threshold, full width and scrollable."""

    # Focused by Textual when shown: an on_mount query found nothing when a second
    # key closed the screen before it mounted (found by bench/keymash_tmux.py).
    AUTO_FOCUS = "#all-metrics"

    BINDINGS = [Binding("escape,m,q", "dismiss", "Close", id="metrics-close")]

    def __init__(self, title: str, body: Text) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        text = Text()
        text.append(self.title_text, style="bold")
        text.append("\n\n")
        text.append_text(self.body)
        text.append("\n\nEsc, m or q closes; up/down scroll.")
        with VerticalScroll(classes="dialog full", id="all-metrics"):
            yield Static(text)

    async def action_dismiss(self, result: None = None) -> None:
        self.answer(None)  # closes only itself, once (two Esc together)
