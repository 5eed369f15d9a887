"""Every condition that sets ``report``'s exit status (each ``--require``, the
``--check`` goal, each ``--max-gap``) is a test case of the ``--junit`` file and an
entry of the JSON's ``conditions``, in the order evaluated: the file, the JSON and
the exit status are made from one list, so a failed run never has a green file."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import xmlschema
from threshold_lab.tui.cli import main

from tests.paths import DATA

CLINICS = str(DATA / "clinics.csv")
SCHEMA = DATA / "junit" / "JUnit.xsd"
GAP_FAILS = ["--group", "site", "--check", "--max-gap", "equal_opportunity_difference 0.05"]
GAP_PASSES = ["--group", "site", "--check", "--max-gap", "equalized_odds_difference 0.4"]
GOAL_FAILS = ["--check", "--goal", "max recall where precision >= 0.99 and recall >= 0.5"]
GOAL_PASSES = ["--check", "--goal", "max recall where precision >= 0.6"]


def _gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], *argv: str
) -> tuple[int, ET.Element, list[dict[str, object]], str]:
    """Run report twice (the JUnit file with the text report, then --json): the exit
    status, the file's root, the JSON's conditions and the first run's stderr."""
    xml = tmp_path / "gate.xml"
    code = main(["report", CLINICS, *argv, "--points", "0", "--junit", str(xml)])
    err = capsys.readouterr().err
    again = main(["report", CLINICS, *argv, "--points", "0", "--json"])
    out = capsys.readouterr().out
    assert again == code
    xmlschema.XMLSchema(str(SCHEMA)).validate(str(xml))
    return code, ET.parse(xml).getroot(), json.loads(out)["conditions"], err


def _cases(root: ET.Element) -> list[tuple[str, str, str | None]]:
    """Each test case's class name, name and failure message (None: it passed)."""
    out = []
    for case in root.iter("testcase"):
        failure = case.find("failure")
        out.append(
            (
                case.get("classname", ""),
                case.get("name", ""),
                None if failure is None else failure.get("message"),
            )
        )
    return out


def _agree(code: int, root: ET.Element, conditions: list[dict[str, object]]) -> None:
    tests, failures = int(root.get("tests", "-1")), int(root.get("failures", "-1"))
    assert tests == len(list(root.iter("testcase"))) == len(conditions)
    failed = [c for c in conditions if not c["passed"]]
    assert failures == len(failed) == sum(m is not None for *_, m in _cases(root))
    assert code == (1 if failures else 0)
    assert [(n, m) for _, n, m in _cases(root)] == [
        (c["name"], None if c["passed"] else c["message"]) for c in conditions
    ]


def test_a_failing_max_gap_alone_is_a_failed_test_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, root, conditions, err = _gate(tmp_path, capsys, *GAP_FAILS)
    _agree(code, root, conditions)
    assert code == 1 and (root.get("tests"), root.get("failures")) == ("1", "1")
    assert _cases(root) == [
        (
            "threshold-lab.max-gap",
            "equal_opportunity_difference <= 0.05",
            "equal_opportunity_difference = 0.1389 > 0.05 "
            "(equal opportunity difference: south against east)",
        )
    ]
    assert conditions[0]["kind"] == "max_gap"
    assert err.endswith(
        "threshold-lab: note: gap not within --max-gap: equal_opportunity_difference = 0.1389"
        " > 0.05 (equal opportunity difference: south against east)\n"
    )


def test_an_infeasible_goal_under_check_alone_is_a_failed_test_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, root, conditions, err = _gate(tmp_path, capsys, *GOAL_FAILS)
    _agree(code, root, conditions)
    assert code == 1 and (root.get("tests"), root.get("failures")) == ("1", "1")
    reason = (
        "no operating point meets precision >= 0.99 and recall >= 0.5; the closest is "
        "threshold 0.65 (total shortfall 0.2032)"
    )
    [(classname, name, message)] = _cases(root)
    assert (classname, name) == (
        "threshold-lab.goal",
        "max recall where precision >= 0.99 and recall >= 0.5",
    )
    # The value and the bound of each constraint at the closest point, and why.
    assert message == (
        f"not feasible: {reason}; at threshold 0.65: precision 7/8 = 0.875 (bound 0.99), "
        "recall 7/17 ≈ 0.411765 (bound 0.5)"
    )
    assert conditions[0]["kind"] == "goal"
    assert err == f"threshold-lab: note: goal not met: {reason}\n"


def test_a_passing_requirement_and_a_failing_gap_are_two_cases_one_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The command: exit 1 with a file saying tests="1" failures="0".
    code, root, conditions, _ = _gate(tmp_path, capsys, "--require", "auc >= 0.5", *GAP_FAILS)
    _agree(code, root, conditions)
    assert code == 1 and (root.get("tests"), root.get("failures")) == ("2", "1")
    assert [(c, n, m is None) for c, n, m in _cases(root)] == [
        ("threshold-lab.requirements", "auc >= 0.5", True),
        ("threshold-lab.max-gap", "equal_opportunity_difference <= 0.05", False),
    ]
    assert [c["kind"] for c in conditions] == ["requirement", "max_gap"]
    assert (
        conditions[0]["message"] == "auc >= 0.5: passed, value 455/544 ≈ 0.836397, bound 1/2 = 0.5"
    )


def test_everything_passing_is_every_case_passed_and_exit_0(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--require", "auc >= 0.5", *GAP_PASSES, *GOAL_PASSES[1:]]
    argv += ["--max-gap", "demographic_parity_ratio 0.4"]
    code, root, conditions, err = _gate(tmp_path, capsys, *argv)
    _agree(code, root, conditions)
    assert code == 0 and (root.get("tests"), root.get("failures")) == ("4", "0")
    assert [(c["kind"], c["name"]) for c in conditions] == [
        ("requirement", "auc >= 0.5"),
        ("goal", "max recall where precision >= 0.6"),
        ("max_gap", "equalized_odds_difference <= 0.4"),
        ("max_gap", "demographic_parity_ratio >= 0.4"),
    ]
    assert [c["message"] for c in conditions[1:]] == [
        "feasible at threshold 0.5: precision 29/44 ≈ 0.659091 (bound 0.6)",
        "equalized_odds_difference = 0.3571 <= 0.4 (equalized odds difference: south "
        "against north)",
        "demographic_parity_ratio = 0.4773 >= 0.4 (demographic parity ratio: north against south)",
    ]
    assert "not met" not in err and "not within" not in err


def test_junit_with_check_alone_needs_no_requirement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    xml = tmp_path / "gate.xml"
    code = main(["report", CLINICS, *GOAL_PASSES, "--points", "0", "--junit", str(xml)])
    capsys.readouterr()
    assert code == 0
    root = ET.parse(xml).getroot()
    assert (root.get("tests"), root.get("failures")) == ("1", "0")


def test_the_json_lists_requirements_as_conditions_without_check(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["report", CLINICS, "--require", "auc >= 0.9", "--points", "0", "--json"])
    d = json.loads(capsys.readouterr().out)
    assert code == 1
    assert d["conditions"] == [
        {
            "kind": "requirement",
            "name": "auc >= 0.9",
            "passed": False,
            "message": "auc >= 0.9: failed, value 455/544 ≈ 0.836397, bound 9/10 = 0.9",
        }
    ]
    assert d["requirements"][0]["expr"] == "auc >= 0.9"  # the old field stays
