"""Goals solved exactly over the sweep, checked against an oracle that tries every
threshold with exact fractions; the prevalence what-if; the goal grammar's refusals."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import Dataset, make_dataset
from threshold_lab.core.data.presets import preset
from threshold_lab.core.decide.goal import GOAL_METRICS, Goal, parse_goal
from threshold_lab.core.decide.solve import Decision, Setting, metrics_at_prevalence, solve
from threshold_lab.core.decide.text import column_cells
from threshold_lab.core.decide.values import exact_value
from threshold_lab.core.errors import InputError

from tests import oracle
from tests.paths import ROOT
from tests.strategies import examples

bounds = st.sampled_from([Fraction(k, 8) for k in range(9)] + [Fraction(1, 3), Fraction(9, 10)])
metrics = st.sampled_from([m for m in GOAL_METRICS if m != "predicted_positives"])


Scores = Sequence[float] | npt.NDArray[np.float64]
Labels = Sequence[int] | npt.NDArray[np.int64]


def _solve(
    scores: Scores,
    labels: Labels,
    text: str,
    weights: Sequence[float] | None = None,
    prevalence: Fraction | None = None,
) -> Decision:
    data = make_dataset(scores, labels, weights=weights)
    return solve(Setting(build_sweep(data), 2.0, prevalence), parse_goal(text))


def _check(
    scores: Scores,
    labels: Labels,
    goal_text: str,
    weights: Sequence[float] | None = None,
    prevalence: Fraction | None = None,
) -> None:
    goal = parse_goal(goal_text)
    w = [Fraction(1)] * len(scores) if weights is None else [Fraction(x) for x in weights]
    costs = None
    if goal.is_cost:
        costs = {cell: c.value for cell, c in goal.costs if c.value is not None}
    cons = [(c.metric, c.at_least, c.bound) for c in goal.constraints]
    expected = oracle.solve_goal(
        list(scores), list(labels), w, goal.metric, goal.maximise, cons, costs, prevalence
    )
    try:
        d = _solve(scores, labels, goal_text, weights, prevalence)
    except InputError:
        assert prevalence is not None  # a class is missing: no what-if
        return
    if expected is None:
        assert not d.feasible, goal_text
        return
    index, _best, attaining, feasible = expected
    assert d.feasible, (goal_text, d.reason)
    assert (d.index, d.attaining, d.feasible_points) == (index, attaining, feasible), goal_text


@settings(max_examples=150, deadline=None)
@given(examples(), metrics, st.booleans())
def test_max_or_min_of_any_metric_matches_the_oracle(ex, metric, maximise) -> None:  # type: ignore[no-untyped-def]
    scores, labels = ex
    _check(scores, labels, f"{'max' if maximise else 'min'} {metric}")


@settings(max_examples=150, deadline=None)
@given(examples(), metrics, metrics, bounds, st.booleans(), metrics, bounds)
def test_constrained_goals_match_the_oracle(ex, obj, m1, b1, at_least, m2, b2) -> None:  # type: ignore[no-untyped-def]
    scores, labels = ex
    op = ">=" if at_least else "<="
    text = f"max {obj} where {m1} {op} {b1.numerator}/{b1.denominator} and {m2} >= {b2}"
    _check(scores, labels, text)


@settings(max_examples=100, deadline=None)
@given(examples(), st.lists(st.integers(-5, 9), min_size=4, max_size=4))
def test_cost_goals_match_the_oracle(ex, c) -> None:  # type: ignore[no-untyped-def]
    scores, labels = ex
    _check(scores, labels, f"min cost fp={c[0]} fn={c[1]} tp={c[2]} tn={c[3] / 4}")


@settings(max_examples=80, deadline=None)
@given(examples(), st.data())
def test_weighted_rows_match_the_oracle(ex, data) -> None:  # type: ignore[no-untyped-def]
    scores, labels = ex
    weights = data.draw(
        st.lists(
            st.sampled_from([0.5, 1.0, 2.0, 3.0, 0.25]), min_size=len(scores), max_size=len(scores)
        )
    )
    goal = data.draw(
        st.sampled_from(
            [
                "max f1",
                "max precision where recall >= 1/2",
                "min cost fp=1 fn=3",
                "max youden",
                "max recall where predicted_positives <= 3",
                "max mcc",
            ]
        )
    )
    _check(scores, labels, goal, weights=weights)


@settings(max_examples=80, deadline=None)
@given(
    examples(both_classes=True),
    st.sampled_from([Fraction(1, 20), Fraction(1, 2), Fraction(9, 10)]),
    st.sampled_from(
        ["max precision where recall >= 1/2", "min cost fp=1 fn=20", "max f1", "max accuracy"]
    ),
)
def test_goals_at_a_prevalence_match_the_oracle(ex, p, goal) -> None:  # type: ignore[no-untyped-def]
    scores, labels = ex
    _check(scores, labels, goal, prevalence=p)


@settings(max_examples=100, deadline=None)
@given(examples(), metrics, bounds)
def test_the_chosen_point_is_feasible_and_none_beats_it(ex, metric, bound) -> None:  # type: ignore[no-untyped-def]
    scores, labels = ex
    d = _solve(scores, labels, f"max f1 where {metric} >= {bound}")
    sweep = build_sweep(make_dataset(scores, labels))
    if not d.feasible:
        return
    from threshold_lab.core.decide.values import exact_key
    from threshold_lab.core.metrics.formulas import Cells

    def at(name: str, k: int) -> Fraction | None:
        c = sweep.counts_at(k)
        return exact_value(name, Cells(c.tp, c.fp, c.tn, c.fn), 2.0)

    chosen = at("f1", d.index)
    assert chosen is not None
    key = exact_key(metric, bound)
    for k in range(sweep.size):
        v, f = at(metric, k), at("f1", k)
        if v is not None and v >= key and f is not None:
            assert f <= chosen
            if f == chosen:
                assert k >= d.index  # the highest threshold of those attaining it


@settings(max_examples=60, deadline=None)
@given(
    examples(scores=st.integers(0, 12).map(lambda k: k / 12)),
    st.sampled_from(["max f1", "min cost fp=1 fn=4", "max precision where recall >= 1/2"]),
)
def test_a_monotone_transform_moves_the_threshold_not_the_decisions(ex, goal) -> None:  # type: ignore[no-untyped-def]
    scores, labels = ex
    a = _solve(scores, labels, goal)
    b = _solve(np.exp(3 * scores) - 7, labels, goal)
    assert (a.index, a.attaining, a.feasible) == (b.index, b.attaining, b.feasible)
    if a.threshold is not None:
        assert b.threshold == pytest.approx(np.exp(3 * a.threshold) - 7)


def test_the_same_decisions_range_and_the_above_all_point() -> None:
    # canonical scores .9 .8 .8 .4 .1: point 2 is threshold 0.8, same decisions on (0.4, 0.8].
    d = _solve([0.9, 0.8, 0.8, 0.4, 0.1], [1, 0, 1, 0, 1], "max precision where recall >= 2/3")
    assert (d.index, d.threshold, d.above, d.at_most) == (2, 0.8, 0.4, 0.8)
    d = _solve([0.9, 0.8, 0.8, 0.4, 0.1], [1, 0, 1, 0, 1], "min predicted_positives")
    assert (d.index, d.threshold, d.above, d.at_most) == (0, None, 0.9, None)
    d = _solve([0.9, 0.8, 0.8, 0.4, 0.1], [1, 0, 1, 0, 1], "max recall")
    assert (d.index, d.threshold, d.above, d.at_most) == (4, 0.1, None, 0.1)


def test_infeasible_goals_say_why_and_name_the_closest_point() -> None:
    d = _solve(*_imbalanced(), "min fpr where recall >= 0.95 and precision >= 0.5")
    assert not d.feasible and d.feasible_points == 0
    assert d.reason is not None and d.reason.startswith("no operating point meets recall >= 0.95")
    assert d.threshold == 0.4  # recall 1, precision 4/9: the smallest shortfall (1/18)
    d = _solve([0.9, 0.8], [0, 0], "max precision where recall >= 0.9")
    assert not d.feasible and "recall is undefined at every operating point" in str(d.reason)


def _imbalanced() -> tuple[list[float], list[int]]:
    p = preset("imbalanced").data
    return p.scores.tolist(), p.labels.astype(int).tolist()


def test_the_seed_004_prevalence_example() -> None:
    # A rule with TPR 9/10 and FPR 1/20: precision 18/19 at prevalence 1/2, 18/37 at 1/20.
    d = make_dataset([0.9] * 9 + [0.1] + [0.9] + [0.1] * 19, [1] * 10 + [0] * 20)
    s = build_sweep(d)
    half = metrics_at_prevalence(s, 1, Fraction(1, 2), 2.0)
    twentieth = metrics_at_prevalence(s, 1, Fraction(1, 20), 2.0)
    assert half["precision"].exact == Fraction(18, 19)
    assert twentieth["precision"].exact == Fraction(18, 37)
    assert twentieth["recall"].exact == Fraction(9, 10) and twentieth["fpr"].exact == Fraction(
        1, 20
    )
    assert twentieth["lr_plus"].exact == half["lr_plus"].exact == Fraction(18)
    assert twentieth["prevalence"].exact == Fraction(1, 20)


def test_a_prevalence_needs_both_classes() -> None:
    s = build_sweep(preset("no-actual-positives").data)
    m = metrics_at_prevalence(s, 1, Fraction(1, 2), 2.0)
    assert m["precision"].value is None and "actual positives" in str(m["precision"].reason)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("maximise recall", '"maximise" should be max or min'),
        ("max recal", '"recal" is not a metric; metrics: precision'),
        ("max precision with recall >= 0.9", '"with" after "max precision" should be "where"'),
        ("max precision where recall > 0.9", '">" after "recall" should be >= or <='),
        ("max precision where recall >= abc", '"abc" is not a number'),
        ("max precision where recall >= 0.9 or f1 >= 0.5", '"or" should be "and"'),
        ("max precision where", 'nothing after "where"'),
        ("min cost fx=1", '"fx" is not a cell'),
        ("min cost fp=1 fp=2", '"fp" is given twice'),
        ("max cost fp=1", "a cost is minimised"),
        ("min cost", "min cost needs what each cell costs"),
        ("", "goal: empty"),
        ("max precision where recall >= 1/0", '"1/0" is not a number'),
        # Python's own number syntax does not leak through (it read 9/10/2 as 1.8).
        ("max precision where recall >= 9/10/2", '"9/10/2" is not a number'),
        ("max precision where recall >= 1_0", '"1_0" is not a number'),
        ("max precision where recall >= inf", '"inf" is not a number'),
        ("max precision where recall >= nan", '"nan" is not a number'),
        ("max precision where recall >= \u0663", '"\u0663" is not a number'),
        ("max precision where recall >>= 0.5", '">>=" after "recall" should be >= or <='),
        ("max precision where recall =>= 0.5", '"=>=" after "recall"'),
        # Beyond what a double holds (these crashed with OverflowError).
        (
            "min cost fp=1e309 fn=1",
            '"1e309" is out of range for the cost of FP: a number is 0 '
            "or from 1e-300 to 1e300 in size",
        ),
        ("max precision where recall >= 1e999", '"1e999" is out of range'),
        ("min cost fp=1/3 fn=1e-320", '"1e-320" is out of range for the cost of FN'),
        ("max precision where recall >= 1e300/1e-300", '"1e300/1e-300" is out of range'),
    ],
)
def test_a_malformed_goal_is_one_line_naming_the_word(text: str, words: str) -> None:
    with pytest.raises(InputError) as caught:
        parse_goal(text)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_the_grammar_is_case_insensitive_with_aliases_and_exact_numbers() -> None:
    g = parse_goal("MAX PPV WHERE TPR>=0.9 AND fpr <= 1/20")
    assert g.metric == "precision"
    assert [(c.metric, c.at_least, c.bound) for c in g.constraints] == [
        ("recall", True, Fraction(9, 10)),
        ("fpr", False, Fraction(1, 20)),
    ]


def _report(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "threshold_lab", "report", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_report_json_carries_the_goal_and_the_prevalence() -> None:
    r = _report(
        "good", "--goal", "max precision where recall >= 0.9", "--prevalence", "1/20", "--json"
    )
    assert r.returncode == 0, r.stderr
    out = json.loads(r.stdout)
    goal = out["goal"]
    assert goal["text"] == "max precision where recall >= 0.9"
    assert goal["feasible"] is True and goal["reason"] is None
    assert goal["threshold"] == out["threshold"] == 0.42
    assert goal["same_decisions"] == {"above": 0.38, "at_most": 0.42}
    assert goal["objective"]["exact"] == "3/22"  # precision at prevalence 1/20
    assert goal["attaining"] == 1 and goal["feasible_points"] >= 1
    assert isinstance(goal["index"], int)
    assert out["at_prevalence"]["prevalence"] == "1/20"
    assert out["at_prevalence"]["metrics"]["precision"]["exact"] == "3/22"
    assert out["metrics"]["precision"]["exact"] == "3/4"  # the evaluation set's own


def test_report_check_fails_an_infeasible_goal() -> None:
    r = _report(
        "imbalanced", "--goal", "min fpr where recall >= 0.95 and precision >= 0.5", "--check"
    )
    assert r.returncode == 1
    assert r.stderr.strip().splitlines()[-1].startswith("threshold-lab: note: goal not met: no")
    ok = _report("imbalanced", "--goal", "max recall where fpr <= 0.2", "--check")
    assert ok.returncode == 0


def test_report_refuses_a_bad_goal_in_one_line() -> None:
    r = _report("good", "--goal", "max precison")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and '"precison"' in r.stderr


def test_a_cost_column_costs_each_row_its_value(tmp_path: Path) -> None:
    # Missing the 2000 fraud costs more than ten false alarms: the threshold goes low.
    f = tmp_path / "fraud.csv"
    f.write_text(
        "score,label,amount\n0.9,1,100\n0.8,0,5\n0.8,1,2000\n0.4,0,7\n0.1,1,50\n0.05,0,1\n"
    )
    r = _report(str(f), "--goal", "min cost fp=10 fn=@amount", "--json")
    goal = json.loads(r.stdout)["goal"]
    # costs by point: above all 2150; 0.9 2050; 0.8 60; 0.4 70; 0.1 20; 0.05 30
    assert goal["threshold"] == 0.1 and goal["objective"]["exact"] == "20/1"
    bad = tmp_path / "bad.csv"
    bad.write_text("score,label,amount\n0.9,1,100\n0.8,0,x\n")
    r = _report(str(bad), "--goal", "min cost fp=10 fn=@amount")
    assert r.returncode == 2 and "line 3, column 'amount': 'x' is not a number" in r.stderr


def test_an_exact_second_look_never_overrides_another_failed_bound() -> None:
    # Found by hypothesis: LR+ = 0 at point 1 sits on its bound (exactly checked), and
    # that check set the point feasible although accuracy <= 0 had failed there.
    _check([0.0, 0.125, 0.0], [0, 0, 1], "max precision where accuracy <= 0 and lr_plus >= 0")
    d = _solve([0.0, 0.125, 0.0], [0, 0, 1], "max precision where accuracy <= 0 and lr_plus >= 0")
    assert not d.feasible


def test_a_session_reads_a_cost_column_on_demand_until_rows_move(tmp_path: Path) -> None:
    from threshold_lab.core.data.sources import open_source
    from threshold_lab.core.session.session import Session

    f = tmp_path / "fraud.csv"
    f.write_text("score,label,amount\n0.9,1,100\n0.8,0,5\n0.8,1,2000\n0.4,0,7\n0.1,1,50\n")
    src = open_source(str(f))
    s = Session(src.data, 0.5, source=str(f), path=f)
    said = s.set_goal("min cost fp=10 fn=@amount").message
    assert said.startswith("Goal min cost fp=10 fn=@amount: threshold 0.1, cost 20")
    s.insert_row(0.3, True)
    with pytest.raises(InputError, match="no longer lines up"):
        s.set_goal("min cost fp=1 fn=@amount")
    deciding = s.current().deciding
    assert deciding is not None
    assert "amount" in str(deciding.problem)  # the goal line says why
    s.reset()
    assert s.set_goal("min cost fp=10 fn=@amount").analysis.threshold == 0.1


@pytest.mark.parametrize(
    ("costs", "threshold"),
    [
        ("fp=1e-300 fn=1e300", 0.33),  # every FN dearer than all FPs: recall 1
        ("fp=1e300 fn=1e-300", 0.64),  # the other way round: no FP at all
        ("fp=1/3 fn=1e-300", 0.64),
        ("fp=1e300 fn=1e300", 0.64),  # as fp=1 fn=1
    ],
)
def test_costs_far_apart_are_solved_exactly(costs: str, threshold: float | None) -> None:
    # Scaled to whole numbers these totals passed 1e308 (OverflowError before).
    s = Setting(build_sweep(preset("good").data), beta=2.0)
    d = solve(s, parse_goal(f"min cost {costs}"))
    brute = brute_min_cost(preset("good").data, parse_goal(f"min cost {costs}"))
    assert (d.threshold, d.threshold) == (brute, threshold)


def brute_min_cost(data: Dataset, goal: Goal) -> float | None:
    """The threshold of least exact cost, the highest among equals (brute force)."""
    costs = {cell: c.value or Fraction(0) for cell, c in goal.costs}
    best: tuple[Fraction, float | None] | None = None
    for t in [None, *sorted(set(data.scores.tolist()), reverse=True)]:
        pred = np.zeros(data.n, bool) if t is None else data.scores >= t
        y = data.labels
        cells = {"tp": pred & y, "fp": pred & ~y, "tn": ~pred & ~y, "fn": ~pred & y}
        total = sum(
            (costs.get(k, Fraction(0)) * int(v.sum()) for k, v in cells.items()), Fraction(0)
        )
        if best is None or total < best[0]:
            best = (total, t)
    assert best is not None
    return best[1]


def test_a_cost_column_past_the_largest_double_is_refused() -> None:
    p = preset("canonical")
    s = Setting(build_sweep(p.data), beta=2.0)
    cells = column_cells(p.data, s.sweep.thresholds, np.full(p.data.n, 1e308))
    with pytest.raises(InputError, match='cost column "big" adds up to more than the largest'):
        solve(
            dataclasses.replace(s, column_cells={"big": cells}), parse_goal("min cost fp=@big fn=1")
        )


def test_constant_costs_times_counts_past_the_largest_double_are_refused() -> None:
    data = make_dataset([0.9, 0.1], [1, 0], weights=[1e10, 1e10])
    s = Setting(build_sweep(data), beta=2.0)
    with pytest.raises(InputError, match="these costs times these counts exceed the largest"):
        solve(s, parse_goal("min cost fp=1e300 fn=1e300"))


@settings(max_examples=100, deadline=None)
@given(
    ex=examples(max_size=40),
    goal=st.sampled_from(
        ["max f1", "max mcc", "min cost fp=1 fn=3", "min fpr where precision >= 1/2"]
    ),
    block=st.integers(1, 7),
)
def test_a_decision_and_its_runner_up_do_not_depend_on_the_scan_blocks(  # type: ignore[no-untyped-def]
    ex, goal, block
) -> None:
    import threshold_lab.core.decide.solve as solving

    scores, labels = ex
    setting = Setting(build_sweep(make_dataset(scores, labels)), 2.0)
    whole = solve(setting, parse_goal(goal))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(solving, "BLOCK", block)
        blocked = solve(setting, parse_goal(goal))
    assert blocked == whole
    if whole.feasible and whole.runner_up is not None:
        # The runner-up is the first point of the highest value under the best's.
        g = parse_goal(goal)
        values = [_objective(setting, g, k) for k in range(setting.sweep.size)]
        best = _objective(setting, g, whole.index)
        assert best is not None
        lower = [v for v in values if v is not None and v < best]
        assert values[whole.runner_up] == max(lower)
        assert values.index(max(lower)) == whole.runner_up


def _objective(setting: Setting, goal: Goal, k: int) -> Fraction | None:
    """The goal's objective at point ``k``, higher is better, None where undefined or
    infeasible (exact fractions: the oracle)."""
    for c in goal.constraints:
        v = exact_value(c.metric, setting.cells_at(k), setting.beta)
        if v is None or not (v >= c.bound if c.at_least else v <= c.bound):
            return None
    if goal.is_cost:
        return None if (d := solve_cost_at(setting, goal, k)) is None else -d
    v = exact_value(goal.metric, setting.cells_at(k), setting.beta)
    return None if v is None else (v if goal.maximise else -v)


def solve_cost_at(setting: Setting, goal: Goal, k: int) -> Fraction | None:
    import threshold_lab.core.decide.solve as solving

    return solving._cost_exact(setting, goal, k)


def test_a_runner_up_is_compared_exactly_where_its_doubles_round_apart() -> None:
    """MCC is 1/6 at points 1 and 3 of these rows exactly, but its square root puts
    the two doubles an ulp apart: the runner-up is the first of the two (found by a
    hypothesis seed, where the doubles' larger one was chosen)."""
    scores = [0.0, 0.0, -1.0, 0.125, 0.0, 0.0, 0.0, -1.0, 0.0, 1.0]
    labels = [0, 0, 0, 1, 0, 0, 1, 0, 1, 1]
    setting = Setting(build_sweep(make_dataset(scores, labels)), 2.0)
    d = solve(setting, parse_goal("max mcc"))
    values = [_objective(setting, parse_goal("max mcc"), k) for k in range(setting.sweep.size)]
    assert values[1] == values[3] == Fraction(1, 6) and values[2] == Fraction(3, 8)
    assert d.index == 2
    assert d.runner_up == 1
