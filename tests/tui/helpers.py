"""Build explorer apps for tests without a terminal."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Literal, cast

from rich.text import Text
from textual.app import SystemCommand
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.keys import _character_to_key
from textual.screen import Screen
from textual.widget import Widget
from threshold_lab.core.data.presets import preset
from threshold_lab.core.lessons.lesson import Lesson
from threshold_lab.core.session.session import Session
from threshold_lab.core.threshold import Threshold
from threshold_lab.tui.app import ThresholdLab

SIZE = (120, 40)
SMALL = (80, 24)
LARGE = (200, 60)


def make_app(
    name: str = "canonical",
    threshold: Threshold | Literal["preset"] = "preset",
    *,
    theme: str = "textual-dark",
    ascii: bool = False,
    demo: bool = False,
    lesson: Lesson | None = None,
    lesson_step: int = 0,
) -> ThresholdLab:
    p = preset(name)
    t = p.threshold if isinstance(threshold, str) else threshold
    return ThresholdLab(
        Session(
            p.data,
            t,
            source=f"preset {name}",
            models=p.models,
            multiclass=p.multiclass,
        ),
        theme=theme,
        ascii=ascii,
        demo=demo,
        lesson=lesson,
        lesson_step=lesson_step,
        playback_seconds=60.0,  # the demo advances only when a test says so
    )


def file_app(*argv: str, theme: str = "textual-dark") -> ThresholdLab:
    """The explorer as ``threshold-lab ARGV...`` opens it (a file, its options)."""
    from tests.argv import opened as open_argv

    opened = open_argv(argv)
    return ThresholdLab(opened.session, opening=opened.opening, theme=theme, playback_seconds=60.0)


def keys(text: str) -> list[str]:
    """Key names that type ``text`` (pilot.press takes names, not characters)."""
    return [_character_to_key(c) for c in text]


def retype(text: str) -> list[str]:
    """Keys that clear an input field and type ``text`` into it (ctrl+u deletes all
    to the left of the cursor: one key where 80 backspaces each waited for a frame)."""
    return ["end", "ctrl+u", *keys(text)]


def system_commands(app: ThresholdLab) -> Iterable[SystemCommand]:
    """The command palette's system commands on the main screen.

    ``ThresholdLab.get_system_commands`` takes a ``Screen[object]`` and Textual's
    ``Screen`` is invariant in its result type, so the main screen (a
    ``Screen[None]``) goes through a cast.
    """
    return app.get_system_commands(cast("Screen[object]", app.main))


def active_screen(app: ThresholdLab) -> Screen[object]:
    """``app.screen``, read afresh: mypy keeps an ``isinstance`` narrowing of
    ``app.screen`` across the key presses that change the screen."""
    return app.screen


def as_bindings(declared: Iterable[BindingType]) -> list[Binding]:
    """A ``BINDINGS`` list as the Binding objects the explorer declares (never tuples)."""
    found: list[Binding] = []
    for b in declared:
        assert isinstance(b, Binding), b
        found.append(b)
    return found


def rendered(widget: Widget) -> str:
    """The plain text ``widget`` renders (rich Text or Textual Content, for the widgets
    tested)."""
    text = widget.render()
    assert isinstance(text, Text | Content), type(text)
    return text.plain
