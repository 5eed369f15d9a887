"""Venkatraman's permutation test that two ROC curves of the same examples are the same
(Venkatraman 2000), as pROC's ``roc.test(method = "venkatraman")`` computes it.

Each model's scores become ranks 1..n (ties in row order, R's ``ties.method =
"first"``). At each rank x the errors of the rule "positive above x" are counted: the
positives at or below x (missed) plus the negatives above x (false alarms). The statistic
E is the sum over x of the absolute difference between the two models' error counts.
A permutation jitters each model's ranks by a uniform amount in (−1/2, 1/2), swaps the
two models' ranks for each example with probability 1/2 (the swapped-in rank unjittered,
as pROC does), ranks again, and counts E again; the p-value is the share of permutations
whose E is at least the observed one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.intervals.pvalues import PValue

FloatArray = npt.NDArray[np.float64]
#: pROC's default number of permutations (its ``boot.n``).
PERMUTATIONS = 2000


@dataclass(frozen=True)
class Venkatraman:
    """The test's statistic E, its permutation p-value, and how it was drawn."""

    statistic: float
    p: PValue
    permutations: int
    seed: int
    paired: bool = True

    def as_json(self) -> dict[str, Any]:
        return {
            "method": f"Venkatraman's permutation test ({'paired' if self.paired else 'unpaired'})",
            "statistic": self.statistic,
            **self.p.as_json(),
            "permutations": self.permutations,
            "seed": self.seed,
        }

    def text(self) -> str:
        p = self.p.text() if self.p.value > 0 else f"p < 1/{self.permutations} (none reached E)"
        return (
            f"Venkatraman's test that the curves are the same: E = {self.statistic:g}, "
            f"{p} ({self.permutations} permutations, seed {self.seed})"
        )


def ranks(x: FloatArray) -> FloatArray:
    """Ranks 1..n, ties in row order (R's ``rank(x, ties.method = "first")``).

    >>> ranks(np.array([0.5, 0.2, 0.5, 0.9])).tolist()
    [2.0, 1.0, 3.0, 4.0]
    """
    out = np.empty(x.size)
    out[np.argsort(x, kind="stable")] = np.arange(1, x.size + 1)
    return out


def statistic(r: FloatArray, s: FloatArray, positive: npt.NDArray[np.bool_]) -> float:
    """E: the sum over ranks x = 1..n of |errors of s at x − errors of r at x|, the
    errors being the positives ranked at or below x plus the negatives ranked above x."""

    def errors(rank: FloatArray) -> npt.NDArray[np.int64]:
        order = np.empty(rank.size, dtype=np.intp)
        order[rank.astype(np.intp) - 1] = np.arange(rank.size)
        pos_at = positive[order]  # whether the example at each rank 1..n is positive
        missed = np.cumsum(pos_at)  # positives ranked <= x
        alarms = int((~positive).sum()) - np.cumsum(~pos_at)  # negatives ranked > x
        return missed + alarms

    return float(np.abs(errors(s) - errors(r)).sum())


def venkatraman(
    a: FloatArray,
    b: FloatArray,
    positive: npt.NDArray[np.bool_],
    *,
    permutations: int = PERMUTATIONS,
    seed: int = 1,
) -> Venkatraman:
    """Venkatraman's paired test of models scoring ``a`` and ``b`` for the same examples
    (``positive`` their labels); ``permutations`` drawn from ``seed``."""
    r, s = ranks(a), ranks(b)
    e = statistic(r, s, positive)
    rng = np.random.default_rng(seed)
    n = positive.size
    at_least = 0
    for _ in range(permutations):
        r2 = r + rng.random(n) - 0.5
        s2 = s + rng.random(n) - 0.5
        keep = rng.random(n) < 0.5  # keep r's (jittered) rank, or take s's
        r3 = np.where(keep, r2, s)
        s3 = np.where(keep, s2, r)
        at_least += statistic(ranks(r3), ranks(s3), positive) >= e
    p = at_least / permutations
    return Venkatraman(e, PValue(p, math.log10(p) if p > 0 else -math.inf), permutations, seed)


def unpaired_statistic(
    r: FloatArray,
    s: FloatArray,
    pos_r: npt.NDArray[np.bool_],
    pos_s: npt.NDArray[np.bool_],
    mixing: float,
) -> float:
    """Venkatraman and Begg's unpaired E, as pROC computes it: at each rank x of each
    model, its cases' and controls' cumulative shares F and G mixed by ``mixing`` into
    p = κF + (1 − κ)G and its expected errors κF + (1 − κ)(1 − G); the two models'
    error curves are interpolated linearly over p, and the trapezoid area of their
    absolute difference taken over every p of either model (outside a curve's range: no
    area)."""

    def curve(rank: FloatArray, pos: npt.NDArray[np.bool_]) -> tuple[FloatArray, FloatArray]:
        order = np.empty(rank.size, dtype=np.intp)
        order[rank.astype(np.intp) - 1] = np.arange(rank.size)
        at = pos[order]
        f = np.cumsum(at) / max(int(pos.sum()), 1)
        g = np.cumsum(~at) / max(int((~pos).sum()), 1)
        return mixing * f + (1 - mixing) * g, mixing * f + (1 - mixing) * (1 - g)

    rp, re = _approxfun(*curve(r, pos_r))
    sp, se = _approxfun(*curve(s, pos_s))
    x = np.sort(np.concatenate([rp, sp]))
    y = np.abs(
        np.interp(x, rp, re, left=np.nan, right=np.nan)
        - np.interp(x, sp, se, left=np.nan, right=np.nan)
    )
    pieces = (y[1:] + y[:-1]) * np.diff(x) / 2
    return float(np.nansum(pieces))


def _approxfun(x: FloatArray, y: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The points R's ``approxfun`` interpolates: sorted by x, the ys of one x averaged
    (its ``ties = mean``); p need not rise when pROC's mixing proportion exceeds 1."""
    order = np.argsort(x, kind="stable")
    xs, ys = x[order], y[order]
    unique, start = np.unique(xs, return_index=True)
    sums = np.add.reduceat(ys, start)
    counts = np.diff(np.append(start, xs.size))
    return unique, sums / counts


def venkatraman_unpaired(
    a: FloatArray,
    pos_a: npt.NDArray[np.bool_],
    b: FloatArray,
    pos_b: npt.NDArray[np.bool_],
    *,
    permutations: int = PERMUTATIONS,
    seed: int = 1,
) -> Venkatraman:
    """Venkatraman and Begg's (1996) test that the ROC curves of two models scoring
    different examples are the same, as pROC computes it (its mixing proportion is the
    cases of both over twice the first model's examples, as pROC's is). A permutation
    jitters each model's ranks, pools the two models' controls (and cases), shuffles
    them, deals them back, and ranks each model again."""
    r, s = ranks(a), ranks(b)
    mixing = (int(pos_a.sum()) + int(pos_b.sum())) / (2 * a.size)
    e = unpaired_statistic(r, s, pos_a, pos_b, mixing)
    rng = np.random.default_rng(seed)
    at_least = 0
    for _ in range(permutations):
        r2 = r + rng.random(a.size) - 0.5
        s2 = s + rng.random(b.size) - 0.5
        controls = rng.permutation(np.concatenate([r2[~pos_a], s2[~pos_b]]))
        cases = rng.permutation(np.concatenate([r2[pos_a], s2[pos_b]]))
        n_rc, n_rp = int((~pos_a).sum()), int(pos_a.sum())
        r2[~pos_a], s2[~pos_b] = controls[:n_rc], controls[n_rc:]
        r2[pos_a], s2[pos_b] = cases[:n_rp], cases[n_rp:]
        at_least += unpaired_statistic(ranks(r2), ranks(s2), pos_a, pos_b, mixing) >= e
    p = at_least / permutations
    return Venkatraman(
        e, PValue(p, math.log10(p) if p > 0 else -math.inf), permutations, seed, paired=False
    )
