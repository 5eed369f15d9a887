"""The ROC convex hull and its cost curves held to a brute force in exact
fractions: the points that are ever the one cheapest point, NEC(PC) = FNR·PC +
FPR·(1 − PC) found at every PC where the cheapest can change, are exactly the hull's
vertices (with the ends (0, 0) and (1, 1)); each vertex's PC range is where it is
cheapest, the ranges tile [0, 1]; the area under the hull is its trapezoids' in
fractions, at least the ROC AUC, and scipy's convex hull's area; each point's standing
(a vertex, on an edge and cheapest only where its edge's vertices tie, or strictly
inside and never the cheapest) is where the brute force finds it among the cheapest;
with ties, whole weights (zero among them) and both classes; undefined without both
classes."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.curves.hull import cost_curve, hull_vertices, standing, standing_counts
from threshold_lab.core.curves.roc import roc_auc
from threshold_lab.core.curves.sweep import Sweep, build_sweep
from threshold_lab.core.data.dataset import make_dataset

Row = tuple[float, bool, int]
Pair = tuple[Fraction, Fraction]

SCORES = st.integers(0, 8).map(lambda k: k / 8) | st.floats(-2.0, 2.0)
ROWS = st.lists(st.tuples(SCORES, st.booleans(), st.integers(0, 3)), min_size=0, max_size=22)


def _sweep(rows: list[Row], weighted: bool, scale: float = 1.0) -> Sweep:
    # Both classes, with weight: a positive and a negative of weight 1 at drawn scores.
    first, last = (rows[0][0], rows[-1][0]) if rows else (0.5, 0.5)
    rows = [(first, True, 1), (last, False, 1), *rows]
    s = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows])
    w = np.array([r[2] / scale for r in rows]) if weighted else None
    return build_sweep(make_dataset(s, y, weights=w))


def _rates(sweep: Sweep) -> list[Pair]:
    """Each point's (FPR, TPR) in fractions."""
    pos, neg = int(sweep.positives), int(sweep.negatives)
    tp, fp = sweep.tp.tolist(), sweep.fp.tolist()
    return [(Fraction(int(f), neg), Fraction(int(t), pos)) for f, t in zip(fp, tp, strict=True)]


def _cost(p: Pair, pc: Fraction) -> Fraction:
    fpr, tpr = p
    return (1 - tpr) * pc + fpr * (1 - pc)


def _where_the_cheapest_can_change(pairs: set[Pair]) -> list[Fraction]:
    """0, 1, every PC in (0, 1) where two points' costs cross, and the midpoints
    between neighbouring ones: between two crossings the order of costs is fixed."""
    cross = {Fraction(0), Fraction(1)}
    for (f1, t1), (f2, t2) in itertools.combinations(pairs, 2):
        # (1 − t1)·pc + f1·(1 − pc) = (1 − t2)·pc + f2·(1 − pc)
        slope = (t2 - t1) + (f2 - f1)
        if slope != 0:
            pc = (f2 - f1) / slope
            if 0 < pc < 1:
                cross.add(pc)
    ends = sorted(cross)
    return sorted(cross | {(a + b) / 2 for a, b in itertools.pairwise(ends)})


def _ever_the_one_cheapest(pairs: set[Pair]) -> set[Pair]:
    found = set()
    for pc in _where_the_cheapest_can_change(pairs):
        costs = {p: _cost(p, pc) for p in pairs}
        least = min(costs.values())
        cheapest = [p for p, c in costs.items() if c == least]
        if len(cheapest) == 1:
            found.add(cheapest[0])
    return found


@settings(max_examples=150, deadline=None)
@given(ROWS, st.booleans())
def test_the_hull_vertices_are_the_points_ever_the_one_cheapest(
    rows: list[Row], weighted: bool
) -> None:
    sweep = _sweep(rows, weighted)
    rates = _rates(sweep)
    points = hull_vertices(sweep).tolist()
    m = sweep.size - 1
    assert points == sorted(set(points)) and points[0] == 0 and points[-1] == m
    vertices = [rates[k] for k in points]
    assert len(set(vertices)) == len(vertices), "no vertex twice (zero-weight rows)"
    # (0, 0) and (1, 1) are always reported, though at a tie they are cheapest only
    # with another point (at PC = 0 or PC = 1).
    ends = {(Fraction(0), Fraction(0)), (Fraction(1), Fraction(1))}
    assert set(vertices) == _ever_the_one_cheapest(set(rates)) | ends
    c = cost_curve(sweep)
    assert c.reason is None and [v.point for v in c.hull] == points
    assert c.points() == frozenset(points)


@settings(max_examples=150, deadline=None)
@given(ROWS, st.booleans())
def test_each_vertex_is_cheapest_over_its_pc_range_and_the_ranges_tile_0_1(
    rows: list[Row], weighted: bool
) -> None:
    sweep = _sweep(rows, weighted)
    rates = _rates(sweep)
    c = cost_curve(sweep)
    hull = c.hull
    assert hull[0].pc_low_exact == 0 and hull[-1].pc_high_exact == 1
    for v, w in itertools.pairwise(hull):
        assert v.pc_high_exact == w.pc_low_exact
    for v in hull:
        assert v.pc_low_exact is not None and v.pc_high_exact is not None
        assert v.fpr_exact is not None and v.tpr_exact is not None
        low, high = v.pc_low_exact, v.pc_high_exact
        assert 0 <= low <= high <= 1
        assert (v.fpr_exact, v.tpr_exact) == rates[v.point]
        assert (v.fpr, v.tpr, v.pc_low, v.pc_high) == (
            float(v.fpr_exact),
            float(v.tpr_exact),
            float(low),
            float(high),
        )
        assert v.threshold == sweep.threshold_at(v.point)
        # The least cost at both ends of its range (ties allowed there), and the one
        # least cost strictly inside it.
        for pc in (low, high):
            assert _cost(rates[v.point], pc) == min(_cost(p, pc) for p in rates)
        if low < high:
            mid = (low + high) / 2
            own = _cost(rates[v.point], mid)
            assert all(own < _cost(p, mid) for p in rates if p != rates[v.point])
            assert c.cheapest(float(mid)) == v


@settings(max_examples=150, deadline=None)
@given(ROWS, st.booleans())
def test_the_area_under_the_hull_is_its_trapezoids_and_at_least_the_roc_auc(
    rows: list[Row], weighted: bool
) -> None:
    sweep = _sweep(rows, weighted)
    rates = _rates(sweep)
    c = cost_curve(sweep)
    vertices = [rates[v.point] for v in c.hull]
    area = sum(
        ((f2 - f1) * (t1 + t2) / 2 for (f1, t1), (f2, t2) in itertools.pairwise(vertices)),
        Fraction(0),
    )
    assert c.hull_auc.exact == area and c.hull_auc.value == float(area)
    auc = roc_auc(sweep).exact
    assert auc is not None and area >= auc
    # The hull lies on or above every ROC point.
    for f, t in rates:
        for (f1, t1), (f2, t2) in itertools.pairwise(vertices):
            if f1 <= f <= f2 and f1 < f2:
                assert t <= t1 + (t2 - t1) * (f - f1) / (f2 - f1)


@settings(max_examples=100, deadline=None)
@given(ROWS, st.booleans())
def test_the_hull_is_scipy_s_convex_hull(rows: list[Row], weighted: bool) -> None:
    spatial = pytest.importorskip("scipy.spatial")
    sweep = _sweep(rows, weighted)
    rates = _rates(sweep)
    c = cost_curve(sweep)
    # The ROC points with (1, 0): the region under the upper hull, above y = 0.
    xy = np.array([(float(f), float(t)) for f, t in {*rates, (Fraction(1), Fraction(0))}])
    scipy_hull = spatial.ConvexHull(xy)
    assert c.hull_auc.value is not None
    assert math.isclose(c.hull_auc.value, scipy_hull.volume, rel_tol=1e-12, abs_tol=1e-15)
    corners = {(float(x), float(y)) for x, y in xy[scipy_hull.vertices]} - {(1.0, 0.0)}
    assert corners == {(v.fpr, v.tpr) for v in c.hull}


@settings(max_examples=60, deadline=None)
@given(ROWS)
def test_fractional_weights_find_the_same_corners_in_doubles(rows: list[Row]) -> None:
    # Weights of a third each: the same rates, held as doubles. Every corner is found
    # (each is above its chord by far more than rounding); a point on an edge may be
    # taken for a corner by rounding, so the doubles' vertices hold the exact ones and
    # any other is on the exact hull (the same area, to rounding).
    whole = _sweep(rows, True)
    thirds = _sweep(rows, True, scale=3.0)
    if thirds.whole_counts(limit=2**62):
        return  # thirds that add up to whole numbers at every point
    a, b = cost_curve(whole), cost_curve(thirds)
    exact = {v.point for v in a.hull}
    assert exact <= b.points()
    assert all(v.pc_low_exact is None and v.fpr_exact is None for v in b.hull)
    assert b.hull[0].pc_low == 0.0 and b.hull[-1].pc_high == 1.0
    for v, w in itertools.pairwise(b.hull):
        assert v.pc_high == w.pc_low
    for v in b.hull:
        if v.point in exact:
            assert v.pc_low <= v.pc_high
        else:  # on an edge: cheapest only where its neighbours tie (its range may be
            # reversed by an ulp)
            assert math.isclose(v.pc_low, v.pc_high, rel_tol=1e-12, abs_tol=1e-15)
    rates = _rates(whole)
    for v in b.hull:
        f, t = rates[v.point]
        assert math.isclose(v.fpr, f, rel_tol=1e-12) and math.isclose(v.tpr, t, rel_tol=1e-12)
    assert a.hull_auc.value is not None and b.hull_auc.value is not None
    assert b.hull_auc.exact is None
    assert math.isclose(a.hull_auc.value, b.hull_auc.value, rel_tol=1e-12)
    # Each point stands where it does exactly (a point that the doubles put a hair
    # under an edge is on it), but for a point on an edge that the doubles made a
    # corner, cheapest over a range as wide as rounding.
    for k in range(whole.size):
        exact_kind, s = standing(whole, a, k), standing(thirds, b, k)
        assert exact_kind is not None and s is not None and s.pc_low_exact is None
        if s.kind != exact_kind.kind:
            assert (exact_kind.kind, s.kind) == ("edge", "vertex"), (k, exact_kind, s)
            assert s.pc_low is not None and s.pc_high is not None
            assert math.isclose(s.pc_low, s.pc_high, rel_tol=1e-12, abs_tol=1e-15)


def _cheapest_at(pairs: list[Pair], p: Pair) -> list[Fraction]:
    """The PCs, among those where the cheapest can change and between them, at which
    ``p`` costs the least."""
    return [
        pc
        for pc in _where_the_cheapest_can_change(set(pairs))
        if _cost(p, pc) == min(_cost(q, pc) for q in pairs)
    ]


@settings(max_examples=150, deadline=None)
@given(ROWS, st.booleans())
def test_each_point_s_standing_is_where_the_brute_force_finds_it_cheapest(
    rows: list[Row], weighted: bool
) -> None:
    sweep = _sweep(rows, weighted)
    rates = _rates(sweep)
    c = cost_curve(sweep)
    kinds = {"vertex": 0, "edge": 0, "inside": 0}
    for k in range(sweep.size):
        s = standing(sweep, c, k)
        assert s is not None
        kinds[s.kind] += 1
        at = _cheapest_at(rates, rates[k])
        if s.kind == "inside":  # strictly under the hull: never the cheapest
            assert at == [] and s.pc_low_exact is None and s.pc_high_exact is None
            assert all(
                min(_cost(q, pc) for q in rates) < _cost(rates[k], pc)
                for pc in _where_the_cheapest_can_change(set(rates))
            )
            continue
        # The cheapest (tied or alone) exactly from pc_low to pc_high: the breakpoints
        # and the midpoints between them are enough, the cost being linear between.
        assert s.pc_low_exact is not None and s.pc_high_exact is not None
        assert at and (at[0], at[-1]) == (s.pc_low_exact, s.pc_high_exact), (k, s, at)
        assert (s.pc_low, s.pc_high) == (float(s.pc_low_exact), float(s.pc_high_exact))
        if s.kind == "edge":  # on an edge, not a corner: at one PC only, tied there
            assert k not in c.points() and s.pc_low_exact == s.pc_high_exact
            assert sum(_cost(q, at[0]) == _cost(rates[k], at[0]) for q in set(rates)) >= 3
        else:
            vertex = next(v for v in c.hull if rates[v.point] == rates[k])
            assert (s.pc_low_exact, s.pc_high_exact) == (vertex.pc_low_exact, vertex.pc_high_exact)
    counts = standing_counts(sweep, c)
    assert (counts.vertex, counts.edge, counts.inside) == (
        kinds["vertex"],
        kinds["edge"],
        kinds["inside"],
    )


def test_a_point_on_an_edge_is_cheapest_only_where_the_edge_s_vertices_tie() -> None:
    """The canonical fixture: (1/2, 2/3) at 0.8 lies on the edge from (0, 1/3) to
    (1, 1), whose vertices tie at PC(+) = 3/5; (1, 2/3) at 0.4 is strictly inside; the
    point above all scores ties 0.9 at PC(+) = 0 and is cheapest nowhere else."""
    from threshold_lab.core.data.presets import preset

    sweep = build_sweep(preset("canonical").data)
    c = cost_curve(sweep)
    got = [standing(sweep, c, k) for k in range(5)]
    assert [(s.kind, s.pc_low_exact, s.pc_high_exact) for s in got if s is not None] == [
        ("vertex", 0, 0),
        ("vertex", 0, Fraction(3, 5)),
        ("edge", Fraction(3, 5), Fraction(3, 5)),
        ("inside", None, None),
        ("vertex", Fraction(3, 5), 1),
    ]
    assert [s.words() for s in got if s is not None] == [
        "cheapest (tied) only at PC(+) = 0",
        "cheapest for PC(+) from 0 to 0.6",
        "on the hull, not a vertex: cheapest (tied) only at PC(+) = 0.6",
        "never the cheapest (strictly inside the hull)",
        "cheapest for PC(+) from 0.6 to 1",
    ]
    counts = standing_counts(sweep, c)
    assert (counts.vertex, counts.edge, counts.inside) == (3, 1, 1)


def test_points_on_an_edge_are_not_vertices() -> None:
    # (0, 0), (0, 1/2), (1/2, 3/4), (1, 1): the last three on one line.
    sweep = build_sweep(make_dataset([0.9, 0.5, 0.5, 0.1, 0.1], [1, 1, 0, 1, 0]))
    assert [(float(f), float(t)) for f, t in _rates(sweep)] == [
        (0.0, 0.0),
        (0.0, 1 / 3),
        (0.5, 2 / 3),
        (1.0, 1.0),
    ]
    assert hull_vertices(sweep).tolist() == [0, 1, 3]
    c = cost_curve(sweep)
    assert [(v.pc_low_exact, v.pc_high_exact) for v in c.hull] == [
        (0, 0),
        (0, Fraction(3, 5)),
        (Fraction(3, 5), 1),
    ]


@pytest.mark.parametrize(
    ("labels", "weights", "missing"),
    [
        ([1, 1, 1], None, "no actual negatives"),
        ([0, 0], None, "no actual positives"),
        ([1, 0, 1], [1.0, 0.0, 2.0], "no actual negatives"),
        ([1, 0, 0], [0.0, 1.0, 1.0], "no actual positives"),
    ],
)
def test_without_both_classes_there_is_no_hull(
    labels: list[int], weights: list[float] | None, missing: str
) -> None:
    scores = [0.9, 0.4, 0.1][: len(labels)]
    sweep = build_sweep(make_dataset(scores, labels, weights=weights))
    assert hull_vertices(sweep).tolist() == []
    c = cost_curve(sweep)
    assert c.reason is not None and "both actual classes" in c.reason and missing in c.reason
    assert c.hull == () and c.points() == frozenset() and c.cheapest(0.5) is None
    assert c.hull_auc.value is None and c.hull_auc.reason == c.reason
    assert c.as_json()["hull"] == [] and c.as_json()["reason"] == c.reason
