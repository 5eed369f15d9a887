"""Multiclass log loss and Brier take rows of probabilities as files write
them (six decimals, so a row may sum to 0.999999), normalise those rows and say how
many; a row further off is refused with its sum as its written digits add up. The
oracle is exact: each row's written cells as Fractions, divided by their sum."""

from __future__ import annotations

import json
import math
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import brier_score_loss, log_loss
from threshold_lab.core.data.cells import Columns
from threshold_lab.core.data.class_files import load_multiclass
from threshold_lab.core.data.classes import Multiclass
from threshold_lab.core.multiclass.metrics import multiclass_report
from threshold_lab.tui.cli import main

CLASSES = ("ant", "bee", "cow", "dog")


def _softmax_file(path: Path, n: int = 200, seed: int = 4) -> tuple[list[list[str]], list[int]]:
    """A CSV of softmax outputs written to six decimals, as a model's export is: the
    cells as written, and each row's actual class."""
    rng = np.random.default_rng(seed)
    logits = rng.normal(0, 2, (n, len(CLASSES)))
    p = np.exp(logits) / np.exp(logits).sum(axis=1, keepdims=True)
    labels = [int(x) for x in rng.integers(0, len(CLASSES), n)]
    cells = [[f"{x:.6f}" for x in row] for row in p]
    lines = ["label," + ",".join(f"score_{c}" for c in CLASSES)]
    lines += [CLASSES[y] + "," + ",".join(row) for y, row in zip(labels, cells, strict=True)]
    path.write_text("\n".join(lines) + "\n")
    return cells, labels


def _normalised(cells: list[list[str]]) -> list[list[Fraction]]:
    """Each row's written cells, exactly, divided by their exact sum."""
    out = []
    for row in cells:
        exact = [Fraction(c) for c in row]
        total = sum(exact, Fraction(0))
        out.append([x / total for x in exact])
    return out


def test_six_decimal_softmax_rows_are_normalised_and_match_the_exact_oracle(
    tmp_path: Path,
) -> None:
    f = tmp_path / "softmax.csv"
    cells, labels = _softmax_file(f)
    mc = load_multiclass(f, Columns())
    assert mc is not None and mc.classes == CLASSES
    r = multiclass_report(mc)
    off = sum(1 for row in cells if sum(map(Fraction, row), Fraction(0)) != 1)
    assert off > 50  # the premise: most rows of six-decimal softmax do not sum to 1
    assert r.normalised_rows == off and r.as_json()["normalised_rows"] == off
    assert r.probability_note == (
        f"{off} rows' probabilities summed to within 1e-6 a class of 1 and were normalised "
        "(divided by their sum) for log loss and Brier"
    )
    p = _normalised(cells)
    onehot = [[Fraction(int(c == y)) for c in range(len(CLASSES))] for y in labels]
    brier = sum(
        (
            sum(((a - b) ** 2 for a, b in zip(pr, yr, strict=True)), Fraction(0))
            for pr, yr in zip(p, onehot, strict=True)
        ),
        Fraction(0),
    ) / len(labels)
    loss = -math.fsum(math.log(float(row[y])) for row, y in zip(p, labels, strict=True))
    assert r.brier.value == pytest.approx(float(brier), rel=1e-12, abs=0)
    assert r.log_loss.value == pytest.approx(loss / len(labels), rel=1e-12, abs=0)
    # scikit-learn agrees on the normalised rows, and finds them probabilities.
    probs = np.array([[float(x) for x in row] for row in p])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        theirs_loss = log_loss(labels, probs, labels=list(range(len(CLASSES))))
        theirs_brier = brier_score_loss(
            labels, probs, labels=list(range(len(CLASSES))), scale_by_half=False
        )
    assert r.log_loss.value == pytest.approx(theirs_loss, rel=1e-9)
    assert r.brier.value == pytest.approx(theirs_brier, rel=1e-9)


def test_the_report_json_counts_the_normalised_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "softmax.csv"
    cells, _ = _softmax_file(f, n=40, seed=9)
    assert main(["report", str(f), "--json"]) == 0
    m = json.loads(capsys.readouterr().out)["multiclass"]
    off = sum(1 for row in cells if sum(map(Fraction, row), Fraction(0)) != 1)
    assert off > 0 and m["normalised_rows"] == off
    assert m["log_loss"]["value"] is not None and m["brier"]["value"] is not None


def _report(rows: list[list[float]], labels: list[int]) -> Multiclass:
    names = tuple(f"c{i}" for i in range(len(rows[0])))
    return Multiclass(names, np.array(rows), np.array(labels, dtype=np.int64))


def test_a_row_past_the_bound_is_named_with_its_written_sum_not_float_noise() -> None:
    row = [0.35, 0.05, 0.5]
    assert repr(float(np.array(row).sum())) == "0.8999999999999999"  # the premise
    r = multiclass_report(_report([[0.2, 0.3, 0.5], row], [0, 2]))
    why = "row 2's scores sum to 0.9, not 1 (within 1e-6 a class: 3e-6 for 3 classes): "
    why += "they are not probabilities"
    assert r.log_loss.value is None and r.log_loss.reason == why
    assert r.brier.value is None and r.brier.reason == why
    assert r.normalised_rows == 0 and r.probability_note is None


@pytest.mark.parametrize(
    ("row", "written_sum"),
    [
        ([0.999999, 0.000003], None),  # exactly 2 × 1e-6 over: on the bound, allowed
        ([0.999999, 0.0000031], "1.0000021"),  # 2.1e-6 over
        ([0.099999] * 10, None),  # 10 × 1e-6 under, ten classes: on the bound
        ([0.33333] * 3, "0.99999"),  # 10 × 1e-6 under, three classes
        ([0.333333] * 3, None),  # 1e-6 under: six-decimal thirds
    ],
)
def test_the_bound_is_one_millionth_a_class_decided_on_the_written_digits(
    row: list[float], written_sum: str | None
) -> None:
    k = len(row)
    other = [1.0] + [0.0] * (k - 1)
    r = multiclass_report(_report([other, row], [0, 1]))
    written = sum((Fraction(repr(x)) for x in row), Fraction(0))
    if written_sum is None:
        assert r.normalised_rows == 1
        assert r.probability_note is not None and r.probability_note.startswith("1 row's ")
        p_true = Fraction(repr(row[1])) / written
        assert r.log_loss.value == pytest.approx(-math.log(float(p_true)) / 2, rel=1e-12)
    else:
        assert r.log_loss.value is None and r.normalised_rows == 0
        assert written == Fraction(written_sum)
        assert f"row 2's scores sum to {written_sum}, not 1" in str(r.log_loss.reason)


def test_rows_within_float_rounding_are_used_as_they_are() -> None:
    rows = [[0.1, 0.2, 0.7], [0.6, 0.3, 0.1]]
    assert float(np.array(rows[1]).sum()) == 0.9999999999999999  # the premise
    r = multiclass_report(_report(rows, [2, 0]))
    assert r.normalised_rows == 0 and r.probability_note is None
    raw = -(math.log(0.7) + math.log(0.6)) / 2
    assert r.log_loss.value == raw  # not divided by a float sum of 1 ± 2e-16
