"""``--randomised``: each group's mixture of two points at one common rate. Its
expected objective equals the linear programme over all mixtures of each group's
points (scipy's HiGHS), and is at least as good as Fairlearn's ``ThresholdOptimizer``
under the same constraint (equal rates, tolerance 0)."""

from __future__ import annotations

import warnings
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import linprog
from sklearn.base import BaseEstimator
from threshold_lab.core.errors import InputError

import threshold_lab as tl


@st.composite
def grouped(draw: st.DrawFn) -> tuple[Any, Any, Any]:
    k = draw(st.integers(2, 3))
    g, y, s = [], [], []
    for i in range(k):
        m = draw(st.integers(3, 10))
        ys = draw(st.lists(st.integers(0, 1), min_size=m, max_size=m))
        ys[0], ys[1] = 1, 0
        g += [f"g{i}"] * m
        y += ys
        s += [x / 6 for x in draw(st.lists(st.integers(0, 6), min_size=m, max_size=m))]
    return np.array(g, dtype=object), np.array(y), np.array(s)


def _lp(g: Any, y: Any, s: Any, criterion: str) -> float:
    """The best expected accuracy over any mixture of each group's thresholds with one
    common rate: variables w_gk (each group's weights on its sweep points) and r."""
    per = []
    for name in sorted(set(g)):
        r = tl.report(y[g == name], s[g == name])
        sw = r.sweep
        pos, n = r.positives, r.n
        x = (sw.tp + sw.fp) / n if criterion == "demographic_parity" else sw.tp / pos
        per.append((x, (sw.tp - sw.fp).astype(float)))
    sizes = [len(x) for x, _ in per]
    nv = sum(sizes) + 1
    c = np.zeros(nv)
    a_eq, b_eq = [], []
    at = 0
    for (x, v), m in zip(per, sizes, strict=True):
        c[at : at + m] = -v
        row = np.zeros(nv)
        row[at : at + m] = 1
        a_eq.append(row)
        b_eq.append(1)
        row = np.zeros(nv)
        row[at : at + m] = x
        row[-1] = -1
        a_eq.append(row)
        b_eq.append(0)
        at += m
    res = linprog(
        c, A_eq=np.array(a_eq), b_eq=np.array(b_eq), bounds=[(0, None)] * nv, method="highs"
    )
    assert res.status == 0
    neg = float(np.sum(y == 0))
    return float((-res.fun + neg) / len(y))


@settings(max_examples=40, deadline=None)
@given(grouped(), st.sampled_from(["demographic_parity", "equal_opportunity"]))
def test_the_mixtures_reach_the_linear_programme_s_best(case, criterion: str) -> None:  # type: ignore[no-untyped-def]
    g, y, s = case
    r = tl.report(y, s, groups=g, group_goal=criterion, randomised=True)
    assert r.group_thresholds is not None
    rnd = r.group_thresholds.randomised
    assert rnd is not None
    assert float(rnd.objective) == pytest.approx(_lp(g, y, s, criterion), abs=1e-9)
    # Each group's mixture hits the common rate exactly, and its expected counts give
    # the objective: checked row by row in fractions.
    tp_fp = Fraction(0)
    for name, m in rnd.mixtures.items():
        rows = g == name
        yy, ss = y[rows], s[rows]
        hi = np.zeros(len(ss), bool) if m.high is None else ss >= m.high
        lo = np.zeros(len(ss), bool) if m.low is None else ss >= m.low
        p = [Fraction(1) if a else (m.q if b else Fraction(0)) for a, b in zip(hi, lo, strict=True)]
        sel = sum(p, Fraction(0))
        tp = sum((pi for pi, yi in zip(p, yy, strict=True) if yi == 1), Fraction(0))
        rate = sel / len(ss) if criterion == "demographic_parity" else tp / int(yy.sum())
        assert rate == rnd.rate
        tp_fp += 2 * tp - sel
    neg = int(np.sum(y == 0))
    assert rnd.objective == (tp_fp + neg) / len(y)
    # Never worse than the deterministic choice at the same tolerance's limit of 0.
    det = tl.report(y, s, groups=g, group_goal=criterion, tolerance=0).group_thresholds
    assert det is not None and det.chosen is not None
    assert rnd.objective >= det.chosen.objective.exact  # type: ignore[operator]


class _Scores(BaseEstimator):  # type: ignore[misc]
    """An estimator whose prediction is the score in X's first column (already fitted)."""

    def fit(self, X: Any, y: Any) -> _Scores:
        return self

    def predict(self, X: Any) -> Any:
        return np.asarray(X)[:, 0]

    def __sklearn_is_fitted__(self) -> bool:
        return True


@pytest.mark.parametrize("criterion", ["demographic_parity", "true_positive_rate_parity"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_at_least_as_good_as_fairlearns_threshold_optimizer(criterion: str, seed: int) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from fairlearn.postprocessing import ThresholdOptimizer

    rng = np.random.default_rng(seed)
    n = 600
    g = rng.choice(np.array(["a", "b", "c"], dtype=object), n, p=[0.5, 0.3, 0.2])
    y = (rng.random(n) < np.where(g == "a", 0.3, np.where(g == "b", 0.5, 0.4))).astype(int)
    s = np.round(1 / (1 + np.exp(-(rng.normal(size=n) + 1.5 * y - 0.7 + 0.4 * (g == "b")))), 2)
    X = s.reshape(-1, 1)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        to = ThresholdOptimizer(
            estimator=_Scores(),
            constraints=criterion,
            objective="accuracy_score",
            prefit=True,
            predict_method="predict",
        )
        to.fit(X, y, sensitive_features=g)
        p = to._pmf_predict(X, sensitive_features=g)[:, 1]
    theirs = float(np.mean(y * p + (1 - y) * (1 - p)))
    ours_criterion = (
        "demographic_parity" if criterion == "demographic_parity" else ("equal_opportunity")
    )
    r = tl.report(y, s, groups=g, group_goal=ours_criterion, randomised=True)
    assert r.group_thresholds is not None and r.group_thresholds.randomised is not None
    ours = float(r.group_thresholds.randomised.objective)
    assert ours >= theirs - 1e-9, (ours, theirs)


def test_randomised_refuses_what_it_cannot_mix() -> None:
    y, s, g = [1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1], ["a", "a", "b", "b"]
    with pytest.raises(InputError, match="--randomised: for demographic_parity"):
        tl.report(y, s, groups=g, group_goal="predictive_parity", randomised=True)
    with pytest.raises(InputError, match="is a ratio"):
        tl.report(y, s, groups=g, group_goal="demographic_parity", goal="max f1", randomised=True)
    with pytest.raises(InputError, match="randomised= needs group_goal="):
        tl.report(y, s, groups=g, randomised=True)
