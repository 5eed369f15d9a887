"""Metrics against the threshold as step functions of the exact sweep, sampled at the
columns a chart has: each sample is the sweep point a threshold there would choose."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.decide.values import float_values
from threshold_lab.core.metrics.formulas import Cells

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]


def steps(ts: FloatArray, lo: float, hi: float, cols: int) -> tuple[FloatArray, IndexArray]:
    """Where to draw the step functions on an axis from ``lo`` to ``hi``: (x in 0..1,
    sweep point) pairs. Point k holds for thresholds from the next lower score up to
    its own; below the lowest score every row is predicted positive (the last point),
    above the highest none is (point 0, above all). With few points both ends of each
    step are drawn, so every riser stands at its own score; with more than the canvas
    can tell apart, the exact step function is read at each quarter column."""
    m = ts.size
    span = (hi - lo) or 1.0
    if m <= 2 * cols:
        k = np.arange(1, m + 1)
        right = (ts - lo) / span  # point k's own score
        left = np.append((ts[1:] - lo) / span, 0.0)  # the next lower score
        xs = np.empty(2 * m)
        xs[0::2], xs[1::2] = right, left
        ks = np.repeat(k, 2)
        xs, ks = xs[::-1].copy(), ks[::-1].copy()
        if m and ts[0] < hi:  # the axis runs on above the highest score: above all
            xs = np.append(xs, [xs[-1], 1.0])
            ks = np.append(ks, [0, 0])
        return xs, ks.astype(np.intp)
    xs = np.linspace(0.0, 1.0, 4 * cols)
    ascending = ts[::-1]
    ks = m - np.searchsorted(ascending, lo + xs * span, side="left")
    return xs, ks.astype(np.intp)


def metric_series(
    sweep: Sweep,
    beta: float,
    names: Sequence[str],
    cols: int,
    span: tuple[float, float] | None = None,
) -> tuple[FloatArray, dict[str, FloatArray]]:
    """Each metric of ``names`` at the sweep points :func:`steps` picks for ``cols``
    columns, as floats (NaN where undefined), over x in 0..1: the axis ``span`` (the
    lowest score to the highest when not given)."""
    ts = sweep.thresholds
    if not ts.size:
        return np.zeros(0), {name: np.zeros(0) for name in names}
    lo, hi = span if span is not None else (float(ts[-1]), float(ts[0]))
    xs, ks = steps(ts, lo, hi, cols)
    cells = Cells(
        sweep.tp[ks],
        sweep.fp[ks],
        pos=np.float64(float(sweep.positives)),
        neg=np.float64(float(sweep.negatives)),
    )
    return xs, {name: float_values(name, cells, beta) for name in names}


@dataclass(frozen=True)
class ScoreAxis:
    """A threshold axis from ``lo`` to ``hi`` in ``parts`` equal steps of ``step``, each
    a round number (1, 2, 2.5 or 5 times a power of ten), so every tick is a round
    score; ``decimals`` writes them all alike."""

    lo: float
    hi: float
    parts: int
    step: float
    decimals: int

    def label(self, i: int) -> str:
        """Tick ``i`` (0 to ``parts``) as written: ``0.25``, ``-5.0``, ``1e+06``."""
        value = self.lo + i * self.step
        if value == 0:
            value = 0.0  # never "-0.00"
        text = f"{value:.{self.decimals}f}"
        if len(text) <= 8:
            return text
        # Too wide: the shortest general form that is still the tick's own value (a
        # tick at -999501 read "-1e+06", a step away from where it stood).
        for digits in range(3, 18):
            short = f"{value:.{digits}g}"
            if abs(float(short) - value) <= 1e-9 * self.step:
                return short if len(short) < len(text) else text
        return text


#: The round steps, times a power of ten, an axis may take.
ROUND_STEPS = (1.0, 2.0, 2.5, 5.0)


def score_axis(lo: float, hi: float, most_parts: int) -> ScoreAxis:
    """The round axis covering the scores ``lo`` to ``hi`` with the least room to spare,
    in at most ``most_parts`` steps (fewer when that wastes less). One distinct score
    gets a step of its own size around it.

    >>> a = score_axis(0.03, 0.95, 4)
    >>> a.lo, a.hi, a.parts, [a.label(i) for i in range(a.parts + 1)]
    (0.0, 1.0, 4, ['0.00', '0.25', '0.50', '0.75', '1.00'])
    >>> a = score_axis(-3.2, 5.7, 5)
    >>> a.lo, a.hi, a.parts, a.step
    (-4.0, 6.0, 5, 2.0)
    """
    if hi <= lo:
        size = abs(lo) or 1.0
        unit = 10.0 ** math.floor(math.log10(size))
        lo, hi = lo - unit / 2, hi + unit / 2
    best: ScoreAxis | None = None
    # One step cannot cover scores either side of zero (it would start at -step and
    # end at 0): two always can, so two is tried when one was all that was allowed.
    for parts in range(max(most_parts, 1), 0, -1):
        axis = _round_axis(lo, hi, parts)
        if axis is not None and (
            best is None or axis.hi - axis.lo < (best.hi - best.lo) * (1 - 1e-9)
        ):
            best = axis
    best = best or _round_axis(lo, hi, 2)
    assert best is not None
    return best


def _round_axis(lo: float, hi: float, parts: int) -> ScoreAxis | None:
    """The smallest round step that covers ``lo`` to ``hi`` in ``parts`` steps from a
    multiple of itself, as an axis; None when none near the range's size does."""
    raw = (hi - lo) / parts
    power = math.floor(math.log10(raw)) if raw > 0 else 0
    tol = 1e-12 * max(abs(lo), abs(hi), hi - lo)  # a double's noise in lo / step
    for exponent in range(power, power + 3):
        for mantissa in ROUND_STEPS:
            step = mantissa * 10.0**exponent
            start = math.floor(lo / step + 1e-9) * step
            if start > lo + tol:
                start -= step
            if start + parts * step >= hi - tol:
                decimals = max(0, -exponent + (1 if mantissa == 2.5 else 0))
                return ScoreAxis(start, start + parts * step, parts, step, decimals)
    return None
