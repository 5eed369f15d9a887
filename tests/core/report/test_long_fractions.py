"""The JSON report writes an exact fraction while its numerator and
denominator have at most 30 digits; past that ``"exact"`` is null, ``"exact_reason"``
says why and the decimal ``"value"`` stands for it. Checked against exact Fractions."""

from __future__ import annotations

import json
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from threshold_lab.core.metrics.metric import Metric
from threshold_lab.tui.cli import main

REASON = "the exact fraction has a {}-digit {}; past 30 digits the decimal value stands for it"


@pytest.mark.parametrize(
    ("exact", "kept"),
    [
        (Fraction(1, 10**30 - 1), True),  # a 30-digit denominator: written
        (Fraction(10**30 - 1, 7), True),  # a 30-digit numerator
        (Fraction(1, 10**30 + 1), False),  # 31 digits
        (Fraction(-(10**30) - 1, 7), False),  # a 31-digit numerator, negative
        (Fraction(3, 7**5000), False),  # 4,226 digits
        (Fraction(3, 10**4999 + 1), False),  # 5,000 digits: past Python's 4,300 limit
    ],
)
def test_an_exact_fraction_past_30_digits_is_null_with_its_reason(
    exact: Fraction, kept: bool
) -> None:
    got = Metric(float(exact), exact=exact).as_json()
    assert got["value"] == float(exact)
    if kept:
        assert got["exact"] == f"{exact.numerator}/{exact.denominator}"
        assert "exact_reason" not in got  # the field is there only when exact is left out
        return
    longest = max(abs(exact.numerator), exact.denominator)
    digits = _digits(longest)
    part = "denominator" if longest == exact.denominator else "numerator"
    assert got["exact"] is None and got["exact_reason"] == REASON.format(digits, part)


def _digits(n: int) -> int:
    """Decimal digits of ``n`` by repeated division (Python will not write an int
    past 4,300 digits as text)."""
    count = 0
    while n:
        n //= 10
        count += 1
    return count


def _binary_file(path: Path, n: int = 5000) -> tuple[list[float], list[int]]:
    """``n`` rows with distinct scores, 30% positive (under the 2,000 recall steps up to
    which the AP is summed exactly): its denominator has over a thousand digits."""
    rng = np.random.default_rng(28)
    scores = [(int(i) + 1) / (n + 1) for i in rng.permutation(n)]
    labels = [int(i < n * 3 // 10) for i in rng.permutation(n)]
    lines = ["label,score", *(f"{y},{s!r}" for s, y in zip(scores, labels, strict=True))]
    path.write_text("\n".join(lines) + "\n")
    return scores, labels


def _exact_ap_and_auc(scores: list[float], labels: list[int]) -> tuple[Fraction, Fraction]:
    """AP = mean over positives of the precision at its rank; AUC = the share of
    (positive, negative) pairs ranked right (scores distinct, so no ties)."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    positives = sum(labels)
    negatives = len(labels) - positives
    tp, ap, right = 0, Fraction(0), 0
    for rank, i in enumerate(order, start=1):
        if labels[i]:
            tp += 1
            ap += Fraction(tp, rank)
        else:
            right += tp  # every positive above this negative
    return ap / positives, Fraction(right, positives * negatives)


def _exact_fields(doc: Any) -> Iterator[dict[str, Any]]:
    if isinstance(doc, dict):
        if "exact" in doc and "value" in doc:
            yield doc
        for v in doc.values():
            yield from _exact_fields(v)
    elif isinstance(doc, list):
        for v in doc:
            yield from _exact_fields(v)


def test_an_ap_at_5000_rows_is_its_decimal_and_a_short_auc_stays_exact(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = tmp_path / "long.csv"
    scores, labels = _binary_file(f)
    ap, auc = _exact_ap_and_auc(scores, labels)
    assert len(str(ap.denominator)) > 1000  # the premise: thousands of digits
    assert main(["report", str(f), "--json", "--points", "10"]) == 0
    doc = json.loads(capsys.readouterr().out)
    got = doc["pr"]["average_precision"]
    assert got["value"] == float(ap) and got["exact"] is None
    assert got["exact_reason"] == REASON.format(len(str(ap.denominator)), "denominator")
    assert doc["roc"]["auc"]["exact"] == f"{auc.numerator}/{auc.denominator}"
    assert doc["roc"]["auc"]["value"] == float(auc) and "exact_reason" not in doc["roc"]["auc"]
    fields = list(_exact_fields(doc))
    assert len(fields) > 20
    for m in fields:
        if m["exact"] is not None:
            assert all(len(part.lstrip("-")) <= 30 for part in m["exact"].split("/"))
            assert "exact_reason" not in m and float(Fraction(m["exact"])) == m["value"]
        elif "exact_reason" in m:
            assert m["value"] is not None and m["exact_reason"].startswith("the exact fraction")


def test_a_fraction_past_pythons_digit_limit_reads_as_its_decimal_in_text() -> None:
    # Before: len(str(denominator)) raised "Exceeds the limit (4300 digits)", so the
    # text report of a large binary file (AP's fraction) crashed.
    m = Metric(0.25, exact=Fraction(10**5000 + 1, 4 * 10**5000))
    assert m.value_text() == "≈ 0.25" and m.short() == "≈ 0.25"
