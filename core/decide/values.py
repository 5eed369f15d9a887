"""A goal metric at every operating point at once (floats), and at one point exactly.

The float pass is what makes a goal one vectorised pass over the sweep. Each
rate is one division of two numbers held exactly (integer-valued counts, or
sums of them), so it is correctly rounded; where the counts are whole and not
too large, two different values can then never round to the same float, and
comparing floats is comparing the exact values (:func:`separated`). Elsewhere
(MCC, the likelihood ratios, weighted or very large counts) the few points near
an optimum or a bound are compared again exactly, by :func:`exact_key`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.metrics.threshold_metrics import _beta_squared

FloatArray = npt.NDArray[np.float64]

#: Metrics whose exact value may be irrational (MCC) or a ratio of ratios (LR+,
#: LR-): their floats are never taken as exact.
NOT_SEPARATED = frozenset({"mcc", "lr_plus", "lr_minus"})


@dataclass(frozen=True)
class Cells:
    """The four counts at every point (arrays), or at one point (numbers)."""

    tp: Any
    fp: Any
    tn: Any
    fn: Any


class ArrayCells:
    """The counts at a run of points: TP and FP per point, and the class totals; TN
    and FN are worked out only by the metrics that need them."""

    def __init__(self, tp: Any, fp: Any, positives: float, negatives: float) -> None:
        self.tp, self.fp = tp, fp
        self.positives, self.negatives = positives, negatives

    @cached_property
    def tn(self) -> FloatArray:
        return np.asarray(np.float64(self.negatives) - self.fp, dtype=np.float64)

    @cached_property
    def fn(self) -> FloatArray:
        return np.asarray(np.float64(self.positives) - self.tp, dtype=np.float64)


def _div(num: Any, den: Any) -> FloatArray:
    num, den = np.broadcast_arrays(np.asarray(num, dtype=np.float64), den)
    with np.errstate(divide="ignore", invalid="ignore"):
        out = np.asarray(num / den, dtype=np.float64)
    if np.ndim(den) == 0:
        return out if den != 0 else np.full(np.shape(num), np.nan)
    zero = den == 0
    if zero.any():
        out[zero] = np.nan
    return out


def float_values(
    name: str, c: Cells | ArrayCells, beta: float, totals: tuple[float, float] | None = None
) -> FloatArray:
    """``name`` at every point as floats; NaN where it is undefined (a zero
    denominator, as core's threshold metrics say). ``totals`` (positives,
    negatives), when known, spare the passes that would add them up per point;
    TN and FN are taken from ``c`` only by the metrics that use them."""
    tp, fp = c.tp, c.fp
    if totals is not None:
        pos: Any = np.float64(totals[0])
        neg: Any = np.float64(totals[1])
    else:
        pos, neg = (
            np.asarray(c.tp, dtype=np.float64) + c.fn,
            np.asarray(c.fp, dtype=np.float64) + c.tn,
        )
    n = pos + neg
    if name == "precision":
        return _div(tp, tp + fp)
    if name == "recall":
        return _div(tp, pos)
    if name == "specificity":
        return _div(c.tn, neg)
    if name == "fpr":
        return _div(fp, neg)
    if name == "fnr":
        return _div(c.fn, pos)
    if name == "npv":
        return _div(c.tn, c.tn + c.fn)
    if name == "accuracy":
        return _div(tp + c.tn, n)
    if name == "queue_rate":
        return _div(tp + fp, n)
    if name == "predicted_positives":
        return np.asarray(tp + fp, dtype=np.float64)
    if name in ("f1", "fbeta"):
        b2 = Fraction(1) if name == "f1" else _beta_squared(beta)
        r, s = b2.numerator, b2.denominator  # scaled by s: every term stays whole
        num = (r + s) * tp
        return _div(num, num + r * c.fn + s * fp)
    if name == "balanced_accuracy":
        # (TP/P + TN/N)/2 as one division: (TP·N + TN·P) / (2·P·N)
        return _div(tp * neg + c.tn * pos, 2 * pos * neg)
    if name == "youden":
        return _div(tp * neg - fp * pos, pos * neg)
    if name == "lr_plus":
        return _div(tp * neg, fp * pos * (pos != 0))
    if name == "lr_minus":
        return _div(c.fn * neg, c.tn * pos * (pos != 0))
    if name == "mcc":
        # TP·TN − FP·FN = TP·N − FP·P, and TN + FN = n − (TP + FP): fewer passes.
        pp = np.asarray(tp + fp, dtype=np.float64)
        with np.errstate(invalid="ignore", over="ignore"):
            root = np.sqrt(pp * (n - pp) * (pos * neg))
            return _div(tp * neg - fp * pos, root)
    raise ValueError(f"not a goal metric: {name}")


def _q(x: Any) -> Fraction:
    if isinstance(x, Fraction):
        return x
    return Fraction(int(x)) if isinstance(x, int | np.integer) else Fraction(float(x))


def exact_value(name: str, c: Cells, beta: float) -> Fraction | None:
    """``name`` at one point as an exact fraction (None where undefined). MCC, whose
    value may be irrational, gives sign(MCC)·MCC² instead: the same order."""
    tp, fp, tn, fn = (_q(x) for x in (c.tp, c.fp, c.tn, c.fn))
    pos, neg = tp + fn, fp + tn

    def div(a: Fraction, b: Fraction) -> Fraction | None:
        return None if b == 0 else a / b

    if name == "precision":
        return div(tp, tp + fp)
    if name == "recall":
        return div(tp, pos)
    if name == "specificity":
        return div(tn, neg)
    if name == "fpr":
        return div(fp, neg)
    if name == "fnr":
        return div(fn, pos)
    if name == "npv":
        return div(tn, tn + fn)
    if name == "accuracy":
        return div(tp + tn, pos + neg)
    if name == "queue_rate":
        return div(tp + fp, pos + neg)
    if name == "predicted_positives":
        return tp + fp
    if name in ("f1", "fbeta"):
        b2 = Fraction(1) if name == "f1" else _beta_squared(beta)
        return div((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)
    if name == "balanced_accuracy":
        if pos == 0 or neg == 0:
            return None
        return (tp / pos + tn / neg) / 2
    if name == "youden":
        if pos == 0 or neg == 0:
            return None
        return tp / pos - fp / neg
    if name == "lr_plus":
        if pos == 0 or neg == 0 or fp == 0:
            return None
        return (tp / pos) / (fp / neg)
    if name == "lr_minus":
        if pos == 0 or neg == 0 or tn == 0:
            return None
        return (fn / pos) / (tn / neg)
    if name == "mcc":
        prod = (tp + fp) * pos * neg * (tn + fn)
        if prod == 0:
            return None
        num = tp * tn - fp * fn
        return (1 if num >= 0 else -1) * num * num / prod
    raise ValueError(f"not a goal metric: {name}")


def exact_key(name: str, value: Fraction) -> Fraction:
    """A bound on ``name`` in the form :func:`exact_value` gives (MCC squared, signed)."""
    return (1 if value >= 0 else -1) * value * value if name == "mcc" else value


def denominator_bound(name: str, total: float, beta: float) -> float:
    """The largest denominator ``name``'s exact value can have at these totals."""
    if name in ("balanced_accuracy", "youden"):
        return 2.0 * total * total
    if name == "fbeta":
        b2 = _beta_squared(beta)
        return float(b2.numerator + b2.denominator) * 2.0 * total
    if name == "predicted_positives":
        return 1.0
    return 2.0 * total


def separated(name: str, whole: bool, total: float, beta: float, bound_den: int = 1) -> bool:
    """Whether comparing ``name``'s floats (with each other, and with a bound whose
    denominator is ``bound_den``) is comparing exact values: distinct values then
    lie further apart than the float rounding of either can close."""
    if name in NOT_SEPARATED or not whole:
        return False
    d = denominator_bound(name, total, beta)
    # Every integer term must be exact in a float too (2**53).
    if name in ("balanced_accuracy", "youden") and 2.0 * total * total >= 2**53:
        return False
    if name == "predicted_positives":
        return total < 2**53
    return d * max(d, float(bound_den)) < 2**50
