"""The detection error tradeoff (DET) curve: FNR against FPR on normal-deviate axes.

- **Points**: the sweep's own operating points, from the last one with no false
  positives to the first with no false negatives (as scikit-learn's ``det_curve``;
  the points outside add nothing, each only moving along an edge of the chart).
  ``FPR = FP/N``, ``FNR = FN/P = (P − TP)/P``.
- **Probit axes**: a rate r is drawn at Φ⁻¹(r), the standard normal's quantile, so a
  model whose two classes' scores are normal with equal spread is a straight line.
  A rate of 0 or 1 is at −∞ or +∞ and cannot be placed: such points are left out of
  the drawing, and a chart says how many.
- Φ⁻¹ here is Acklam's rational approximation refined by one Halley step with the
  exact ``math.erfc``: within a few units in the last place of scipy's ``ndtri``
  (the tests hold it there). It is for drawing: the rates themselves are exact.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from threshold_lab.core.curves.sweep import Sweep

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

# Acklam's coefficients (central region and tails).
_A = (
    -3.969683028665376e01,
    2.209460984245205e02,
    -2.759285104469687e02,
    1.383577518672690e02,
    -3.066479806614716e01,
    2.506628277459239e00,
)
_B = (
    -5.447609879822406e01,
    1.615858368580409e02,
    -1.556989798598866e02,
    6.680131188771972e01,
    -1.328068155288572e01,
)
_C = (
    -7.784894002430293e-03,
    -3.223964580411365e-01,
    -2.400758277161838e00,
    -2.549732539343734e00,
    4.374664141464968e00,
    2.938163982698783e00,
)
_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00, 3.754408661907416e00)
_LOW = 0.02425


def _poly(coefs: tuple[float, ...], x: FloatArray) -> FloatArray:
    out = np.full_like(x, coefs[0])
    for c in coefs[1:]:
        out = out * x + c
    return out


_erfc = np.frompyfunc(math.erfc, 1, 1)


def probit(p: npt.ArrayLike, *, refine: bool = True) -> FloatArray:
    """Φ⁻¹(p) for each p in (0, 1): the standard normal quantile; −inf at 0, inf at 1,
    NaN outside [0, 1]. ``refine`` False skips the last step (an ``erfc`` a value, in
    Python): within about 1e-9 relative, for a fit over millions of points.

    >>> probit([0.5, 0.975, 0.001]).round(6).tolist()
    [0.0, 1.959964, -3.090232]
    """
    q = np.asarray(p, dtype=np.float64)
    flat = q.reshape(-1)
    out = np.full(flat.shape, np.nan)
    inside = (flat > 0) & (flat < 1)
    out[flat == 0] = -np.inf
    out[flat == 1] = np.inf
    x = flat[inside]
    # Solve for the lower tail's quantile of min(p, 1 − p) (1 − p is exact for p >= 1/2)
    # and flip the sign for the upper half, so the refinement never loses digits to 1 − p.
    upper = x > 0.5
    t = np.where(upper, 1 - x, x)
    z = np.empty_like(t)
    low = t < _LOW
    mid = ~low
    r = t[mid] - 0.5
    s = r * r
    z[mid] = _poly(_A, s) * r / (_poly(_B, s) * s + 1)
    w = np.sqrt(-2 * np.log(t[low]))
    z[low] = _poly(_C, w) / (_poly(_D, w) * w + 1)
    # One Halley step on Φ(z) − t, with Φ from erfc: full double precision.
    if z.size and refine:
        e = normal_cdf(z) - t
        u = e * math.sqrt(2 * math.pi) * np.exp(z * z / 2)
        z = z - u / (1 + z * u / 2)
    z = np.where(upper, -z, z)
    out[inside] = z
    return out.reshape(q.shape)


def normal_cdf(z: npt.ArrayLike) -> FloatArray:
    """Φ(z), the standard normal distribution function (exact ``erfc`` a value)."""
    x = np.asarray(z, dtype=np.float64)
    return np.asarray(0.5 * _erfc(-x / math.sqrt(2)), dtype=np.float64).reshape(x.shape)


def det_span(sweep: Sweep) -> tuple[int, int]:
    """The sweep points of the DET curve, ``range(first, stop)``: from the last point
    with no false positives to the first with no false negatives."""
    fp, tp = sweep.fp, sweep.tp
    first = int(np.searchsorted(fp, fp[0], side="right")) - 1
    stop = int(np.searchsorted(tp, tp[-1], side="left")) + 1
    return first, stop


def det_points(sweep: Sweep) -> tuple[FloatArray, FloatArray, FloatArray] | None:
    """(FPR, FNR, threshold) along the DET curve, FPR decreasing (scikit-learn's
    order; the above-all point's threshold is ``inf``); None without both classes.

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> fpr, fnr, t = det_points(build_sweep(preset("canonical").data))
    >>> fpr.tolist(), fnr.round(4).tolist(), t.tolist()
    ([1.0, 1.0, 0.5, 0.0], [0.0, 0.3333, 0.3333, 0.6667], [0.1, 0.4, 0.8, 0.9])
    """
    if not sweep.positives or not sweep.negatives:
        return None
    first, stop = det_span(sweep)
    at = np.arange(first, stop)[::-1]
    fpr = np.asarray(sweep.fp[at] / float(sweep.negatives), dtype=np.float64)
    fnr = np.asarray((sweep.positives - sweep.tp[at]) / float(sweep.positives), np.float64)
    ts = np.concatenate(([np.inf], sweep.thresholds))[at]
    return fpr, fnr, ts


def placeable_run(sweep: Sweep) -> tuple[int, int]:
    """The sweep points whose FPR and FNR are both strictly between 0 and 1 (a probit
    axis has a place for them), ``range(start, stop)``: a run, since FP > 0, TP > 0,
    FP < N and TP < P each hold from one point on or up to one point (the counts
    never fall), so four binary searches find it."""
    fp, tp = sweep.fp, sweep.tp
    start = max(
        int(np.searchsorted(fp, 0, side="right")), int(np.searchsorted(tp, 0, side="right"))
    )
    stop = min(
        int(np.searchsorted(fp, sweep.negatives, side="left")),
        int(np.searchsorted(tp, sweep.positives, side="left")),
    )
    return start, max(start, stop)


def placeable(sweep: Sweep) -> npt.NDArray[np.bool_]:
    """For each sweep point, whether a probit axis has a place for it
    (:func:`placeable_run` as a mask)."""
    start, stop = placeable_run(sweep)
    out = np.zeros(sweep.size, dtype=bool)
    out[start:stop] = True
    return out
