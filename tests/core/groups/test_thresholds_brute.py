"""Per-group thresholds against a brute force over every combination of the
groups' sweep points, in fractions: the same best objective under the same gap, the
chosen thresholds feasible and reaching it, the runner-up the best feasible choice
with the next objective value (for a sum and for a ratio alike), infeasible exactly when
nothing is within the tolerance (with the same smallest gap), under hypothesis with
ties and weights."""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.decide.goal import parse_goal
from threshold_lab.core.errors import InputError
from threshold_lab.core.groups.thresholds import CRITERION_RATES, solve_group_thresholds

GOALS = [
    "max accuracy",
    "max f1",
    "max precision",
    "min cost fp=1 fn=3",
    "max recall",
    "max balanced_accuracy",
    "max net_benefit at pt 1/4",
    "max jaccard",
    "min fpr",
    "max npv",
    "min precision",
    "max fbeta",
]


@st.composite
def groups(draw: st.DrawFn):  # type: ignore[no-untyped-def]
    k = draw(st.integers(2, 3))
    out = []
    for i in range(k):
        m = draw(st.integers(2, 6))
        y = draw(st.lists(st.integers(0, 1), min_size=m, max_size=m))
        y[0], y[1] = 1, 0
        s = draw(st.lists(st.integers(0, 4), min_size=m, max_size=m))
        w = draw(st.one_of(st.none(), st.lists(st.integers(1, 3), min_size=m, max_size=m)))
        out.append((f"g{i}", y, [x / 4 for x in s], w))
    return out


def _sweeps(case: Any) -> list[tuple[str, Sweep]]:
    return [(name, curves_for(make_dataset(s, y, weights=w)).sweep) for name, y, s, w in case]


def _rate(rate: str, tp: Fraction, fp: Fraction, pos: Fraction, neg: Fraction) -> Fraction | None:
    num, den = {
        "selection_rate": (tp + fp, pos + neg),
        "tpr": (tp, pos),
        "fpr": (fp, neg),
        "precision": (tp, tp + fp),
    }[rate]
    return None if den == 0 else num / den


def _objective(
    goal: str, tp: Fraction, fp: Fraction, pos: Fraction, neg: Fraction
) -> Fraction | None:
    n = pos + neg
    tn, fn = neg - fp, pos - tp
    if goal == "max accuracy":
        return (tp + tn) / n
    if goal == "max f1":
        d = 2 * tp + fp + fn
        return None if d == 0 else 2 * tp / d
    if goal == "max precision":
        return None if tp + fp == 0 else tp / (tp + fp)
    if goal == "min cost fp=1 fn=3":
        return -(fp + 3 * fn)
    if goal == "max recall":
        return tp / pos
    if goal == "max balanced_accuracy":
        return (tp / pos + tn / neg) / 2
    if goal == "max net_benefit at pt 1/4":
        return tp / n - fp / n * Fraction(1, 3)
    if goal == "max jaccard":
        d = tp + fp + fn
        return None if d == 0 else tp / d
    if goal == "min fpr":
        return -(fp / neg)
    if goal == "max npv":
        return None if tn + fn == 0 else tn / (tn + fn)
    if goal == "min precision":
        return None if tp + fp == 0 else -(tp / (tp + fp))
    if goal == "max fbeta":  # beta 2
        d = 5 * tp + 4 * fn + fp
        return None if d == 0 else 5 * tp / d
    raise ValueError(goal)


def _feasible(sweeps, criterion: str, goal: str, e: Fraction):  # type: ignore[no-untyped-def]
    """Every feasible choice of points (one a group) with its objective (None where
    undefined), and the smallest gap any choice reaches."""
    rates = CRITERION_RATES[criterion]
    pos = sum(Fraction(s.positives) for _, s in sweeps)
    neg = sum(Fraction(s.negatives) for _, s in sweeps)
    found, smallest = [], None
    for points in itertools.product(*(range(s.tp.shape[0]) for _, s in sweeps)):
        cells = [
            (
                Fraction(s.tp[k].item()),
                Fraction(s.fp[k].item()),
                Fraction(s.positives),
                Fraction(s.negatives),
            )
            for (_, s), k in zip(sweeps, points, strict=True)
        ]
        gap = Fraction(0)
        ok = True
        for rate in rates:
            rs = [_rate(rate, *c) for c in cells]
            if any(r is None for r in rs):
                ok = False
                break
            gap = max(gap, max(rs) - min(rs))  # type: ignore[type-var, operator]
        if not ok:
            continue
        smallest = gap if smallest is None else min(smallest, gap)
        if gap > e:
            continue
        tp = sum((c[0] for c in cells), Fraction(0))
        fp = sum((c[1] for c in cells), Fraction(0))
        found.append((points, _objective(goal, tp, fp, Fraction(pos), Fraction(neg)), gap))
    return found, smallest


def _brute(sweeps, criterion: str, goal: str, e: Fraction):  # type: ignore[no-untyped-def]
    rates = CRITERION_RATES[criterion]
    pos = sum(Fraction(s.positives) for _, s in sweeps)
    neg = sum(Fraction(s.negatives) for _, s in sweeps)
    best, smallest = None, None
    for points in itertools.product(*(range(s.tp.shape[0]) for _, s in sweeps)):
        cells = [
            (
                Fraction(s.tp[k].item()),
                Fraction(s.fp[k].item()),
                Fraction(s.positives),
                Fraction(s.negatives),
            )
            for (_, s), k in zip(sweeps, points, strict=True)
        ]
        gap = Fraction(0)
        ok = True
        for rate in rates:
            rs = [_rate(rate, *c) for c in cells]
            if any(r is None for r in rs):
                ok = False
                break
            gap = max(gap, max(rs) - min(rs))  # type: ignore[type-var, operator]
        if not ok:
            continue
        smallest = gap if smallest is None else min(smallest, gap)
        if gap > e:
            continue
        tp = sum((c[0] for c in cells), Fraction(0))
        fp = sum((c[1] for c in cells), Fraction(0))
        v = _objective(goal, tp, fp, Fraction(pos), Fraction(neg))
        if v is not None and (best is None or v > best):
            best = v
    return best, smallest


@settings(max_examples=150, deadline=None)
@given(
    groups(),
    st.sampled_from(
        ["demographic_parity", "equal_opportunity", "equalized_odds", "predictive_parity"]
    ),
    st.sampled_from(GOALS),
    st.sampled_from([Fraction(0), Fraction(1, 10), Fraction(1, 4), Fraction(1, 3), Fraction(1, 2)]),
)
def test_the_search_equals_the_brute_force(case, criterion: str, goal: str, e: Fraction) -> None:  # type: ignore[no-untyped-def]
    sweeps = _sweeps(case)
    best, smallest = _brute(sweeps, criterion, goal, e)
    got = solve_group_thresholds(sweeps, criterion, parse_goal(goal), e)
    if best is None:
        assume(smallest is not None)  # a feasible choice with an undefined objective only
        assert not got.feasible, (got.chosen, smallest)
        if len(CRITERION_RATES[criterion]) == 1:
            assert got.smallest_gap == pytest.approx(float(smallest))
        return
    assert got.feasible and got.chosen is not None
    c = got.chosen
    sign = -1 if goal.startswith("min") else 1
    assert c.objective.exact is not None
    assert sign * c.objective.exact == best
    assert c.gap.exact is not None and c.gap.exact <= e
    # The thresholds reported are the points chosen.
    for (name, s), k in zip(sweeps, c.points, strict=True):
        assert c.thresholds[name] == (None if k == 0 else float(s.thresholds[k - 1]))


@settings(max_examples=150, deadline=None)
@given(
    groups(),
    st.sampled_from(
        ["demographic_parity", "equal_opportunity", "equalized_odds", "predictive_parity"]
    ),
    st.sampled_from(GOALS),
    st.sampled_from([Fraction(0), Fraction(1, 10), Fraction(1, 4), Fraction(1, 2)]),
)
def test_the_runner_up_is_the_best_feasible_choice_with_the_next_value(  # type: ignore[no-untyped-def]
    case, criterion: str, goal: str, e: Fraction
) -> None:
    sweeps = _sweeps(case)
    got = solve_group_thresholds(sweeps, criterion, parse_goal(goal), e)
    assume(got.feasible and got.chosen is not None)
    chosen = got.chosen
    assert chosen is not None and chosen.objective.exact is not None
    sign = -1 if goal.startswith("min") else 1
    found, _ = _feasible(sweeps, criterion, goal, e)
    values = {v for _, v, _ in found if v is not None}
    best = sign * chosen.objective.exact
    assert best == max(values)
    below = [v for v in values if v < best]
    if not below:
        assert got.runner_up is None and got.runner_up_reason is not None
        return
    r = got.runner_up
    assert r is not None and r.objective.exact is not None and r.gap.exact is not None
    assert sign * r.objective.exact == max(below), (r, sorted(values))
    # It is a feasible choice reaching that value: its points, its gap, its thresholds.
    mine = [(p, g) for p, v, g in found if p == r.points]
    assert len(mine) == 1 and mine[0][1] == r.gap.exact <= e
    for (name, s), k in zip(sweeps, r.points, strict=True):
        assert r.thresholds[name] == (None if k == 0 else float(s.thresholds[k - 1]))


def test_tolerance_one_is_each_group_on_its_own_best() -> None:
    rng = np.random.default_rng(3)
    case = []
    for i in range(3):
        y = rng.integers(0, 2, 30)
        y[:2] = (1, 0)
        case.append((f"g{i}", y.tolist(), np.round(rng.random(30), 1).tolist(), None))
    sweeps = _sweeps(case)
    got = solve_group_thresholds(
        sweeps, "demographic_parity", parse_goal("max accuracy"), Fraction(1)
    )
    assert got.chosen is not None
    for (_, s), k in zip(sweeps, got.chosen.points, strict=True):
        d = s.tp - s.fp
        assert d[k] == d.max() and k == int(np.argmax(d))  # the highest threshold among ties


def test_an_objective_with_no_exact_search_is_refused_naming_those_that_have_one() -> None:
    sweeps = _sweeps([("a", [1, 0, 1], [0.9, 0.5, 0.2], None), ("b", [1, 0], [0.7, 0.1], None)])
    with pytest.raises(InputError, match="mcc is not a sum over groups nor a ratio"):
        solve_group_thresholds(sweeps, "equal_opportunity", parse_goal("max mcc"))


def test_a_group_without_positives_cannot_hold_equal_opportunity() -> None:
    sweeps = _sweeps([("a", [1, 0, 1], [0.9, 0.5, 0.2], None), ("b", [0, 0], [0.7, 0.1], None)])
    with pytest.raises(InputError, match="group 'b' has no actual positives"):
        solve_group_thresholds(sweeps, "equal_opportunity", parse_goal("max accuracy"))


def test_a_rate_on_the_window_s_edge_is_inside_though_floats_say_not() -> None:
    """0.3 + 0.6 is 0.8999999999999999 in floats: 9/10 is still within 3/10 + 3/5."""
    from threshold_lab.core.groups.thresholds import _Sorted, _upper

    s = _Sorted(np.array([0], dtype=np.intp), np.array([0.9]), np.array([9.0]), np.array([10.0]))
    lo = np.array([0.3])
    assert 0.3 + 0.6 < 0.9  # the float sum falls short
    assert _upper(s, lo, None, Fraction(3, 5)).tolist() == [0]  # floats alone: outside
    exact = (np.array([3], dtype=np.int64), np.array([10], dtype=np.int64))
    assert _upper(s, lo, exact, Fraction(3, 5)).tolist() == [1]  # exactly: inside
    s2 = _Sorted(
        np.array([0], dtype=np.intp),
        np.array([9000000000001 / 10**13]),
        np.array([9000000000001.0]),
        np.array([1e13]),
    )
    assert _upper(s2, lo, exact, Fraction(3, 5)).tolist() == [0]  # 1e-13 past: outside


def test_a_ratio_with_weights_that_are_not_whole_says_why_it_has_no_runner_up() -> None:
    case = [
        ("a", [1, 0, 1, 0], [0.9, 0.8, 0.4, 0.2], [1.5, 1.0, 1.0, 2.0]),
        ("b", [1, 0, 1, 0], [0.7, 0.6, 0.5, 0.1], None),
    ]
    got = solve_group_thresholds(
        _sweeps(case), "demographic_parity", parse_goal("max f1"), Fraction(1, 2)
    )
    assert got.feasible and got.runner_up is None
    assert got.runner_up_reason is not None and "weights are not whole" in got.runner_up_reason


def test_every_choice_leaving_the_ratio_undefined_is_infeasible_saying_so() -> None:
    """Predictive parity holds only where precision is defined (something predicted
    positive); here each group's only points then predict every row positive, where
    NPV has nothing to divide."""
    case = [("a", [1, 0], [0.0, 0.0], None), ("b", [1, 0], [0.0, 0.0], None)]
    got = solve_group_thresholds(
        _sweeps(case), "predictive_parity", parse_goal("max npv"), Fraction(0)
    )
    assert not got.feasible and got.chosen is None
    assert got.reason is not None and "leaves npv undefined" in got.reason
