"""The risk-coverage frontier of review bands: how few errors each coverage can cost.

A band (see :mod:`.band`) decides ``d`` rows automatically (accepted plus rejected)
and gets ``FP(kh) + FN(kl)`` of them wrong; its coverage is d/n and its selective
risk the errors over d. The frontier here is the bands that are best at some price of
a review: for a price λ, the band minimising errors + λ·reviewed. Those are the
vertices of the lower convex hull of (decided, errors) over every pair of points, and
they are found exactly without trying the pairs:

- errors and decided split into an accepted part and a rejected part: accepting the
  top ``a`` rows costs FP, rejecting the bottom ``r`` rows costs FN, and a band decides
  ``a + r`` rows (any a and r with a + r <= n make a band);
- the lowest FP for each accepted count, convexified, runs along the ROC curve's upper
  convex hull from (0, 0); the lowest FN for each rejected count along the same hull
  from its other end (FP against TP+FP and FN against TN+FN are linear images of the
  ROC points);
- so the frontier is the sum of two convex chains: their edges merged in order of
  slope (the errors each edge adds per row decided), from reviewing every row until
  the two sides meet at the hull vertex with fewest errors (one threshold, no review).

Between two vertices no band reaches the straight line joining them (that needs a coin
flip), so the vertices are the frontier's bands. Slopes are compared exactly, as cross
products of whole counts (of doubles where weights are not whole).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
from threshold_lab.core.curves.hull import hull_vertices
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.metrics.metric import Metric, count_json, ratio
from threshold_lab.core.threshold import format_threshold


@dataclass(frozen=True)
class FrontierBand:
    """One vertex of the frontier: the band's points, thresholds and counts."""

    index_high: int
    index_low: int
    t_high: float | None  # None: above all scores (nothing accepted)
    t_low: float | None  # None: above all scores (every row rejected)
    errors: Any  # FP accepted + FN rejected
    accepted: Any
    rejected: Any
    total: Any

    @property
    def decided(self) -> Any:
        return self.accepted + self.rejected

    def coverage(self) -> Metric:
        return ratio(
            self.decided,
            self.total,
            reason="there are no rows",
            name="coverage",
            formula="decided/n",
        )

    def risk(self) -> Metric:
        return ratio(
            self.errors,
            self.decided,
            reason="nothing is decided (accepted+rejected=0)",
            name="selective risk",
            formula="(FP+FN)/(accepted+rejected)",
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "t_high": self.t_high,
            "t_low": self.t_low,
            "index_high": self.index_high,
            "index_low": self.index_low,
            "errors": count_json(self.errors),
            "accepted": count_json(self.accepted),
            "rejected": count_json(self.rejected),
            "decided": count_json(self.decided),
            "coverage": self.coverage().as_json(),
            "risk": self.risk().as_json(),
        }


def _num(x: Any, whole: bool) -> Any:
    return round(float(x)) if whole else float(x)


def risk_coverage(sweep: Sweep) -> tuple[FrontierBand, ...]:
    """The frontier's bands from reviewing every row (coverage 0) to the one threshold
    with fewest errors (coverage 1), coverage rising; empty without both classes.

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> [(b.decided, b.errors) for b in risk_coverage(build_sweep(preset("canonical").data))]
    [(0, 0), (1, 0), (5, 2)]
    """
    if not (sweep.positives > 0 and sweep.negatives > 0):
        return _one_class(sweep) if sweep.positives > 0 or sweep.negatives > 0 else ()
    verts = [int(v) for v in hull_vertices(sweep).tolist()]
    if len(verts) < 2:
        return ()
    whole = sweep.whole_counts(limit=2**62)
    tp = [_num(sweep.tp[v].item(), whole) for v in verts]
    fp = [_num(sweep.fp[v].item(), whole) for v in verts]
    pos, neg = _num(sweep.positives, whole), _num(sweep.negatives, whole)
    total = pos + neg
    h = len(verts) - 1
    i, j = 0, h  # accepted down to vertex i, rejected below vertex j
    out = [_band(sweep, verts, tp, fp, pos, neg, i, j, total)]
    while i < j:
        # The next accepted edge adds ΔFP errors over Δmade rows; the next rejected
        # edge (from vertex j back to j − 1) adds ΔTP errors (its positives, now
        # rejected) over its Δmade rows. The cheaper per row goes first.
        da, ea = (tp[i + 1] + fp[i + 1]) - (tp[i] + fp[i]), fp[i + 1] - fp[i]
        dr, er = (tp[j] + fp[j]) - (tp[j - 1] + fp[j - 1]), tp[j] - tp[j - 1]
        if ea * dr < er * da:  # equal: reject first (fewest accepted, as bands choose)
            i += 1
        else:
            j -= 1
        out.append(_band(sweep, verts, tp, fp, pos, neg, i, j, total))
    return _vertices(out)


def _one_class(sweep: Sweep) -> tuple[FrontierBand, FrontierBand]:
    """Rows of one class: reviewing every row, and deciding every row without an
    error (accepting all positives, or rejecting all negatives); nothing between is
    better at any price."""
    whole = sweep.whole_counts(limit=2**62)
    pos, neg = _num(sweep.positives, whole), _num(sweep.negatives, whole)
    total, m = pos + neg, sweep.size - 1
    k = m if pos > 0 else 0  # accept every row, or reject every row
    none = 0 if whole else 0.0
    return (
        FrontierBand(0, m, None, threshold_of(sweep, m), none, none, none, total),
        FrontierBand(k, k, threshold_of(sweep, k), threshold_of(sweep, k), none, pos, neg, total),
    )


def _vertices(bands: list[FrontierBand]) -> tuple[FrontierBand, ...]:
    """The merged chain without the points inside a straight stretch of it (two edges
    of one slope, one from each side): each band kept is a corner, best alone at some
    price; one inside a stretch is beaten at every price by the stretch's ends (at
    no errors, 6 decided beside 13 decided)."""
    kept = [bands[0]]
    for k in range(1, len(bands) - 1):
        a, b, c = kept[-1], bands[k], bands[k + 1]
        # Collinear in (decided, errors): the cross product of the two steps is 0.
        if (b.decided - a.decided) * (c.errors - b.errors) != (c.decided - b.decided) * (
            b.errors - a.errors
        ):
            kept.append(b)
    if len(bands) > 1:
        kept.append(bands[-1])
    return tuple(kept)


def _band(
    sweep: Sweep,
    verts: list[int],
    tp: list[Any],
    fp: list[Any],
    pos: Any,
    neg: Any,
    i: int,
    j: int,
    total: Any,
) -> FrontierBand:
    kh, kl = verts[i], verts[j]
    accepted = tp[i] + fp[i]
    rejected = total - (tp[j] + fp[j])
    errors = fp[i] + (pos - tp[j])
    return FrontierBand(
        kh,
        kl,
        threshold_of(sweep, kh),
        threshold_of(sweep, kl),
        errors,
        accepted,
        rejected,
        total,
    )


def frontier_lines(bands: tuple[FrontierBand, ...], most: int = 12) -> list[str]:
    """The frontier in lines: each band's coverage and selective risk with its counts
    and its thresholds (the first and last ``most // 2`` when there are more)."""
    if not bands:
        return ["Risk-coverage frontier: undefined: it needs both actual classes"]
    return _listed(
        bands,
        f"Risk-coverage frontier: {len(bands)} bands, each the fewest errors at its coverage "
        "for some price of a review (errors are FP accepted + FN rejected)",
        most,
    )


def _listed(bands: tuple[FrontierBand, ...], title: str, most: int) -> list[str]:
    """``title``, then each band's coverage, selective risk and thresholds (the first
    and last ``most // 2`` when there are more)."""
    out = [title]
    shown = list(bands)
    cut = len(shown) > most
    if cut:
        shown = shown[: most // 2] + shown[-(most // 2) :]
    for n, b in enumerate(shown):
        if cut and n == most // 2:
            out.append(f"  ... {len(bands) - most} more (every band in the JSON and the chart)")
        hi = "accept no row" if b.index_high == 0 else f"accept >= {format_threshold(b.t_high)}"
        if b.index_low == 0:
            lo = "reject every row"
        elif float(b.rejected) == 0:
            lo = "reject no row"
        else:
            lo = f"reject < {format_threshold(b.t_low)}"
        risk = b.risk()
        said = risk.short() if risk.value is not None else "undefined (nothing decided)"
        out.append(f"  coverage {b.coverage().short()}, risk {said}: {hi}; {lo}")
    return out


#: Pairs of an accepted side and a rejected side the best band at every coverage may
#: try (whole counts, about a quarter of a second; a 25th as many where they are
#: sorted, as fractional weights are, at about 0.25 µs a pair). Beyond them the steps
#: are left out with their reason, and the frontier's corners stand.
STEP_PAIRS = 50_000_000
#: Accepted sides it may try one at a time (whole counts).
STEP_SIDES = 20_000
#: Points on each side scanned for its candidates before the pairs are counted.
STEP_SCAN = 2_000_000
#: Error counts the array of :func:`_by_errors` may hold (whole weights can make far
#: more errors than rows).
_DENSE = 1 << 22
#: Pairs sorted together where weights are not whole.
_BLOCK_PAIRS = 1 << 20


@dataclass(frozen=True)
class Steps:
    """The best band at every coverage: ``bands`` from the fewest errors (none) to the
    one threshold with fewest errors, decided rows and errors both rising; empty with
    ``reason`` where they were not found (None where they were). ``pairs`` is how many
    pairs of sides were (or would have been) tried; None where there were too many
    points to count them. ``len()``, iteration and indexing read ``bands``.

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> steps = risk_coverage_steps(build_sweep(preset("canonical").data))
    >>> len(steps), steps.reason, [b.errors for b in steps], steps.at(coverage=1 / 2).decided
    (3, None, [0, 1, 2], 3)
    """

    bands: tuple[FrontierBand, ...]
    reason: str | None
    pairs: int | None

    def __len__(self) -> int:
        return len(self.bands)

    def __iter__(self) -> Iterator[FrontierBand]:
        return iter(self.bands)

    def __getitem__(self, i: int) -> FrontierBand:
        return self.bands[i]

    def at(self, decided: Any = None, *, coverage: float | None = None) -> FrontierBand:
        """The best band deciding at least ``decided`` rows (weighted), or at least a
        share ``coverage`` of them (0 to 1): the first step that does. ValueError where
        the steps were left out (saying why), or where no band decides that many."""
        if self.reason is not None:
            raise ValueError(f"the best band at every coverage was left out: {self.reason}")
        if (decided is None) == (coverage is None):
            raise ValueError("give decided= (rows) or coverage= (a share from 0 to 1)")
        if coverage is not None:
            if not 0 <= coverage <= 1:
                raise ValueError(f"coverage {coverage!r} is not a share from 0 to 1")
            decided = coverage * float(self.bands[-1].total)
        for b in self.bands:
            if b.decided >= decided:
                return b
        raise ValueError(f"no band decides {decided} rows: there are {self.bands[-1].total}")

    def as_json(self) -> list[dict[str, Any]] | None:
        return None if self.reason else [b.as_json() for b in self.bands]


def risk_coverage_steps(sweep: Sweep, *, pairs: int = STEP_PAIRS, sides: int = STEP_SIDES) -> Steps:
    """The best band at every coverage, exactly: for each number of errors, the band
    that decides the most rows with at most that many (the fewest accepted among
    equals), each kept where it decides more than every band with fewer errors.

    A band's errors are its accepted side's FP and its rejected side's FN, and it
    decides both sides' rows, so only sides that are best for their own errors count:
    the most rows accepted for each FP (the lowest accept threshold before the next
    negative), the most rejected for each FN. Errors past the best single threshold's
    are never best (that threshold decides every row), so each side's errors stop
    there. Every pair of such sides (the accepted one above the rejected one) is
    tried: with whole counts each accepted side at once against every rejected side,
    the best per error count kept in an array; otherwise the pairs sorted by errors a
    block at a time. The pairs grow as the square of those errors (finding the best at
    every coverage is a min-plus convolution, with no known way under quadratic): past
    ``pairs`` pairs (or ``sides`` accepted sides) the steps are left out, and the
    frontier's corners (:func:`risk_coverage`) are the bands listed.

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> s = risk_coverage_steps(build_sweep(preset("canonical").data))
    >>> [(b.decided, b.errors) for b in s.bands]
    [(1, 0), (3, 1), (5, 2)]
    """
    if not (sweep.positives > 0 and sweep.negatives > 0):
        # One class: every row decided without an error (the best at every coverage).
        one = risk_coverage(sweep)
        return Steps(one[1:], None, 1) if one else Steps((), "there are no rows", 0)
    whole = sweep.whole_counts(limit=2**53)
    dtype = np.int64 if whole else np.float64
    tp = np.asarray(sweep.tp, dtype=dtype)
    fp = np.asarray(sweep.fp, dtype=dtype)
    pos = dtype(round(float(sweep.positives)) if whole else sweep.positives)
    total = pos + dtype(round(float(sweep.negatives)) if whole else sweep.negatives)
    single_at = int(np.argmin(fp - tp))  # fewest FP + FN, the first (fewest accepted)
    best = fp[single_at] + (pos - tp[single_at])
    m = tp.shape[0] - 1
    # An array per error count where counts are whole and few enough; else sorting.
    dense = whole and int(best) < _DENSE
    limit = pairs if dense else pairs // 25
    # The points with few enough errors on each side (FP rises, FN falls): each
    # side's candidates lie among them, and with whole counts are at most best + 1.
    a_end = int(np.searchsorted(fp, best, side="right"))
    r_start = int(np.searchsorted(tp, pos - best, side="left"))  # FN = P − TP <= best
    span = a_end + (m + 1 - r_start)
    few = dense and (int(best) + 1 <= sides and (int(best) + 1) ** 2 <= 2 * limit)
    if span > 2 * STEP_SCAN and not few:
        return Steps(
            (),
            f"{_num(best, whole):,} errors at the best single threshold, over {span:,} "
            "points: too many pairs of an accepted and a rejected side to try (the best "
            "band at every coverage is quadratic in the errors; the frontier's corners "
            "stand; a sample of the rows, or scores on fewer levels, may be small "
            "enough for its own)",
            None,
        )
    # Accepted sides: the last point of each FP value; rejected: the first of each FN.
    fa = fp[:a_end]
    last = np.ones(a_end, dtype=bool)
    last[:-1] = fa[1:] > fa[:-1]
    if a_end <= m:
        last[-1] = fp[a_end] > fa[-1]
    acc = np.flatnonzero(last)
    ta = tp[r_start:]
    first = np.ones(m + 1 - r_start, dtype=bool)
    first[1:] = ta[1:] > ta[:-1]
    if r_start > 0:
        first[0] = ta[0] > tp[r_start - 1]
    rej = np.flatnonzero(first) + r_start
    fn = pos - tp[rej]  # each rejected side's FN, falling
    # Each accepted side's rejected sides: below it, within the errors left.
    below = np.searchsorted(rej, acc, side="left")
    within = np.searchsorted(-fn, -(best - fp[acc]), side="left")
    start = np.maximum(below, within)
    tried = int(np.sum(rej.shape[0] - start))
    if tried > limit or (dense and acc.shape[0] > sides):
        return Steps(
            (),
            f"{tried:,} pairs of an accepted and a rejected side (over {limit:,}): "
            "the best band at every coverage is quadratic in the errors (the frontier's "
            "corners stand; a sample of the rows, or scores on fewer levels, may be small "
            "enough for its own)",
            tried,
        )
    sides_tried = _Sides(
        acc,
        rej,
        start,
        fp[acc],
        tp[acc] + fp[acc],
        fn,
        total - tp[rej] - fp[rej],
        total,
        # The best single threshold (the first, fewest accepted): a pair whose sides
        # cross is no band, and one at its errors or more decides no more rows than it.
        (single_at, best),
    )
    found = (_by_errors if dense else _by_sorting)(sides_tried)
    return Steps(
        tuple(
            FrontierBand(
                int(i),
                int(j),
                threshold_of(sweep, int(i)),
                threshold_of(sweep, int(j)),
                _num(fp[i] + (pos - tp[j]), whole),
                _num(tp[i] + fp[i], whole),
                # Rejecting from the last point rejects nothing: 0, not a rounding of it.
                _num(0 if j == m else total - tp[j] - fp[j], whole),
                _num(total, whole),
            )
            for i, j in found
        ),
        None,
        tried,
    )


def threshold_of(sweep: Sweep, k: int) -> float | None:
    """The threshold of point ``k``: None (above all scores) for 0."""
    return None if k == 0 else float(sweep.thresholds[k - 1])


def steps_lines(steps: Steps, most: int = 12) -> list[str]:
    """The best band at every coverage in lines (the first and last ``most // 2``
    when there are more), or why it was left out."""
    if steps.reason:
        return [f"Best band at every coverage: not listed: {steps.reason}"]
    return _listed(
        steps.bands,
        f"Best band at every coverage: {len(steps.bands)} "
        f"{'step' if len(steps.bands) == 1 else 'steps'}, each the fewest errors "
        "of any band deciding at least its rows (a coverage between two steps is best "
        "served by the next)",
        most,
    )


@dataclass(frozen=True)
class _Sides:
    """The sides :func:`risk_coverage_steps` pairs: each accepted side's point, FP and
    rows accepted; each rejected side's point, FN and rows rejected (FN falling);
    where each accepted side's rejected sides start; the rows, and the best single
    threshold (its point and errors)."""

    acc: Any
    rej: Any
    start: Any
    fp: Any
    accepted: Any
    fn: Any
    rejected: Any
    total: Any
    single: tuple[int, Any]


def _by_errors(s: _Sides) -> list[tuple[int, int]]:
    """The steps with whole counts: for each error count the most rows decided (the
    first accepted side to reach it kept, the single threshold first), then those
    deciding more than every count below."""
    size = int(s.single[1]) + 1
    most = np.full(size, -1, dtype=np.int64)
    at_i = np.zeros(size, dtype=np.int64)
    at_j = np.zeros(size, dtype=np.int64)
    most[-1], at_i[-1], at_j[-1] = s.total, s.single[0], s.single[0]
    n = s.rej.shape[0]
    for k, (i, first) in enumerate(zip(s.acc.tolist(), s.start.tolist(), strict=True)):
        if first >= n:
            continue
        errors = s.fp[k] + s.fn[first:]
        decided = s.accepted[k] + s.rejected[first:]
        better = decided > most[errors]
        if better.any():
            e = errors[better]
            most[e] = decided[better]
            at_i[e] = i
            at_j[e] = s.rej[first:][better]
    seen = np.maximum.accumulate(most)
    keep = most > np.concatenate(([-1], seen[:-1]))
    return list(zip(at_i[keep].tolist(), at_j[keep].tolist(), strict=True))


def _by_sorting(s: _Sides) -> list[tuple[int, int]]:
    """The steps where weights are not whole (or whole but making more errors than an
    array per error count should hold): every pair's (errors, decided), a block
    of accepted sides at a time, each block's pairs merged with the steps so far and
    sorted by errors (then most decided, fewest accepted), keeping each that decides
    more than all before it."""
    grain = float(s.total) * 2.0**-40
    kept_e = np.array([s.single[1]])
    kept_d = np.array([s.total])
    kept_i = np.array([s.single[0]], dtype=np.int64)
    kept_j = np.array([s.single[0]], dtype=np.int64)
    lengths = s.rej.shape[0] - s.start
    block, size = [], 0
    for n, length in enumerate(lengths.tolist()):
        if length > 0:
            block.append(n)
            size += length
        if block and (size >= _BLOCK_PAIRS or n == len(lengths) - 1):
            rows = np.asarray(block)
            each = lengths[rows]
            owner = np.repeat(rows, each)
            offset = np.arange(int(each.sum())) - np.repeat(np.cumsum(each) - each, each)
            col = s.start[owner] + offset
            e = np.concatenate((kept_e, s.fp[owner] + s.fn[col]))
            d = np.concatenate((kept_d, s.accepted[owner] + s.rejected[col]))
            ii = np.concatenate((kept_i, s.acc[owner]))
            jj = np.concatenate((kept_j, s.rej[col]))
            # Sums of fractional weights carry rounding: errors and rows decided are
            # compared on a grid of a 2^-40th of the total, so a pair equal to another
            # but for the last bits neither splits a step nor makes one.
            eq, dq = np.rint(e / grain), np.rint(d / grain)
            order = np.lexsort((ii, -dq, eq))
            d_sorted = dq[order]
            keep = np.ones(order.shape[0], dtype=bool)
            keep[1:] = d_sorted[1:] > np.maximum.accumulate(d_sorted)[:-1]
            order = order[keep]
            kept_e, kept_d, kept_i, kept_j = e[order], d[order], ii[order], jj[order]
            block, size = [], 0
    return list(zip(kept_i.tolist(), kept_j.tolist(), strict=True))
