"""pROC's bootstrap tests of two models' sensitivities at a specificity and
specificities at a sensitivity (roc.test(method = "specificity" | "sensitivity")): an
oracle draws the same resamples from the seed (as the paired and unpaired bootstraps
draw them), reads each resample's rate off scikit-learn's curve by pROC's rule, and
gets D and p equal to 1e-9."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_curve
from threshold_lab.core.analysis import analyse, curves_for
from threshold_lab.core.compare.models import compare
from threshold_lab.core.data.dataset import Model, make_dataset


def _se_at(y: np.ndarray, s: np.ndarray, sp: float) -> float:
    """pROC's sensitivity at specificity sp: the highest TPR at FPR = 1 − sp, else the
    line between the points around it."""
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    x = 1 - sp
    at = tpr[np.isclose(fpr, x, rtol=0, atol=1e-12)]
    if at.size:
        return float(at.max())
    i = int(np.searchsorted(fpr, x, side="right"))
    return float(tpr[i - 1] + (tpr[i] - tpr[i - 1]) * (x - fpr[i - 1]) / (fpr[i] - fpr[i - 1]))


def _p(d: float) -> float:
    return float(2 * stats.norm.sf(abs(d)))


@pytest.mark.parametrize("seed", [1, 2])
def test_the_paired_sensitivity_test_equals_an_oracle_on_the_same_resamples(seed: int) -> None:
    rng = np.random.default_rng(seed)
    y = (rng.random(150) < 0.4).astype(int)
    sa = np.round(rng.normal(0, 1, 150) + 1.2 * y, 2)
    sb = np.round(0.5 * sa + rng.normal(0, 0.9, 150), 2)
    a, b = Model("a", make_dataset(sa, y)), Model("b", make_dataset(sb, y))
    c = compare(
        a,
        analyse(curves_for(a.data), 0.5),
        b,
        analyse(curves_for(b.data), 0.5),
        boot=(300, seed),
        rates=(("specificity", 0.9),),
    )
    (t,) = c.rate_tests
    draws = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    diffs = []
    for _ in range(300):
        rows = np.r_[
            pos[draws.integers(0, pos.size, pos.size)], neg[draws.integers(0, neg.size, neg.size)]
        ]
        diffs.append(_se_at(y[rows], sa[rows], 0.9) - _se_at(y[rows], sb[rows], 0.9))
    observed = _se_at(y, sa, 0.9) - _se_at(y, sb, 0.9)
    d = float(observed / np.std(diffs, ddof=1))
    assert t.difference == pytest.approx(observed, abs=1e-12)
    assert t.test.statistic == pytest.approx(d, rel=1e-9)
    assert t.test.p is not None and t.test.p.value == pytest.approx(_p(d), rel=1e-9)
    assert t.as_json()["at_specificity"] == 0.9 and t.test.method == "paired bootstrap"


def test_the_unpaired_specificity_test_equals_an_oracle_on_the_same_resamples() -> None:
    rng = np.random.default_rng(9)
    ya = (rng.random(90) < 0.4).astype(int)
    yb = (rng.random(70) < 0.5).astype(int)
    sa = np.round(rng.normal(0, 1, 90) + ya, 1)
    sb = np.round(rng.normal(0, 1, 70) + 0.6 * yb, 1)
    a, b = Model("a", make_dataset(sa, ya)), Model("b", make_dataset(sb, yb))
    c = compare(
        a,
        analyse(curves_for(a.data), 0.5),
        b,
        analyse(curves_for(b.data), 0.5),
        boot=(200, 9),
        paired=False,
        rates=(("sensitivity", 0.8),),
    )
    (t,) = c.rate_tests

    def sp_at(y: np.ndarray, s: np.ndarray, se: float) -> float:
        fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
        at = fpr[np.isclose(tpr, se, rtol=0, atol=1e-12)]
        if at.size:
            return float(1 - at.min())
        i = int(np.searchsorted(tpr, se, side="right"))
        f = fpr[i - 1] + (fpr[i] - fpr[i - 1]) * (se - tpr[i - 1]) / (tpr[i] - tpr[i - 1])
        return float(1 - f)

    draws = np.random.default_rng(9)
    diffs = []
    for _ in range(200):
        rates = []
        for y, s in ((ya, sa), (yb, sb)):
            pos, neg = np.sort(s[y == 1])[::-1], np.sort(s[y == 0])[::-1]
            p = pos[draws.integers(0, pos.size, pos.size)]
            n = neg[draws.integers(0, neg.size, neg.size)]
            rates.append(sp_at(np.r_[np.ones(p.size), np.zeros(n.size)], np.r_[p, n], 0.8))
        diffs.append(rates[0] - rates[1])
    d = (sp_at(ya, sa, 0.8) - sp_at(yb, sb, 0.8)) / np.std(diffs, ddof=1)
    assert t.test.statistic == pytest.approx(d, rel=1e-9)
    assert t.test.method == "unpaired bootstrap" and t.rate == "specificity"


def _area(y: np.ndarray, s: np.ndarray, high: float) -> float:
    """The ROC polyline's area over FPR 0 to ``high``, from scikit-learn's curve."""
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    grid = np.r_[fpr[fpr < high], high]
    # At a vertical run the polyline's value just after it: the run's highest TPR.
    ys = np.array([tpr[fpr <= x].max() if x in fpr else np.interp(x, fpr, tpr) for x in grid])
    lows = np.array([tpr[fpr >= x].min() if x in fpr else np.interp(x, fpr, tpr) for x in grid])
    return float(np.sum(np.diff(grid) * (ys[:-1] + lows[1:]) / 2))


def test_the_partial_auc_test_equals_an_oracle_on_the_same_resamples() -> None:
    rng = np.random.default_rng(21)
    y = (rng.random(140) < 0.45).astype(int)
    sa = np.round(rng.normal(0, 1, 140) + 1.1 * y, 1)
    sb = np.round(0.5 * sa + rng.normal(0, 0.9, 140), 1)
    a, b = Model("a", make_dataset(sa, y)), Model("b", make_dataset(sb, y))
    c = compare(
        a,
        analyse(curves_for(a.data), 0.5),
        b,
        analyse(curves_for(b.data), 0.5),
        boot=(250, 21),
        areas=(("fpr", 0.0, 0.2),),
    )
    (t,) = c.area_tests
    draws = np.random.default_rng(21)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    diffs = []
    for _ in range(250):
        rows = np.r_[
            pos[draws.integers(0, pos.size, pos.size)], neg[draws.integers(0, neg.size, neg.size)]
        ]
        diffs.append(_area(y[rows], sa[rows], 0.2) - _area(y[rows], sb[rows], 0.2))
    observed = _area(y, sa, 0.2) - _area(y, sb, 0.2)
    assert t.as_json()["difference"] == pytest.approx(observed, abs=1e-12)
    d = float(observed / np.std(diffs, ddof=1))
    assert t.test.statistic == pytest.approx(d, rel=1e-9)
    assert t.as_json()["focus"] == "fpr" and t.as_json()["high"] == 0.2
