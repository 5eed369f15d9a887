"""A review band: accept above one threshold, reject below another, review between.

Rows scored at or above ``t_high`` are accepted (decided positive), rows scored below
``t_low`` rejected (decided negative), and the rows between go to people. Both
thresholds are the sweep's own: ``t_high`` is point ``kh``'s (ties enter together;
``kh = 0`` is above all scores, nothing accepted) and ``t_low`` point ``kl``'s, with
``kl >= kh`` (``t_low <= t_high``): the rejected rows are those point ``kl`` leaves
out (``kl = 0``: every row; ``kl`` the last point: none). So, with TP and FP the
sweep's cumulative counts and P, N the classes' totals:

- accepted: TP(kh) true positives and FP(kh) false positives;
- rejected: N − FP(kl) true negatives and P − TP(kl) false negatives;
- reviewed: TP(kl) − TP(kh) positives and FP(kl) − FP(kh) negatives.

A band goal, in the grammar of :mod:`.goal` with ``band:`` before it::

    band: max coverage [where precision >= x [and npv >= y ...]]
    band: min review [where ...]
    band: min cost fp=A fn=B review=C [tp=D] [tn=E] [where ...]

Coverage is the share (by weight) decided automatically; review the share reviewed
(the same band as the most coverage); a cost goal puts a cost on each accepted or
rejected cell and on each reviewed row. A constraint bounds the accepted side's
``precision`` (or ``fdr``) or the rejected side's ``npv`` (or ``for``, the false
omission rate); a side that decides nothing meets its bounds vacuously (nothing it
decides is wrong), so reviewing every row always meets them.

Solved exactly over every pair of points, never a grid. The objective is a sum of a
part that depends on ``kh`` alone and one on ``kl`` alone, and each constraint is on
one side, so one backward pass finds, for every ``kh``, the best feasible ``kl >= kh``
(a running best from the last point); the best pair is then one more pass: O(m)
after the sort, whatever the constraints' shape. Of the pairs attaining the optimum,
the one with the highest ``t_high`` (fewest accepted) is chosen, then the highest
``t_low``. The runner-up is the best pair strictly worse than the optimum. Counts are
compared in integers when they are whole (exact), else in doubles.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import blocks
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.decide.goal import _TOKEN, number_text, parse_number
from threshold_lab.core.decide.risk_coverage import (
    FrontierBand,
    Steps,
    frontier_lines,
    risk_coverage,
    risk_coverage_steps,
    steps_lines,
    threshold_of,
)
from threshold_lab.core.errors import InputError
from threshold_lab.core.intervals.closed import CONFIDENCE, NOT_WHOLE, Interval, wilson
from threshold_lab.core.metrics.metric import (
    Metric,
    count_json,
    format_count,
    lower_first,
    ratio,
)
from threshold_lab.core.threshold import format_threshold

#: A count as the text says it (2, or 2.5 for weights).
_n = format_count

GRAMMAR = (
    "band: max coverage [where precision >= x and npv >= y], band: min review [where ...], "
    "or band: min cost fp=A fn=B review=C [where ...]"
)
OBJECTIVES = ("coverage", "review", "cost")
#: Each constraint metric and the side it bounds.
SIDES = {"precision": "accepted", "fdr": "accepted", "npv": "rejected", "for": "rejected"}
ALIASES = {"ppv": "precision", "false_omission_rate": "for", "false_discovery_rate": "fdr"}
COST_CELLS = ("tp", "fp", "tn", "fn", "review")
#: A number no feasible objective reaches: the running best's "none" (integers).
_NONE = np.iinfo(np.int64).min // 4


@dataclass(frozen=True)
class BandConstraint:
    metric: str  # precision, fdr, npv or for
    at_least: bool
    bound: Fraction

    @property
    def side(self) -> str:
        return SIDES[self.metric]

    def text(self) -> str:
        return f"{self.metric} {'>=' if self.at_least else '<='} {number_text(self.bound)}"


@dataclass(frozen=True)
class BandGoal:
    """A parsed band goal: its objective (coverage, review or cost), the costs of a
    cost goal, and the constraints."""

    objective: str
    costs: tuple[tuple[str, Fraction], ...] = ()
    constraints: tuple[BandConstraint, ...] = ()

    def text(self) -> str:
        head = {"coverage": "max coverage", "review": "min review"}.get(self.objective)
        if head is None:
            head = "min cost " + " ".join(f"{c}={number_text(v)}" for c, v in self.costs)
        if self.constraints:
            head += " where " + " and ".join(c.text() for c in self.constraints)
        return f"band: {head}"

    def cost(self, cell: str) -> Fraction:
        return dict(self.costs).get(cell, Fraction(0))


def parse_band_goal(text: str) -> BandGoal:
    """Read a band goal, or refuse it naming the word that is wrong.

    >>> parse_band_goal("band: max coverage where precision >= 0.99 and npv >= 0.995").text()
    'band: max coverage where precision >= 0.99 and npv >= 0.995'
    >>> parse_band_goal("min cost fp=10 fn=50 review=1").costs[2]
    ('review', Fraction(1, 1))
    >>> parse_band_goal("band: max recall")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    threshold_lab.core.errors.InputError: band goal: "recall" is not a band objective; ...
    """
    body = text.strip()
    if body.lower().startswith(("band:", "band ")):
        body = body[5:]
    words = _TOKEN.findall(body.strip())
    if not words:
        raise InputError(f"band goal: empty; write {GRAMMAR}")
    head = words[0].lower()
    if head not in ("max", "min") or len(words) < 2:
        raise InputError(f'band goal: "{" ".join(words[:2])}" should be {GRAMMAR}')
    objective = words[1].lower()
    if objective not in OBJECTIVES:
        raise InputError(
            f'band goal: "{words[1]}" is not a band objective; give coverage (max), review '
            "(min) or cost (min)"
        )
    wants = "max" if objective == "coverage" else "min"
    if head != wants:
        raise InputError(f'band goal: "{head} {objective}": {objective} is {wants}imised')
    rest = words[2:]
    costs: tuple[tuple[str, Fraction], ...] = ()
    if objective == "cost":
        upto = next((i for i, w in enumerate(rest) if w.lower() == "where"), len(rest))
        costs = _costs(rest[:upto])
        rest = rest[upto:]
    constraints: list[BandConstraint] = []
    if rest:
        if rest[0].lower() != "where":
            raise InputError(
                f'band goal: "{rest[0]}" after "{head} {objective}" should be "where" '
                "followed by constraints like precision >= 0.99"
            )
        rest = rest[1:]
        if not rest:
            raise InputError('band goal: nothing after "where"; write precision >= 0.99')
        while rest:
            new = _constraint(rest[:3])
            for old in constraints:
                if (old.metric, old.at_least) == (new.metric, new.at_least):
                    raise InputError(
                        f"band goal: {new.metric} is bounded twice ({old.text()} and "
                        f"{new.text()}); keep the one you mean"
                    )
            constraints.append(new)
            rest = rest[3:]
            if rest:
                if rest[0].lower() != "and":
                    raise InputError(f'band goal: "{rest[0]}" should be "and" between constraints')
                rest = rest[1:]
                if not rest:
                    raise InputError('band goal: nothing after "and"; write another constraint')
    return BandGoal(objective, costs, tuple(constraints))


def _constraint(words: list[str]) -> BandConstraint:
    if len(words) < 3:
        raise InputError(
            f'band goal: "{" ".join(words)}" is not a whole constraint; write precision >= x '
            "or npv >= y"
        )
    key = words[0].lower()
    key = ALIASES.get(key, key)
    if key not in SIDES:
        raise InputError(
            f'band goal: "{words[0]}" cannot bound a side of a band; bound the accepted '
            "side's precision (or fdr) or the rejected side's npv (or for)"
        )
    if words[1] not in (">=", "<=", "=>", "=<"):
        raise InputError(f'band goal: "{words[1]}" after "{words[0]}" should be >= or <=')
    bound = parse_number(words[2], f"{key}'s bound", "band goal")
    if not 0 <= bound <= 1:
        raise InputError(f'band goal: {key}\'s bound "{words[2]}" is not between 0 and 1')
    return BandConstraint(key, words[1] in (">=", "=>"), bound)


def _costs(words: list[str]) -> tuple[tuple[str, Fraction], ...]:
    if not words:
        raise InputError("band goal: min cost needs costs, e.g. min cost fp=10 fn=50 review=1")
    found: dict[str, Fraction] = {}
    i = 0
    while i < len(words):
        cell = words[i].lower()
        if cell not in COST_CELLS:
            raise InputError(
                f'band goal: "{words[i]}" is not a cost; give fp=, fn=, review= (and tp=, tn=) '
                "each followed by a number"
            )
        if i + 2 >= len(words) or words[i + 1] != "=":
            raise InputError(f'band goal: "{words[i]}" needs "=" and a cost, e.g. {cell}=5')
        if cell in found:
            raise InputError(f'band goal: "{cell}" is given twice')
        found[cell] = parse_number(words[i + 2], f"the cost of {cell}", "band goal")
        i += 3
    missing = [c for c in ("fp", "fn", "review") if c not in found]
    if missing:
        raise InputError(
            f"band goal: min cost needs a cost for {', '.join(c + '=' for c in missing)} too "
            "(each of fp=, fn= and review= is given; write 0 for a cell that costs nothing)"
        )
    return tuple((c, found[c]) for c in COST_CELLS if c in found)


# --- the parts of a band ------------------------------------------------------------------


@dataclass(frozen=True)
class BandCounts:
    """The three parts of the band ``(kh, kl)``: accepted TP/FP, rejected TN/FN, and the
    reviewed positives and negatives (exact numbers for whole counts)."""

    tp: Any
    fp: Any
    tn: Any
    fn: Any
    reviewed_positives: Any
    reviewed_negatives: Any

    @property
    def accepted(self) -> Any:
        return self.tp + self.fp

    @property
    def rejected(self) -> Any:
        return self.tn + self.fn

    @property
    def reviewed(self) -> Any:
        return self.reviewed_positives + self.reviewed_negatives

    @property
    def total(self) -> Any:
        return self.accepted + self.rejected + self.reviewed

    def metric(self, name: str) -> Metric:
        """A constraint's metric on its side, its counts filled in."""
        if name in ("precision", "fdr"):
            top = self.tp if name == "precision" else self.fp
            return ratio(
                top,
                self.accepted,
                reason="nothing is accepted (TP+FP=0)",
                name=f"accepted {name}",
                formula="TP/(TP+FP)" if name == "precision" else "FP/(TP+FP)",
                filled=f"{_n(top)}/({_n(self.tp)}+{_n(self.fp)})",
            )
        top = self.tn if name == "npv" else self.fn
        return ratio(
            top,
            self.rejected,
            reason="nothing is rejected (TN+FN=0)",
            name=f"rejected {name.upper() if name == 'npv' else 'FOR'}",
            formula="TN/(TN+FN)" if name == "npv" else "FN/(TN+FN)",
            filled=f"{_n(top)}/({_n(self.tn)}+{_n(self.fn)})",
        )

    def coverage(self) -> Metric:
        return ratio(
            self.accepted + self.rejected,
            self.total,
            reason="there are no rows",
            name="coverage",
            formula="(accepted+rejected)/n",
            filled=f"({_n(self.accepted)}+{_n(self.rejected)})/{_n(self.total)}",
        )

    def review(self) -> Metric:
        return ratio(
            self.reviewed,
            self.total,
            reason="there are no rows",
            name="review",
            formula="reviewed/n",
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "accepted": {"tp": count_json(self.tp), "fp": count_json(self.fp)},
            "rejected": {"tn": count_json(self.tn), "fn": count_json(self.fn)},
            "reviewed": {
                "positives": count_json(self.reviewed_positives),
                "negatives": count_json(self.reviewed_negatives),
            },
        }


def band_counts(sweep: Sweep, kh: int, kl: int) -> BandCounts:
    """The three parts of the band whose thresholds are points ``kh <= kl``."""
    tp_h, fp_h = sweep.tp[kh].item(), sweep.fp[kh].item()
    tp_l, fp_l = sweep.tp[kl].item(), sweep.fp[kl].item()
    pos, neg = sweep.positives, sweep.negatives
    return BandCounts(tp_h, fp_h, neg - fp_l, pos - tp_l, tp_l - tp_h, fp_l - fp_h)


# --- solving ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Band:
    """A solved band goal."""

    goal: BandGoal
    index_high: int
    index_low: int
    t_high: float | None  # None: above all scores (nothing accepted)
    t_low: float | None  # None: above all scores (every row rejected)
    counts: BandCounts
    objective: Metric
    #: Whether the chosen band decides any row (else every row is reviewed) and,
    #: when it decides none, the pair that comes closest to meeting the constraints
    #: while deciding some: (kh, kl, total shortfall).
    decides: bool
    nearest: tuple[int, int, float] | None
    runner_up: tuple[int, int, Metric] | None
    feasible_pairs: int
    exact: bool
    confidence: float = CONFIDENCE
    #: Why the pairs were compared in doubles, when they were ("" when exact).
    inexact: str = ""
    #: The sweep's thresholds at each point index named above (the pairs' thresholds).
    thresholds: tuple[tuple[int, float | None], ...] = ()
    #: The risk-coverage frontier of every band (whatever the goal): :mod:`.risk_coverage`.
    frontier: tuple[FrontierBand, ...] = ()
    #: The best band at every coverage, or why it was left out: :mod:`.risk_coverage`.
    steps: Steps | None = None
    #: Whether the weights are whole (counts of examples): Wilson's intervals need it.
    whole: bool = True

    def threshold_at(self, k: int) -> float | None:
        return dict(self.thresholds)[k]

    def constraint_values(self) -> list[tuple[BandConstraint, Metric, Interval | None]]:
        """Each constraint's value at the band, with its Wilson interval (None where
        the side decides nothing)."""
        out = []
        for c in self.goal.constraints:
            m = self.counts.metric(c.metric)
            num = {"precision": "tp", "fdr": "fp", "npv": "tn", "for": "fn"}[c.metric]
            den = self.counts.accepted if c.side == "accepted" else self.counts.rejected
            interval = None
            if m.value is not None and self.whole:
                lo, hi = wilson(float(getattr(self.counts, num)), float(den), self.confidence)
                interval = Interval(lo, hi, "wilson", self.confidence, float(den))
            out.append((c, m, interval))
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "goal": self.goal.text(),
            "t_high": self.t_high,
            "t_low": self.t_low,
            "index_high": self.index_high,
            "index_low": self.index_low,
            **self.counts.as_json(),
            "coverage": self.counts.coverage().as_json(),
            "review": self.counts.review().as_json(),
            "objective": self.objective.as_json(),
            "constraints": [
                {
                    "text": c.text(),
                    "side": c.side,
                    "value": m.as_json(),
                    "holds": _holds(c, m),
                    "interval": None
                    if ci is None
                    else {**ci.as_json(), "n": None if ci.n is None else count_json(ci.n)},
                    "interval_reason": None if ci is not None or m.value is None else NOT_WHOLE,
                }
                for c, m, ci in self.constraint_values()
            ],
            "decides": self.decides,
            "nearest": None
            if self.nearest is None
            else {
                "t_high": self.threshold_at(self.nearest[0]),
                "t_low": self.threshold_at(self.nearest[1]),
                "index_high": self.nearest[0],
                "index_low": self.nearest[1],
                "shortfall": self.nearest[2],
            },
            "runner_up": None
            if self.runner_up is None
            else {
                "t_high": self.threshold_at(self.runner_up[0]),
                "t_low": self.threshold_at(self.runner_up[1]),
                "index_high": self.runner_up[0],
                "index_low": self.runner_up[1],
                "objective": self.runner_up[2].as_json(),
            },
            "feasible_pairs": self.feasible_pairs,
            "exact": self.exact,
            "inexact_reason": self.inexact or None,
            "risk_coverage": [b.as_json() for b in self.frontier],
            "risk_coverage_steps": None if self.steps is None else self.steps.as_json(),
            "risk_coverage_steps_reason": None
            if self.steps is None
            else (self.steps.reason or None),
        }


def _holds(c: BandConstraint, m: Metric) -> bool:
    """Whether the constraint holds (vacuously where its side decides nothing)."""
    if m.value is None:
        return True
    value: Any = m.exact if m.exact is not None else m.value
    return bool(value >= c.bound if c.at_least else value <= c.bound)


def solve_band(
    sweep: Sweep, goal: BandGoal, confidence: float = CONFIDENCE, *, frontier: bool = True
) -> Band:
    """The band ``goal`` asks for, solved exactly over every pair of the sweep's points
    (see the module's text), with the risk-coverage frontier of every band unless
    ``frontier`` is False."""
    pos, neg = sweep.positives, sweep.negatives
    whole = sweep.whole_counts()
    exact = whole and _small(goal, float(pos) + float(neg))
    if exact:
        inexact = ""
    elif not whole and float(pos) + float(neg) >= 2**53:
        inexact = (
            "the weighted counts reach 2^53, past which doubles are not exact: compared in doubles"
        )
    elif not whole:
        inexact = "the weights are not whole: compared in doubles"
    else:
        inexact = "costs or bounds too large for exact integers: compared in doubles"
    dtype = np.int64 if exact else np.float64
    if exact:
        pos, neg = round(float(pos)), round(float(neg))
    kh, kl, runner, best = _search(goal, sweep.tp, sweep.fp, pos, neg, dtype, exact)
    counts = band_counts(sweep, kh, kl)
    decides = float(counts.accepted) + float(counts.rejected) > 0
    nearest = (
        None if decides or runner is not None or not goal.constraints else _nearest(sweep, goal)
    )
    return Band(
        goal,
        kh,
        kl,
        threshold_of(sweep, kh),
        threshold_of(sweep, kl),
        counts,
        _objective(goal, counts),
        decides,
        nearest,
        None
        if runner is None
        else (runner[0], runner[1], _objective(goal, band_counts(sweep, runner[0], runner[1]))),
        best,
        exact,
        confidence,
        inexact,
        tuple(
            (k, threshold_of(sweep, k))
            for k in {kh, kl, *(runner or ())[:2], *(nearest or ())[:2]}
            if isinstance(k, int)
        ),
        risk_coverage(sweep) if frontier else (),
        risk_coverage_steps(sweep) if frontier else None,
        whole,
    )


def _small(goal: BandGoal, total: float) -> bool:
    """Whether every product the exact pass makes stays within int64."""
    scale = _cost_scale(goal)
    largest: Fraction = max([Fraction(1), *(abs(v) * scale for _, v in goal.costs)])
    bounds = max([1, *(c.bound.denominator for c in goal.constraints)])
    return Fraction(total) * max(largest * 5, Fraction(bounds)) < 2**62


def _cost_scale(goal: BandGoal) -> int:
    """What the costs are multiplied by to make them whole."""
    return math.lcm(*(v.denominator for _, v in goal.costs)) if goal.costs else 1


#: At most this many upper points may tie for the optimum before the runner-up is
#: searched with running second bests (each tied point's own search is a pass).
_TIED = 8


class _Side:
    """One block's parts of the objective and feasibility, computed as asked: the
    upper side (``high``, ``ok``) or the lower side (``low`` where feasible, else
    ``none``), each in as few passes over the block as the objective needs."""

    def __init__(self, goal: BandGoal, pos: Any, neg: Any, dtype: Any, exact: bool, none: Any):
        self.goal, self.dtype, self.exact, self.none = goal, dtype, exact, none
        self.pos, self.neg = dtype(pos), dtype(neg)
        self.total = self.pos + self.neg
        self.w = _weights(goal, dtype)

    def _check(self, made: Any) -> None:
        if self.dtype is not np.int64 and not np.isfinite(made).all():
            raise InputError(
                "band goal: these costs times these counts exceed the largest double (about "
                "1.8e308); give the costs in a larger unit"
            )

    def state(self, name: str, t: Any, f: Any) -> str:
        """Whether every point of a block meets side ``name``'s bounds (``all``), none
        does (``none``), or some may (``some``), read from the block's two ends: TP and
        FP only grow along the sweep, so each bound's two sides are largest and
        smallest at the ends (a side with no bounds: ``all``)."""
        ends = (t[0], t[-1], f[0], f[-1])
        t0, t1, f0, f1 = (int(x) if self.exact else float(x) for x in ends)
        said = "all"
        for c in self.goal.constraints:
            if c.side != name:
                continue
            lhs, rhs = _sides(c, (t0, t1), (f0, f1), self.pos, self.neg, self.exact)
            # Each side is monotone along the block, so its range is its two ends'.
            lo_l, hi_l, lo_r, hi_r = min(lhs), max(lhs), min(rhs), max(rhs)
            every = lo_l >= hi_r if c.at_least else hi_l <= lo_r
            never = hi_l < lo_r if c.at_least else lo_l > hi_r
            if never:
                return "none"
            if not every:
                said = "some"
        return said

    def high(
        self, t: Any, f: Any, state: str = "some"
    ) -> tuple[npt.NDArray[Any], npt.NDArray[np.bool_] | None]:
        """The upper point's part (larger better) and where it meets the accepted side's
        bounds (None: everywhere, as where ``state`` says all do)."""
        made = t + f
        if self.goal.objective in ("coverage", "review"):
            high = made
        else:
            w = self.w
            with np.errstate(over="ignore", invalid="ignore"):
                # cost = tp·TP(kh) + fp·FP(kh) − review·made(kh) + (the lower part)
                high = w["review"] * made - w["tp"] * t - w["fp"] * f
            self._check(high)
        if state == "all":
            return high, None
        return high, _meets(self.goal, "accepted", t, f, self.pos, self.neg, self.exact)

    def low(self, t: Any, f: Any, state: str = "some") -> npt.NDArray[Any]:
        """The lower point's part where it meets the rejected side's bounds, else none
        (every point meets them where ``state`` says all do)."""
        low: npt.NDArray[Any]
        if self.goal.objective in ("coverage", "review"):
            low = self.total - (t + f)
        else:
            w = self.w
            with np.errstate(over="ignore", invalid="ignore"):
                # − [tn·(N − FP(kl)) + fn·(P − TP(kl)) + review·made(kl)]
                low = -(w["tn"] * (self.neg - f) + w["fn"] * (self.pos - t) + w["review"] * (t + f))
            self._check(low)
        if state == "all":
            return low
        ok = _meets(self.goal, "rejected", t, f, self.pos, self.neg, self.exact)
        out: npt.NDArray[Any] = low if ok is None else np.where(ok, low, self.none)
        return out


def _weights(goal: BandGoal, dtype: Any) -> dict[str, Any]:
    """Each cell's cost: whole multiples of the costs (in integers, or in doubles where
    they fit: ties then stay ties); the costs themselves where their multiples pass
    1e280."""
    scale = _cost_scale(goal)
    if dtype is not np.int64 and any(abs(v) * scale > 10**280 for _, v in goal.costs):
        scale = 1
    as_number = int if dtype is np.int64 else float
    return {cell: as_number(goal.cost(cell) * scale) for cell in COST_CELLS}


def _meets(goal: BandGoal, side: str, tp: Any, fp: Any, pos: Any, neg: Any, exact: bool) -> Any:
    """Where each point, as that side's threshold, meets that side's bounds (None: the
    side has none). A bound top/den >= a/b is top·(b − a) >= (den − top)·a, true where
    the side decides nothing (0 >= 0), as a bound on an empty side holds vacuously."""
    ok = None
    for c in goal.constraints:
        if c.side != side:
            continue
        lhs, rhs = _sides(c, tp, fp, pos, neg, exact)
        meets = lhs >= rhs if c.at_least else lhs <= rhs
        ok = meets if ok is None else ok & meets
    return ok


def _sides(c: BandConstraint, tp: Any, fp: Any, pos: Any, neg: Any, exact: bool) -> Any:
    """A bound's two sides at each point (arrays, or a tuple of values at each):
    top·(b − a) and rest·a, where the bound is top/(top + rest) against a/b."""
    if isinstance(tp, tuple):
        return tuple(
            zip(
                *(_sides(c, t, f, pos, neg, exact) for t, f in zip(tp, fp, strict=True)),
                strict=True,
            )
        )
    if c.side == "accepted":
        right, wrong = tp, fp  # precision's top, and the rest of TP+FP
    else:
        right, wrong = neg - fp, pos - tp  # NPV's top (TN), and FN
    top, rest = (right, wrong) if c.metric in ("precision", "npv") else (wrong, right)
    a: int | float = c.bound.numerator
    b: int | float = c.bound.denominator
    if not exact:
        a, b = float(a), float(b)
    return top * (b - a), rest * a


@dataclass
class _Search:
    """What the backward pass keeps: the best and the runner-up value with their
    upper points (a larger value first, then a smaller point), and the feasible pairs."""

    none: Any
    best: tuple[Any, int]
    second: tuple[Any, int]
    pairs: int = 0

    def offer(self, value: Any, k: int) -> None:
        """One candidate pair's value at upper point ``k``."""
        if value <= self.none:
            return
        if (value, -k) > (self.best[0], -self.best[1]):
            if value != self.best[0]:
                self.second = self.best
            self.best = (value, k)
        elif value < self.best[0] and (value, -k) > (self.second[0], -self.second[1]):
            self.second = (value, k)


def _search(
    goal: BandGoal, tp: Any, fp: Any, pos: Any, neg: Any, dtype: Any, exact: bool
) -> tuple[int, int, tuple[int, int] | None, int]:
    """The best pair (kh, kl), the runner-up pair (or None) and the number of feasible
    pairs, in one pass a block at a time from the last point back.

    For each point k the pass keeps the best feasible lower part from k on (``s1``, a
    running maximum); an upper point kh's best pair is its part plus ``s1[kh]``, and
    each block keeps its largest such value. The runner-up is the larger of the best
    pair of any upper point not attaining the optimum (a block below the optimum
    gives its largest; a block attaining it is read again for its next value) and,
    for each upper point that attains it (a few), its best pair strictly below the
    optimum, found by a pass over the points from it on."""
    none = _NONE if dtype is np.int64 else -np.inf
    side = _Side(goal, pos, neg, dtype, exact, none)
    free = _free_rejection(goal, side, tp, fp, dtype)
    if free is None:
        free = _free_acceptance(goal, side, tp, fp, dtype)
    if free is not None:
        return free
    if exact and goal.objective == "cost" and not goal.constraints:
        return _bounded_costs(side, tp, fp, dtype, none)
    return _scan(side, tp, fp, dtype, none)


def _scan(
    side: _Side, tp: Any, fp: Any, dtype: Any, none: Any
) -> tuple[int, int, tuple[int, int] | None, int]:
    """:func:`_search`'s backward pass over every block."""
    m = tp.shape[0]
    #: Each block's start, end, largest lower part, the running best after it, and
    #: its largest pair value with the first upper point attaining it.
    kept: list[tuple[int, int, Any, Any, Any, int]] = []
    pairs = 0
    s1_next, count_next = none, 0
    for s in reversed(list(blocks(0, m))):
        start, stop, n = int(s.start), int(s.stop), s.stop - s.start
        t, f = tp[s].astype(dtype, copy=False), fp[s].astype(dtype, copy=False)
        # Where a block's ends show that all its points, or none, meet a side's bounds,
        # that side's bounds are not computed point by point (and where neither side
        # has a feasible point, the running bests pass the block unchanged).
        hs, ls = side.state("accepted", t, f), side.state("rejected", t, f)
        if hs == "none":
            if ls != "none":  # lower points only: the running best and their count
                g = side.low(t, f, ls)
                top_low = g.max()
                kept.append((start, stop, top_low, s1_next, none, start))
                s1_next = max(s1_next, top_low)
                count_next += n if ls == "all" else int(np.count_nonzero(g > none))
            else:
                kept.append((start, stop, none, s1_next, none, start))
            continue
        if ls == "none":  # upper points only: each pairs with the best lower part after
            high, ok_high = side.high(t, f, hs)
            usable = s1_next > none if ok_high is None else ok_high & (s1_next > none)
            with np.errstate(over="ignore", invalid="ignore"):
                w = np.where(usable, high + s1_next, none)
            k = int(np.argmax(w))
            kept.append((start, stop, none, s1_next, w[k], start + k))
            pairs += count_next * (n if ok_high is None else int(np.count_nonzero(ok_high)))
            continue
        w, g, s1, ok_high = _values(side, t, f, s1_next, none, (hs, ls))
        k = int(np.argmax(w))
        kept.append((start, stop, g.max(), s1_next, w[k], start + k))
        if ls == "all":  # the lower points from i on: count_next + (n - i)
            if ok_high is None:
                pairs += n * count_next + n * (n + 1) // 2
            else:
                upper = np.flatnonzero(ok_high)
                pairs += int(upper.size * (count_next + n) - int(upper.sum()))
            s1_next, count_next = s1[0], count_next + n
            continue
        feasible_low = g > none
        count = np.cumsum(feasible_low[::-1], dtype=np.int64)[::-1] + count_next
        pairs += int(count.sum() if ok_high is None else np.sum(count, where=ok_high))
        s1_next, count_next = s1[0], int(count[0])
    kept.reverse()
    tops = [(b[0], b[1], b[2]) for b in kept]
    return (*_finish(side, tp, fp, dtype, none, kept, tops), pairs)


def _finish(
    side: _Side,
    tp: Any,
    fp: Any,
    dtype: Any,
    none: Any,
    kept: list[tuple[int, int, Any, Any, Any, int]],
    bounds: list[tuple[int, int, Any]],
) -> tuple[int, int, tuple[int, int] | None]:
    """The best pair and the runner-up pair from each block's (start, stop, largest
    lower part or None where unknown, running best lower part after it, largest pair
    value, its upper point), in the points' order; ``bounds`` gives each block's
    largest lower part or a bound above it (to pass over blocks unread)."""
    m = tp.shape[0]
    best = max(b[4] for b in kept)
    if best <= none:
        raise AssertionError("reviewing every row is always feasible")
    kh = next(b[5] for b in kept if b[4] == best)
    tops = [(b[0], b[1], b[2]) for b in kept]
    kl = _lower(side, tp, fp, kh, best, dtype, none, bounds)
    runner_found = _Search(none, (none, m), (none, m))
    tied: list[int] = []
    for start, stop, _, after, top, k in kept:
        if top < best:
            runner_found.offer(top, k)
            continue
        # A block attaining the optimum: its upper points that do, and its next value.
        t, f = tp[start:stop].astype(dtype, copy=False), fp[start:stop].astype(dtype, copy=False)
        w = _values(side, t, f, after, none)[0]
        tied += (np.flatnonzero(w == best) + start).tolist()[: _TIED + 1]
        below = np.where(w < best, w, none)
        k2 = int(np.argmax(below))
        runner_found.offer(below[k2], start + k2)
    if len(tied) > _TIED:
        second = _two_best(side, tp, fp, dtype, none, best)
        if second is not None:
            runner_found.offer(*second)
    else:
        for k in tied:
            below_k = _best_below(side, tp, fp, dtype, none, k, best, tops, bounds)
            if below_k is not None:
                runner_found.offer(below_k, k)
    runner = None
    if runner_found.best[0] > none:
        value, k = runner_found.best
        runner = (k, _lower(side, tp, fp, k, value, dtype, none, bounds))
    return kh, kl, runner


def _linear(side: _Side) -> tuple[tuple[int, int, int], tuple[int, int, int]]:
    """The upper and the lower part, each as a·TP + b·FP + c in whole numbers."""
    w, pos, neg = side.w, int(side.pos), int(side.neg)
    high = (w["review"] - w["tp"], w["review"] - w["fp"], 0)
    low = (w["fn"] - w["review"], w["tn"] - w["review"], -w["tn"] * neg - w["fn"] * pos)
    return high, low


def _above(form: tuple[int, int, int], t: Any, f: Any) -> int:
    """A bound above ``form`` over a block, from its ends (TP and FP only grow)."""
    a, b, c = form
    t0, t1, f0, f1 = int(t[0]), int(t[-1]), int(f[0]), int(f[-1])
    return max(a * t0, a * t1) + max(b * f0, b * f1) + c


def _bounded_costs(
    side: _Side, tp: Any, fp: Any, dtype: Any, none: Any
) -> tuple[int, int, tuple[int, int] | None, int]:
    """:func:`_search` for a cost with no bounds, in whole numbers, reading only the
    blocks that can hold the best pair or the runner-up.

    Each part is linear in TP and FP, so a block's ends bound it. A backward pass
    reads a block's lower parts only where their bound passes the running best after
    it (elsewhere that running best holds through the block); then blocks are read in
    the order of their bound on a pair's value (the upper part's bound plus the
    running best at the block's start), until a bound falls below the second largest
    value read: no block left can hold the best pair or the runner-up. Every pair is
    feasible."""
    m = tp.shape[0]
    high_form, low_form = _linear(side)
    spans = list(blocks(0, m))
    after: list[Any] = [none] * len(spans)  # the running best past each block
    largest: list[Any] = [None] * len(spans)  # each block's largest lower part, if read
    bound: list[Any] = [None] * len(spans)
    running = none
    for i in range(len(spans) - 1, -1, -1):
        s = spans[i]
        t, f = tp[s], fp[s]
        after[i] = running
        bound[i] = _above(low_form, t, f)
        if bound[i] > running:
            g = side.low(t.astype(dtype, copy=False), f.astype(dtype, copy=False), "all")
            largest[i] = g.max()
            running = max(running, largest[i])
    # The running best at each block's start: past it, or its own largest lower part.
    start_best = [a if top is None else max(a, top) for a, top in zip(after, largest, strict=True)]
    order = sorted(
        range(len(spans)),
        key=lambda i: (-(_above(high_form, tp[spans[i]], fp[spans[i]]) + start_best[i]), i),
    )
    tops: list[tuple[Any, int]] = [(none, spans[i].start) for i in range(len(spans))]
    first = second = none
    for i in order:
        s = spans[i]
        t, f = tp[s].astype(dtype, copy=False), fp[s].astype(dtype, copy=False)
        if _above(high_form, t, f) + start_best[i] < second:
            break  # nor any block after it in this order
        high = side.high(t, f, "all")[0]
        if largest[i] is None:
            w = high + after[i]
        else:
            s1 = np.maximum.accumulate(side.low(t, f, "all")[::-1])[::-1]
            np.maximum(s1, after[i], out=s1)
            w = high + s1
        k = int(np.argmax(w))
        tops[i] = (w[k], s.start + k)
        if w[k] > first:
            first, second = w[k], first
        elif first > w[k] > second:
            second = w[k]
    kept = [
        (s.start, s.stop, largest[i], after[i], tops[i][0], tops[i][1]) for i, s in enumerate(spans)
    ]
    bounds = [
        (s.start, s.stop, bound[i] if largest[i] is None else largest[i])
        for i, s in enumerate(spans)
    ]
    return (*_finish(side, tp, fp, dtype, none, kept, bounds), m * (m + 1) // 2)


def _free_rejection(
    goal: BandGoal, side: _Side, tp: Any, fp: Any, dtype: Any
) -> tuple[int, int, tuple[int, int] | None, int] | None:
    """Most coverage (or least review) with no bound on the rejected side: rejecting
    every row the accepted side leaves reviews none, so every feasible upper point ties
    at coverage 1, the best being to accept none and reject all (the highest ``t_high``,
    then ``t_low``), and the runner-up reviews one tie group, the smallest one just
    below a feasible upper point. Found in one pass; None where this does not apply
    (a bound on the rejected side, a cost goal, or a tie group of weight 0)."""
    if goal.objective == "cost" or any(c.side == "rejected" for c in goal.constraints):
        return None
    m = tp.shape[0]
    smallest: tuple[Any, int] | None = None
    pairs = 0
    for s in blocks(0, m):
        stop = min(s.stop + 1, m)  # one point past the block: its last group's size
        t, f = (
            tp[s.start : stop].astype(dtype, copy=False),
            fp[s.start : stop].astype(dtype, copy=False),
        )
        made = t + f
        gap = made[1:] - made[:-1]
        if gap.shape[0] and not bool((gap > 0).all()):
            return None
        n = s.stop - s.start
        state = side.state("accepted", t[:n], f[:n])
        if state == "none":  # its ends show no point of the block meets the bounds
            continue
        ok = _meets(goal, "accepted", t, f, side.pos, side.neg, side.exact)
        k = np.arange(s.start, s.stop, dtype=np.int64)
        feasible = np.ones(n, dtype=np.bool_) if ok is None else ok[:n]
        pairs += int(np.sum(m - k, where=feasible))
        usable = feasible[: gap.shape[0]]
        if usable.any():
            g = np.where(usable, gap, gap.max() + 1 if gap.shape[0] else 0)
            i = int(np.argmin(g))
            if usable[i] and (smallest is None or g[i] < smallest[0]):
                smallest = (g[i], s.start + i)
    runner = None if smallest is None else (smallest[1], smallest[1] + 1)
    return 0, 0, runner, pairs


def _free_acceptance(
    goal: BandGoal, side: _Side, tp: Any, fp: Any, dtype: Any
) -> tuple[int, int, tuple[int, int] | None, int] | None:
    """The mirror of :func:`_free_rejection`: no bound on the accepted side, so
    accepting every row the rejected side leaves reviews none; the best is the first
    point that meets the rejected side's bounds, as both thresholds, and the runner-up
    reviews the smallest tie group just above a point that meets them."""
    if goal.objective == "cost" or any(c.side == "accepted" for c in goal.constraints):
        return None
    m = tp.shape[0]
    first: int | None = None
    smallest: tuple[Any, int] | None = None
    pairs = 0
    for s in blocks(0, m):
        lo = max(s.start - 1, 0)  # one point before the block: its first group's size
        t, f = tp[lo : s.stop].astype(dtype, copy=False), fp[lo : s.stop].astype(dtype, copy=False)
        made = t + f
        gap = made[1:] - made[:-1]
        if gap.shape[0] and not bool((gap > 0).all()):
            return None
        here = slice(s.start - lo, None)
        if side.state("rejected", t[here], f[here]) == "none":
            continue  # its ends show no point of the block meets the bounds
        ok = _meets(goal, "rejected", t[here], f[here], side.pos, side.neg, side.exact)
        n = s.stop - s.start
        k = np.arange(s.start, s.stop, dtype=np.int64)
        feasible = np.ones(n, dtype=np.bool_) if ok is None else ok
        pairs += int(np.sum(k + 1, where=feasible))
        if first is None and feasible.any():
            first = s.start + int(np.argmax(feasible))
        # The group entering at point k (k >= 1): gap[k - 1 - lo] in this slice.
        sizes = gap if s.start > 0 else np.concatenate([[0], gap])
        usable = feasible & (k >= 1)
        if usable.any():
            g = np.where(usable, sizes, sizes.max() + 1)
            i = int(np.argmin(g))
            if usable[i] and (smallest is None or g[i] < smallest[0]):
                smallest = (g[i], s.start + i)
    if first is None:
        raise AssertionError("reviewing every row is always feasible")
    runner = None if smallest is None else (smallest[1] - 1, smallest[1])
    return first, first, runner, pairs


def _values(
    side: _Side, t: Any, f: Any, after: Any, none: Any, states: tuple[str, str] = ("some", "some")
) -> tuple[npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], Any]:
    """A block's best pair value at each upper point (``none`` where it has none), its
    lower parts, its running best lower parts (``after``: the running best past the
    block) and where its upper points are feasible (``states``: each side's
    :meth:`_Side.state` where known)."""
    high, ok_high = side.high(t, f, states[0])
    g = side.low(t, f, states[1])
    s1 = np.maximum.accumulate(g[::-1])[::-1]
    np.maximum(s1, after, out=s1)
    usable = s1 > none if ok_high is None else ok_high & (s1 > none)
    with np.errstate(over="ignore", invalid="ignore"):
        w = np.where(usable, high + s1, none)
    return w, g, s1, ok_high


def _part_at(side: _Side, tp: Any, fp: Any, k: int, dtype: Any) -> Any:
    t, f = tp[k : k + 1].astype(dtype, copy=False), fp[k : k + 1].astype(dtype, copy=False)
    return side.high(t, f)[0][0]


def _suffix(kh: int, tops: list[tuple[int, int, Any]]) -> list[tuple[int, int, Any]]:
    """The blocks from point ``kh`` on: its own block cut to start at ``kh`` (its
    largest part unknown: None), then each later block with its largest part."""
    out: list[tuple[int, int, Any]] = []
    for start, stop, top in tops:
        if stop <= kh:
            continue
        out.append((kh, stop, None) if start < kh else (start, stop, top))
    return out


def _best_below(
    side: _Side,
    tp: Any,
    fp: Any,
    dtype: Any,
    none: Any,
    kh: int,
    best: Any,
    tops: list[tuple[int, int, Any]],
    bounds: list[tuple[int, int, Any]] | None = None,
) -> Any:
    """Upper point ``kh``'s best pair value strictly below ``best`` (None: none). A
    block whose largest lower part already falls below is taken whole, unread; one
    whose largest part is unknown is read only where its bound (``bounds``: a value
    at least its largest part) could give more than found so far."""
    part = _part_at(side, tp, fp, kh, dtype)
    found = none
    unread: list[tuple[int, int, Any]] = []
    for (start, stop, top), (_, _, bound) in zip(
        _suffix(kh, tops), _suffix(kh, bounds or tops), strict=True
    ):
        if top is not None:
            if top <= none:
                continue
            with np.errstate(over="ignore", invalid="ignore"):
                whole = part + top
            if whole < best:
                found = max(found, whole)
                continue
        unread.append((start, stop, bound))
    # The most promising first, so that a bound can pass over the rest.
    unread.sort(key=lambda b: (b[2] is not None, -(b[2] if b[2] is not None else 0)))
    for start, stop, bound in unread:
        if bound is not None:
            with np.errstate(over="ignore", invalid="ignore"):
                if part + bound <= found:
                    continue
        g = side.low(
            tp[start:stop].astype(dtype, copy=False), fp[start:stop].astype(dtype, copy=False)
        )
        with np.errstate(over="ignore", invalid="ignore"):
            v = np.where(g > none, part + g, none)
        v = v[v < best]
        if v.size:
            found = max(found, v.max())
    return None if found <= none else found


def _two_best(side: _Side, tp: Any, fp: Any, dtype: Any, none: Any, best: Any) -> Any:
    """The best pair value strictly below ``best`` and its upper point, where many
    upper points tie for the optimum: a backward pass keeping, beside the running best
    lower part, the running best below it."""
    m = tp.shape[0]
    found = _Search(none, (none, m), (none, m))
    s1_next, s2_next = none, none
    for s in reversed(list(blocks(0, m))):
        t, f = tp[s].astype(dtype, copy=False), fp[s].astype(dtype, copy=False)
        high, ok_high = side.high(t, f)
        g = side.low(t, f)
        n = g.shape[0]
        s1 = np.maximum.accumulate(g[::-1])[::-1]
        np.maximum(s1, s1_next, out=s1)
        # s2[k]: the largest lower part from k on below s1[k]: within k's run of equal
        # s1, the parts below it; past the run, the next lower s1 (or the next block's s2).
        h = np.maximum.accumulate(np.where(g < s1, g, none)[::-1])[::-1]
        after = np.append(s1[1:], s1_next)
        change = np.where(s1 != after, np.arange(n), n)
        c = np.minimum.accumulate(change[::-1])[::-1]
        past = np.where(c < n, after[np.minimum(c, n - 1)], s2_next)
        s2 = np.maximum(h, past)
        # An upper point's best pair below its best is its part plus s2 (its best pairs
        # below the optimum were offered already, by the first pass).
        usable = s2 > none if ok_high is None else ok_high & (s2 > none)
        with np.errstate(over="ignore", invalid="ignore"):
            w = np.where(usable, high + s2, none)
        k = int(np.argmax(w))
        found.offer(w[k], s.start + k)
        s1_next, s2_next = s1[0], s2[0]
    return None if found.best[0] <= none else found.best


def _lower(
    side: _Side,
    tp: Any,
    fp: Any,
    kh: int,
    value: Any,
    dtype: Any,
    none: Any,
    tops: list[tuple[int, int, Any]],
) -> int:
    """The first feasible lower point from ``kh`` on whose pair with ``kh`` has
    ``value``: a block whose largest part falls short of it is passed over unread."""
    part = _part_at(side, tp, fp, kh, dtype)
    for start, stop, top in _suffix(kh, tops):
        if top is not None:
            with np.errstate(over="ignore", invalid="ignore"):
                if top <= none or part + top < value:  # no part here reaches it
                    continue
        g = side.low(
            tp[start:stop].astype(dtype, copy=False), fp[start:stop].astype(dtype, copy=False)
        )
        with np.errstate(over="ignore", invalid="ignore"):
            hit = np.flatnonzero((g > none) & (part + g == value))
        if hit.size:
            return start + int(hit[0])
    raise AssertionError("the best value's lower point is always found")


def _objective(goal: BandGoal, counts: BandCounts) -> Metric:
    if goal.objective == "coverage":
        return counts.coverage()
    if goal.objective == "review":
        return counts.review()
    c = goal.cost
    terms = [
        (c("tp"), counts.tp, "TP"),
        (c("fp"), counts.fp, "FP"),
        (c("tn"), counts.tn, "TN"),
        (c("fn"), counts.fn, "FN"),
        (c("review"), counts.reviewed, "reviewed"),
    ]
    given = {"TP": "tp", "FP": "fp", "TN": "tn", "FN": "fn", "reviewed": "review"}
    named = dict(goal.costs)
    shown = [(w, x, name) for w, x, name in terms if given[name] in named]
    whole = all(float(x).is_integer() for _, x, _ in shown)
    if whole:
        exact = sum((w * int(x) for w, x, _ in shown), Fraction(0))
        return Metric(
            _double(exact),
            None,
            exact,
            "cost",
            _signed([(w, name) for w, _, name in shown]),
            _signed([(w, _n(x)) for w, x, _ in shown]),
        )
    value = sum(float(w) * float(x) for w, x, _ in shown)
    return Metric(value, None, None, "cost")


def _signed(terms: list[tuple[Fraction, str]]) -> str:
    """``1/3·FP + 5·FN − 1·reviewed``: a negative weight after the first is subtracted."""
    out = ""
    for i, (w, name) in enumerate(terms):
        if i == 0:
            out = f"{number_text(w)}·{name}"
        else:
            out += f" {'−' if w < 0 else '+'} {number_text(abs(w))}·{name}"
    return out or "0"


def _double(x: Fraction) -> float:
    try:
        return float(x)
    except OverflowError:
        return math.copysign(math.inf, x)


def _nearest(sweep: Sweep, goal: BandGoal) -> tuple[int, int, float] | None:
    """When the best band decides nothing: the band deciding something that comes
    closest to the constraints (the smallest total shortfall, in doubles), accepting
    only (kl the last point) or rejecting only (kh = 0)."""
    m = sweep.size
    tp, fp = sweep.tp.astype(np.float64), sweep.fp.astype(np.float64)
    pos, neg = float(sweep.positives), float(sweep.negatives)
    made = tp + fp
    best: tuple[int, int, float] | None = None
    for side in ("accepted", "rejected"):
        short = np.zeros(m)
        for c in goal.constraints:
            if c.side != side:
                continue
            if side == "accepted":
                top, den = (tp if c.metric == "precision" else fp), made
            else:
                top, den = ((neg - fp) if c.metric == "npv" else (pos - tp)), (pos + neg - made)
            with np.errstate(invalid="ignore", divide="ignore"):
                value = np.where(den > 0, top / np.where(den > 0, den, 1), np.nan)
            gap = float(c.bound) - value if c.at_least else value - float(c.bound)
            short += np.maximum(np.nan_to_num(gap, nan=0.0), 0.0)
        decided = made > 0 if side == "accepted" else (pos + neg - made) > 0
        if not decided.any():
            continue
        short = np.where(decided, short, np.inf)
        k = int(np.argmin(short))
        pair = (k, m - 1) if side == "accepted" else (0, k)
        if best is None or float(short[k]) < best[2]:
            best = (*pair, float(short[k]))
    return best


# --- words ------------------------------------------------------------------------------------


def _plural(x: Any, one: str, many: str) -> str:
    return f"{_n(x)} {one if float(x) == 1 else many}"


def rule_text(sweep: Sweep, kh: int, kl: int) -> str:
    """``accept score >= 0.8; reject score < 0.3; review the rest``, said plainly at
    the ends: ``accept no row`` (above all scores), ``reject every row``, ``review none``."""
    c = band_counts(sweep, kh, kl)
    accept = (
        "accept no row"
        if kh == 0
        else f"accept score >= {format_threshold(threshold_of(sweep, kh))}"
    )
    if kl == 0:
        reject = "reject every row"
    elif float(c.rejected) == 0 and kl == sweep.size - 1:
        reject = "reject no row"
    else:
        reject = f"reject score < {format_threshold(threshold_of(sweep, kl))}"
    review = "review the rest" if kh != kl else "review none"
    return f"{accept}; {reject}; {review}"


def band_lines(band: Band, sweep: Sweep) -> list[str]:
    """The band in lines of text: its thresholds, its three parts, coverage, each
    constraint with its interval, and the runner-up."""
    c = band.counts
    out = [
        f"Review band: {band.goal.text().removeprefix('band: ')}",
        f"  {rule_text(sweep, band.index_high, band.index_low)}"
        + ("" if band.exact else f" ({band.inexact})"),
        f"  accepted: {_n(c.accepted)} (TP {_n(c.tp)}, FP {_n(c.fp)})",
        f"  rejected: {_n(c.rejected)} (TN {_n(c.tn)}, FN {_n(c.fn)})",
        f"  reviewed: {_n(c.reviewed)} ({_plural(c.reviewed_positives, 'positive', 'positives')}, "
        f"{_plural(c.reviewed_negatives, 'negative', 'negatives')})",
        f"  {c.coverage().describe()}",
    ]
    if band.goal.objective != "coverage":
        out.append(f"  {band.objective.describe()}")
    for con, m, ci in band.constraint_values():
        if m.value is None:
            out.append(f"  {con.text()}: holds vacuously, as {lower_first(m.reason or '')}")
            continue
        mark = "holds" if _holds(con, m) else "FAILS"
        said = f"no interval: {NOT_WHOLE}" if ci is None else ci.text()
        out.append(f"  {con.text()}: {mark}; {m.describe()} ({said})")
    out += [f"  {line}" for line in unbounded_notes(band.goal)]
    if not band.decides:
        if band.runner_up is None and band.goal.constraints:
            out.append(
                "  No band decides any row while meeting the constraints: every row is reviewed."
            )
            if band.nearest is not None:
                kh, kl, gap = band.nearest
                near = band_counts(sweep, kh, kl)
                out.append(
                    f"  Closest that decides rows: {rule_text(sweep, kh, kl)} "
                    f"({_n(near.accepted)} accepted, {_n(near.rejected)} rejected), short of "
                    f"the bounds by ≈ {gap:.4g} in all."
                )
        else:
            out.append(
                "  Reviewing every row is the best band here: every band that decides rows "
                f"has a worse {band.objective.name}."
            )
    if band.runner_up is not None:
        kh, kl, obj = band.runner_up
        out.append(
            f"  Runner-up: {rule_text(sweep, kh, kl)}: "
            f"{obj.name} {obj.short() if obj.value is not None else obj.undefined_text()}"
        )
    out += [f"  {line}" for line in frontier_lines(band.frontier)]
    if band.steps is not None:
        out += [f"  {line}" for line in steps_lines(band.steps)]
    return out


@dataclass(frozen=True)
class BandShown:
    """The band a session shows: the active threshold accepts, ``index_low``'s
    threshold rejects below it, the rows between are reviewed (the explorer's band)."""

    goal: str | None  # the goal that set it, or None where moved by hand since
    index_high: int
    index_low: int
    t_high: float | None
    t_low: float | None
    counts: BandCounts
    #: The band goal's bounds that this band no longer meets (moved by hand), said.
    broken: tuple[str, ...] = ()

    def parts(self) -> tuple[str, str, str, str]:
        """``accept >= 0.64: 7 (TP 7, FP 0)``, the rejected and reviewed alike, and
        the coverage with its counts."""
        c = self.counts
        accept = (
            "accept no row"
            if self.index_high == 0
            else f"accept >= {format_threshold(self.t_high)}: {_n(c.accepted)} (TP {_n(c.tp)}, "
            f"FP {_n(c.fp)})"
        )
        if float(c.rejected) == 0:
            reject = "reject no row"
        elif self.index_low == 0:
            reject = f"reject every row: {_n(c.rejected)} (TN {_n(c.tn)}, FN {_n(c.fn)})"
        else:
            reject = (
                f"reject < {format_threshold(self.t_low)}: {_n(c.rejected)} (TN {_n(c.tn)}, "
                f"FN {_n(c.fn)})"
            )
        review = (
            f"review {_n(c.reviewed)} ({_plural(c.reviewed_positives, 'positive', 'positives')}"
            f", {_plural(c.reviewed_negatives, 'negative', 'negatives')})"
        )
        return accept, reject, review, f"coverage {c.coverage().short()}"

    def short_parts(self) -> tuple[str, str, str, str]:
        """``accept >= 0.64: 7``, ``reject < 0.33: 6``, ``review 7``, ``coverage
        13/20``: the parts without their cells, where room is short."""
        c = self.counts
        accept = (
            "accept no row"
            if self.index_high == 0
            else f"accept >= {format_threshold(self.t_high)}: {_n(c.accepted)}"
        )
        if float(c.rejected) == 0:
            reject = "reject no row"
        elif self.index_low == 0:
            reject = f"reject every row: {_n(c.rejected)}"
        else:
            reject = f"reject < {format_threshold(self.t_low)}: {_n(c.rejected)}"
        return (
            accept,
            reject,
            f"review {_n(c.reviewed)}",
            f"coverage {c.coverage().short()}",
        )

    def sentence(self, note: str = "") -> str:
        """``Band: accept >= 0.64: 7 (TP 7, FP 0); reject < 0.33: 6 (TN 6, FN 0);
        review 7 (3 positives, 4 negatives); coverage 13/20.``, then each bound of its
        goal it no longer meets."""
        said = "Band: " + "; ".join(self.parts()) + (f" ({note})" if note else "") + "."
        if self.broken:
            said += " The goal's " + " and ".join(self.broken) + "."
        return said


def band_shown(
    sweep: Sweep,
    kh: int,
    t_high: float | None,
    t_low: float | None,
    goal: str | None,
    *,
    bounds: BandGoal | None = None,
) -> BandShown:
    """The band of the active point ``kh`` (its threshold ``t_high``) and the reject
    threshold ``t_low`` (None: every row rejected), never above the accept threshold:
    where the active threshold is below ``t_low`` nothing is reviewed. ``bounds``: the
    band goal whose bounds it is checked against (each one it fails is said)."""
    ts = sweep.thresholds
    kl = 0 if t_low is None else int(ts.shape[0] - np.searchsorted(ts[::-1], t_low, side="left"))
    low = t_low
    if kl <= kh:
        kl, low = kh, t_high
    counts = band_counts(sweep, kh, kl)
    broken: list[str] = []
    for c in () if bounds is None else bounds.constraints:
        m = counts.metric(c.metric)
        if not _holds(c, m):
            broken.append(f"{c.text()} does not hold: {m.short()}")
    return BandShown(goal, kh, kl, t_high, low, counts, tuple(broken))


def unbounded_notes(goal: BandGoal) -> list[str]:
    """Why a coverage or review goal with a side left unbounded puts every row on
    that side: nothing stops it deciding them."""
    if goal.objective == "cost":
        return []
    sides = {c.side for c in goal.constraints}
    notes = []
    for side, names in (("accepted", "precision or fdr"), ("rejected", "npv or for")):
        if side not in sides:
            notes.append(
                f"No bound on the {side} side ({names}): it may take any row, so the band "
                f"reviews only what the other side's bounds leave; bound both sides for a "
                "review band."
            )
    if len(notes) == 2:
        return ["No bounds on either side: deciding every row meets the goal (coverage 1)."]
    return notes
