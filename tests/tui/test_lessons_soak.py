"""Soaking lessons: random keys in the explorer while a lesson runs, random lines in
plain mode (lesson words, answers of every kind, other commands), and lesson files
mutated at random: nothing raises but InputError, every refusal is one line."""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from threshold_lab.core.data.presets import preset
from threshold_lab.core.errors import InputError
from threshold_lab.core.lessons.play import parse_lesson, read_lesson
from threshold_lab.core.lessons.words import SHIPPED, lesson_path
from threshold_lab.core.session.session import Session
from threshold_lab.tui.app import ThresholdLab
from threshold_lab.tui.plain import PlainSession

from tests.tui.helpers import SIZE, SMALL
from tests.tui.test_soak import plan, soak

ANSWERS = ["2/3", "0.5", "1", "0", "undefined", "up", "right", "diagonal", "d", "2", "A", "B"]
ANSWERS += ["3.5/6", "200/3%", "skip", "", "  ", "x", "1/0", "9" * 40, "-1", "0.92", "no"]
OTHER = ["status", "metrics", "roc", "pr", "sweep", "rows", "threshold 0.3", "n", "p", "help"]
OTHER += ["walk roc", "describe roc", "overlap up", "balance down", "preset good", "lesson"]
OTHER += ["preset binormal:d=1,n=40,seed=2", "undo", "goal max f1", "prevalence 1/10"]
STEER = ["back", "go 1", "go 3", "go 99", "go x", "again", "leave", "skip", "back 2"]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_lines_in_a_lesson_never_raise(seed: int, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)  # a sound step writes its WAV here
    rng = random.Random(seed)
    out = io.StringIO()
    plain = PlainSession(Session(preset("canonical").data, 0.5, source="preset canonical"), out)
    for step in range(700):
        pick = rng.random()
        if pick < 0.08:
            line = f"lesson {rng.choice([*SHIPPED, 'nope', '/tmp', 'tour tour'])}"
        elif pick < 0.5:
            line = rng.choice(ANSWERS)
        elif pick < 0.7:
            line = rng.choice(STEER)
        else:
            line = rng.choice(OTHER)
        before = len(out.getvalue())
        try:
            plain.run_line(line)
        except Exception as exc:  # pragma: no cover - the failure report
            raise AssertionError(f"seed {seed}, step {step}: {line!r} raised {exc!r}") from exc
        said = out.getvalue()[before:]
        for text in said.splitlines():
            assert text.isprintable(), (line, text)
        if said.startswith("error:"):
            assert said.count("\n") == 1, (line, said)


@pytest.mark.parametrize(
    ("seed", "name", "size"), [(11, "denominator", SIZE), (12, "accuracy-trap", SMALL)]
)
async def test_random_keys_while_a_lesson_runs(
    seed: int, name: str, size: tuple[int, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    lesson = read_lesson(name)

    def make() -> ThresholdLab:
        p = preset("canonical")
        app = ThresholdLab(
            Session(p.data, p.threshold, source="preset canonical"),
            lesson=lesson,
            playback_seconds=0.2,  # steps without a question go on by themselves, fast
        )
        return app

    await soak(make, plan(seed, 500), f"seed {seed}, lesson {name}", size)


def _mutations(text: str, rng: random.Random) -> str:
    lines = text.splitlines()
    for _ in range(rng.randint(1, 4)):
        i = rng.randrange(len(lines))
        how = rng.randrange(5)
        if how == 0:
            del lines[i]
        elif how == 1:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif how == 2 and lines[i]:
            j = rng.randrange(len(lines[i]))
            lines[i] = lines[i][:j] + rng.choice('"=[]{}#, 0.5x\\') + lines[i][j + 1 :]
        elif how == 3:
            lines[i] = lines[i].replace("0.", "-1.").replace('"roc"', '"nope"')
        else:
            lines[i] = rng.choice(["[[step]]", "[step.ask]", "move = 99", "chart = 3", "x = 1"])
    return "\n".join(lines) + "\n"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(SHIPPED), st.integers(0, 2**32))
def test_a_mutated_lesson_is_read_or_refused_in_one_line(name: str, seed: int) -> None:
    path = lesson_path(name)
    assert path is not None
    text = _mutations(path.read_text(encoding="utf-8"), random.Random(seed))
    try:
        parse_lesson(text, "mutated.toml")
    except InputError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("mutated.toml")
