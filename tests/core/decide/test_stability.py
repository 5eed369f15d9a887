"""The threshold's stability over folds against an oracle written from the definitions:
each fold solved by trying every threshold on its rows, every choice counted directly
on every other fold, the stable thresholds and the one threshold for all folds found by
trying every distinct score of every fold; fractions throughout."""

from __future__ import annotations

import io
import json
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.decide.goal import parse_goal
from threshold_lab.core.decide.stability import stability
from threshold_lab.tui.cli import main

import threshold_lab as tl

INF = float("inf")  # above all scores

Rows = list[tuple[float, int]]


def _counts(rows: Rows, t: float) -> tuple[int, int, int, int]:
    tp = sum(1 for s, y in rows if y and s >= t)
    fp = sum(1 for s, y in rows if not y and s >= t)
    p = sum(y for _, y in rows)
    return tp, fp, len(rows) - p - fp, p - tp


def _metric(name: str, c: tuple[int, int, int, int]) -> Fraction | None:
    tp, fp, tn, fn = c
    num, den = {
        "f1": (2 * tp, 2 * tp + fp + fn),
        "precision": (tp, tp + fp),
        "recall": (tp, tp + fn),
        "accuracy": (tp + tn, tp + fp + tn + fn),
    }[name]
    return None if den == 0 else Fraction(num, den)


GOALS = {
    "max f1": ("f1", True, None, None),
    "max precision where recall >= 1/2": ("precision", True, ("recall", Fraction(1, 2)), None),
    "max accuracy": ("accuracy", True, None, None),
    "min cost fp=1 fn=3": (None, False, None, (1, 3)),
}


def _objective(text: str, rows: Rows, t: float) -> tuple[Any, bool]:
    """The goal's objective at threshold t on ``rows`` (larger better for max), and
    whether it is feasible there."""
    metric, _, bound, cost = GOALS[text]
    c = _counts(rows, t)
    if cost is not None:
        return Fraction(cost[0] * c[1] + cost[1] * c[3]), True
    assert metric is not None
    value = _metric(metric, c)
    ok = value is not None
    if bound is not None:
        b = _metric(bound[0], c)
        ok = ok and b is not None and b >= bound[1]
    return value, ok


def _best(text: str, rows: Rows, ts: list[float]) -> tuple[float, Any] | None:
    """The goal solved over ``ts`` (highest first): the first best."""
    maximise = GOALS[text][1]
    best = None
    for t in ts:
        v, ok = _objective(text, rows, t)
        if ok and v is not None and (best is None or (v > best[1] if maximise else v < best[1])):
            best = (t, v)
    return best


def _regret_of(chosen: tuple[float, Any] | None, fold: str, regret: Any) -> Any:
    return None if chosen is None else regret(chosen[0], fold)


def _oracle(folds: dict[str, Rows], text: str, within: Fraction, q: int) -> dict[str, Any]:
    names = sorted(folds)
    own = {n: [INF, *sorted({s for s, _ in folds[n]}, reverse=True)] for n in names}
    chosen = {n: _best(text, folds[n], own[n]) for n in names}
    maximise = GOALS[text][1]

    def regret(t: float, n: str) -> Any:
        v, ok = _objective(text, folds[n], t)
        best = chosen[n]
        if best is None or not ok or v is None:
            return None
        return best[1] - v if maximise else v - best[1]

    matrix = [[_regret_of(chosen[i], j, regret) for j in names] for i in names]
    union = [INF, *sorted({s for n in names for s, _ in folds[n]}, reverse=True)]
    kept = []
    for t in union:
        hits = sum(1 for n in names if (r := regret(t, n)) is not None and r <= within)
        kept.append(hits >= q)
    ranges = []
    i = 0
    while i < len(union):
        if kept[i]:
            j = i
            while j + 1 < len(union) and kept[j + 1]:
                j += 1
            ranges.append(
                (
                    union[j + 1] if j + 1 < len(union) else None,
                    None if union[i] == INF else union[i],
                )
            )
            i = j + 1
        else:
            i += 1
    cv = None
    for t in union:
        each = [_objective(text, folds[n], t) for n in names]
        if all(ok and v is not None for v, ok in each):
            mean = sum((v for v, _ in each), Fraction(0)) / len(names)
            if cv is None or (mean > cv[1] if maximise else mean < cv[1]):
                cv = (None if t == INF else t, mean)
    return {
        "thresholds": [
            None if c is None else (None if c[0] == INF else c[0])
            for c in (chosen[n] for n in names)
        ],
        "regret": matrix,
        "ranges": ranges,
        "cv": cv,
    }


fold_rows = st.lists(
    st.tuples(st.sampled_from([0.1, 0.2, 0.3, 0.4, 0.6, 0.7, 0.9]), st.integers(0, 1)),
    min_size=2,
    max_size=25,
)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(fold_rows, min_size=2, max_size=4),
    st.sampled_from(sorted(GOALS)),
    st.sampled_from([Fraction(0), Fraction(1, 20), Fraction(1, 5)]),
    st.integers(1, 4),
)
def test_stability_equals_solving_every_fold_by_hand(
    parts: list[Rows], text: str, within: Fraction, q: int
) -> None:
    q = min(q, len(parts))
    folds = {f"f{i}": rows for i, rows in enumerate(parts)}
    sweeps = [
        (name, curves_for(make_dataset([s for s, _ in r], [bool(y) for _, y in r])).sweep)
        for name, r in folds.items()
    ]
    goal = parse_goal(text)
    got = stability(sweeps, goal, 2.0, within=within, at_least=q, cv_goal=goal)
    want = _oracle(folds, text, within, q)
    assert [f.decision.threshold if f.decision.feasible else None for f in got.folds] == want[
        "thresholds"
    ]
    assert [list(row) for row in got.regret] == want["regret"]
    assert list(got.stable or ()) == want["ranges"][::-1]  # the oracle goes highest first
    if want["cv"] is None:
        assert got.cv is None and got.cv_reason is not None
    else:
        assert got.cv is not None and (got.cv[0], got.cv[2]) == want["cv"]


def test_report_json_text_and_api_carry_the_stability(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["report", "docs/examples/cv.csv", "--fold", "fold", "--goal", "max f1"]
    extra = ["--stable-within", "0.05", "--in", "2", "--cv-goal", "max f1", "--points", "0"]
    assert main([*argv, *extra, "--json"]) == 0
    s = json.loads(capsys.readouterr().out)["stability"]
    assert len(s["per_fold"]) == 5 and len(s["regret"]) == 5
    assert all(s["regret"][i][i] == "0/1" for i in range(5))
    assert s["stable_range"]["folds"] == 2 and s["stable_range"]["within"] == "1/20"
    assert s["cv_threshold"] == 0.471
    assert main([*argv, *extra]) == 0
    text = capsys.readouterr().out
    assert "Stability of goal max f1 over 5 folds" in text
    assert "one threshold for every fold (max f1, averaged over the folds): threshold 0.471" in text
    import pandas as pd  # type: ignore[import-untyped]  # no pandas-stubs installed

    frame = pd.read_csv("docs/examples/cv.csv")
    r = tl.Report.from_frame(
        frame, fold="fold", goal="max f1", stable_within=0.05, stable_in=2, cv_goal="max f1"
    )
    assert r.to_dict()["stability"] == s


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        (["--stable-within", "0.05"], "--goal"),
        (["--goal", "max f1", "--in", "2"], "--stable-within"),
        (["--goal", "max f1", "--stable-within", "-1"], "give 0 or more"),
        (["--goal", "max f1", "--stable-within", "0.1", "--in", "9"], "from 1 to 5"),
    ],
)
def test_stability_options_are_refused_in_one_line(
    extra: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "docs/examples/cv.csv", "--fold", "fold", *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert said in err and "\n" not in err and "Traceback" not in err


def test_cv_goal_needs_folds(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "good", "--cv-goal", "max f1"]) == 2
    assert "--fold" in capsys.readouterr().err


def test_plain_stability_says_what_the_report_says() -> None:
    """Opened with --fold, plain stability gives the report's lines for the same goal."""
    import io

    import pandas as pd
    from threshold_lab.core.decide.stability import stability_lines
    from threshold_lab.tui.plain import run_plain

    from tests.argv import opened

    frame = pd.read_csv("docs/examples/cv.csv")
    r = tl.Report.from_frame(
        frame, fold="fold", goal="max f1", stable_within="0.05", stable_in=2, cv_goal="max f1"
    )
    s = r.contents.stability()
    assert s is not None
    session = opened(["docs/examples/cv.csv", "--fold", "fold"]).session
    out = io.StringIO()
    run_plain(session, ["stability max f1 within 0.05 in 2\n", "stability\n"], out, prompt=False)
    said = out.getvalue()
    assert "\n".join(stability_lines(s, grid=False)) in said
    assert "give a goal, as stability max f1" in said


def test_choices_over_resamples_count_feasible_above_all_and_quartiles() -> None:
    from threshold_lab.core.intervals.bootstrap import Choices

    values = np.array([np.nan, np.inf, 0.3, 0.5, 0.5, 0.9, np.nan, 0.7])
    c = Choices.of(values)
    assert (c.replicates, c.feasible, c.above_all) == (8, 6, 1)
    # Six feasible choices in order 0.3, 0.5, 0.5, 0.7, 0.9, above all: each quartile is
    # one of them (the smallest with at least that share at or below it).
    assert c.quartiles == (0.3, 0.5, 0.5, 0.9, None)
    most_above = Choices.of(np.array([np.inf, np.inf, np.inf, 0.2, np.nan]))
    assert most_above.quartiles == (0.2, 0.2, None, None, None)
    assert "its quartiles 0.2, above all scores (median) and above all" in most_above.sentence()
    assert c.as_json()["feasible_share"] == 6 / 8
    assert "feasible in 6 of 8 resamples (1 of them above all scores)" in c.sentence()


def test_the_bootstrap_says_where_the_goal_is_feasible(capsys: pytest.CaptureFixture[str]) -> None:
    """Seeded: the same counts each run; every replicate is feasible or not."""
    argv = ["report", "imbalanced", "--goal", "min fpr where recall >= 0.95 and precision >= 0.5"]
    argv += ["--bootstrap", "200", "--json", "--points", "0"]
    assert main(argv) == 0
    first = json.loads(capsys.readouterr().out)["goal"]
    assert main(argv) == 0
    again = json.loads(capsys.readouterr().out)["goal"]
    c = first["threshold_choices"]
    assert first["feasible"] is False and c == again["threshold_choices"]
    assert c["replicates"] == 200 and 0 < c["feasible"] < 200
    assert c["feasible_share"] == c["feasible"] / 200


def test_an_infeasible_fold_has_no_threshold_in_the_json_and_its_closest_apart() -> None:
    import pandas as pd

    frame = pd.read_csv("docs/examples/cv.csv")
    goal = "max f1 where precision >= 0.95 and recall >= 0.3"
    r = tl.Report.from_frame(frame, fold="fold", goal=goal)
    per_fold = json.loads(r.to_json())["stability"]["per_fold"]
    assert [p["feasible"] for p in per_fold] == [False, False, False, True, False]
    for p in per_fold:
        if p["feasible"]:
            assert p["threshold"] is not None and p["closest"] is None
        else:
            assert (p["threshold"], p["index"], p["objective"]) == (None, None, None)
            assert p["reason"] and p["closest"]["index"] is not None
    again = tl.Report.from_frame(frame, fold="fold", cv_goal="max recall where fpr <= 0.005")
    cv = json.loads(again.to_json())["stability"]["cv_objective"]
    assert Fraction(cv["exact"]) == Fraction(801151, 6855200) and cv["value"] == pytest.approx(
        801151 / 6855200
    )


def test_plain_stability_words_are_checked_before_solving() -> None:
    from threshold_lab.tui.plain import run_plain

    from tests.argv import opened

    session = opened(["docs/examples/cv.csv", "--fold", "fold"]).session
    out = io.StringIO()
    lines = [
        "stability max f1 in 2\n",
        "stability max f1 within abc\n",
        "band: min cost fp=1 fn=5 review=1\n",
    ]
    run_plain(session, lines, out, prompt=False)
    said = out.getvalue()
    assert "say stability GOAL within E in Q" in said
    assert 'stable within: "abc" is not a number' in said
    assert "Review band: min cost fp=1 fn=5 review=1" in said and "unknown command" not in said


def test_the_explorer_s_fold_marks_are_each_fold_s_own_choice() -> None:
    """The session's fold choices (the strip's * marks) are the stability's per fold."""
    import time

    from tests.argv import opened

    session = opened(["docs/examples/cv.csv", "--fold", "fold", "--goal", "max f1"]).session
    for _ in range(100):
        choices = session.current().fold_choices
        if choices is not None:
            break
        time.sleep(0.05)
    assert choices is not None
    s = stability(session.fold_sweeps(), parse_goal("max f1"), 2.0)
    assert [(c.name, c.threshold) for c in choices] == [
        (f.name, f.decision.threshold) for f in s.folds
    ]
    assert [c.threshold for c in choices] == [0.471, 0.531, 0.3, 0.475, 0.438]


def test_the_folds_thresholds_interval_is_student_s_t_over_the_folds() -> None:
    """scipy's t quantile is the oracle; above-all choices are left out."""
    import pandas as pd
    from scipy import stats

    frame = pd.read_csv("docs/examples/cv.csv")
    r = tl.Report.from_frame(frame, fold="fold", goal="max f1", confidence=0.9)
    got = json.loads(r.to_json())["stability"]["threshold_interval"]
    ts = np.array([0.471, 0.531, 0.3, 0.475, 0.438])
    half = stats.t.ppf(0.95, 4) * ts.std(ddof=1) / np.sqrt(5)
    assert got["mean"] == pytest.approx(ts.mean(), abs=1e-12)
    assert got["low"] == pytest.approx(ts.mean() - half, abs=1e-9)
    assert got["high"] == pytest.approx(ts.mean() + half, abs=1e-9)
    assert (got["folds"], got["confidence"], got["method"]) == (5, 0.9, "t over folds")
    assert "90% interval of the mean" in r.text()
