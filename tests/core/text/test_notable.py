"""The sweep excerpt lists the notable points: the active one, each readout's, the
goal's, max F1's and max informedness's, checked against brute force in fractions."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import analyse
from threshold_lab.core.curves.operating import DEFAULT_READOUTS, readouts
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.text.notable import (
    MAX_F1,
    MAX_INFORMEDNESS,
    excerpt,
    notable_points,
    reasons_text,
)
from threshold_lab.core.text.sentences import curve_words
from threshold_lab.core.text.sweep_table import sweep_table

from tests.strategies import Example, examples, tied_scores


def _brute_best(tp: list[int], fp: list[int], p: int, n: int) -> tuple[int | None, int | None]:
    """Max F1's and max informedness's points in fractions, ties to the highest
    threshold (the lowest index); F1 over points 1.., informedness over every point."""
    f1 = {k: Fraction(2 * tp[k], tp[k] + p + fp[k]) for k in range(1, len(tp)) if p}
    best_f1 = min(f1, key=lambda k: (-f1[k], k)) if f1 else None
    if not p or not n:
        return best_f1, None
    inf = {k: Fraction(tp[k], p) - Fraction(fp[k], n) for k in range(len(tp))}
    return best_f1, min(inf, key=lambda k: (-inf[k], k))


@settings(max_examples=150, deadline=None)
@given(examples(scores=tied_scores), st.sampled_from([0.0, 0.3, 0.5, 0.9]))
def test_notable_points_are_the_brute_forces(ex: Example, t: float) -> None:
    s, y = ex
    a = analyse(make_dataset(s, y), t)
    found = readouts(a.sweep, DEFAULT_READOUTS)
    marks = notable_points(a, found, goal_point=1)
    tp, fp = a.sweep.tp.tolist(), a.sweep.fp.tolist()
    f1, inf = _brute_best(tp, fp, int(a.sweep.positives), int(a.sweep.negatives))
    want: dict[int, set[str]] = {a.point: {"active"}}
    for r in found:
        if r.point is not None:
            want.setdefault(r.point, set()).add(r.asked)
    want.setdefault(1, set()).add("goal")
    if f1 is not None and a.sweep.positives:
        want.setdefault(f1, set()).add(MAX_F1)
    if inf is not None:
        want.setdefault(inf, set()).add(MAX_INFORMEDNESS)
    assert {k: set(v) for k, v in marks.items()} == want


@given(st.integers(1, 400), st.lists(st.integers(0, 399), max_size=12), st.integers(0, 60))
def test_the_excerpt_keeps_the_notable_points_and_the_ends(
    size: int, notable: list[int], limit: int
) -> None:
    got = excerpt(size, notable, limit)
    assert got == sorted(set(got))
    if size <= limit:
        assert got == list(range(size))
        return
    if limit == 0:
        assert got == []
        return
    inside = {p for p in notable if p < size}
    assert inside | {0, size - 1} <= set(got)
    assert len(got) <= max(limit, len(inside | {0, size - 1}))
    assert excerpt(size, notable, None) == list(range(size))


def test_readouts_of_one_kind_share_their_words() -> None:
    why = ["active", "TPR at FPR <= 0.001", "TPR at FPR <= 0.01", "FPR at TPR >= 0.9", "max F1"]
    assert reasons_text(why) == "active; TPR at FPR <= 0.001, 0.01; FPR at TPR >= 0.9; max F1"


def _long() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    y = (rng.random(3_000) < 0.25).astype(np.int64)
    return np.round(rng.normal(y * 1.3, 1.0), 3), y


def test_a_long_sweeps_table_lists_each_notable_point_with_why() -> None:
    s, y = _long()
    a = analyse(make_dataset(s, y), 0.5)
    found = readouts(a.sweep, DEFAULT_READOUTS)
    marks = notable_points(a, found)
    lines = sweep_table(a, limit=40, notable=marks)
    listed = [line for line in lines[1:] if not line.strip().startswith("...")]
    assert len(listed) <= 40
    for k, why in marks.items():
        label = "above all" if k == 0 else None
        said = reasons_text(why)
        rows = [line for line in listed if line.rstrip().removesuffix("; corner").endswith(said)]
        assert rows, (k, why)
        if label:
            assert label in rows[0]
    # The points not listed are counted, and with them every point is accounted for.
    hidden = sum(int(line.split()[1]) for line in lines[1:] if line.strip().startswith("..."))
    assert hidden + len(listed) == a.sweep.size
    assert any(line.startswith("  > ") and "active" in line for line in listed)
    every = sweep_table(a, limit=None, notable=marks)
    assert len(every) == 1 + a.sweep.size


def test_plain_roc_says_the_notable_points() -> None:
    s, y = _long()
    a = analyse(make_dataset(s, y), 0.5)
    marks = notable_points(a, readouts(a.sweep, DEFAULT_READOUTS))
    lines = curve_words(a, "roc", notable=marks)
    said = " ".join(lines)
    # In the listing's order (the sweep's), each readout kind's words said once.
    kinds: set[str] = set()
    for k in sorted(marks):
        if k > 0:
            assert f"({reasons_text(marks[k], kinds)})." in said, marks[k]
    assert said.count("TPR at FPR <=") == 1 and said.count("FPR at TPR >=") == 1
    steps = [line for line in lines if line.startswith("Threshold")]
    skipped = sum(int(line.split()[1]) for line in lines if line.startswith("..."))
    assert len(steps) + skipped == a.sweep.size - 1 and len(steps) <= 40
