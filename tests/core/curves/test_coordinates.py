"""Sensitivity at a specificity, specificity at a sensitivity and both at a threshold,
as pROC's ``coords`` reads them: pROC's own values on aSAH, and a brute force over the
ROC polyline in exact fractions (built from scikit-learn's unreduced curve) under
hypothesis with ties, weights and row order."""

from __future__ import annotations

import csv
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_curve
from threshold_lab.core.curves.coordinates import (
    coordinate,
    parse_rates,
    parse_thresholds,
    rates_at_threshold,
    sensitivity_at,
    specificity_at,
)
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.errors import InputError

from tests.paths import ROOT
from tests.strategies import examples


def _asah(column: str):  # type: ignore[no-untyped-def]
    with (ROOT / "tests" / "data" / "asah.csv").open() as f:
        rows = list(csv.DictReader(f))
    y = np.array([r["outcome"] == "Poor" for r in rows])
    return build_sweep(make_dataset(np.array([float(r[column]) for r in rows]), y))


# pROC 1.18: coords(roc(outcome, s100b, direction = "<"), x, input = ...)
@pytest.mark.parametrize(
    ("specificity", "sensitivity"),
    [(0.8, Fraction(26, 41)), (0.9, Fraction(16, 41)), (1.0, Fraction(12, 41)), (0.0, 1)],
)
def test_sensitivity_at_specificity_is_procs_on_asah(
    specificity: float, sensitivity: Fraction
) -> None:
    m = sensitivity_at(_asah("s100b"), specificity)
    assert m.exact == sensitivity


def test_specificity_at_sensitivity_is_procs_on_asah() -> None:
    assert specificity_at(_asah("s100b"), 0.9).exact == Fraction(83, 360)  # 0.2305556


def _points(y: np.ndarray, s: np.ndarray, w: np.ndarray) -> list[tuple[Fraction, Fraction]]:
    """The ROC polyline's points in exact fractions, from scikit-learn's curve kept
    whole (each distinct score a point) and the weights' exact sums."""
    _, _, thr = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    P = Fraction(int(w[y == 1].sum()))
    N = Fraction(int(w[y == 0].sum()))
    out: list[tuple[Fraction, Fraction]] = []
    for t in thr:
        tp = Fraction(int(w[(y == 1) & (s >= t)].sum()))
        fp = Fraction(int(w[(y == 0) & (s >= t)].sum()))
        out.append((fp / N, tp / P))
    return out


def _brute_tpr_at(points: list[tuple[Fraction, Fraction]], x: Fraction) -> Fraction:
    """The polyline at FPR x: the highest TPR among points at x, else the line between
    the last point before x and the first after, along the path."""
    at = [t for f, t in points if f == x]
    if at:
        return max(at)
    before = max((p for p in points if p[0] < x), key=lambda p: (p[0], p[1]))
    after = min((p for p in points if p[0] > x), key=lambda p: (p[0], p[1]))
    return before[1] + (after[1] - before[1]) * (x - before[0]) / (after[0] - before[0])


def _brute_fpr_at(points: list[tuple[Fraction, Fraction]], y: Fraction) -> Fraction:
    at = [f for f, t in points if t == y]
    if at:
        return min(at)
    # The neighbours along the path (both rates rise along it).
    before = max((p for p in points if p[1] < y), key=lambda p: (p[1], p[0]))
    after = min((p for p in points if p[1] > y), key=lambda p: (p[1], p[0]))
    return before[0] + (after[0] - before[0]) * (y - before[1]) / (after[1] - before[1])


@settings(max_examples=150, deadline=None)
@given(
    examples(both_classes=True, max_size=25),
    st.data(),
    st.integers(0, 20).map(lambda k: k / 20),
)
def test_rates_equal_a_brute_force_over_the_polyline(
    rows: tuple[np.ndarray, np.ndarray], data: st.DataObject, rate: float
) -> None:
    s, y = rows
    w = np.array(data.draw(st.lists(st.integers(1, 3), min_size=s.size, max_size=s.size)))
    sweep = build_sweep(make_dataset(s, y, weights=w.astype(float)))
    points = _points(y, s, w)
    exact = Fraction(repr(rate))
    assert sensitivity_at(sweep, rate).exact == _brute_tpr_at(points, 1 - exact)
    assert specificity_at(sweep, rate).exact == 1 - _brute_fpr_at(points, exact)
    # Row order never matters.
    order = np.random.default_rng(len(s)).permutation(len(s))
    again = build_sweep(make_dataset(s[order], y[order], weights=w[order].astype(float)))
    assert sensitivity_at(again, rate).exact == sensitivity_at(sweep, rate).exact


@settings(max_examples=100, deadline=None)
@given(examples(both_classes=True, max_size=25), st.integers(-2, 10).map(lambda k: k / 8))
def test_rates_at_a_threshold_count_score_at_or_above_it(
    rows: tuple[np.ndarray, np.ndarray], t: float
) -> None:
    s, y = rows
    se, sp = rates_at_threshold(build_sweep(make_dataset(s, y)), t)
    tp = int(np.sum((s >= t) & (y == 1)))
    tn = int(np.sum((s < t) & (y == 0)))
    assert se.exact == Fraction(tp, int(np.sum(y == 1)))
    assert sp.exact == Fraction(tn, int(np.sum(y == 0)))


def test_one_class_is_undefined_with_the_reason() -> None:
    sweep = build_sweep(make_dataset(np.array([0.2, 0.4]), np.array([1, 1])))
    m = sensitivity_at(sweep, 0.9)
    assert m.value is None and "No actual negatives" in str(m.reason)
    c = coordinate(sweep, "threshold", 0.3)
    assert c.values["sensitivity"].exact == Fraction(1, 2)
    assert c.values["specificity"].value is None


def test_typed_values_are_refused_naming_what_is_wrong() -> None:
    assert parse_rates("0.8, 9/10", "--ci-se") == (0.8, 0.9)
    with pytest.raises(InputError, match=r"--ci-se '0.8,,0.9': an empty value"):
        parse_rates("0.8,,0.9", "--ci-se")
    with pytest.raises(InputError, match=r"'x' is not a number"):
        parse_rates("x", "--ci-sp")
    with pytest.raises(InputError, match=r"'nan' is not a number"):
        parse_thresholds("0.5,nan")
