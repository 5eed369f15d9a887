"""The gate from Python, ``tl.gate(report, baseline, requirements)``: the same
evaluation as ``report --baseline --require`` (the same conditions, messages and
JUnit test cases), ``passed`` and ``failures`` made from that one list."""

from __future__ import annotations

import csv
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from threshold_lab.tui.cli import main

import threshold_lab as tl
from tests.paths import ROOT

EXAMPLES = ROOT / "docs" / "examples"
REQS = ["auc >= baseline.auc - 0.01", "tpr at fpr 0.05 >= 0.3", "recall >= 0.5", "ece <= 0.5"]


def _rows(name: str) -> tuple[list[int], list[float]]:
    with (EXAMPLES / name).open() as f:
        rows = list(csv.DictReader(f))
    return [int(r["label"]) for r in rows], [float(r["score"]) for r in rows]


def _cases(path: Path) -> list[tuple[str | None, str | None]]:
    root = ET.parse(path).getroot()
    out = []
    for case in root.iter("testcase"):
        failure = case.find("failure")
        out.append((case.get("name"), None if failure is None else failure.get("message")))
    return out


def test_the_gate_from_python_is_the_command_line_s(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = tmp_path / "base.json"
    assert main(["report", str(EXAMPLES / "model_a.csv"), "--json"]) == 0
    base.write_text(capsys.readouterr().out)
    argv = ["report", str(EXAMPLES / "model_b.csv"), "--baseline", str(base), "--json"]
    argv += ["--junit", str(tmp_path / "cli.xml")]
    for r in REQS:
        argv += ["--require", r]
    status = main(argv)
    cli = json.loads(capsys.readouterr().out)["conditions"]
    y, s = _rows("model_b.csv")
    got = tl.gate(tl.report(y, s), base, REQS)
    assert [c.as_json() for c in got.conditions] == cli
    assert status == (0 if got.passed else 1) == 1
    assert [c.name for c in got.failures] == [c["name"] for c in cli if not c["passed"]]
    assert got.failures[0].name == "auc >= baseline.auc - 0.01"
    assert got.to_junit(tmp_path / "api.xml") == tmp_path / "api.xml"
    assert _cases(tmp_path / "api.xml") == _cases(tmp_path / "cli.xml")
    assert got.requirements[1].value is not None  # a readout the report had not asked for


def test_a_baseline_may_be_a_report_and_no_requirements_pass() -> None:
    y, s = _rows("model_a.csv")
    a = tl.report(y, s)
    same = tl.gate(a, a, "auc >= baseline.auc")
    assert same.passed and same.failures == () and len(same.conditions) == 1
    assert tl.gate(a).passed and tl.gate(a).conditions == ()
    assert "passed of 1 conditions" in repr(same) and "\n" not in repr(same)


def test_bad_input_to_the_gate_is_one_input_error() -> None:
    y, s = _rows("model_a.csv")
    a = tl.report(y, s)
    with pytest.raises(tl.InputError, match="is not a Report"):
        tl.gate("model_a.csv", None, "auc >= 0.5")  # type: ignore[arg-type]
    with pytest.raises(tl.InputError, match="needs --baseline"):
        tl.gate(a, None, "auc >= baseline.auc")
    with pytest.raises(tl.InputError, match="is not a name"):
        tl.gate(a, None, "aucc >= 0.5")
