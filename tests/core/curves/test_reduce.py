"""The reduced curve keeps every column's extremes, the endpoints and the kept points."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
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
