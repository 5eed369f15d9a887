"""Recorded demos: a script replays keystroke for keystroke (the same screen as the keys
pressed by hand), --record writes what was pressed, plain mode runs a script's lines
first; a bad script is refused naming its line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from threshold_lab.core.data.presets import preset
from threshold_lab.core.errors import InputError
from threshold_lab.core.lessons.play import read_lesson
from threshold_lab.core.lessons.script import Press, Type, Wait, parse_script, script_text
from threshold_lab.core.session.session import Session
from threshold_lab.tui.app import ThresholdLab

from tests.tui.helpers import SIZE, make_app

SCRIPT = "n\nwait 0.2\nn, a\ntype 2/3\nenter\n"


def test_a_script_reads_as_written() -> None:
    items = parse_script("n n  # two\n\nwait 1.5\ntype 0.5 # not a comment\nctrl+z", "s")
    assert items == (
        Press("n", 1),
        Press("n", 1),
        Wait(1.5, 3),
        Type("0.5 # not a comment", 4),
        Press("ctrl+z", 5),
    )


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("wait x", "s, line 1: wait S, S in seconds"),
        ("n\nwait 9999", "s, line 2: wait 9999: from 0 to 600 seconds"),
        ("# only a comment", "s: no keys in it"),
        ("n\ntype", "s, line 2: type what?"),
    ],
)
def test_a_bad_script_names_its_line(text: str, said: str) -> None:
    with pytest.raises(InputError) as refused:
        parse_script(text, "s")
    assert said in str(refused.value)


def test_recorded_keys_are_a_script_that_reads_back() -> None:
    pressed = [(10.0, "n", None), (10.1, "a", None), (12.0, "2", "2"), (12.1, "slash", "/")]
    pressed += [(12.2, "3", "3"), (12.3, "enter", None), (15.0, "q", None), (15.1, "y", None)]
    items = parse_script(script_text(pressed))
    assert items == (
        Press("n", 2),
        Press("a", 3),
        Wait(1.9, 4),
        Type("2/3", 5),
        Press("enter", 6),
    )  # the quit at the end is left out: a replay ends where the demo did


def _app(script: str | None) -> ThresholdLab:
    p = preset("canonical")
    items = None if script is None else parse_script(script)
    return ThresholdLab(
        Session(p.data, p.threshold, source="preset canonical"),
        lesson=read_lesson("denominator"),
        script=items,
        recording=True,
        playback_seconds=60.0,
    )


async def test_a_script_replays_what_the_keys_do_by_hand() -> None:
    replayed = _app(SCRIPT)
    async with replayed.run_test(size=SIZE) as pilot:
        await pilot.pause(4.0)  # the script's pace and its wait
        await replayed.workers.wait_for_complete()
        await pilot.pause()
        by_script = (replayed.main.session.threshold, replayed.main.lessons.verdict)
        keys = [k for _, k, _ in replayed.pressed]
    assert keys == ["n", "n", "a", "2", "slash", "3", "enter"]
    by_hand = make_app(lesson=read_lesson("denominator"))
    async with by_hand.run_test(size=SIZE) as pilot:
        await pilot.press("n", "n", "a", "2", "slash", "3", "enter")
        await pilot.pause()
        assert (by_hand.main.session.threshold, by_hand.main.lessons.verdict) == by_script
    assert by_script[1].startswith("Not quite: you said 2/3; the answer is 1.")


def test_plain_mode_runs_a_script_first(tmp_path: Path) -> None:
    script = tmp_path / "demo.txt"
    script.write_text("# a demo\nthreshold 0.85\nwait 0.1\nstatus\n")
    run = subprocess.run(
        [sys.executable, "-m", "threshold_lab", "--plain", "--script", str(script)],
        input="status\n",
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    assert "> threshold 0.85" in lines and "> status" in lines
    assert not any("a demo" in line or "wait" in line for line in lines)  # comments, waits
    assert lines[-1].startswith("Threshold 0.85: 1 of 5 predicted positive")  # stdin's status


def test_a_missing_script_and_an_unknown_key_are_refused(tmp_path: Path) -> None:
    from threshold_lab.tui.cli import main

    assert main(["--script", str(tmp_path / "none.txt")]) == 2
    bad = tmp_path / "bad.txt"
    bad.write_text("n\nnosuchkey\n")
    assert main(["--script", str(bad)]) == 2
    assert main(["--plain", "--record", str(tmp_path / "r.txt")]) == 2
