"""pROC's bootstrap test of two AUCs: D = (AUC_a − AUC_b)/sd of the paired replicates'
differences, p from the normal. An oracle feeding the same resamples (the positives' and
the negatives' indices drawn in turn from the seed, as the paired bootstrap draws them)
scores each with scikit-learn, and gets D and p equal to 1e-9."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score
from threshold_lab.core.compare.paired import paired_ap_bootstrap
from threshold_lab.core.data.dataset import make_dataset


def _oracle(
    y: np.ndarray, sa: np.ndarray, sb: np.ndarray, replicates: int, seed: int, alternative: str
) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    diffs = []
    for _ in range(replicates):
        p = pos[rng.integers(0, pos.size, pos.size)]
        n = neg[rng.integers(0, neg.size, neg.size)]
        rows = np.r_[p, n]
        labels = np.r_[np.ones(p.size), np.zeros(n.size)]
        diffs.append(roc_auc_score(labels, sa[rows]) - roc_auc_score(labels, sb[rows]))
    d = float((roc_auc_score(y, sa) - roc_auc_score(y, sb)) / np.std(diffs, ddof=1))
    if alternative == "two-sided":
        return d, float(2 * stats.norm.sf(abs(d)))
    return d, float(stats.norm.sf(d if alternative == "greater" else -d))


@pytest.mark.parametrize(("seed", "alternative"), [(1, "two-sided"), (2, "greater"), (3, "less")])
def test_the_statistic_and_p_equal_an_oracle_on_the_same_resamples(
    seed: int, alternative: str
) -> None:
    rng = np.random.default_rng(seed)
    y = (rng.random(120) < 0.4).astype(int)
    sa = np.round(rng.normal(0, 1, 120) + 1.0 * y, 1)  # ties
    sb = np.round(0.6 * sa + rng.normal(0, 0.8, 120), 1)
    a, b = make_dataset(sa, y), make_dataset(sb, y)
    diff = roc_auc_score(y, sa) - roc_auc_score(y, sb)
    *_, test = paired_ap_bootstrap(
        a, b, replicates=300, seed=seed, alternative=alternative, auc_difference=diff
    )
    assert test is not None and test.statistic is not None and test.p is not None
    d, p = _oracle(y, sa, sb, 300, seed, alternative)
    assert test.statistic == pytest.approx(d, rel=1e-9, abs=1e-12)
    assert test.p.value == pytest.approx(p, rel=1e-9, abs=1e-15)


def test_no_spread_is_no_test_unless_no_difference() -> None:
    y = np.array([1, 0, 1, 0])
    s = np.array([0.9, 0.1, 0.8, 0.2])  # perfectly separated: every replicate AUC 1
    a = make_dataset(s, y)
    *_, same = paired_ap_bootstrap(a, a, replicates=50, seed=1, auc_difference=0.0)
    assert same is not None and same.statistic == 0.0 and same.p is not None
    assert same.p.value == 1.0


@pytest.mark.parametrize("seed", [4, 5])
def test_the_unpaired_test_equals_an_oracle_on_the_same_resamples(seed: int) -> None:
    """Each model's positives then negatives drawn apart (by score, highest first), a's
    then b's in each replicate, as pROC's unpaired bootstrap resamples them."""
    from threshold_lab.core.analysis import curves_for
    from threshold_lab.core.compare.paired import unpaired_auc_bootstrap

    rng = np.random.default_rng(seed)
    ya = (rng.random(80) < 0.4).astype(int)
    yb = (rng.random(60) < 0.5).astype(int)
    sa = np.round(rng.normal(0, 1, 80) + ya, 1)
    sb = np.round(rng.normal(0, 1, 60) + 0.5 * yb, 1)
    diff = roc_auc_score(ya, sa) - roc_auc_score(yb, sb)
    sweep_a = curves_for(make_dataset(sa, ya)).sweep
    sweep_b = curves_for(make_dataset(sb, yb)).sweep
    test = unpaired_auc_bootstrap(sweep_a, sweep_b, diff, replicates=200, seed=seed)
    draws = np.random.default_rng(seed)
    diffs = []
    for _ in range(200):
        aucs = []
        for y, s in ((ya, sa), (yb, sb)):
            pos = np.sort(s[y == 1])[::-1]
            neg = np.sort(s[y == 0])[::-1]
            p = pos[draws.integers(0, pos.size, pos.size)]
            n = neg[draws.integers(0, neg.size, neg.size)]
            aucs.append(roc_auc_score(np.r_[np.ones(p.size), np.zeros(n.size)], np.r_[p, n]))
        diffs.append(aucs[0] - aucs[1])
    d = diff / np.std(diffs, ddof=1)
    assert test.statistic == pytest.approx(d, rel=1e-9)
    assert test.p is not None and test.p.value == pytest.approx(2 * stats.norm.sf(abs(d)), rel=1e-9)
