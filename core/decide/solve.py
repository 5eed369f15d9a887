"""Solve a goal over every operating point of the sweep, exactly.

Candidates are all the sweep's points, above all included. A point where the
objective is undefined is no candidate; one where a constraint's metric is
undefined, or a constraint fails, is infeasible. Of the points attaining the
optimum, the one with the fewest predicted positives (the highest threshold,
the lowest index) is chosen. With no feasible point the answer says so, and
names the point that comes closest (the smallest total violation).

At another prevalence P every point keeps its TPR and FPR, and the counts
become per-example rates: TP' = P·TPR, FN' = P·(1-TPR), FP' = (1-P)·FPR,
TN' = (1-P)·(1-FPR). They are held as whole numbers scaled by a common factor
(P = p/q: TP'' = p·TP·N, FP'' = (q-p)·FP·P0, ...), so every rate stays exact.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.decide.goal import (
    NET_BENEFIT,
    SMALLEST,
    Constraint,
    Goal,
    number_text,
    parse_number,
    short_word,
)
from threshold_lab.core.decide.values import (
    exact_key,
    exact_value,
    float_values,
    separated,
)
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.intervals.bootstrap import SweepStatistic
from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.metrics.formulas import Cells
from threshold_lab.core.metrics.metric import (
    Metric,
    fraction_text,
    from_fraction,
    is_integral,
    undefined,
)
from threshold_lab.core.metrics.threshold_metrics import METRIC_NAMES, threshold_metrics

FloatArray = npt.NDArray[np.float64]

#: Points near an optimum or a bound that are compared again exactly, at most. Past
#: this many (a plateau of a metric whose floats are not exact), floats decide.
EXACT_LIMIT = 20_000

#: The words a goal's metrics are said with.
WORDS = {
    "precision": "precision",
    "recall": "recall",
    "f1": "F1",
    "fbeta": "F-beta",
    "accuracy": "accuracy",
    "balanced_accuracy": "balanced accuracy",
    "specificity": "specificity",
    "npv": "NPV",
    "fpr": "FPR",
    "fnr": "FNR",
    "mcc": "MCC",
    "queue_rate": "queue rate",
    "lr_plus": "LR+",
    "lr_minus": "LR−",
    "youden": "Youden's J (TPR − FPR)",
    "predicted_positives": "predicted positives",
    "cost": "cost",
    "cohen_kappa": "Cohen's kappa",
    "informedness": "informedness",
    "markedness": "markedness",
    "diagnostic_odds_ratio": "diagnostic odds ratio",
    "fowlkes_mallows": "Fowlkes-Mallows index",
    "jaccard": "Jaccard index",
    "net_benefit": "net benefit",
    "topleft": "squared distance to the top-left corner",
}


def metric_word(name: str, goal: Goal) -> str:
    """``name`` in words as ``goal`` reads it (Youden's index with weights is pROC's)."""
    if name == "youden" and goal.weights is not None:
        return "weighted Youden (TPR + r·TNR)"
    return WORDS[name]


def _weighted(name: str, goal: Goal) -> bool:
    """Whether ``name`` is read with pROC's formulas: the distance to the top-left
    corner, or Youden's index with ``best.weights``."""
    return name == "topleft" or (name == "youden" and goal.weights is not None)


def parse_prevalence(text: str) -> Fraction:
    """A deployment prevalence strictly between 0 and 1: a decimal or ``a/b``, from
    1e-300 to 1 − 1e-300 (the counts it scales stay within a double's range).

    >>> parse_prevalence("1/20"), parse_prevalence("0.001")
    (Fraction(1, 20), Fraction(1, 1000))
    """
    word = short_word(text.strip())
    try:
        p = parse_number(text.strip(), "the prevalence")
    except InputError as exc:
        if "out of range" in str(exc):
            raise InputError(f"prevalence: {word} is out of range: {PREVALENCE_RANGE}") from None
        raise InputError(f'prevalence: "{word}" is not a number (write 0.05 or 1/20)') from None
    if not 0 < p < 1:
        raise InputError(f"prevalence: {word} is not strictly between 0 and 1")
    if min(p, 1 - p) < SMALLEST:
        raise InputError(f"prevalence: {word} is out of range: {PREVALENCE_RANGE}")
    return p


#: The prevalences a what-if takes, in the words its refusals use.
PREVALENCE_RANGE = "give one from 1e-300 to 1 − 1e-300"


@dataclass(frozen=True)
class Setting:
    """The counts a goal is solved on: the sweep's own, or at another prevalence."""

    sweep: Sweep
    beta: float
    prevalence: Fraction | None = None
    #: Per-point sums of each cost column over each cell: {column: {"tp": ..., ...}}.
    column_cells: Mapping[str, Mapping[str, FloatArray]] = field(default_factory=dict)
    #: Whether those sums are whole numbers held exactly (then costs are exact too).
    columns_whole: bool = False

    @property
    def missing_class(self) -> str | None:
        s = self.sweep
        if self.prevalence is None:
            return None
        if s.positives == 0:
            return "the prevalence what-if needs actual positives, and there are none (TP+FN=0)"
        if s.negatives == 0:
            return "the prevalence what-if needs actual negatives, and there are none (FP+TN=0)"
        return None

    def _factors(self) -> tuple[Any, Any]:
        """What each positive and each negative count is multiplied by."""
        if self.prevalence is None:
            return 1, 1
        p = self.prevalence
        pos, neg = self.sweep.positives, self.sweep.negatives
        if is_integral(pos) and is_integral(neg):
            return p.numerator * int(neg), (p.denominator - p.numerator) * int(pos)
        return Fraction(p) / Fraction(pos), (1 - Fraction(p)) / Fraction(neg)

    def cells(self, lo: int = 0, hi: int | None = None) -> Cells:
        """The four counts at points ``lo`` to ``hi`` (exclusive), as floats, with the
        class totals (TN and FN worked out only where a metric needs them)."""
        s = self.sweep
        a, b = (float(x) for x in self._factors())
        tp, fp = s.tp[lo:hi], s.fp[lo:hi]
        if a != 1 or b != 1:
            tp, fp = tp * a, fp * b
        pos, neg = self.totals()
        return Cells(tp, fp, pos=np.float64(pos), neg=np.float64(neg))

    def cells_at(self, k: int) -> Cells:
        """The four counts at point ``k``, exactly."""
        s = self.sweep
        tp, fp = _exact(s.tp[k].item()), _exact(s.fp[k].item())
        pos, neg = _exact(s.positives), _exact(s.negatives)
        a, b = self._factors()
        return Cells(tp * a, fp * b, (neg - fp) * b, (pos - tp) * a)

    def totals(self) -> tuple[float, float]:
        """The positives and negatives every point's counts add up to (scaled)."""
        a, b = (float(x) for x in self._factors())
        return float(self.sweep.positives) * a, float(self.sweep.negatives) * b

    @property
    def scale(self) -> Fraction:
        """What the counts add up to: n, or the common factor at a prevalence (then
        counts divided by it are per-example rates)."""
        s = self.sweep
        a, b = self._factors()
        return Fraction(_exact(s.positives) * _exact(a) + _exact(s.negatives) * _exact(b))

    @property
    def whole(self) -> bool:
        if not self.sweep.whole_counts():
            return False
        a, b = self._factors()
        if not (isinstance(a, int) and isinstance(b, int)):
            return False
        return float(self.scale) < 2**53

    def counts_at(self, k: int) -> Counts:
        """Core's counts at point ``k``: whole when exact, so core's metrics are. The
        rows' own counts without a prevalence; at one, scaled counts made small."""
        c = self.cells_at(k)
        cells = (c.tp, c.fp, c.tn, c.fn)
        if all(isinstance(x, int) for x in cells) and sum(cells) < 2**53:
            if self.prevalence is None:
                return Counts(*(int(x) for x in cells))
            g = math.gcd(*cells) or 1
            return Counts(*(int(x) // g for x in cells))
        return Counts(*(float(x) for x in cells))


def _exact(x: object) -> Any:
    if isinstance(x, int | np.integer):
        return int(x)
    if isinstance(x, Fraction):
        return x
    f = float(str(x)) if not isinstance(x, float | np.floating) else float(x)
    return int(f) if f.is_integer() and abs(f) < 2**53 else Fraction(f)


@dataclass(frozen=True)
class Slack:
    """How far one constraint is from binding at the chosen point."""

    constraint: Constraint
    value: Metric
    slack: float | None  # value - bound for >=, bound - value for <=; None undefined


@dataclass(frozen=True)
class Decision:
    """A solved goal: the chosen point, why, and how it compares."""

    goal: Goal
    feasible: bool
    reason: str | None
    index: int
    threshold: float | None
    above: float | None
    at_most: float | None
    objective: Metric
    attaining: int
    feasible_points: int
    slacks: tuple[Slack, ...]
    runner_up: int | None
    runner_up_objective: Metric | None
    prevalence: Fraction | None = None
    exact: bool = True

    def as_json(self) -> dict[str, object]:
        return {
            "text": self.goal.text(),
            "feasible": self.feasible,
            "reason": self.reason,
            "index": self.index,
            "threshold": self.threshold,
            "same_decisions": {"above": self.above, "at_most": self.at_most},
            "objective": self.objective.as_json(),
            "attaining": self.attaining,
            "feasible_points": self.feasible_points,
            "constraints": [
                {
                    "text": s.constraint.text(),
                    "value": s.value.as_json(),
                    "slack": s.slack,
                }
                for s in self.slacks
            ],
            "runner_up": None
            if self.runner_up is None or self.runner_up_objective is None
            else {"index": self.runner_up, "objective": self.runner_up_objective.as_json()},
            "prevalence": None if self.prevalence is None else fraction_text(self.prevalence),
            "exact": self.exact,
        }

    def same_decisions_text(self) -> str:
        """``every threshold t with 0.4 < t <= 0.8`` (the same rows predicted positive)."""
        lo = None if self.above is None else repr(self.above)
        hi = None if self.at_most is None else repr(self.at_most)
        if lo is None and hi is None:
            return "every threshold"
        if hi is None:
            return f"every threshold above {lo}"
        if lo is None:
            return f"every threshold at most {hi}"
        return f"every threshold t with {lo} < t <= {hi}"


# --- metric values at every point --------------------------------------------------


def _values(
    setting: Setting, name: str, goal: Goal, lo: int = 0, hi: int | None = None
) -> FloatArray:
    if name == "cost":
        return _cost_values(setting, goal, lo, hi)
    if name == NET_BENEFIT:
        return _net_benefit_values(setting, goal, lo, hi)
    if _weighted(name, goal):
        return _roc_values(setting, name, goal, lo, hi)
    values = float_values(name, setting.cells(lo, hi), setting.beta)
    if name == "predicted_positives" and setting.prevalence is not None:
        values = values / float(setting.scale)  # per example at a prevalence
    return values


def _exact_at(setting: Setting, name: str, goal: Goal, k: int) -> Fraction | None:
    if name == "cost":
        return _cost_exact(setting, goal, k)
    if name == NET_BENEFIT:
        return _net_benefit_exact(setting, goal, k)
    if _weighted(name, goal):
        return _roc_exact(setting, name, goal, k)
    value = exact_value(name, setting.cells_at(k), setting.beta)
    if value is not None and name == "predicted_positives" and setting.prevalence is not None:
        value = value / setting.scale
    return value


def _roc_values(
    setting: Setting, name: str, goal: Goal, lo: int = 0, hi: int | None = None
) -> FloatArray:
    """pROC's criteria at every point (NaN without both classes): closest.topleft,
    (1 − TPR)² + r·FPR², and the weighted Youden index, TPR + r·TNR, with r = (1 −
    prevalence)/(cost · prevalence) from ``best.weights`` (1 unweighted)."""
    c = setting.cells(lo, hi)
    pos, neg = setting.totals()
    r = float(goal.r)
    n = c.tp.shape[0]
    if pos == 0 or neg == 0:
        return np.full(n, np.nan)
    tpr, fpr = c.tp / pos, c.fp / neg
    if name == "topleft":
        out: FloatArray = np.asarray((1 - tpr) ** 2 + r * fpr**2, dtype=np.float64)
    else:
        out = np.asarray(tpr + r * (1 - fpr), dtype=np.float64)
    return out


def _roc_exact(setting: Setting, name: str, goal: Goal, k: int) -> Fraction | None:
    """pROC's criterion at point ``k``, exactly (None without both classes)."""
    c = setting.cells_at(k)
    tp, fp, tn, fn = (_exact(x) for x in (c.tp, c.fp, c.tn, c.fn))
    pos, neg = tp + fn, fp + tn
    if pos == 0 or neg == 0:
        return None
    tpr, fpr = Fraction(tp) / pos, Fraction(fp) / neg
    value: Fraction = (
        (1 - tpr) ** 2 + goal.r * fpr**2 if name == "topleft" else tpr + goal.r * (1 - fpr)
    )
    return value


def _net_benefit_values(
    setting: Setting, goal: Goal, lo: int = 0, hi: int | None = None
) -> FloatArray:
    """TP − FP·pt/(1 − pt) at every point (the counts weighted at a prevalence): net
    benefit times n, the same order. The harm is the same at every point: left out."""
    cells = setting.cells(lo, hi)
    pt = goal.pt or Fraction(0)
    out: FloatArray = np.asarray(cells.tp - cells.fp * float(pt / (1 - pt)), dtype=np.float64)
    return out


def _net_benefit_exact(setting: Setting, goal: Goal, k: int) -> Fraction:
    """Net benefit at point ``k``, exactly: (TP − FP·pt/(1 − pt))/n, the counts weighted
    at a prevalence (then it is TPR·P − FPR·(1 − P)·pt/(1 − pt))."""
    c = setting.cells_at(k)
    pt = goal.pt or Fraction(0)
    value: Fraction = (_exact(c.tp) - _exact(c.fp) * (pt / (1 - pt))) / setting.scale
    return value


def _cost_terms(setting: Setting, goal: Goal) -> list[tuple[str, Fraction | None, str | None]]:
    return [(cell, c.value, c.column) for cell, c in goal.costs]


def _cost_values(setting: Setting, goal: Goal, lo: int = 0, hi: int | None = None) -> FloatArray:
    """The total cost at every point times a positive constant (the order is all a
    solve needs): constant costs are scaled to whole numbers, so with whole counts
    every total is a whole number held exactly and two totals compare exactly."""
    scale = _cost_scale(goal)
    total = np.zeros(setting.cells(lo, hi).tp.shape[0])
    with np.errstate(over="ignore", invalid="ignore"):  # past 1e308: refused below
        _add_costs(total, setting, goal, scale, lo, hi)
    if not np.isfinite(total).all():
        raise InputError(
            "goal: these costs times these counts exceed the largest double (about "
            "1.8e308); give the costs in a larger unit"
        )
    return total


def _add_costs(
    total: FloatArray, setting: Setting, goal: Goal, scale: int, lo: int, hi: int | None
) -> None:
    """Add each cell's cost times its count (or column sum) at points lo to hi."""
    cells = setting.cells(lo, hi)
    a, b = (float(x) for x in setting._factors())
    for cell, value, column in _cost_terms(setting, goal):
        if column is None:
            total += float((value or 0) * scale) * getattr(cells, cell)
        else:
            factor = a if cell in ("tp", "fn") else b
            total += float(scale) * factor * setting.column_cells[column][cell][lo:hi]


def _cost_scale(goal: Goal) -> int:
    """What the constant costs are multiplied by to make them whole numbers (so whole
    counts give whole totals, compared exactly), or 1 where that would take them
    past 2^53 (fp=1e-300 fn=1e300): then near-equal totals are compared exactly."""
    dens = [c.value.denominator for _, c in goal.costs if c.value is not None]
    scale = math.lcm(*dens) if dens else 1
    biggest = max((abs(c.value) for _, c in goal.costs if c.value is not None), default=0)
    return scale if biggest * scale < 2**53 else 1


def _check_costs(setting: Setting) -> None:
    """Refuse a cost column whose sums a double cannot hold (one line, the way out)."""
    for name, cells in setting.column_cells.items():
        if not all(bool(np.isfinite(v).all()) for v in cells.values()):
            raise InputError(
                f'goal: the cost column "{name}" adds up to more than the largest double '
                "(about 1.8e308); give it in a larger unit"
            )


def _cost_exact(setting: Setting, goal: Goal, k: int) -> Fraction | None:
    cells = setting.cells_at(k)
    a, b = setting._factors()
    total = Fraction(0)
    for cell, value, column in _cost_terms(setting, goal):
        if column is None:
            total += (value or Fraction(0)) * _exact(getattr(cells, cell))
        else:
            factor = a if cell in ("tp", "fn") else b
            total += _exact(factor) * Fraction(float(setting.column_cells[column][cell][k]))
    if setting.prevalence is not None:
        total /= setting.scale
    return total


def _exact_compare(setting: Setting, name: str, goal: Goal, bound_den: int = 1) -> bool:
    """Whether floats of ``name`` compare exactly here (no second, exact look)."""
    if name == NET_BENEFIT or _weighted(name, goal):
        return False  # pt/(1 − pt), squares, weights: near-equal points are looked at again
    if name == "cost":
        if goal.columns():
            return False
        biggest = max((abs(c.value) for _, c in goal.costs if c.value is not None), default=0)
        scaled = float(biggest * _cost_scale(goal)) * float(setting.scale) * 4
        return setting.whole and scaled < 2**52
    total = float(setting.scale)
    return setting.whole and separated(name, True, total, setting.beta, bound_den)


# --- solving -------------------------------------------------------------------------


#: Metrics that only rise (+1) or only fall (-1) as the threshold falls (the index
#: grows): a bound on one of them keeps a run of points, found by bisection.
MONOTONE = {
    "recall": 1,
    "fpr": 1,
    "predicted_positives": 1,
    "queue_rate": 1,
    "fnr": -1,
    "specificity": -1,
}


def _run(setting: Setting, goal: Goal, c: Constraint) -> tuple[int, int] | None:
    """The points meeting a bound on a monotone metric, as a range ``lo..hi``
    (exclusive), found in O(log m) exact evaluations; None where it is undefined."""
    m = setting.sweep.size
    if _exact_at(setting, c.metric, goal, 0) is None:
        return None  # rates are undefined at every point or at none
    sign = MONOTONE[c.metric]
    bound = sign * exact_key(c.metric, c.bound)

    def key(k: int) -> Fraction:
        v = _exact_at(setting, c.metric, goal, k)
        assert v is not None
        return sign * v

    # key rises with k: a lower bound keeps a suffix, an upper bound a prefix.
    if c.at_least == (sign > 0):
        return bisect.bisect_left(range(m), bound, key=key), m
    return 0, bisect.bisect_right(range(m), bound, key=key)


def solve(setting: Setting, goal: Goal) -> Decision:
    """The goal's operating point over every point of ``setting``'s sweep.

    Bounds on monotone metrics (recall, FPR, ...) cut the points to one run by
    bisection; the other bounds and the objective take one vectorised pass over
    that run; a monotone objective with nothing else to check is read off its ends.

    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.decide.goal import parse_goal
    >>> s = Setting(build_sweep(preset("canonical").data), beta=2.0)
    >>> d = solve(s, parse_goal("max precision where recall >= 2/3"))
    >>> d.index, d.threshold, d.objective.value_text(), d.above, d.at_most
    (2, 0.8, '2/3 ≈ 0.6667', 0.4, 0.8)
    """
    missing = setting.missing_class
    if missing is not None:
        raise InputError(missing)
    for column in goal.columns():
        if column not in setting.column_cells:
            raise InputError(f'goal: no numeric column "{column}" in these rows')
    _check_costs(setting)
    m = setting.sweep.size
    exact = True
    lo, hi = 0, m
    rest: list[Constraint] = []
    nowhere: list[Constraint] = []  # constraints whose metric is undefined everywhere
    for c in goal.constraints:
        if c.metric in MONOTONE:
            run = _run(setting, goal, c)
            if run is None:
                nowhere.append(c)
                lo, hi = 0, 0
            else:
                lo, hi = max(lo, run[0]), min(hi, run[1])
        else:
            rest.append(c)
    if hi <= lo:
        return _infeasible(setting, goal, nowhere, exact)
    # A monotone objective over a run, with nothing else to check: read off its ends.
    if (
        not rest
        and goal.metric in MONOTONE
        and _exact_at(setting, goal.metric, goal, lo) is not None
    ):
        return _monotone(setting, goal, lo, hi)
    monotone = goal.metric in MONOTONE and _exact_at(setting, goal.metric, goal, lo) is not None
    scan = _Scan(setting, goal, lo, hi, rest, values=not monotone)
    nowhere += scan.nowhere
    exact = exact and scan.exact
    if monotone:
        return _monotone_among(setting, goal, lo, hi, scan.feasible, exact)
    if scan.candidates == 0:
        return _infeasible(setting, goal, nowhere, exact, any_feasible=bool(scan.feasible.any()))
    best = max(scan.tops)
    slack = 0.0
    if _exact_compare(setting, goal.metric, goal):
        first, found, exact_top = scan.first_equal(best), scan.count_equal(best), None
    else:
        slack = 4 * float(np.finfo(float).eps) * max(abs(best), 1.0) if math.isfinite(best) else 0.0
        near = scan.at_least(best - slack)
        if near.size > EXACT_LIMIT:
            exact = False
            first, found, exact_top = scan.first_equal(best), scan.count_equal(best), None
        else:
            keys = []
            for k in near.tolist():
                e = _exact_at(setting, goal.metric, goal, k)
                assert e is not None
                keys.append(e if goal.maximise else -e)
            exact_top = max(keys)
            equal = [k for k, e in zip(near.tolist(), keys, strict=True) if e == exact_top]
            first, found = equal[0], len(equal)
    runner = None
    if scan.candidates > found:
        second = scan.second_below(best)
        if second > -np.inf:
            runner = scan.first_equal(second)
        if exact_top is not None and runner is not None:
            runner = _exact_runner_up(setting, goal, scan, second, exact_top, runner)
    k = first
    return _decision(
        setting,
        goal,
        k,
        True,
        None,
        found,
        scan.candidates,
        _slacks(setting, goal, k),
        runner,
        exact,
    )


def _exact_runner_up(
    setting: Setting, goal: Goal, scan: _Scan, second: float, top: Fraction, found: int
) -> int | None:
    """The runner-up compared exactly: the first point of the highest exact value under
    the best's ``top``, among those whose doubles come within rounding of the second
    best double ``second`` (two points of one exact value can round apart, as MCC's
    square root does). ``found`` (the doubles' choice) where too many are that near."""
    slack = 4 * float(np.finfo(float).eps) * max(abs(second), 1.0)
    near = scan.at_least(second - slack)
    if near.size > EXACT_LIMIT:
        return found
    best: tuple[Fraction, int] | None = None
    for k in near.tolist():
        e = _exact_at(setting, goal.metric, goal, k)
        assert e is not None
        key = e if goal.maximise else -e
        if key < top and (best is None or key > best[0]):
            best = (key, k)
    return None if best is None else best[1]


#: Points per block of a scan: a block's temporaries stay in the processor's cache.
BLOCK = 1 << 15


class _Scan:
    """One pass over points ``lo..hi`` in blocks: which meet the bounds that bisection
    could not decide, and, per block, the best and second-best value of the goal's
    objective there (so the points attaining the optimum are found without holding
    ten million values; a block's second best is read again only where the runner-up
    is sought)."""

    def __init__(
        self,
        setting: Setting,
        goal: Goal,
        lo: int,
        hi: int,
        rest: list[Constraint],
        *,
        values: bool,
    ) -> None:
        self.setting, self.goal, self.lo, self.hi = setting, goal, lo, hi
        self.feasible = np.ones(hi - lo, dtype=bool)
        self.exact = True
        self.nowhere: list[Constraint] = []
        self.tops: list[float] = []
        self.candidates = 0
        defined = dict.fromkeys(range(len(rest)), False)
        checked = 0
        for b0 in range(lo, hi, BLOCK):
            b1 = min(hi, b0 + BLOCK)
            ok = self.feasible[b0 - lo : b1 - lo]
            for i, c in enumerate(rest):
                v = _values(setting, c.metric, goal, b0, b1)
                x = float(c.bound)
                with np.errstate(invalid="ignore"):
                    meets = (v >= x) if c.at_least else (v <= x)  # NaN (undefined): False
                    defined[i] = defined[i] or bool((v == v).any())
                if not _exact_compare(setting, c.metric, goal, c.bound.denominator):
                    tol = 4 * float(np.finfo(float).eps) * max(abs(x), 1.0)
                    with np.errstate(invalid="ignore"):
                        near = np.flatnonzero(np.abs(v - x) <= tol)
                    checked += near.size
                    if checked > EXACT_LIMIT:
                        self.exact = False
                    else:
                        key = exact_key(c.metric, c.bound)
                        for k in near.tolist():
                            e = _exact_at(setting, c.metric, goal, b0 + k)
                            meets[k] = e is not None and (e >= key if c.at_least else e <= key)
                ok &= meets
            if values:
                masked = self._masked(b0, b1, ok)
                self.tops.append(float(masked.max()))
                self.candidates += int(np.count_nonzero(masked > -np.inf))
        self.nowhere = [c for i, c in enumerate(rest) if not defined[i]]

    def _masked(self, b0: int, b1: int, ok: npt.NDArray[np.bool_]) -> FloatArray:
        """The objective on block ``b0..b1``, higher is better, -inf where the point is
        no candidate (infeasible, or the objective undefined)."""
        v = _values(self.setting, self.goal.metric, self.goal, b0, b1)
        signed = np.asarray(v if self.goal.maximise else -v, dtype=np.float64)
        masked = np.fmax(signed, -np.inf)  # NaN (undefined) to -inf, in one pass
        if not ok.all():
            masked[~ok] = -np.inf
        return masked

    def _blocks_reaching(self, value: float) -> list[int]:
        return [i for i, t in enumerate(self.tops) if t >= value]

    def second_below(self, best: float) -> float:
        """The highest value under ``best`` (-inf when there is none): a block's own
        top where it is under ``best``, else that block read again."""
        lower = [t for t in self.tops if t < best]
        for i in self._blocks_reaching(best):
            masked = self._block(i)[1]
            below = masked[masked < best]
            if below.size:
                lower.append(float(below.max()))
        return max(lower, default=-np.inf)

    def _block(self, i: int) -> tuple[int, FloatArray]:
        b0 = self.lo + i * BLOCK
        b1 = min(self.hi, b0 + BLOCK)
        return b0, self._masked(b0, b1, self.feasible[b0 - self.lo : b1 - self.lo])

    def first_equal(self, value: float) -> int:
        """The first point whose value is ``value``."""
        for i in self._blocks_reaching(value):
            b0, masked = self._block(i)
            hit = np.flatnonzero(masked == value)
            if hit.size:
                return b0 + int(hit[0])
        raise AssertionError("a value the scan found is not there")

    def count_equal(self, value: float) -> int:
        return sum(
            int(np.count_nonzero(self._block(i)[1] == value)) for i in self._blocks_reaching(value)
        )

    def at_least(self, value: float) -> npt.NDArray[np.intp]:
        """Every point whose value is ``value`` or more."""
        blocks = (self._block(i) for i in self._blocks_reaching(value))
        found = [b0 + np.flatnonzero(masked >= value) for b0, masked in blocks]
        return np.concatenate(found) if found else np.zeros(0, dtype=np.intp)


def _monotone(setting: Setting, goal: Goal, lo: int, hi: int) -> Decision:
    """A monotone objective over the run ``lo..hi``: its best value is at one end, and
    the points attaining it are the run of equal values there, found by bisection."""
    way = 1 if goal.maximise else -1
    sign = MONOTONE[goal.metric] * way  # +1: the key rises with k, the best is at hi - 1

    def key(k: int) -> Fraction:
        v = _exact_at(setting, goal.metric, goal, k)
        assert v is not None
        return way * v  # the higher, the better

    end = hi - 1 if sign > 0 else lo
    best = key(end)
    if sign > 0:
        first = bisect.bisect_left(range(lo, hi), best, key=key) + lo
        attaining, k = hi - first, first
        runner = first - 1 if first > lo else None
    else:
        # key falls with k here: the run of the best value starts at lo.
        last = bisect.bisect_right(range(lo, hi), -best, key=lambda j: -key(j)) + lo
        attaining, k = last - lo, lo
        runner = last if last < hi else None
    return _decision(
        setting, goal, k, True, None, attaining, hi - lo, _slacks(setting, goal, k), runner, True
    )


def _monotone_among(
    setting: Setting, goal: Goal, lo: int, hi: int, feasible: npt.NDArray[np.bool_], exact: bool
) -> Decision:
    """A monotone objective (defined on the whole run) among the feasible points of
    ``lo..hi``: the best is the first or the last feasible point; the points
    attaining it are the feasible ones in the run of equal values around it."""
    idx = np.flatnonzero(feasible)
    if idx.size == 0:
        return _infeasible(setting, goal, [], exact)
    way = 1 if goal.maximise else -1

    def key(k: int) -> Fraction:
        v = _exact_at(setting, goal.metric, goal, k)
        assert v is not None
        return way * v

    high = MONOTONE[goal.metric] * way > 0  # the key rises with k: the best is last
    end = lo + int(idx[-1] if high else idx[0])
    best = key(end)
    if high:  # the run of the best value ends at ``end``; it starts where the key reaches it
        start = bisect.bisect_left(range(lo, end + 1), best, key=key) + lo
        run = idx[(idx + lo >= start) & (idx + lo <= end)]
        before = idx[idx + lo < start]
        runner = lo + int(before[-1]) if before.size else None
    else:  # the key falls with k: the run starts at ``end`` and goes while it holds
        stop = bisect.bisect_right(range(end, hi), -best, key=lambda j: -key(j)) + end
        run = idx[(idx + lo >= end) & (idx + lo < stop)]
        after = idx[idx + lo >= stop]
        runner = lo + int(after[0]) if after.size else None
    k = lo + int(run[0])
    return _decision(
        setting,
        goal,
        k,
        True,
        None,
        int(run.size),
        int(idx.size),
        _slacks(setting, goal, k),
        runner,
        exact,
    )


def _infeasible(
    setting: Setting,
    goal: Goal,
    nowhere: list[Constraint],
    exact: bool,
    *,
    any_feasible: bool = False,
) -> Decision:
    """No feasible point: why, and the point that comes closest (the smallest total
    shortfall over the constraints, the fewest predicted positives among equals)."""
    m = setting.sweep.size
    # The total shortfall at every point, a block at a time; the first smallest wins.
    k, least = 0, np.inf
    for b0 in range(0, m, BLOCK):
        b1 = min(m, b0 + BLOCK)
        violation = np.zeros(b1 - b0)
        for c in goal.constraints:
            v = _values(setting, c.metric, goal, b0, b1)
            x = float(c.bound)
            gap = np.subtract(x, v) if c.at_least else np.subtract(v, x)
            np.maximum(gap, 0.0, out=gap)  # NaN (undefined) stays NaN: no candidate
            violation += gap
        np.fmin(violation, np.inf, out=violation)  # NaN to inf: never the least
        i = int(violation.argmin())
        if violation[i] < least:
            k, least = b0 + i, float(violation[i])
    finite = np.array([least < np.inf])
    word = metric_word(goal.metric, goal)
    if not goal.constraints:
        reason = f"{word} is undefined at every operating point"
    elif nowhere:
        why = metric_at(setting, nowhere[0].metric, goal, 0).undefined_text()
        reason = f"{WORDS[nowhere[0].metric]} is undefined at every operating point ({why})"
    elif any_feasible or (finite.any() and least == 0):
        reason = f"{word} is undefined at every point that meets the constraints"
    elif not finite.any():
        reason = "no operating point has every constraint's metric defined"
    else:
        reason = "no operating point meets " + " and ".join(c.text() for c in goal.constraints)
        where = (
            "above all scores" if k == 0 else f"threshold {quoted(setting.sweep.threshold_at(k))}"
        )
        reason += f"; the closest is {where} (total shortfall {least:.4g})"
    return _decision(setting, goal, k, False, reason, 0, 0, _slacks(setting, goal, k), None, exact)


def _decision(
    setting: Setting,
    goal: Goal,
    k: int,
    feasible: bool,
    reason: str | None,
    attaining: int,
    feasible_points: int,
    slacks: tuple[Slack, ...],
    runner_up: int | None,
    exact: bool,
) -> Decision:
    sweep = setting.sweep
    threshold = sweep.threshold_at(k)
    if k == 0:
        above = float(sweep.thresholds[0]) if sweep.size > 1 else None
        at_most = None
    else:
        above = float(sweep.thresholds[k]) if k < sweep.size - 1 else None
        at_most = float(sweep.thresholds[k - 1])
    return Decision(
        goal=goal,
        feasible=feasible,
        reason=reason,
        index=k,
        threshold=threshold,
        above=above,
        at_most=at_most,
        objective=metric_at(setting, goal.metric, goal, k),
        attaining=attaining,
        feasible_points=feasible_points,
        slacks=slacks,
        runner_up=runner_up,
        runner_up_objective=None
        if runner_up is None
        else metric_at(setting, goal.metric, goal, runner_up),
        prevalence=setting.prevalence,
        exact=exact,
    )


def metric_at(setting: Setting, name: str, goal: Goal, k: int) -> Metric:
    """``name`` at point ``k`` as core's Metric (its formula and reason when it has one)."""
    if name not in ("youden", "predicted_positives", "cost", NET_BENEFIT, "topleft"):
        return _threshold_metrics(setting, k)[name]
    value = _exact_at(setting, name, goal, k)
    word = metric_word(name, goal)
    if value is None:
        reason = "No actual positives or no actual negatives (TPR or FPR is undefined)"
        return Metric(None, reason, None, word)
    exact_ok = setting.whole and (name != "cost" or not goal.columns() or setting.columns_whole)
    formula = "TP/n − FP/n·pt/(1 − pt)" if name == NET_BENEFIT else ""
    if name == "topleft":
        formula = "(1 − TPR)² + r·FPR²" if goal.weights is not None else "(1 − TPR)² + FPR²"
    elif name == "youden" and goal.weights is not None:
        formula = "TPR + r·TNR (pROC's weighted Youden)"
    return from_fraction(value if exact_ok else None, float(value), name=word, formula=formula)


def _slacks(setting: Setting, goal: Goal, k: int) -> tuple[Slack, ...]:
    out = []
    for c in goal.constraints:
        m = metric_at(setting, c.metric, goal, k)
        slack = None
        if m.value is not None:
            slack = (m.value - float(c.bound)) if c.at_least else (float(c.bound) - m.value)
        out.append(Slack(c, m, slack))
    return tuple(out)


def decision_sentence(d: Decision, sweep: Sweep) -> str:
    """One sentence: what was chosen, why, and the runner-up."""
    where = "above all scores" if d.threshold is None else f"threshold {quoted(d.threshold)}"
    goal = d.goal.text()
    if not d.feasible:
        return f"Goal {goal}: not feasible; {d.reason}. Showing the closest point, {where}."
    value = d.objective.short() if d.objective.value is not None else "undefined"
    parts = [f"Goal {goal}: {where}, {metric_word(d.goal.metric, d.goal)} {value}"]
    if d.goal.is_net_benefit and d.goal.pt is not None:
        pt = d.goal.pt
        parts[0] += (
            f" (the least-cost point with FP:FN costs {number_text(pt)} : {number_text(1 - pt)})"
        )
    if d.slacks:
        parts.append("; ".join(slack_text(s) for s in d.slacks))
    text = ", ".join(parts)
    if d.attaining > 1:
        text += f"; {d.attaining} points attain it, the highest threshold is chosen"
    if d.runner_up is not None and d.runner_up_objective is not None:
        ru = sweep.threshold_at(d.runner_up)
        ru_where = "above all scores" if ru is None else f"threshold {quoted(ru)}"
        value = d.runner_up_objective.short()
        text += f"; runner-up {ru_where} with {metric_word(d.goal.metric, d.goal)} {value}"
    return text + "."


def slack_text(s: Slack) -> str:
    """``recall 9/10 (>= 0.9, slack 0)``."""
    c = s.constraint
    op = ">=" if c.at_least else "<="
    value = s.value.short() if s.value.value is not None else "undefined"
    slack = "undefined" if s.slack is None else f"{s.slack:.4g}"
    return f"{WORDS[c.metric]} {value} ({op} {number_text(c.bound)}, slack {slack})"


def metrics_at_prevalence(
    sweep: Sweep, k: int, prevalence: Fraction, beta: float
) -> dict[str, Metric]:
    """Every threshold metric of point ``k`` where the positive class has prevalence
    ``prevalence`` (TPR and FPR kept); undefined, with the reason, when a class is
    missing. LR+ and LR− do not change: they are ratios of the rates kept.

    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> from threshold_lab.core.data.dataset import make_dataset
    >>> d = make_dataset([0.9] * 9 + [0.1] + [0.9] + [0.1] * 19, [1] * 10 + [0] * 20)
    >>> s = build_sweep(d)  # at 0.9: TPR 9/10, FPR 1/20
    >>> metrics_at_prevalence(s, 1, Fraction(1, 2), 2.0)["precision"].value_text()
    '18/19 ≈ 0.9474'
    >>> metrics_at_prevalence(s, 1, Fraction(1, 20), 2.0)["precision"].value_text()
    '18/37 ≈ 0.4865'
    """

    setting = Setting(sweep, beta, prevalence)
    missing = setting.missing_class
    if missing is not None:
        return {name: undefined(missing[:1].upper() + missing[1:]) for name in METRIC_NAMES}
    return _threshold_metrics(setting, k)


def _threshold_metrics(setting: Setting, k: int) -> dict[str, Metric]:
    """Core's metrics at point ``k`` of ``setting``. At a prevalence the counts are
    scaled, no rows' counts, so each metric is shown as its reduced fraction."""
    metrics = threshold_metrics(setting.counts_at(k), beta=setting.beta)
    if setting.prevalence is None:
        return metrics
    return {name: m.reduced() for name, m in metrics.items()}


def threshold_statistic(goal: Goal, setting: Setting) -> SweepStatistic:
    """The threshold ``goal`` chooses, read off a bootstrap replicate's sweep (NaN where
    the replicate makes it infeasible, +inf where it chooses above all scores); a goal with
    per-row cost columns is not resampled (a replicate has no rows to sum them over)."""
    if goal.columns():
        return SweepStatistic(None, "a goal with per-row cost columns is not resampled")

    def read(sweep: Sweep) -> float:
        d = solve(replace(setting, sweep=sweep), goal)
        if not d.feasible:
            return math.nan  # counted apart: the share of resamples where it is feasible
        return math.inf if d.threshold is None else float(d.threshold)

    return SweepStatistic(read)


@dataclass(frozen=True, eq=False)
class Deciding:
    """The goal and deployment prevalence in force, and the goal solved for these rows
    (``problem`` says why it could not be, e.g. a class an edit removed)."""

    goal: Goal | None
    prevalence: Fraction | None
    decision: Decision | None
    problem: str | None
    #: Where the goal was solved (its sweep, prevalence and cost columns), or None.
    setting: Setting | None = None

    def goal_metrics(self) -> tuple[str, ...]:
        """The metrics the goal names: its objective, then each constraint's (once)."""
        if self.goal is None:
            return ()
        names = [self.goal.metric, *(c.metric for c in self.goal.constraints)]
        return tuple(dict.fromkeys(names))

    def metric_at(self, name: str, k: int) -> Metric | None:
        """The goal's metric ``name`` at point ``k``, as the goal reads it (at the
        prevalence in force, with its costs); None where the goal was not solved."""
        if self.goal is None or self.setting is None:
            return None
        return metric_at(self.setting, name, self.goal, k)
