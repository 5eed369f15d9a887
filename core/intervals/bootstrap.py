"""A stratified bootstrap over tie groups: intervals for the numbers with no closed form.

Each replicate resamples the positives and the negatives separately, keeping
both class totals. Drawing P rows with replacement from the positives puts a
multinomial count on each distinct score (its probability that score's share of
the positives), so a replicate is drawn as per-group counts, never as rows: the
same distribution as row resampling, at O(distinct scores) per replicate.

From each replicate come average precision, the PR trapezoid area, the
threshold metrics at the active operating point (F1, F-beta, MCC, balanced
accuracy, the likelihood ratios), optionally a goal's chosen threshold, and
optionally the ROC and PR curves on fixed grids (pointwise bands). Intervals are
percentile intervals: the (1-c)/2 and (1+c)/2 quantiles of the replicates' values
(numpy's linear interpolation between order statistics).

A run asks its caller whether to go on by the clock, not by the count: between two
pieces of work (a replicate, a million rows of a class, ten points of a band) it calls
``progress`` once :data:`REPORT_EVERY` seconds have passed, so at 10^6 rows a cancel
lands within a fraction of a second whatever B is. The pieces never change the draws:
a class's rows are drawn piece after piece from the one generator, the same numbers
as drawn at once, so a seed gives the same replicates whatever the pieces or the clock.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import dot
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.intervals.closed import (
    CONFIDENCE,
    NOT_WHOLE,
    Interval,
    check_confidence,
    same_value_words,
)
from threshold_lab.core.metrics.formulas import FORMULAS, Cells
from threshold_lab.core.metrics.threshold_metrics import beta_squared

#: Replicates when ``--bootstrap`` is given without a number.
REPLICATES = 1000
#: The seed when none is given, so a report reproduces.
SEED = 20261130
#: The most replicates asked for at once.
MAX_REPLICATES = 100_000
#: The fewest: a 95% percentile interval reads the 2.5% tails, 2.5 replicates each.
MIN_REPLICATES = 100
#: Above this many rows of a class, a replicate's counts come from a multinomial draw
#: over the class's groups; up to it, from drawing row positions (faster, same law).
ROW_DRAW_LIMIT = 1 << 25
#: The longest a run goes between asking ``progress`` whether to go on (seconds): a
#: cancel lands within this and one piece of work.
REPORT_EVERY = 0.1
#: Rows of a class drawn at a time on the row-draw path: one piece costs tens of
#: milliseconds, so even a replicate of 10^7 rows is asked about between pieces.
ROW_PIECE = 1 << 20
#: Grid points of a band read at a time (a cancel is heard between them).
BAND_COLUMNS = 10
#: The grids the curve bands are read at: FPR for ROC, recall for PR.
GRID = np.linspace(0.0, 1.0, 101)
PR_GRID = GRID[1:]  # recall 0 has no operating point of its own

#: The statistics at the active operating point, as (name, function of the counts).
AT_THRESHOLD = (
    "f1",
    "fbeta",
    "mcc",
    "balanced_accuracy",
    "lr_plus",
    "lr_minus",
    "cohen_kappa",
    "informedness",
    "markedness",
    "diagnostic_odds_ratio",
    "fowlkes_mallows",
)
#: The threshold-free statistics.
SUMMARIES = ("average_precision", "pr_trapezoid_area")

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]


#: ``progress(done, total)``: told how many replicates are done; False stops the run.
Progress = Callable[[int, int], bool | None]


class Cancelled(Exception):
    """The progress callback asked the bootstrap to stop."""


class Pace:
    """When a run tells its progress: by the clock, at least :data:`REPORT_EVERY`
    seconds apart, at a piece's end (never inside numpy's work), and once at the end.
    A count-based pace would go quiet for as long as its slowest block (at 10^6 rows,
    long enough to look hung); the clock keeps both the count and a cancel within a
    fraction of a second."""

    def __init__(
        self, progress: Progress | None, total: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.progress, self.total, self.clock = progress, total, clock
        #: Replicates finished so far (what :meth:`tick` tells).
        self.done = 0
        self.last = clock() if progress is not None else 0.0

    def tick(self) -> None:
        """Between two pieces of work: tell the count if it is time (raises
        :class:`Cancelled` when told to stop)."""
        if self.progress is None:
            return
        now = self.clock()
        if now - self.last >= REPORT_EVERY:
            self.last = now
            self._tell(self.done)

    def end(self) -> None:
        """Every replicate is drawn: say so (the last chance to stop)."""
        if self.progress is not None:
            self._tell(self.total)

    def _tell(self, done: int) -> None:
        told = self.progress
        if told is not None and told(done, self.total) is False:
            raise Cancelled


def parse_replicates(text: str) -> int:
    """``--bootstrap B``: a whole number from :data:`MIN_REPLICATES` to
    :data:`MAX_REPLICATES`."""
    try:
        b = int(text)
    except ValueError:
        raise ValueError(f"bootstrap replicates {text!r} is not a whole number") from None
    if not MIN_REPLICATES <= b <= MAX_REPLICATES:
        raise ValueError(
            f"bootstrap replicates {b} is out of range: give {MIN_REPLICATES} to {MAX_REPLICATES:,}"
        )
    return b


def parse_seed(text: str) -> int:
    """``--seed S``: a whole number from 0 to 2^63 - 1."""
    try:
        s = int(text)
    except ValueError:
        raise ValueError(f"seed {text!r} is not a whole number") from None
    if not 0 <= s < 2**63:
        raise ValueError(f"seed {s} is out of range: give 0 to 2^63 - 1")
    return s


@dataclass(frozen=True)
class Groups:
    """Each class's tie groups, prepared once for every replicate.

    Group g holds the rows scored ``sweep.thresholds[g]``; point g + 1 of the sweep
    is the threshold at that score. ``pos_at`` are the groups holding positives and
    ``pos`` how many; ``neg_at``/``neg`` likewise. ``neg_before[i]`` counts the
    negative groups at or above positive group ``pos_at[i]``'s score, and
    ``neg_here[i]`` is that group's index among the negative groups, or -1.
    """

    size: int
    positives: int
    negatives: int
    pos_at: npt.NDArray[np.intp]
    pos: IntArray
    neg_at: npt.NDArray[np.intp]
    neg: IntArray
    neg_before: npt.NDArray[np.intp]
    neg_here: npt.NDArray[np.intp]


def groups_of(sweep: Sweep) -> Groups:
    """The tie groups of ``sweep`` (its counts must be whole)."""
    p_g = np.diff(sweep.tp).astype(np.int64)
    n_g = np.diff(sweep.fp).astype(np.int64)
    pos_at = np.flatnonzero(p_g)
    neg_at = np.flatnonzero(n_g)
    before = np.searchsorted(neg_at, pos_at, side="right")
    here = np.where(
        (before > 0) & (neg_at[np.maximum(before - 1, 0)] == pos_at) if neg_at.size else False,
        before - 1,
        -1,
    )
    return Groups(
        size=int(p_g.shape[0]),
        positives=int(sweep.positives),
        negatives=int(sweep.negatives),
        pos_at=pos_at,
        pos=p_g[pos_at],
        neg_at=neg_at,
        neg=n_g[neg_at],
        neg_before=before.astype(np.intp),
        neg_here=np.asarray(here, dtype=np.intp),
    )


def draw(rng: np.random.Generator, counts: IntArray, total: int) -> IntArray:
    """Per-group counts of ``total`` rows drawn with replacement from groups of
    ``counts`` rows (which add up to ``total``): a multinomial draw."""
    if counts.size == 0:
        return counts.copy()
    if total <= ROW_DRAW_LIMIT:
        rows = np.bincount(rng.integers(0, total, total), minlength=total)
        if counts.size == total:  # one row per group: rows are groups
            return rows.astype(np.int64)
        starts = np.concatenate(([0], np.cumsum(counts[:-1])))
        return np.add.reduceat(rows, starts).astype(np.int64)
    return rng.multinomial(total, counts / float(total)).astype(np.int64)


def pieces(total: int) -> Iterator[int]:
    """The sizes a class's ``total`` rows are drawn in, :data:`ROW_PIECE` at a time
    (numpy's generator gives the same numbers drawn in pieces as at once)."""
    piece = max(1, ROW_PIECE)
    for start in range(0, total, piece):
        yield min(piece, total - start)


@dataclass(frozen=True)
class RowMaps:
    """For drawing rows (each class's rows laid out group after group, highest score
    first): the positive group of each positive row (None: one row per group), each
    negative row's bin among the positive groups (2k: before positive group k; 2k + 1:
    in positive group k's own tie group), and how many rows of each class lie above
    the active point."""

    groups: Groups
    pos_group: npt.NDArray[np.intp] | None
    neg_bin: npt.NDArray[np.int32]
    pos_cut: int
    neg_cut: int

    @classmethod
    def of(cls, g: Groups, point: int) -> RowMaps:
        pos_group = None
        if g.pos.size != g.positives:
            pos_group = np.repeat(np.arange(g.pos.size, dtype=np.intp), g.pos)
        before = np.searchsorted(g.pos_at, g.neg_at, side="left")  # positive groups above
        same = np.zeros(g.neg_at.size, dtype=bool)
        hit = before < g.pos_at.size
        same[hit] = g.pos_at[before[hit]] == g.neg_at[hit]
        # int32: gathering it at random rows moves half the bytes of intp (faster, even
        # with bincount's conversion).
        bins = (2 * before + same).astype(np.int32)
        neg_bin = bins if g.neg.size == g.negatives else np.repeat(bins, g.neg)
        pos_cut = int(g.pos[: int(np.searchsorted(g.pos_at, point, side="left"))].sum())
        neg_cut = int(g.neg[: int(np.searchsorted(g.neg_at, point, side="left"))].sum())
        return cls(g, pos_group, neg_bin, pos_cut, neg_cut)

    def pos_counts(self, drawn: IntArray) -> IntArray:
        """Drawn positive rows counted per positive group."""
        rows = drawn if self.pos_group is None else self.pos_group[drawn]
        return np.bincount(rows, minlength=self.groups.pos.size).astype(np.int64)

    def neg_counts(self, drawn: IntArray) -> IntArray:
        """Drawn negative rows counted per negative group."""
        return self.neg_groups(self.neg_rows(drawn))

    def neg_rows(self, drawn: IntArray) -> IntArray:
        """Drawn negative rows counted per row (pieces of a draw add up)."""
        return np.bincount(drawn, minlength=self.groups.negatives).astype(np.int64, copy=False)

    def neg_groups(self, rows: IntArray) -> IntArray:
        """Per-row counts of drawn negatives summed per negative group."""
        g = self.groups
        if g.neg.size == g.negatives:
            return rows
        starts = np.concatenate(([0], np.cumsum(g.neg[:-1])))
        return np.add.reduceat(rows, starts).astype(np.int64)

    def neg_bins(self, drawn: IntArray) -> IntArray:
        """Drawn negative rows counted per bin among the positive groups (pieces of a
        draw add up)."""
        return np.bincount(self.neg_bin[drawn], minlength=2 * self.groups.pos.size + 2)

    def summaries(self, pos: IntArray, drawn_neg: IntArray) -> tuple[float, float]:
        """Average precision and the PR trapezoid area, as :func:`replicate_summaries` gives
        them, from per-group positives and the drawn negative rows."""
        return self.summaries_of(pos, self.neg_bins(drawn_neg))

    def summaries_of(self, pos: IntArray, binned: IntArray) -> tuple[float, float]:
        """:meth:`summaries` from the negatives' bins (:meth:`neg_bins`)."""
        g = self.groups
        k = g.pos.size
        tp = np.cumsum(pos)
        fp = np.cumsum(binned)[1 : 2 * k : 2]  # negatives at or above each positive group
        entering_neg = binned[1 : 2 * k : 2]
        return _ap_area(g.positives, pos, tp, fp, entering_neg)


@dataclass(frozen=True)
class Replicate:
    """One replicate's per-group counts (positives at ``pos_at``, negatives at ``neg_at``)."""

    pos: IntArray
    neg: IntArray


@dataclass(frozen=True)
class RowDraw:
    """One replicate drawn as rows: the counts at the active point and, when asked for,
    the per-group positives, the negatives' bins (:meth:`RowMaps.neg_bins`) and the
    per-group negatives."""

    tp: int
    fp: int
    pos: IntArray | None = None
    binned: IntArray | None = None
    neg: IntArray | None = None


def draw_rows(
    rng: np.random.Generator,
    rows: RowMaps,
    *,
    summaries: bool,
    groups: bool,
    tick: Callable[[], None],
) -> RowDraw:
    """A replicate's rows drawn piece by piece (:func:`pieces`), ``tick`` after each:
    each class's positions are counted at the active point and, for ``summaries``,
    binned (for ``groups``, per negative group too). Pieces of a draw add up to the
    draw, so the replicate is the one drawn at once."""
    g = rows.groups
    tp, pos = 0, None
    for size in pieces(g.positives):
        drawn = rng.integers(0, g.positives, size)
        tp += int(np.count_nonzero(drawn < rows.pos_cut))
        if summaries:
            pos = _add(pos, rows.pos_counts(drawn))
        tick()
    fp, binned, neg = 0, None, None
    for size in pieces(g.negatives):
        drawn = rng.integers(0, g.negatives, size)
        fp += int(np.count_nonzero(drawn < rows.neg_cut))
        if summaries:
            binned = _add(binned, rows.neg_bins(drawn))
            if groups:
                neg = _add(neg, rows.neg_rows(drawn))
        tick()
    return RowDraw(tp, fp, pos, binned, None if neg is None else rows.neg_groups(neg))


def _add(total: IntArray | None, part: IntArray) -> IntArray:
    """``part`` added to the counts so far (a fresh array, so added in place)."""
    if total is None:
        return part
    total += part
    return total


def replicate_summaries(g: Groups, r: Replicate) -> tuple[float, float]:
    """Average precision and the PR trapezoid area of a replicate."""
    tp = np.cumsum(r.pos)  # TP at each positive group's point
    cum_neg = np.concatenate(([0], np.cumsum(r.neg)))
    fp = cum_neg[g.neg_before]  # FP at the same points
    entering_neg = np.where(g.neg_here >= 0, r.neg[np.maximum(g.neg_here, 0)], 0)
    return _ap_area(g.positives, r.pos, tp, fp, entering_neg)


def _ap_area(
    positives: int, pos: IntArray, tp: IntArray, fp: IntArray, entering_neg: IntArray
) -> tuple[float, float]:
    """AP and the PR area from each positive group's drawn positives, TP and FP at its
    point, and the negatives entering with it."""
    # Where nothing is predicted positive no positive entered (pos is 0 there), so the
    # value divided does not count: dividing by at least 1 keeps the arithmetic plain.
    precision = tp / np.maximum(tp + fp, 1)
    ap = dot(pos, precision) / positives
    # The segment into each point where recall rises starts at the point before the
    # group entered; where nothing was predicted positive there it starts at precision 1.
    prev_tp = tp - pos
    prev_pred = prev_tp + fp - entering_neg
    prev = np.where(prev_pred > 0, prev_tp / np.maximum(prev_pred, 1), 1.0)
    area = dot(pos, precision + prev) / (2 * positives)
    return ap, area


def at_counts(tp: float, fp: float, pos: float, neg: float, beta: float) -> dict[str, float]:
    """The non-proportion threshold metrics of one confusion matrix, as floats (NaN
    where undefined, as core's metrics are), from the one formula table."""
    cells = Cells(tp, fp, pos=pos, neg=neg)
    b2 = beta_squared(beta)
    out = {}
    for name in AT_THRESHOLD:
        f = FORMULAS[name]
        num, den = f.parts(cells, b2 if name == "fbeta" else _ONE)
        if den == 0:
            out[name] = math.nan
        elif f.root:
            out[name] = 0.0 if num == 0 else num / math.sqrt(den)
        else:
            out[name] = num / den
    return out


_ONE = Fraction(1)


def _cumulative(g: Groups, r: Replicate) -> tuple[IntArray, IntArray]:
    """A replicate's TP and FP at every point of the sweep (its own curve)."""
    tp = np.zeros(g.size + 1, dtype=np.int64)
    fp = np.zeros(g.size + 1, dtype=np.int64)
    tp[g.pos_at + 1] = r.pos
    fp[g.neg_at + 1] = r.neg
    np.cumsum(tp, out=tp)
    np.cumsum(fp, out=fp)
    return tp, fp


def _curves(
    g: Groups, r: Replicate, own: tuple[IntArray, IntArray] | None = None
) -> tuple[FloatArray, FloatArray]:
    """A replicate's TPR at each FPR of :data:`GRID` and precision at each recall of
    :data:`PR_GRID` (``own``: its TP and FP, when already summed)."""
    tp, fp = own if own is not None else _cumulative(g, r)
    x = _snap(GRID * g.negatives)
    j = np.searchsorted(fp, x, side="right") - 1  # the last point with FP <= x
    nxt = np.minimum(j + 1, g.size)
    run = fp[nxt] - fp[j]
    part = np.divide(x - fp[j], run, out=np.zeros(x.shape[0]), where=run > 0)
    tpr = (tp[j] + part * (tp[nxt] - tp[j])) / g.positives
    k = np.searchsorted(tp, _snap(PR_GRID * g.positives), side="left")  # first point reaching it
    k = np.minimum(k, g.size)
    precision = tp[k] / np.maximum(tp[k] + fp[k], 1)
    return tpr, precision


def _snap(x: FloatArray) -> FloatArray:
    """Grid counts that are whole but for rounding (0.07 · 100) made whole."""
    whole = np.rint(x)
    return np.where(np.abs(x - whole) <= 1e-9 * np.maximum(1.0, np.abs(x)), whole, x)


def replicate_sweep(
    sweep: Sweep, g: Groups, r: Replicate, own: tuple[IntArray, IntArray] | None = None
) -> Sweep:
    """A replicate's own sweep: ``sweep``'s thresholds with the replicate's counts
    (``own``: its TP and FP, when already summed)."""
    tp, fp = own if own is not None else _cumulative(g, r)
    return replace(sweep, tp=tp, fp=fp)


@dataclass(frozen=True)
class Bands:
    """Pointwise percentile bands: TPR at each FPR of ``fpr``, precision at each
    recall of ``recall``."""

    fpr: FloatArray
    tpr_low: FloatArray
    tpr_high: FloatArray
    recall: FloatArray
    precision_low: FloatArray
    precision_high: FloatArray

    def as_json(self) -> dict[str, object]:
        def r(a: FloatArray) -> list[float]:
            return [round(float(v), 12) for v in a]

        return {
            "roc": {"fpr": r(self.fpr), "tpr_low": r(self.tpr_low), "tpr_high": r(self.tpr_high)},
            "pr": {
                "recall": r(self.recall),
                "precision_low": r(self.precision_low),
                "precision_high": r(self.precision_high),
            },
        }


@dataclass(frozen=True)
class Estimate:
    """One statistic's bootstrap interval, or None and why; ``undefined`` counts the
    replicates where the statistic had no value (left out of the percentiles)."""

    interval: Interval | None
    reason: str | None
    undefined: int = 0
    #: A goal's threshold only: where the goal is feasible over the replicates, and how
    #: the chosen threshold is spread (:class:`Choices`).
    choices: Choices | None = None

    def as_json_fields(self) -> dict[str, object]:
        extra: dict[str, object] = {}
        if self.choices is not None:
            extra["choices"] = self.choices.as_json()
        if self.interval is None:
            return {"interval": None, "interval_reason": self.reason, **extra}
        out = self.interval.as_json()
        if self.undefined:
            out["undefined_replicates"] = self.undefined
        return {"interval": out, **extra}


@dataclass(frozen=True)
class Choices:
    """A goal solved on every replicate: in how many it is feasible, in how many it
    chooses above all scores, and the chosen thresholds' quartiles over the feasible
    replicates (lowest, lower quartile, median, upper quartile, highest; each a chosen
    threshold, no interpolation, above all scores counted as the highest of all and
    said as None; the whole None when no replicate is feasible)."""

    replicates: int
    feasible: int
    above_all: int
    quartiles: tuple[float | None, float | None, float | None, float | None, float | None] | None

    @classmethod
    def of(cls, values: FloatArray) -> Choices:
        """From each replicate's threshold: NaN infeasible, +inf above all scores."""
        chosen = values[~np.isnan(values)]
        q = None
        if chosen.size:
            got = [
                float(x)
                for x in np.quantile(chosen, [0, 0.25, 0.5, 0.75, 1], method="inverted_cdf")
            ]
            a, b, c, d, e = (None if math.isinf(x) else x for x in got)
            q = (a, b, c, d, e)
        infeasible = int(np.isnan(values).sum())
        above = int(np.isposinf(values).sum())
        return cls(int(values.shape[0]), int(values.shape[0]) - infeasible, above, q)

    def as_json(self) -> dict[str, object]:
        return {
            "replicates": self.replicates,
            "feasible": self.feasible,
            "feasible_share": self.feasible / self.replicates if self.replicates else None,
            "above_all": self.above_all,
            "quartiles": None if self.quartiles is None else list(self.quartiles),
        }

    def sentence(self) -> str:
        """``feasible in 988 of 1000 resamples; the chosen threshold ranges ...``."""
        said = f"feasible in {self.feasible} of {self.replicates} resamples"
        if self.above_all:
            said += f" ({self.above_all} of them above all scores)"
        if self.quartiles is not None:
            lo, q1, med, q3, hi = (
                "above all scores" if x is None else f"{x:.4g}" for x in self.quartiles
            )
            said += (
                f"; the chosen threshold ranges from {lo} to {hi}, its quartiles {q1}, "
                f"{med} (median) and {q3}"
            )
        return said


@dataclass(frozen=True)
class Bootstrap:
    """A finished bootstrap: its settings and every estimate it made."""

    replicates: int
    seed: int
    confidence: float
    point: int
    estimates: dict[str, Estimate]
    bands: Bands | None = None

    def estimate(self, name: str) -> Estimate | None:
        return self.estimates.get(name)


def unavailable(sweep: Sweep) -> str | None:
    """Why ``sweep`` cannot be bootstrapped, or None."""
    if not sweep.whole_counts():
        return NOT_WHOLE
    if sweep.positives == 0:
        return "there are no actual positives to resample (TP+FN=0)"
    if sweep.negatives == 0:
        return "there are no actual negatives to resample (FP+TN=0)"
    return None


def _percentile(
    values: FloatArray, confidence: float, b: int, seed: int, reason_all: str
) -> Estimate:
    ok = np.isfinite(values)
    undefined = int(values.shape[0] - ok.sum())
    # Replicates without a value could belong in either tail: beyond a tail's share of
    # them, the percentiles of the rest would not be the interval.
    if undefined > (1 - confidence) / 2 * b:
        return Estimate(None, f"{reason_all} in {undefined} of {b} replicates", undefined)
    lo, hi = np.quantile(values[ok], [(1 - confidence) / 2, (1 + confidence) / 2])
    same = same_value_words(values, confidence, undefined) if lo == hi else None
    return Estimate(
        Interval(float(lo), float(hi), "bootstrap", confidence, replicates=b, seed=seed, same=same),
        None,
        undefined,
    )


def bootstrap(
    sweep: Sweep,
    point: int,
    *,
    beta: float = 2.0,
    replicates: int = REPLICATES,
    seed: int = SEED,
    confidence: float = CONFIDENCE,
    bands: bool = False,
    goal: SweepStatistic | None = None,
    progress: Progress | None = None,
    base: Bootstrap | None = None,
    clock: Callable[[], float] = time.monotonic,
    curves: Sequence[CurveStatistic] = (),
) -> Bootstrap:
    """A stratified bootstrap of ``sweep`` (see the module's note).

    ``point`` is the active operating point (its threshold metrics get intervals);
    ``goal`` reads a goal's chosen threshold off each replicate's sweep (it gets an
    interval, ``goal_threshold``); ``progress(done, total)`` is called by ``clock``
    (:class:`Pace`: at most :data:`REPORT_EVERY` seconds apart between pieces of work,
    and at the end), and returning False stops the run (:class:`Cancelled`).

    ``curves``: threshold-free numbers read off each replicate's own sweep (the
    readouts and partial AUCs: each replicate re-reads its own curve).

    ``base``: a finished run of the same rows, seed and replicates at another point.
    The same replicates are drawn again (the seed fixes them) but only counted at
    ``point``; the threshold-free estimates and bands are ``base``'s. A threshold
    move costs the draws, not the curves.
    """
    check_confidence(confidence)
    why = unavailable(sweep)
    if why is not None:
        names = [
            *SUMMARIES,
            *AT_THRESHOLD,
            *(["goal_threshold"] if goal else []),
            *(n for c in curves for n in c.names),
        ]
        unknown = {n: Estimate(None, why) for n in names}
        return Bootstrap(replicates, seed, confidence, point, unknown)
    pace = Pace(progress, replicates, clock)
    g = groups_of(sweep)  # a tenth of a second at 10^6 scores, more beside the screen's work
    pace.tick()
    rng = np.random.default_rng(seed)
    only_point = base is not None
    if only_point:
        goal, bands = None, False
    values: dict[str, FloatArray] = {
        name: np.empty(replicates) for name in (*SUMMARIES, *AT_THRESHOLD)
    }
    goal_values = np.empty(replicates) if goal is not None and goal.read is not None else None
    goal_reason = None if goal is None else goal.unavailable
    roc = np.empty((replicates, GRID.shape[0])) if bands else None
    prc = np.empty((replicates, PR_GRID.shape[0])) if bands else None
    # The active point covers groups 0 .. point - 1: so many positive and negative groups.
    pos_cut = int(np.searchsorted(g.pos_at, point, side="left"))
    neg_cut = int(np.searchsorted(g.neg_at, point, side="left"))
    rows = RowMaps.of(g, point) if max(g.positives, g.negatives) <= ROW_DRAW_LIMIT else None
    pace.tick()
    extra = {} if only_point else {n: np.empty(replicates) for c in curves for n in c.names}
    labels = {n: label for c in curves for n, label in zip(c.names, c.labels, strict=True)}
    groups_wanted = roc is not None or goal_values is not None or bool(extra)
    for i in range(replicates):
        pace.done = i
        if rows is not None:
            # The same draws as :func:`draw`'s, read without per-group negatives unless a
            # band or a goal needs them: the same replicates, faster.
            d = draw_rows(rng, rows, summaries=not only_point, groups=groups_wanted, tick=pace.tick)
            tp, fp = float(d.tp), float(d.fp)
            if d.pos is None or d.binned is None:
                ap_area = (math.nan, math.nan)
            else:
                ap_area = rows.summaries_of(d.pos, d.binned)
                r = Replicate(d.pos, d.pos[:0] if d.neg is None else d.neg)
        else:
            drawn = draw(rng, g.pos, g.positives)
            pace.tick()
            r = Replicate(drawn, draw(rng, g.neg, g.negatives))
            ap_area = (math.nan, math.nan) if only_point else replicate_summaries(g, r)
            tp = float(r.pos[:pos_cut].sum())
            fp = float(r.neg[:neg_cut].sum())
        values["average_precision"][i], values["pr_trapezoid_area"][i] = ap_area
        for name, v in at_counts(tp, fp, g.positives, g.negatives, beta).items():
            values[name][i] = v
        # The replicate's own curve, summed once for the bands, the goal and the curves.
        counts = _cumulative(g, r) if roc is not None or extra else None
        if roc is not None and prc is not None:
            roc[i], prc[i] = _curves(g, r, counts)
        own = None
        if goal_values is not None and goal is not None and goal.read is not None:
            pace.tick()
            own = replicate_sweep(sweep, g, r, counts)
            goal_values[i] = goal.read(own)
        if extra:
            pace.tick()
            own = own if own is not None else replicate_sweep(sweep, g, r, counts)
            for stat in curves:
                for name, value in zip(stat.names, stat.read(own), strict=True):
                    extra[name][i] = value
        pace.done = i + 1
        pace.tick()
    pace.end()
    estimates = {
        name: _percentile(v, confidence, replicates, seed, f"{_LABEL[name]} was undefined")
        for name, v in values.items()
        if not (only_point and name in SUMMARIES)
    }
    for name, read in extra.items():
        estimates[name] = _percentile(
            read, confidence, replicates, seed, f"{labels[name]} was undefined"
        )
    if base is not None:
        kept = {k: v for k, v in base.estimates.items() if k not in AT_THRESHOLD}
        return Bootstrap(replicates, seed, confidence, point, {**kept, **estimates}, base.bands)
    if goal is not None:
        if goal_values is None:
            estimates["goal_threshold"] = Estimate(None, goal_reason)
        else:
            estimates["goal_threshold"] = replace(
                _percentile(goal_values, confidence, replicates, seed, goal.undefined),
                choices=Choices.of(goal_values),
            )
    out_bands = None
    if roc is not None and prc is not None:
        r_lo, r_hi = _band(roc, confidence, pace.tick)
        p_lo, p_hi = _band(prc, confidence, pace.tick)
        out_bands = Bands(GRID.copy(), r_lo, r_hi, PR_GRID.copy(), p_lo, p_hi)
    return Bootstrap(replicates, seed, confidence, point, estimates, out_bands)


def _band(
    curves: FloatArray, confidence: float, tick: Callable[[], None]
) -> tuple[FloatArray, FloatArray]:
    """The percentile band of replicates' curves (a row each), read
    :data:`BAND_COLUMNS` grid points at a time with ``tick`` between: at B = 100,000
    one grid at once is half a second a cancel could not stop."""
    q = [(1 - confidence) / 2, (1 + confidence) / 2]
    parts = []
    for start in range(0, curves.shape[1], BAND_COLUMNS):
        parts.append(np.quantile(curves[:, start : start + BAND_COLUMNS], q, axis=0))
        tick()
    low, high = np.concatenate(parts, axis=1)
    return low, high


_LABEL = {
    "average_precision": "average precision",
    "pr_trapezoid_area": "the PR trapezoid area",
    "f1": "F1",
    "fbeta": "F-beta",
    "mcc": "MCC",
    "balanced_accuracy": "balanced accuracy",
    "lr_plus": "LR+",
    "lr_minus": "LR−",
    "cohen_kappa": "Cohen's kappa",
    "informedness": "informedness",
    "markedness": "markedness",
    "diagnostic_odds_ratio": "the diagnostic odds ratio",
    "fowlkes_mallows": "the Fowlkes-Mallows index",
}


@dataclass(frozen=True)
class CurveStatistic:
    """Threshold-free numbers of a replicate's sweep, read together: ``read`` gives
    one per name in ``names`` (NaN where undefined); ``labels`` name them in the reason
    an interval is missing."""

    read: Callable[[Sweep], tuple[float, ...]]
    names: tuple[str, ...]
    labels: tuple[str, ...]


@dataclass(frozen=True)
class SweepStatistic:
    """A number read off each replicate's own sweep (a goal's chosen threshold, which
    :mod:`threshold_lab.core.decide` reads): ``read`` gives it, NaN when a replicate
    has none (``undefined`` says why, for the interval's reason); or ``read`` is None
    and ``unavailable`` says why it is not resampled at all."""

    read: Callable[[Sweep], float] | None
    unavailable: str | None = None
    undefined: str = "the goal was infeasible or chose above all scores"
