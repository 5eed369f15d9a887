"""The lesson line: the lesson's title, the step number and total, its words (caption,
question, verdict) and its keys, always on screen while a lesson runs."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive
from threshold_lab.tui.state.lesson_text import LessonText
from threshold_lab.tui.widgets.text import TextLines


class LessonLine(TextLines):
    """``Name the denominator · Step 3 of 10`` in bold, then the words, then the keys."""

    lesson: reactive[LessonText | None] = reactive(None)
    """What to show (None: no lesson runs, and the line is not shown)."""

    def watch_lesson(self, shown: LessonText | None) -> None:
        self.display = shown is not None
        if shown is None:
            return
        text = Text()
        text.append(shown.heading, style="bold")
        text.append(": ")
        text.append(shown.body)
        text.append("\n")
        text.append(shown.keys, style="italic")
        self.show(text)
