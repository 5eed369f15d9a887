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

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt

from core.curves.sweep import Sweep
from core.decide.goal import Constraint, Goal, number_text
from core.decide.values import (
    Cells,
    exact_key,
    exact_value,
    float_values,
    separated,
)
from core.errors import InputError
from core.metrics.confusion import Counts
from core.metrics.metric import Metric, from_fraction, is_integral
from core.metrics.threshold_metrics import threshold_metrics

FloatArray = npt.NDArray[np.float64]

#: Points near an optimum or a bound that are compared again exactly, at most. Past
#: this many (a plateau of a metric whose floats are not exact), floats decide.
EXACT_LIMIT = 20_000

#: The words a goal's metrics are said with.
WORDS = {
    "precision": "precision", "recall": "recall", "f1": "F1", "fbeta": "F-beta",
    "accuracy": "accuracy", "balanced_accuracy": "balanced accuracy",
    "specificity": "specificity", "npv": "NPV", "fpr": "FPR", "fnr": "FNR", "mcc": "MCC",
    "queue_rate": "queue rate", "lr_plus": "LR+", "lr_minus": "LR−",
    "youden": "Youden's J (TPR − FPR)", "predicted_positives": "predicted positives",
    "cost": "cost",
}  # fmt: skip


def parse_prevalence(text: str) -> Fraction:
    """A deployment prevalence strictly between 0 and 1: a decimal or ``a/b``."""
    from core.decide.goal import parse_number

    try:
        p = parse_number(text.strip(), "the prevalence")
    except InputError:
        raise InputError(
            f'prevalence: "{text.strip()}" is not a number (write 0.05 or 1/20)'
        ) from None
    if not 0 < p < 1:
        raise InputError(f"prevalence: {text.strip()} is not strictly between 0 and 1")
    return p


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

    def cells(self) -> Cells:
        """The four counts at every point, as floats."""
        s = self.sweep
        tp, fp = s.tp.astype(np.float64), s.fp.astype(np.float64)
        fn, tn = float(s.positives) - tp, float(s.negatives) - fp
        a, b = (float(x) for x in self._factors())
        return Cells(tp * a, fp * b, tn * b, fn * a)

    def cells_at(self, k: int) -> Cells:
        """The four counts at point ``k``, exactly."""
        s = self.sweep
        tp, fp = _exact(s.tp[k].item()), _exact(s.fp[k].item())
        pos, neg = _exact(s.positives), _exact(s.negatives)
        a, b = self._factors()
        return Cells(tp * a, fp * b, (neg - fp) * b, (pos - tp) * a)

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
        """Core's counts at point ``k``: whole when exact, so core's metrics are."""
        c = self.cells_at(k)
        cells = (c.tp, c.fp, c.tn, c.fn)
        if all(isinstance(x, int) for x in cells) and sum(cells) < 2**53:
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
            "prevalence": None
            if self.prevalence is None
            else f"{self.prevalence.numerator}/{self.prevalence.denominator}",
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


def _values(setting: Setting, name: str, goal: Goal) -> FloatArray:
    if name == "cost":
        return _cost_values(setting, goal)
    values = float_values(name, setting.cells(), setting.beta)
    if name == "predicted_positives" and setting.prevalence is not None:
        values = values / float(setting.scale)  # per example at a prevalence
    return values


def _exact_at(setting: Setting, name: str, goal: Goal, k: int) -> Fraction | None:
    if name == "cost":
        return _cost_exact(setting, goal, k)
    value = exact_value(name, setting.cells_at(k), setting.beta)
    if value is not None and name == "predicted_positives" and setting.prevalence is not None:
        value = value / setting.scale
    return value


def _cost_terms(setting: Setting, goal: Goal) -> list[tuple[str, Fraction | None, str | None]]:
    return [(cell, c.value, c.column) for cell, c in goal.costs]


def _cost_values(setting: Setting, goal: Goal) -> FloatArray:
    """The total cost at every point times a positive constant (the order is all a
    solve needs): constant costs are scaled to whole numbers, so with whole counts
    every total is a whole number held exactly and two totals compare exactly."""
    cells = setting.cells()
    a, b = (float(x) for x in setting._factors())
    scale = _cost_scale(goal)
    total = np.zeros(setting.sweep.size)
    for cell, value, column in _cost_terms(setting, goal):
        if column is None:
            total = total + float((value or 0) * scale) * getattr(cells, cell)
        else:
            factor = a if cell in ("tp", "fn") else b
            total = total + float(scale) * factor * setting.column_cells[column][cell]
    return total


def _cost_scale(goal: Goal) -> int:
    dens = [c.value.denominator for _, c in goal.costs if c.value is not None]
    return math.lcm(*dens) if dens else 1


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
    if name == "cost":
        if goal.columns():
            return False
        biggest = max((abs(c.value) for _, c in goal.costs if c.value is not None), default=0)
        scaled = float(biggest * _cost_scale(goal)) * float(setting.scale) * 4
        return setting.whole and scaled < 2**52
    total = float(setting.scale)
    return setting.whole and separated(name, True, total, setting.beta, bound_den)


# --- solving -------------------------------------------------------------------------


def solve(setting: Setting, goal: Goal) -> Decision:
    """The goal's operating point over every point of ``setting``'s sweep.

    >>> from core.curves.sweep import build_sweep
    >>> from core.data.presets import preset
    >>> from core.decide.goal import parse_goal
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
    sweep = setting.sweep
    m = sweep.size
    exact = True
    feasible = np.ones(m, dtype=bool)
    violation = np.zeros(m)
    nowhere: list[Constraint] = []  # constraints whose metric is undefined everywhere
    for c in goal.constraints:
        v = _values(setting, c.metric, goal)
        x = float(c.bound)
        defined = ~np.isnan(v)
        if not defined.any():
            nowhere.append(c)
        ok = defined & ((v >= x) if c.at_least else (v <= x))
        if not _exact_compare(setting, c.metric, goal, c.bound.denominator):
            tol = 4 * np.finfo(float).eps * max(abs(x), 1.0)
            near = np.flatnonzero(defined & (np.abs(np.nan_to_num(v) - x) <= tol))
            if near.size > EXACT_LIMIT:
                exact = False
            else:
                key = exact_key(c.metric, c.bound)
                for k in near.tolist():
                    e = _exact_at(setting, c.metric, goal, k)
                    ok[k] = e is not None and (e >= key if c.at_least else e <= key)
        feasible &= ok
        gap = (x - v) if c.at_least else (v - x)
        violation += np.where(defined, np.maximum(np.nan_to_num(gap), 0.0), np.inf)
    values = _values(setting, goal.metric, goal)
    signed = values if goal.maximise else -values
    candidates = feasible & ~np.isnan(values)
    feasible_points = int(np.count_nonzero(candidates))
    slack_of: Callable[[int], tuple[Slack, ...]] = lambda k: _slacks(setting, goal, k)  # noqa: E731
    if feasible_points == 0:
        finite = np.isfinite(violation)
        k = int(np.argmin(np.where(finite, violation, np.inf))) if finite.any() else 0
        if not goal.constraints:
            reason = f"{WORDS[goal.metric]} is undefined at every operating point"
        elif np.any(feasible):
            reason = f"{WORDS[goal.metric]} is undefined at every point that meets the constraints"
        elif nowhere:
            why = metric_at(setting, nowhere[0].metric, goal, 0).undefined_text()
            reason = f"{WORDS[nowhere[0].metric]} is undefined at every operating point ({why})"
        elif not finite.any():
            reason = "no operating point has every constraint's metric defined"
        else:
            reason = "no operating point meets " + " and ".join(c.text() for c in goal.constraints)
            where = "above all scores" if k == 0 else f"threshold {sweep.threshold_at(k)!r}"
            reason += f"; the closest is {where} (total shortfall {violation[k]:.4g})"
        return _decision(setting, goal, k, False, reason, 0, 0, slack_of(k), None, exact)
    best = float(np.max(signed[candidates]))
    if _exact_compare(setting, goal.metric, goal):
        attaining = np.flatnonzero(candidates & (signed == best))
    else:
        slack = 4 * float(np.finfo(float).eps) * max(abs(best), 1.0) if math.isfinite(best) else 0.0
        near = np.flatnonzero(candidates & (signed >= best - slack))
        if near.size > EXACT_LIMIT:
            exact = False
            attaining = np.flatnonzero(candidates & (signed == best))
        else:
            keys = []
            for k in near.tolist():
                e = _exact_at(setting, goal.metric, goal, k)
                assert e is not None
                keys.append(e if goal.maximise else -e)
            top = max(keys)
            attaining = np.array([k for k, e in zip(near.tolist(), keys, strict=True) if e == top])
    k = int(attaining[0])
    others = candidates.copy()
    others[attaining] = False
    runner = (
        int(np.flatnonzero(others & (signed == np.max(signed[others])))[0])
        if others.any()
        else None
    )
    return _decision(
        setting,
        goal,
        k,
        True,
        None,
        int(attaining.size),
        feasible_points,
        slack_of(k),
        runner,
        exact,
    )


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
    if name not in ("youden", "predicted_positives", "cost"):
        return threshold_metrics(setting.counts_at(k), beta=setting.beta)[name]
    value = _exact_at(setting, name, goal, k)
    word = WORDS[name]
    if value is None:
        reason = "No actual positives or no actual negatives (TPR or FPR is undefined)"
        return Metric(None, reason, None, word)
    exact_ok = setting.whole and (name != "cost" or not goal.columns() or setting.columns_whole)
    return from_fraction(value if exact_ok else None, float(value), name=word)


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
    where = "above all scores" if d.threshold is None else f"threshold {d.threshold!r}"
    goal = d.goal.text()
    if not d.feasible:
        return f"Goal {goal}: not feasible; {d.reason}. Showing the closest point, {where}."
    value = d.objective.short() if d.objective.value is not None else "undefined"
    parts = [f"Goal {goal}: {where}, {WORDS[d.goal.metric]} {value}"]
    if d.slacks:
        parts.append("; ".join(slack_text(s) for s in d.slacks))
    text = ", ".join(parts)
    if d.attaining > 1:
        text += f"; {d.attaining} points attain it, the highest threshold is chosen"
    if d.runner_up is not None and d.runner_up_objective is not None:
        ru = sweep.threshold_at(d.runner_up)
        ru_where = "above all scores" if ru is None else f"threshold {ru!r}"
        text += f"; runner-up {ru_where} with {d.runner_up_objective.short()}"
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

    >>> from core.curves.sweep import build_sweep
    >>> from core.data.dataset import make_dataset
    >>> d = make_dataset([0.9] * 9 + [0.1] + [0.9] + [0.1] * 19, [1] * 10 + [0] * 20)
    >>> s = build_sweep(d)  # at 0.9: TPR 9/10, FPR 1/20
    >>> metrics_at_prevalence(s, 1, Fraction(1, 2), 2.0)["precision"].value_text()
    '18/19 ≈ 0.9474'
    >>> metrics_at_prevalence(s, 1, Fraction(1, 20), 2.0)["precision"].value_text()
    '18/37 ≈ 0.4865'
    """
    from core.metrics.metric import undefined
    from core.metrics.threshold_metrics import METRIC_NAMES

    setting = Setting(sweep, beta, prevalence)
    missing = setting.missing_class
    if missing is not None:
        return {name: undefined(missing[:1].upper() + missing[1:]) for name in METRIC_NAMES}
    return threshold_metrics(setting.counts_at(k), beta=beta)
