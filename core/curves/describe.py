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

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import int_dot
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


def _runs(mask: npt.NDArray[np.bool_]) -> tuple[IntArray, IntArray]:
    """The maximal runs of True: their first and last indices."""
    edges = np.diff(mask.astype(np.int8), prepend=np.int8(0), append=np.int8(0))
    return np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1


def _roc(
    tp: IntArray, fp: IntArray, p: int, n: int, sweep: Sweep, vertices: list[int]
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    m = tp.shape[0]
    # Steps into each point (ΔTP, ΔFP), once: the steepest, flat runs and the area read them.
    dtp, dfp = np.diff(tp), np.diff(fp)
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
    # Below the diagonal: TP·N < FP·P, in integers (two buffers, no other temporaries).
    left, right = np.multiply(tp, n), np.multiply(fp, p)
    below = np.less(left, right, out=np.empty(m, dtype=np.bool_))
    del left, right
    starts, ends = _runs(below)
    for a, b in zip(starts[:RUNS_SAID].tolist(), ends[:RUNS_SAID].tolist(), strict=True):
        lo, hi = Fraction(int(fp[a]), n), Fraction(int(fp[b]), n)
        span = f"at FPR {_said(lo)}" if lo == hi else f"from FPR {_said(lo)} to {_said(hi)}"
        out.append(
            {
                "kind": "below_chance",
                "text": f"The curve lies below the chance diagonal {span}: there the model "
                "ranks negatives above positives.",
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
    steep = _steepest(dtp[1:], dfp[1:])
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
    starts, ends = _runs(np.concatenate([[False], dtp == 0]))
    if starts.size:
        # A run of equal TP, from the point before its first step to its last.
        gained = fp[ends] - fp[starts - 1]
        i = int(np.argmax(gained))  # the first among the longest
        a, b = int(starts[i]) - 1, int(ends[i])
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
    twice = int_dot(dfp, tp[1:]) + int_dot(dfp, tp[:-1])
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


def _steepest(dtp: IntArray, dfp: IntArray) -> int | None:
    """The step (its point k, from k-1) of the largest ΔTP/ΔFP after the first step,
    among steps where a positive enters; a vertical step (ΔFP 0) is the steepest; the
    first among ties (compared exactly). ``dtp``, ``dfp``: the steps into points 2, 3,
    ..."""
    if dtp.shape[0] < 1:
        return None
    rising = dtp > 0
    if not rising.any():
        return None
    vertical = np.flatnonzero(rising & (dfp == 0))
    if vertical.size:
        return int(vertical[0]) + 2
    ratio = np.where(rising, dtp / np.maximum(dfp, 1), -1.0)
    top = float(ratio.max())
    near = np.flatnonzero(ratio >= top * (1 - 1e-12))  # then exactly, on the few near
    best = max(near.tolist(), key=lambda j: (Fraction(int(dtp[j]), int(dfp[j])), -j))
    return int(best) + 2


def _pr(tp: IntArray, fp: IntArray, p: int, n: int, sweep: Sweep) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    m = tp.shape[0]
    # The first point predicting any weight positive (rows of weight 0 may come first).
    k1 = int(np.searchsorted(tp + fp, 0, side="right"))
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
    if m > 2:
        made = tp + fp
        with np.errstate(invalid="ignore"):  # the above-all point: 0/0, never read
            prec = tp / made
        # A dip at k: precision_k < precision_{k-1} - 1/10. The floats find the points
        # near or past it; exactly, in integers, on those:
        # 10·TP_k·made_{k-1} < (10·TP_{k-1} - made_{k-1})·made_k.
        near = np.flatnonzero(prec[2:] < prec[1:-1] - 0.1 + 1e-9) + 2
        a, b, c, d = tp[near], made[near], tp[near - 1], made[near - 1]
        dip = near[10 * a * d < (10 * c - d) * b]
        prec[0] = 0.0
        after = np.maximum.accumulate(prec[::-1])[::-1] if dip.size else prec
        said = 0
        for k in dip.tolist():
            if said >= RUNS_SAID or k + 1 >= m:
                break
            was = Fraction(int(tp[k - 1]), int(made[k - 1]))
            if after[k + 1] < float(was) * (1 - 1e-12):
                continue
            # The first later point at least as precise, exactly (the floats find the
            # few near it): TP_j·made_{k-1} >= TP_{k-1}·made_j.
            near = np.flatnonzero(prec[k + 1 :] >= float(was) * (1 - 1e-12)) + k + 1
            exact = (tp[near] * int(made[k - 1]) >= int(tp[k - 1]) * made[near]) & (made[near] > 0)
            if not exact.any():
                continue
            later = int(near[int(np.argmax(exact))])
            now = Fraction(int(tp[k]), int(made[k]))
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
