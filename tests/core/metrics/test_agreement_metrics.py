"""Cohen's kappa, informedness, markedness, the diagnostic odds ratio, the
Fowlkes-Mallows index and the Jaccard index against scikit-learn's
``cohen_kappa_score`` and ``jaccard_score`` and the definitions in rates, with weights,
and undefined with a reason where a denominator is 0."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import cohen_kappa_score, jaccard_score, precision_score, recall_score
from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.metrics.threshold_metrics import METRIC_NAMES, threshold_metrics

NEW = (
    "cohen_kappa",
    "informedness",
    "markedness",
    "diagnostic_odds_ratio",
    "fowlkes_mallows",
    "jaccard",
)


def _rows(tp: int, fp: int, tn: int, fn: int) -> tuple[Any, Any]:
    y = np.array([1] * tp + [0] * fp + [0] * tn + [1] * fn)
    pred = np.array([1] * tp + [1] * fp + [0] * tn + [0] * fn)
    return y, pred


cells = st.tuples(*(st.integers(0, 30) for _ in range(4))).filter(lambda t: sum(t) > 0)


@settings(max_examples=300, deadline=None)
@given(cells)
def test_each_is_its_definition_and_scikit_learns(t: tuple[int, int, int, int]) -> None:
    tp, fp, tn, fn = t
    m = threshold_metrics(Counts(tp, fp, tn, fn))
    y, pred = _rows(tp, fp, tn, fn)
    n = tp + fp + tn + fn
    P, N, PP, PN = tp + fn, fp + tn, tp + fp, tn + fn
    # Cohen's kappa: (p_o − p_e)/(1 − p_e).
    p_o = Fraction(tp + tn, n)
    p_e = Fraction(PP * P + PN * N, n**2)
    if p_e == 1:
        assert m["cohen_kappa"].value is None and "chance agreement is 1" in str(
            m["cohen_kappa"].reason
        )
    else:
        assert m["cohen_kappa"].exact == (p_o - p_e) / (1 - p_e)
        assert m["cohen_kappa"].value == pytest.approx(cohen_kappa_score(y, pred), abs=1e-12)
    if P and N:
        assert m["informedness"].exact == Fraction(tp, P) + Fraction(tn, N) - 1
    else:
        assert m["informedness"].value is None
    if PP and PN:
        assert m["markedness"].exact == Fraction(tp, PP) + Fraction(tn, PN) - 1
    else:
        assert m["markedness"].value is None
    if fp and fn:
        assert m["diagnostic_odds_ratio"].exact == Fraction(tp * tn, fp * fn)
    else:
        assert m["diagnostic_odds_ratio"].value is None
    if PP and P:
        want = math.sqrt(precision_score(y, pred) * recall_score(y, pred))
        assert m["fowlkes_mallows"].value == pytest.approx(want, rel=1e-12, abs=1e-15)
    else:
        assert m["fowlkes_mallows"].value is None
    if tp + fp + fn:
        assert m["jaccard"].exact == Fraction(tp, tp + fp + fn)
        assert m["jaccard"].value == pytest.approx(jaccard_score(y, pred), abs=1e-15)
    else:
        assert m["jaccard"].value is None
    for name in NEW:
        assert m[name].value is not None or m[name].reason


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), st.booleans(), st.floats(0.1, 5.0)), min_size=2, max_size=30)
)
def test_weighted_kappa_and_jaccard_are_scikit_learns(rows: list[tuple[bool, bool, float]]) -> None:
    y = np.array([r[0] for r in rows])
    pred = np.array([r[1] for r in rows])
    w = np.array([r[2] for r in rows])
    k = Counts(
        tp=float(w[y & pred].sum()),
        fp=float(w[~y & pred].sum()),
        tn=float(w[~y & ~pred].sum()),
        fn=float(w[y & ~pred].sum()),
    )
    m = threshold_metrics(k)
    if m["cohen_kappa"].value is not None:
        want = cohen_kappa_score(y, pred, sample_weight=w)
        assert m["cohen_kappa"].value == pytest.approx(want, abs=1e-9)
    if m["jaccard"].value is not None:
        want = jaccard_score(y, pred, sample_weight=w)
        assert m["jaccard"].value == pytest.approx(want, abs=1e-9)


def test_they_are_listed_everywhere_metrics_are_in_this_order() -> None:
    assert METRIC_NAMES[-6:] == NEW
    assert list(threshold_metrics(Counts(2, 1, 1, 1))) == list(METRIC_NAMES)


def test_formulas_are_filled_in_with_the_counts() -> None:
    m = threshold_metrics(Counts(tp=2, fp=1, tn=1, fn=1))
    assert m["cohen_kappa"].describe() == (
        "Cohen's kappa = 2(TP·TN−FP·FN)/((TP+FP)(FP+TN)+(TP+FN)(FN+TN)) "
        "= 2(2·1−1·1)/((2+1)(1+1)+(2+1)(1+1)) = 1/6 ≈ 0.1667"
    )
    assert m["informedness"].describe() == "informedness = TPR+TNR−1 = 2/3+1/2−1 = 1/6 ≈ 0.1667"
    assert m["diagnostic_odds_ratio"].describe() == (
        "diagnostic odds ratio = (TP·TN)/(FP·FN) = (2·1)/(1·1) = 2"
    )
    assert m["fowlkes_mallows"].describe() == (
        "Fowlkes-Mallows index = √(PPV·TPR) = 2/√((2+1)(2+1)) = 2/3 ≈ 0.6667"
    )
    assert m["jaccard"].describe() == "Jaccard index = TP/(TP+FP+FN) = 2/(2+1+1) = 2/4 = 1/2 = 0.5"
    empty = threshold_metrics(Counts(tp=0, fp=0, tn=2, fn=3))
    assert (
        empty["diagnostic_odds_ratio"].reason == "FP is 0, so the odds ratio has a zero denominator"
    )
