"""Calibration: do the scores read as probabilities of the positive class?

Everything here is computed from the exact sweep's tie groups (one per distinct
score, with its positives and negatives), so it costs O(distinct scores), and a tie
group is never split between bins.

- **Reliability bins.** Equal-mass binning (the default): with the groups in
  ascending score order, a group goes to bin ``floor(N * below / n)``, where ``below``
  is the weight of rows scored strictly lower and ``n`` all the weight (whole counts
  are binned in integers, exactly). Equal-width binning: score ``s`` goes to bin
  ``min(floor(s * N), N - 1)``, the product taken in double precision (so 0.7 of 10
  bins is bin 7, as written). Empty bins are left out.
- **ECE** = Σ_b (n_b / n) |rate_b − mean_b| and **MCE** = max_b |rate_b − mean_b|.
- **Brier decomposition** by distinct score, an identity: Brier = reliability −
  resolution + uncertainty.

Every score must be in [0, 1]; otherwise each is undefined with the reason, naming
the lowest or highest score.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import blocks, dot, shifted
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.errors import InputError
from threshold_lab.core.intervals.closed import CONFIDENCE, NOT_WHOLE, Interval, wilson
from threshold_lab.core.metrics.metric import Metric, ratio, undefined

#: Reliability bins by default, and the binnings there are.
BINS = 10
BINNINGS = ("mass", "width")
#: Bins a user may ask for.
MAX_BINS = 1000

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Bin:
    """One reliability bin: its rows (or weight), positives, mean score, observed
    positive rate (with Wilson's interval when the counts are whole), and its lowest
    and highest score."""

    n: int | float
    positives: int | float
    mean_score: float
    positive_rate: Metric
    low_score: float
    high_score: float
    interval: Interval | None
    interval_reason: str | None

    @property
    def gap(self) -> float:
        """|observed rate − mean score|."""
        return abs(float(self.positive_rate.value or 0.0) - self.mean_score)

    def as_json(self) -> dict[str, Any]:
        rate = self.positive_rate.as_json()
        rate["interval"] = None if self.interval is None else self.interval.as_json()
        if self.interval is None:
            rate["interval_reason"] = self.interval_reason
        return {
            "n": self.n,
            "positives": self.positives,
            "mean_score": self.mean_score,
            "positive_rate": rate,
            "low_score": self.low_score,
            "high_score": self.high_score,
        }


@dataclass(frozen=True)
class Calibration:
    """The reliability table, ECE and MCE over its bins, and the Brier decomposition
    (by distinct score); ``reason`` says why there are none (scores outside [0, 1],
    or no rows)."""

    binning: str
    requested_bins: int
    bins: tuple[Bin, ...]
    ece: Metric
    mce: Metric
    reliability: Metric
    resolution: Metric
    uncertainty: Metric
    reason: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "binning": self.binning,
            "requested_bins": self.requested_bins,
            "reason": self.reason,
            "bins": [b.as_json() for b in self.bins],
            "ece": self.ece.as_json(),
            "mce": self.mce.as_json(),
            "brier_decomposition": {
                "reliability": self.reliability.as_json(),
                "resolution": self.resolution.as_json(),
                "uncertainty": self.uncertainty.as_json(),
            },
        }


def parse_bins(text: str) -> int:
    """``--bins N``: a whole number of bins from 1 to :data:`MAX_BINS`."""

    try:
        n = int(text.strip())
    except ValueError:
        raise InputError(
            f"bins must be a whole number from 1 to {MAX_BINS}, not {text!r}"
        ) from None
    if not 1 <= n <= MAX_BINS:
        raise InputError(f"bins must be from 1 to {MAX_BINS}, not {n}")
    return n


def parse_binning(text: str) -> str:
    """``--binning mass|width``."""

    word = text.strip().lower()
    if word not in BINNINGS:
        raise InputError(
            f"binning is mass (equal rows per bin) or width (equal score ranges), not {text!r}"
        )
    return word


def not_probabilities(sweep: Sweep) -> str | None:
    """Why these scores are not probabilities (naming the lowest or highest), or None."""
    if sweep.thresholds.size == 0:
        return "there are no rows"
    low, high = float(sweep.thresholds[-1]), float(sweep.thresholds[0])
    if low < 0:
        return f"calibration needs scores in [0, 1] (probabilities); the lowest score is {low!r}"
    if high > 1:
        return f"calibration needs scores in [0, 1] (probabilities); the highest score is {high!r}"
    return None


#: Tie groups per block: the per-group arrays of one block stay in the cache.
GROUP_BLOCK = 1 << 16
#: Whole counts take each bin's run of groups by binary search (tests turn it off to
#: hold the two ways equal).
FAST = True


def _group_blocks(sweep: Sweep, size: int) -> Iterator[tuple[FloatArray, Any, Any]]:
    """The tie groups in ascending score order, a block at a time: (score, positives,
    negatives) of each group (point k of the sweep is group m - k, m groups)."""
    m = sweep.size - 1
    for j0 in range(0, m, size):
        j1 = min(m, j0 + size)
        lo, hi = m - j1, m - j0  # the block's points are lo + 1 .. hi
        yield (
            sweep.thresholds[lo:hi][::-1],
            np.diff(sweep.tp[lo : hi + 1])[::-1],
            np.diff(sweep.fp[lo : hi + 1])[::-1],
        )


def _bin_of(
    scores: FloatArray, n_g: Any, carry: Any, bins: int, binning: str, total: Any, whole: bool
) -> tuple[npt.NDArray[np.int64], Any]:
    """Each group's bin (ascending order, by the module's rules), and the rows up to the
    block's end (``carry``: the rows below the block's first group)."""
    if binning == "width":
        return np.minimum(np.floor(scores * bins), bins - 1).astype(np.int64), carry
    # The running total starts from the rows before the block: bit for bit the sum
    # over all groups in order (numpy's cumulative sum adds left to right).
    running = np.cumsum(np.concatenate(([carry], n_g)).astype(n_g.dtype))[1:]
    below = running - n_g
    if whole:
        exact: npt.NDArray[np.int64] = (below.astype(np.int64) * bins) // int(total)
        return exact, running[-1]
    approx: npt.NDArray[np.int64] = np.floor(bins * (below / total)).astype(np.int64)
    return approx, running[-1]


def _bin_at(sweep: Sweep, k: int, bins: int, binning: str, total: int) -> int:
    """Sweep point ``k``'s group's bin, by the module's rules (whole counts)."""
    if binning == "width":
        return min(math.floor(float(sweep.thresholds[k - 1]) * bins), bins - 1)
    below = total - int(sweep.tp[k]) - int(sweep.fp[k])  # rows scored strictly lower
    return below * bins // total


def bin_ranges(sweep: Sweep, bins: int, binning: str) -> list[tuple[int, int, int]]:
    """Each nonempty run of sweep points sharing a bin, as (bin, first, stop), for
    whole counts: a group's bin never rises as the score falls (points 1 .. m,
    descending), so each run's end is found by binary search, never by binning every
    group. The runs cover points 1 .. m in order."""
    m = sweep.size - 1
    total = int(sweep.positives) + int(sweep.negatives)
    out = []
    k = 1
    while k <= m:
        b = _bin_at(sweep, k, bins, binning, total)
        lo, hi = k, m  # the last point of bin b is in lo .. hi
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if _bin_at(sweep, mid, bins, binning, total) == b:
                lo = mid
            else:
                hi = mid - 1
        out.append((b, k, lo + 1))
        k = lo + 1
    return out


def _bin_ends(sweep: Sweep, b: int, first: int, stop: int, acc: tuple[Any, ...]) -> bool:
    """Bin ``b``'s rows, positives, lowest and highest score (of groups of some weight)
    from its run of points ``first`` .. ``stop`` − 1 into ``acc``, in O(1) but for
    groups of no weight at its ends; False for a run of no weight (left out)."""
    n_acc, pos_acc, _, low_acc, high_acc, seen = acc
    tp, fp, ts = sweep.tp, sweep.fp, sweep.thresholds
    rows = int(tp[stop - 1]) + int(fp[stop - 1]) - int(tp[first - 1]) - int(fp[first - 1])
    if rows == 0:
        return False
    n_acc[b] += rows
    pos_acc[b] += int(tp[stop - 1]) - int(tp[first - 1])
    hi_k, lo_k = first, stop - 1
    while int(tp[hi_k]) + int(fp[hi_k]) == int(tp[hi_k - 1]) + int(fp[hi_k - 1]):
        hi_k += 1
    while int(tp[lo_k]) + int(fp[lo_k]) == int(tp[lo_k - 1]) + int(fp[lo_k - 1]):
        lo_k -= 1
    high_acc[b], low_acc[b] = float(ts[hi_k - 1]), float(ts[lo_k - 1])
    seen[b] = True
    return True


def _by_bin_ranges(
    sweep: Sweep, bins: int, binning: str, acc: tuple[Any, ...], o_bar: float
) -> tuple[float, float]:
    """The per-bin rows, positives, Σ n_g·s, lowest and highest score (into ``acc``),
    and the Brier decomposition's two sums, for whole counts: each bin's run of tie
    groups found by binary search, then one pass over the groups a block at a time
    with no per-group bin index."""
    score_acc = acc[2]
    tp, fp, ts = sweep.tp, sweep.fp, sweep.thresholds
    reliability = resolution = 0.0
    zero_weight = sweep.weighted  # only weights can leave a group with no weight
    for b, first, stop in bin_ranges(sweep, bins, binning):
        if not _bin_ends(sweep, b, first, stop, acc):
            continue  # a bin of groups that weigh nothing: left out
        for blk in blocks(first, stop, GROUP_BLOCK):
            before = shifted(blk, -1)
            pos = (tp[blk] - tp[before]).astype(np.float64)
            n = pos + (fp[blk] - fp[before])
            scores = ts[blk.start - 1 : blk.stop - 1]
            score_acc[b] += dot(n, scores)
            if zero_weight:
                o = np.divide(pos, n, out=np.zeros_like(pos), where=n > 0)
            else:
                o = np.divide(pos, n, out=pos)
            gap = scores - o
            np.multiply(gap, gap, out=gap)
            reliability += dot(n, gap)
            np.subtract(o, o_bar, out=o)
            np.multiply(o, o, out=o)
            resolution += dot(n, o)
    return reliability, resolution


def _by_groups(
    sweep: Sweep, bins: int, binning: str, acc: tuple[Any, ...], o_bar: float, whole: bool
) -> tuple[float, float]:
    """:func:`_by_bin_ranges`'s sums with each tie group binned on its own (the rule
    for weights that are not whole: the running float total decides the bins)."""
    n_acc, pos_acc, score_acc, low_acc, high_acc, seen = acc
    total = sweep.positives + sweep.negatives
    carry: Any = sweep.tp.dtype.type(0)
    reliability_sum = resolution_sum = 0.0
    for scores, pos, neg in _group_blocks(sweep, GROUP_BLOCK):
        n_g = pos + neg
        which, carry = _bin_of(scores, n_g, carry, bins, binning, total, whole)
        keep = n_g > 0  # zero-weight rows count for nothing
        if not keep.all():
            scores, pos, n_g, which = scores[keep], pos[keep], n_g[keep], which[keep]
        if scores.size == 0:
            continue
        starts = np.flatnonzero(np.r_[True, which[1:] != which[:-1]])
        at = which[starts]
        n_acc[at] += np.add.reduceat(n_g, starts)
        pos_acc[at] += np.add.reduceat(pos, starts)
        score_acc[at] += np.add.reduceat(n_g * scores, starts)
        first = ~seen[at]
        low_acc[at[first]] = scores[starts[first]]
        high_acc[at] = scores[np.r_[starts[1:], scores.size] - 1]
        seen[at] = True
        # The Brier decomposition by distinct score: within a group every score is s_g.
        o_g = pos / n_g
        reliability_sum += np.sum(n_g * (scores - o_g) ** 2)
        resolution_sum += np.sum(n_g * (o_g - o_bar) ** 2)
    return float(reliability_sum), float(resolution_sum)


def _undefined_all(binning: str, bins: int, reason: str) -> Calibration:
    u = undefined(reason)
    return Calibration(binning, bins, (), u, u, u, u, u, reason)


def _accumulators(sweep: Sweep, bins: int) -> tuple[Any, ...]:
    """Per bin: rows, positives, Σ n_g·s, lowest and highest score, and whether seen; a
    bin is a run of consecutive groups (bins rise with the score), possibly across
    blocks."""
    kind = sweep.tp.dtype
    return (
        np.zeros(bins, dtype=kind),
        np.zeros(bins, dtype=kind),
        np.zeros(bins, dtype=np.float64),
        np.zeros(bins, dtype=np.float64),
        np.zeros(bins, dtype=np.float64),
        np.zeros(bins, dtype=bool),
    )


def _why_none(sweep: Sweep) -> str | None:
    why = not_probabilities(sweep)
    if why is None and sweep.positives + sweep.negatives <= 0:
        why = "the rows have no weight"
    return why


def calibration(
    sweep: Sweep, *, bins: int = BINS, binning: str = "mass", confidence: float = CONFIDENCE
) -> Calibration:
    """The reliability table of ``sweep``'s rows in ``bins`` bins, ECE, MCE and the
    Brier decomposition.

    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> from threshold_lab.core.data.presets import preset
    >>> c = calibration(build_sweep(preset("canonical").data), bins=2)
    >>> [(b.n, b.positive_rate.short(), b.low_score, b.high_score) for b in c.bins]
    [(4, '2/4', 0.1, 0.8), (1, '1/1', 0.9, 0.9)]
    """
    why = _why_none(sweep)
    if why is not None:
        return _undefined_all(binning, bins, why)
    whole = sweep.whole_counts()
    acc = _accumulators(sweep, bins)
    o_bar = float(sweep.positives) / float(sweep.positives + sweep.negatives)
    # Whole counts: each bin's run of groups by binary search; else a bin per group.
    if whole and FAST:
        reliability_sum, resolution_sum = _by_bin_ranges(sweep, bins, binning, acc, o_bar)
    else:
        reliability_sum, resolution_sum = _by_groups(sweep, bins, binning, acc, o_bar, whole)
    return _assemble(sweep, bins, binning, confidence, acc, whole, reliability_sum, resolution_sum)


def calibration_from_sums(
    sweep: Sweep,
    *,
    ranges: list[tuple[int, int, int]],
    run_scores: npt.NDArray[np.float64] | None,
    squares: float | None,
    mixed: float | None,
    bins: int = BINS,
    binning: str = "mass",
    confidence: float = CONFIDENCE,
) -> Calibration:
    """:func:`calibration` of ``sweep`` (whole counts) from sums one pass over its
    groups gave: Σ n_g·s over each of its bins' runs of points (``ranges``, from
    :func:`bin_ranges`), the Brier sum Σ A(1 − s)² + B·s² (``squares``) and Σ A·B/n_g
    over the groups of both classes (``mixed``); None: a score is outside [0, 1].

    Every group's Brier term less its reliability term is n_g·o_g·(1 − o_g) = A·B/n_g,
    so the reliability sum is the Brier sum less ``mixed``, and the resolution sum
    Σ n_g·(o_g − ō)² is P·N/n less ``mixed``: no pass of their own."""
    why = _why_none(sweep)
    if why is not None or run_scores is None or squares is None or mixed is None:
        return _undefined_all(binning, bins, why or "calibration needs scores in [0, 1]")
    acc = _accumulators(sweep, bins)
    for (b, first, stop), scores in zip(ranges, run_scores, strict=True):
        if _bin_ends(sweep, b, first, stop, acc):
            acc[2][b] += scores
    pos, neg = float(sweep.positives), float(sweep.negatives)
    resolution = pos * neg / (pos + neg) - mixed
    return _assemble(sweep, bins, binning, confidence, acc, True, squares - mixed, resolution)


def _assemble(
    sweep: Sweep,
    bins: int,
    binning: str,
    confidence: float,
    acc: tuple[Any, ...],
    whole: bool,
    reliability_sum: float,
    resolution_sum: float,
) -> Calibration:
    """The Calibration from the per-bin accumulators and the decomposition's sums."""
    n_acc, pos_acc, score_acc, low_acc, high_acc, seen = acc
    total = sweep.positives + sweep.negatives
    o_bar = float(sweep.positives) / float(total)
    present = np.flatnonzero(seen)
    n_b, pos_b = n_acc[present], pos_acc[present]
    mean_b = score_acc[present] / n_b
    low_b, high_b = low_acc[present], high_acc[present]
    out = []
    for k in range(present.size):
        n, p = n_b[k], pos_b[k]
        if whole:
            n, p = int(n), int(p)
            rate = ratio(p, n, reason="an empty bin")  # bins are never empty
            lo, hi = wilson(float(p), float(n), confidence)
            interval: Interval | None = Interval(lo, hi, "wilson", confidence, float(n))
            reason = None
        else:
            n, p = float(n), float(p)
            rate = Metric(p / n, None, None)
            interval, reason = None, NOT_WHOLE
        out.append(
            Bin(n, p, float(mean_b[k]), rate, float(low_b[k]), float(high_b[k]), interval, reason)
        )
    rates = pos_b / n_b
    gaps = np.abs(rates - mean_b)
    ece = float(np.sum(n_b / total * gaps))
    mce = float(gaps.max())
    reliability = float(reliability_sum / total)
    resolution = float(resolution_sum / total)
    uncertainty = o_bar * (1 - o_bar)
    return Calibration(
        binning,
        bins,
        tuple(out),
        Metric(ece, None, None, "ECE", "Σ (n_b/n)·|rate_b − mean_b|"),
        Metric(mce, None, None, "MCE", "max |rate_b − mean_b|"),
        Metric(reliability, None, None, "reliability", "Σ n_g (s_g − o_g)² / n"),
        Metric(resolution, None, None, "resolution", "Σ n_g (o_g − ō)² / n"),
        Metric(uncertainty, None, None, "uncertainty", "ō (1 − ō)"),
    )
