"""How stable a goal's threshold is across cross-validation folds.

The goal is solved on each fold's rows alone (:func:`~.solve.solve`, exactly as on all
rows). Then:

- **Regret.** Each fold's chosen threshold is used on every other fold: the regret of
  fold i's threshold on fold j is how much of fold j's own optimum it loses (fold j's
  best objective minus the objective there for a ``max`` goal, the other way round for
  ``min``), exact for whole counts; undefined where the threshold breaks fold j's
  constraints (or fold j has no feasible point). The diagonal is 0.
- **Stable thresholds.** With a tolerance E and a count Q, the thresholds that are
  feasible and within E of the optimum on at least Q folds, as ranges of scores. A
  threshold t makes on each fold the decisions of that fold's point of the lowest
  score at or above t, so only the folds' distinct scores (and above all scores) need
  looking at; each range is said as the thresholds that decide the same
  (``0.3 < t <= 0.6``).
- **One threshold for every fold** (``--cv-goal``, as scikit-learn's
  ``TunedThresholdClassifierCV`` tunes one): the threshold whose objective averaged
  over the folds is best, among those feasible on every fold, searched over every
  distinct score of every fold; ties go to the highest threshold.

Every threshold is compared in doubles first, and again in fractions wherever doubles
come within 10^-9 of a bound or the best.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.decide.goal import Goal, number_text, parse_number
from threshold_lab.core.decide.solve import Decision, Setting, _values, metric_at, solve
from threshold_lab.core.errors import InputError
from threshold_lab.core.intervals.pvalues import student_t_quantile
from threshold_lab.core.metrics.metric import Metric, fraction_text

#: How near (relative) doubles may come to a bound or a best before fractions decide.
NEAR = 1e-9


def parse_within(text: str) -> Fraction:
    """``--stable-within E``: the objective a threshold may lose on a fold, 0 or more.

    >>> parse_within("0.01")
    Fraction(1, 100)
    """
    e = parse_number(text.strip(), "the objective a threshold may lose", "stable within")
    if e < 0:
        raise InputError(
            f'stable within: "{text.strip()}" is below 0; give 0 or more (the objective a '
            "threshold may lose on a fold)"
        )
    return e


def parse_fold_count(text: str) -> int:
    """``--in Q``: a number of folds, 1 or more (checked against the folds later).

    >>> parse_fold_count("3")
    3
    """
    try:
        q = int(text.strip())
    except ValueError:
        q = 0
    if q < 1:
        raise InputError(
            f'stable in: "{text.strip()}" is not a number of folds; give a whole number, 1 or more'
        )
    return q


def point_at(sweep: Sweep, threshold: float | None) -> int:
    """The point of ``sweep`` whose rows are those scored at or above ``threshold``
    (None: above all scores, point 0)."""
    if threshold is None:
        return 0
    ts = sweep.thresholds  # distinct scores, highest first
    return int(ts.shape[0] - np.searchsorted(ts[::-1], threshold, side="left"))


def _exact(m: Metric) -> Any:
    return m.exact if m.exact is not None else m.value


@dataclass(frozen=True)
class Fold:
    """One fold's solved goal, and its values at every point (doubles)."""

    name: str
    setting: Setting
    decision: Decision
    values: npt.NDArray[np.float64]  # the objective at each point (NaN: undefined)
    feasible: npt.NDArray[np.bool_]  # every constraint holds there

    def objective_at(self, goal: Goal, k: int) -> Any:
        """The objective at point ``k``: a fraction for whole counts, else a double;
        None where undefined."""
        return _exact(metric_at(self.setting, goal.metric, goal, k))

    def feasible_at(self, goal: Goal, k: int) -> bool:
        for c in goal.constraints:
            v = _exact(metric_at(self.setting, c.metric, goal, k))
            if v is None or not (v >= c.bound if c.at_least else v <= c.bound):
                return False
        return True

    @property
    def best(self) -> Any:
        return _exact(self.decision.objective) if self.decision.feasible else None

    def regret_at(self, goal: Goal, k: int) -> Any:
        """What point ``k`` loses against this fold's optimum (None: not feasible here)."""
        best, here = self.best, self.objective_at(goal, k)
        if best is None or here is None or not self.feasible_at(goal, k):
            return None
        return best - here if goal.maximise else here - best


def _fold(name: str, sweep: Sweep, goal: Goal, beta: float) -> Fold:
    setting = Setting(sweep, beta=beta)
    decision = solve(setting, goal)
    values = _values(setting, goal.metric, goal)
    feasible = np.ones(sweep.size, dtype=np.bool_)
    for c in goal.constraints:
        v = _values(setting, c.metric, goal)
        bound = float(c.bound)
        with np.errstate(invalid="ignore"):
            meets = v >= bound if c.at_least else v <= bound
            near = np.flatnonzero(np.abs(v - bound) <= NEAR * max(1.0, abs(bound)))
        for k in near.tolist():  # doubles too near the bound: fractions decide
            x = _exact(metric_at(setting, c.metric, goal, k))
            meets[k] = x is not None and (x >= c.bound if c.at_least else x <= c.bound)
        feasible &= meets
    return Fold(name, setting, decision, values, feasible)


@dataclass(frozen=True)
class Stability:
    """The goal on each fold, the regret matrix, the stable ranges and the one
    threshold for every fold."""

    goal: Goal
    folds: tuple[Fold, ...]
    #: regret[i][j]: fold i's threshold on fold j (None: not feasible there).
    regret: tuple[tuple[Any, ...], ...]
    within: Fraction | None
    at_least: int | None
    #: The stable thresholds, lowest range first: each (above, at_most), None for no bound.
    stable: tuple[tuple[float | None, float | None], ...] | None
    #: --cv-goal: the threshold (None: above all scores), its objective on each fold and
    #: their mean; None when not asked, or no threshold is feasible on every fold.
    cv: tuple[float | None, tuple[Any, ...], Any] | None
    cv_goal: Goal | None = None
    cv_reason: str | None = None
    confidence: float = 0.95

    @property
    def thresholds(self) -> list[float | None]:
        return [f.decision.threshold for f in self.folds if f.decision.feasible]

    def spread(self) -> tuple[float | None, float | None] | None:
        """The lowest and highest chosen threshold (None: above all scores), over the
        folds where the goal is feasible."""
        ts = self.thresholds
        if not ts:
            return None
        key = [np.inf if t is None else t for t in ts]
        lo, hi = min(key), max(key)
        return (None if lo == np.inf else lo), (None if hi == np.inf else hi)

    def interval(self, confidence: float = 0.95) -> dict[str, Any] | None:
        """The mean of the folds' chosen thresholds (feasible folds choosing a score;
        above all scores left out) with its t interval over the folds: mean ± t·sd/√k;
        None with fewer than two such folds."""
        ts = [t for t in self.thresholds if t is not None]
        k = len(ts)
        if k < 2:
            return None
        mean, sd = float(np.mean(ts)), float(np.std(ts, ddof=1))
        half = student_t_quantile(confidence, k - 1) * sd / math.sqrt(k)
        return {
            "mean": mean,
            "sd": sd,
            "low": mean - half,
            "high": mean + half,
            "folds": k,
            "confidence": confidence,
            "method": "t over folds",
        }

    def as_json(self) -> dict[str, Any]:
        spread = self.spread()
        return {
            "goal": self.goal.text(),
            "per_fold": [_per_fold(f) for f in self.folds],
            "threshold_range": None if spread is None else list(spread),
            "threshold_interval": self.interval(self.confidence),
            "regret": [[_json(x) for x in row] for row in self.regret],
            "stable_range": None
            if self.stable is None
            else {
                "within": fraction_text(self.within or Fraction(0)),
                "folds": self.at_least,
                "ranges": [{"above": a, "at_most": b} for a, b in self.stable],
            },
            "cv_goal": None if self.cv_goal is None else self.cv_goal.text(),
            "cv_threshold": None if self.cv is None else self.cv[0],
            "cv_objective": None if self.cv is None else _value_json(self.cv[2]),
            "cv_per_fold": None if self.cv is None else [_json(x) for x in self.cv[1]],
            "cv_reason": self.cv_reason,
        }


def _per_fold(f: Fold) -> dict[str, Any]:
    """A fold's choice; an infeasible fold's threshold and objective are null, the
    point nearest to feasible given apart as ``closest``."""
    d = f.decision
    chosen = {"threshold": d.threshold, "index": d.index, "objective": d.objective.as_json()}
    return {
        "fold": f.name,
        "feasible": d.feasible,
        "reason": d.reason,
        **(chosen if d.feasible else {"threshold": None, "index": None, "objective": None}),
        "closest": None if d.feasible else chosen,
    }


def _value_json(x: Any) -> dict[str, Any]:
    """A value as the metrics are in the JSON: the double, and the fraction when exact."""
    return {"value": float(x), "exact": fraction_text(x) if isinstance(x, Fraction) else None}


def _json(x: Any) -> str | float | None:
    if x is None:
        return None
    if isinstance(x, Fraction):
        return fraction_text(x)
    return float(x)


def _text(x: Any) -> str:
    """An exact value said with its decimal: ``50/73 ≈ 0.6849``; ``2``."""
    if x is None:
        return "—"
    if isinstance(x, Fraction):
        if x.denominator == 1:
            return str(x.numerator)
        return f"{fraction_text(x)} ≈ {float(x):.4f}"
    return f"≈ {float(x):.4g}"


def _cell(x: Any) -> str:
    """A regret matrix cell: the decimal (≈ where it is not exact); — not feasible."""
    if x is None:
        return "—"
    if isinstance(x, Fraction) and x.denominator == 1:
        return str(x.numerator)
    return f"≈{float(x):.4f}"


def stability(
    folds: Sequence[tuple[str, Sweep]],
    goal: Goal | None,
    beta: float,
    *,
    within: Fraction | None = None,
    at_least: int | None = None,
    cv_goal: Goal | None = None,
    confidence: float = 0.95,
) -> Stability:
    """The goal on each fold (``folds``: name and sweep), the regret matrix, the stable
    ranges (with ``within``; on ``at_least`` folds, default all) and ``cv_goal``'s
    one threshold for every fold."""
    main = goal or cv_goal
    if main is None:
        raise InputError("stability needs a goal (--goal) or --cv-goal")
    for g in (goal, cv_goal):
        if g is not None and g.columns():
            raise InputError(
                f"goal {g.text()}: a cost column is not read per fold; give the costs as numbers"
            )
    solved = tuple(_fold(name, sweep, main, beta) for name, sweep in folds)
    regret = tuple(
        tuple(
            fj.regret_at(main, point_at(fj.setting.sweep, fi.decision.threshold))
            if fi.decision.feasible
            else None
            for fj in solved
        )
        for fi in solved
    )
    candidates = _candidates([sweep for _, sweep in folds])
    stable = None
    q = None
    if within is not None:
        q = len(solved) if at_least is None else at_least
        if not 1 <= q <= len(solved):
            raise InputError(
                f"stable in: {q} folds asked for, but there are {len(solved)}; give a number "
                f"of folds from 1 to {len(solved)}"
            )
        stable = _stable(solved, main, candidates, within, q)
    cv, reason = None, None
    if cv_goal is not None:
        tuned = (
            solved
            if cv_goal == main
            else tuple(_fold(name, sweep, cv_goal, beta) for name, sweep in folds)
        )
        cv, reason = _cv(tuned, cv_goal, candidates)
    return Stability(main, solved, regret, within, q, stable, cv, cv_goal, reason, confidence)


def _candidates(sweeps: Sequence[Sweep]) -> npt.NDArray[np.float64]:
    """Every distinct score of every fold, highest first, after +inf (above all)."""
    scores = np.unique(np.concatenate([s.thresholds for s in sweeps]))[::-1]
    return np.concatenate([[np.inf], scores])


def _points(fold: Fold, candidates: npt.NDArray[np.float64]) -> npt.NDArray[np.intp]:
    """Each candidate threshold's point on this fold."""
    ts = fold.setting.sweep.thresholds
    out: npt.NDArray[np.intp] = ts.shape[0] - np.searchsorted(ts[::-1], candidates, side="left")
    return out.astype(np.intp)


def _stable(
    folds: Sequence[Fold],
    goal: Goal,
    candidates: npt.NDArray[np.float64],
    within: Fraction,
    q: int,
) -> tuple[tuple[float | None, float | None], ...]:
    count = np.zeros(candidates.shape[0], dtype=np.int64)
    e = float(within)
    for f in folds:
        if not f.decision.feasible:
            continue
        best = float(f.best)
        lost = (best - f.values) if goal.maximise else (f.values - best)
        with np.errstate(invalid="ignore"):
            ok = f.feasible & (lost <= e)
            near = np.flatnonzero(f.feasible & (np.abs(lost - e) <= NEAR * max(1.0, abs(e))))
        for k in near.tolist():
            r = f.regret_at(goal, k)
            ok[k] = r is not None and r <= within
        count += ok[_points(f, candidates)]
    keep = count >= q
    return tuple(reversed(_ranges(keep, candidates)))


def _ranges(
    keep: npt.NDArray[np.bool_], candidates: npt.NDArray[np.float64]
) -> tuple[tuple[float | None, float | None], ...]:
    """The runs of kept candidates (highest first) as threshold ranges: a run from
    candidate a to b holds every t with candidates[b + 1] < t <= candidates[a]."""
    edges = np.diff(keep.astype(np.int8), prepend=np.int8(0), append=np.int8(0))
    starts, ends = np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1
    out = []
    for a, b in zip(starts.tolist(), ends.tolist(), strict=True):
        top = candidates[a]
        at_most = None if np.isinf(top) else float(top)
        above = float(candidates[b + 1]) if b + 1 < candidates.shape[0] else None
        out.append((above, at_most))
    return tuple(out)


def _cv(
    folds: Sequence[Fold], goal: Goal, candidates: npt.NDArray[np.float64]
) -> tuple[tuple[float | None, tuple[Any, ...], Any] | None, str | None]:
    """The candidate whose objective, averaged over the folds, is best among those
    feasible (and defined) on every fold; the first (highest) among ties."""
    total = np.zeros(candidates.shape[0])
    ok = np.ones(candidates.shape[0], dtype=np.bool_)
    points = []
    for f in folds:
        k = _points(f, candidates)
        points.append(k)
        v = f.values[k]
        ok &= f.feasible[k] & ~np.isnan(v)
        total += np.where(np.isnan(v), 0.0, v)
    if not ok.any():
        return None, "no threshold is feasible (and its objective defined) on every fold"
    sign = 1.0 if goal.maximise else -1.0
    score = np.where(ok, sign * total, -np.inf)
    top = float(score.max())
    near = np.flatnonzero(ok & (score >= top - NEAR * max(1.0, abs(top))))
    best_i, best_sum, best_each = -1, None, ()
    for i in near.tolist():  # fractions decide among the near
        each = tuple(f.objective_at(goal, int(p[i])) for f, p in zip(folds, points, strict=True))
        if any(x is None for x in each) or not all(
            f.feasible_at(goal, int(p[i])) for f, p in zip(folds, points, strict=True)
        ):
            continue
        s = (
            sum(each, Fraction(0))
            if all(isinstance(x, Fraction) for x in each)
            else sum(float(x) for x in each)
        )
        if best_sum is None or sign * s > sign * best_sum:
            best_i, best_sum, best_each = i, s, each
    if best_sum is None:
        return None, "no threshold is feasible (and its objective defined) on every fold"
    t = candidates[best_i]
    mean = best_sum / len(folds)
    return ((None if np.isinf(t) else float(t)), best_each, mean), None


def stability_lines(
    s: Stability, pooled: Decision | None = None, *, grid: bool = True
) -> list[str]:
    """The stability in lines of text; the regret matrix as a grid, or (``grid``
    False, for reading aloud) a sentence for each fold's threshold."""
    out = [f"Stability of goal {s.goal.text()} over {len(s.folds)} folds"]
    for f in s.folds:
        d = f.decision
        where = "above all scores" if d.threshold is None else f"threshold {d.threshold!r}"
        if d.feasible:
            name = d.objective.name or s.goal.metric
            out.append(f"  fold {f.name}: {where}, {name} {d.objective.short()}")
        else:
            out.append(f"  fold {f.name}: not feasible ({d.reason})")
    spread = s.spread()
    if spread is not None:
        lo, hi = ("above all" if x is None else repr(x) for x in spread)
        out.append(f"  chosen thresholds from {lo} to {hi}")
        i = s.interval(s.confidence)
        if i is not None:
            pct = f"{s.confidence * 100:g}%"
            out.append(
                f"  their mean ≈ {i['mean']:.4g} (sd ≈ {i['sd']:.4g}); {pct} interval of the "
                f"mean ≈ {i['low']:.4g} to {i['high']:.4g} (t over {i['folds']} folds)"
            )
    names = [f.name for f in s.folds]
    if not grid:
        out.append("  regret: what each fold's threshold loses on the other folds")
        for f, row in zip(s.folds, s.regret, strict=True):
            if not f.decision.feasible:
                out.append(f"    fold {f.name} chose no threshold")
                continue
            said = ", ".join(
                f"{'not feasible' if x is None else _cell(x).replace('≈', '≈ ')} on fold {n}"
                for n, x, g in zip(names, row, s.folds, strict=True)
                if g is not f
            )
            out.append(f"    fold {f.name}'s threshold: {said}")
    else:
        out += _grid(s, names)
    if s.stable is not None:
        e = number_text(s.within or Fraction(0))
        said = "; ".join(_range(a, b) for a, b in s.stable) or "none"
        out.append(
            f"  thresholds within {e} of the optimum on at least {s.at_least} of "
            f"{len(s.folds)} folds: {said}"
        )
    if s.cv_goal is not None:
        if s.cv is None:
            out.append(f"  one threshold for every fold ({s.cv_goal.text()}): {s.cv_reason}")
        else:
            t, each, mean = s.cv
            where = "above all scores" if t is None else f"threshold {t!r}"
            out.append(
                f"  one threshold for every fold ({s.cv_goal.text()}, averaged over the "
                f"folds): {where}, mean {_text(mean)} (folds: {', '.join(map(_text, each))})"
            )
            if pooled is not None and pooled.feasible:
                pt = "above all scores" if pooled.threshold is None else repr(pooled.threshold)
                out.append(
                    f"    beside the goal on all rows pooled: {pt}, {pooled.objective.short()}"
                )
    return out


def _grid(s: Stability, names: list[str]) -> list[str]:
    out = [
        "  regret (row: the fold whose threshold is used; column: the fold it is used on; "
        "what it loses against that fold's optimum; — not feasible there; the JSON has "
        "each as an exact fraction)"
    ]
    width = max(6, *(len(n) for n in names))
    cells = [[_cell(x) for x in row] for row in s.regret]
    width = max(width, *(len(c) for row in cells for c in row))
    out.append("    " + " " * width + " " + " ".join(n.rjust(width) for n in names))
    for name, row in zip(names, cells, strict=True):
        out.append("    " + name.rjust(width) + " " + " ".join(c.rjust(width) for c in row))
    return out


def _range(above: float | None, at_most: float | None) -> str:
    if above is None and at_most is None:
        return "every threshold"
    if at_most is None:
        return f"above {above!r} (above all scores included)"
    if above is None:
        return f"t <= {at_most!r}"
    return f"{above!r} < t <= {at_most!r}"
