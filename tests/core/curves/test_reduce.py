"""The reduced curve keeps every column's extremes, the endpoints and the kept points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.curves import reduce
from threshold_lab.core.curves.reduce import collinear_interior, reduce_curve
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset


def test_small_curves_are_untouched() -> None:
    x = np.arange(50)
    assert reduce_curve(x, x**2, columns=20).tolist() == list(range(50))


def test_collinear_points_are_exact_on_counts() -> None:
    # FP, TP of a sweep: a run of negatives is one straight segment
    fp = np.array([0, 0, 1, 2, 3, 3, 4])
    tp = np.array([0, 1, 1, 1, 1, 2, 2])
    assert collinear_interior(fp, tp).tolist() == [False, False, True, True, False, False, False]


@settings(max_examples=60, deadline=None)
@given(
    st.integers(500, 20_000),
    st.integers(10, 120),
    st.integers(0, 10**6),
)
def test_reduction_keeps_extremes_per_column_and_kept_points(n, columns, seed) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(loc=y * 1.0), 2)
    sweep = build_sweep(make_dataset(s, y))
    fp, tp = np.asarray(sweep.fp), np.asarray(sweep.tp)
    k = int(rng.integers(0, sweep.size))
    idx = reduce_curve(fp, tp, columns=columns, keep=[k - 1, k, k + 1])
    m = sweep.size
    assert idx[0] == 0 and idx[-1] == m - 1 and k in idx
    assert np.all(np.diff(idx) > 0)
    if m > 4 * columns:
        assert idx.shape[0] <= 4 * columns + 8
    # Dropping collinear points loses nothing: each lies on the segment between the
    # nearest points that are not collinear (exact, in integer counts).
    straight = collinear_interior(fp, tp)
    corners = np.flatnonzero(~straight)
    for i in np.flatnonzero(straight):
        a = corners[np.searchsorted(corners, i) - 1]
        b = corners[np.searchsorted(corners, i)]
        assert (fp[i] - fp[a]) * (tp[b] - tp[a]) == (tp[i] - tp[a]) * (fp[b] - fp[a])
    # Among the corners, every x-column keeps its lowest and highest TP.
    col = np.minimum((fp / max(fp[-1], 1) * columns).astype(int), columns - 1)
    kept = np.zeros(m, dtype=bool)
    kept[idx] = True
    for c in np.unique(col[corners]):
        here = corners[col[corners] == c]
        assert tp[here].max() == tp[here[kept[here]]].max()
        assert tp[here].min() == tp[here[kept[here]]].min()


def _whole_array_reduce(
    x: npt.NDArray[Any], y: npt.NDArray[Any], *, columns: int, keep: Sequence[int] = ()
) -> npt.NDArray[np.intp]:
    """The reduction as it was before it went a block at a time: every
    temporary a whole array. The oracle for the blocked one's output."""
    m = x.shape[0]
    must = {0, m - 1, *(k for k in keep if 0 <= k < m)}
    if m <= 4 * columns:
        return np.arange(m, dtype=np.intp)
    survivors = np.flatnonzero(~collinear_interior(x, y))
    if survivors.shape[0] > 4 * columns:
        xs, ys = x[survivors].astype(np.float64), y[survivors]
        span = float(xs[-1] - xs[0]) or 1.0
        bucket = np.minimum(((xs - xs[0]) / span * columns).astype(np.intp), columns - 1)
        starts = np.flatnonzero(np.r_[True, bucket[1:] != bucket[:-1]])
        ends = np.r_[starts[1:] - 1, bucket.shape[0] - 1]
        group = np.repeat(np.arange(starts.shape[0]), np.diff(np.r_[starts, bucket.shape[0]]))
        extremes = [starts, ends]
        for reduce in (np.minimum, np.maximum):
            hits = np.flatnonzero(ys == reduce.reduceat(ys, starts)[group])
            _, first = np.unique(group[hits], return_index=True)
            extremes.append(hits[first])
        survivors = survivors[np.unique(np.concatenate(extremes))]
    return np.unique(np.concatenate((survivors, np.fromiter(must, dtype=np.intp))))


@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 3000),
    st.integers(1, 40),
    st.integers(0, 10**6),
    st.sampled_from([1, 2, 3, 17, 1 << 16]),
    st.booleans(),
    st.booleans(),
)
def test_the_blocked_reduction_keeps_the_points_the_whole_array_one_kept(
    n: int, columns: int, seed: int, block: int, rounded: bool, weighted: bool
) -> None:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < rng.uniform(0.05, 0.95)
    s = rng.normal(loc=y * 1.0)
    if rounded:
        s = np.round(s, 1)
    # Whole weights, zero among them: groups of no weight repeat a point.
    w = rng.integers(0, 3, n).astype(np.float64) if weighted else None
    if w is not None:
        w[0] = 1.0
    sweep = build_sweep(make_dataset(s, y, weights=w))
    k = int(rng.integers(0, sweep.size))
    fp, tp = np.asarray(sweep.fp), np.asarray(sweep.tp)
    first = int(np.flatnonzero(tp + fp)[0])
    recall = tp[first:] / float(sweep.positives or 1)
    precision = tp[first:] / (tp[first:] + fp[first:])
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reduce, "BLOCK", block)
        for xs, ys, rising in (
            (fp, tp, False),
            (fp, tp, True),  # ROC: both axes rise
            (tp + fp, tp, True),  # gains
            (recall, precision, False),
            (fp / float(fp[-1] or 1), tp / float(tp[-1] or 1), True),  # ROC in rates
        ):
            got = reduce_curve(xs, ys, columns=columns, keep=[k], rising=rising)
            want = _whole_array_reduce(xs, ys, columns=columns, keep=[k])
            assert got.tolist() == want.tolist()


class _Counted:
    """An axis that counts the points read from it."""

    def __init__(self, values: npt.NDArray[Any]) -> None:
        self.values, self.read = values, 0

    def __len__(self) -> int:
        return int(self.values.shape[0])

    def __getitem__(self, index: Any) -> Any:
        got = self.values[index]
        self.read += int(np.size(got))
        return got


def _runs(kinds: Sequence[tuple[str, int]]) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """FP and TP of a curve made of runs: ``up`` (positives alone: vertical), ``right``
    (negatives alone: horizontal), ``diagonal`` (one of each a step), ``mixed``
    (random steps, corners everywhere)."""
    steps: list[tuple[int, int]] = [(0, 0)]
    rng = np.random.default_rng(len(kinds))
    for kind, n in kinds:
        if kind == "up":
            steps += [(0, 1)] * n
        elif kind == "right":
            steps += [(1, 0)] * n
        elif kind == "diagonal":
            steps += [(1, 1)] * n
        else:
            steps += [(int(a), int(b)) for a, b in rng.integers(0, 3, (n, 2)) if a or b]
    d = np.asarray(steps, dtype=np.int64)
    return np.cumsum(d[:, 0]), np.cumsum(d[:, 1])


SHAPES = st.lists(
    st.tuples(st.sampled_from(["up", "right", "diagonal", "mixed"]), st.integers(1, 3000)),
    min_size=1,
    max_size=6,
)


@settings(max_examples=150, deadline=None)
@given(SHAPES, st.integers(1, 60), st.sampled_from([3, 64, 1 << 16]))
def test_straight_runs_reduce_as_the_whole_array_reduction_does(
    shape: list[tuple[str, int]], columns: int, block: int
) -> None:
    fp, tp = _runs(shape)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reduce, "BLOCK", block)
        for rising in (False, True):
            got = reduce_curve(fp, tp, columns=columns, keep=[len(fp) // 2], rising=rising)
            want = _whole_array_reduce(fp, tp, columns=columns, keep=[len(fp) // 2])
            assert got.tolist() == want.tolist()


@pytest.mark.parametrize(
    "shape",
    [
        [("mixed", 2000), ("right", 200_000), ("up", 200_000), ("mixed", 2000)],  # two runs
        [("diagonal", 400_000)],  # straight from end to end
        [("up", 200_000), ("right", 200_000)],  # perfectly separated
        [("mixed", 400_000)],  # corners everywhere
    ],
)
def test_a_rising_reduction_reads_each_point_a_bounded_number_of_times(
    shape: list[tuple[str, int]],
) -> None:
    # Every bucket inside a long straight run once scanned to the run's end: the points
    # read grew as the columns times the run. The run is read once now.
    fp, tp = _runs(shape)
    m = fp.shape[0]
    for columns in (50, 2500):
        x, y = _Counted(fp), _Counted(tp)
        reduce_curve(x, y, columns=columns, rising=True)
        assert x.read + y.read <= 12 * m + 400 * columns
