"""A lesson: a small TOML file of steps, read with the standard library and checked whole.

A lesson file has a ``title`` (and optionally ``about``) and one ``[[step]]`` table a
step. A step may:

- load rows: ``preset = "canonical"`` (any preset, generated ones included), or inline
  ``rows = {scores = [...], labels = [...], ids = [...]}``; the first step must load
  rows, and a load starts afresh (no goal, no prevalence, no band);
- move the threshold: ``threshold = 0.5`` (or ``"above-all"``, or ``"lowest"``), then
  ``move = N`` tie groups (positive lowers the threshold, as the sweep goes);
- set ``goal``, ``prevalence`` or ``band`` (``"off"`` clears each);
- show a pane (``show = "matrix" | "chart" | "rows" | "sweep" | "all"``) and a chart
  (``chart = "roc"``, ...): where one pane shows at a time, the one the caption speaks of;
- hide parts of the screen until a later step (or an answer) reveals them:
  ``hide = ["curve", "metrics", "matrix", "sweep", "rows"]``, ``reveal = [...]``;
- say a ``caption``; ``describe = "roc" | "pr"`` adds the curve's description,
  ``walk = "roc" | "pr" | "det"`` starts a walk along it at the step's point,
  ``sonify = "roc" | "pr"`` plays it as sound (a WAV file: one tone a point);
- ask: ``[step.ask]`` with a ``question`` and one kind of answer (:mod:`.answers`), an
  ``explain`` said after the answer, right or wrong, and ``reveal`` parts shown then.

Nothing runs half a lesson: :func:`~threshold_lab.core.lessons.play.read_lesson` refuses
a malformed lesson naming the step and the field, and plays every step once on a session
of its own, so a preset that does not exist or a goal that does not parse is found
before the class sees step 1.
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from threshold_lab.core.data.dataset import Dataset, make_dataset
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.lessons.answers import Question, read_question
from threshold_lab.core.lessons.words import (
    CHARTS,
    DESCRIBED,
    PANES,
    PARTS,
    SHIPPED,
    SOUNDED,
    WALKED,
    lesson_path,
    text_of,
)
from threshold_lab.core.threshold import Threshold, parse_threshold

#: Each field a step may have.
STEP_FIELDS = (
    "caption",
    "preset",
    "rows",
    "threshold",
    "move",
    "goal",
    "prevalence",
    "band",
    "show",
    "chart",
    "hide",
    "reveal",
    "describe",
    "walk",
    "sonify",
    "ask",
)
#: ``threshold = "lowest"``: every row predicted positive.
LOWEST = "lowest"


@dataclass(frozen=True)
class Rows:
    """Rows a step loads: a preset by name, or inline rows (``data``) at ``threshold``."""

    preset: str | None = None
    data: Dataset | None = None
    threshold: Threshold = 0.5


@dataclass(frozen=True)
class Step:
    """One step of a lesson, as read (1-based ``number``)."""

    number: int
    caption: str = ""
    rows: Rows | None = None
    threshold: Threshold | str | None = field(default=None)
    #: Whether the step sets the threshold (``threshold`` None is then above-all).
    sets_threshold: bool = False
    move: int = 0
    goal: str | None = None
    prevalence: str | None = None
    band: str | None = None
    show: str | None = None
    chart: str | None = None
    hide: tuple[str, ...] = ()
    reveal: tuple[str, ...] = ()
    describe: str | None = None
    walk: str | None = None
    sonify: str | None = None
    ask: Question | None = None


@dataclass(frozen=True)
class Lesson:
    """A lesson: its title, what it is about, its steps, and where it was read from."""

    title: str
    steps: tuple[Step, ...]
    source: str
    about: str = ""

    def __len__(self) -> int:
        return len(self.steps)

    def hidden(self, k: int) -> frozenset[str]:
        """The parts hidden as step ``k`` (0-based) begins: each step's hide and reveal
        in turn, and what each earlier question revealed once it was answered (a load
        changes none)."""
        hidden: set[str] = set()
        for i, step in enumerate(self.steps[: k + 1]):
            hidden |= set(step.hide)
            hidden -= set(step.reveal)
            if i < k and step.ask is not None:
                hidden -= set(step.ask.reveal)
        return frozenset(hidden)

    def view(self, k: int) -> tuple[str | None, str | None]:
        """The pane and chart shown at step ``k``: its own, else the last step's that named one."""
        pane = next((s.show for s in reversed(self.steps[: k + 1]) if s.show), None)
        chart = next((s.chart for s in reversed(self.steps[: k + 1]) if s.chart), None)
        return pane, chart

    def without_questions(self) -> Lesson:
        """The lesson with its questions taken out (the tour runs so: nothing waits)."""
        steps = tuple(dataclasses.replace(s, ask=None) for s in self.steps)
        return Lesson(self.title, steps, self.source, self.about)


def lesson_text(where: str | Path) -> tuple[str, str]:
    """The text of the lesson at ``where`` (a path, or a shipped lesson's name) and the
    name it is called by in messages."""
    path = Path(where)
    shipped = lesson_path(str(where)) if not path.suffix else None
    if shipped is not None:
        path = shipped
    missing = f"no such file (the shipped lessons are {', '.join(SHIPPED)})"
    return text_of(path, f"lesson {quoted(str(where))}", missing), str(where)


def lesson_from_toml(text: str, source: str = "lesson") -> Lesson:
    """A lesson from TOML ``text``, each field checked (playing it once is
    :func:`~threshold_lab.core.lessons.play.read_lesson`'s)."""
    try:
        table = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{source}: not TOML ({exc})") from None
    known = {"title", "about", "step"}
    extra = sorted(set(table) - known)
    if extra:
        raise InputError(
            f"{source}: unknown field {quoted(extra[0])}; a lesson has title, about and [[step]]"
        )
    title = _text(table.get("title", ""), f"{source}: title")
    if not title:
        raise InputError(f'{source}: give the lesson a title (title = "...")')
    about = _text(table.get("about", ""), f"{source}: about")
    raw_steps = table.get("step")
    if not isinstance(raw_steps, list) or not raw_steps:
        raise InputError(f"{source}: no steps; each step is a [[step]] table")
    steps = tuple(_step(raw, i + 1, source) for i, raw in enumerate(raw_steps))
    if steps[0].rows is None:
        raise InputError(f"{source}, step 1: a lesson begins by loading rows (preset or rows)")
    return Lesson(title, steps, source, about)


def _step(raw: object, number: int, source: str) -> Step:
    where = f"{source}, step {number}"
    if not isinstance(raw, Mapping):
        raise InputError(f"{where}: a step is a table of fields")
    extra = [k for k in raw if k not in STEP_FIELDS]
    if extra:
        raise InputError(
            f"{where}: unknown field {quoted(extra[0])}; a step's fields are "
            + ", ".join(STEP_FIELDS)
        )
    if "preset" in raw and "rows" in raw:
        raise InputError(f"{where}: give preset or rows, not both")
    rows = None
    if "preset" in raw:
        rows = Rows(preset=_text(raw["preset"], f"{where}: preset"))
    elif "rows" in raw:
        rows = _rows(raw["rows"], f"{where}: rows")
    threshold: Threshold | str | None = None
    sets = "threshold" in raw
    if sets:
        threshold = _threshold(raw["threshold"], f"{where}: threshold")
    move = raw.get("move", 0)
    if isinstance(move, bool) or not isinstance(move, int) or abs(move) > 10**6:
        raise InputError(f"{where}: move is a whole number of tie groups, such as 1 or -2")
    step = Step(
        number,
        caption=_text(raw.get("caption", ""), f"{where}: caption"),
        rows=rows,
        threshold=threshold,
        sets_threshold=sets,
        move=move,
        goal=_optional_text(raw, "goal", where),
        prevalence=_optional_text(raw, "prevalence", where, numbers=True),
        band=_optional_text(raw, "band", where),
        show=_one_of(raw, "show", PANES, where),
        chart=_one_of(raw, "chart", CHARTS, where),
        hide=_parts(raw.get("hide", []), f"{where}: hide"),
        reveal=_parts(raw.get("reveal", []), f"{where}: reveal"),
        describe=_one_of(raw, "describe", DESCRIBED, where),
        walk=_one_of(raw, "walk", WALKED, where),
        sonify=_one_of(raw, "sonify", SOUNDED, where),
        ask=read_question(raw["ask"], f"{where}: ask") if "ask" in raw else None,
    )
    if not step.caption and step.ask is None:
        raise InputError(f"{where}: a step says something: give it a caption or an ask")
    return step


def _text(value: object, where: str) -> str:
    if not isinstance(value, str):
        raise InputError(f"{where} is text in quotes, not {quoted(value)}")
    return " ".join(value.split())


def _optional_text(
    raw: Mapping[str, Any], name: str, where: str, *, numbers: bool = False
) -> str | None:
    if name not in raw:
        return None
    value = raw[name]
    if numbers and isinstance(value, int | float) and not isinstance(value, bool):
        return repr(value)
    return _text(value, f"{where}: {name}")


def _one_of(raw: Mapping[str, Any], name: str, words: Sequence[str], where: str) -> str | None:
    if name not in raw:
        return None
    value = raw[name]
    if not isinstance(value, str) or value.lower() not in words:
        raise InputError(f"{where}: {name} {quoted(value)} is not one of {', '.join(words)}")
    return value.lower()


def _parts(value: object, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        raise InputError(f"{where} is a list of parts: {', '.join(PARTS)}")
    for part in value:
        if not isinstance(part, str) or part.lower() not in PARTS:
            raise InputError(f"{where}: {quoted(part)} is not one of {', '.join(PARTS)}")
    return tuple(p.lower() for p in value)


def _threshold(value: object, where: str) -> Threshold | str:
    if isinstance(value, bool):
        raise InputError(f"{where} is a number, above-all or lowest, not {quoted(value)}")
    if isinstance(value, int | float):
        if not math.isfinite(value):
            raise InputError(f"{where} {quoted(value)} is not a finite number")
        return float(value)
    if isinstance(value, str):
        if value.strip().lower() == LOWEST:
            return LOWEST
        try:
            return parse_threshold(value)
        except InputError as exc:
            raise InputError(f"{where}: {exc}") from None
    raise InputError(f"{where} is a number, above-all or lowest, not {quoted(value)}")


def _rows(value: object, where: str) -> Rows:
    if not isinstance(value, Mapping):
        raise InputError(f"{where} is a table: {{scores = [...], labels = [...]}}")
    extra = [k for k in value if k not in ("scores", "labels", "ids", "threshold")]
    if extra:
        raise InputError(
            f"{where}: unknown field {quoted(extra[0])}; rows have scores, labels, ids"
        )
    scores, labels = value.get("scores"), value.get("labels")
    if not isinstance(scores, list) or not isinstance(labels, list):
        raise InputError(f"{where}: give scores = [...] and labels = [...], lists of one length")
    if len(scores) != len(labels):
        raise InputError(
            f"{where}: {len(scores)} scores but {len(labels)} labels; give one label a score"
        )
    for i, s in enumerate(scores):
        if isinstance(s, bool) or not isinstance(s, int | float):
            raise InputError(f"{where}: score {i + 1} {quoted(s)} is not a number")
    for i, y in enumerate(labels):
        if y not in (0, 1) or isinstance(y, float):
            raise InputError(f"{where}: label {i + 1} is {quoted(y)}; a label is 0 or 1")
    ids = value.get("ids")
    if ids is not None and (not isinstance(ids, list) or not all(isinstance(i, str) for i in ids)):
        raise InputError(f"{where}: ids is a list of texts in quotes")
    if ids is not None and len(ids) != len(scores):
        raise InputError(f"{where}: {len(ids)} ids but {len(scores)} scores; give one id a score")
    threshold = _threshold(value.get("threshold", 0.5), f"{where}: threshold")
    if threshold == LOWEST:
        raise InputError(f"{where}: threshold is where the rows open: a number or above-all")
    try:
        data = make_dataset(
            [float(s) for s in scores], [int(y) for y in labels], ids=ids or _ids(len(scores))
        )
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    return Rows(data=data, threshold=None if threshold is None else float(threshold))


def _ids(n: int) -> list[str]:
    return [f"r{i + 1}" for i in range(n)]
