"""The report of 500 classes. Its averages' exact fractions run to
thousands of digits (the micro AP's past Python's 4,300-digit limit on writing an
int, which would fail the report); the JSON leaves them to their decimals, and
the text report never writes one out. Checked against scikit-learn and Fractions."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import average_precision_score
from threshold_lab.tui.cli import main

import threshold_lab

K, PER_CLASS = 500, 4


@pytest.fixture(scope="module")
def many(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, np.ndarray, np.ndarray]:
    """A file of 500 score columns, probabilities written to six decimals, four rows of
    each class, scored at random (its positives spread over a million ranks, so the
    micro AP's fraction is long); with the scores as read and the labels."""
    rng = np.random.default_rng(20)
    labels = rng.permutation(np.repeat(np.arange(K), PER_CLASS))
    raw = rng.random((labels.shape[0], K))
    cells = [[f"{x:.6f}" for x in row] for row in raw / raw.sum(axis=1, keepdims=True)]
    lines = ["label," + ",".join(f"score_c{c}" for c in range(K))]
    lines += [f"c{y}," + ",".join(row) for y, row in zip(labels.tolist(), cells, strict=True)]
    path = tmp_path_factory.mktemp("many") / "many.csv"
    path.write_text("\n".join(lines) + "\n")
    return path, np.array([[float(x) for x in row] for row in cells]), labels


@pytest.fixture
def int_limit() -> Iterator[None]:
    """Python's own limit on writing an int as text, whatever another test set."""
    old = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(4300)
    yield
    sys.set_int_max_str_digits(old)


@pytest.mark.usefixtures("int_limit")
def test_the_json_report_of_500_classes(
    many: tuple[Path, np.ndarray, np.ndarray], capsys: pytest.CaptureFixture[str]
) -> None:
    f, scores, labels = many
    assert main(["report", str(f), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    m = doc["multiclass"]
    assert len(m["classes"]) == K and len(m["per_class"]) == K
    onehot = labels[:, None] == np.arange(K)[None, :]
    # Macro AP: the plain mean of each class's one-vs-rest AP (every class has rows).
    macro = float(np.mean([average_precision_score(onehot[:, c], scores[:, c]) for c in range(K)]))
    got = m["averages"]["macro"]["average_precision"]
    assert got["value"] == pytest.approx(macro, rel=1e-12) and len(got["classes"]) == K
    assert got["exact"] is None and got["exact_reason"].startswith("the exact fraction has a ")
    # Micro AP: all k·n (score, is-this-class) pairs pooled; its fraction is the longest.
    micro = m["averages"]["micro"]["average_precision"]
    assert micro["value"] == pytest.approx(
        average_precision_score(onehot, scores, average="micro"), rel=1e-12
    )
    digits = int(micro["exact_reason"].split("-digit")[0].rsplit(" ", 1)[1])
    assert digits > 4300  # the premise: the fraction the report failed to write
    # A short average keeps its exact fraction: macro recall, the mean of TP_c / 4.
    pred = np.argmax(scores, axis=1)
    recall = (
        sum(
            (Fraction(int(np.sum((pred == c) & (labels == c))), PER_CLASS) for c in range(K)),
            Fraction(0),
        )
        / K
    )
    assert m["averages"]["macro"]["recall"]["exact"] == f"{recall.numerator}/{recall.denominator}"
    assert m["log_loss"]["value"] is not None and m["normalised_rows"] > 0


@pytest.mark.usefixtures("int_limit")
def test_the_text_report_of_500_classes(many: tuple[Path, np.ndarray, np.ndarray]) -> None:
    """Through the library (the command line's report, tests/api/test_same_as_cli.py),
    on the numbers as read: a million cells are read once, by the test above."""
    _, scores, labels = many
    names = [f"c{c}" for c in range(K)]
    out = threshold_lab.report([names[y] for y in labels], scores, classes=names).text()
    assert "Multiclass summary: 500 classes" in out
    assert "AP (one-vs-rest)" in out and "log loss = −mean ln p(true class) ≈ " in out
