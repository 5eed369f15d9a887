"""The risk-coverage frontier against a brute force from the definitions: every pair
of thresholds (each a distinct score or above all) counted from the rows, and the lower
convex hull of (decided, errors) over all of them, in fractions; ties and weights."""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.decide.risk_coverage import frontier_lines, risk_coverage

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
    if positives == 0 or negatives == 0:
        assert got == ()
        return
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
