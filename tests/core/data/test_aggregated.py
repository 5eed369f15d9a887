"""Aggregated input (score, positives, negatives) gives the numbers of the rows it stands for."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from threshold_lab.core.analysis import analyse
from threshold_lab.core.data.loaders import load_file
from threshold_lab.core.data.presets import preset
from threshold_lab.core.errors import InputError
from threshold_lab.tui.cli import main

CANONICAL = "score,positives,negatives\n0.9,1,0\n0.8,1,1\n0.4,0,1\n0.1,1,0\n"


def test_detected_from_the_header_and_equal_to_the_rows(tmp_path: Path) -> None:
    p = tmp_path / "agg.csv"
    p.write_text(CANONICAL)
    agg = analyse(load_file(p), 0.5)
    rows = analyse(preset("canonical").data, 0.5)
    assert agg.counts.cells() == rows.counts.cells()
    assert agg.metrics["precision"].exact == rows.metrics["precision"].exact
    sa, sr = agg.curves.summaries, rows.curves.summaries
    assert sr.roc_auc.exact is not None and sr.average_precision.exact is not None
    assert sr.pr_trapezoid_area.exact is not None
    assert sa.roc_auc.value == pytest.approx(float(sr.roc_auc.exact))  # 7/12
    assert sa.average_precision.value == pytest.approx(float(sr.average_precision.exact))
    assert sa.pr_trapezoid_area.value == pytest.approx(float(sr.pr_trapezoid_area.exact))
    assert agg.sweep.thresholds.tolist() == rows.sweep.thresholds.tolist()


def test_weighted_sums_and_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    p = tmp_path / "agg.tsv"
    p.write_text("score\tpositives\tnegatives\n0.7\t2.5\t0.5\n0.2\t0.5\t3\n")
    assert main(["report", str(p), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["positives"] == 3.0 and doc["negatives"] == 3.5
    assert doc["counts"] == {"tp": 2.5, "fp": 0.5, "tn": 3.0, "fn": 0.5}


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("score,positives,negatives\n0.5,1,x\n", "line 2, column 'negatives': 'x' is not a number"),
        ("score,positives,negatives\n0.5,-1,2\n", "line 2, column 'positives': -1.0 is negative"),
        ("score,positives,negatives\n0.5,0,0\n", "every weight is zero"),
        ("score,positives,negatives\n", "no data rows"),
        ("score,positives,negatives\n0.5,1\n", "line 2: 2 fields, but the header has 3"),
    ],
)
def test_bad_aggregated_files(tmp_path: Path, text: str, message: str) -> None:
    p = tmp_path / "bad.csv"
    p.write_text(text)
    with pytest.raises(InputError, match=message):
        load_file(p)


def test_forcing_the_reading(tmp_path: Path) -> None:
    p = tmp_path / "agg.csv"
    p.write_text(CANONICAL)
    with pytest.raises(InputError, match="no column 'label'"):
        load_file(p, aggregated=False)
    q = tmp_path / "rows.csv"
    q.write_text("score,label\n0.5,1\n")
    with pytest.raises(InputError, match="no column 'positives'"):
        load_file(q, aggregated=True)


def _message(path: Path, **kwargs: object) -> str:
    with pytest.raises(InputError) as info:
        load_file(path, **kwargs)  # type: ignore[arg-type]
    return str(info.value).removeprefix(f"{path}: ")


@pytest.mark.parametrize("sep", [",", "\t"])
def test_a_malformed_line_is_named_as_in_a_file_of_rows(tmp_path: Path, sep: str) -> None:
    # One row loop reads both kinds of file, so the csv module's own complaint
    # (here, a field over its size limit) is one message naming file and line.
    huge = "x" * (csv.field_size_limit() + 1)
    expected = f"line 3: field larger than field limit ({csv.field_size_limit()})"
    ext = "csv" if sep == "," else "tsv"
    for name, header in (("agg", "score,positives,negatives"), ("rows", "score,label,weight")):
        p = tmp_path / f"{name}.{ext}"
        p.write_text(sep.join(header.split(",")) + f"\n0.5{sep}1{sep}2\n0.4{sep}1{sep}{huge}\n")
        assert _message(p) == expected


def test_a_malformed_header_is_named_when_aggregated_is_forced(tmp_path: Path) -> None:
    p = tmp_path / "agg.csv"
    huge = "x" * (csv.field_size_limit() + 1)
    p.write_text(f"score,positives,negatives,{huge}\n0.5,1,2\n")
    expected = f"line 1: field larger than field limit ({csv.field_size_limit()})"
    assert _message(p, aggregated=True) == expected
    assert _message(p) == expected  # unreadable header: read as rows, same message
