"""Where two ROC curves of the same rows cross, against a brute force written from the
definition: each curve is the line through its points; between any two FP counts where
either curve has a point, both are straight, so the sign of A − B is sampled exactly
(in fractions) just inside each such stretch, and a crossing is a change of that sign
(zeros skipped). Each crossing found must lie between the samples whose signs change,
in the direction they change."""

from __future__ import annotations

import itertools
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.curves.crossings import compare_curves
from threshold_lab.core.data.dataset import make_dataset


def _points(scores: list[float], labels: list[int]) -> list[tuple[int, int]]:
    pts = [(0, 0)]
    for t in sorted(set(scores), reverse=True):
        tp = sum(1 for s, y in zip(scores, labels, strict=True) if y and s >= t)
        fp = sum(1 for s, y in zip(scores, labels, strict=True) if not y and s >= t)
        pts.append((fp, tp))
    return pts


def _tp_at(pts: list[tuple[int, int]], x: Fraction) -> Fraction:
    """The curve's TP at an FP count x where it has no point (so no vertical step)."""
    for (f0, t0), (f1, t1) in itertools.pairwise(pts):
        if f0 < x < f1:
            return t0 + (t1 - t0) * (x - f0) / (f1 - f0)
    raise AssertionError(f"no segment through {x}")


def _brute(a: list[tuple[int, int]], b: list[tuple[int, int]]) -> list[tuple[Fraction, int]]:
    grid = sorted({f for f, _ in a} | {f for f, _ in b})
    samples: list[tuple[Fraction, int]] = []
    for u0, u1 in itertools.pairwise(grid):
        eps = Fraction(u1 - u0, 10**6)
        for x in (u0 + eps, u1 - eps):
            d = _tp_at(a, x) - _tp_at(b, x)
            if d:
                samples.append((x, 1 if d > 0 else -1))
    return samples


rows = st.lists(
    st.tuples(st.sampled_from([0.1, 0.3, 0.5, 0.7, 0.9]), st.integers(0, 1)),
    min_size=2,
    max_size=30,
)


@settings(max_examples=300, deadline=None)
@given(rows, st.randoms(use_true_random=False))
def test_crossings_match_the_brute_force(rows, rnd) -> None:  # type: ignore[no-untyped-def]
    labels = [y for _, y in rows]
    if len(set(labels)) < 2:
        return
    sa = [s for s, _ in rows]
    sb = [rnd.choice([0.1, 0.2, 0.3, 0.5, 0.8, 0.9]) for _ in rows]
    a = curves_for(make_dataset(sa, [bool(y) for y in labels])).sweep
    b = curves_for(make_dataset(sb, [bool(y) for y in labels])).sweep
    got = compare_curves(a, b)
    assert got is not None
    n = labels.count(0)
    samples = _brute(_points(sa, labels), _points(sb, labels))
    changes = [(x0, x1, s0) for (x0, s0), (x1, s1) in itertools.pairwise(samples) if s0 != s1]
    assert len(got.crossings) == len(changes)
    for c, (x0, x1, s0) in zip(got.crossings, changes, strict=True):
        assert x0 <= c.fpr * n <= x1
        assert c.a_goes_below == (s0 > 0)
    if not changes:
        want = samples[0][1] if samples else 0
        assert got.side == want


def test_a_jump_carries_one_curve_past_the_other() -> None:
    # A rises first and then stalls; B starts lower and passes it: one crossing.
    labels = [1, 1, 0, 0, 1, 0]
    a = curves_for(make_dataset([0.9, 0.8, 0.7, 0.6, 0.1, 0.5], [bool(y) for y in labels])).sweep
    b = curves_for(make_dataset([0.9, 0.3, 0.8, 0.2, 0.7, 0.1], [bool(y) for y in labels])).sweep
    got = compare_curves(a, b)
    assert got is not None
    assert [(c.fpr, c.a_goes_below) for c in got.crossings] == [(Fraction(1, 3), True)]
    same = compare_curves(a, a)
    assert same is not None and same.crossings == () and same.side == 0
