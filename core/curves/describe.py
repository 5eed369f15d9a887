"""A curve's shape in a few sentences, each made from one claim over the exact sweep.

A claim is ``{"kind", "text", ...}``: its arguments are exact (fractions as strings
``"a/b"``, thresholds as the scores they are), and only claims that hold are made; its
text may round a fraction with ``≈``. The kinds, for ROC:

- ``rises_before_first_fp``: the TPR reached before the first false positive (made
  when it is above 0);
- ``reaches``: the TPR at FPR <= 0.01 and at FPR <= 0.1, each where that FPR admits
  at least one negative (N >= 100, N >= 10: an FPR below 1/N is FPR 0, said already);
- ``below_chance``: each maximal run of points strictly below the diagonal, by FPR;
- ``hull``: the convex hull's vertices, and the thresholds of those strictly inside
  (0, 1);
- ``steepest``: the step of the largest likelihood ratio after the first step (a
  vertical step, no negative entering, is the steepest there is), the first among ties;
- ``flat_run``: the longest run of FPR with no TPR gain;
- ``one_step``: every row has one score, so the curve is the chance diagonal's one step;
- ``area``: the area under the curve (the trapezoid ROC AUC), said last, so that a
  curve with little to say still has three sentences and a long one drops it first;
- with other models of the same rows: ``crosses``, each FPR where this model's curve
  goes from above another's to below it or back (:mod:`.crossings`; the first
  :data:`CROSSINGS_SAID` of each pair said, each with how many there are), or, where
  they never cross, ``dominates`` (one is never below the other and above it
  somewhere) or ``same_curve``.

For PR: ``precision_at_first`` (at the highest threshold), ``dips`` (each point where
precision falls by more than 1/10 from the point before and a later point recovers to
at least where it fell from), ``full_recall`` (the highest threshold at which every
positive is found, and the precision there), ``baseline`` (the prevalence: a random
ranking's precision). At most 7 sentences; a curve of rows with one class has none, and says why.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import blocks, int_dot, shifted
from threshold_lab.core.curves.crossings import compare_curves
from threshold_lab.core.curves.export import curve_kind
from threshold_lab.core.curves.hull import hull_vertices
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.metrics.metric import format_fraction
from threshold_lab.core.threshold import format_threshold

KINDS = ("roc", "pr")
IntArray = npt.NDArray[np.int64]
MOST = 7
#: How many below-chance runs and precision dips are said, at most.
RUNS_SAID = 2
#: How many hull corners are named by their thresholds (more are counted).
CORNERS_SAID = 5
#: How many crossings of each pair of models are said (each says how many there are).
CROSSINGS_SAID = 3
#: The fewest sentences of the curve's own shape kept beside the models' crossings.
SHAPE_KEPT = 3


@dataclass(frozen=True)
class Description:
    """The sentences, the claims they are made from (one each), or why there are none."""

    kind: str
    claims: tuple[dict[str, Any], ...]
    reason: str | None = None

    @property
    def sentences(self) -> list[str]:
        return [c["text"] for c in self.claims]

    def as_json(self) -> dict[str, Any]:
        return {"sentences": self.sentences, "claims": list(self.claims), "reason": self.reason}


def parse_kind(text: object) -> str:
    return curve_kind("describe", text, KINDS)


def parse_kinds(text: str) -> tuple[str, ...]:
    """``--describe``'s value: a curve (roc or pr), or ``none`` for no description.

    >>> parse_kinds("PR"), parse_kinds("none")
    (('pr',), ())
    """
    return () if text.strip().lower() == "none" else (parse_kind(text),)


def _f(x: Fraction) -> str:
    return format_fraction(x)


def _said(x: Fraction) -> str:
    """``2/3 ≈ 0.667``; ``1``; ``1/2 = 0.5``; ``3/3000001 ≈ 1e-06``."""
    if x.denominator == 1:
        return str(x.numerator)
    shown = f"{float(x):.3g}"
    return f"{_f(x)} {'=' if Fraction(shown) == x else '≈'} {shown}"


def _t(t: float) -> str:
    return format_threshold(t)


def describe(
    sweep: Sweep,
    kind: str = "roc",
    hull: Sequence[int] | None = None,
    *,
    name: str = "",
    others: Sequence[tuple[str, Sweep]] = (),
) -> Description:
    """``sweep``'s ``kind`` curve (roc or pr) described (see the module's text). Claims
    are exact: made only where the counts are whole. Every pass is over numpy arrays
    (a 10^7-point sweep is described in a few of them); fractions are made only for
    the few points a claim names. ``hull``: the convex hull's vertices when they are
    known already (the cost curve has them), else found here. ``others``: other
    models of the same rows, by name, whose ROC curves this one's (``name``) is
    compared with."""
    kind = parse_kind(kind)
    pos, neg = sweep.positives, sweep.negatives
    if float(pos) <= 0 or (kind == "roc" and float(neg) <= 0):
        missing = "positives" if float(pos) <= 0 else "negatives"
        return Description(kind, (), f"the rows have no actual {missing}: the curve is undefined")
    if not sweep.whole_counts():
        return Description(
            kind, (), "the weights are not whole: its claims are made on exact counts only"
        )
    tp = np.asarray(sweep.tp, dtype=np.int64)
    fp = np.asarray(sweep.fp, dtype=np.int64)
    p, n = round(float(pos)), round(float(neg))
    if kind == "roc":
        vertices = list(hull) if hull is not None else hull_vertices(sweep).tolist()
        claims = _roc(tp, fp, p, n, sweep, [int(v) for v in vertices])
        crossing = _crossings(name or "this model", sweep, others)[: MOST - SHAPE_KEPT]
        claims = claims[: MOST - len(crossing)] + crossing
    else:
        claims = _pr(tp, fp, p, n, sweep)
    return Description(kind, tuple(claims[:MOST]))


def _threshold(sweep: Sweep, k: int) -> float:
    return float(sweep.thresholds[k - 1])


def _runs(
    mask_of: Callable[[slice], npt.NDArray[np.bool_]], start: int, stop: int
) -> Iterator[tuple[IntArray, IntArray]]:
    """The maximal runs of True of a mask over ``start:stop``, first to last: for each
    block, the first and last indices of the runs that end in it. The mask is made a
    block at a time (``mask_of(s)`` for the indices of slice ``s``), so no temporary
    is longer than a block; a run may span blocks. Read lazily: taking the first few
    runs reads only as far as they go."""
    carried = -1  # the first index of a run still open at the end of the last block
    for s in blocks(start, stop):
        mask = mask_of(s)
        firsts = np.flatnonzero(mask[1:] & ~mask[:-1]) + (s.start + 1)
        lasts = np.flatnonzero(mask[:-1] & ~mask[1:]) + s.start
        if mask[0]:
            firsts = np.concatenate(([carried if carried >= 0 else s.start], firsts))
        elif carried >= 0:
            lasts = np.concatenate(([s.start - 1], lasts))
            firsts = np.concatenate(([carried], firsts))
        carried = int(firsts[-1]) if mask[-1] else -1
        if mask[-1]:
            firsts = firsts[:-1]
        yield firsts.astype(np.int64), lasts.astype(np.int64)
    if carried >= 0:
        yield np.array([carried], dtype=np.int64), np.array([stop - 1], dtype=np.int64)


def _first_runs(runs: Iterator[tuple[IntArray, IntArray]], most: int) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for firsts, lasts in runs:
        out += zip(
            firsts[: most - len(out)].tolist(), lasts[: most - len(out)].tolist(), strict=True
        )
        if len(out) >= most:
            break
    return out


def _roc(
    tp: IntArray, fp: IntArray, p: int, n: int, sweep: Sweep, vertices: list[int]
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    m = tp.shape[0]
    before = int(tp[int(np.searchsorted(fp, 0, side="right")) - 1])  # FP never falls
    if before > 0:
        tpr = Fraction(before, p)
        out.append(
            {
                "kind": "rises_before_first_fp",
                "text": f"Before the first false positive the curve rises to TPR {_said(tpr)}: "
                + (
                    "the highest-scored positive comes before any negative."
                    if before == 1
                    else f"the {before} highest-scored positives come before any negative."
                ),
                "tpr": _f(tpr),
            }
        )
    for limit, least in ((Fraction(1, 100), 100), (Fraction(1, 10), 10)):
        if n < least:
            continue
        # The last point with FP/N <= limit: FP <= floor(num·N/den), in integers.
        most = limit.numerator * n // limit.denominator
        k = int(np.searchsorted(fp, most, side="right")) - 1
        tpr = Fraction(int(tp[k]), p)
        out.append(
            {
                "kind": "reaches",
                "text": f"At FPR {float(limit):g} or less it reaches TPR {_said(tpr)}.",
                "fpr": _f(limit),
                "tpr": _f(tpr),
            }
        )
    # Below the diagonal: TP·N < FP·P, in integers.
    below = _runs(lambda s: tp[s] * n < fp[s] * p, 0, m)
    for a, b in _first_runs(below, RUNS_SAID):
        lo, hi = Fraction(int(fp[a]), n), Fraction(int(fp[b]), n)
        span = f"at FPR {_said(lo)}" if lo == hi else f"from FPR {_said(lo)} to {_said(hi)}"
        if lo == hi == 1:
            # Only the last positives, scored below every negative, keep it under the
            # diagonal: said as that, not as a model ranking negatives first.
            left = p - int(tp[a])
            text = (
                f"At FPR 1 the curve is below the chance diagonal (TPR "
                f"{_said(Fraction(int(tp[a]), p))}) until the "
                + (
                    "lowest-scored positive enters: it scores"
                    if left == 1
                    else f"{left} lowest-scored positives enter: they score"
                )
                + " below every negative."
            )
        else:
            text = (
                f"The curve lies below the chance diagonal {span}: there the model ranks "
                "negatives above positives."
            )
        out.append(
            {
                "kind": "below_chance",
                "text": text,
                "fpr_from": _f(lo),
                "fpr_to": _f(hi),
            }
        )
    inside = [_threshold(sweep, v) for v in vertices if 0 < v < m - 1]
    if not inside:
        corners = "no corner between the ends"
    elif len(inside) <= CORNERS_SAID:
        corners = f"the thresholds at its corners between the ends: {', '.join(map(_t, inside))}"
    else:
        corners = f"{len(inside)} corners between the ends"
    out.append(
        {
            "kind": "hull",
            "text": f"Its convex hull has {len(vertices)} vertices; {corners}.",
            "vertices": len(vertices),
            "thresholds": inside,
        }
    )
    steep = _steepest(tp, fp)
    if steep is not None:
        k = steep
        ins, outs = int(tp[k] - tp[k - 1]), int(fp[k] - fp[k - 1])  # positives, negatives
        how = (
            "vertical" if outs == 0 else f"a likelihood ratio of {_f(Fraction(ins * n, outs * p))}"
        )
        out.append(
            {
                "kind": "steepest",
                "text": f"After the first step its steepest stretch is at threshold "
                f"{_t(_threshold(sweep, k))}: {ins} positive{'s' if ins != 1 else ''} and "
                f"{outs} negative{'s' if outs != 1 else ''} enter ({how}).",
                "threshold": _threshold(sweep, k),
                "positives": ins,
                "negatives": outs,
            }
        )
    flat = _longest_flat(tp, fp)
    if flat is not None:
        a, b = flat
        lo, hi = Fraction(int(fp[a]), n), Fraction(int(fp[b]), n)
        out.append(
            {
                "kind": "flat_run",
                "text": f"Its longest flat stretch runs from FPR {_said(lo)} to {_said(hi)} "
                f"at TPR {_said(Fraction(int(tp[a]), p))}: negatives enter and no positive.",
                "fpr_from": _f(lo),
                "fpr_to": _f(hi),
            }
        )
    if m == 2:
        out.append(
            {
                "kind": "one_step",
                "text": "Every row has the same score: the curve is one straight step from "
                "(0, 0) to (1, 1), the chance diagonal, and ranks nothing.",
            }
        )
    # Twice the trapezoids' area times P·N, in integers: ΣΔFP·(TP_k + TP_(k-1)).
    twice = 0
    for s in blocks(1, m):
        dfp = fp[s] - fp[shifted(s, -1)]
        twice += int_dot(dfp, tp[s]) + int_dot(dfp, tp[shifted(s, -1)])
    area = Fraction(twice, 2 * p * n)
    out.append(
        {
            "kind": "area",
            "text": f"The area under it (ROC AUC, trapezoid) is {_said(area)}.",
            "auc": _f(area),
        }
    )
    return out


def _crossings(
    name: str, sweep: Sweep, others: Sequence[tuple[str, Sweep]]
) -> list[dict[str, Any]]:
    """The ``crosses``, ``dominates`` and ``same_curve`` claims of ``name``'s ROC curve
    against each of ``others`` (those of other class counts are left out)."""
    out: list[dict[str, Any]] = []
    for other, theirs in others:
        got = compare_curves(sweep, theirs)
        if got is None:
            continue
        total = len(got.crossings)
        for i, c in enumerate(got.crossings[:CROSSINGS_SAID]):
            was, now = ("above", "below") if c.a_goes_below else ("below", "above")
            which = f" (crossing {i + 1} of {total})" if total > 1 else ""
            out.append(
                {
                    "kind": "crosses",
                    "text": f"Model {name}'s ROC curve goes from {was} model {other}'s to "
                    f"{now} it at FPR {_said(c.fpr)}{which}.",
                    "model": name,
                    "other": other,
                    "fpr": _f(c.fpr),
                    "goes": "below" if c.a_goes_below else "above",
                    "crossings": total,
                }
            )
        if total:
            continue
        if got.side == 0:
            out.append(
                {
                    "kind": "same_curve",
                    "text": f"Model {name}'s ROC curve is model {other}'s: they rank alike.",
                    "model": name,
                    "other": other,
                }
            )
            continue
        top, under = (name, other) if got.side > 0 else (other, name)
        out.append(
            {
                "kind": "dominates",
                "text": f"Model {top}'s ROC curve is never below model {under}'s, and above it "
                "somewhere: they never cross.",
                "model": top,
                "other": under,
            }
        )
    return out


def _steepest(tp: IntArray, fp: IntArray) -> int | None:
    """The point k (the step into it, from k-1) of the largest ΔTP/ΔFP after the first
    step, among steps where a positive enters; a vertical step (ΔFP 0) is the
    steepest; the first among ties (compared exactly). A block at a time: the floats
    find each block's largest ratios, integers compare them exactly."""
    best: tuple[int, int, int] | None = None  # the point, its ΔTP and ΔFP
    for s in blocks(2, tp.shape[0]):
        dtp, dfp = tp[s] - tp[shifted(s, -1)], fp[s] - fp[shifted(s, -1)]
        rising = dtp > 0
        if not rising.any():
            continue
        vertical = np.flatnonzero(rising & (dfp == 0))
        if vertical.size:
            return int(vertical[0]) + int(s.start)
        ratio = np.where(rising, dtp / np.maximum(dfp, 1), -1.0)
        near = np.flatnonzero(ratio >= float(ratio.max()) * (1 - 1e-12))
        a, b = dtp[near], dfp[near]
        j = 0  # the exact largest among the near (its first), by cross products
        while True:
            above = np.flatnonzero(a * b[j] > a[j] * b)
            if not above.size:
                break
            j = int(above[0])
        j = int(np.flatnonzero(a * b[j] == a[j] * b)[0])
        here = (int(near[j]) + s.start, int(a[j]), int(b[j]))
        if best is None or here[1] * best[2] > best[1] * here[2]:
            best = here  # strictly steeper: an earlier block keeps a tie
    return None if best is None else best[0]


def _longest_flat(tp: IntArray, fp: IntArray) -> tuple[int, int] | None:
    """The first of the longest flat stretches (equal TP, FPR gained), as its first and
    last point, or None when TP rises at every step."""
    best: tuple[int, int, int] | None = None  # FP gained, first point, last point
    for firsts, lasts in _runs(lambda s: tp[s] == tp[shifted(s, -1)], 1, tp.shape[0]):
        if not firsts.size:
            continue
        # A run of steps with no TP gain: from the point before its first step.
        gained = fp[lasts] - fp[firsts - 1]
        i = int(np.argmax(gained))  # the first among the longest
        if best is None or int(gained[i]) > best[0]:
            best = (int(gained[i]), int(firsts[i]) - 1, int(lasts[i]))
    return None if best is None else best[1:]


def _pr(tp: IntArray, fp: IntArray, p: int, n: int, sweep: Sweep) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    m = tp.shape[0]
    # The first point predicting any weight positive (rows of weight 0 may come first).
    k1 = min(int(np.searchsorted(tp, 0, side="right")), int(np.searchsorted(fp, 0, side="right")))
    if k1 < m:
        first = Fraction(int(tp[k1]), int(tp[k1] + fp[k1]))
        where = (
            "the highest threshold"
            if k1 == 1
            else "the highest threshold that predicts any weight positive"
        )
        out.append(
            {
                "kind": "precision_at_first",
                "text": f"At {where}, {_t(_threshold(sweep, k1))}, precision is {_said(first)}.",
                "threshold": _threshold(sweep, k1),
                "precision": _f(first),
            }
        )
    said = 0
    tops: npt.NDArray[np.float64] | None = None
    for k in _dips(tp, fp):
        if said >= RUNS_SAID or k + 1 >= m:
            break
        if tops is None:  # made once, at the first dip
            tops = _block_tops(tp, fp)
        c, d = int(tp[k - 1]), int(tp[k - 1] + fp[k - 1])
        later = _first_at_least(tp, fp, tops, k + 1, c, d)
        if later is None:
            continue
        was, now = Fraction(c, d), Fraction(int(tp[k]), int(tp[k] + fp[k]))
        said += 1
        out.append(
            {
                "kind": "dips",
                "text": f"At threshold {_t(_threshold(sweep, k))} precision dips from "
                f"{_said(was)} to {_said(now)}, and recovers to {_said(was)} or more at "
                f"threshold {_t(_threshold(sweep, later))}.",
                "threshold": _threshold(sweep, k),
                "precision_before": _f(was),
                "precision_at": _f(now),
            }
        )
    # Every positive found: the first point with TP = P (the highest such threshold).
    k = int(np.searchsorted(tp, p, side="left"))
    if 0 < k < m:
        at = Fraction(p, int(tp[k] + fp[k]))
        out.append(
            {
                "kind": "full_recall",
                "text": f"Every positive is found from threshold {_t(_threshold(sweep, k))} "
                f"down, where precision is {_said(at)}.",
                "threshold": _threshold(sweep, k),
                "precision": _f(at),
            }
        )
    base = Fraction(p, p + n)
    out.append(
        {
            "kind": "baseline",
            "text": f"A random ranking's precision is the prevalence, {_said(base)}.",
            "prevalence": _f(base),
        }
    )
    return out


def _precision(tp: IntArray, fp: IntArray, s: slice) -> npt.NDArray[np.float64]:
    """The points' precision in floats (NaN where nothing is predicted positive)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return tp[s] / (tp[s] + fp[s])


def _dips(tp: IntArray, fp: IntArray) -> Iterator[int]:
    """The points k >= 2 where precision falls by more than 1/10 from point k-1, first
    to last, a block at a time: the floats find the points near or past it; exactly,
    in integers, on those: 10·TP_k·made_{k-1} < (10·TP_{k-1} - made_{k-1})·made_k."""
    for s in blocks(2, tp.shape[0]):
        prec = _precision(tp, fp, slice(s.start - 1, s.stop))
        with np.errstate(invalid="ignore"):
            near = np.flatnonzero(prec[1:] < prec[:-1] - 0.1 + 1e-9) + s.start
        a, b = tp[near], tp[near] + fp[near]
        c, d = tp[near - 1], tp[near - 1] + fp[near - 1]
        yield from near[10 * a * d < (10 * c - d) * b].tolist()


def _block_tops(tp: IntArray, fp: IntArray) -> npt.NDArray[np.float64]:
    """For each block of points (as :func:`blocks` cuts them from 0), the highest
    precision from its start to the end: where a search for a precision can stop."""
    tops = [np.fmax.reduce(_precision(tp, fp, s), initial=-1.0) for s in blocks(0, tp.shape[0])]
    return np.maximum.accumulate(np.array(tops[::-1], dtype=np.float64))[::-1]


def _first_at_least(
    tp: IntArray, fp: IntArray, tops: npt.NDArray[np.float64], start: int, c: int, d: int
) -> int | None:
    """The first point from ``start`` whose precision is at least c/d, exactly
    (TP_j·d >= c·made_j, something predicted), or None. A block at a time, and only
    while a later block (``tops``, :func:`_block_tops`) reaches that high in floats, so
    a dip that never recovers costs at most a block."""
    least = c / d * (1 - 1e-12)
    for i, s in enumerate(blocks(0, tp.shape[0])):
        if s.stop <= start:
            continue
        if tops[i] < least:
            return None
        s = slice(max(s.start, start), s.stop)
        with np.errstate(invalid="ignore"):
            near = np.flatnonzero(_precision(tp, fp, s) >= least) + s.start
        if not near.size:
            continue
        made = tp[near] + fp[near]
        exact = np.flatnonzero((tp[near] * d >= c * made) & (made > 0))
        if exact.size:
            return int(near[exact[0]])
    return None
