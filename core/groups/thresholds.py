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

Ties: among equal objective values, the smallest low end, then each group's highest
threshold (fewest rows predicted positive). Rates are compared in floats, and where
a rate falls within 1e-12 (relative) of a window's edge, exactly by integer
cross-products of the counts, which covers every place rounding could misjudge (with
whole counts; weights that are not whole are compared in floats, and said so). A low
end is compared as its float: two different fractions of counts are two different
floats while the denominators' product stays under about 10^14 (groups of up to 10^7
rows).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.decide.goal import Goal
from threshold_lab.core.decide.text import solved_at
from threshold_lab.core.doubles import read_exact
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.groups.gaps import RATE_WORDS, rate_terms
from threshold_lab.core.groups.randomised import Randomised, solve_randomised
from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.metrics.metric import Metric, from_fraction, undefined
from threshold_lab.core.metrics.threshold_metrics import threshold_metrics
from threshold_lab.core.threshold import Threshold

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

CRITERIA = (
    "demographic_parity",
    "equal_opportunity",
    "equalized_odds",
    "predictive_parity",
    "same_goal",
)
#: Each criterion's rates (the gap is the largest difference of each across groups).
CRITERION_RATES: dict[str, tuple[str, ...]] = {
    "demographic_parity": ("selection_rate",),
    "equal_opportunity": ("tpr",),
    "equalized_odds": ("tpr", "fpr"),
    "predictive_parity": ("precision",),
    "same_goal": (),
}
#: The default tolerance on the gap.
TOLERANCE = Fraction(1, 100)
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

    def as_json(self) -> dict[str, Any]:
        c = self.chosen
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
            "runner_up": None if self.runner_up is None else self.runner_up.as_json(),
            "search": self.search,
            "smallest_gap": self.smallest_gap,
            "randomised": None if self.randomised is None else self.randomised.as_json(),
        }

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
            r = self.runner_up
            ts = ", ".join(
                f"{n} {'above all' if t is None else t}" for n, t in r.thresholds.items()
            )
            lines.append(
                f"  runner-up (the best with another smallest rate): {ts}: "
                f"{_said(r.objective)}, the gap {_said(r.gap)}"
            )
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
    range's best is its smallest rank, one ``np.minimum`` a level."""

    def __init__(self, vals: FloatArray, keys: IntArray) -> None:
        m = vals.shape[0]
        by_rank = np.lexsort((keys, -vals))  # rank -> position
        rank = np.empty(m, dtype=np.int64)
        rank[by_rank] = np.arange(m)
        self.by_rank = by_rank
        levels = [rank]
        j = 1
        while (1 << j) <= m:
            prev = levels[-1]
            half = 1 << (j - 1)
            levels.append(
                np.minimum(prev[: m - (1 << j) + 1], prev[half : half + m - (1 << j) + 1])
            )
            j += 1
        self.levels = levels

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

    def best(self, vals: Sequence[FloatArray]) -> tuple[IntArray, float, IntArray | None]:
        """The best choice (points, total, the runner-up's points or None); points
        empty when no low end lets every group in."""
        if not self.feasible.any():
            return np.zeros(0, dtype=np.intp), -math.inf, None
        total = np.zeros(self.runs[0][0].shape)
        picks = []
        for s, (lo_i, hi_i), v in zip(self.sorted, self.runs, vals, strict=True):
            point = s.order[_Table(v[s.order], s.order).argmax(lo_i, hi_i)]
            picks.append(point)
            total += v[point]
        i = int(np.argmax(total))  # the first (smallest low end) among equals
        chosen = np.array([p[i] for p in picks], dtype=np.intp)
        runner = None
        all_points = np.stack(picks)  # groups x low ends
        differs = np.any(all_points != chosen[:, None], axis=0)
        if differs.any():
            j = int(np.argmax(np.where(differs, total, -np.inf)))
            runner = all_points[:, j].copy()
        return chosen, float(total[i]), runner


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
    groups: Sequence[_Group], vals: Sequence[FloatArray], e: Fraction, exact: bool
) -> tuple[IntArray, float, IntArray | None]:
    """Equalised odds: TPR within [a, a + e] and FPR within [b, b + e] for every group,
    over every pair (a, b) of reachable rates. TPR and FPR rise with the sweep point, so
    each window is a run of points, and their intersection too."""
    tpr = [_sorted_by(g, "tpr") for g in groups]  # every point, in point order
    fpr = [_sorted_by(g, "fpr") for g in groups]
    va = np.unique(np.concatenate([s.rate for s in tpr]))
    vb = np.unique(np.concatenate([s.rate for s in fpr]))
    va_exact = _exact_rates(tpr, va) if exact else None
    vb_exact = _exact_rates(fpr, vb) if exact else None
    tables = [_Table(v, np.arange(v.shape[0], dtype=np.intp)) for v in vals]
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
    totals = np.full(va.shape, -np.inf)
    picks_at: list[IntArray | None] = [None] * va.shape[0]
    for i in range(va.shape[0]):
        total = np.zeros(vb.shape)
        feasible = np.ones(vb.shape, dtype=bool)
        picks = []
        for (lo1, hi1, lo2, hi2), t, v in zip(runs, tables, vals, strict=True):
            lo = np.maximum(lo1[i], lo2)
            hi = np.minimum(hi1[i], hi2)
            ok = hi > lo
            feasible &= ok
            pick = np.zeros(vb.shape, dtype=np.intp)
            if ok.any():
                pick[ok] = t.argmax(lo[ok], hi[ok])
            picks.append(pick)
            total += np.where(ok, v[pick], 0.0)
        if not feasible.any():
            continue
        total = np.where(feasible, total, -np.inf)
        j = int(np.argmax(total))
        totals[i] = total[j]
        picks_at[i] = np.array([p[j] for p in picks], dtype=np.intp)
    if not np.isfinite(totals).any():
        return np.zeros(0, dtype=np.intp), -math.inf, None
    i = int(np.argmax(totals))
    chosen = picks_at[i]
    assert chosen is not None
    runner = None
    others = []
    for k, at in enumerate(picks_at):
        if at is not None and not np.array_equal(at, chosen):
            others.append((float(totals[k]), k))
    if others:
        best = max(others, key=lambda x: (x[0], -x[1]))
        runner = picks_at[best[1]]
    return chosen, float(totals[i]), runner


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

    def search(vals: list[FloatArray]) -> tuple[IntArray, float, IntArray | None]:
        if criterion == "equalized_odds":
            va = sum(np.unique(g.tp).shape[0] for g in groups)
            vb = sum(np.unique(g.fp).shape[0] for g in groups)
            if va * vb * len(groups) > PAIR_LIMIT:
                raise InputError(
                    f"per-group thresholds for equalized_odds: {va:,} × {vb:,} pairs of TPR and "
                    f"FPR across {len(groups)} groups is too large to search exactly here; round "
                    "the scores (fewer distinct values) or use equal_opportunity"
                )
            return _pair_search(groups, vals, tolerance, exact)
        if not windows:
            windows.append(_Windows(groups, rates[0], tolerance, exact))
        return windows[0].best(vals)

    size = sum(g.tp.shape[0] for g in groups)
    how = (
        f"exhaustive over {len(groups)} groups' {size:,} sweep points"
        + (", pairs of TPR and FPR windows" if criterion == "equalized_odds" else "")
        + (", Dinkelbach's iteration for the ratio" if form.den is not None else "")
        + floats
    )
    chosen, _, runner = search(values(None))
    if form.den is not None and chosen.size:
        for _ in range(100):  # Dinkelbach: λ rises strictly until no choice beats it
            n, d = _pooled(form, groups, chosen)
            if d <= 0:
                break
            lam = n / d
            nxt, _, r2 = search(values(lam))
            if not nxt.size:
                break
            n2, d2 = _pooled(form, groups, nxt)
            if d2 <= 0 or form.sign * n2 / d2 <= form.sign * lam + 1e-15 * abs(lam):
                break
            chosen, runner = nxt, r2
    if not chosen.size:
        smallest = max(_smallest_gap(groups, r) for r in rates)
        return GroupThresholds(
            criterion,
            goal.text(),
            tolerance,
            False,
            f"no thresholds keep the {' and '.join(RATE_WORDS[r] for r in rates)} gap within "
            f"{float(tolerance):g}; "
            f"the smallest gap reachable is {smallest:.4g}"
            + (" (at least: each rate alone)" if len(rates) > 1 else ""),
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
    return GroupThresholds(
        criterion,
        goal.text(),
        tolerance,
        True,
        None,
        _choice(groups, chosen, form, rates, exact, name, beta),
        None if runner is None else _choice(groups, runner, form, rates, exact, name, beta),
        how,
        None,
        mixed,
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
