"""Walking a curve in plain mode: each step's coordinates are the sweep's counts
(never reduced), its direction and slope the counts that entered, its threshold and
rows the tie group's; the threshold follows the walk; jumps land where they say."""

from __future__ import annotations

import io
import re
from fractions import Fraction

import numpy as np
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.data.presets import preset
from threshold_lab.core.session.session import Session
from threshold_lab.tui.plain import run_plain


def _run(session: Session, *lines: str) -> list[str]:
    out = io.StringIO()
    run_plain(session, [f"{line}\n" for line in lines], out, prompt=False)
    return [x for x in out.getvalue().splitlines() if x.startswith("Point ")]


def test_every_step_is_the_sweep_s_point() -> None:
    rng = np.random.default_rng(8)
    y = rng.random(60) < 0.4
    s = np.round(rng.random(60) + 0.3 * y, 1).astype(np.float64)  # ties
    data = make_dataset(s, y)
    sweep = curves_for(data).sweep
    m = sweep.size
    session = Session(data, None, source="walk")  # above all: the walk starts at point 1
    said = _run(session, "walk roc", *["n"] * (m - 1))
    assert len(said) == m
    pos, neg = int(sweep.positives), int(sweep.negatives)
    for k, line in enumerate(said):
        tp, fp = int(sweep.tp[k]), int(sweep.fp[k])
        assert line.startswith(f"Point {k + 1} of {m}: FPR {fp}/{neg}, TPR {tp}/{pos}")
        if k == 0:
            continue
        dtp, dfp = tp - int(sweep.tp[k - 1]), fp - int(sweep.fp[k - 1])
        direction = "up" if dfp == 0 else "right" if dtp == 0 else "diagonal"
        assert f"; {direction}; " in line
        if direction == "diagonal":
            f = Fraction(dtp * neg, dfp * pos)
            assert f"slope {f.numerator}/{f.denominator} (" in line
        t = float(sweep.thresholds[k - 1])
        assert f"threshold {t!r}" in line or f"threshold {t:g}" in line
        tied = int(np.count_nonzero(s == t))
        assert (f"{tied} rows entered" in line) if tied > 5 else ("rows entered: " in line)
    assert session.threshold == float(sweep.thresholds[-1])  # the threshold followed


def test_pr_and_det_steps_and_the_ends_on_the_canonical_fixture() -> None:
    p = preset("canonical")
    session = Session(p.data, p.threshold, source="preset")
    said = _run(session, "walk pr", "first", "n", "last", "walk det", "p")
    assert said[1] == (
        "Point 1 of 5: recall 0/3, precision undefined (nothing predicted positive); "
        "the start: above all scores, nothing predicted positive."
    )
    assert said[2] == (
        "Point 2 of 5: recall 1/3, precision 1/1; right, from no precision; slope vertical "
        "(1 positive, 0 negatives entered); threshold 0.9; rows entered: s1."
    )
    assert said[3].startswith("Point 5 of 5: recall 3/3, precision 3/5; right and up;")
    assert said[-1].startswith("Point 4 of 5: FPR 2/2, FNR 1/3; right; slope flat")


def test_jumps_land_on_the_hull_the_diagonal_and_a_readout() -> None:
    p = preset("canonical")
    session = Session(p.data, None, source="preset")
    said = _run(
        session,
        "walk to hull",
        "walk to chance",
        "walk to hull",
        "first",
        "walk to readout fpr 0.5",
    )
    assert [re.match(r"Point (\d+)", x).group(1) for x in said] == ["2", "4", "5", "1", "3"]  # type: ignore[union-attr]
    out = io.StringIO()
    lines = ["walk roc\n", "walk to moon\n", "walk off\n", "next\n"]
    run_plain(session, lines, out, prompt=False)
    text = out.getvalue()
    assert "give readout, hull, chance or best" in text and "The walk stopped." in text
    assert "Now at tie group" in text  # next says the move as ever once the walk is off


def test_walk_to_best_lands_on_the_goal_s_point() -> None:
    p = preset("good")
    session = Session(p.data, None, source="preset")
    said = _run(session, "walk to best max f1")
    from threshold_lab.core.decide.goal import parse_goal
    from threshold_lab.core.decide.solve import Setting, solve

    a = session.analysis
    d = solve(Setting(a.sweep, beta=a.beta), parse_goal("max f1"))
    assert said == [said[0]] and said[0].startswith(f"Point {d.index + 1} of {a.sweep.size}: ")
    assert a.point == d.index


def test_a_weighted_tie_group_is_counted_in_rows_not_weight() -> None:
    scores = [0.9, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.1]
    labels = [True, True, False, True, False, True, False, False]
    data = make_dataset(scores, labels, weights=[0.5] * 8)
    said = _run(Session(data, None, source="weighted"), "walk roc", "n", "n")
    assert said[2] == (
        "Point 3 of 4: FPR 1.5/2, TPR 2/2; diagonal; slope ≈ 1 (1.5 positives, "
        "1.5 negatives entered); threshold 0.5; 6 rows entered."
    )  # six rows of weight 1/2: counted as rows, their weight as the counts


def test_the_ends_say_so_and_a_curve_without_a_class_is_not_walked() -> None:
    """Found by a newcomer: n at the last point said that point again as a step, and a
    walk on rows with no positives read out TPR 0/0."""
    out = io.StringIO()
    session = Session(preset("canonical").data, None, source="walk")
    run_plain(session, ["walk roc\n", "p\n", "last\n", "n\n"], out, prompt=False)
    said = out.getvalue().splitlines()
    assert "The walk is already at its first point, point 1 of 5." in said
    assert said[-1] == "The walk is already at its last point, point 5 of 5."
    out = io.StringIO()
    empty = Session(preset("no-actual-positives").data, None, source="walk")
    run_plain(empty, ["walk roc\n", "walk det\n", "walk to hull\n"], out, prompt=False)
    text = out.getvalue()
    assert "0/0" not in text and "Point " not in text
    assert text.count("the rows have no actual positives: the curve is undefined") == 3


def test_walk_to_readout_takes_one_rate_and_says_so() -> None:
    p = preset("canonical")
    out = io.StringIO()
    lines = ["walk to readout\n", "walk to readout fpr 0.01,0.5\n", "walk to readout fpr 0.5\n"]
    run_plain(Session(p.data, None, source="preset"), lines, out, prompt=False)
    text = out.getvalue()
    assert "walk to readout: give a rate, as walk to readout fpr 0.01" in text
    assert "walk to readout fpr 0.01,0.5: one rate at a time, as walk to readout fpr 0.01" in text
    assert "Point 3 of 5" in text
