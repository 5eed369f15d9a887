"""Per-group thresholds for a stated fairness criterion, exact over each group's
tie-grouped sweep (never a grid).

One threshold a group, each at one of that group's own sweep points (the
above-all point included), maximising the goal's objective on all rows pooled,
subject to the criterion's gap (the largest difference of its rate across groups)
being at most the tolerance E:

- ``demographic_parity``: the selection rate, (TP+FP)/n;
- ``equal_opportunity``: TPR; ``equalized_odds``: TPR and FPR, each within E;
- ``predictive_parity``: precision (points with nothing predicted positive have
  none, and are not candidates);
- ``same_goal``: no joint constraint: each group solves the goal on its own rows.

**The search.** Let the window's low end be the smallest rate chosen: it is one of
the rates some group can reach. For each such value ``lo``, every group may take
only the points whose rate lies in [lo, lo + E]; in a group's points sorted by rate
those are one run (two binary searches), and since a pooled objective that is linear
in the counts (accuracy, recall, cost, net benefit, ...) is a sum of one term a
group, each group takes the best point of its run (a sparse table answers each
range-maximum in O(1)). The best ``lo`` wins. That is exhaustive: every feasible
choice of points has its smallest rate as some ``lo``, and for that ``lo`` nothing
beats each group's best in its run. Cost: O(m log m) to build, then O(G·V) for G
groups and V distinct rates (V ≤ the number of sweep points), vectorised.

A ratio objective (precision, F1, F-beta, NPV, Jaccard: N/D with N and D linear in
the counts) is solved by Dinkelbach's iteration: maximise N − λD with the search
above, set λ to the N/D reached, repeat until nothing beats λ; each step strictly
increases λ over finitely many choices, and the last step is the exhaustive search
proving that none does better. Objectives that are neither (MCC, kappa, the
likelihood ratios, ...) are refused, naming the ones that work.

Equalised odds needs a window for each rate: its search runs over pairs of low ends
(O(G·V_tpr·V_fpr)); past :data:`PAIR_LIMIT` pairs it is refused as too large to
search exactly, rather than searched in part.

**The runner-up** is what it is for one threshold: the best feasible choice with the
next objective value, the best's value excepted. Within one low end's runs any choice
falls short of the best (each group at the best point of its run) by the sum of what
each group gives up, so the next value there moves the one group that gives up least
to the next value of its run (a second sparse table: each range's best and the best of
another value); over all low ends it is the highest of those, or of a low end's best
that is below the best overall. That is exhaustive, as the search is, for an objective
that is a sum a group. A ratio's next value is searched apart, exactly (see
:mod:`.next_ratio`). The best choice at another low end is kept beside it,
``best_other_low_end``. When every choice within the gap leaves a ratio undefined (its
denominator 0), the answer is infeasible and says so.

Ties: among equal objective values, the smallest low end, then each group's highest
threshold (fewest rows predicted positive); the runner-up's, the smallest low end,
then the first group (in order) whose move gives up the least. Rates are compared in
floats, and where a rate falls within 1e-12 (relative) of a window's edge, exactly by integer
cross-products of the counts, which covers every place rounding could misjudge (with
whole counts; weights that are not whole are compared in floats, and said so). A low
end is compared as its float: two different fractions of counts are two different
floats while the denominators' product stays under about 10^14 (groups of up to 10^7
rows).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.choices import CRITERIA, TOLERANCE
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.decide.goal import Goal
from threshold_lab.core.decide.text import solved_at
from threshold_lab.core.doubles import read_exact
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.groups.gaps import RATE_WORDS, rate_terms
from threshold_lab.core.groups.next_ratio import next_ratio
from threshold_lab.core.groups.randomised import Randomised, solve_randomised
from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.metrics.metric import Metric, from_fraction, undefined
from threshold_lab.core.metrics.threshold_metrics import threshold_metrics
from threshold_lab.core.threshold import Threshold

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

#: Each criterion's rates (the gap is the largest difference of each across groups).
CRITERION_RATES: dict[str, tuple[str, ...]] = {
    "demographic_parity": ("selection_rate",),
    "equal_opportunity": ("tpr",),
    "equalized_odds": ("tpr", "fpr"),
    "predictive_parity": ("precision",),
    "same_goal": (),
}
#: Equalised odds: the most (low TPR, low FPR) pairs searched exactly, times groups.
PAIR_LIMIT = 200_000_000

#: Objectives linear in the pooled counts: value = (a·ΣTP + b·ΣFP + c) with a, b, c
#: from the totals (P, N, n); larger is better after the goal's direction.
LINEAR = (
    "accuracy",
    "recall",
    "specificity",
    "fpr",
    "fnr",
    "balanced_accuracy",
    "youden",
    "informedness",
    "queue_rate",
    "predicted_positives",
    "cost",
    "net_benefit",
)
#: Objectives N/D with N and D linear in the pooled counts.
RATIO = ("precision", "f1", "fbeta", "npv", "jaccard")


def parse_criterion(text: str) -> str:
    word = text.strip().lower().replace("-", "_")
    if word not in CRITERIA:
        raise InputError(
            f"--group-goal {quoted(text)}: not a criterion; give one of: {', '.join(CRITERIA)}"
        )
    return word


def parse_tolerance(text: str) -> Fraction:
    try:
        e = read_exact(text)
    except ValueError:
        raise InputError(
            f"--tolerance {quoted(text)}: not a number (0.01, or a fraction 1/100)"
        ) from None
    if not 0 <= e <= 1:
        raise InputError(f"--tolerance {quoted(text)}: the gap allowed is between 0 and 1")
    return e


@dataclass(frozen=True)
class GroupSweep:
    """One group's sweep, as the search reads it."""

    name: str
    sweep: Sweep

    @property
    def whole(self) -> bool:
        return self.sweep.whole_counts()


@dataclass(frozen=True)
class Choice:
    """One threshold a group (``None``: above all scores), by group name, the sweep
    point of each, the pooled objective and the criterion's gap there."""

    thresholds: dict[str, Threshold]
    points: tuple[int, ...]
    objective: Metric
    gap: Metric

    def as_json(self) -> dict[str, Any]:
        return {
            "thresholds": dict(self.thresholds),
            "points": dict(zip(self.thresholds, self.points, strict=True)),
            "objective_value": self.objective.as_json(),
            "gap": self.gap.as_json(),
        }


@dataclass(frozen=True)
class GroupThresholds:
    """The search's answer (see the module's docstring)."""

    criterion: str
    objective: str
    tolerance: Fraction
    feasible: bool
    reason: str | None
    chosen: Choice | None
    runner_up: Choice | None = None
    #: How the search went: exhaustive, its size, and whether in floats.
    search: str = ""
    #: Infeasible: the smallest gap any thresholds reach (a lower bound for two rates).
    smallest_gap: float | None = None
    #: ``--randomised``: each group's mixture of two points hitting one common rate.
    randomised: Randomised | None = None
    #: The best choice whose low end (smallest rate) is another than the best's.
    best_other_low_end: Choice | None = None
    #: Why there is no runner-up (a ratio objective; every feasible choice equal).
    runner_up_reason: str | None = None

    def changed(self) -> list[str]:
        """The groups whose threshold the runner-up moves from the chosen one."""
        c, r = self.chosen, self.runner_up
        if c is None or r is None:
            return []
        return [name for name, k, j in zip(c.thresholds, c.points, r.points, strict=True) if k != j]

    def as_json(self) -> dict[str, Any]:
        c = self.chosen
        runner = None if self.runner_up is None else self.runner_up.as_json()
        if runner is not None:
            runner["changed"] = self.changed()
        other = self.best_other_low_end
        return {
            "criterion": self.criterion,
            "objective": self.objective,
            "tolerance": float(self.tolerance),
            "feasible": self.feasible,
            "reason": self.reason,
            "thresholds": None if c is None else dict(c.thresholds),
            "points": None if c is None else dict(zip(c.thresholds, c.points, strict=True)),
            "objective_value": None if c is None else c.objective.as_json(),
            "gap": None if c is None else c.gap.as_json(),
            "runner_up": runner,
            "runner_up_reason": self.runner_up_reason,
            "best_other_low_end": None if other is None else other.as_json(),
            "search": self.search,
            "smallest_gap": self.smallest_gap,
            "randomised": None if self.randomised is None else self.randomised.as_json(),
        }

    def _runner_up_words(self, metric: str) -> str:
        """``runner-up (the best choice with the next cost): 62, 1 more than the best;
        3 at 0.14 instead of 0.13; the TPR gap 0``."""
        c, r = self.chosen, self.runner_up
        assert c is not None and r is not None
        text = f"runner-up (the best choice with the next {metric}): {_said(r.objective)}"
        if r.objective.value is not None and c.objective.value is not None:
            if r.objective.exact is not None and c.objective.exact is not None:
                d = abs(r.objective.exact - c.objective.exact)
                by = _said(from_fraction(d, float(d)))
            else:
                by = f"≈ {abs(r.objective.value - c.objective.value):.4g}"
            more = "more" if r.objective.value > c.objective.value else "less"
            text += f", {by} {more} than the best"
        moves = [
            f"{name} at {_where(r.thresholds[name])} instead of {_where(c.thresholds[name])}"
            for name in self.changed()
        ]
        text += "; " + ", ".join(moves)
        if self.criterion != "same_goal":
            rates = " and ".join(RATE_WORDS[x] for x in CRITERION_RATES[self.criterion])
            text += f"; the {rates} gap {_said(r.gap)}"
        return text

    def sentences(self) -> list[str]:
        """The report's lines: each group's threshold, the pooled objective, the gap."""
        if self.criterion == "same_goal":
            head = f"Per-group thresholds: each group solves {self.objective} on its own rows:"
        else:
            head = (
                f"Per-group thresholds for {self.criterion.replace('_', ' ')} (gap <= "
                f"{_fraction_text(self.tolerance)}), {self.objective} on all rows "
                "pooled:"
            )
        if not self.feasible or self.chosen is None:
            return [head, f"  infeasible: {self.reason}", f"  ({self.search})"]
        c = self.chosen
        lines = [head]
        for name, t in c.thresholds.items():
            lines.append(f"  {name}: threshold {'above all' if t is None else repr(t)}")
        metric = c.objective.name or self.objective
        said = f"  {metric} on all rows pooled = {_said(c.objective)}"
        if self.criterion != "same_goal":
            rates = " and ".join(RATE_WORDS[r] for r in CRITERION_RATES[self.criterion])
            said += f"; the {rates} gap {_said(c.gap)}"
        lines.append(said)
        if self.runner_up is not None:
            lines.append(f"  {self._runner_up_words(metric)}")
        elif self.runner_up_reason is not None:
            lines.append(f"  (no runner-up: {self.runner_up_reason})")
        lines.append(f"  ({self.search})")
        if self.randomised is not None:
            rnd = self.randomised
            rate = RATE_WORDS[CRITERION_RATES[self.criterion][0]]
            at = _fraction_text(rnd.rate)
            lines.append(
                f"  Randomised (--randomised; identical cases may be decided "
                f"differently): every group at {rate} {at}"
            )
            lines += [f"    {m.sentence(name)}" for name, m in rnd.mixtures.items()]
            v = rnd.objective
            shown = str(v) if v.denominator == 1 else f"{v} ≈ {float(v):.4f}"
            lines.append(
                f"    expected {self.chosen.objective.name if self.chosen else ''} on "
                f"all rows pooled = {shown}"
            )
        return lines


def _where(t: Threshold) -> str:
    return "above all" if t is None else repr(t)


def _said(m: Metric) -> str:
    if m.value is None:
        return f"undefined ({m.reason})"
    if m.exact is not None:
        shown = m.short()
        return shown if m.exact.denominator == 1 else f"{shown} ≈ {m.value:.4f}"
    return f"≈ {m.value:.4f}"


def _fraction_text(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{x} = {float(x):g}"


# --- the objective -------------------------------------------------------------------


@dataclass(frozen=True)
class _Form:
    """value = (a·ΣTP + b·ΣFP + c) / (d·ΣTP + e·ΣFP + f), maximised (``sign`` -1 for a
    goal that minimises)."""

    num: tuple[Fraction, Fraction, Fraction]
    den: tuple[Fraction, Fraction, Fraction] | None
    sign: int

    def value(self, tp: Any, fp: Any) -> Any:
        a, b, c = self.num
        n = a * tp + b * fp + c
        if self.den is None:
            return n
        d, e, f = self.den
        return (n, d * tp + e * fp + f)


def _form(goal: Goal, pos: Fraction, neg: Fraction, beta: float) -> _Form:
    m = goal.metric
    n = pos + neg
    one, zero = Fraction(1), Fraction(0)
    sign = 1 if goal.maximise else -1
    if m == "cost":
        costs = {cell: c.value for cell, c in goal.costs}
        if any(v is None for v in costs.values()):
            raise InputError(
                "per-group thresholds: a cost goal's costs must be numbers, not columns"
            )
        cfp, cfn = Fraction(costs.get("fp") or 0), Fraction(costs.get("fn") or 0)
        ctp, ctn = Fraction(costs.get("tp") or 0), Fraction(costs.get("tn") or 0)
        # cost = ctp·TP + cfp·FP + ctn·(N − FP) + cfn·(P − TP)
        return _Form((ctp - cfn, cfp - ctn, ctn * neg + cfn * pos), None, -1)
    linear = {
        "accuracy": ((one / n, -one / n, neg / n)),
        "recall": (one / pos, zero, zero) if pos else None,
        "specificity": (zero, -one / neg, one) if neg else None,
        "fpr": (zero, one / neg, zero) if neg else None,
        "fnr": (-one / pos, zero, one) if pos else None,
        "balanced_accuracy": (one / (2 * pos), -one / (2 * neg), Fraction(1, 2))
        if pos and neg
        else None,
        "youden": (one / pos, -one / neg, zero) if pos and neg else None,
        "informedness": (one / pos, -one / neg, zero) if pos and neg else None,
        "queue_rate": (one / n, one / n, zero),
        "predicted_positives": (one, one, zero),
    }
    if m == "net_benefit":
        pt = goal.pt or Fraction(1, 2)
        return _Form((one / n, -pt / (1 - pt) / n, zero), None, 1)
    if m in linear:
        form = linear[m]
        if form is None:
            raise InputError(
                f"per-group thresholds: {m} is undefined on the pooled rows (a class is missing)"
            )
        return _Form(form, None, sign)
    b2 = Fraction(repr(float(beta))) ** 2
    ratio = {
        "precision": ((one, zero, zero), (one, one, zero)),
        "f1": ((2 * one, zero, zero), (one, one, pos)),
        "fbeta": ((1 + b2, zero, zero), (one, one, b2 * pos)),
        "npv": ((zero, -one, neg), (-one, -one, pos + neg)),
        "jaccard": ((one, zero, zero), (zero, one, pos)),
    }
    if m in ratio:
        num, den = ratio[m]
        return _Form(num, den, sign)
    raise InputError(
        f"per-group thresholds: the objective {m} is not a sum over groups nor a ratio of two, "
        f"so no exact search is known here; use one of: {', '.join(LINEAR + RATIO)}"
    )


# --- the search ----------------------------------------------------------------------


@dataclass
class _Group:
    name: str
    tp: FloatArray
    fp: FloatArray
    pos: float
    neg: float
    thresholds: FloatArray
    whole: bool

    def rate(self, name: str) -> tuple[FloatArray, FloatArray]:
        """Each point's rate as (numerator, denominator)."""
        num, den = rate_terms(name, self.tp, self.fp, self.pos, self.neg)
        return np.broadcast_to(num, self.tp.shape), np.broadcast_to(den, self.tp.shape)

    def threshold(self, k: int) -> Threshold:
        return None if k == 0 else float(self.thresholds[k - 1])


class _Table:
    """Range argmax over ``vals`` (ties: the smallest ``keys``), by a sparse table of
    ranks: each position's place in the order (value descending, key ascending), so a
    range's best is its smallest rank, one ``np.minimum`` a level. With ``second``,
    also each range's best of another value than its best (the smallest rank whose
    value is below the best's), kept beside it a level at a time."""

    def __init__(self, vals: FloatArray, keys: IntArray, *, second: bool = False) -> None:
        m = vals.shape[0]
        by_rank = np.lexsort((keys, -vals))  # rank -> position
        rank = np.empty(m, dtype=np.int64)
        rank[by_rank] = np.arange(m)
        self.by_rank = by_rank
        self.m = m
        self.seconds: list[npt.NDArray[np.int64]] = []
        if second:
            # Ranks are in order of value: the first rank of each value, and for each
            # rank the first one of a lower value (m: none).
            ranked = vals[by_rank]
            starts = np.flatnonzero(ranked[1:] != ranked[:-1]) + 1
            ends = np.append(starts, m)
            self.lower = ends[np.searchsorted(starts, np.arange(m), side="right")]
            self.seconds.append(np.full(m, m, dtype=np.int64))
        levels = [rank]
        j = 1
        while (1 << j) <= m:
            prev = levels[-1]
            half = 1 << (j - 1)
            n = m - (1 << j) + 1
            levels.append(np.minimum(prev[:n], prev[half : half + n]))
            if second:
                before = self.seconds[-1]
                self.seconds.append(
                    self._second(
                        prev[:n], before[:n], prev[half : half + n], before[half : half + n]
                    )[1]
                )
            j += 1
        self.levels = levels

    def _second(
        self, f1: npt.NDArray[np.int64], s1: Any, f2: npt.NDArray[np.int64], s2: Any
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Two ranges' (best, best of another value) ranks, merged: the better best,
        and the smallest of the rest whose value is below it. Each range's own second
        is below its best, so below the better one too; the other best is below it
        unless it has the same value (or is the same rank: the ranges may overlap)."""
        best, worse = np.minimum(f1, f2), np.maximum(f1, f2)
        worse = np.where(worse >= self.lower[best], worse, self.m)
        return best, np.minimum(np.minimum(s1, s2), worse)

    def argmax(self, lo: IntArray, hi: IntArray) -> IntArray:
        """The best position in [lo, hi) for each pair (hi > lo)."""
        j = np.floor(np.log2(np.maximum(hi - lo, 1))).astype(np.intp)
        best = np.empty(lo.shape, dtype=np.int64)
        for level in np.unique(j).tolist():
            sel = np.flatnonzero(j == level)
            table = self.levels[level]
            best[sel] = np.minimum(table[lo[sel]], table[hi[sel] - (1 << level)])
        out: IntArray = self.by_rank[best]
        return out

    def argmax2(self, lo: IntArray, hi: IntArray) -> tuple[IntArray, IntArray]:
        """The best position in [lo, hi) for each pair (hi > lo), and the best of
        another (lower) value there, -1 where every value in it is the best's (the table
        built with ``second``)."""
        j = np.floor(np.log2(np.maximum(hi - lo, 1))).astype(np.intp)
        best = np.empty(lo.shape, dtype=np.int64)
        other = np.empty(lo.shape, dtype=np.int64)
        for level in np.unique(j).tolist():
            sel = np.flatnonzero(j == level)
            first, firsts = self.levels[level], self.seconds[level]
            a, b = lo[sel], hi[sel] - (1 << level)
            best[sel], other[sel] = self._second(first[a], firsts[a], first[b], firsts[b])
        found = other < self.m
        return self.by_rank[best], np.where(found, self.by_rank[np.where(found, other, 0)], -1)


@dataclass
class _Sorted:
    """A group's candidate points sorted by one rate (stable: by point within ties)."""

    order: IntArray  # positions in the sorted order -> sweep points
    rate: FloatArray
    num: FloatArray
    den: FloatArray


def _sorted_by(g: _Group, rate: str) -> _Sorted:
    num, den = g.rate(rate)
    ok = den > 0
    points = np.flatnonzero(ok)
    r = num[ok] / den[ok]
    order = np.argsort(r, kind="stable")
    return _Sorted(points[order], r[order], num[ok][order], den[ok][order])


#: A low end as the fraction of counts it is: (numerators, denominators), aligned with
#: the candidate values.
Exact = tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]


def _upper(s: _Sorted, lo: FloatArray, lo_exact: Exact | None, e: Fraction) -> IntArray:
    """For each low end, how many sorted points have rate <= lo + e: by floats, then
    exactly (integer cross-products of the counts) wherever a rate lies within 1e-12
    of the edge (``lo_exact`` None: floats only, for weights that are not whole)."""
    hi = lo + float(e)
    r = np.searchsorted(s.rate, hi, side="right")
    if lo_exact is None or s.rate.shape[0] == 0:
        return r
    m = s.rate.shape[0]
    tol = 1e-12 * np.maximum(1.0, np.abs(hi))
    for _ in range(64):  # each round moves past one value of the rate; few are near
        k_in, k_out = np.maximum(r - 1, 0), np.minimum(r, m - 1)
        check_in = np.flatnonzero((r > 0) & (np.abs(s.rate[k_in] - hi) <= tol))
        check_out = np.flatnonzero((r < m) & (np.abs(s.rate[k_out] - hi) <= tol))
        bad_in = check_in[~_within(s, k_in[check_in], lo_exact, check_in, e)]
        bad_out = check_out[_within(s, k_out[check_out], lo_exact, check_out, e)]
        if bad_in.size == 0 and bad_out.size == 0:
            break
        # Equal rates are equal floats: a point's whole value moves out, or in, at once.
        r[bad_in] = np.searchsorted(s.rate, s.rate[k_in[bad_in]], side="left")
        r[bad_out] = np.searchsorted(s.rate, s.rate[k_out[bad_out]], side="right")
    return r


def _within(
    s: _Sorted, k: IntArray, lo_exact: Exact, i: IntArray, e: Fraction
) -> npt.NDArray[np.bool_]:
    """Whether point ``k``'s rate num/den <= a/b + en/ed (the low end i's a/b), exactly:
    num·b·ed <= a·den·ed + en·den·b, in int64 where it cannot overflow."""
    if k.size == 0:
        return np.zeros(0, dtype=bool)
    num, den = s.num[k].astype(np.int64), s.den[k].astype(np.int64)
    a, b = lo_exact[0][i], lo_exact[1][i]
    en, ed = e.numerator, e.denominator
    top = float(max(num.max(), a.max(), 1)) * float(max(den.max(), b.max(), 1))
    if top * max(ed, en, 1) * 2 < 2.0**62:
        out: npt.NDArray[np.bool_] = num * b * ed <= a * den * ed + en * den * b
        return out
    return np.array(
        [
            int(x) * int(y) * ed <= int(p) * int(q) * ed + en * int(q) * int(y)
            for x, q, p, y in zip(num, den, a, b, strict=True)
        ],
        dtype=bool,
    )


#: A search's answer: the best choice's points (empty: none feasible) and total, the
#: best at another low end, and the runner-up's points and total (when asked for).
Found = tuple[IntArray, float, "IntArray | None", "tuple[IntArray, float] | None"]


class _Windows:
    """Every constrained group's run of points for each low end of the window [lo, lo
    + e] of ``rate``: found once, then searched for as many objectives as Dinkelbach's
    iteration asks (only the values change)."""

    def __init__(self, groups: Sequence[_Group], rate: str, e: Fraction, exact: bool) -> None:
        self.sorted = [_sorted_by(g, rate) for g in groups]
        candidates = np.unique(np.concatenate([s.rate for s in self.sorted]))
        lo_exact = _exact_rates(self.sorted, candidates) if exact else None
        self.feasible = np.ones(candidates.shape, dtype=bool)
        self.runs = []
        for s in self.sorted:
            lo_i = np.searchsorted(s.rate, candidates, side="left")
            hi_i = _upper(s, candidates, lo_exact, e)
            ok = hi_i > lo_i
            self.feasible &= ok
            self.runs.append((lo_i, hi_i))
        keep = np.flatnonzero(self.feasible)  # low ends where every group has a point
        self.runs = [(lo_i[keep], hi_i[keep]) for lo_i, hi_i in self.runs]

    def best(self, vals: Sequence[FloatArray], rel: float | None = None) -> Found:
        """The best choice (points, total), the best at another low end (or None), and
        with ``rel`` the runner-up (see :func:`_next_value`) and its total, or None;
        points empty when no low end lets every group in."""
        if not self.feasible.any():
            return np.zeros(0, dtype=np.intp), -math.inf, None, None
        total = np.zeros(self.runs[0][0].shape)
        picks = []
        least = _Least(len(total))
        for s, (lo_i, hi_i), v in zip(self.sorted, self.runs, vals, strict=True):
            table = _Table(v[s.order], s.order, second=rel is not None)
            if rel is None:
                point = s.order[table.argmax(lo_i, hi_i)]
            else:
                b, o = table.argmax2(lo_i, hi_i)
                point = s.order[b]
                least.add(point, np.where(o >= 0, s.order[np.maximum(o, 0)], -1), v)
            picks.append(point)
            total += v[point]
        i = int(np.argmax(total))  # the first (smallest low end) among equals
        chosen = np.array([p[i] for p in picks], dtype=np.intp)
        elsewhere = None
        all_points = np.stack(picks)  # groups x low ends
        differs = np.any(all_points != chosen[:, None], axis=0)
        if differs.any():
            j = int(np.argmax(np.where(differs, total, -np.inf)))
            elsewhere = all_points[:, j].copy()
        runner = None
        if rel is not None:
            runner = _next_value(total, all_points, least, rel)
        return chosen, float(total[i]), elsewhere, runner


class _Least:
    """Over the groups, one at a time: for each window, the least any group gives up by
    moving to the next value of its run, the first group that gives up that much, and
    the point it moves to."""

    def __init__(self, windows: int) -> None:
        self.loss = np.full(windows, np.inf)
        self.group = np.zeros(windows, dtype=np.intp)
        self.point = np.full(windows, -1, dtype=np.intp)
        self.groups = 0

    def add(self, best: IntArray, other: IntArray, v: FloatArray) -> None:
        """The next group: its best point in each window, its best of the next value
        (-1: none), and its values."""
        loss = np.where(other >= 0, v[best] - v[np.maximum(other, 0)], np.inf)
        less = loss < self.loss  # strictly: the first group keeps a tie
        self.loss = np.where(less, loss, self.loss)
        self.group[less] = self.groups
        self.point[less] = other[less]
        self.groups += 1


def _next_value(
    total: FloatArray, best: IntArray, least: _Least, rel: float
) -> tuple[IntArray, float] | None:
    """The runner-up over windows (low ends, in order): each window's ``total`` (its
    best), each group's best point there (``best``, groups x windows) and the least a
    move gives up (``least``). A window below the best overall offers its best; one at
    the best offers its best with the group that gives up least moved. The highest
    offer below the best (by more than ``rel`` of it: 0 for whole counts, whose values
    are whole numbers, held exactly), at the first window, and its value; None when no
    choice is below the best."""
    top = float(np.max(total))
    tol = rel * max(1.0, abs(top))
    below = total < top - tol
    offer = np.where(below, total, total - least.loss)
    offer = np.where(offer < top - tol, offer, -np.inf)
    if not np.isfinite(offer).any():
        return None
    i = int(np.argmax(offer))
    points = best[:, i].copy()
    if not below[i]:
        points[least.group[i]] = least.point[i]
    return points, float(offer[i])


def _ratio_runner_up(
    groups: Sequence[_Group],
    form: _Form,
    chosen: IntArray,
    criterion: str,
    e: Fraction,
    exact: bool,
    windows: Sequence[_Windows],
    known: Sequence[IntArray],
) -> tuple[tuple[IntArray, float] | None, str | None]:
    """A ratio's runner-up (see :mod:`.next_ratio`), or why there is none."""
    if not exact:
        return None, "its next value is searched on whole counts only (the weights are not whole)"
    assert form.den is not None
    orders: list[IntArray]
    if criterion == "equalized_odds":
        _, _, runs = _pair_runs(groups, e, exact)
        orders = [np.arange(g.tp.shape[0], dtype=np.intp) for g in groups]

        def batches() -> Iterator[list[tuple[IntArray, IntArray]]]:
            low_tprs = runs[0][0].shape[0]
            return (spans for _, spans in _pair_windows(low_tprs, runs))

    else:
        w = windows[0] if windows else _Windows(groups, CRITERION_RATES[criterion][0], e, exact)
        orders = [s.order for s in w.sorted]

        def batches() -> Iterator[list[tuple[IntArray, IntArray]]]:
            return iter([list(w.runs)])

    found = next_ratio(
        [g.tp.astype(np.int64) for g in groups],
        [g.fp.astype(np.int64) for g in groups],
        form.num,
        form.den,
        form.sign,
        chosen.tolist(),
        orders,
        batches,
        [k.tolist() for k in known],
    )
    if isinstance(found, str):
        return None, found
    if found is None:
        return None, None
    return (found[0], float(found[1])), None


def _exact_rates(sorted_: Sequence[_Sorted], candidates: FloatArray) -> Exact:
    """Each candidate low end as a fraction of counts: equal fractions are equal floats,
    so the first point with that float, in any group, is one."""
    rate = np.concatenate([s.rate for s in sorted_])
    num = np.concatenate([s.num for s in sorted_]).astype(np.int64)
    den = np.concatenate([s.den for s in sorted_]).astype(np.int64)
    _, first = np.unique(rate, return_index=True)  # aligned with np.unique's candidates
    assert first.shape == candidates.shape
    return num[first], den[first]


def _pair_search(
    groups: Sequence[_Group],
    vals: Sequence[FloatArray],
    e: Fraction,
    exact: bool,
    rel: float | None = None,
) -> Found:
    """Equalised odds: TPR within [a, a + e] and FPR within [b, b + e] for every group,
    over every pair (a, b) of reachable rates. TPR and FPR rise with the sweep point, so
    each window is a run of points, and their intersection too. With ``rel``, the
    runner-up too: for each low TPR, over its low FPRs, its best and its own runner-up
    (:func:`_next_value`); then, over the low TPRs in order, the best of one whose best
    is below the best overall, or the runner-up of one at it."""
    va, _, runs = _pair_runs(groups, e, exact)
    tables = [_Table(v, np.arange(v.shape[0], dtype=np.intp), second=rel is not None) for v in vals]
    totals = np.full(va.shape, -np.inf)
    picks_at: list[IntArray | None] = [None] * va.shape[0]
    nexts: list[tuple[IntArray, float] | None] = [None] * va.shape[0]
    for i, spans in _pair_windows(va.shape[0], runs):
        total = np.zeros(len(spans[0][0]))
        picks = []
        least = _Least(total.shape[0])
        for (lo, hi), t, v in zip(spans, tables, vals, strict=True):
            if rel is None:
                point = t.argmax(lo, hi)
            else:
                point, other = t.argmax2(lo, hi)
                least.add(point, other, v)
            picks.append(point)
            total += v[point]
        j = int(np.argmax(total))  # the first (smallest low FPR) among equals
        totals[i] = total[j]
        all_points = np.stack(picks)
        picks_at[i] = all_points[:, j].copy()
        if rel is not None:
            nexts[i] = _next_value(total, all_points, least, rel)
    if not np.isfinite(totals).any():
        return np.zeros(0, dtype=np.intp), -math.inf, None, None
    i = int(np.argmax(totals))
    chosen = picks_at[i]
    assert chosen is not None
    elsewhere = None
    others = []
    for k, at_k in enumerate(picks_at):
        if at_k is not None and not np.array_equal(at_k, chosen):
            others.append((float(totals[k]), k))
    if others:
        best = max(others, key=lambda x: (x[0], -x[1]))
        elsewhere = picks_at[best[1]]
    runner: tuple[IntArray, float] | None = None
    if rel is not None:
        top = float(totals[i])
        tol = rel * max(1.0, abs(top))
        for k, at_k in enumerate(picks_at):  # low TPRs in order: the first among equals
            if at_k is None:
                continue
            offer = (at_k, float(totals[k])) if totals[k] < top - tol else nexts[k]
            if (
                offer is not None
                and offer[1] < top - tol
                and (runner is None or offer[1] > runner[1])
            ):
                runner = offer
    return chosen, float(totals[i]), elsewhere, runner


PairRuns = list[tuple[IntArray, IntArray, IntArray, IntArray]]


def _pair_windows(
    low_tprs: int, runs: PairRuns
) -> Iterator[tuple[int, list[tuple[IntArray, IntArray]]]]:
    """For each low TPR (in order) with a feasible low FPR: each group's run of points
    (from, to) at every low FPR where every group has a point."""
    for i in range(low_tprs):
        spans = []
        feasible: npt.NDArray[np.bool_] | None = None
        for lo1, hi1, lo2, hi2 in runs:
            lo, hi = np.maximum(lo1[i], lo2), np.minimum(hi1[i], hi2)
            feasible = hi > lo if feasible is None else feasible & (hi > lo)
            spans.append((lo, hi))
        assert feasible is not None
        at = np.flatnonzero(feasible)  # low FPRs where every group has a point
        if at.shape[0]:
            yield i, [(lo[at], hi[at]) for lo, hi in spans]


def _pair_runs(
    groups: Sequence[_Group], e: Fraction, exact: bool
) -> tuple[FloatArray, FloatArray, PairRuns]:
    """Equalised odds' low ends (each reachable TPR, each reachable FPR) and each
    group's run of points for each: (TPR from, TPR to, FPR from, FPR to)."""
    tpr = [_sorted_by(g, "tpr") for g in groups]  # every point, in point order
    fpr = [_sorted_by(g, "fpr") for g in groups]
    va = np.unique(np.concatenate([s.rate for s in tpr]))
    vb = np.unique(np.concatenate([s.rate for s in fpr]))
    va_exact = _exact_rates(tpr, va) if exact else None
    vb_exact = _exact_rates(fpr, vb) if exact else None
    runs = []
    for st, sf in zip(tpr, fpr, strict=True):
        runs.append(
            (
                np.searchsorted(st.rate, va, side="left"),
                _upper(st, va, va_exact, e),
                np.searchsorted(sf.rate, vb, side="left"),
                _upper(sf, vb, vb_exact, e),
            )
        )
    return va, vb, runs


def _gap_of(
    groups: Sequence[_Group], points: Sequence[int], rates: Sequence[str], exact: bool
) -> Metric:
    """The criterion's gap at these points: the largest difference of its rate(s)."""
    worst: Fraction | float | None = None
    for rate in rates:
        vals: list[Fraction | float] = []
        for g, k in zip(groups, points, strict=True):
            num, den = g.rate(rate)
            if den[k] == 0:
                continue
            vals.append(Fraction(int(num[k]), int(den[k])) if exact else float(num[k] / den[k]))
        if len(vals) >= 2:
            d = max(vals) - min(vals)
            worst = d if worst is None or d > worst else worst
    if worst is None:
        return undefined("fewer than two groups have the rate", name="gap")
    if isinstance(worst, Fraction):
        return from_fraction(worst, float(worst), name="gap")
    return Metric(float(worst), None, None, "gap")


def _objective_of(
    form: _Form,
    groups: Sequence[_Group],
    points: Sequence[int],
    exact: bool,
    name: str,
    beta: float = 2.0,
) -> Metric:
    tp, fp = _pooled_counts(groups, points, exact)
    v = form.value(tp, fp)
    if isinstance(v, tuple):
        n, d = v
        if d == 0:
            return undefined("its denominator is 0 on the pooled rows", name=name)
        v = n / d
    if name in READ_ON_COUNTS:  # as the report shows it: over its counts (6/8, not 3/4)
        pos = sum(Fraction(g.pos) for g in groups)
        neg = sum(Fraction(g.neg) for g in groups)
        tpf, fpf = Fraction(tp), Fraction(fp)
        counts = Counts(tp=_back(tpf), fp=_back(fpf), tn=_back(neg - fpf), fn=_back(pos - tpf))
        m = threshold_metrics(counts, beta=beta)[name]
        if m.value is not None:
            return m
    if exact:
        f = Fraction(v)
        return from_fraction(f, float(f), name=name)
    return Metric(float(v), None, None, name)


#: The objectives read off the pooled confusion counts as every metric is.
READ_ON_COUNTS = (
    "accuracy",
    "recall",
    "specificity",
    "fpr",
    "fnr",
    "balanced_accuracy",
    "informedness",
    "queue_rate",
    "precision",
    "f1",
    "fbeta",
    "npv",
    "jaccard",
)


def _choice(
    groups: Sequence[_Group],
    points: IntArray,
    form: _Form,
    rates: Sequence[str],
    exact: bool,
    name: str,
    beta: float = 2.0,
) -> Choice:
    pts = tuple(int(k) for k in points)
    return Choice(
        {g.name: g.threshold(k) for g, k in zip(groups, pts, strict=True)},
        pts,
        _objective_of(form, groups, pts, exact, name, beta),
        _gap_of(groups, pts, rates, exact),
    )


def _smallest_gap(groups: Sequence[_Group], rate: str) -> float:
    """The smallest range of ``rate`` any one point a group reaches."""
    sorted_ = [_sorted_by(g, rate) for g in groups]
    candidates = np.unique(np.concatenate([s.rate for s in sorted_]))
    need = np.full(candidates.shape, -np.inf)
    ok = np.ones(candidates.shape, dtype=bool)
    for s in sorted_:
        i = np.searchsorted(s.rate, candidates, side="left")
        there = i < s.rate.shape[0]
        ok &= there
        need = np.maximum(need, np.where(there, s.rate[np.minimum(i, s.rate.shape[0] - 1)], np.inf))
    return float(np.min(np.where(ok, need - candidates, np.inf)))


def solve_group_thresholds(
    sweeps: Sequence[tuple[str, Sweep]],
    criterion: str,
    goal: Goal,
    tolerance: Fraction = TOLERANCE,
    *,
    beta: float = 2.0,
    randomised: bool = False,
) -> GroupThresholds:
    """The thresholds (one a group) that maximise ``goal``'s objective on the pooled
    rows with ``criterion``'s gap at most ``tolerance`` (see the module docstring);
    ``randomised`` adds each group's mixture of two points at one common rate."""
    if criterion == "same_goal":
        raise ValueError("same_goal is solved group by group by the goal solver")
    groups = [
        _Group(
            name,
            s.tp.astype(np.float64),
            s.fp.astype(np.float64),
            float(s.positives),
            float(s.negatives),
            s.thresholds,
            s.whole_counts(),
        )
        for name, s in sweeps
    ]
    exact = all(g.whole for g in groups)
    pos = sum((Fraction(g.pos) for g in groups), Fraction(0))
    neg = sum((Fraction(g.neg) for g in groups), Fraction(0))
    form = _form(goal, pos, neg, beta)
    name = goal.metric
    rates = CRITERION_RATES[criterion]
    for g in groups:  # a rate undefined in one group: the criterion cannot hold
        why = None
        if "tpr" in rates and g.pos == 0:
            why = "no actual positives (its TPR is undefined)"
        if "fpr" in rates and g.neg == 0:
            why = "no actual negatives (its FPR is undefined)"
        if why:
            raise InputError(
                f"per-group thresholds for {criterion}: group {quoted(g.name)} has "
                f"{why}; the criterion cannot hold there"
            )
    floats = "" if exact else "; rates and the objective in floats (the weights are not whole)"

    def values(lam: float | None) -> list[FloatArray]:
        out = []
        for g in groups:
            if form.den is not None:
                a, b, _ = form.num
                d, e2, _ = form.den
                num = float(a) * g.tp + float(b) * g.fp
                den = float(d) * g.tp + float(e2) * g.fp
                v = num - float(lam or 0.0) * den
            else:
                a, b, _ = form.num  # scaled to whole numbers: sums of them are exact
                scale = math.lcm(a.denominator, b.denominator)
                v = float(a * scale) * g.tp + float(b * scale) * g.fp
            out.append(np.asarray(v, dtype=np.float64) * form.sign)
        return out

    windows: list[_Windows] = []

    def search(vals: list[FloatArray], rel: float | None = None) -> Found:
        if criterion == "equalized_odds":
            va = sum(np.unique(g.tp).shape[0] for g in groups)
            vb = sum(np.unique(g.fp).shape[0] for g in groups)
            if va * vb * len(groups) > PAIR_LIMIT:
                raise InputError(
                    f"per-group thresholds for equalized_odds: {va:,} × {vb:,} pairs of TPR and "
                    f"FPR across {len(groups)} groups is too large to search exactly here; round "
                    "the scores (fewer distinct values) or use equal_opportunity"
                )
            return _pair_search(groups, vals, tolerance, exact, rel)
        if not windows:
            windows.append(_Windows(groups, rates[0], tolerance, exact))
        return windows[0].best(vals, rel)

    size = sum(g.tp.shape[0] for g in groups)
    how = (
        f"exhaustive over {len(groups)} groups' {size:,} sweep points"
        + (", pairs of TPR and FPR windows" if criterion == "equalized_odds" else "")
        + (", Dinkelbach's iteration for the ratio" if form.den is not None else "")
        + floats
    )
    # A sum's runner-up is found in the same search (whole counts give whole values,
    # compared exactly; otherwise a value within 1e-12 of the best is not the next).
    linear = form.den is None
    # A ratio's iteration starts below every ratio (they lie in [0, 1]): at λ = −1 (2 to
    # minimise) any choice with something to divide (D > 0) beats one with nothing (D = 0).
    start = None if linear else (-1.0 if form.sign > 0 else 2.0)
    chosen, _, other, runner = search(values(start), (0.0 if exact else 1e-12) if linear else None)
    tried: list[IntArray] = []  # Dinkelbach's earlier steps: each short of the best
    if form.den is not None and chosen.size:
        for _ in range(100):  # Dinkelbach: λ rises strictly until no choice beats it
            n, d = _pooled(form, groups, chosen)
            if d <= 0:
                break
            lam = n / d
            nxt, _, r2, _ = search(values(lam))
            if not nxt.size:
                break
            n2, d2 = _pooled(form, groups, nxt)
            if d2 <= 0 or form.sign * n2 / d2 <= form.sign * lam + 1e-15 * abs(lam):
                break
            tried.append(chosen)
            chosen, other = nxt, r2
    undefined_there = form.den is not None and chosen.size and _pooled(form, groups, chosen)[1] <= 0
    if not chosen.size or undefined_there:
        smallest = max(_smallest_gap(groups, r) for r in rates)
        gap = f"{' and '.join(RATE_WORDS[r] for r in rates)} gap within {float(tolerance):g}"
        return GroupThresholds(
            criterion,
            goal.text(),
            tolerance,
            False,
            (
                f"every choice of thresholds with the {gap} leaves {name} undefined on the "
                "pooled rows (its denominator is 0)"
                if undefined_there
                else f"no thresholds keep the {gap}; the smallest gap reachable is "
                f"{smallest:.4g}" + (" (at least: each rate alone)" if len(rates) > 1 else "")
            ),
            None,
            None,
            how,
            smallest,
        )
    mixed = None
    if randomised:
        if form.den is not None:
            raise InputError(
                f"--randomised: the objective {name} is a ratio, and a mixture's "
                "expected ratio is not the ratio of its expected counts; use a "
                f"sum: {', '.join(LINEAR)}"
            )
        found = solve_randomised(sweeps, criterion, goal, form.num, form.sign)
        if isinstance(found, str):
            raise InputError(f"--randomised: {found}")
        mixed = found
    why = None
    if not linear:
        known = [*tried, *([] if other is None else [other])]
        runner, why = _ratio_runner_up(
            groups, form, chosen, criterion, tolerance, exact, windows, known
        )
    if runner is None and why is None:
        why = f"every feasible choice has the best's {name}"

    def choice(points: IntArray | None) -> Choice | None:
        return None if points is None else _choice(groups, points, form, rates, exact, name, beta)

    return GroupThresholds(
        criterion,
        goal.text(),
        tolerance,
        True,
        None,
        choice(chosen),
        choice(None if runner is None else runner[0]),
        how,
        None,
        mixed,
        best_other_low_end=choice(other),
        runner_up_reason=why,
    )


def solve_same_goal(
    analyses: Sequence[tuple[str, Analysis]], goal: Goal, *, beta: float = 2.0
) -> GroupThresholds:
    """``same_goal``: each group solves ``goal`` (its constraints too) on its own rows
    with the goal solver; the objective is then read on all rows pooled."""
    if goal.columns():
        raise InputError("per-group thresholds: a cost goal's costs must be numbers, not columns")
    thresholds: dict[str, Threshold] = {}
    points = []
    tp = fp = pos = neg = Fraction(0)
    exact = all(a.sweep.whole_counts() for _, a in analyses)
    for name, a in analyses:
        at, decision, _ = solved_at(a, goal, None, a.data)
        if not decision.feasible:
            return GroupThresholds(
                "same_goal",
                goal.text(),
                Fraction(0),
                False,
                f"group {quoted(name)}: {decision.reason}",
                None,
                search="the goal solver on each group's rows",
            )
        thresholds[name] = at.threshold
        points.append(at.point)
        k = at.counts
        tp, fp = tp + _frac(k.tp, exact), fp + _frac(k.fp, exact)
        pos, neg = pos + _frac(k.tp + k.fn, exact), neg + _frac(k.fp + k.tn, exact)
    counts = Counts(tp=_back(tp), fp=_back(fp), tn=_back(neg - fp), fn=_back(pos - tp))
    objective = _pooled_metric(goal, counts, pos, neg, beta, exact)
    chosen = Choice(
        thresholds,
        tuple(points),
        objective,
        undefined("same_goal bounds no gap; the gaps section has them", name="gap"),
    )
    return GroupThresholds(
        "same_goal",
        goal.text(),
        Fraction(0),
        True,
        None,
        chosen,
        search="the goal solver on each group's rows",
    )


def _frac(x: float, exact: bool) -> Fraction:
    return Fraction(int(x)) if exact else Fraction(x)


def _back(x: Fraction) -> Any:
    return int(x) if x.denominator == 1 else float(x)


def _pooled_metric(
    goal: Goal, counts: Counts, pos: Fraction, neg: Fraction, beta: float, exact: bool
) -> Metric:
    """The goal's objective on the pooled counts."""
    if goal.metric in ("cost", "net_benefit"):
        form = _form(goal, pos, neg, beta)
        v = form.value(Fraction(counts.tp), Fraction(counts.fp))
        assert not isinstance(v, tuple)
        return (
            from_fraction(v, float(v), name=goal.metric)
            if exact
            else Metric(float(v), None, None, goal.metric)
        )
    metrics = threshold_metrics(counts, beta=beta)
    if goal.metric in metrics:
        return metrics[goal.metric]
    if goal.metric == "youden":
        m = metrics["informedness"]
        return dataclasses.replace(m, name="youden")
    if goal.metric == "predicted_positives":
        v = Fraction(counts.tp) + Fraction(counts.fp)
        return from_fraction(v, float(v), name=goal.metric)
    return undefined(f"{goal.metric} is not read on pooled counts", name=goal.metric)


def _pooled_counts(groups: Sequence[_Group], points: Sequence[int], exact: bool) -> tuple[Any, Any]:
    """The pooled TP and FP with each group at its point: fractions when ``exact``."""
    pairs = list(zip(groups, points, strict=True))
    if exact:
        return (
            sum((Fraction(int(g.tp[k])) for g, k in pairs), Fraction(0)),
            sum((Fraction(int(g.fp[k])) for g, k in pairs), Fraction(0)),
        )
    return (
        float(sum(float(g.tp[k]) for g, k in pairs)),
        float(sum(float(g.fp[k]) for g, k in pairs)),
    )


def _pooled(form: _Form, groups: Sequence[_Group], points: IntArray) -> tuple[float, float]:
    tp, fp = _pooled_counts(groups, points.tolist(), exact=False)
    a, b, c = form.num
    assert form.den is not None
    d, e, f = form.den
    return float(a) * tp + float(b) * fp + float(c), float(d) * tp + float(e) * fp + float(f)
