"""The words a lesson file may use for parts of the screen, panes, charts and curves,
where the shipped lessons are, and how a lesson's or a script's file is read."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from threshold_lab.core.errors import InputError

#: What a step can hide until revealed.
PARTS = ("curve", "metrics", "matrix", "sweep", "rows")
#: The panes a step can show (the explorer's panes, a test holds them equal).
PANES = ("matrix", "chart", "rows", "sweep", "all")
#: The charts a step can show (the explorer's chart modes, a test holds them equal).
CHARTS = ("roc", "pr", "both", "metrics", "reliability", "gains", "det", "decision", "cost")
#: The curves a step can describe, and walk.
DESCRIBED = ("roc", "pr")
WALKED = ("roc", "pr", "det")
#: The curves a step can play as sound.
SOUNDED = ("roc", "pr")
#: The lessons shipped with threshold-lab (docs/lessons/NAME.toml, installed as
#: ``threshold_lab.lessons``).
SHIPPED = ("denominator", "ap-vs-trapezoid", "accuracy-trap", "tour")


def lesson_path(name: str) -> Path | None:
    """The file of the shipped lesson ``name``, or None when there is no such lesson."""
    if name not in SHIPPED:
        return None
    return Path(str(resources.files("threshold_lab.lessons").joinpath(f"{name}.toml")))


def text_of(path: Path, named: str, missing: str = "no such file") -> str:
    """A small text file's text, or one line naming it (``named``) and why not."""
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{named}: {missing}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{named}: cannot read it ({exc})") from None
