"""The help screen: every key of the explorer, generated from its bindings."""

from __future__ import annotations

import textwrap
from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static
from threshold_lab.tui.bindings import help_groups, key_names
from threshold_lab.tui.screens.dialogs import Dialog


class HelpScreen(Dialog[None]):
    """Lists every binding with its description; any of Esc, ? or q closes it."""

    BINDINGS = [Binding("escape,question_mark,q", "dismiss", "Close help", id="help-close")]

    def __init__(self, bindings: list[Binding], *, ascii: bool = False) -> None:
        super().__init__()
        self.bindings = bindings
        self.ascii = ascii

    def compose(self) -> ComposeResult:
        # The dialog's text width (its border, padding and scrollbar taken off): a long
        # description wraps under itself, never into the keys' column.
        width = max(min(100, self.app.size.width) - 8, 40)

        def entry(key: str, words: str) -> list[str]:
            wrapped = textwrap.wrap(words, width - 27) or [""]
            return [f"  {key:<24} {wrapped[0]}", *(" " * 27 + more for more in wrapped[1:])]

        lines: list[str] = []
        placed = {b.id for group in HELP_GROUPS.values() for b in self.bindings if b.id in group}
        groups = {
            **{
                name: [b for b in self.bindings if b.id in ids] for name, ids in HELP_GROUPS.items()
            },
            "Other keys": [b for b in self.bindings if b.id not in placed],
        }
        for name, bindings in groups.items():
            if not bindings:
                continue
            lines += ["", name] if lines else [name]
            for b in bindings:
                lines += entry(key_names(b.key, ascii=self.ascii), b.tooltip or b.description)
        lines += [
            *entry("ctrl+p", "Command palette: every key, and every preset, by name"),
            *entry(
                "tab  shift+tab",
                "Move the keys between the rows and the sweep table (the focused one has a "
                "bar down its left side)",
            ),
            "",
            "What the marks mean",
            *(line for mark, meaning in LEGEND for line in entry(mark, meaning)),
            "",
            "Rule: predicted positive if score >= threshold.",
            "Esc, ? or q closes this help.",
        ]
        with VerticalScroll(classes="dialog wide"):
            yield Static(titled("threshold-lab keys", lines))

    async def action_dismiss(self, result: None = None) -> None:
        self.answer(None)  # closes only itself, once (two Esc together)


#: Help's sections, by binding id, in the order people learn them (the commands' groups).
HELP_GROUPS: dict[str, set[str]] = help_groups()

#: Every mark the explorer draws, and what it means (nothing is told by colour alone).
LEGEND = (
    ("+  o", "an actual positive, an actual negative (the score strip's two lanes)"),
    ("|  ^", "the threshold's line in the strip, and its place on the score axis"),
    (
        "1-9  #",
        "in the strip, a column's rows: a count on a stack too tall for its lane; past 9 "
        "rows in a column, its rows in tenths of the lane's busiest column (# the busiest, "
        "#=N beside the lane says how many rows that is)",
    ),
    ("*", "a row whose prediction the last change moved"),
    (">", "the selected row; in the sweep table, the active operating point"),
    ("O", "the active operating point on a chart"),
    ("-", "a chart's chance (or prevalence) baseline, drawn in dashes"),
    (
        "braille line, *",
        "a chart's exact sweep (drawn with * in ASCII); with several models, the first model's",
    ),
    ("#  %  &", "the second, third, fourth ... model's curve (the legend names each)"),
    ("\u00b7  .", "a chart's pointwise bootstrap band, in dots (. in ASCII)"),
    ("\u25c6  :", "a reliability bin (@ in ASCII) and its interval's whisker"),
    ("=", "the gains chart's perfect line (a goal's bound on the metrics chart)"),
)


def titled(title: str, lines: list[str]) -> Text:
    """A bold title, a blank line, then ``lines`` as plain text (never parsed as markup)."""
    text = Text()
    text.append(title, style="bold")
    text.append("\n\n" + "\n".join(lines))
    return text


class MessageLogScreen(Dialog[None]):
    """The explorer's last messages in full, newest first (where it opens, and where a
    screen reader starts), one paragraph each, numbered as said (1 the oldest kept):
    what a cut message line said, in plain lines read in order."""

    AUTO_FOCUS = "#message-log"
    BINDINGS = [Binding("escape,L,q", "dismiss", "Close", id="log-close")]

    def __init__(self, messages: Sequence[str]) -> None:
        super().__init__()
        self.messages = list(messages)

    def compose(self) -> ComposeResult:
        numbered = [f"{i}. {m}" for i, m in enumerate(self.messages, 1)]
        lines = numbered[::-1] or ["Nothing said yet."]
        lines += ["", "Esc, L or q closes; up/down scroll."]
        with VerticalScroll(classes="dialog full", id="message-log"):
            yield Static(titled(f"Messages (the last {len(self.messages)}, newest first)", lines))

    async def action_dismiss(self, result: None = None) -> None:
        self.answer(None)  # closes only itself, once (two Esc together)


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
