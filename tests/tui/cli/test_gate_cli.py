"""The CI gate: ``report --baseline BASE.json`` (each headline number's change,
DeLong's paired test with ``--baseline-rows``), ``--require`` (exit 1 a line a failed
requirement), ``--junit`` (valid against Ant's JUnit schema), the same from Python,
and every refusal naming what is wrong."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
import xmlschema
from threshold_lab.core.compare.paired import paired_delong
from threshold_lab.core.data.sources import open_source
from threshold_lab.tui.cli import main

import threshold_lab as tl
from tests.paths import DATA

A, B = str(DATA / "model-a.csv"), str(DATA / "model-b.csv")
SCHEMA = DATA / "junit" / "JUnit.xsd"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["report", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def base(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """model-b's report, as the production model's baseline."""
    code, out, _ = _run(capsys, B, "--json")
    assert code == 0
    path = tmp_path / "base.json"
    path.write_text(out)
    return path


def _fraction(text: str | None) -> Fraction | None:
    return None if text is None else Fraction(text)


def test_changes_are_the_two_reports_numbers_and_their_exact_difference(
    base: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(capsys, A, "--baseline", str(base), "--json", "--points", "0")
    assert code == 0
    d = json.loads(out)
    old = json.loads(base.read_text())
    g = d["baseline"]
    assert g["source"] == str(base) and g["report_source"] == B
    changes = {c["name"]: c for c in g["changes"]}
    for c in g["changes"]:
        assert set(c) >= {"name", "baseline", "value", "difference"}
    # Every summary, every metric, every readout both reports have.
    assert list(changes)[:7] == [
        "auc",
        "hull_auc",
        "average_precision",
        "pr_trapezoid_area",
        "log_loss",
        "brier",
        "ks",
    ]
    assert set(d["metrics"]) <= set(changes)
    assert "tpr at fpr 0.01" in changes and "fpr at tpr 0.9" in changes
    auc = changes["auc"]
    assert _fraction(auc["value_exact"]) == Fraction(d["roc"]["auc"]["exact"]) == Fraction(299, 400)
    assert _fraction(auc["baseline_exact"]) == Fraction(old["roc"]["auc"]["exact"])
    assert _fraction(auc["difference_exact"]) == Fraction(299, 400) - Fraction(
        old["roc"]["auc"]["exact"]
    )
    assert auc["difference"] == pytest.approx(auc["value"] - auc["baseline"], abs=1e-15)
    for name, m in d["metrics"].items():
        c = changes[name]
        if m["exact"] is not None and old["metrics"][name]["exact"] is not None:
            want = Fraction(m["exact"]) - Fraction(old["metrics"][name]["exact"])
            assert _fraction(c["difference_exact"]) == want, name
    tpr = changes["tpr at fpr 0.05"]
    assert tpr["value"] == d["readouts"][2]["tpr"]["value"]
    # Without the baseline's rows: the difference only, and why.
    assert g["auc_test"] is None and "--baseline-rows" in g["auc_test_reason"]


def test_the_paired_test_is_delong_s_over_the_rows_joined_on_id(
    base: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(
        capsys, A, "--baseline", str(base), "--baseline-rows", B, "--json", "--points", "0"
    )
    assert code == 0
    t = json.loads(out)["baseline"]["auc_test"]
    joined = open_source(A, compare=B).models
    want, why = paired_delong(joined[0].data.scores, joined[1].data.scores, joined[0].data.labels)
    assert why is None and want is not None
    assert t["method"] == "paired DeLong" and t["rows"] == 60
    assert t["difference"] == pytest.approx(want.difference, abs=1e-15)
    assert t["se"] == pytest.approx(want.se, rel=1e-12)
    assert t["p_value"] == pytest.approx(want.p.value, rel=1e-12)
    # The same test --compare runs between the two files.
    code, out, _ = _run(capsys, A, "--compare", B, "--json", "--points", "0")
    cmp = json.loads(out)["comparison"][0]["auc_difference"]
    assert t["p_value"] == pytest.approx(cmp["p_value"], rel=1e-12)
    assert t["z"] == pytest.approx(cmp["z"], rel=1e-12)
    # Text: the test said in words.
    code, out, _ = _run(capsys, A, "--baseline", str(base), "--baseline-rows", B, "--points", "0")
    assert "DeLong's paired test over 60 rows" in out


def test_requirements_pass_fail_and_exit_status(
    base: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(
        capsys,
        A,
        "--baseline",
        str(base),
        "--json",
        "--points",
        "0",
        "--require",
        "auc >= baseline.auc - 0.01",
        "--require",
        "tpr at fpr 0.01 >= 0.6",
        "--require",
        "average_precision >= baseline.average_precision * 0.98",
        "--require",
        "recall at goal >= 0.5",
        "--goal",
        "max precision where recall >= 0.5",
    )
    assert code == 1
    reqs = json.loads(out)["requirements"]
    assert [r["passed"] for r in reqs] == [True, False, True, True]
    for r in reqs:
        assert set(r) >= {"expr", "value", "bound", "passed"}
    first = reqs[0]
    old = json.loads(base.read_text())
    assert _fraction(first["bound_exact"]) == Fraction(old["roc"]["auc"]["exact"]) - Fraction(
        1, 100
    )
    assert _fraction(first["value_exact"]) == Fraction(299, 400)
    assert reqs[1]["value_exact"] == "3/20" and reqs[1]["bound_exact"] == "3/5"
    # One line a failed requirement, nothing for the ones that passed.
    assert err.splitlines() == [
        "threshold-lab: note: the baseline's goal was none, this report's is 'max precision "
        "where recall >= 0.5': the objective and the metrics at the goal are of different goals",
        "threshold-lab: note: requirement not met: tpr at fpr 0.01 >= 0.6: value 3/20 = 0.15, "
        "bound 3/5 = 0.6",
    ]
    code, out, err = _run(capsys, A, "--require", "auc >= 0.7", "--points", "0")
    assert code == 0 and err == ""
    assert "Requirements: 1 of 1 met" in out


def test_a_readout_a_requirement_names_is_added_to_the_report(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = _run(capsys, A, "--require", "tpr at fpr 0.02 >= 0", "--json", "--points", "0")
    assert code == 0
    d = json.loads(out)
    assert [(r["kind"], r["limit"]) for r in d["readouts"]][-1] == ("tpr_at_fpr", 0.02)
    assert d["requirements"][0]["value"] == d["readouts"][-1]["tpr"]["value"]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--require", "auc >= "], "expected a number or a name, found the end (column 8)"),
        (
            ["--require", "auc >= basline.auc"],
            "'basline' is not a name (column 8); the names are auc",
        ),
        (["--require", "auc >= baseline.auc"], "needs --baseline BASE.json"),
        (["--require", "recall at goal >= 0.9"], "recall at goal needs --goal"),
        (["--require", "auc > 1/0"], "a division by zero"),
        (
            ["--junit", "x.xml"],
            "--junit needs --require or --check: it writes each --require, and what --check "
            "checks, as a test case",
        ),
        (["--baseline-rows", B], "--baseline-rows needs --baseline"),
        (["--baseline", "/no/such.json"], "--baseline /no/such.json: no such file"),
    ],
)
def test_refusals_exit_2_before_anything_is_computed(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    code, out, err = _run(capsys, A, *argv)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and said in err, err


def test_a_baseline_that_is_not_a_report_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"a": ')
    assert "not JSON at line 1, column 7" in _run(capsys, A, "--baseline", str(bad))[2]
    other = tmp_path / "other.json"
    other.write_text('{"a": 1}')
    assert "not a threshold-lab report's JSON" in _run(capsys, A, "--baseline", str(other))[2]
    missing = tmp_path / "old.json"
    missing.write_text(json.dumps({"schema": 1, "roc": {}, "metrics": {}}))
    code, _, err = _run(capsys, A, "--baseline", str(missing), "--require", "auc >= baseline.auc")
    assert code == 2 and f"the baseline {missing} has no auc" in err


def test_baseline_rows_must_be_the_same_examples(
    base: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fewer = tmp_path / "fewer.csv"
    fewer.write_text("\n".join(Path(B).read_text().splitlines()[:-1]) + "\n")
    code, _, err = _run(capsys, A, "--baseline", str(base), "--baseline-rows", str(fewer))
    assert code == 2 and "--baseline-rows needs the same examples in both" in err
    code, _, err = _run(capsys, "canonical", "--baseline", str(base), "--baseline-rows", B)
    assert code == 2 and "canonical is not a file" in err


def test_the_junit_file_validates_against_ant_s_schema(
    base: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "gate.xml"
    code, _, _ = _run(
        capsys,
        A,
        "--baseline",
        str(base),
        "--junit",
        str(out),
        "--points",
        "0",
        "--require",
        "auc >= baseline.auc - 0.01",
        "--require",
        "tpr at fpr 0.01 >= 0.6",
        "--require",
        "precision <= 1",
    )
    assert code == 1
    xmlschema.XMLSchema(str(SCHEMA)).validate(str(out))
    root = ET.parse(out).getroot()
    assert root.tag == "testsuite"
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("3", "1", "0")
    cases = root.findall("testcase")
    assert [c.get("name") for c in cases] == [
        "auc >= baseline.auc - 0.01",
        "tpr at fpr 0.01 >= 0.6",
        "precision <= 1",
    ]
    assert [c.find("failure") is not None for c in cases] == [False, True, False]
    failure = cases[1].find("failure")
    assert failure is not None
    assert failure.get("message") == (
        "tpr at fpr 0.01 >= 0.6: failed, value 3/20 = 0.15, bound 3/5 = 0.6"
    )
    # All passing: a valid file with no failures, exit 0.
    code, _, _ = _run(capsys, A, "--junit", str(out), "--require", "auc > 0.5", "--points", "0")
    assert code == 0
    xmlschema.XMLSchema(str(SCHEMA)).validate(str(out))
    assert ET.parse(out).getroot().get("failures") == "0"


@pytest.mark.parametrize(
    ("where", "code_wanted", "says"),
    [
        ("/no/such/dir/x.xml", 2, "--junit /no/such/dir/x.xml: no folder /no/such/dir"),
        (".", 2, "--junit .: is a folder; name the file to write"),
        ("/proc/x.xml", 1, "--junit /proc/x.xml: cannot write it: folder /proc is not writable"),
    ],
    ids=["no-folder", "a-folder", "unwritable"],
)
def test_a_junit_file_that_cannot_be_written_is_refused_before_the_report(
    capsys: pytest.CaptureFixture[str], where: str, code_wanted: int, says: str
) -> None:
    """Refused before anything is computed or printed, in one line: a folder not there,
    or a folder for a file, is the command's fault (2); a folder that takes no files is
    the machine's (1, as a full disk). Nothing on stdout: no report a CI log would
    read as the run's, and no requirement's verdict."""
    code, out, err = _run(capsys, A, "--junit", where, "--require", "auc > 0.5", "--points", "0")
    assert (code, out) == (code_wanted, "")
    assert err.startswith(f"threshold-lab: error: {says}") and err.count("\n") == 1


def test_the_junit_check_leaves_nothing_behind(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The writability trial's file is gone again; the report's file is all there is."""
    out = tmp_path / "gate.xml"
    code, _, _ = _run(capsys, A, "--junit", str(out), "--require", "auc > 0.5", "--points", "0")
    assert code == 0 and [p.name for p in tmp_path.iterdir()] == ["gate.xml"]


def test_the_python_api_gates_the_same(base: Path) -> None:
    a = tl.from_frame(__import__("pandas").read_csv(A), id="id")
    b = tl.from_frame(__import__("pandas").read_csv(B), id="id")
    for given in (b, b.to_json(), json.loads(b.to_json()), str(base)):
        r = tl.from_frame(
            __import__("pandas").read_csv(A),
            id="id",
            baseline=given,
            require=["auc >= baseline.auc - 0.01", "tpr at fpr 0.01 >= 0.6"],
        )
        assert [o.passed for o in r.requirements] == [True, False]
        assert r.passed is False
        assert a.roc_auc.exact is not None and b.roc_auc.exact is not None
        assert r.requirements[0].value == a.roc_auc.exact
        assert r.requirements[0].bound == b.roc_auc.exact - Fraction(1, 100)
        changes = {c.name: c for c in r.gate.changes}  # type: ignore[union-attr]
        assert changes["auc"].difference == a.roc_auc.exact - b.roc_auc.exact
    # The paired test from arrays: the baseline model's scores of the same rows.
    ya = __import__("pandas").read_csv(A)
    yb = __import__("pandas").read_csv(B).set_index("id").loc[ya["id"]]
    r = tl.report(ya["label"], ya["score"], baseline=b, baseline_scores=yb["score"].to_numpy())
    assert r.gate is not None and r.gate.auc_test is not None
    want, _ = paired_delong(
        ya["score"].to_numpy(), yb["score"].to_numpy(), ya["label"].to_numpy().astype(bool)
    )
    assert want is not None
    assert r.gate.auc_test.delong.p.value == pytest.approx(want.p.value, rel=1e-12)
    assert r.to_dict(points=0)["baseline"]["auc_test"]["rows"] == 60
    # The same report at another threshold re-reads the requirements there.
    low = r.at(0.0)
    assert low.metrics["recall"].exact == 1 and low.gate is not None


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ({"require": 3}, "require: give a text such as 'auc >= 0.8'"),
        ({"require": "auc >>"}, "--require 'auc >>'"),
        ({"baseline": 3}, "baseline: give a path to an earlier report --json"),
        ({"baseline_scores": [0.1, 0.2]}, "baseline_scores= needs baseline="),
    ],
)
def test_the_python_api_refuses_bad_gates(options: dict, said: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(tl.InputError, match=None) as err:
        tl.report([1, 0, 1], [0.9, 0.1, 0.5], **options)
    assert said in str(err.value)


def test_baseline_scores_must_be_one_a_row() -> None:
    b = tl.report([1, 0, 1], [0.9, 0.1, 0.5])
    with pytest.raises(tl.InputError, match="3 rows"):
        tl.report([1, 0, 1], [0.9, 0.1, 0.5], baseline=b, baseline_scores=[0.1, 0.2])
    with pytest.raises(tl.InputError, match="not a finite"):
        tl.report([1, 0, 1], [0.9, 0.1, 0.5], baseline=b, baseline_scores=[0.1, np.nan, 0.2])


def test_numbers_not_like_for_like_are_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A baseline of other rows, another goal or threshold, several models: each said
    in a note (stderr, the text and baseline.notes), the numbers still compared."""
    goal = tmp_path / "goal.json"
    code, out, _ = _run(capsys, B, "--json", "--goal", "max f1")
    goal.write_text(out)
    code, out, err = _run(
        capsys,
        A,
        "--baseline",
        str(goal),
        "--goal",
        "min cost fp=1 fn=5",
        "--json",
        "--points",
        "0",
    )
    assert code == 0
    said = (
        "the baseline's goal was 'max f1', this report's is 'min cost fp=1 fn=5': the "
        "objective and the metrics at the goal are of different goals"
    )
    assert json.loads(out)["baseline"]["notes"] == [said]
    assert err == f"threshold-lab: note: {said}\n"
    plain = tmp_path / "plain.json"
    plain.write_text(_run(capsys, B, "--json")[1])
    code, out, err = _run(
        capsys, A, "--baseline", str(plain), "--threshold", "0.3", "--points", "0"
    )
    assert "note: the baseline is at threshold 0.5, this report at 0.3" in out
    code, out, err = _run(
        capsys, str(DATA / "clinics.csv"), "--baseline", str(plain), "--points", "0"
    )
    assert "the baseline was a report of 60 rows (20 positive), this one of 90" in err
    code, out, err = _run(capsys, A, "--compare", B, "--require", "auc > 0.5", "--points", "0")
    assert "this report holds 2 models (model-a, model-b): the names read the first's" in err
    code, out, err = _run(
        capsys, A, "--compare", B, "--baseline", str(plain), "--json", "--points", "0"
    )
    assert "several models" in json.loads(out)["baseline"]["auc_test_reason"]


def test_a_baseline_of_another_schema_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "v2.json"
    other.write_text('{"schema": 2, "roc": {}}')
    code, _, err = _run(capsys, A, "--baseline", str(other))
    assert (
        code == 2 and "its schema is 2; this version reads reports of schema 1 (the number)" in err
    )


def test_a_metric_at_goal_is_read_at_the_goal_whatever_the_threshold() -> None:
    """``recall at goal`` is the goal's point's recall: after Report.at() too, and at the
    deployment prevalence when one is given (as the goal's objective is)."""
    rng = np.random.default_rng(2)
    y = rng.random(400) < 0.3
    s = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1).round(3)
    goal = "max precision where recall >= 0.8"
    r = tl.report(y, s, goal=goal, require="recall at goal >= 0.8")
    at_goal = r.metrics["recall"].exact
    assert r.requirements[0].value == at_goal and r.requirements[0].passed
    moved = r.at(0.9)
    assert moved.metrics["recall"].exact != at_goal
    assert moved.requirements[0].value == at_goal and moved.requirements[0].passed
    shifted = tl.report(
        y, s, goal=goal, prevalence="0.05", require="precision at goal == objective"
    )
    assert shifted.requirements[0].passed
    assert shifted.requirements[0].value != shifted.metrics["precision"].exact


def test_the_api_runs_no_paired_test_with_several_models() -> None:
    y = np.array([1, 0, 1, 0, 1, 0, 1, 0], bool)
    s = np.array([0.9, 0.1, 0.8, 0.3, 0.6, 0.7, 0.4, 0.2])
    old = tl.report(y, s)
    r = tl.report(y, {"A": s[::-1].copy(), "B": s}, baseline=old, baseline_scores=s)
    assert r.gate is not None and r.gate.auc_test is None
    assert "several models" in (r.gate.auc_test_reason or "")


def test_a_control_character_is_not_part_of_a_requirement(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "j.xml"
    code, _, err = _run(capsys, A, "--require", "auc\x0b>= 0.9", "--junit", str(out))
    assert code == 2 and "is not part of a requirement" in err and not out.exists()
