"""What the lesson line shows while a lesson runs (the explorer's lesson player makes it)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LessonText:
    """The lesson line: the heading (title, step of steps, paused), the step's words
    (caption, question, verdict) and the keys."""

    heading: str
    body: str
    keys: str
