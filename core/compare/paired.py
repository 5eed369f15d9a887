"""Two models on the same examples: DeLong's paired test of their ROC AUCs, and
McNemar's exact test of their decisions at a threshold.

Both count examples, so weights must be whole (multiplicities); otherwise each says
why it has no answer.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import numpy.typing as npt

from core.data.dataset import Dataset
from core.intervals.bootstrap import Groups
from core.intervals.closed import CONFIDENCE, NOT_WHOLE, Interval, z_for

FloatArray = npt.NDArray[np.float64]


def placements(
    scores: FloatArray, labels: npt.NDArray[np.bool_], weights: FloatArray | None
) -> tuple[FloatArray, FloatArray]:
    """Each positive's placement (the weighted share of negatives scored below it, a
    tie counting one half) and each negative's (the share of positives above it),
    in row order among the positives and among the negatives. O(n log n): one sort,
    then passes in sorted order; the only random accesses are the labels read in that
    order and the placements written back."""
    order = np.argsort(scores)
    s = scores[order]
    n = s.shape[0]
    first = np.empty(n, dtype=bool)  # each tie group's first row, ascending score
    first[0] = True
    np.not_equal(s[1:], s[:-1], out=first[1:])
    del s
    group = np.cumsum(first) - 1
    starts = np.flatnonzero(first)
    lab = labels[order]
    if weights is None:
        p_in = np.add.reduceat(lab.astype(np.float64), starts)
        n_in = np.diff(np.append(starts, n)).astype(np.float64) - p_in
    else:
        w = weights[order]
        p_in = np.add.reduceat(np.where(lab, w, 0.0), starts)
        n_in = np.add.reduceat(np.where(lab, 0.0, w), starts)
    neg_below = np.cumsum(n_in) - n_in  # negatives scored strictly below each group
    pos_above = float(p_in.sum()) - np.cumsum(p_in)  # positives strictly above
    total_neg, total_pos = float(n_in.sum()), float(p_in.sum())
    v10 = (neg_below + 0.5 * n_in) / (total_neg or 1.0)
    v01 = (pos_above + 0.5 * p_in) / (total_pos or 1.0)
    placed = np.where(lab, v10[group], v01[group])  # each row's, in sorted order
    back = np.empty(n)
    back[order] = placed
    return back[labels], back[~labels]


@dataclass(frozen=True)
class PairedDeLong:
    """AUC(a) − AUC(b) with DeLong's paired standard error, interval and p-value."""

    auc_a: float
    auc_b: float
    difference: float
    se: float
    interval: Interval
    z: float | None
    p_value: float


def paired_delong(
    a: FloatArray,
    b: FloatArray,
    labels: npt.NDArray[np.bool_],
    weights: FloatArray | None = None,
    confidence: float = CONFIDENCE,
) -> tuple[PairedDeLong | None, str | None]:
    """DeLong's test of two correlated ROC AUCs: the structural components of both
    models on the same examples, their covariance, and the difference's normal test."""
    labels = np.asarray(labels, dtype=bool)
    w = None if weights is None else np.asarray(weights, dtype=np.float64)
    if w is not None and not bool(np.all(w == np.floor(w))):
        return None, NOT_WHOLE
    wp = np.ones(int(labels.sum())) if w is None else w[labels]
    wn = np.ones(int((~labels).sum())) if w is None else w[~labels]
    pos, neg = float(wp.sum()), float(wn.sum())
    if pos < 2 or neg < 2:
        return None, "DeLong's test needs at least two actual positives and two negatives"
    v10a, v01a = placements(np.asarray(a, dtype=np.float64), labels, w)
    v10b, v01b = placements(np.asarray(b, dtype=np.float64), labels, w)
    auc_a, auc_b = float(np.dot(wp, v10a)) / pos, float(np.dot(wp, v10b)) / pos
    da, db = v10a - auc_a, v10b - auc_b
    ea, eb = v01a - auc_a, v01b - auc_b
    # The variance of the difference, from the components' (co)variances.
    s10 = float(np.dot(wp, (da - db) ** 2)) / (pos - 1)
    s01 = float(np.dot(wn, (ea - eb) ** 2)) / (neg - 1)
    var = max(s10 / pos + s01 / neg, 0.0)
    se = math.sqrt(var)
    diff = auc_a - auc_b
    zc = z_for(confidence)
    interval = Interval(diff - zc * se, diff + zc * se, "delong", confidence)
    if se == 0:  # the models place every example alike: no spread to test against
        p0 = 1.0 if diff == 0 else 0.0
        return PairedDeLong(auc_a, auc_b, diff, 0.0, interval, None, p0), None
    z = diff / se
    p = 2 * (1 - NormalDist().cdf(abs(z)))
    return PairedDeLong(auc_a, auc_b, diff, se, interval, z, min(1.0, p)), None


def binomial_two_sided(b: int, c: int) -> float:
    """McNemar's exact p-value: twice the smaller tail of Binomial(b + c, 1/2), at most 1."""
    n, k = b + c, min(b, c)
    if n == 0:
        return 1.0
    if n <= 2000:  # exactly, in integers
        tail = sum(math.comb(n, i) for i in range(k + 1))
        return min(1.0, float(Fraction(2 * tail, 2**n)))
    # Larger: the tail's terms in logs, log C(n, i) built up by the ratios
    # C(n, i) / C(n, i - 1) = (n - i + 1) / i, and summed from the largest.
    i = np.arange(1, k + 1, dtype=np.float64)
    log_comb = np.concatenate(([0.0], np.cumsum(np.log((n - i + 1) / i))))
    log_terms = log_comb - n * math.log(2)
    top = float(log_terms.max())
    return min(1.0, 2 * math.exp(top) * float(np.exp(log_terms - top).sum()))


@dataclass(frozen=True)
class McNemar:
    """At a threshold each: ``b`` examples model a decides correctly and b does not,
    ``c`` the other way round, the exact p-value, and how many they decide apart."""

    b: int
    c: int
    p_value: float
    decided_differently: int


def mcnemar(
    pred_a: npt.NDArray[np.bool_],
    pred_b: npt.NDArray[np.bool_],
    labels: npt.NDArray[np.bool_],
    weights: FloatArray | None = None,
) -> tuple[McNemar | None, str | None]:
    """McNemar's exact test of two models' decisions on the same examples."""
    w = np.ones(labels.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    if not bool(np.all(w == np.floor(w))):
        return None, NOT_WHOLE
    right_a, right_b = pred_a == labels, pred_b == labels
    b = round(float(w[right_a & ~right_b].sum()))
    c = round(float(w[~right_a & right_b].sum()))
    apart = round(float(w[pred_a != pred_b].sum()))
    return McNemar(b, c, binomial_two_sided(b, c), apart), None


def paired_ap_bootstrap(
    a: Dataset,
    b: Dataset,
    *,
    replicates: int,
    seed: int,
    confidence: float = CONFIDENCE,
) -> tuple[Interval | None, str | None]:
    """A percentile interval of AP(a) − AP(b) from a paired stratified bootstrap: the
    same resampled examples (positives and negatives drawn separately) scored by both
    models in every replicate."""
    from core.curves.sweep import build_sweep
    from core.intervals.bootstrap import Replicate, _summaries, groups_of

    if a.weights is not None and not bool(np.all(a.weights == np.floor(a.weights))):
        return None, NOT_WHOLE
    labels = a.labels
    w = np.ones(a.n) if a.weights is None else a.weights
    pos_rows, neg_rows = np.flatnonzero(labels & (w > 0)), np.flatnonzero(~labels & (w > 0))
    if pos_rows.size == 0 or neg_rows.size == 0:
        return None, "a paired bootstrap needs actual positives and negatives"
    # Whole weights are multiplicities: a drawn "row" is one of the expanded examples.
    pos_cum = np.cumsum(w[pos_rows]).astype(np.int64)
    neg_cum = np.cumsum(w[neg_rows]).astype(np.int64)
    n_pos, n_neg = int(pos_cum[-1]), int(neg_cum[-1])

    def prepared(d: Dataset) -> tuple[Groups, npt.NDArray[np.intp], npt.NDArray[np.intp]]:
        g = groups_of(build_sweep(d))
        # Each positive (negative) row's index among the model's positive (negative)
        # groups: groups run from the highest score down.
        desc = -d.scores
        distinct = np.unique(desc)  # ascending -score: highest score first
        group_of_row = np.searchsorted(distinct, desc)
        pos_group = np.searchsorted(g.pos_at, group_of_row[pos_rows])
        neg_group = np.searchsorted(g.neg_at, group_of_row[neg_rows])
        return g, pos_group, neg_group

    models = [prepared(a), prepared(b)]
    rng = np.random.default_rng(seed)
    diffs = np.empty(replicates)
    for i in range(replicates):
        drawn_pos = np.searchsorted(pos_cum, rng.integers(0, n_pos, n_pos), side="right")
        drawn_neg = np.searchsorted(neg_cum, rng.integers(0, n_neg, n_neg), side="right")
        aps = []
        for g, pos_group, neg_group in models:
            r = Replicate(
                np.bincount(pos_group[drawn_pos], minlength=g.pos.size).astype(np.int64),
                np.bincount(neg_group[drawn_neg], minlength=g.neg.size).astype(np.int64),
            )
            aps.append(_summaries(g, r)[0])
        diffs[i] = aps[0] - aps[1]
    lo, hi = np.quantile(diffs, [(1 - confidence) / 2, (1 + confidence) / 2])
    return (
        Interval(float(lo), float(hi), "bootstrap", confidence, replicates=replicates, seed=seed),
        None,
    )
