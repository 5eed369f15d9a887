"""Smoothed ROC curves: models fitted to the rows, drawn beside the exact curve.

A smoothed curve is a model of the scores, not the rows' own curve: it never
replaces the empirical AUC, and its area is labelled with its method. Three
methods, computed as pROC's ``smooth`` computes them (higher scores are positive):

``binormal``
    The empirical points with both rates strictly inside (0, 1) are taken to the
    normal deviate scale; a least-squares line gives Φ⁻¹(specificity) = c₀ + c₁·
    Φ⁻¹(sensitivity) (pROC's direction of the fit, specificity on sensitivity).
    The curve is that line at 512 evenly spaced sensitivities, and its area is the
    binormal model's own, Φ(c₀ / √(1 + c₁²)). In the usual parameters, Φ⁻¹(TPR) = a
    + b·Φ⁻¹(FPR) with a = −c₀/c₁ and b = −1/c₁.
``density``
    Each class's scores get a Gaussian kernel density estimate with one bandwidth
    (``nrd0``, Silverman's rule of thumb, by default; ``nrd``, Scott's variant; or a
    number), over 512 evenly spaced points from 3 bandwidths below the lowest score
    to 3 above the highest.
``normal``
    Each class's scores get a normal distribution by maximum likelihood (the mean
    and the standard deviation over n), over 512 evenly spaced points from the
    lowest score to the highest. Its model's own area Φ((μ₁ − μ₀)/√(σ₀² + σ₁²)) is
    given beside the curve's.

For ``density`` and ``normal`` the curve is read off the two densities at the 512
grid points as sums: at grid point k the sensitivity is the cases' density at or
above it over their whole sum, the specificity the controls' below it over theirs;
the ends (specificity 0, sensitivity 1) and (1, 0) are added, and the area is the
trapezoid over the 514 points. Weighted rows count by their weights (a whole weight
as that many copies of the row).

The kernel density is R's binned approximation (:func:`kernel_density`), so the
curve is pROC's to rounding, in O(rows + 512 log 512); it differs from the exact sum
of kernels by about 10⁻⁴ in the rates, as R's does.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import dot
from threshold_lab.core.curves.det import normal_cdf, probit
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.doubles import read_typed
from threshold_lab.core.errors import InputError, quoted

FloatArray = npt.NDArray[np.float64]

#: The smoothing methods, as pROC names them (``normal`` is its ``fitdistr`` with
#: normal densities).
METHODS = ("binormal", "density", "normal")
#: The bandwidth rules offered by name (R's ``bw.nrd0`` and ``bw.nrd``).
RULES = ("nrd0", "nrd")
#: R's other rules: cross-validation and plug-in selectors, not offered.
NOT_OFFERED = ("ucv", "bcv", "sj", "sj-ste", "sj-dpi")
#: The points of a smoothed curve (pROC's ``n``), before its two ends.
POINTS = 512
#: Up to this many points the binormal fit's deviates are refined to the last digit.
REFINED = 100_000
#: A density grid reaches this many bandwidths beyond the scores (R's ``cut``).
CUT = 3


def parse_method(text: str) -> tuple[str, ...]:
    """``"binormal,density"``: smoothing methods.

    >>> parse_method("binormal, normal")
    ('binormal', 'normal')
    """
    words = [w.strip().lower() for w in text.split(",") if w.strip()]
    bad = [w for w in words if w not in METHODS]
    if "fitdistr" in bad:
        raise InputError(
            f"smooth {quoted(text)}: pROC's fitdistr with its default normal densities is normal "
            "here (other distributions are not built)"
        )
    if any(w.startswith("logcondens") for w in bad):
        raise InputError(
            f"smooth {quoted(text)}: pROC's logcondens smoothing is not built here; give "
            f"{', '.join(METHODS)}"
        )
    if bad or not words:
        raise InputError(
            f"smooth {quoted(text)}: give {', '.join(METHODS)} (comma-separated); a smoothed curve "
            "is a model fitted to the rows"
        )
    return tuple(dict.fromkeys(words))


def parse_bandwidth(text: str) -> float | str:
    """``nrd0``, ``nrd`` or a positive number.

    >>> parse_bandwidth("nrd0"), parse_bandwidth("0.05")
    ('nrd0', 0.05)
    >>> parse_bandwidth("SJ")
    Traceback (most recent call last):
    ...
    threshold_lab.core.errors.InputError: bandwidth 'SJ': R's SJ selector is not built here; ...
    """
    word = text.strip()
    offered = "give nrd0 (Silverman's rule), nrd (Scott's) or a positive number"
    if word.lower() in RULES:
        return word.lower()
    if word.lower() in NOT_OFFERED:
        raise InputError(
            f"bandwidth {quoted(text)}: R's {word} selector is not built here; {offered}"
        )
    try:
        x = read_typed(word)
    except ValueError:
        raise InputError(f"bandwidth {quoted(text)}: {offered}") from None
    if not (math.isfinite(x) and x > 0):
        raise InputError(f"bandwidth {quoted(text)}: {offered}")
    return x


@dataclass(frozen=True)
class Smoothed:
    """A smoothed ROC curve: its points (FPR and TPR rising from (0, 0) to (1, 1)),
    its area and how it was found, and the model's parameters."""

    method: str
    fpr: FloatArray
    tpr: FloatArray
    auc: float
    auc_how: str
    parameters: dict[str, float | int | str] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """``smoothed (binormal)``: how its AUC is always named."""
        return f"smoothed ({self.method})"

    def words(self) -> str:
        """What a chart drawing it says: the method, its area, the model's fit."""
        shown = self.parameters
        if self.method == "binormal":
            fit = f"a {shown['a']:.3g}, b {shown['b']:.3g}"
        elif self.method == "density":
            fit = f"bandwidth {shown['bandwidth']:.3g}, {shown['rule']}"
        else:
            fit = f"the normals' own AUC {shown['model_auc']:.3f}"
        return (
            f"~ {self.label}, AUC ≈ {self.auc:.3f} ({fit}), a model of the scores beside "
            "the exact curve"
        )

    def sentence(self) -> str:
        """The area and the parameters in one line (≈: a model's decimal)."""
        p = self.parameters
        if self.method == "binormal":
            fit = f"a = {p['a']:.6g}, b = {p['b']:.6g}, fitted to {p['points_fitted']:.0f} points"
        elif self.method == "density":
            fit = f"bandwidth {p['bandwidth']:.6g} ({p['rule']})"
        else:
            fit = (
                f"positives' mean {p['mean_positives']:.6g}, sd {p['sd_positives']:.6g}; "
                f"negatives' mean {p['mean_negatives']:.6g}, sd {p['sd_negatives']:.6g}; the "
                f"normals' own AUC ≈ {p['model_auc']:.6f}"
            )
        return (
            f"ROC AUC, {self.label}: ≈ {self.auc:.6f} ({self.auc_how}); {fit}; a model of "
            "the scores, not the rows' own curve"
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "label": self.label,
            "auc": self.auc,
            "auc_how": self.auc_how,
            "parameters": dict(self.parameters),
            "fpr": [float(v) for v in self.fpr],
            "tpr": [float(v) for v in self.tpr],
        }


@dataclass(frozen=True)
class NotSmoothed:
    """A smoothing the rows could not have, and why."""

    method: str
    reason: str

    @property
    def label(self) -> str:
        return f"smoothed ({self.method})"

    def sentence(self) -> str:
        return f"ROC AUC, {self.label}: none: {self.reason}"

    def words(self) -> str:
        return f"no {self.label} curve: {self.reason}"

    def as_json(self) -> dict[str, Any]:
        return {"method": self.method, "label": self.label, "auc": None, "reason": self.reason}


def smoothed_or_why(sweep: Sweep, method: str, bandwidth: float | str) -> Smoothed | NotSmoothed:
    """:func:`smooth`, or why not (its message, without the method's prefix)."""
    try:
        return smooth(sweep, method, bandwidth)
    except InputError as exc:
        return NotSmoothed(method, str(exc).removeprefix(f"smooth {method}: "))


def smooth(
    sweep: Sweep, method: str, bandwidth: float | str = "nrd0", *, points: int = POINTS
) -> Smoothed:
    """The smoothed ROC curve of ``sweep`` by ``method`` (InputError saying why when
    the rows cannot be smoothed that way).

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> s = smooth(build_sweep(preset("good").data), "binormal")
    >>> s.label, round(s.auc, 6), s.fpr.shape[0]
    ('smoothed (binormal)', 0.888903, 514)
    """
    if method not in METHODS:
        raise InputError(f"smooth {quoted(method)}: give one of {', '.join(METHODS)}")
    if sweep.positives == 0 or sweep.negatives == 0:
        missing = "positive" if sweep.positives == 0 else "negative"
        raise InputError(
            f"smooth {method}: there are no actual {missing}s, so there is no ROC curve to smooth"
        )
    if points < 2:
        raise InputError(f"smooth {method}: {points} points; a curve needs two at least")
    if method == "binormal":
        return _binormal(sweep, points)
    scores, pos, neg = _classes(sweep)
    if method == "normal":
        return _normal(scores, pos, neg, points)
    return _density(scores, pos, neg, bandwidth, points)


def _classes(sweep: Sweep) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The distinct scores (rising) and each class's weight at each."""
    pos = np.diff(sweep.tp).astype(np.float64)[::-1]
    neg = np.diff(sweep.fp).astype(np.float64)[::-1]
    return sweep.thresholds[::-1].astype(np.float64), pos, neg


class NoBinormalFit(InputError):
    """Why a curve has no binormal line: ``reason`` follows whose curve it is ("the
    ROC curve has no point ...", or a model's in power's words)."""

    def __init__(self, reason: str) -> None:
        super().__init__(f"smooth binormal: the {reason}")
        self.reason = reason


def binormal_fit(sweep: Sweep) -> tuple[float, float, int]:
    """pROC's binormal fit: the least-squares line Φ⁻¹(specificity) = c₀ + c₁·
    Φ⁻¹(sensitivity) over the points with both rates strictly inside (0, 1), as (c₀,
    c₁, the points fitted); :class:`NoBinormalFit` when there is no such line."""
    se = sweep.tp / float(sweep.positives)
    sp = 1 - sweep.fp / float(sweep.negatives)
    inside = (se > 0) & (se < 1) & (sp > 0) & (sp < 1)
    # Above REFINED points, the fit's points to about 1e-9 (the last refinement is a
    # Python call a value): the line moves by as little, far inside pROC's rounding.
    refine = int(np.count_nonzero(inside)) <= REFINED
    x = probit(se[inside], refine=refine)
    y = probit(sp[inside], refine=refine)
    k = int(x.shape[0])
    said = "no point" if k == 0 else "1 point" if k == 1 else f"{k} points"
    why = (
        f"ROC curve has {said} with both rates strictly between 0 and 1; the binormal "
        "fit needs two at different sensitivities"
    )
    if k < 2:
        raise NoBinormalFit(why)
    xc = x - x.mean()
    sxx = dot(xc, xc)
    if not sxx > 0:
        raise NoBinormalFit(why)
    slope = dot(xc, y - y.mean()) / sxx
    intercept = float(y.mean() - slope * x.mean())
    if slope == 0:
        raise NoBinormalFit(
            "fitted line is flat (the specificity does not change with the sensitivity), "
            "so it is not a ROC curve"
        )
    return intercept, float(slope), int(x.shape[0])


def _binormal(sweep: Sweep, points: int) -> Smoothed:
    intercept, slope, fitted = binormal_fit(sweep)
    u = np.arange(points, dtype=np.float64) / (points - 1)
    z = probit(u)
    with np.errstate(invalid="ignore"):
        spec = normal_cdf(intercept + slope * z)
    sens = normal_cdf(z)
    spec, sens = _ascending(spec, sens)
    fpr, tpr = _ends(spec, sens)
    a, b = -intercept / slope, -1 / slope
    return Smoothed(
        "binormal",
        fpr,
        tpr,
        float(normal_cdf(intercept / math.sqrt(1 + slope * slope))),
        "the binormal model's own, Φ(a/√(1+b²))",
        {"a": a, "b": b, "points_fitted": fitted},
    )


def _ascending(spec: FloatArray, sens: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The points in rising specificity (reversed when they are not)."""
    if np.any(np.diff(spec) < 0):
        return spec[::-1], sens[::-1]
    return spec, sens


def _ends(spec: FloatArray, sens: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The points with the two ends (specificity 0, sensitivity 1) and (1, 0), as FPR
    and TPR rising."""
    sp = np.concatenate(([0.0], spec, [1.0]))
    se = np.concatenate(([1.0], sens, [0.0]))
    return (1 - sp)[::-1], se[::-1]


def _trapezoid(fpr: FloatArray, tpr: FloatArray) -> float:
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1])) / 2)


def _from_densities(
    method: str, cases: FloatArray, controls: FloatArray, how: dict[str, float | int | str]
) -> Smoothed:
    """The curve read off two densities on one grid (the module's note)."""
    total_cases, total_controls = float(cases.sum()), float(controls.sum())
    if not (total_cases > 0 and total_controls > 0):
        raise InputError(
            f"smooth {method}: a class's density is 0 over the whole grid (its scores lie "
            "too far from the grid), so its rates are undefined"
        )
    at_or_above = np.cumsum(cases[::-1])[::-1] / total_cases
    below = np.concatenate(([0.0], np.cumsum(controls)[:-1])) / total_controls
    fpr, tpr = _ends(below, at_or_above)
    return Smoothed(
        method,
        fpr,
        tpr,
        _trapezoid(fpr, tpr),
        f"the trapezoid over the curve's {fpr.shape[0]} points",
        how,
    )


def _moments(x: FloatArray, w: FloatArray) -> tuple[float, float]:
    """The weighted mean and the standard deviation over the total weight (MLE)."""
    total = float(w.sum())
    mean = dot(w, x) / total
    d = x - mean
    return mean, math.sqrt(max(dot(w, d * d) / total, 0.0))


def _normal(scores: FloatArray, pos: FloatArray, neg: FloatArray, points: int) -> Smoothed:
    keep_p, keep_n = pos > 0, neg > 0
    mu1, sd1 = _moments(scores[keep_p], pos[keep_p])
    mu0, sd0 = _moments(scores[keep_n], neg[keep_n])
    for name, sd in (("positives'", sd1), ("negatives'", sd0)):
        if not sd > 0:
            raise InputError(
                f"smooth normal: the {name} scores are all equal, so a normal distribution "
                "fitted to them has no spread"
            )
    grid = np.linspace(float(scores[0]), float(scores[-1]), points)
    cases = np.exp(-0.5 * ((grid - mu1) / sd1) ** 2) / sd1
    controls = np.exp(-0.5 * ((grid - mu0) / sd0) ** 2) / sd0
    model = float(normal_cdf((mu1 - mu0) / math.sqrt(sd0 * sd0 + sd1 * sd1)))
    return _from_densities(
        "normal",
        cases,
        controls,
        {
            "mean_positives": mu1,
            "sd_positives": sd1,
            "mean_negatives": mu0,
            "sd_negatives": sd0,
            "model_auc": model,
        },
    )


def _quantile(x: FloatArray, w: FloatArray, p: float) -> float:
    """The type-7 quantile (R's and numpy's default) of rows ``x`` (rising) of weights
    ``w``, each weight counted as that many copies (a fractional weight as a share
    of one)."""
    cw = np.cumsum(w)
    h = (float(cw[-1]) - 1) * p
    lo = math.floor(h)
    # Copy j (0-based) of the expanded rows lies in the first row whose cumulative
    # weight exceeds j.
    i = min(int(np.searchsorted(cw, lo, side="right")), x.shape[0] - 1)
    j = min(int(np.searchsorted(cw, lo + 1, side="right")), x.shape[0] - 1)
    return float(x[i] + (h - lo) * (x[j] - x[i]))


def bandwidth_of(scores: FloatArray, weights: FloatArray, rule: float | str) -> float:
    """The kernel's bandwidth for the pooled rows: a number as it is, or R's
    ``bw.nrd0`` (0.9·min(sd, IQR/1.34)·n^(−1/5), falling back to the sd, then
    |a score|, then 1 where that minimum is 0) or ``bw.nrd`` (1.06 in place of 0.9,
    with no fallback)."""
    if not isinstance(rule, str):
        return float(rule)
    total = float(weights.sum())
    mean = dot(weights, scores) / total
    d = scores - mean
    sd = math.sqrt(max(dot(weights, d * d) / (total - 1), 0.0)) if total > 1 else math.nan
    iqr = (_quantile(scores, weights, 0.75) - _quantile(scores, weights, 0.25)) / 1.34
    if rule == "nrd":
        return float(1.06 * min(sd, iqr) * total ** (-0.2))
    lo = min(sd, iqr)
    if not lo > 0:
        lo = sd if sd > 0 else abs(float(scores[0])) or 1.0
    return float(0.9 * lo * total ** (-0.2))


def kernel_density(x: FloatArray, w: FloatArray, bandwidth: float, grid: FloatArray) -> FloatArray:
    """The Gaussian kernel density of rows ``x`` of weights ``w`` at the evenly
    spaced ``grid`` (unnormalised), as R's ``density`` approximates it: each row's
    weight split linearly between the two nearest of ``max(len(grid), 512)`` bins (a
    power of 2 above 512) spanning 4
    bandwidths beyond the grid, the bins convolved with the kernel (sampled at R's
    spacing, 2·span/(2·len − 1)) by a circular FFT over twice the bins, and the
    result read at the grid by linear interpolation."""
    n = max(grid.shape[0], 512)  # R bins on 512 points at least, a power of 2 above
    if n > 512:
        n = 1 << math.ceil(math.log2(n))
    lo = float(grid[0]) - 4 * bandwidth
    hi = float(grid[-1]) + 4 * bandwidth
    step = (hi - lo) / (n - 1)
    pos = (x - lo) / step
    left = np.floor(pos).astype(np.int64)
    frac = pos - left
    inside = (left >= 0) & (left <= n - 2)
    mass = np.bincount(left[inside], weights=w[inside] * (1 - frac[inside]), minlength=2 * n)
    mass += np.bincount(left[inside] + 1, weights=w[inside] * frac[inside], minlength=2 * n)
    # Rows just outside the bins (never, with the grid reaching beyond the scores).
    mass[0] += float(np.sum((w * frac)[left == -1]))
    mass[n - 1] += float(np.sum((w * (1 - frac))[left == n - 1]))
    offsets = np.linspace(0.0, 2 * (hi - lo), 2 * n)
    offsets[n + 1 :] = -offsets[n - 1 : 0 : -1]
    kernel = np.exp(-0.5 * (offsets / bandwidth) ** 2) / (bandwidth * math.sqrt(2 * math.pi))
    spread = np.fft.ifft(np.fft.fft(mass) * np.conj(np.fft.fft(kernel))).real[:n]
    return np.interp(grid, np.linspace(lo, hi, n), np.maximum(spread, 0.0))


def _density(
    scores: FloatArray, pos: FloatArray, neg: FloatArray, bandwidth: float | str, points: int
) -> Smoothed:
    bw = bandwidth_of(scores, pos + neg, bandwidth)
    if not (math.isfinite(bw) and bw > 0):
        raise InputError(
            f"smooth density: the {bandwidth} bandwidth is {bw:g} (the scores have no "
            "spread by that rule); give --bandwidth a positive number"
        )
    grid = np.linspace(float(scores[0]) - CUT * bw, float(scores[-1]) + CUT * bw, points)
    keep_p, keep_n = pos > 0, neg > 0
    cases = kernel_density(scores[keep_p], pos[keep_p], bw, grid)
    controls = kernel_density(scores[keep_n], neg[keep_n], bw, grid)
    rule = bandwidth if isinstance(bandwidth, str) else "given"
    return _from_densities("density", cases, controls, {"bandwidth": bw, "rule": rule})
