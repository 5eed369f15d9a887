"""A goal's refusal names its flag once: the goal parser's own "goal:" is not said twice."""

from __future__ import annotations

import pytest
from threshold_lab.tui.cli import main


@pytest.mark.parametrize(
    ("flag", "goal", "said"),
    [
        ("--goal", "max nonsense", '--goal: "nonsense" is not a metric'),
        ("--band-goal", "band: max nonsense", '--band-goal: "nonsense" is not a band objective'),
    ],
)
def test_a_goal_refusal_names_its_flag_once(
    flag: str, goal: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "good", flag, goal]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"threshold-lab: error: {said}"), err
