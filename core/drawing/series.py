"""Metrics against the threshold as step functions of the exact sweep, sampled at the
columns a chart has: each sample is the sweep point a threshold there would choose."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.decide.values import float_values
from threshold_lab.core.metrics.formulas import Cells

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]


def steps(ts: FloatArray, lo: float, hi: float, cols: int) -> tuple[FloatArray, IndexArray]:
    """Where to draw the step functions: (x in 0..1, sweep point) pairs. Each point k
    holds for thresholds from the next lower score up to its own; with few points
    both ends of each step are drawn, so every riser stands at its own score; with
    more than the canvas can tell apart, the exact step function is read at each
    half column."""
    m = ts.size
    span = (hi - lo) or 1.0
    if m <= 2 * cols:
        k = np.arange(1, m + 1)
        right = (ts - lo) / span  # point k's own score
        left = np.append((ts[1:] - lo) / span, 0.0)  # the next lower score
        xs = np.empty(2 * m)
        xs[0::2], xs[1::2] = right, left
        ks = np.repeat(k, 2)
        return xs[::-1].copy(), ks[::-1].copy()
    xs = np.linspace(0.0, 1.0, 4 * cols)
    ascending = ts[::-1]
    ks = m - np.searchsorted(ascending, lo + xs * span, side="left")
    return xs, np.maximum(ks, 1).astype(np.intp)


def metric_series(
    sweep: Sweep, beta: float, names: Sequence[str], cols: int
) -> tuple[FloatArray, dict[str, FloatArray]]:
    """Each metric of ``names`` at the sweep points :func:`steps` picks for ``cols``
    columns, as floats (NaN where undefined), over x in 0..1 (the lowest score to the
    highest)."""
    ts = sweep.thresholds
    lo, hi = (float(ts[-1]), float(ts[0])) if ts.size else (0.0, 1.0)
    if not ts.size:
        return np.zeros(0), {name: np.zeros(0) for name in names}
    xs, ks = steps(ts, lo, hi, cols)
    cells = Cells(sweep.tp[ks], sweep.fp[ks], pos=np.float64(float(sweep.positives)),
                  neg=np.float64(float(sweep.negatives)))  # fmt: skip
    return xs, {name: float_values(name, cells, beta) for name in names}
