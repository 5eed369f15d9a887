"""Every curve-wide sum of a sweep in one pass over its tie groups.

After the sweep, a report wants the ROC area and its running sums, average precision
and the PR trapezoid, the KS gap, DeLong's two spreads, log loss, the Brier score and
the reliability bins' score sums. Each reads the same three arrays (TP, FP, the
distinct scores) and their differences; summed one summary at a time they read them
seven times over and spent more than the sweep itself at 10^7 rows. Here one pass
reads each block of tie groups once, into small reused buffers, and every sum takes
what it needs from them (:class:`TieSums`); the summaries' own modules turn the sums
into their numbers.

Only for whole counts (rows, or whole weights) with both classes, and ``2·P·N`` under
2^53: then every count, every product of two counts and every sum of them is a whole
number a double holds exactly, so the ROC area and the KS gap are exact although they
are summed in doubles (BLAS is never called on more than one block, so never on its
threads). Anything else is left to each summary's own function.

Log loss asks for a logarithm per group, the one costly step: where every group of a
block is one row, ``Σ ln v`` over 64 groups is the logarithm of their product (``v``
is the score for a positive, 1 − score for a negative), which keeps about 14 digits
where the product is at most 1/2 and does not underflow; the chunks where it is not
(very confident, or nearly certain, scores) take each logarithm on its own, as
elsewhere (``log1p`` for 1 − score), so the sum keeps its digits either way.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import blocks, dot, shifted
from threshold_lab.core.curves.pr import first_defined
from threshold_lab.core.curves.sweep import Sweep

FloatArray = npt.NDArray[np.float64]

#: Tie groups per block: each buffer (16 of them) stays in the cache from one step to
#: the next, and a block's dozen numpy calls stay cheap beside its arithmetic.
BLOCK = 1 << 15
#: Groups whose logarithms are summed as one product's.
CHUNK = 64
#: A chunk's product at most this keeps its logarithm's digits (its logarithm is at
#: least ln 2 in size, and the product's rounding is at most CHUNK units in the last place).
_FAR_FROM_ONE = 0.5
#: A product at least this never went below the normal doubles on the way (every
#: partial product of numbers at most 1 is at least the whole).
_NO_UNDERFLOW = 2.0**-1000


@dataclass(frozen=True, eq=False)
class Moments:
    """A weighted spread by block: each block's weight, weighted mean and sum of
    squared deviations from that mean (Chan's parallel form: combined about any
    centre without the cancellation of raw sums)."""

    weight: FloatArray
    mean: FloatArray
    squares: FloatArray

    def about(self, centre: float) -> float:
        """Σ w·(x − centre)² over every block."""
        d = self.mean - centre
        return float(np.sum(self.squares) + dot(self.weight, d * d))


@dataclass(frozen=True, eq=False)
class TieSums:
    """The sums one pass over a sweep's tie groups gives (group k joins points k − 1
    and k; A its positives, B its negatives, s its score).

    Attributes
    ----------
    twice_auc : int
        Σ B·(TP + TP′): twice the ROC area times P·N, exact.
    starts, before : (blocks,) int64, list of int
        Each block's first point and ``twice_auc``'s running sum before it (a partial
        AUC reads any run of segments from two of them).
    ap, trap : float
        Σ A·Pₖ and Σ A·(Pₖ + Pₖ₋₁) over the points after the first with a precision
        (``first``), in counts.
    first : int
        The first point where something is predicted positive.
    ks_point, ks_gap : int
        The first point of largest TP·N − FP·P, and that gap (exact).
    positives_fp, negatives_tp : Moments
        The spread of FP + FP′ over the positives and of TP + TP′ over the negatives
        (DeLong's two structural components, each twice its placement in counts).
    logs, squares : float or None
        Σ A·ln s + B·ln(1 − s) (−inf for a certain wrong prediction) and
        Σ A·(1 − s)² + B·s²; None when a score is outside [0, 1].
    mixed : float or None
        Σ A·B/(A + B) over groups of both classes (the Brier score less the
        reliability, summed by distinct score).
    run_scores : (runs,) float64 or None
        Σ (A + B)·s over each run of points between the cuts asked for.
    """

    twice_auc: int
    starts: npt.NDArray[np.int64]
    before: list[int]
    ap: float
    trap: float
    first: int
    ks_point: int
    ks_gap: int
    positives_fp: Moments
    negatives_tp: Moments
    logs: float | None
    squares: float | None
    mixed: float | None
    run_scores: FloatArray | None


def usable(sweep: Sweep) -> bool:
    """Whether :func:`tie_sums` applies: whole counts, both classes, 2·P·N < 2^53."""
    if sweep.size < 2 or not (sweep.positives > 0 and sweep.negatives > 0):
        return False
    pos, neg = float(sweep.positives), float(sweep.negatives)
    return 2 * pos * neg < 2.0**53 and sweep.whole_counts()


class _Buffers:
    """The pass's working arrays, made once: a block's counts as doubles (one more
    than the block, for the point before it) and what is derived from them."""

    def __init__(self, size: int) -> None:
        self.t, self.f, self.pred = np.empty(size + 1), np.empty(size + 1), np.empty(size + 1)
        self.a, self.b, self.st, self.sf = (np.empty(size) for _ in range(4))
        self.u, self.w, self.x = np.empty(size), np.empty(size), np.empty(size)


def multi_row_points(sweep: Sweep) -> npt.NDArray[np.intp]:
    """The points whose tie group is not one row (ties; with weights, any group whose
    weight is not 1), ascending. Without weights the rows up to point k less k never
    fall, and rise exactly at those points, so a bisection of every range whose ends
    differ finds them in O(found · log m), however long the sweep."""
    m = sweep.size - 1
    tp, fp = sweep.tp, sweep.fp
    if sweep.weighted:
        found = [
            np.flatnonzero((tp[b] - tp[shifted(b, -1)]) + (fp[b] - fp[shifted(b, -1)]) != 1)
            + b.start
            for b in blocks(1, m + 1)
        ]
        return np.concatenate(found) if found else np.zeros(0, dtype=np.intp)

    def excess(k: npt.NDArray[np.intp]) -> npt.NDArray[np.int64]:
        return np.asarray(tp[k] + fp[k] - k, dtype=np.int64)

    lo, hi = np.zeros(1, dtype=np.intp), np.full(1, m, dtype=np.intp)
    out: list[npt.NDArray[np.intp]] = []
    while lo.shape[0]:
        rises = excess(hi) > excess(lo)
        lo, hi = lo[rises], hi[rises]
        last = hi - lo == 1
        out.append(hi[last])
        lo, hi = lo[~last], hi[~last]
        mid = (lo + hi) // 2
        lo, hi = np.concatenate((lo, mid)), np.concatenate((mid, hi))
    return np.sort(np.concatenate(out))


def tie_sums(sweep: Sweep, *, cuts: Sequence[int] = ()) -> TieSums:
    """Every :class:`TieSums` sum of ``sweep`` (see :func:`usable`), in one pass; a
    block never spans a cut (``run_scores`` has one sum per run between them).

    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> from threshold_lab.core.data.presets import preset
    >>> t = tie_sums(build_sweep(preset("canonical").data))
    >>> t.twice_auc, t.ks_point, t.ks_gap, round(t.squares, 4)
    (7, 1, 2, 1.66)
    """
    tp, fp, ts = sweep.tp, sweep.fp, sweep.thresholds
    m = sweep.size - 1
    pos, neg = float(sweep.positives), float(sweep.negatives)
    probabilities = bool(ts[0] <= 1.0 and ts[-1] >= 0.0)
    first = first_defined(sweep)
    edges = sorted({1, m + 1, *(c for c in cuts if 1 < c <= m)})
    run_scores = np.zeros(len(edges) - 1)
    # Groups of other than one row are summed on their own, after the pass; in it their
    # logarithm's factor is set to 1.
    odd = multi_row_points(sweep) if probabilities else np.zeros(0, dtype=np.intp)
    products: list[FloatArray] = []
    buf = _Buffers(BLOCK)
    twice, ks_point, ks_best = 0, 0, 0.0
    starts: list[int] = []
    before: list[int] = []
    ap = trap = logs = squares = 0.0
    moments: tuple[list[float], ...] = ([], [], [], [], [], [])
    with np.errstate(invalid="ignore", divide="ignore"):
        for run, (lo, hi) in enumerate(itertools.pairwise(edges)):
            for blk in blocks(lo, hi, BLOCK):
                n = blk.stop - blk.start
                starts.append(blk.start)
                before.append(twice)
                t, f = buf.t[: n + 1], buf.f[: n + 1]
                np.copyto(t, tp[blk.start - 1 : blk.stop], casting="unsafe")
                np.copyto(f, fp[blk.start - 1 : blk.stop], casting="unsafe")
                a, b, st, sf = buf.a[:n], buf.b[:n], buf.st[:n], buf.sf[:n]
                np.subtract(t[1:], t[:-1], out=a)
                np.subtract(f[1:], f[:-1], out=b)
                np.add(t[1:], t[:-1], out=st)
                np.add(f[1:], f[:-1], out=sf)
                # ROC area: whole products and sums under 2^53, exact in doubles.
                by_neg = dot(b, st)
                twice += int(by_neg)
                # DeLong's spreads about each block's own weighted mean.
                x, w = buf.x[:n], buf.w[:n]
                weight_a, weight_b = float(t[-1] - t[0]), float(f[-1] - f[0])
                if weight_a > 0:
                    centre = dot(a, sf) / weight_a
                    np.subtract(sf, centre, out=x)
                    np.multiply(x, x, out=x)
                    _keep(moments[0:3], weight_a, centre, dot(a, x))
                if weight_b > 0:
                    centre = by_neg / weight_b
                    np.subtract(st, centre, out=x)
                    np.multiply(x, x, out=x)
                    _keep(moments[3:6], weight_b, centre, dot(b, x))
                # KS: TP·N − FP·P, exact; the first largest.
                np.multiply(t[1:], neg, out=x)
                np.multiply(f[1:], pos, out=w)
                np.subtract(x, w, out=x)
                k = int(np.argmax(x))
                if x[k] > ks_best:
                    ks_point, ks_best = blk.start + k, float(x[k])
                # PR: precision at each point of the block and the one before it.
                pred = buf.pred[: n + 1]
                np.add(t, f, out=pred)
                np.divide(t, pred, out=pred)
                skip = max(0, first + 1 - blk.start)  # points up to ``first`` are not summed
                if skip < n:
                    here = dot(a[skip:], pred[skip + 1 :])
                    ap += here
                    trap += here + dot(a[skip:], pred[skip:n])
                if not probabilities:
                    continue
                s = ts[blk.start - 1 : blk.stop - 1]
                u = buf.u[:n]
                np.subtract(1.0, s, out=u)
                np.multiply(u, u, out=w)
                squares += dot(a, w)
                np.multiply(s, s, out=w)
                squares += dot(b, w)
                np.add(a, b, out=w)  # each group's rows (or weight)
                run_scores[run] += dot(w, s)
                # v = s for a positive, 1 − s for a negative: a·s + b·u is exactly that
                # where a group is one row (a and b are 1 and 0).
                np.multiply(a, s, out=x)
                np.multiply(b, u, out=w)
                np.add(x, w, out=x)
                mine = odd[np.searchsorted(odd, blk.start) : np.searchsorted(odd, blk.stop)]
                if mine.shape[0]:
                    x[mine - blk.start] = 1.0
                logs += _chunk_logs(x, s, a, products)
    mixed = 0.0
    if probabilities and odd.shape[0]:
        more_logs, mixed = _multi_row_sums(sweep, odd)
        logs += more_logs
    if products:
        logs += float(np.sum(np.log(np.concatenate(products))))
    return TieSums(
        twice_auc=twice,
        starts=np.asarray(starts, dtype=np.int64),
        before=before,
        ap=ap,
        trap=trap,
        first=first,
        ks_point=ks_point,
        ks_gap=int(ks_best),
        positives_fp=_moments(moments[0:3]),
        negatives_tp=_moments(moments[3:6]),
        logs=logs if probabilities else None,
        squares=squares if probabilities else None,
        mixed=mixed if probabilities else None,
        run_scores=run_scores if probabilities else None,
    )


def _keep(into: tuple[list[float], ...], weight: float, mean: float, squares: float) -> None:
    into[0].append(weight)
    into[1].append(mean)
    into[2].append(squares)


def _moments(lists: tuple[list[float], ...]) -> Moments:
    weight, mean, squares = (np.asarray(x, dtype=np.float64) for x in lists)
    return Moments(weight, mean, squares)


def _multi_row_sums(sweep: Sweep, points: npt.NDArray[np.intp]) -> tuple[float, float]:
    """Σ A·ln s + B·ln(1 − s) over the groups at ``points`` (each logarithm on its own;
    a class with no rows in a group adds nothing, even where its logarithm is −inf),
    and Σ A·B/(A + B) over those of both classes."""
    a = (sweep.tp[points] - sweep.tp[points - 1]).astype(np.float64)
    b = (sweep.fp[points] - sweep.fp[points - 1]).astype(np.float64)
    s = sweep.thresholds[points - 1]
    with np.errstate(divide="ignore"):  # ln 0 is −inf: a certain wrong prediction
        la = np.log(s)
        lb = np.log1p(-s)
    la[a == 0] = 0.0
    lb[b == 0] = 0.0
    both = (a > 0) & (b > 0)
    mixed = float(np.sum(a[both] * b[both] / (a[both] + b[both])))
    return dot(a, la) + dot(b, lb), mixed


def _chunk_logs(v: FloatArray, s: FloatArray, a: FloatArray, into: list[FloatArray]) -> float:
    """Σ ln v over a block (v: the score of a positive, 1 − score of a negative, 1 for
    a group summed on its own), CHUNK factors at a time as the logarithm of their
    product (kept in ``into``, whose logarithms are taken at the end) where that keeps
    its digits (see the module's note); the sum of the rest, each on its own."""
    n = v.shape[0]
    whole = n - n % CHUNK
    # Factors ``whole // CHUNK`` apart share a product: the reduction runs down the
    # rows of a (CHUNK, whole // CHUNK) view, element by element across them (SIMD).
    width = whole // CHUNK
    total = 0.0
    if width:
        products = np.multiply.reduce(v[:whole].reshape(CHUNK, width), axis=0)
        if float(products.max()) <= _FAR_FROM_ONE and float(products.min()) >= _NO_UNDERFLOW:
            into.append(products)
        else:
            good = (products <= _FAR_FROM_ONE) & (products >= _NO_UNDERFLOW)
            into.append(products[good])
            for c in np.flatnonzero(~good):
                part = slice(int(c), whole, width)
                total += _each_log(s[part], v[part], a[part])
    if whole < n:
        total += _each_log(s[whole:], v[whole:], a[whole:])
    return total


def _each_log(s: FloatArray, v: FloatArray, a: FloatArray) -> float:
    """Σ ln v, each on its own: ln s for a positive, and ``log1p(−s)`` for a negative
    (1 − s rounded would lose the digits of a small s). A v of 1 adds nothing (the
    groups summed on their own are set to 1)."""
    positive = (a > 0) & (v != 1.0)
    negative = (a == 0) & (v != 1.0)
    return float(np.sum(np.log(s[positive]))) + float(np.sum(np.log1p(-s[negative])))


def log_loss_of(sums: TieSums, total: float) -> float | None:
    """The log loss from the sums: None where some prediction is certainly wrong."""
    if sums.logs is None or not math.isfinite(sums.logs):
        return None
    return -sums.logs / total
