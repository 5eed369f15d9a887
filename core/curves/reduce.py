"""Reduce a long curve to what a terminal can draw, keeping its shape and one exact point.

Charts of a 10^7-row sweep cannot plot 10^7 points. Interior points on a
straight segment are dropped first (exactly, from integer counts where
given), then each of ``columns`` x-buckets keeps its first, last, lowest
and highest point, so every step and spike that a column can show survives.
The endpoints and the requested points (the active operating point and its
neighbours) are always kept.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import blocks, shifted

IntArray = npt.NDArray[np.intp]


def collinear_interior(
    x: npt.NDArray[np.number], y: npt.NDArray[np.number]
) -> npt.NDArray[np.bool_]:
    """True for each interior point lying on the line through its two neighbours.

    Exact when ``x`` and ``y`` are integer counts (the sweep's FP and TP).

    >>> collinear_interior(np.array([0, 1, 2, 2]), np.array([0, 1, 2, 3])).tolist()
    [False, True, False, False]
    """
    out = np.zeros(x.shape[0], dtype=bool)
    for b in blocks(1, x.shape[0] - 1):  # interior points, small temporaries
        before, after = shifted(b, -1), shifted(b, 1)
        dx1, dy1 = x[b] - x[before], y[b] - y[before]
        dx2, dy2 = x[after] - x[before], y[after] - y[before]
        out[b] = dx1 * dy2 == dy1 * dx2
    return out


def reduce_curve(
    x: npt.NDArray[np.number],
    y: npt.NDArray[np.number],
    *,
    columns: int,
    keep: Iterable[int] = (),
) -> IntArray:
    """Indices of the points to draw, ascending; all of them when there are few.

    Parameters
    ----------
    x, y : (m,) arrays in drawing order (x non-decreasing, as the sweep is)
    columns : int
        Terminal columns available; at most about four points per column remain.
    keep : indices that must survive (the active point, its tie-group neighbours)

    >>> x = np.arange(10_000); y = np.minimum(x, 5_000)
    >>> reduce_curve(x, y, columns=20, keep=[4_321]).tolist()
    [0, 4321, 5000, 9999]
    """
    m = x.shape[0]
    must = {0, m - 1, *(k for k in keep if 0 <= k < m)}
    if m <= 4 * columns:
        return np.arange(m, dtype=np.intp)
    survivors = np.flatnonzero(~collinear_interior(x, y))
    if survivors.shape[0] > 4 * columns:
        xs, ys = x[survivors].astype(np.float64), y[survivors].astype(np.float64)
        span = float(xs[-1] - xs[0]) or 1.0
        bucket = np.minimum(((xs - xs[0]) / span * columns).astype(np.intp), columns - 1)
        starts = np.flatnonzero(np.r_[True, bucket[1:] != bucket[:-1]])
        ends = np.r_[starts[1:] - 1, bucket.shape[0] - 1]
        group = np.repeat(np.arange(starts.shape[0]), np.diff(np.r_[starts, bucket.shape[0]]))
        extremes = [starts, ends]
        for reduce in (np.minimum, np.maximum):
            hits = np.flatnonzero(ys == reduce.reduceat(ys, starts)[group])
            _, first = np.unique(group[hits], return_index=True)  # first hit per bucket
            extremes.append(hits[first])
        picked = np.unique(np.concatenate(extremes))
        survivors = survivors[picked]
    return np.unique(np.concatenate((survivors, np.fromiter(must, dtype=np.intp))))
