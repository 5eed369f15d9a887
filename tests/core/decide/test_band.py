"""The review band against a brute force written from the definitions alone: every pair
of thresholds (each a distinct score or above all), the three parts counted from the
rows, constraints and objectives in fractions; under hypothesis with ties and weights."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core import blocks as blocks_module
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.decide import band as band_module
from threshold_lab.core.decide.band import BandGoal, parse_band_goal, solve_band
from threshold_lab.core.errors import InputError

ABOVE = None  # the above-all threshold: no score reaches it

Row = tuple[float, int, int]  # score, label, weight


def _parts(rows: list[Row], hi: float | None, lo: float | None) -> dict[str, int]:
    """Accepted (score >= hi), rejected (score < lo), reviewed: counted from the rows."""

    def at_least(s: float, t: float | None) -> bool:
        return t is not None and s >= t

    out = dict.fromkeys(("tp", "fp", "tn", "fn", "rp", "rn"), 0)
    for s, y, w in rows:
        if at_least(s, hi):
            out["tp" if y else "fp"] += w
        elif not at_least(s, lo):
            out["fn" if y else "tn"] += w
        else:
            out["rp" if y else "rn"] += w
    return out


def _value(metric: str, c: dict[str, int]) -> Fraction | None:
    top, den = {
        "precision": (c["tp"], c["tp"] + c["fp"]),
        "fdr": (c["fp"], c["tp"] + c["fp"]),
        "npv": (c["tn"], c["tn"] + c["fn"]),
        "for": (c["fn"], c["tn"] + c["fn"]),
    }[metric]
    return None if den == 0 else Fraction(top, den)


def _objective(goal: BandGoal, c: dict[str, int]) -> Fraction:
    """Larger is better."""
    n = sum(c.values())
    decided = n - c["rp"] - c["rn"]
    if goal.objective in ("coverage", "review"):
        return Fraction(decided, n)
    cost = goal.cost
    total = (
        cost("tp") * c["tp"]
        + cost("fp") * c["fp"]
        + cost("tn") * c["tn"]
        + cost("fn") * c["fn"]
        + cost("review") * (c["rp"] + c["rn"])
    )
    return -total


def _brute(rows: list[Row], goal: BandGoal) -> tuple[Any, ...]:
    """The best pair by (objective, highest t_high, highest t_low) and the runner-up's
    objective (the best strictly worse), over every pair of thresholds."""
    ts: list[float | None] = [ABOVE, *sorted({s for s, _, _ in rows}, reverse=True)]
    found = []
    for i, hi in enumerate(ts):
        for j in range(i, len(ts)):
            lo = ts[j]
            c = _parts(rows, hi, lo)
            ok = True
            for con in goal.constraints:
                v = _value(con.metric, c)
                if v is not None and not (v >= con.bound if con.at_least else v <= con.bound):
                    ok = False
            if ok:
                found.append((_objective(goal, c), -i, -j, hi, lo, c))
    best = max(found, key=lambda f: f[:3])
    worse = [f[0] for f in found if f[0] < best[0]]
    return best, (max(worse) if worse else None), len(found)


goals = st.sampled_from(
    [
        "band: max coverage where precision >= 0.8 and npv >= 0.9",
        "band: max coverage where precision >= 2/3",
        "band: min review where npv >= 0.75 and precision >= 1/2",
        "band: max coverage where fdr <= 0.25 and for <= 1/10",
        "band: min cost fp=10 fn=50 review=1",
        "band: min cost fp=3 fn=2 review=1/2 where precision >= 0.6",
        "band: min cost fp=1 fn=1 review=2 tp=-1 tn=-1/3",
        "band: max coverage",
        "band: max coverage where npv >= 0.8",
        "band: min review where for <= 1/4",
    ]
)
rows_strategy = st.lists(
    st.tuples(st.sampled_from([0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9]), st.integers(0, 1)),
    min_size=1,
    max_size=40,
)
weights_strategy = st.none() | st.lists(st.integers(0, 4), min_size=40, max_size=40)


@settings(max_examples=400, deadline=None)
@given(
    rows_strategy,
    weights_strategy,
    goals,
    st.sampled_from([None, 1, 2, 3, 5]),
    st.booleans(),
)
def test_the_band_is_the_brute_force_best_over_every_pair(
    pairs: list[tuple[float, int]],
    weights: list[int] | None,
    text: str,
    block: int | None,
    many_tied: bool,
) -> None:
    """Whatever the block size the backward pass cuts the points into (None: the
    default), so the running bests carried from block to block are checked too; and
    with the runner-up searched either way (each optimal upper point on its own, or,
    as where many tie, with running second bests)."""
    w = [1] * len(pairs) if weights is None else weights[: len(pairs)]
    if sum(w) == 0:
        return
    rows = [(s, y, wi) for (s, y), wi in zip(pairs, w, strict=True)]
    data = make_dataset(
        [s for s, _ in pairs],
        [bool(y) for _, y in pairs],
        weights=None if weights is None else [float(x) for x in w],
    )
    sweep = curves_for(data).sweep
    goal = parse_band_goal(text)
    with pytest.MonkeyPatch.context() as mp:
        if block is not None:
            mp.setattr(blocks_module, "BLOCK", block)
        if many_tied:
            mp.setattr(band_module, "_TIED", 0)
        band = solve_band(sweep, goal)
    (objective, _, _, hi, lo, c), runner, feasible = _brute(rows, goal)
    assert band.exact
    assert (band.t_high, band.t_low) == (hi, lo)
    got = band.counts
    assert (got.tp, got.fp, got.tn, got.fn) == (c["tp"], c["fp"], c["tn"], c["fn"])
    assert (got.reviewed_positives, got.reviewed_negatives) == (c["rp"], c["rn"])
    assert band.counts.coverage().exact == Fraction(
        sum(c.values()) - c["rp"] - c["rn"], sum(c.values())
    )
    if goal.objective == "cost":
        assert band.objective.exact == -objective
    assert band.feasible_pairs == feasible
    for con, m, _ in band.constraint_values():
        assert m.exact == _value(con.metric, c)
    if runner is None:
        assert band.runner_up is None
    else:
        assert band.runner_up is not None
        r = band.runner_up[2].exact
        assert r is not None
        assert (-r if goal.objective == "cost" else r) == runner or (
            goal.objective == "review" and 1 - r == runner
        )


def test_the_issue_s_question_on_a_made_queue() -> None:
    """The smallest review queue such that what is decided automatically meets
    precision >= 0.99 when accepted and NPV >= 0.995 when rejected."""
    scores = [0.99] * 200 + [0.97] * 2 + [0.6] * 50 + [0.4] * 50 + [0.02] * 400 + [0.01] * 2
    labels = [1] * 200 + [0] * 2 + [1] * 25 + [0] * 25 + [1] * 10 + [0] * 40 + [0] * 400 + [1] * 2
    sweep = curves_for(make_dataset(scores, [bool(y) for y in labels])).sweep
    band = solve_band(
        sweep, parse_band_goal("band: max coverage where precision >= 0.99 and npv >= 0.995")
    )
    # Accepting down to 0.97 keeps precision 200/202 ≈ 0.990 (>= 0.99); rejecting below
    # 0.4 gives NPV 400/402 ≈ 0.995 (>= 0.995): 100 rows reviewed.
    assert (band.t_high, band.t_low) == (0.97, 0.4)
    assert band.counts.reviewed == 100 and band.counts.coverage().exact == Fraction(604, 704)
    values = {c.metric: m.exact for c, m, _ in band.constraint_values()}
    assert values == {"precision": Fraction(200, 202), "npv": Fraction(400, 402)}


def test_reviewing_everything_is_said_with_the_closest_band_that_decides() -> None:
    # The top row is a negative and the bottom one a positive: any side that decides
    # a row decides one wrongly.
    sweep = curves_for(make_dataset([0.9, 0.5, 0.1], [False, True, True])).sweep
    band = solve_band(
        sweep, parse_band_goal("band: max coverage where precision >= 1 and npv >= 1")
    )
    assert not band.decides and band.counts.reviewed == 3
    # Closest: accept every row (precision 2/3, short by 1/3); accepting the top row
    # alone or rejecting the bottom one alone falls short by 1.
    assert band.nearest is not None and band.nearest[:2] == (3, 3)
    assert band.nearest[2] == pytest.approx(1 / 3)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("band: max recall", 'band goal: "recall" is not a band objective'),
        ("band: min coverage", "coverage is maximised"),
        ("band: max coverage where recall >= 0.9", "cannot bound a side of a band"),
        ("band: max coverage where precision >= 2", "is not between 0 and 1"),
        ("band: min cost fp=1 fx=2", '"fx" is not a cost'),
        ("band: min cost fp=1", "needs a cost for fn=, review= too"),
        ("band: max coverage where precision >= 0.9 and ppv >= 0.95", "precision is bounded twice"),
        ("band: min cost fp=a fn=1 review=1", 'band goal: "a" is not a number for the cost of fp'),
        ("band: max coverage where precision >= 0.9 or npv >= 0.9", 'should be "and"'),
        ("", "band goal: empty"),
    ],
)
def test_a_malformed_band_goal_is_one_line_naming_the_word(text: str, said: str) -> None:
    with pytest.raises(InputError, match=None) as caught:
        parse_band_goal(text)
    assert said in str(caught.value) and "\n" not in str(caught.value)


@settings(max_examples=100, deadline=None)
@given(rows_strategy, goals)
def test_weights_that_are_not_whole_give_the_band_of_the_whole_ones_halved(
    pairs: list[tuple[float, int]], text: str
) -> None:
    """Every weight 1/2 (compared in doubles) chooses the band every weight 1 does."""
    scores, labels = [s for s, _ in pairs], [bool(y) for _, y in pairs]
    goal = parse_band_goal(text)
    whole = solve_band(curves_for(make_dataset(scores, labels)).sweep, goal)
    half = curves_for(make_dataset(scores, labels, weights=[0.5] * len(pairs))).sweep
    halved = solve_band(half, goal)
    assert halved.exact == half.whole_counts()
    assert (halved.t_high, halved.t_low) == (whole.t_high, whole.t_low)
    assert halved.counts.reviewed * 2 == whole.counts.reviewed


@settings(max_examples=60, deadline=None)
@given(
    goals
    | st.sampled_from(
        [
            "band: min cost fp=1 fn=1 review=1/3",
            "band: min cost fp=5 fn=1 review=2",
            "band: min cost fp=1 fn=9 review=10",
            "band: min cost fp=2 fn=3 review=1 tp=-5 tn=-1",
            "band: min cost fp=1/7 fn=3/11 review=1/13",
        ]
    ),
    st.integers(0, 2**32 - 1),
    st.sampled_from([3, 16, 64]),
    st.sampled_from(["whole", "weighted", "levels"]),
)
def test_blocks_read_from_their_ends_give_the_band_of_every_point_read(
    text: str, seed: int, block: int, kind: str
) -> None:
    """A block whose two ends show that every point, or none, meets a side's bounds is
    not read point by point, and a cost without bounds reads only the blocks whose
    ends bound a pair's value above the second best found: on 2,000 rows cut into
    small blocks (so that all, none and some occur), the band, its runner-up and the
    feasible pairs are those of reading every point."""
    import numpy as np

    rng = np.random.default_rng(seed)
    y = rng.random(2000) < rng.uniform(0.05, 0.95)
    scores = rng.normal(loc=y * rng.uniform(0, 3))
    if kind == "levels":
        scores = np.round(scores, 1)
    weights = rng.uniform(0.1, 3, 2000) if kind == "weighted" else None
    sweep = curves_for(make_dataset(scores, y, weights=weights)).sweep
    goal = parse_band_goal(text)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(blocks_module, "BLOCK", block)
        fast = solve_band(sweep, goal, frontier=False)
        mp.setattr(band_module._Side, "state", lambda self, name, t, f: "some")
        # A cost without bounds reads only the blocks that can hold the best pair or
        # the runner-up: here it reads every one.
        mp.setattr(band_module, "_bounded_costs", band_module._scan)
        every = solve_band(sweep, goal, frontier=False)
    assert (fast.t_high, fast.t_low) == (every.t_high, every.t_low)
    assert fast.feasible_pairs == every.feasible_pairs
    assert (fast.runner_up or ())[:2] == (every.runner_up or ())[:2]


def test_costs_far_apart_are_compared_in_doubles_and_said_so() -> None:
    """fp=1e160 beside review=1e-160 has no common whole unit within 64 bits."""
    sweep = curves_for(
        make_dataset([0.9, 0.8, 0.5, 0.3, 0.1], [True, True, False, True, False])
    ).sweep
    band = solve_band(sweep, parse_band_goal("band: min cost fp=1e160 fn=1 review=1e-160"))
    assert not band.exact and "too large for exact integers" in band.inexact
    # Accept the two positives on top, reject the bottom negative, review the middle.
    assert (band.t_high, band.t_low) == (0.8, 0.3)
    assert band.objective.value == pytest.approx(2e-160)
    exact = solve_band(sweep, parse_band_goal("band: min cost fp=1 fn=1 review=1/2"))
    assert exact.exact and exact.inexact == "" and exact.as_json()["inexact_reason"] is None


def test_reviewing_everything_because_it_is_cheapest_is_not_called_infeasible() -> None:
    from threshold_lab.core.decide.band import band_lines

    sweep = curves_for(make_dataset([0.9, 0.5, 0.1], [False, True, True])).sweep
    band = solve_band(sweep, parse_band_goal("band: min cost fp=1 fn=5 review=-1"))
    assert not band.decides and band.runner_up is not None and band.nearest is None
    said = "\n".join(band_lines(band, sweep))
    assert "Reviewing every row is the best band here" in said
    assert "No band decides" not in said and "Closest" not in said
    assert "cost = 1·FP + 5·FN − 1·reviewed = 1·0 + 5·0 − 1·3 = -3" in said
    assert "accept no row; reject no row; review the rest" in said


def test_an_unbounded_side_is_said_and_vacuous_bounds_read_plainly() -> None:
    from threshold_lab.core.decide.band import band_lines

    sweep = curves_for(make_dataset([0.9, 0.5, 0.1], [False, True, True])).sweep
    band = solve_band(sweep, parse_band_goal("band: max coverage where precision >= 0.9"))
    said = "\n".join(band_lines(band, sweep))
    # Nothing is accepted and every row rejected: the rejected side has no bound.
    assert "accept no row; reject every row; review none" in said
    assert "precision >= 0.9: holds vacuously, as nothing is accepted (TP+FP=0)" in said
    assert "No bound on the rejected side (npv or for)" in said
    assert "reviewed: 0 (0 positives, 0 negatives)" in said
    tied = curves_for(make_dataset([0.9, 0.5, 0.5, 0.1], [True, True, False, False])).sweep
    one = solve_band(tied, parse_band_goal("band: min review where precision >= 1 and npv >= 1"))
    assert "reviewed: 2 (1 positive, 1 negative)" in "\n".join(band_lines(one, tied))


def test_a_session_s_band_follows_the_threshold_and_goes_with_other_rows() -> None:
    from threshold_lab.core.data.presets import preset
    from threshold_lab.core.metrics.metric import from_fraction
    from threshold_lab.core.session.session import Session

    s = Session(preset("good").data, 0.5, source="preset good")
    u = s.set_band("band: max coverage where precision >= 0.9 and npv >= 0.9")
    assert u.review is not None and (u.review.t_high, u.review.t_low) == (0.64, 0.33)
    assert s.threshold == 0.64
    # Below the reject threshold, nothing is reviewed; back up, the band is as it was.
    low = s.set_threshold(0.2).review
    assert low is not None and low.counts.reviewed == 0 and low.t_low == 0.2
    back = s.set_threshold(0.64).review
    assert back is not None and back.t_low == 0.33 and back.counts.reviewed == 7
    assert back.broken == ()
    # Moved by hand past where a bound holds: each bound it fails is said, with its value
    # counted from the band's rows; moved back, none.
    moved = s.move_band_low(-1)
    shown = moved.review
    assert shown is not None
    rejected = [
        y
        for x, y in zip(preset("good").data.scores, preset("good").data.labels, strict=True)
        if shown.t_low is not None and x < shown.t_low
    ]
    npv = Fraction(rejected.count(False), len(rejected))
    assert npv < Fraction(9, 10)
    assert shown.broken == (f"npv >= 0.9 does not hold: {from_fraction(npv, 0.0).short()}",)
    assert moved.message.endswith(f"The goal's {shown.broken[0]}.")
    assert s.move_band_low(1).review.broken == ()  # type: ignore[union-attr]
    with pytest.raises(InputError, match="no band is set"):
        Session(preset("good").data, 0.5, source="p").move_band_low(1)
    gone = s.load_preset("imbalanced")
    assert gone.review is None and "review band is off" in gone.message


def test_two_bounds_joined_by_a_comma_are_told_to_use_and() -> None:
    from threshold_lab.core.decide.band import parse_band_goal
    from threshold_lab.core.decide.goal import parse_goal
    from threshold_lab.core.errors import InputError

    for parse, text in (
        (parse_band_goal, "band: max coverage where precision >= 0.9, npv >= 0.9"),
        (parse_goal, "max recall where precision >= 0.9, fpr <= 0.1"),
    ):
        with pytest.raises(InputError, match='join two bounds with "and", not a comma'):
            parse(text)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3)), min_size=2, max_size=60),
    st.integers(0, 2**32 - 1),
    st.sampled_from([1, 2, 3, 7]),
)
def test_the_best_pair_below_the_optimum_reads_unknown_blocks_by_their_bounds(
    steps: list[tuple[int, int]], seed: int, block: int
) -> None:
    """An upper point's best pair value strictly below a value, where some blocks'
    largest lower parts are unknown and only bounded above (as a cost without bounds
    leaves them): the value of trying every lower point."""
    import numpy as np

    tp = np.cumsum([0, *(t for t, _ in steps)]).astype(np.int64)
    fp = np.cumsum([0, *(f for _, f in steps)]).astype(np.int64)
    pos, neg = int(tp[-1]), int(fp[-1])
    goal = parse_band_goal("band: min cost fp=3 fn=5 review=2 tp=-1")
    none = band_module._NONE
    side = band_module._Side(goal, pos, neg, np.int64, True, none)
    rng = np.random.default_rng(seed)
    m = tp.shape[0]
    low = side.low(tp, fp, "all")
    spans = [(s.start, s.stop) for s in blocks_module.blocks(0, m, block)]
    tops = []
    bounds = []
    for start, stop in spans:
        largest = int(low[start:stop].max())
        known = rng.random() < 0.5
        tops.append((start, stop, largest if known else None))
        bounds.append((start, stop, largest + int(rng.integers(0, 3)) * int(rng.integers(0, 2))))
    kh = int(rng.integers(0, m))
    part = int(side.high(tp[kh : kh + 1], fp[kh : kh + 1], "all")[0][0])
    values = sorted({part + int(g) for g in low[kh:]})
    for best in {values[-1], values[len(values) // 2], values[0]}:
        below = [v for v in values if v < best]
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(blocks_module, "BLOCK", block)
            got = band_module._best_below(side, tp, fp, np.int64, none, kh, best, tops, bounds)
        assert got == (max(below) if below else None)
