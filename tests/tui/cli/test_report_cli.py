"""The headless ``threshold-lab report`` command: JSON schema, text, and errors."""

from __future__ import annotations

import errno
import io
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from threshold_lab.core.data.presets import PRESET_NAMES
from threshold_lab.tui.cli import main

from tests.paths import DATA

if TYPE_CHECKING:
    from typing_extensions import Buffer


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def no_nan(obj: object) -> bool:
    if isinstance(obj, float):
        return math.isfinite(obj)
    if isinstance(obj, dict):
        return all(no_nan(v) for v in obj.values())
    if isinstance(obj, list):
        return all(no_nan(v) for v in obj)
    return True


def test_json_report_of_the_canonical_fixture(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "report", "canonical", "--json")
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert out.count("\n") == 1
    assert doc["schema"] == 1
    assert (doc["n"], doc["positives"], doc["negatives"], doc["threshold"]) == (5, 3, 2, 0.5)
    assert doc["counts"] == {"tp": 2, "fp": 1, "tn": 1, "fn": 1}
    precision = dict(doc["metrics"]["precision"])
    interval = precision.pop("interval")  # each proportion has its Wilson interval
    assert precision == {"value": 2 / 3, "reason": None, "exact": "2/3"}
    assert interval["method"] == "wilson"
    for key in (
        "recall",
        "f1",
        "accuracy",
        "specificity",
        "fpr",
        "balanced_accuracy",
        "mcc",
        "prevalence",
        "fbeta",
        "fnr",
        "npv",
        "queue_rate",
        "lr_plus",
        "lr_minus",
    ):
        assert set(doc["metrics"][key]) - {"interval", "interval_reason"} == {
            "value",
            "reason",
            "exact",
        }
    assert doc["roc"]["auc"]["exact"] == "7/12"
    assert doc["pr"]["average_precision"]["exact"] == "34/45"
    assert doc["pr"]["trapezoid_area"]["exact"] == "143/180"
    assert doc["probability"]["brier"]["value"] == pytest.approx(0.332)
    sweep = doc["sweep"]
    assert [p["threshold"] for p in sweep] == [None, 0.9, 0.8, 0.4, 0.1]
    assert sweep[0]["precision"] == {
        "value": None,
        "reason": "No predicted positives (TP+FP=0)",
        "exact": None,
    }
    assert [(p["tp"], p["fp"], p["tn"], p["fn"]) for p in sweep][2] == (2, 1, 1, 1)
    assert sweep[2]["tpr"]["exact"] == "2/3" and sweep[2]["fpr"]["exact"] == "1/2"
    assert no_nan(doc)


def test_above_all_threshold(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "report", "canonical", "--threshold", "above-all", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["threshold"] is None
    assert doc["metrics"]["precision"]["value"] is None
    assert doc["metrics"]["recall"]["exact"] == "0/1"


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_preset_reports_valid_json(capsys: pytest.CaptureFixture[str], name: str) -> None:
    code, out, _ = run(capsys, "report", name, "--json")
    assert code == 0
    assert no_nan(json.loads(out))


def test_no_actual_positives_json_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "report", "no-actual-positives", "--json")
    doc = json.loads(out)
    assert doc["roc"]["auc"]["value"] is None
    assert "no actual positives" in doc["roc"]["auc"]["reason"]
    assert doc["sweep"][1]["tpr"]["reason"] == "No actual positives (TP+FN=0)"


def test_weighted_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "w.csv"
    p.write_text("score,label,weight\n0.9,1,2\n0.8,0,0.5\n0.2,1,1\n")
    code, out, _ = run(capsys, "report", str(p), "--json")
    doc = json.loads(out)
    assert code == 0 and doc["weighted"] is True
    assert doc["positives"] == 3.0 and doc["negatives"] == 0.5
    assert doc["counts"] == {"tp": 2.0, "fp": 0.5, "tn": 0.0, "fn": 1.0}


def test_logits_make_probability_metrics_undefined(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "logits.csv"
    p.write_text("id,score,label\na,-2.5,0\nb,3.0,1\nc,0.5,1\n")
    _, out, _ = run(capsys, "report", str(p), "--json", "--threshold", "0")
    doc = json.loads(out)
    assert doc["roc"]["auc"]["exact"] == "1/1"
    reason = doc["probability"]["log_loss"]["reason"]
    assert doc["probability"]["log_loss"]["value"] is None
    assert "row a has score -2.5, outside [0, 1]" in reason


def test_certain_wrong_prediction_names_the_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "certain.csv"
    p.write_text("id,score,label\nq1,0.0,1\nq2,0.5,0\n")
    _, out, _ = run(capsys, "report", str(p), "--json")
    ll = json.loads(out)["probability"]["log_loss"]
    assert ll["value"] is None and ll["reason"].startswith("Row q1 is a certain wrong prediction")


def test_text_report(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "report", "canonical")
    assert code == 0
    assert "precision = TP/(TP+FP) = 2/(2+1) = 2/3 ≈ 0.6667" in out
    assert "ROC AUC, trapezoid over the exact sweep: 7/12 ≈ 0.5833" in out
    assert "Average precision, step-weighted (not interpolated): 34/45" in out
    assert "> 0.8" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["report", "nosuch.csv"], "nosuch.csv: no such file, and no preset has that name"),
        (["report", "canonical", "--threshold", "abc"], "threshold 'abc' is not a number"),
        (["report", "canonical", "--threshold", "nan"], "threshold 'nan' is not a finite number"),
        (["report", "canonical", "--threshold", "inf"], None),  # inf means above all
        # Numbers past a double's range (OverflowError or StatisticsError, exit 1, before).
        (["report", "canonical", "--goal", "min cost fp=1e309 fn=1"], '"1e309" is out of range'),
        (
            ["report", "canonical", "--goal", "max precision where recall >= 1e999"],
            '"1e999" is out of range for recall\'s bound',
        ),
        (["report", "canonical", "--goal", "min cost fp=1/3 fn=1e-320"], '"1e-320" is out of'),
        (["report", "canonical", "--prevalence", "1e-320"], "prevalence: 1e-320 is out of range"),
        (["report", "canonical", "--prevalence", "5e-324"], "prevalence: 5e-324 is out of range"),
        # An explicitly empty goal is a malformed goal, not "no goal".
        (["report", "canonical", "--goal", ""], "goal: empty"),
        (["report", "canonical", "--goal", "  "], "goal: empty"),
        (
            ["report", "canonical", "--goal", "max precision where recall >>= 0.5"],
            'goal: ">>=" after "recall" should be >= or <=',
        ),
        (
            ["report", "canonical", "--goal", "max precision where recall >= 9/10/2"],
            '"9/10/2" is not a number',
        ),
    ],
)
def test_user_errors_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str | None
) -> None:
    code, out, err = run(capsys, *argv)
    if message is None:
        assert code == 0
        return
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and message in err and "Traceback" not in err


def test_bad_file_through_the_real_command(tmp_path: Path) -> None:
    p = tmp_path / "bad.csv"
    p.write_text("score,label\n0.5,1\n0.4,maybe\n0.3,0\n")
    proc = subprocess.run(
        [sys.executable, "-m", "threshold_lab", "report", str(p), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert "Traceback" not in proc.stderr
    assert f"{p}: line 3, column 'label'" in proc.stderr


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (
            ["--confidence", "0.9999999999999999"],
            "confidence 0.9999999999999999 is out of range: give one from 0.5 to "
            "0.9999999999999998",
        ),
        (["--beta", "1e200"], "beta 1e+200 is out of range: give one from 0.001 to 1000"),
        (["--beta", "5e-324"], "beta 5e-324 is out of range"),
    ],
)
def test_numbers_out_of_range_are_refused_as_arguments(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    # 0.9999999999999999 was taken as "100%" and the intervals crashed (StatisticsError).
    code = main(["report", "canonical", *argv])
    err = capsys.readouterr().err
    assert code == 2 and message in err and err.count("\n") == 1


def test_a_repeated_compare_is_refused_not_silently_dropped(
    capsys: pytest.CaptureFixture[str],
) -> None:
    a, b = str(DATA / "model-a.csv"), str(DATA / "model-b.csv")
    with pytest.raises(SystemExit) as info:
        main(["report", a, "--compare", b, "--compare", a])
    err = capsys.readouterr().err
    assert info.value.code == 2 and err.count("\n") == 1
    assert f"argument --compare: given twice ({b} and {a}); it takes one other file" in err


def test_a_bad_value_exits_2_without_traceback(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["report", "canonical", "--beta", "-1"])
    assert code == 2
    assert "must be a positive finite number" in capsys.readouterr().err


def test_a_full_device_is_one_line_and_status_1() -> None:
    # Before: an ENOSPC traceback.
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "threshold_lab", "report", "canonical", "--json"],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
        )
    assert proc.returncode == 1
    assert proc.stderr == "threshold-lab: error: cannot write the report: No space left on device\n"


class FullAfter(io.FileIO):
    """A file whose disk fills after ``room`` more bytes (ENOSPC, as a full disk)."""

    def __init__(self, path: Path, room: int) -> None:
        super().__init__(path, "a")
        self.room = room

    def write(self, b: Buffer) -> int:
        data = bytes(b)
        if len(data) > self.room:
            written = super().write(data[: self.room])
            self.room = 0
            if written:
                return written
            raise OSError(errno.ENOSPC, "No space left on device")
        self.room -= len(data)
        return super().write(data)


@pytest.mark.parametrize("json_out", [True, False])
def test_a_disk_that_fills_midway_leaves_the_file_as_it_was(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    json_out: bool,
) -> None:
    # Before: a truncated JSON file (the part written before the disk filled).
    target = tmp_path / "out.json"
    target.write_text("earlier lines\n")
    stream = io.TextIOWrapper(io.BufferedWriter(FullAfter(target, 3000), 1024), "utf-8")
    monkeypatch.setattr(sys, "stdout", stream)
    code = main(["report", "good", "--points", "all", *(["--json"] if json_out else [])])
    assert code == 1 and target.read_text() == "earlier lines\n"
    assert capsys.readouterr().err == (
        "threshold-lab: error: cannot write the report: No space left on device\n"
    )
