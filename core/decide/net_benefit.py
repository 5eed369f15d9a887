"""Decision curves: the net benefit of acting on the model at every threshold
probability, beside acting on everyone and on no one (Vickers and Elkin 2006).

A person who would act on a case whose risk is at least pt weighs a missed positive
(1 − pt) against an unneeded action (pt): FP:FN costs of pt : (1 − pt). Deciding
"act if score >= pt" then has the net benefit

    NB(pt) = TP/n − FP/n · pt/(1 − pt) − harm

(weighted sums and total weight with weights). Acting on everyone has NB_all(pt) =
π − (1 − π)·pt/(1 − pt) with π the prevalence; acting on no one, 0. With a prevalence
given (case-control rows) every NB is TPR·P − FPR·(1 − P)·pt/(1 − pt), and π = P.
Net interventions avoided per 100 are 100·(NB − NB_all)·(1 − pt)/pt, and the
standardised net benefit NB/π.

Exact: each pt takes the sweep's point for ``score >= pt`` (ties enter together, one
point per distinct score), and with whole counts every number is an exact fraction of
the pt as written. For one pt, the point of highest NB is the one of least cost with
FP:FN = pt : (1 − pt), which the goal ``max net_benefit at pt X`` solves.

Within the run of thresholds that keeps one point, the model beats acting on no one
while pt is below that point's precision TP/(TP + FP), and beats acting on everyone
while pt is above its false omission rate FN/(FN + TN) (at a prevalence, and with a
harm, the same with the counts weighted): so the pt where the model is useful are
found exactly, a block of points at a time. Each end of a useful interval is in it or
not by what holds there: an end at a score s is the point acted on from s, useful
there or not; an end where the model only ties treating all or none, or at 0 or 1, is
never in it. Where a bound lies within rounding of a score, it is compared with the
score in fractions, at the decimal the score is written as (the pt a person would
type for it).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import blocks
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.doubles import read_exact
from threshold_lab.core.errors import InputError
from threshold_lab.core.metrics.metric import Metric, from_fraction, undefined
from threshold_lab.core.threshold import Threshold

FloatArray = npt.NDArray[np.float64]

#: The grid of threshold probabilities a report lists by default (dcurves' steps).
DEFAULT_PT = "0.01:0.99:0.01"
#: The most grid points a report lists.
MAX_PT = 10_000

NOT_PROBABILITIES = (
    "decision curves need scores in [0, 1] (probabilities: a transform or calibration "
    "is the user's choice); the {end} score is {value!r}"
)


def _fraction(text: str, what: str) -> Fraction:
    try:
        return read_exact(text.strip())
    except ValueError as exc:
        raise InputError(f"{what}: {exc}") from None


def parse_pt(text: str) -> tuple[Fraction, ...]:
    """``--pt``: ``A:B:S`` (from A to B in steps of S) or a list ``a,b,c``; each
    threshold probability strictly between 0 and 1, read as written (0.1 is one tenth).

    >>> [str(p) for p in parse_pt("0.1:0.3:0.1")], [str(p) for p in parse_pt("0.05, 1/4")]
    (['1/10', '1/5', '3/10'], ['1/20', '1/4'])
    >>> parse_pt("0.5:0.1:0.1")
    Traceback (most recent call last):
    threshold_lab.core.errors.InputError: --pt 0.5:0.1:0.1: the start is above the end
    """
    text = text.strip()
    if not text:
        raise InputError("--pt: give a range A:B:S (0.01:0.99:0.01) or a list (0.05,0.1,0.2)")
    if ":" in text:
        parts = text.split(":")
        if len(parts) != 3:
            raise InputError(f"--pt {text}: a range is START:END:STEP, like 0.01:0.99:0.01")
        start, end, step = (_fraction(p, f"--pt {text}") for p in parts)
        if step <= 0:
            raise InputError(f"--pt {text}: the step must be above 0")
        if start > end:
            raise InputError(f"--pt {text}: the start is above the end")
        count = int((end - start) / step) + 1
        if count > MAX_PT:
            raise InputError(f"--pt {text}: {count} points; at most {MAX_PT}")
        values = [start + i * step for i in range(count)]
    else:
        values = [_fraction(p, f"--pt {text}") for p in text.split(",")]
        if len(values) > MAX_PT:
            raise InputError(f"--pt: {len(values)} points; at most {MAX_PT}")
    for v in values:
        if not 0 < v < 1:
            raise InputError(
                f"--pt {text}: {float(v):g} is not a threshold probability strictly between 0 and 1"
            )
    return tuple(sorted(set(values)))


#: The default grid, parsed.
DEFAULT_GRID = parse_pt(DEFAULT_PT)


def parse_harm(text: str) -> Fraction:
    """``--harm H``: what acting costs on every case, in net benefit's units (true
    positives per case), subtracted from the model's net benefit; at least 0."""
    value = _fraction(text, "--harm")
    if value < 0:
        raise InputError(f"--harm {text.strip()}: a harm is at least 0")
    if value >= 1:
        raise InputError(f"--harm {text.strip()}: a harm is below 1 (net benefit is at most 1)")
    return value


@dataclass(frozen=True)
class NetBenefit:
    """The decision curve at one threshold probability ``pt``: the sweep point acted
    on (``point``, its ``threshold``), the model's net benefit, acting on everyone's,
    the net interventions avoided per 100, and the standardised net benefit; each a
    Metric (exact where the counts are whole), undefined with its reason."""

    pt: Fraction
    point: int
    threshold: Threshold
    net_benefit: Metric
    treat_all: Metric
    interventions_avoided_per_100: Metric
    standardised: Metric

    def as_json(self) -> dict[str, Any]:
        return {
            "pt": float(self.pt),
            "net_benefit": self.net_benefit.value,
            "treat_all": self.treat_all.value,
            "interventions_avoided_per_100": self.interventions_avoided_per_100.value,
            "standardised": self.standardised.value,
            "point": self.point,
            "threshold": self.threshold,
        }


@dataclass(frozen=True)
class DecisionCurve:
    """Net benefit over a grid of threshold probabilities, and where the model beats
    both acting on everyone and acting on no one (``useful_range``: intervals of pt,
    ascending, and ``useful_closed``: whether each end is in its interval, the model
    useful at that pt itself); ``reason`` says why there is none (scores that are not
    probabilities, or a prevalence without both classes)."""

    prevalence: float | None
    harm: Fraction
    grid: tuple[NetBenefit, ...]
    useful_range: tuple[tuple[float, float], ...]
    reason: str | None = None
    #: The prevalence was given (case-control rows), not the rows' own.
    given_prevalence: bool = False
    #: For each interval of ``useful_range``: (its low end is in it, its high end is).
    useful_closed: tuple[tuple[bool, bool], ...] = ()

    def as_json(self) -> dict[str, Any]:
        return {
            "prevalence": self.prevalence,
            "harm": float(self.harm),
            "grid": [row.as_json() for row in self.grid],
            "useful_range": [[lo, hi] for lo, hi in self.useful_range],
            "useful_range_closed": [[lo, hi] for lo, hi in self.useful_closed],
            "reason": self.reason,
        }

    def at(self, pt: float) -> NetBenefit | None:
        """The grid's row at ``pt`` (None: not on the grid)."""
        return next((r for r in self.grid if float(r.pt) == pt), None)


@dataclass(frozen=True)
class Weights:
    """What a positive and a negative count weigh in net benefit (1/n each, or P/Pos
    and (1 − P)/Neg at a given prevalence P), the prevalence π, the harm, and whether
    they are exact fractions."""

    a: Any
    b: Any
    prevalence: Any
    harm: Fraction
    exact: bool

    def odds(self, pt: Any) -> Any:
        return pt / (1 - pt)


def weights_of(sweep: Sweep, prevalence: Fraction | None, harm: Fraction) -> Weights | str:
    """The weights of ``sweep``'s counts, or why net benefit is undefined."""
    ends = sweep.thresholds
    if ends.shape[0] == 0:
        return "there are no rows"
    if float(ends[0]) > 1:
        return NOT_PROBABILITIES.format(end="highest", value=float(ends[0]))
    if float(ends[-1]) < 0:
        return NOT_PROBABILITIES.format(end="lowest", value=float(ends[-1]))
    pos, neg = sweep.positives, sweep.negatives
    exact = sweep.whole_counts()
    if prevalence is not None:
        if not (pos > 0 and neg > 0):
            return (
                "decision curves at a given prevalence need actual positives and "
                "negatives (TPR and FPR)"
            )
        if exact:
            a, b = prevalence / int(pos), (1 - prevalence) / int(neg)
            return Weights(a, b, prevalence, harm, True)
        return Weights(
            float(prevalence) / float(pos),
            float(1 - prevalence) / float(neg),
            float(prevalence),
            harm,
            False,
        )
    total = pos + neg
    if not total > 0:
        return "the rows have no weight"
    if exact:
        n = int(total)
        return Weights(Fraction(1, n), Fraction(1, n), Fraction(int(pos), n), harm, True)
    return Weights(1 / float(total), 1 / float(total), float(pos) / float(total), harm, False)


def _metric(value: Any, name: str, exact: bool) -> Metric:
    if exact:
        return from_fraction(Fraction(value), 0.0, name=name)
    return Metric(float(value), None, None, name)


def net_benefit_row(sweep: Sweep, w: Weights, pt: Fraction) -> NetBenefit:
    """The decision curve at ``pt``: the point for ``score >= pt`` (the threshold read
    as a double, as any typed threshold is), its numbers with ``pt`` as written."""
    k = sweep.index_of(float(pt))
    p = pt if w.exact else float(pt)
    tp, fp = sweep.tp[k].item(), sweep.fp[k].item()
    pos, neg = sweep.positives, sweep.negatives
    if w.exact:
        tp, fp, pos, neg = int(tp), int(fp), int(pos), int(neg)
    harm = w.harm if w.exact else float(w.harm)
    odds = p / (1 - p)
    nb = w.a * tp - w.b * fp * odds - harm
    everyone = w.a * pos - w.b * neg * odds
    avoided = 100 * (nb - everyone) * (1 - p) / p
    std = (
        undefined("no actual positives: the prevalence is 0", name="standardised net benefit")
        if not w.prevalence > 0
        else _metric(nb / w.prevalence, "standardised net benefit", w.exact)
    )
    return NetBenefit(
        pt=pt,
        point=k,
        threshold=sweep.threshold_at(k),
        net_benefit=_metric(nb, "net benefit", w.exact),
        treat_all=_metric(everyone, "net benefit of treating all", w.exact),
        interventions_avoided_per_100=_metric(
            avoided, "net interventions avoided per 100", w.exact
        ),
        standardised=std,
    )


def useful_range(sweep: Sweep, w: Weights) -> tuple[tuple[float, float], ...]:
    """The intervals of pt where the model's net benefit exceeds both acting on
    everyone and on no one, ascending (see :func:`useful_intervals`, which also says
    which ends are in them)."""
    return tuple((lo, hi) for lo, hi, _ in useful_intervals(sweep, w))


#: A bound within this (relative) of a score is compared with it in fractions.
_NEAR = 1e-12


def written(score: float) -> Fraction:
    """The pt a score is, as a person writes it (its shortest decimal, the one that reads
    back as that double): the pt ``net benefit 0.7`` weighs for the score 0.7.

    >>> written(0.7), written(1 / 3)
    (Fraction(7, 10), Fraction(3333333333333333, 10000000000000000))
    """
    return Fraction(repr(score))


def _bounds(sweep: Sweep, w: Weights, k: int) -> tuple[Fraction, Fraction]:
    """Point ``k``'s two bounds in fractions (of the doubles, where the weights are
    not whole): above the low one it beats acting on everyone, below the high one
    acting on no one (see :func:`useful_intervals`)."""
    a, b, harm = Fraction(w.a), Fraction(w.b), Fraction(w.harm)
    tp, fp = Fraction(sweep.tp[k].item()), Fraction(sweep.fp[k].item())
    pos, neg = Fraction(sweep.positives), Fraction(sweep.negatives)
    left, right = a * (pos - tp) + harm, b * (neg - fp)
    low = left / (left + right) if left + right else Fraction(1)
    gain = a * tp - harm
    high = gain / (gain + b * fp) if gain > 0 else Fraction(0)
    return low, high


def useful_intervals(sweep: Sweep, w: Weights) -> tuple[tuple[float, float, bool], ...]:
    """Where the model's net benefit exceeds both acting on everyone and on no one:
    each interval's low end, high end, and whether the high end is in it, ascending (a
    low end never is: see below). A block of points at a time, each point's run of pt
    cut to where its two conditions hold (see the module's note), in doubles, and in
    fractions wherever a bound lies within rounding of a score.

    Point k is acted on for pt in (s_{k+1}, s_k]. Its interval's high end is in it only
    when it is s_k itself with both conditions strict there; its low end is s_{k+1}
    (whose own point is acted on there: were it useful, the two intervals would be one
    run), a bound (a tie) or 0, never in it. A score is weighed as the pt it is written
    as (:func:`written`), the pt a person would ask about: 0.7, not the double a hair
    below it.
    """
    m = sweep.size - 1
    a, b, harm = float(w.a), float(w.b), float(w.harm)
    pos, neg = float(sweep.positives), float(sweep.negatives)
    ts = sweep.thresholds
    runs: list[tuple[float, float, bool]] = []  # (top, bottom, top in it), pt falling
    top_run: float | None = None  # the run still open: its top, bottom, top in it
    bottom_run, top_in = 0.0, False
    for blk in blocks(1, m):  # the first and last points never beat both
        tp, fp = sweep.tp[blk].astype(np.float64), sweep.fp[blk].astype(np.float64)
        # pt/(1 − pt) above (a·FN + H)/(b·TN) beats everyone, below (a·TP − H)/(b·FP) no
        # one: in pt, above (a·FN + H)/(a·FN + H + b·TN) and below (a·TP − H)/(a·TP − H +
        # b·FP), with no infinite odds (0/0: no positives nor negatives left; never).
        with np.errstate(divide="ignore", invalid="ignore"):
            left = a * (pos - tp) + harm
            low = left / (left + b * (neg - fp))
            np.copyto(low, 1.0, where=np.isnan(low))
            gain = a * tp - harm
            high = gain / (gain + b * fp)
            np.copyto(high, 0.0, where=~(gain > 0))
        # Point k is acted on for pt in (s_{k+1}, s_k]: s_k = ts[k-1].
        top = ts[blk.start - 1 : blk.stop - 1]
        bottom = ts[blk.start : blk.stop]
        lo = np.maximum(np.maximum(bottom, low), 0.0)
        hi = np.minimum(np.minimum(top, high), 1.0)
        # At pt = s_k itself point k is acted on: useful there only strictly inside both
        # of its bounds (where they meet it, the model only ties).
        closed = (top > low) & (top < high) & (top < 1.0)
        # Where a bound is within rounding of a score, the doubles may misjudge which
        # side it is on: compared again in fractions.
        tol = _NEAR * np.maximum(1.0, np.abs(top))
        near = (
            (np.abs(low - bottom) <= tol)
            | (np.abs(low - top) <= tol)
            | (np.abs(high - top) <= tol)
            | (np.abs(high - bottom) <= tol)
        )
        for n in np.flatnonzero(near).tolist():
            low_f, high_f = _bounds(sweep, w, blk.start + n)
            t, u = written(float(top[n])), written(float(bottom[n]))
            lo[n] = max(float(u) if low_f <= u else float(low_f), 0.0)
            hi[n] = min(float(t) if high_f >= t else float(high_f), 1.0)
            closed[n] = low_f < t < high_f and t < 1
        keep = np.flatnonzero(lo < hi)
        if keep.shape[0] == 0:
            continue
        lo, hi, closed = lo[keep], hi[keep], closed[keep]
        # Consecutive intervals (pt falling) are one run where they touch at a pt the
        # lower point is useful at: its top is the upper one's bottom, and included.
        joins = np.empty(keep.shape[0], dtype=bool)
        joins[0] = top_run is not None and hi[0] == bottom_run and bool(closed[0])
        joins[1:] = (hi[1:] == lo[:-1]) & closed[1:]
        starts = np.flatnonzero(~joins)
        ends = np.append(starts[1:], keep.shape[0])[: starts.shape[0]] - 1
        if joins[0]:  # the run from the block before goes on, to where a new one starts
            bottom_run = float(lo[starts[0] - 1] if starts.shape[0] else lo[-1])
        for first, last in zip(starts.tolist(), ends.tolist(), strict=True):
            if top_run is not None:
                runs.append((top_run, bottom_run, top_in))
            top_run, bottom_run = float(hi[first]), float(lo[last])
            top_in = bool(closed[first])
    if top_run is not None:
        runs.append((top_run, bottom_run, top_in))
    return tuple((lo_, hi_, in_) for hi_, lo_, in_ in reversed(runs))


def decision_curve(
    sweep: Sweep,
    grid: tuple[Fraction, ...],
    *,
    harm: Fraction = Fraction(0),
    prevalence: Fraction | None = None,
) -> DecisionCurve:
    """The decision curve of ``sweep`` on ``grid``, and its useful range.

    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> from threshold_lab.core.data.presets import preset
    >>> d = decision_curve(build_sweep(preset("canonical").data), parse_pt("0.5"))
    >>> row = d.grid[0]
    >>> row.threshold, row.net_benefit.short(), row.treat_all.short(), d.useful_range
    (0.8, '1/5', '1/5', ((0.5, 0.6666666666666666), (0.8, 0.9)))
    >>> d.useful_closed  # at 0.9 itself the row scored 0.9 is acted on, and useful
    ((False, False), (False, True))
    """
    w = weights_of(sweep, prevalence, harm)
    if isinstance(w, str):
        return DecisionCurve(None, harm, (), (), w, prevalence is not None)
    rows = tuple(net_benefit_row(sweep, w, pt) for pt in grid)
    found = useful_intervals(sweep, w)
    return DecisionCurve(
        float(w.prevalence),
        harm,
        rows,
        tuple((lo, hi) for lo, hi, _ in found),
        None,
        prevalence is not None,
        tuple((False, closed) for _, _, closed in found),
    )


def net_benefits(sweep: Sweep, w: Weights, pt: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The model's net benefit and acting on everyone's at each ``pt`` (doubles): the
    chart's curves and each bootstrap replicate's reading."""
    ascending = sweep.thresholds[::-1]
    k = ascending.shape[0] - np.searchsorted(ascending, pt, side="left")
    odds = pt / (1.0 - pt)
    tp, fp = sweep.tp[k].astype(np.float64), sweep.fp[k].astype(np.float64)
    a, b = float(w.a), float(w.b)
    nb = a * tp - b * fp * odds - float(w.harm)
    everyone = a * float(sweep.positives) - b * float(sweep.negatives) * odds
    return nb, everyone


def net_benefit_reader(
    grid: tuple[Fraction, ...], harm: Fraction, prevalence: Fraction | None
) -> Callable[[Sweep], tuple[float, ...]]:
    """What a bootstrap replicate reads: its own net benefit at each grid pt (NaN where
    it has none), its rows' own weights (a resample has its own n and prevalence)."""
    pts = np.asarray([float(p) for p in grid])

    def read(sweep: Sweep) -> tuple[float, ...]:
        w = weights_of(sweep, prevalence, harm)
        if isinstance(w, str):
            return tuple(math.nan for _ in grid)
        w = Weights(float(w.a), float(w.b), float(w.prevalence), harm, False)
        return tuple(net_benefits(sweep, w, pts)[0].tolist())

    return read


def net_benefit_key(pt: Fraction) -> str:
    """The bootstrap's name for the net benefit at ``pt``."""
    return f"net_benefit@{float(pt)!r}"
