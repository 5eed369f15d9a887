"""A lesson in plain mode: the whole transcript of a class (right and wrong answers,
back, go, again, skip, a hidden part asked for), each shipped lesson run to its end."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from threshold_lab.core.data.presets import preset
from threshold_lab.core.lessons.play import enter, read_lesson
from threshold_lab.core.lessons.words import SHIPPED
from threshold_lab.core.session.session import Session
from threshold_lab.tui.plain import run_plain

from tests.paths import ROOT

TRANSCRIPT = ROOT / "tests" / "data" / "lessons" / "denominator-plain.txt"
#: A class going through the denominator lesson: right, wrong, unreadable, a hidden
#: part asked for, back and forward, again, skip, go to a step, to the end.
LINES = [
    "lesson denominator",
    "metrics",  # while a question waits, a line is an answer: not a number
    "2/3",
    "metrics",  # hidden until the lesson shows them
    "",
    "0.6667",  # not 2/3 exactly
    "",
    "one",  # not a number: asked again
    "1",
    "",
    "0",  # precision above all scores is undefined, not 0
    "back",
    "again",
    "1",
    "",
    "undefined",
    "",
    "",
    "up",
    "go 7",
    "skip",
    "",
    "3",
    "",
    "",
    "4/5",
    "status",
]


def _run(lines: list[str], session: Session | None = None) -> str:
    out = io.StringIO()
    s = session or Session(preset("canonical").data, 0.5, source="preset canonical")
    run_plain(s, [f"{line}\n" for line in lines], out, prompt=False)
    return out.getvalue()


def test_the_transcript_of_a_class() -> None:
    said = _run(LINES)
    if not TRANSCRIPT.exists():  # written, to be read by eye before it is kept
        TRANSCRIPT.parent.mkdir(parents=True, exist_ok=True)
        TRANSCRIPT.write_text(said)
        pytest.fail(f"wrote {TRANSCRIPT}: read it, and keep it if it is right")
    assert said == TRANSCRIPT.read_text()


def test_what_the_transcript_holds() -> None:
    said = _run(LINES)
    assert said.count("Right:") == 6 and said.count("Not quite:") == 3
    assert "Hidden for now: the metrics, the sweep table." in said
    assert "The metrics are hidden until the lesson shows them." in said
    assert "'one' is not a number" in said
    assert "The answer: 7/12 exactly (≈ 0.5833)." in said  # skip
    assert "The lesson is over. 5 of 7 questions answered right." in said
    # The lesson left: status says precision again, as it always does.
    assert said.rstrip().endswith("precision 3/6, recall 3/4.")


@pytest.mark.parametrize("name", SHIPPED)
def test_each_shipped_lesson_runs_to_its_end_answered_right(name: str) -> None:
    lesson = read_lesson(name)
    oracle_session = Session(preset("canonical").data, 0.5, source="x")
    lines = [f"lesson {name}"]
    for k in range(len(lesson)):
        e = enter(lesson, k, oracle_session)
        if e.answer is not None:
            q = e.answer.question
            lines.append(q.choices[q.choice] if q.kind == "choice" else e.answer.said.split()[0])
        lines.append("")
    said = _run(lines)
    asked = sum(s.ask is not None for s in lesson.steps)
    assert said.count("Right:") == asked
    assert "Not quite" not in said and "error" not in said
    assert f"Step {len(lesson)} of {len(lesson)}." in said
    ending = f" {asked} of {asked} questions answered right." if asked else ""
    assert f"The lesson is over.{ending}" in said


def test_leave_keeps_the_state_and_lines_are_commands_again() -> None:
    said = _run(["lesson tour", "", "", "leave", "", "status"])
    assert "Step 3 of 9." in said and "You left the lesson" in said
    assert said.rstrip().endswith("precision undefined (no predicted positives), recall 0/3.")


def test_go_out_of_range_and_lesson_words_outside_a_lesson() -> None:
    said = _run(["lesson tour", "go 10", "go x", "leave", "back", "lesson"])
    assert "error: say go N, a step from 1 to 9" in said
    assert "error: unknown command 'back'" in said
    assert "error: say lesson FILE" in said


def test_a_malformed_lesson_runs_none_of_itself(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'title = "t"\n[[step]]\npreset = "good"\ncaption = "c"\n'
        '[[step]]\ngoal = "max x"\ncaption = "d"\n'
    )
    said = _run([f"lesson {bad}", "status"])
    assert f"error: {bad}, step 2: goal: " in said and "Step 1" not in said
    assert "Threshold 0.5: 3 of 5 predicted positive" in said.splitlines()[-1]


def test_the_command_line_runs_a_lesson_as_text() -> None:
    run = subprocess.run(
        [sys.executable, "-m", "threshold_lab", "lesson", "tour", "--plain"],
        input="\n" * 9,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    assert "Step 9 of 9." in run.stdout and "The lesson is over." in run.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "threshold_lab", "--plain", "--lesson", "nope"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert bad.returncode == 2 and bad.stdout == ""
    assert bad.stderr.startswith("threshold-lab: error: lesson 'nope': no such file")


def test_a_sound_step_writes_its_wav_and_says_so(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    lesson = tmp_path / "s.toml"
    lesson.write_text(
        'title = "t"\n[[step]]\npreset = "good"\ncaption = "Hear it."\nsonify = "pr"\n'
    )
    said = _run([f"lesson {lesson}"])
    assert "Hear it: wrote lesson-step-1-pr.wav: the PR curve as" in said
    assert (tmp_path / "lesson-step-1-pr.wav").read_bytes()[:4] == b"RIFF"


def test_an_answered_question_can_be_answered_again() -> None:
    said = _run(["lesson denominator", "0.6667", "2/3", "", "status"])
    assert "Not quite: you said 0.6667" in said and "Right: the answer is 2/3" in said
    assert "unknown command '2/3'" not in said
