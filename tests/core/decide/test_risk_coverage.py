"""The risk-coverage frontier against a brute force from the definitions: every pair
of thresholds (each a distinct score or above all) counted from the rows, and the lower
convex hull of (decided, errors) over all of them, in fractions; ties and weights."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise
from typing import Any, cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.decide import risk_coverage as risk_coverage_module
from threshold_lab.core.decide.risk_coverage import (
    frontier_lines,
    risk_coverage,
    risk_coverage_steps,
)

Row = tuple[float, int, int]


def _counts(rows: list[Row], hi: float | None, lo: float | None) -> tuple[int, int]:
    """(decided, errors) of accepting score >= hi and rejecting score < lo."""
    decided = errors = 0
    for s, y, w in rows:
        if hi is not None and s >= hi:
            decided += w
            errors += w * (1 - y)
        elif lo is None or s < lo:
            decided += w
            errors += w * y
    return decided, errors


def _pairs(rows: list[Row]) -> dict[tuple[float | None, float | None], tuple[int, int]]:
    ts: list[float | None] = [None, *sorted({s for s, _, _ in rows}, reverse=True)]
    return {
        (ts[i], ts[j]): _counts(rows, ts[i], ts[j])
        for i in range(len(ts))
        for j in range(i, len(ts))
    }


def _lower_hull(points: set[tuple[int, int]]) -> list[tuple[int, int]]:
    """The lower hull's vertices from the leftmost point to the lowest point at the
    largest x (monotone chain)."""
    best: dict[int, int] = {}
    for x, y in points:
        best[x] = min(y, best.get(x, y))
    out: list[tuple[int, int]] = []
    for p in sorted(best.items()):
        while len(out) >= 2:
            (x1, y1), (x2, y2) = out[-2], out[-1]
            if (x2 - x1) * (p[1] - y1) - (y2 - y1) * (p[0] - x1) <= 0:
                out.pop()
            else:
                break
        out.append(p)
    return out


def _on_hull(p: tuple[int, int], hull: list[tuple[int, int]]) -> bool:
    for (x1, y1), (x2, y2) in pairwise(hull):
        if x1 <= p[0] <= x2:
            return (y2 - y1) * (p[0] - x1) == (p[1] - y1) * (x2 - x1)
    return p in hull


rows_strategy = st.lists(
    st.tuples(st.sampled_from([0.1, 0.2, 0.3, 0.5, 0.7, 0.8, 0.9]), st.integers(0, 1)),
    min_size=1,
    max_size=40,
)
weights_strategy = st.none() | st.lists(st.integers(0, 4), min_size=40, max_size=40)


@settings(max_examples=400, deadline=None)
@given(rows_strategy, weights_strategy)
def test_the_frontier_is_the_lower_hull_of_every_band(
    pairs: list[tuple[float, int]], weights: list[int] | None
) -> None:
    w = [1] * len(pairs) if weights is None else weights[: len(pairs)]
    if sum(w) == 0:
        return
    rows = [(s, y, wi) for (s, y), wi in zip(pairs, w, strict=True)]
    positives = sum(wi for _, y, wi in rows if y)
    negatives = sum(wi for _, y, wi in rows if not y)
    data = make_dataset(
        [s for s, _ in pairs],
        [bool(y) for _, y in pairs],
        weights=None if weights is None else [float(x) for x in w],
    )
    got = risk_coverage(curves_for(data).sweep)
    if positives == 0 or negatives == 0:  # one class: review all, or decide all rightly
        assert [(b.decided, b.errors) for b in got] == [(0, 0), (positives + negatives, 0)]
    every = _pairs(rows)
    hull = _lower_hull(set(every.values()))
    # Each band is what its thresholds make, counted from the rows.
    for b in got:
        assert (b.decided, b.errors) == every[(b.t_high, b.t_low)]
        assert b.index_high <= b.index_low
    said = [(b.decided, b.errors) for b in got]
    # From reviewing everything to the fewest errors with every row decided, decided
    # rising, each on the hull, and every hull vertex among them.
    assert said[0] == (0, 0) and said[-1] == hull[-1]
    assert all(a[0] < b[0] for a, b in pairwise(said))
    assert all(_on_hull(p, hull) for p in said)
    assert set(hull) <= set(said)
    first, last = got[0], got[-1]
    assert first.risk().value is None and last.coverage().exact == 1
    assert last.risk().exact == Fraction(hull[-1][1], hull[-1][0])
    assert frontier_lines(got)[0].startswith(f"Risk-coverage frontier: {len(got)} bands")


def _staircase(
    every: dict[tuple[float | None, float | None], tuple[Fraction, Fraction]],
    grain: Fraction | None = None,
) -> list[tuple[Fraction, Fraction]]:
    """(decided, errors) of the best band at every coverage, from every pair: for each
    error count the most rows decided with at most that many, kept where it rises;
    with a ``grain``, values within it of each other counted as one (as sums of
    fractional weights are compared)."""

    def q(x: Fraction) -> Fraction:
        return x if grain is None else Fraction(round(x / grain))

    out: list[tuple[Fraction, Fraction]] = []
    for e in sorted({q(e) for _, e in every.values()}):
        most = max(q(d) for d, x in every.values() if q(x) <= e)
        if not out or most > q(out[-1][0]):
            d, x = max(
                ((d, x) for d, x in every.values() if q(x) <= e and q(d) == most),
                key=lambda v: (-v[1], v[0]),
            )
            out.append((d, x))
    return out


fractional_weights = st.lists(
    st.sampled_from([0.0, 0.5, 1.25, 2.0, 3.75]), min_size=40, max_size=40
)


@settings(max_examples=400, deadline=None)
@given(rows_strategy, weights_strategy | fractional_weights, st.sampled_from([1, 3, 10**9]))
def test_the_steps_are_the_best_band_at_every_coverage(
    pairs: list[tuple[float, int]], weights: list[float] | None, block: int
) -> None:
    """Equal to every pair counted from the rows (in fractions), ties, whole and
    fractional weights (the sorted path, a block of any size); each band is what its
    thresholds make, and no band with its errors or fewer decides more."""
    w = [1.0] * len(pairs) if weights is None else [float(x) for x in weights[: len(pairs)]]
    if sum(w) == 0:
        return
    rows = [(s, y, Fraction(wi)) for (s, y), wi in zip(pairs, w, strict=True)]
    data = make_dataset(
        [s for s, _ in pairs], [bool(y) for _, y in pairs], weights=None if weights is None else w
    )
    sweep = curves_for(data).sweep
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(risk_coverage_module, "_BLOCK_PAIRS", block)
        got = risk_coverage_steps(sweep)
    # Counted in fractions: the weights are Fractions here.
    every = cast(dict[Any, tuple[Fraction, Fraction]], _pairs(rows))  # type: ignore[arg-type]
    assert got.reason is None and got.as_json() is not None
    said = [(Fraction(b.decided), Fraction(b.errors)) for b in got.bands]
    assert said == _staircase(every)
    for b in got.bands:
        assert every[(b.t_high, b.t_low)] == (Fraction(b.decided), Fraction(b.errors))
        assert b.index_high <= b.index_low
    # The frontier's corners are steps too, and the last step is the best threshold.
    corners = {(Fraction(b.decided), Fraction(b.errors)) for b in risk_coverage(sweep)}
    assert corners - {(0, 0)} <= set(said)
    assert said[-1][0] == sum(wi for _, _, wi in rows)


def test_the_steps_are_left_out_past_their_budget() -> None:
    rng = np.random.default_rng(4)
    y = rng.random(400) < 0.5
    s = rng.random(400) + 0.3 * y
    sweep = curves_for(make_dataset(s, y)).sweep
    full = risk_coverage_steps(sweep)
    assert full.reason is None and full.pairs is not None and full.pairs > 1000
    cut = risk_coverage_steps(sweep, pairs=1000)
    assert cut.bands == () and cut.as_json() is None and len(cut) == 0
    assert cut.reason is not None
    assert cut.reason.startswith(f"{full.pairs:,} pairs of an accepted and a rejected side")
    with pytest.raises(ValueError, match=r"left out: .* pairs of an accepted"):
        cut.at(200)
    # The best band deciding at least a number of rows (or a share of them): the first
    # step that does; none past every row.
    b = full.at(200)
    assert b.decided >= 200 and b is full.at(coverage=0.5)
    assert all(x.decided < 200 or x is b for x in full.bands[: full.bands.index(b) + 1])
    assert list(full) == list(full.bands) and full[-1] is full.bands[-1]
    assert len(full) == len(full.bands)
    wrongs: list[tuple[dict[str, float], str]] = [
        ({"decided": 401}, "no band decides 401 rows: there are 400"),
        ({"coverage": 1.5}, "not a share from 0 to 1"),
        ({}, "give decided= .* or coverage="),
        ({"decided": 3, "coverage": 0.5}, "give decided= .* or coverage="),
    ]
    for wrong, said in wrongs:
        with pytest.raises(ValueError, match=said):
            full.at(**wrong)

    # Past the points it scans, with more errors than the sides allowed, it does not
    # count the pairs, and says the errors and the points.
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(risk_coverage_module, "STEP_SCAN", 10)
        unscanned = risk_coverage_steps(sweep, sides=5)
    assert unscanned.pairs is None and unscanned.bands == () and unscanned.reason is not None
    best = full.bands[-1].errors
    assert unscanned.reason.startswith(f"{best:,} errors at the best single threshold, over ")


def test_whole_weights_past_an_array_per_error_count_are_sorted() -> None:
    """Whole weights can make more errors than rows: past the array's size the pairs
    are sorted instead, with the same steps as counting every pair."""
    pairs = [(0.9, 1), (0.8, 0), (0.8, 1), (0.5, 0), (0.3, 1), (0.2, 0), (0.1, 1)]
    w = [3_000_000, 5_000_000, 1, 2_000_000, 7_000_000, 4_000_000, 6_000_000]
    rows = [(s, y, Fraction(wi)) for (s, y), wi in zip(pairs, w, strict=True)]
    data = make_dataset([s for s, _ in pairs], [bool(y) for _, y in pairs], weights=w)
    got = risk_coverage_steps(curves_for(data).sweep)
    assert got.bands[-1].errors > 1 << 22  # the best single threshold's errors
    every = cast(dict[Any, tuple[Fraction, Fraction]], _pairs(rows))  # type: ignore[arg-type]
    said = [(Fraction(b.decided), Fraction(b.errors)) for b in got.bands]
    assert said == _staircase(every)


@settings(max_examples=200, deadline=None)
@given(
    rows_strategy,
    st.lists(st.sampled_from([0.1, 0.5, 1.25, 2.0, 3.7, 0.3]), min_size=40, max_size=40),
)
def test_fractional_weights_make_no_steps_of_rounding(
    pairs: list[tuple[float, int]], weights: list[float]
) -> None:
    """Weights whose sums round (0.1, 0.3, 3.7): the same steps as every pair counted
    in exact fractions, each within rounding of its exact (decided, errors); no step
    that decides more only in its last bits, and no side of -0 rows."""
    w = weights[: len(pairs)]
    rows = [(s, y, Fraction(wi)) for (s, y), wi in zip(pairs, w, strict=True)]
    if not any(y for _, y, _ in rows) or all(y for _, y, _ in rows):
        return
    data = make_dataset([s for s, _ in pairs], [bool(y) for _, y in pairs], weights=w)
    got = risk_coverage_steps(curves_for(data).sweep)
    every = cast(dict[Any, tuple[Fraction, Fraction]], _pairs(rows))  # type: ignore[arg-type]
    # Exact sums of these doubles differ where the doubles' own sums round (three
    # 0.1s are not 0.3): counted on the grid the steps are compared on.
    total = sum((wi for _, _, wi in rows), Fraction(0))
    want = _staircase(every, total / 2**40)
    assert len(got.bands) == len(want)
    for b, (d, e) in zip(got.bands, want, strict=True):
        assert abs(float(b.decided) - float(d)) <= 1e-9 * float(d + 1)
        assert abs(float(b.errors) - float(e)) <= 1e-9 * float(e + 1)
        assert float(b.rejected) >= 0 and float(b.accepted) >= 0
