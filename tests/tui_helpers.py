"""Build explorer apps for tests without a terminal."""

from __future__ import annotations

from textual.keys import _character_to_key
from threshold_lab.core.data.presets import preset
from threshold_lab.core.session.session import Session
from threshold_lab.core.threshold import Threshold
from threshold_lab.tui.app import ThresholdLab

SIZE = (120, 40)
SMALL = (80, 24)
LARGE = (200, 60)


def make_app(
    name: str = "canonical",
    threshold: Threshold | str = "preset",
    *,
    theme: str = "textual-dark",
    ascii: bool = False,
    demo: bool = False,
) -> ThresholdLab:
    p = preset(name)
    t = p.threshold if threshold == "preset" else threshold
    return ThresholdLab(
        Session(
            p.data,
            t,
            source=f"preset {name}",
            models=p.models,  # type: ignore[arg-type]
            multiclass=p.multiclass,
        ),
        theme=theme,
        ascii=ascii,
        demo=demo,
        playback_seconds=60.0,  # the demo advances only when a test says so
    )


def file_app(*argv: str, theme: str = "textual-dark") -> ThresholdLab:
    """The explorer as ``threshold-lab ARGV...`` opens it (a file, its options)."""
    from threshold_lab.tui.cli import parser
    from threshold_lab.tui.cli.args import SourceArgs

    wanted = SourceArgs.parse(parser().parse_args(list(argv)))
    src, threshold = wanted.open()
    return ThresholdLab(wanted.session(src, threshold), theme=theme, playback_seconds=60.0)


def keys(text: str) -> list[str]:
    """Key names that type ``text`` (pilot.press takes names, not characters)."""
    return [_character_to_key(c) for c in text]


def retype(text: str) -> list[str]:
    """Keys that clear an input field and type ``text`` into it."""
    return ["end", *["backspace"] * 80, *keys(text)]
