"""Exercises: every generated fixture meets its targets by the oracle's own counting,
the search finds every arrangement a brute force over labels and scores finds, and a
target no fixture of that size meets is said so."""

from __future__ import annotations

import itertools
import re
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.errors import InputError
from threshold_lab.core.lessons.exercise import arrangements, make_exercise, parse_target

from tests import oracle


def _measure(
    name: str, scores: list[float], labels: list[int], at: float | None
) -> Fraction | None:
    return oracle.measure(name, scores, labels, at)


def _rows(ex) -> tuple[list[float], list[int]]:  # type: ignore[no-untyped-def]
    return ex.data.scores.tolist(), [int(y) for y in ex.data.labels.tolist()]


@settings(max_examples=40, deadline=None)
@given(
    st.integers(3, 7),
    st.integers(0, 10**6),
    st.sampled_from(["auc", "ap", "trapezoid"]),
    st.sampled_from(["precision", "recall", "f1"]),
    st.sampled_from([0.35, 0.5, 0.75]),
    st.booleans(),
)
def test_a_fixture_meets_its_targets_by_the_oracle(
    rows: int, pick: int, whole: str, at_name: str, at: float, ties: bool
) -> None:
    """Targets read off a random fixture of the oracle's, so at least that one meets them."""
    groups = [g for g in arrangements(rows) if 0 < sum(a for a, _ in g) < rows]
    if ties:
        groups = [g for g in groups if any(a and b for a, b in g)]
    chosen = groups[pick % len(groups)]
    scores = [round(0.9 - 0.1 * i, 1) for i, (a, b) in enumerate(chosen) for _ in range(a + b)]
    labels = [y for a, b in chosen for y in [1] * a + [0] * b]
    value = _measure(whole, scores, labels, None)
    k_value = _measure(at_name, scores, labels, at)
    targets = [f"{whole} {value}", f"{at_name} at {at} >= {k_value if k_value is not None else 0}"]
    if k_value is None:
        targets[1] = f"{at_name} at {at} = undefined"
    ex = make_exercise(targets, rows, ties=ties, seed=pick)
    s, y = _rows(ex)
    assert _measure(whole, s, y, None) == value
    got = _measure(at_name, s, y, at)
    assert got is None if k_value is None else (got is not None and got >= k_value)
    assert ex.data.n == rows and 0 < sum(y) < rows
    assert not ties or any(
        len({label for score, label in zip(s, y, strict=True) if score == t}) == 2 for t in set(s)
    )
    # The answers say the same numbers.
    assert ex.answers[0][0] == value


def _canonical(scores: tuple[int, ...], labels: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    levels = sorted(set(scores), reverse=True)
    return tuple(
        (
            sum(1 for s, y in zip(scores, labels, strict=True) if s == v and y),
            sum(1 for s, y in zip(scores, labels, strict=True) if s == v and not y),
        )
        for v in levels
    )


@pytest.mark.parametrize(
    ("rows", "target"), [(4, "auc 1/2"), (4, "ap >= 2/3"), (5, "trapezoid < 1/2")]
)
def test_the_search_finds_what_a_brute_force_over_rows_finds(rows: int, target: str) -> None:
    """Every labelling and every score of each row (1 to rows), canonicalised to its
    tie groups: the same set of arrangements as the search's."""
    t = parse_target(target)
    want = set()
    for labels in itertools.product((0, 1), repeat=rows):
        if not 0 < sum(labels) < rows:
            continue
        for scores in itertools.product(range(1, rows + 1), repeat=rows):
            got = _measure(t.measure, [float(x) for x in scores], list(labels), None)
            if t.met(got):
                want.add(_canonical(scores, labels))
    ex = make_exercise([target], rows)
    assert ex.found == len(want)
    assert ex.groups in want


def test_the_same_seed_makes_the_same_file() -> None:
    a = make_exercise(["auc 3/4"], 6, seed=4)
    b = make_exercise(["auc 3/4"], 6, seed=4)
    assert a.data.scores.tolist() == b.data.scores.tolist()
    assert a.data.labels.tolist() == b.data.labels.tolist()
    assert len({tuple(make_exercise(["auc 3/4"], 6, seed=s).groups) for s in range(12)}) > 1


def test_thresholds_cut_the_groups_where_the_targets_say() -> None:
    ex = make_exercise(["precision at 0.5 = 2/3", "recall at 0.75 = 1/3"], 6, seed=2)
    s, y = _rows(ex)
    assert _measure("precision", s, y, 0.5) == Fraction(2, 3)
    assert _measure("recall", s, y, 0.75) == Fraction(1, 3)
    lines = "\n".join(ex.answer_lines())
    assert "precision at 0.5 = TP/(TP+FP) = 2/(2+1) = 2/3" in lines
    assert lines.startswith("Tie groups from the top: 0.9: ")


def test_no_fixture_of_that_size_is_said() -> None:
    # 7/12 needs P·N a multiple of 6: no split of 6 rows has one (5, 8, 9).
    with pytest.raises(InputError, match="no fixture of 6 rows meets auc 7/12"):
        make_exercise(["auc 7/12"], 6)
    assert make_exercise(["auc 7/12"], 5).found > 0  # 3 and 2 (or 2 and 3): P·N = 6


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("auk 7/12", "'auk' is not one of auc"),
        ("precision = 1", "say precision at T"),
        ("auc at 0.5 = 1", "auc takes no threshold"),
        ("precision at 1.5 = 1", "the threshold is strictly between 0 and 1"),
        ("auc >= seven", "the value 'seven' is not a number"),
        ("recall at 0.5 = undefined", "only precision can be undefined"),
        ("auc", "say MEASURE [OP] VALUE"),
    ],
)
def test_a_bad_target_is_refused(target: str, said: str) -> None:
    with pytest.raises(InputError) as refused:
        make_exercise([target], 5)
    assert said in str(refused.value)


def test_the_command_writes_the_rows_and_the_answers(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import subprocess
    import sys

    out = tmp_path / "ex.csv"
    argv = [sys.executable, "-m", "threshold_lab", "exercise", "--make", "auc 7/12"]
    argv += ["--make", "ap >= 3/4", "--rows", "5", "--ties", "--seed", "1"]
    run = subprocess.run(
        [*argv, "--out", str(out), "--answers"], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"Wrote {out}: 5 rows in 4 tie groups")
    assert "auc 7/12: 7/12 ≈ 0.5833" in run.stdout and "= 34/45" in run.stdout
    lines = out.read_text().splitlines()
    assert lines[0] == "id,score,label" and len(lines) == 6
    scores = [float(x.split(",")[1]) for x in lines[1:]]
    labels = [int(x.split(",")[2]) for x in lines[1:]]
    assert oracle.pairwise_auc(scores, labels) == Fraction(7, 12)
    assert oracle.average_precision(scores, labels) >= Fraction(3, 4)
    none = subprocess.run(
        [*argv[:6], "--rows", "6", "--out", str(out)], capture_output=True, text=True, timeout=120
    )
    assert none.returncode == 2 and none.stderr.startswith("threshold-lab: error: no fixture of 6")


def test_thresholds_beyond_the_tenths_are_met() -> None:
    """0.95 and 0.1 need scores above 0.9 or below 0.1: a finer ladder where needed."""
    for target in ("precision at 0.95 = 1", "recall at 0.1 = 1/2", "f1 at 0.05 >= 1/2"):
        ex = make_exercise([target], 4, seed=1)
        t = parse_target(target)
        s, y = _rows(ex)
        assert t.met(_measure(t.measure, s, y, float(t.at) if t.at else None))


@pytest.mark.parametrize(
    ("target", "said"),
    [
        ("auc 2", "no fixture has it (auc is from 0 to 1)"),
        ("ap 0", "and AP above 0"),
        ("groups 2.5", "a number of tie groups is whole"),
        ("groups 11", "there are 1 to 10 tie groups"),
        ("trapezoid > 1", "no fixture has it"),
    ],
)
def test_an_unreachable_target_is_refused_before_the_search(target: str, said: str) -> None:
    with pytest.raises(InputError, match=re.escape(said)):
        parse_target(target)


def test_a_percentage_is_a_value() -> None:
    assert parse_target("auc 75%").value == Fraction(3, 4)
