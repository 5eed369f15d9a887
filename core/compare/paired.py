"""Two models on the same examples: DeLong's paired test of their ROC AUCs, and
McNemar's exact test of their decisions at a threshold.

Both count examples, so weights must be whole (multiplicities); otherwise each says
why it has no answer.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import blocks, dot
from threshold_lab.core.curves.coordinates import READS, Given, reader
from threshold_lab.core.curves.sweep import Sweep, build_sweep
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.intervals.bootstrap import (
    Groups,
    Replicate,
    draw,
    groups_of,
    replicate_summaries,
    replicate_sweep,
    unavailable,
)
from threshold_lab.core.intervals.closed import (
    CONFIDENCE,
    NOT_WHOLE,
    Interval,
    delong_se,
    same_value_words,
    z_for,
)
from threshold_lab.core.intervals.pvalues import (
    ONE,
    ZERO,
    PValue,
    binomial_p,
    normal_p,
    student_t_p,
)
from threshold_lab.core.metrics.metric import Metric

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]

_SIGN = np.uint64(1 << 63)


class _SortBuffers:
    """Buffers of n rows for ``_sort_order``, reused from one model to the next: at
    10^7 rows each is 80 MB, and fresh memory costs about as much again to touch."""

    def __init__(self, n: int) -> None:
        self.index = np.arange(n)  # 0, 1, ..., n - 1, read only
        self.key = np.empty(n, dtype=np.uint64)  # the packed keys, then free
        self.spare = np.empty(n, dtype=np.intp)  # the sorted order


class _Scratch(_SortBuffers):
    """The sort's buffers and ``_placed``'s."""

    def __init__(self, n: int) -> None:
        super().__init__(n)
        self.placed = np.empty(n)  # the placements in sorted order
        self.labels = np.empty(n, dtype=bool)  # the labels in sorted order
        self.other = np.empty(n, dtype=bool)  # and their negation


def _sort_order(
    x: FloatArray, scratch: _SortBuffers | None = None
) -> tuple[IndexArray, npt.NDArray[np.bool_] | None]:
    """The stable ascending order of ``x`` (``np.argsort(x, kind="stable")``; -0.0 and
    0.0 are the same score) and, of each ``i < n - 1``, whether the ``i``-th and
    ``(i + 1)``-th scores in that order are equal (None if no two scores are).

    numpy's value sort is far faster than its argsort, so each score becomes an
    order-preserving uint64 key whose low k bits are replaced by the row index (k bits
    hold every index), and those packed keys are value-sorted. Neighbours whose kept
    top bits differ are then in order; only neighbours with the same top bits are
    compared exactly, and each run of equal top bits with a pair out of order is
    sorted again (or, when such runs hold many rows, the whole by ``np.argsort``).
    With ``scratch`` the order is its ``spare`` and its ``key`` is left free."""
    n = x.shape[0]
    if n < 2:
        return np.arange(n, dtype=np.intp), None
    k = (n - 1).bit_length()
    scratch = _SortBuffers(n) if scratch is None else scratch
    key = np.add(x, 0.0, out=scratch.key.view(np.float64)).view(np.uint64)  # -0.0 is 0.0
    flip = np.right_shift(key.view(np.int64), 63, out=scratch.spare).view(np.uint64)
    # flip: all ones where the sign bit is set, else 0
    flip |= _SIGN  # negatives: flip every bit; the rest: just the sign bit
    key ^= flip
    key &= np.uint64(~((1 << k) - 1) & (2**64 - 1))
    key |= scratch.index.view(np.uint64)
    key.sort()
    order = np.bitwise_and(key, np.uint64((1 << k) - 1), out=flip).view(np.intp)
    key >>= np.uint64(k)  # the kept top bits, ascending
    equal_top = key[1:] == key[:-1]
    count = int(np.count_nonzero(equal_top))
    if count == 0:
        return order, None
    ranked: FloatArray | None = None
    if count > n // 16:  # many: read the scores in order, whole
        del equal_top
        ranked = x[order]
        wrong = np.flatnonzero(ranked[1:] < ranked[:-1])
    else:
        same_top = np.flatnonzero(equal_top)
        del equal_top
        lo, hi = x[order[same_top]], x[order[same_top + 1]]
        wrong = same_top[hi < lo]
    if wrong.size:
        top = key[wrong]
        start = np.searchsorted(key, top, side="left")
        new = np.empty(start.shape[0], dtype=bool)
        new[0] = True
        np.not_equal(start[1:], start[:-1], out=new[1:])
        start = start[new]
        length = np.searchsorted(key, top[new], side="right") - start
        total = int(length.sum())
        if total > n // 8:  # many rows share their top bits: argsort the whole
            del ranked
            order = np.argsort(x, kind="stable")
            ranked = x[order]
            return order, _tied(ranked)
        run = np.repeat(np.arange(start.shape[0]), length)
        members = np.arange(total) + np.repeat(start - (np.cumsum(length) - length), length)
        rows = order[members]
        rows = rows[np.lexsort((rows, np.add(x[rows], 0.0), run))]
        order[members] = rows
        if ranked is None:
            lo, hi = x[order[same_top]], x[order[same_top + 1]]
        else:
            ranked[members] = x[rows]
    if ranked is not None:
        return order, _tied(ranked)
    at = same_top[hi == lo]
    if at.size == 0:
        return order, None
    tied = np.zeros(n - 1, dtype=bool)
    tied[at] = True
    return order, tied


def _tied(ranked: FloatArray) -> npt.NDArray[np.bool_] | None:
    """Where each ascending score equals the next, or None if nowhere."""
    tied = ranked[1:] == ranked[:-1]
    return tied if bool(tied.any()) else None


def stable_argsort(x: FloatArray) -> IndexArray:
    """``np.argsort(x, kind="stable")`` of finite float64 scores, -0.0 and 0.0 the
    same, by numpy's faster value sort (see ``_sort_order``)."""
    return _sort_order(np.asarray(x, dtype=np.float64))[0]


@dataclass(frozen=True)
class _Placed:
    """One model's placements in its ascending score order: each positive's (the
    weighted share of negatives scored below it, a tie one half) and each negative's
    (the share of positives above it), with that order, the labels and weights in
    it, the class totals and the AUC."""

    order: IndexArray
    placed: FloatArray
    labels: npt.NDArray[np.bool_]
    weights: FloatArray | None
    positives: float
    negatives: float
    auc: float


def _placed(
    scores: FloatArray,
    labels: npt.NDArray[np.bool_],
    weights: FloatArray | None,
    scratch: _Scratch | None = None,
) -> _Placed:
    """Each row's placement, by one sort and passes in sorted order. With ``scratch``
    the arrays are its buffers, good until their next use: its ``key`` is left free."""
    n = scores.shape[0]
    scratch = _Scratch(n) if scratch is None else scratch
    order, tied = _sort_order(scores, scratch)
    lab = np.take(labels, order, out=scratch.labels, mode="clip")
    other = np.logical_not(lab, out=scratch.other)
    placed = scratch.placed
    cum = scratch.key.view(np.float64)  # free once sorted
    w = None if weights is None else weights[order]
    if w is None:
        np.cumsum(lab, dtype=np.float64, out=cum)  # positives up to and including
        total_pos = float(cum[-1]) if n else 0.0
        total_neg = n - total_pos
        np.subtract(scratch.index, cum, out=placed)
        placed += 1.0  # negatives up to and including
    else:
        np.multiply(w, other, out=placed)
        np.cumsum(placed, out=placed)
        np.multiply(w, lab, out=cum)
        np.cumsum(cum, out=cum)
        total_pos = float(cum[-1]) if n else 0.0
        total_neg = float(placed[-1]) if n else 0.0
    if tied is None:  # each row its own group: no tie to count one half
        placed /= total_neg or 1.0  # a positive's negatives up to it are those below
        if w is None:  # the sum of the positives' ranks, exactly in integers
            ranks = float(np.sum(scratch.index, where=lab))
            below = ranks - total_pos * (total_pos - 1) / 2
            auc = below / (total_pos * total_neg or 1.0)
        else:
            auc = dot(np.where(lab, w, 0.0), placed) / (total_pos or 1.0)
        np.subtract(total_pos, cum, out=cum)  # a negative's positives above it
        cum /= total_pos or 1.0
    else:
        first = np.ones(n, dtype=bool)  # each tie group's first row
        np.logical_not(tied, out=first[1:])
        starts = np.flatnonzero(first)
        del first
        ends = np.append(starts[1:] - 1, n - 1)
        size = np.diff(np.append(starts, n))
        pos_end, neg_end = cum[ends], placed[ends]
        pos_before = np.concatenate(([0.0], pos_end[:-1]))
        neg_before = np.concatenate(([0.0], neg_end[:-1]))
        # Below the group, plus half of those tied within it.
        v10 = (neg_before + neg_end) / (2 * (total_neg or 1.0))
        v01 = (2 * total_pos - pos_before - pos_end) / (2 * (total_pos or 1.0))
        auc = dot(pos_end - pos_before, v10) / (total_pos or 1.0)
        placed[:] = np.repeat(v10, size)
        cum[:] = np.repeat(v01, size)
    np.copyto(placed, cum, where=other)  # positives' v10, negatives' v01
    return _Placed(order, placed, lab, w, total_pos, total_neg, auc)


def placements(
    scores: FloatArray, labels: npt.NDArray[np.bool_], weights: FloatArray | None
) -> tuple[FloatArray, FloatArray]:
    """Each positive's placement (the weighted share of negatives scored below it, a
    tie counting one half) and each negative's (the share of positives above it),
    in row order among the positives and among the negatives. O(n log n): one sort
    (see ``_sort_order``), then passes in sorted order; the only random accesses are
    the labels read in that order and the placements written back."""
    labels = np.asarray(labels, dtype=bool)
    w = None if weights is None else np.asarray(weights, dtype=np.float64)
    p = _placed(np.asarray(scores, dtype=np.float64), labels, w)
    back = np.empty(labels.shape[0])
    back[p.order] = p.placed
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
    p: PValue
    #: False for two independent samples (groups of different examples).
    paired: bool = True
    #: The test's alternative: two-sided, greater (a's AUC above b's) or less.
    alternative: str = "two-sided"
    #: Unpaired: the Welch–Satterthwaite degrees of freedom of Student's t (pROC's).
    df: float | None = None
    #: DeLong's variance of each AUC and their covariance (0 for different examples),
    #: as pROC's ``var`` and ``cov`` give them.
    var_a: float | None = None
    var_b: float | None = None
    cov: float | None = None

    @property
    def method(self) -> str:
        return "paired DeLong" if self.paired else "unpaired DeLong"

    @property
    def z_reason(self) -> str | None:
        """Why there is no z: the difference and its SE are both 0 (identical curves),
        or the SE alone is (no spread to test against)."""
        if self.z is not None:
            return None
        if self.difference == 0:
            return "the two curves place every example alike: the difference and its SE are 0"
        return "the SE is 0 but the AUCs differ"

    @property
    def p_value(self) -> float:
        return self.p.value


def unpaired_delong(
    a: Sweep,
    b: Sweep,
    confidence: float = CONFIDENCE,
    alternative: str = "two-sided",
    rows: tuple[float, float] | None = None,
) -> tuple[PairedDeLong | None, str | None]:
    """DeLong's test of two ROC AUCs from different examples (two groups, two
    slices): independent, so the difference's variance is the sum of the two
    AUCs' DeLong variances, and D = (AUC_a − AUC_b)/√(Var_a + Var_b) is read against
    Student's t with pROC's Welch–Satterthwaite degrees of freedom
    (Var_a + Var_b)² / (Var_a²/(n_a − 1) + Var_b²/(n_b − 1)), n each set's rows
    (``rows``; by default each sweep's positives and negatives: its rows, or with
    aggregated counts the examples they count)."""
    auc_a, se_a, why_a = delong_se(a)
    auc_b, se_b, why_b = delong_se(b)
    if auc_a is None or se_a is None or auc_b is None or se_b is None:
        return None, why_a or why_b
    n_a, n_b = (
        rows
        if rows is not None
        else (float(a.positives + a.negatives), float(b.positives + b.negatives))
    )
    diff = auc_a - auc_b
    var_a, var_b = se_a * se_a, se_b * se_b
    se = math.sqrt(var_a + var_b)
    zc = z_for(confidence)
    interval = Interval(diff - zc * se, diff + zc * se, "delong", confidence)
    if se == 0:
        return PairedDeLong(
            auc_a,
            auc_b,
            diff,
            0.0,
            interval,
            None,
            ONE if diff == 0 else ZERO,
            paired=False,
            alternative=alternative,
            var_a=var_a,
            var_b=var_b,
            cov=0.0,
        ), None
    df = (var_a + var_b) ** 2 / (var_a**2 / (n_a - 1) + var_b**2 / (n_b - 1))
    d = diff / se
    return PairedDeLong(
        auc_a,
        auc_b,
        diff,
        se,
        interval,
        d,
        student_t_p(d, df, alternative),
        paired=False,
        alternative=alternative,
        df=df,
        var_a=var_a,
        var_b=var_b,
        cov=0.0,
    ), None


def _squares(
    placed: FloatArray,
    auc: float,
    labels: npt.NDArray[np.bool_],
    weights: FloatArray | None,
) -> tuple[float, float]:
    """The positives' and the negatives' sums of squared components about ``auc``
    (weighted), a block at a time."""
    pos_sum = neg_sum = 0.0
    for s in blocks(0, placed.shape[0]):
        c = placed[s] - auc
        lab = labels[s]
        sq = c * c if weights is None else weights[s] * c * c
        total = float(sq.sum())
        p = float(sq[lab].sum())
        pos_sum += p
        neg_sum += total - p
    return pos_sum, neg_sum


def paired_delong(
    a: FloatArray,
    b: FloatArray,
    labels: npt.NDArray[np.bool_],
    weights: FloatArray | None = None,
    confidence: float = CONFIDENCE,
    alternative: str = "two-sided",
) -> tuple[PairedDeLong | None, str | None]:
    """DeLong's test of two correlated ROC AUCs: the structural components of both
    models on the same examples, their covariance, and the difference's normal test.

    Each model's placements are found in its own sorted order; model a's are written
    to row order and read back in model b's, where each row's two are paired."""
    labels = np.asarray(labels, dtype=bool)
    w = None if weights is None else np.asarray(weights, dtype=np.float64)
    if w is not None and not bool(np.all(w == np.floor(w))):
        return None, NOT_WHOLE
    if w is None:
        pos = float(np.count_nonzero(labels))
        neg = float(labels.shape[0]) - pos
    else:
        pos, neg = float(w[labels].sum()), float(w[~labels].sum())
    if pos < 2 or neg < 2:
        return None, "DeLong's test needs at least two actual positives and two negatives"
    scratch = _Scratch(labels.shape[0])
    pa = _placed(np.asarray(a, dtype=np.float64), labels, w, scratch)
    auc_a = pa.auc
    in_rows = np.empty(labels.shape[0])
    in_rows[pa.order] = pa.placed
    del pa
    pb = _placed(np.asarray(b, dtype=np.float64), labels, w, scratch)
    auc_b = pb.auc
    diff = auc_a - auc_b
    # Each row's (a − AUC a) − (b − AUC b), in b's order: the positives' apart, then
    # the negatives'.
    d = np.take(in_rows, pb.order, out=scratch.key.view(np.float64), mode="clip")
    del in_rows
    # Each model's own components about its AUC, for its variance (and, with the
    # difference's, the covariance: cov = (var_a + var_b − var_diff)/2).
    sq_a = _squares(d, auc_a, pb.labels, pb.weights)
    sq_b = _squares(pb.placed, auc_b, pb.labels, pb.weights)
    d -= pb.placed
    d -= diff
    d_pos = np.multiply(d, pb.labels, out=pb.placed)
    d_neg = np.subtract(d, d_pos, out=d)
    if pb.weights is None:
        s10, s01 = dot(d_pos, d_pos), dot(d_neg, d_neg)
    else:
        s10 = dot(pb.weights * d_pos, d_pos)
        s01 = dot(pb.weights * d_neg, d_neg)
    # The variance of the difference, from the components' (co)variances.
    s10 /= pos - 1
    s01 /= neg - 1
    var = max(s10 / pos + s01 / neg, 0.0)
    var_a = sq_a[0] / (pos - 1) / pos + sq_a[1] / (neg - 1) / neg
    var_b = sq_b[0] / (pos - 1) / pos + sq_b[1] / (neg - 1) / neg
    cov = (var_a + var_b - (s10 / pos + s01 / neg)) / 2
    se = math.sqrt(var)
    zc = z_for(confidence)
    interval = Interval(diff - zc * se, diff + zc * se, "delong", confidence)
    if se == 0:  # the models place every example alike: no spread to test against
        return PairedDeLong(
            auc_a,
            auc_b,
            diff,
            0.0,
            interval,
            None,
            ONE if diff == 0 else ZERO,
            alternative=alternative,
            var_a=var_a,
            var_b=var_b,
            cov=cov,
        ), None
    z = diff / se
    return PairedDeLong(
        auc_a,
        auc_b,
        diff,
        se,
        interval,
        z,
        normal_p(z, alternative),
        alternative=alternative,
        var_a=var_a,
        var_b=var_b,
        cov=cov,
    ), None


@dataclass(frozen=True)
class McNemar:
    """At a threshold each: ``b`` examples model a decides correctly and b does not,
    ``c`` the other way round, the exact p-value, and how many they decide apart."""

    b: int
    c: int
    p: PValue
    decided_differently: int
    #: two-sided, greater (a right more often than b) or less.
    alternative: str = "two-sided"

    @property
    def p_value(self) -> float:
        return self.p.value


def mcnemar(
    pred_a: npt.NDArray[np.bool_],
    pred_b: npt.NDArray[np.bool_],
    labels: npt.NDArray[np.bool_],
    weights: FloatArray | None = None,
    alternative: str = "two-sided",
) -> tuple[McNemar | None, str | None]:
    """McNemar's exact test of two models' decisions on the same examples."""
    w = np.ones(labels.shape[0]) if weights is None else np.asarray(weights, dtype=np.float64)
    if not bool(np.all(w == np.floor(w))):
        return None, NOT_WHOLE
    right_a, right_b = pred_a == labels, pred_b == labels
    b = round(float(w[right_a & ~right_b].sum()))
    c = round(float(w[~right_a & right_b].sum()))
    apart = round(float(w[pred_a != pred_b].sum()))
    return McNemar(b, c, binomial_p(b, c, alternative), apart, alternative), None


def _strata(
    a: Dataset,
) -> tuple[FloatArray, npt.NDArray[np.intp], npt.NDArray[np.intp]] | str:
    """What a paired stratified bootstrap draws from: each row's weight (whole: its
    examples) and the rows of weight of each class; or why it cannot be drawn."""
    if a.weights is not None and not bool(np.all(a.weights == np.floor(a.weights))):
        return NOT_WHOLE
    labels = a.labels
    w = np.ones(a.n) if a.weights is None else a.weights
    pos_rows, neg_rows = np.flatnonzero(labels & (w > 0)), np.flatnonzero(~labels & (w > 0))
    if pos_rows.size == 0 or neg_rows.size == 0:
        return "a paired bootstrap needs actual positives and negatives"
    return w, pos_rows, neg_rows


#: The method's name of a test over resamples of different examples.
UNPAIRED = "unpaired bootstrap"


@dataclass(frozen=True)
class BootstrapTest:
    """pROC's bootstrap test of two AUCs (``roc.test(method = "bootstrap")``):
    D = (AUC_a − AUC_b)/sd of the replicates' differences (sd with n − 1), its p-value
    from the standard normal, over the paired replicates that also give the AP
    difference's interval."""

    statistic: float | None
    p: PValue | None
    alternative: str
    replicates: int
    seed: int
    reason: str | None = None
    method: str = "paired bootstrap"

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "method": self.method,
            "statistic": self.statistic,
            "alternative": self.alternative,
            "replicates": self.replicates,
            "seed": self.seed,
        }
        if self.p is not None:
            out.update(self.p.as_json())
        else:
            out.update({"p_value": None, "p_value_log10": None, "reason": self.reason})
        return out

    def text(self) -> str:
        if self.statistic is None or self.p is None:
            return f"no bootstrap test ({self.reason})"
        return (
            f"bootstrap test D = {self.statistic:.4g}, {self.p.text()} (B = "
            f"{self.replicates}, seed {self.seed})"
        )


def _replicate_auc(g: Groups, r: Replicate) -> float:
    """A replicate's ROC AUC from its per-group counts: each positive against the
    negatives of the groups below its own, a tie counting one half."""
    pos = np.zeros(g.size)
    neg = np.zeros(g.size)
    pos[g.pos_at] = r.pos
    neg[g.neg_at] = r.neg
    below = neg.sum() - np.cumsum(neg)  # the negatives in the groups below each group
    return float((dot(pos, below) + 0.5 * dot(pos, neg)) / (pos.sum() * neg.sum()))


def paired_draws(
    a: Dataset, b: Dataset, replicates: int, seed: int
) -> Iterator[tuple[tuple[Groups, Replicate], tuple[Groups, Replicate]]] | str:
    """The replicates of a paired stratified bootstrap: in each, the same examples
    (positives and negatives drawn apart, a whole weight counting as that many
    examples) counted per tie group of each model; or why there can be none."""
    strata = _strata(a)
    if isinstance(strata, str):
        return strata
    w, pos_rows, neg_rows = strata
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

    def each() -> Iterator[tuple[tuple[Groups, Replicate], tuple[Groups, Replicate]]]:
        rng = np.random.default_rng(seed)
        for _ in range(replicates):
            drawn_pos = np.searchsorted(pos_cum, rng.integers(0, n_pos, n_pos), side="right")
            drawn_neg = np.searchsorted(neg_cum, rng.integers(0, n_neg, n_neg), side="right")
            one, two = (
                (
                    g,
                    Replicate(
                        np.bincount(pos_group[drawn_pos], minlength=g.pos.size).astype(np.int64),
                        np.bincount(neg_group[drawn_neg], minlength=g.neg.size).astype(np.int64),
                    ),
                )
                for g, pos_group, neg_group in models
            )
            yield one, two

    return each()


@dataclass(frozen=True)
class RateTest:
    """pROC's bootstrap test of two models' sensitivities at one specificity (or
    specificities at one sensitivity), each read on its ROC line (``roc.test(method =
    "specificity" | "sensitivity")``): the rates, their difference, and the test of
    the difference over the replicates' sd."""

    rate: str
    given: str
    at: float
    values: tuple[Metric, Metric]
    test: BootstrapTest
    #: Replicates where a model's rate was undefined, left out (as pROC does).
    dropped: int = 0

    @property
    def difference(self) -> float | None:
        return _difference(self.values)

    def as_json(self) -> dict[str, Any]:
        return {f"at_{self.given}": self.at, **_tested(self.values, self.test, self.dropped)}

    def text(self, a: str, b: str) -> str:
        shown = " − ".join(m.value_or_reason() for m in self.values)
        return (
            f"{self.rate.capitalize()} at {self.given} {self.at:g}, {a} − {b}: {shown}; "
            f"{self.test.text()}"
        )


def _difference(values: tuple[Metric, Metric]) -> float | None:
    a, b = values
    return None if a.value is None or b.value is None else a.value - b.value


def _tested(values: tuple[Metric, Metric], test: BootstrapTest, dropped: int) -> dict[str, Any]:
    """A tested difference's JSON fields: each model's value, the difference, the
    test, and the replicates left out."""
    return {
        "values": [m.as_json() for m in values],
        "difference": _difference(values),
        "bootstrap": test.as_json(),
        "replicates_dropped": dropped,
    }


def rate_test(
    given: Given,
    at: float,
    values: tuple[Metric, Metric],
    sweeps: tuple[Sweep, Sweep],
    drawn: Iterator[tuple[tuple[Groups, Replicate], tuple[Groups, Replicate]]] | str,
    *,
    replicates: int,
    seed: int,
    alternative: str,
    method: str,
) -> RateTest:
    """The rate test at one coordinate over replicates ``drawn`` (pairs of each
    model's replicate, paired or not; a text: why there are none)."""
    (rate,) = READS[given]
    read = reader(given, at)  # the rate as a float, NaN where undefined
    test, dropped = resampled_test(
        lambda s: read(s)[0],
        values,
        sweeps,
        drawn,
        replicates=replicates,
        seed=seed,
        alternative=alternative,
        method=method,
    )
    return RateTest(rate, given, at, values, test, dropped)


def resampled_test(
    read: Callable[[Sweep], float],
    values: tuple[Metric, Metric],
    sweeps: tuple[Sweep, Sweep],
    drawn: Iterator[tuple[tuple[Groups, Replicate], tuple[Groups, Replicate]]] | str,
    *,
    replicates: int,
    seed: int,
    alternative: str,
    method: str,
) -> tuple[BootstrapTest, int]:
    """pROC's bootstrap test of the difference of a number ``read`` off each model's
    curve (``values`` on the rows themselves), over replicates ``drawn``: D = the
    difference over the sd of the replicates' differences, replicates where either is
    undefined left out (how many, beside)."""
    if isinstance(drawn, str):
        return BootstrapTest(None, None, alternative, replicates, seed, drawn, method), 0
    if values[0].value is None or values[1].value is None:
        why = values[0].reason or values[1].reason or "a value is undefined"
        return BootstrapTest(None, None, alternative, replicates, seed, why, method), 0
    diffs = np.empty(replicates)
    for i, ((ga, ra), (gb, rb)) in enumerate(drawn):
        diffs[i] = read(replicate_sweep(sweeps[0], ga, ra)) - read(
            replicate_sweep(sweeps[1], gb, rb)
        )
    kept = diffs[np.isfinite(diffs)]
    dropped = int(replicates - kept.shape[0])
    if kept.shape[0] >= 2 and float(np.std(kept, ddof=1)) == 0:
        # D is 0/0: pROC's NaN (its AUC test alone calls equal AUCs D = 0).
        why = "every replicate's difference was the same, so D is 0/0"
        return BootstrapTest(None, None, alternative, replicates, seed, why, method), dropped
    observed = float(values[0].value) - float(values[1].value)
    test = _auc_test(observed, kept, alternative, replicates, seed)
    return dataclasses.replace(test, method=method), dropped


@dataclass(frozen=True)
class AreaTest:
    """pROC's bootstrap test of two partial AUCs over one region (``roc.test(method =
    "bootstrap")`` of curves with ``partial.auc``): the areas, their difference, the
    test."""

    focus: str
    low: float
    high: float
    values: tuple[Metric, Metric]
    test: BootstrapTest
    dropped: int = 0

    def as_json(self) -> dict[str, Any]:
        region = {"focus": self.focus, "low": self.low, "high": self.high}
        return {**region, **_tested(self.values, self.test, self.dropped)}

    def text(self, a: str, b: str) -> str:
        shown = " − ".join(m.value_or_reason() for m in self.values)
        region = f"{self.focus.upper()} {self.low:g} to {self.high:g}"
        return f"Partial AUC ({region}), {a} − {b}: {shown}; {self.test.text()}"


def unpaired_draws(
    a: Sweep, b: Sweep, replicates: int, seed: int
) -> Iterator[tuple[tuple[Groups, Replicate], tuple[Groups, Replicate]]] | str:
    """The replicates of an unpaired stratified bootstrap: each model's positives and
    negatives resampled apart, a's then b's (as :func:`unpaired_auc_bootstrap`)."""
    for sweep in (a, b):
        why = unavailable(sweep)
        if why is not None:
            return why
    ga, gb = groups_of(a), groups_of(b)

    def each() -> Iterator[tuple[tuple[Groups, Replicate], tuple[Groups, Replicate]]]:
        rng = np.random.default_rng(seed)
        for _ in range(replicates):
            ra = Replicate(draw(rng, ga.pos, ga.positives), draw(rng, ga.neg, ga.negatives))
            rb = Replicate(draw(rng, gb.pos, gb.positives), draw(rng, gb.neg, gb.negatives))
            yield (ga, ra), (gb, rb)

    return each()


def paired_ap_bootstrap(
    a: Dataset,
    b: Dataset,
    *,
    replicates: int,
    seed: int,
    confidence: float = CONFIDENCE,
    alternative: str = "two-sided",
    auc_difference: float | None = None,
) -> tuple[Interval | None, str | None, BootstrapTest | None]:
    """A percentile interval of AP(a) − AP(b) from a paired stratified bootstrap: the
    same resampled examples (positives and negatives drawn separately) scored by both
    models in every replicate; and, from the same replicates, pROC's bootstrap test of
    the AUC difference ``auc_difference`` (:class:`BootstrapTest`)."""

    drawn = paired_draws(a, b, replicates, seed)
    if isinstance(drawn, str):
        test = None
        if auc_difference is not None:
            test = BootstrapTest(None, None, alternative, replicates, seed, drawn)
        return None, drawn, test
    diffs = np.empty(replicates)
    auc_diffs = np.empty(replicates)
    for i, pair in enumerate(drawn):
        aps, aucs = [], []
        for g, r in pair:
            aps.append(replicate_summaries(g, r)[0])
            aucs.append(_replicate_auc(g, r) if auc_difference is not None else 0.0)
        diffs[i] = aps[0] - aps[1]
        auc_diffs[i] = aucs[0] - aucs[1]
    lo, hi = np.quantile(diffs, [(1 - confidence) / 2, (1 + confidence) / 2])
    same = same_value_words(diffs, confidence, 0) if lo == hi else None
    test = None
    if auc_difference is not None:
        test = _auc_test(auc_difference, auc_diffs, alternative, replicates, seed)
    return (
        Interval(
            float(lo),
            float(hi),
            "bootstrap",
            confidence,
            replicates=replicates,
            seed=seed,
            same=same,
        ),
        None,
        test,
    )


def unpaired_auc_bootstrap(
    a: Sweep,
    b: Sweep,
    auc_difference: float,
    *,
    replicates: int,
    seed: int,
    alternative: str = "two-sided",
) -> BootstrapTest:
    """pROC's bootstrap test of two AUCs of different examples (``roc.test(method =
    "bootstrap", paired = FALSE)``): each model's positives and negatives resampled
    apart, a's then b's in each replicate, D over the sd of the replicates' differences."""
    drawn = unpaired_draws(a, b, replicates, seed)
    if isinstance(drawn, str):
        return BootstrapTest(None, None, alternative, replicates, seed, drawn, UNPAIRED)
    diffs = np.empty(replicates)
    for i, ((ga, ra), (gb, rb)) in enumerate(drawn):
        diffs[i] = _replicate_auc(ga, ra) - _replicate_auc(gb, rb)
    test = _auc_test(auc_difference, diffs, alternative, replicates, seed)
    return dataclasses.replace(test, method=UNPAIRED)


def _auc_test(
    difference: float, diffs: FloatArray, alternative: str, replicates: int, seed: int
) -> BootstrapTest:
    """D = difference / sd(diffs) (sd with n − 1, as R's); no spread at all: D is 0 when
    the difference is 0, as pROC's, else there is no test."""
    if replicates < 2:
        return BootstrapTest(None, None, alternative, replicates, seed, "one replicate")
    sd = float(np.std(diffs, ddof=1))
    if sd == 0:
        if difference == 0:
            return BootstrapTest(0.0, normal_p(0.0, alternative), alternative, replicates, seed)
        why = "every replicate's difference was the same"
        return BootstrapTest(None, None, alternative, replicates, seed, why)
    d = difference / sd
    return BootstrapTest(d, normal_p(d, alternative), alternative, replicates, seed)


def _cells(
    bins: tuple[npt.NDArray[np.intp], npt.NDArray[np.intp]],
    rows: npt.NDArray[np.intp],
    w: FloatArray,
    width: int,
) -> tuple[npt.NDArray[np.intp], npt.NDArray[np.intp], FloatArray, int]:
    """The rows of one class grouped by where each model's score falls among the pt
    (two rows in one cell are acted on at the same pt by both models, so a resample
    needs only how many it draws from each cell): each cell's bin under a and under b,
    its share of the class's examples, and how many examples the class has."""
    cell = bins[0][rows] * width + bins[1][rows]
    found, inverse = np.unique(cell, return_inverse=True)
    mass = np.bincount(inverse, weights=w[rows])
    total = round(float(mass.sum()))
    return found // width, found % width, mass / mass.sum(), total


def paired_net_benefit_bootstrap(
    a: Dataset,
    b: Dataset,
    pts: FloatArray,
    weights: tuple[float, float],
    *,
    replicates: int,
    seed: int,
    confidence: float = CONFIDENCE,
) -> tuple[list[Interval] | None, str | None]:
    """Percentile intervals of NB(a) − NB(b) at each threshold probability ``pts``,
    from a paired stratified bootstrap: the same resampled examples scored by both
    models, positives and negatives drawn apart (with whole weights, among the
    expanded examples), as :func:`paired_ap_bootstrap` draws them. ``weights``: what a
    positive and a negative count weigh in net benefit (1/n each, or at a given
    prevalence P/Pos and (1 − P)/Neg: fixed, as the strata's sizes are); the harm is
    the same for both models and cancels.

    A row enters a replicate's net benefit only through the pt at which each model
    acts on it, so the rows are grouped into cells of (a's bin, b's bin) once, and
    each replicate draws its examples' counts per cell from the multinomial that
    drawing rows with replacement gives: O(cells) a replicate, not O(rows) (10^6
    rows fall in a few thousand cells of 99 pt)."""
    strata = _strata(a)
    if isinstance(strata, str):
        return None, strata
    w, pos_rows, neg_rows = strata
    g = pts.shape[0]
    # Each row's count of grid pts at or below its score: a model acts on it at pt j
    # iff j is below that count (pts ascending).
    bins = (
        np.searchsorted(pts, a.scores, side="right"),
        np.searchsorted(pts, b.scores, side="right"),
    )
    pos = _cells(bins, pos_rows, w, g + 1)
    neg = _cells(bins, neg_rows, w, g + 1)
    odds = pts / (1.0 - pts)
    wa, wb = weights
    rng = np.random.default_rng(seed)
    diffs = np.empty((replicates, g))

    def acted(bin_of: npt.NDArray[np.intp], counts: FloatArray) -> FloatArray:
        at = np.bincount(bin_of, weights=counts, minlength=g + 1)
        out: FloatArray = np.cumsum(at[::-1], dtype=np.float64)[::-1][1:]  # acted on at each pt
        return out

    for i in range(replicates):
        drawn_pos = rng.multinomial(pos[3], pos[2]).astype(np.float64)
        drawn_neg = rng.multinomial(neg[3], neg[2]).astype(np.float64)
        tp = acted(pos[0], drawn_pos) - acted(pos[1], drawn_pos)
        fp = acted(neg[0], drawn_neg) - acted(neg[1], drawn_neg)
        diffs[i] = wa * tp - wb * fp * odds
    lo, hi = np.quantile(diffs, [(1 - confidence) / 2, (1 + confidence) / 2], axis=0)
    return [
        Interval(
            float(x),
            float(y),
            "bootstrap",
            confidence,
            replicates=replicates,
            seed=seed,
            same=same_value_words(diffs[:, k], confidence, 0) if x == y else None,
        )
        for k, (x, y) in enumerate(zip(lo.tolist(), hi.tolist(), strict=True))
    ], None
