"""The thresholds pROC calls best, as goals: ``min topleft`` (closest.topleft) and
``max youden`` with pROC's ``best.weights`` (``cost=R prevalence=P``), against a brute
force written from pROC's formulas (r = (1 − prevalence)/(cost·prevalence); topleft
(1 − TPR)² + r·FPR², youden TPR + r·TNR) over every cut, in fractions, the highest
threshold among equals, with ties and weights."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.decide.goal import parse_goal
from threshold_lab.core.decide.solve import Setting, solve
from threshold_lab.core.errors import InputError

GOALS = {
    "min topleft": (Fraction(1), "topleft"),
    "max youden": (None, "j"),
    "max youden cost=2 prevalence=0.3": (Fraction(7, 6), "youden"),
    "min topleft cost=1/2 prevalence=0.1": (Fraction(18), "topleft"),
    "min closest.topleft prevalence=0.8": (Fraction(1, 4), "topleft"),
}


def _brute(
    rows: list[tuple[float, int, int]], r: Fraction | None, kind: str
) -> tuple[Fraction, float | None]:
    pos = sum(w for _, y, w in rows if y)
    neg = sum(w for _, y, w in rows if not y)
    best = None
    for t in [None, *sorted({s for s, _, _ in rows}, reverse=True)]:
        tp = sum(w for s, y, w in rows if y and t is not None and s >= t)
        fp = sum(w for s, y, w in rows if not y and t is not None and s >= t)
        tpr, fpr = Fraction(tp, pos), Fraction(fp, neg)
        if kind == "topleft":
            assert r is not None
            value = (1 - tpr) ** 2 + r * fpr**2
            better = best is None or value < best[0]
        elif kind == "youden":
            assert r is not None
            value = tpr + r * (1 - fpr)
            better = best is None or value > best[0]
        else:
            value = tpr - fpr
            better = best is None or value > best[0]
        if better:
            best = (value, t)
    assert best is not None
    return best


rows = st.lists(
    st.tuples(
        st.sampled_from([0.1, 0.2, 0.3, 0.5, 0.7, 0.9]), st.integers(0, 1), st.integers(0, 3)
    ),
    min_size=2,
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(rows, st.sampled_from(sorted(GOALS)))
def test_proc_s_best_thresholds_are_the_brute_force_best(
    given_rows: list[tuple[float, int, int]], text: str
) -> None:
    if not any(w for _, y, w in given_rows if y) or not any(w for _, y, w in given_rows if not y):
        return
    data = make_dataset(
        [s for s, _, _ in given_rows],
        [bool(y) for _, y, _ in given_rows],
        weights=[float(w) for _, _, w in given_rows],
    )
    goal = parse_goal(text)
    r, kind = GOALS[text]
    assert goal.weights is None or goal.r == r
    d = solve(Setting(curves_for(data).sweep, beta=2.0), goal)
    value, threshold = _brute(given_rows, r, kind)
    assert d.feasible and d.threshold == threshold
    assert d.objective.exact == value


def test_the_weights_are_read_as_proc_names_them() -> None:
    g = parse_goal("max youden cost=2 prevalence=0.3")
    assert g.text() == "max youden cost=2 prevalence=0.3" and g.r == Fraction(7, 6)
    assert parse_goal("min closest.topleft").text() == "min topleft"
    for bad, said in [
        ("max f1 cost=2", "weighs youden or topleft"),
        ("min topleft prevalence=1", "strictly between 0 and 1"),
        ("min topleft cost=0", "above 0"),
        ("min topleft cost=1 cost=2", "given twice"),
    ]:
        with pytest.raises(InputError, match=said):
            parse_goal(bad)
