"""Curves on non-linear axes: the DET curve on probit axes, and ROC with FPR on a log scale.

Both are drawn on the unit square like the other charts: each axis is a
:class:`Scale` that maps a rate to [0, 1] and names its ticks. A point whose rate
has no place on an axis (0 or 1 on a probit axis) is left out and counted; FPR 0 on
the log axis sits on the axis itself (its own tick, "0"), and a rate below the
axis's smallest decade is drawn at that decade and counted.

The ROC curve is a polyline in linear FPR: on the log axis each of its segments bows
(TPR grows linearly in FPR, so exponentially in log FPR). The log-FPR line is drawn
through places a few to a braille column along each segment, each read off the
segment in linear FPR, so the drawn line reads at any FPR, to a braille dot, what the
ROC polyline (and the report's interpolated readout) gives there.

The curve is thinned before any transform is worked out: both rates are monotone
along the sweep, so the first point past each of a few thousand fine cells of either
axis (found by binary search on the counts) and the point before it keep every cell
the curve passes through; only those few points are transformed. A ten-million-point
sweep costs O(columns · log n), never a pass over its points.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt
from threshold_lab.core.curves.det import det_span, normal_cdf, placeable_run, probit
from threshold_lab.core.curves.reduce import reduce_curve
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.drawing.lines import CurveLine, Rates

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]

#: The DET chart's ticks, in the order they are kept when rows are few: the seven
#: usual ones (0.1% to 95%) first, then the far ends a wider range reaches.
PROBIT_TICKS: tuple[tuple[float, str], ...] = (
    (0.5, "50%"),
    (0.05, "5%"),
    (0.95, "95%"),
    (0.01, "1%"),
    (0.2, "20%"),
    (0.8, "80%"),
    (0.001, "0.1%"),
    (0.99, "99%"),
    (0.999, "99.9%"),
    (0.0001, "0.01%"),
    (0.9999, "99.99%"),
)
#: The probit axis runs from 0.1% to 99.9%, or from 0.01% to 99.99% when a point needs it.
PROBIT_EDGES = (0.001, 0.0001)
#: The log axis's decades: down to 10^-6 at most.
MOST_DECADES = 6
#: Where 10^-d sits on the log axis, leaving FPR 0 its own place at the axis.
LOG_GAP = 0.08
#: Fine cells an axis is cut into per column when the curve is thinned.
FINE = 8
#: Places per column at which a segment of the log-FPR line is read (a braille
#: column holds two dots): between them it is drawn straight.
BOW = 4


@dataclass(frozen=True)
class Scale:
    """One axis: ``kind`` ``probit`` (from ``edge`` to 1 − ``edge``), ``log`` (from
    10^-``decades`` to 1, with 0 at the axis) or ``linear`` (0 to 1)."""

    kind: Literal["probit", "log", "linear"]
    edge: float = 0.001
    decades: int = 1

    def unit(self, rate: npt.ArrayLike) -> FloatArray:
        """Where each rate falls on [0, 1] (clipped to the axis's range)."""
        r = np.asarray(rate, dtype=np.float64)
        if self.kind == "linear":
            return np.clip(r, 0.0, 1.0)
        if self.kind == "probit":
            lo = float(probit(self.edge))
            z = probit(np.clip(r, self.edge, 1 - self.edge))
            return np.clip((z - lo) / (-2 * lo), 0.0, 1.0)
        d = self.decades
        with np.errstate(divide="ignore"):
            logs = np.log10(np.clip(r, 10.0**-d, 1.0))
        u = LOG_GAP + (1 - LOG_GAP) * (logs + d) / d
        return np.where(r > 0, np.clip(u, LOG_GAP, 1.0), 0.0)

    def rate(self, unit: npt.ArrayLike) -> FloatArray:
        """The rate at each place on [0, 1] (the inverse of :meth:`unit` inside the
        range; the log axis's places below its first decade give 0)."""
        u = np.asarray(unit, dtype=np.float64)
        if self.kind == "linear":
            return u
        if self.kind == "probit":
            lo = float(probit(self.edge))
            return normal_cdf(lo + u * (-2 * lo))
        d = self.decades
        return np.where(u >= LOG_GAP, 10.0 ** ((u - LOG_GAP) / (1 - LOG_GAP) * d - d), 0.0)

    @property
    def ends(self) -> str:
        """Where the axis stops, as its ticks write it: ``0.01% and 99.99%``, ``1e-6``."""
        if self.kind == "probit":
            label = dict(PROBIT_TICKS)
            return f"{label[self.edge]} and {label[1 - self.edge]}"
        if self.kind == "log":
            return _decade(self.decades)
        return "0 and 1"

    def candidates(self) -> tuple[tuple[float, str], ...]:
        """Every tick this axis may show, (rate, label), the most wanted first."""
        if self.kind == "probit":
            return tuple((r, t) for r, t in PROBIT_TICKS if self.edge <= r <= 1 - self.edge)
        if self.kind == "log":
            decades = [(10.0**-k, _decade(k)) for k in range(1, self.decades + 1)]
            return ((1.0, "1"), (0.0, "0"), *decades)
        return ()  # a linear axis takes the chart's own quarters

    def ticks(
        self, cells: int, least_apart: int, *, across: bool = False
    ) -> tuple[tuple[float, str], ...]:
        """The ticks to label on an axis of ``cells`` cells, as (place on [0, 1],
        label), in place order: the most wanted first, each kept when it is at least
        ``least_apart`` cells from every one kept (and, for labels written ``across``
        the axis, half of both labels' widths and a space)."""
        kept: list[tuple[int, float, str]] = []
        for rate, label in self.candidates():
            u = float(self.unit(rate))
            cell = cell_of(u, cells)
            if all(abs(cell - c) >= _apart(label, t, least_apart, across) for c, _, t in kept):
                kept.append((cell, u, label))
        return tuple((u, label) for _, u, label in sorted(kept))


def _first(holds: Callable[[int], bool], lo: int, hi: int) -> int:
    """The first k in ``lo .. hi − 1`` where ``holds`` (false, then true for good), or
    ``hi``: a binary search."""
    while lo < hi:
        mid = (lo + hi) // 2
        if holds(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


def cell_of(value: float, cells: int) -> int:
    """The cell plotext gives ``value`` in [0, 1] on an axis of ``cells`` cells (its
    own rounding: floor of 0.5 + (cells - 1) * value, rounded to 8 places)."""
    return math.floor(round(0.5 + (cells - 1) * value, 8))


def _apart(a: str, b: str, least: int, across: bool) -> int:
    """Cells two ticks labelled ``a`` and ``b`` need between them."""
    return max(least, (len(a) + len(b)) // 2 + 1 if across else 0)


def _decade(k: int) -> str:
    return f"{10.0**-k:.{k}f}" if k <= 3 else f"1e-{k}"


@dataclass(frozen=True, eq=False)
class _Placed:
    """The sweep read as a rank: a point in ``range(start, stop)`` is on the curve at
    its own index, any other point is not (-1)."""

    start: int
    stop: int
    n: int

    def __getitem__(self, point: int) -> int:
        if not -self.n <= point < self.n:
            raise IndexError(point)
        p = point % self.n
        return p if self.start <= p < self.stop else -1

    def __len__(self) -> int:
        return self.n


@dataclass(frozen=True, eq=False)
class _OnScale:
    """A rate read at the indices asked for, already placed on its axis (only the
    points drawn are ever transformed)."""

    rates: Rates
    scale: Scale
    complement: bool = False

    def __getitem__(self, index: int | IndexArray) -> FloatArray:
        r = self.rates[index]
        return self.scale.unit(1 - r if self.complement else r)

    def __len__(self) -> int:
        return len(self.rates)


@dataclass(frozen=True, eq=False)
class ScaledLine(CurveLine):
    """A curve on scaled axes: :class:`CurveLine` (``x``/``y`` read on [0, 1] through
    the scales), with the axes and what could not be placed.

    Attributes
    ----------
    xscale, yscale : the axes
    points : the curve's points (DET: scikit-learn's ``det_curve`` points; log ROC:
        every sweep point, the above-all one included)
    left_out : points with no place on the axes (a rate of 0 or 1 on a probit axis)
    on_axis : points at FPR 0, drawn on the log axis's own "0"
    beyond : placeable points past the axis's end, drawn at the end
    bowed : the polyline drawn when the segments between the drawn points are not
        straight on these axes (log ROC: straight in linear FPR), else None
    """

    xscale: Scale = Scale("linear")
    yscale: Scale = Scale("linear")
    points: int = 0
    left_out: int = 0
    on_axis: int = 0
    beyond: int = 0
    bowed: tuple[FloatArray, FloatArray] | None = None

    def path(self) -> tuple[FloatArray, FloatArray]:
        """The polyline drawn, (x, y) on the unit square: on the log FPR axis, each
        segment as it is in linear FPR, read at :data:`BOW` places a column."""
        return self.bowed if self.bowed is not None else super().path()


def _thin(
    sweep: Sweep, xs: Scale, ys: Scale, start: int, stop: int, columns: int, *, fnr: bool
) -> IndexArray:
    """The sweep points in ``range(start, stop)`` that keep every fine cell the curve
    passes through: for each fine boundary of either axis, the first point past it
    and the one before. FP and TP are non-decreasing along the sweep, so a binary
    search finds each."""
    if stop <= start:
        return np.zeros(0, dtype=np.intp)
    fine = np.linspace(0.0, 1.0, FINE * max(columns, 2) + 1)[1:-1]
    n, p = float(sweep.negatives), float(sweep.positives)
    fp_at = xs.rate(fine) * n
    tpr_at = ys.rate(fine)
    tp_at = (1 - tpr_at) * p if fnr else tpr_at * p
    found = np.concatenate(
        (
            np.searchsorted(sweep.fp[start:stop], fp_at, side="left"),
            np.searchsorted(sweep.tp[start:stop], tp_at, side="left"),
            np.searchsorted(sweep.tp[start:stop], tp_at, side="right"),
        )
    )
    near = np.concatenate((found, found - 1, [0, stop - start - 1]))
    near = near[(near >= 0) & (near < stop - start)]
    return np.unique(near).astype(np.intp) + start


def _reduced(line_x: _OnScale, line_y: _OnScale, keep: IndexArray, columns: int) -> IndexArray:
    if keep.size == 0:
        return keep
    xs, ys = line_x[keep], line_y[keep]
    return keep[reduce_curve(xs, ys, columns=columns)]


def det_line(sweep: Sweep, *, columns: int) -> ScaledLine | None:
    """The DET curve (FNR against FPR, both on probit axes) reduced to ``columns``
    columns; None without both classes."""
    n, p = sweep.negatives, sweep.positives
    if not n or not p:
        return None
    fp, tp = sweep.fp, sweep.tp
    first, stop = det_span(sweep)
    a, b = placeable_run(sweep)
    a, b = max(a, first), min(b, stop)
    edge = PROBIT_EDGES[0]
    extremes: list[float] = []
    if b > a:
        nf, pf = float(n), float(p)
        extremes = [
            float(fp[a]) / nf,
            float(fp[b - 1]) / nf,
            1 - float(tp[a]) / pf,
            1 - float(tp[b - 1]) / pf,
        ]
        if any(r < edge or r > 1 - edge for r in extremes):
            edge = PROBIT_EDGES[1]
    scale = Scale("probit", edge=edge)
    beyond = 0
    if b > a:
        nf, pf = float(n), float(p)

        def fpr(k: int) -> float:
            return float(fp[k]) / nf

        def fnr(k: int) -> float:  # as the y axis reads it: 1 − TPR
            return 1 - float(tp[k]) / pf

        # Points past the range (drawn at its edge), read in rates as the axes clip
        # them: a low FPR or a high FNR (few predicted positive) is a run at the start,
        # a high FPR or a low FNR one at the end, so the points past it on either axis
        # are the longer run of each pair.
        start = (
            max(_first(lambda k: fpr(k) >= edge, a, b), _first(lambda k: fnr(k) <= 1 - edge, a, b))
            - a
        )
        end = b - min(
            _first(lambda k: fpr(k) > 1 - edge, a, b), _first(lambda k: fnr(k) < edge, a, b)
        )
        beyond = min(start + end, b - a)
    x = _OnScale(Rates(fp, float(n)), scale)
    y = _OnScale(Rates(tp, float(p)), scale, complement=True)
    keep = _thin(sweep, scale, scale, a, b, columns, fnr=True)
    return ScaledLine(
        x,
        y,
        _reduced(x, y, keep, columns),
        _Placed(a, b, sweep.size),
        xscale=scale,
        yscale=scale,
        points=stop - first,
        left_out=stop - first - max(b - a, 0),
        beyond=beyond,
    )


def bowed_path(
    fpr: FloatArray, tpr: FloatArray, scale: Scale, columns: int
) -> tuple[FloatArray, FloatArray]:
    """The polyline through the points (``fpr``, ``tpr``), rates in sweep order, as
    drawn on the log FPR axis ``scale`` over ``columns`` columns: at each of
    :data:`BOW` places a column that falls strictly inside a segment (FPR from 10^-d
    on), a point of the segment read in linear FPR; then every place on the unit
    square.

    >>> xs, ys = bowed_path(np.array([0.0, 0.5]), np.array([1 / 3, 2 / 3]),
    ...                     Scale("log", decades=2), 12)
    >>> round(float(np.interp(LOG_GAP, xs, ys)), 6)  # FPR 0.01: 1/3 + 2/3 · 0.01
    0.34
    """
    grid = scale.rate(np.linspace(LOG_GAP, 1.0, BOW * max(columns, 2) + 1))
    k = np.searchsorted(fpr, grid, side="right") - 1  # the last point at or before
    inside = (k >= 0) & (k < fpr.shape[0] - 1)
    k, grid = k[inside], grid[inside]
    strict = fpr[k] < grid
    k, grid = k[strict], grid[strict]
    f0, f1, t0, t1 = fpr[k], fpr[k + 1], tpr[k], tpr[k + 1]
    read = t0 + (t1 - t0) * (grid - f0) / (f1 - f0)
    # Each read point goes after its segment's first point, in FPR order.
    after = np.concatenate((np.arange(fpr.shape[0], dtype=np.float64), k + 0.5))
    rates = np.concatenate((fpr, grid))
    order = np.lexsort((rates, after))
    return scale.unit(rates[order]), np.concatenate((tpr, read))[order]


def log_roc_line(sweep: Sweep, *, columns: int) -> ScaledLine | None:
    """The ROC curve with FPR on a log scale (TPR linear), reduced to ``columns``
    columns; None without both classes. The axis's decades reach the smallest FPR
    above 0 (10^-2 at least, 10^-6 at most)."""
    n, p = sweep.negatives, sweep.positives
    if not n or not p:
        return None
    fp = sweep.fp
    zero = int(np.searchsorted(fp, 0, side="right"))  # points at FPR 0
    smallest = float(fp[zero]) / float(n) if zero < sweep.size else 1.0
    decades = min(max(2, math.ceil(-math.log10(smallest) - 1e-12)), MOST_DECADES)
    scale = Scale("log", decades=decades)
    beyond = int(np.searchsorted(fp, float(n) * 10.0**-decades, side="left")) - zero
    x = _OnScale(Rates(fp, float(n)), scale)
    y = _OnScale(Rates(sweep.tp, float(p)), Scale("linear"))
    keep = _thin(sweep, scale, Scale("linear"), 0, sweep.size, columns, fnr=False)
    drawn = _reduced(x, y, keep, columns)
    fpr, tpr = x.rates[drawn], Rates(sweep.tp, float(p))[drawn]
    return ScaledLine(
        x,
        y,
        drawn,
        _Placed(0, sweep.size, sweep.size),
        xscale=scale,
        yscale=Scale("linear"),
        points=sweep.size,
        on_axis=zero,
        beyond=max(beyond, 0),
        bowed=bowed_path(fpr, tpr, scale, columns),
    )
