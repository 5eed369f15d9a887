"""The runner-up of a ratio objective over per-group thresholds: the best feasible
choice whose ratio N/D comes next after the best's.

The best ratio r* = N*/D* is known (Dinkelbach's iteration found it). With the counts
whole and the coefficients scaled to whole numbers, W = D*·N − N*·D is a sum of one
term a group plus a constant; it is 0 at every choice reaching r*, and below 0 at
every other choice with a ratio (D > 0). So, low end by low end (each a product of
the groups' runs of points): where the runs' largest W sum below 0, every choice there
is another than the best's; where they sum to 0, a choice is another exactly when at
least one group stands off its run's largest W.

Over just those choices Dinkelbach's iteration runs again: maximise V = q·N − p·D
(λ = p/q) with each group at the best V of its run, or, at a low end holding best
choices, one group moved to the best V among its run's points off the largest W (the
group that gives up least); set λ to the ratio reached; repeat until nothing beats λ.
It starts at the best ratio among choices already at hand that fall short of the
best's (Dinkelbach's own earlier steps, the best at another low end), or else below
every ratio (λ = −1; 2 for a goal that minimises, every ratio here lying in [0, 1]),
where a choice with nothing to divide (D = 0, and then N = 0) can never win. A run's
largest W, best V, and best V off the largest W come from one sparse table whose
merge is associative and idempotent (overlapping halves are fine).

Everything is in int64, exact; counts too large for that, or weights that are not
whole, are said rather than rounded.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction

import numpy as np
import numpy.typing as npt

Int64 = npt.NDArray[np.int64]
IntArray = npt.NDArray[np.intp]
#: Each group's run for each low end: (from, to) positions in that group's order.
Batch = Sequence[tuple[IntArray, IntArray]]

_LIMIT = 2**62
_NONE = np.iinfo(np.int64).min


class _Runs:
    """Over one group's positions: for a range, the largest ``w``, the position of the
    best ``v`` (ties: the smallest key), and of the best ``v`` among positions whose
    ``w`` is below the largest (-1: none)."""

    def __init__(self, w: Int64, v: Int64, keys: IntArray) -> None:
        m = w.shape[0]
        self.by_rank = np.lexsort((keys, -v))
        rank = np.empty(m, dtype=np.int64)
        rank[self.by_rank] = np.arange(m)
        self.m = m
        self.levels = [(w, rank, np.full(m, m, dtype=np.int64))]
        j = 1
        while (1 << j) <= m:
            pw, pa, pb = self.levels[-1]
            half, n = 1 << (j - 1), m - (1 << j) + 1
            self.levels.append(
                _merge(
                    (pw[:n], pa[:n], pb[:n]),
                    (pw[half : half + n], pa[half : half + n], pb[half : half + n]),
                )
            )
            j += 1

    def query(self, lo: IntArray, hi: IntArray) -> tuple[Int64, IntArray, IntArray]:
        j = np.floor(np.log2(np.maximum(hi - lo, 1))).astype(np.intp)
        w = np.empty(lo.shape, dtype=np.int64)
        a = np.empty(lo.shape, dtype=np.int64)
        b = np.empty(lo.shape, dtype=np.int64)
        for level in np.unique(j).tolist():
            sel = np.flatnonzero(j == level)
            tw, ta, tb = self.levels[level]
            x, y = lo[sel], hi[sel] - (1 << level)
            w[sel], a[sel], b[sel] = _merge((tw[x], ta[x], tb[x]), (tw[y], ta[y], tb[y]))
        found = b < self.m
        below = np.where(found, self.by_rank[np.where(found, b, 0)], -1)
        return w, self.by_rank[a], below


def _merge(
    one: tuple[Int64, Int64, Int64], two: tuple[Int64, Int64, Int64]
) -> tuple[Int64, Int64, Int64]:
    """Two ranges' (largest w, best rank, best rank below the largest w), merged: a range
    whose largest w is below the merged one's offers its best rank as below it."""
    w1, a1, b1 = one
    w2, a2, b2 = two
    w = np.maximum(w1, w2)
    below = np.minimum(np.where(w1 == w, b1, a1), np.where(w2 == w, b2, a2))
    return w, np.minimum(a1, a2), below


def _whole(coefficients: Sequence[Fraction]) -> tuple[list[int], int]:
    scale = math.lcm(*(c.denominator for c in coefficients))
    return [int(c * scale) for c in coefficients], scale


def next_ratio(
    tp: Sequence[Int64],
    fp: Sequence[Int64],
    num: tuple[Fraction, Fraction, Fraction],
    den: tuple[Fraction, Fraction, Fraction],
    sign: int,
    best: Sequence[int],
    orders: Sequence[IntArray],
    batches: Callable[[], Iterable[Batch]],
    known: Sequence[Sequence[int]] = (),
) -> tuple[IntArray, Fraction] | str | None:
    """The runner-up's points (one a group, sweep points) and its ratio; None when no
    other feasible choice has a ratio; a sentence when it cannot be searched exactly.

    ``tp``, ``fp``: each group's whole counts at its sweep points; the objective is
    (a·TP + b·FP + c) / (d·TP + e·FP + f) over the pooled counts, with ``num`` = (a,
    b, c) and ``den`` = (d, e, f), maximised after ``sign``; ``best``: the best
    choice's points; ``orders``: each group's positions -> sweep points, and
    ``batches`` the runs of every low end, in order, as positions in those orders;
    ``known``: feasible choices already at hand, the best of those below the best's
    ratio a start for the iteration (fewer steps; the last step proves it either way)."""
    (a, b, c, d, e, f), _ = _whole([*num, *den])
    n_g = [a * t + b * x for t, x in zip(tp, fp, strict=True)]
    d_g = [d * t + e * x for t, x in zip(tp, fp, strict=True)]
    top_n = sum(int(n[k]) for n, k in zip(n_g, best, strict=True)) + c
    top_d = sum(int(x[k]) for x, k in zip(d_g, best, strict=True)) + f
    size = max(1, *(int(np.abs(x).max(initial=0)) for x in [*n_g, *d_g]))

    def linear(p: int, q: int) -> tuple[list[Int64], int] | None:
        """sign·(q·N − p·D) a group, and its constant; None past int64."""
        if (abs(p) + abs(q)) * size * (len(n_g) + 1) + abs(q * c) + abs(p * f) >= _LIMIT:
            return None
        terms = [sign * (q * n - p * x) for n, x in zip(n_g, d_g, strict=True)]
        return terms, sign * (q * c - p * f)

    at_best = linear(top_n, top_d)
    too_large = "the counts are too large to compare its ratios exactly in 64 bits"
    if at_best is None:
        return too_large
    w, w0 = at_best
    p, q = (-1, 1) if sign > 0 else (2, 1)
    found: tuple[IntArray, Fraction] | None = None
    top = Fraction(top_n, top_d)
    for choice in known:
        kn = sum(int(x[k]) for x, k in zip(n_g, choice, strict=True)) + c
        kd = sum(int(x[k]) for x, k in zip(d_g, choice, strict=True)) + f
        if kd <= 0:
            continue
        better = found is None or sign * Fraction(kn, kd) > sign * found[1]
        if sign * Fraction(kn, kd) < sign * top and better:
            found = (np.asarray(choice, dtype=np.intp), Fraction(kn, kd))
    if found is not None:
        p, q = found[1].numerator, found[1].denominator
    for _ in range(100):
        step = linear(p, q)
        if step is None:
            return too_large
        v, v0 = step
        tables = [
            _Runs(wg[order], vg[order], order) for wg, vg, order in zip(w, v, orders, strict=True)
        ]
        pick = _best_other(tables, orders, v, w0, batches())
        if pick is None:
            break
        points, value = pick
        if value + v0 <= 0:
            break  # nothing beats λ: the last ratio reached is the next one
        pn = sum(int(x[k]) for x, k in zip(n_g, points, strict=True)) + c
        pd = sum(int(x[k]) for x, k in zip(d_g, points, strict=True)) + f
        assert pd > 0  # V > 0 at a choice with D = 0 would need N != 0
        found = (points, Fraction(pn, pd))
        g = math.gcd(pn, pd)
        p, q = pn // g, pd // g
    else:
        return "Dinkelbach's iteration for its next value did not settle in 100 steps"
    return found


def _best_other(
    tables: Sequence[_Runs],
    orders: Sequence[IntArray],
    v: Sequence[Int64],
    w0: int,
    batches: Iterable[Batch],
) -> tuple[IntArray, int] | None:
    """The choice with the largest V (without its constant) among those other than the
    best's, over every low end (the first among equals), or None when there is none."""
    out: tuple[IntArray, int] | None = None
    for batch in batches:
        if batch[0][0].shape[0] == 0:
            continue
        windows = batch[0][0].shape[0]
        wsum = np.full(windows, w0, dtype=np.int64)
        vsum = np.zeros(windows, dtype=np.int64)
        gain = np.full(windows, _NONE, dtype=np.int64)
        mover = np.zeros(windows, dtype=np.intp)
        moved = np.full(windows, -1, dtype=np.intp)
        picks = []
        for g, (table, order, vg, (lo, hi)) in enumerate(
            zip(tables, orders, v, batch, strict=True)
        ):
            wg, at, off = table.query(lo, hi)
            point = order[at]
            wsum += wg
            vsum += vg[point]
            there = off >= 0
            other = order[np.where(there, off, 0)]
            lose = np.where(there, vg[other] - vg[point], _NONE)
            more = lose > gain  # strictly: the first group keeps a tie
            gain = np.where(more, lose, gain)
            mover[more] = g
            moved[more] = other[more]
            picks.append(point)
        holds_best = wsum >= 0
        offer = np.where(holds_best, np.where(gain > _NONE, vsum + gain, _NONE), vsum)
        ok = offer > _NONE
        if not ok.any():
            continue
        i = int(np.argmax(np.where(ok, offer, _NONE)))
        if out is not None and offer[i] <= out[1]:
            continue
        points = np.array([pk[i] for pk in picks], dtype=np.intp)
        if holds_best[i]:
            points[mover[i]] = moved[i]
        out = (points, int(offer[i]))
    return out
