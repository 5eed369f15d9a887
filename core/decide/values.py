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
from typing import Any

import numpy as np
import numpy.typing as npt

from core.metrics.threshold_metrics import _beta_squared

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


def _div(num: FloatArray, den: FloatArray) -> FloatArray:
    out = np.full(np.shape(num), np.nan)
    np.divide(num, den, out=out, where=den != 0)
    return out


def float_values(name: str, c: Cells, beta: float) -> FloatArray:
    """``name`` at every point as floats; NaN where it is undefined (a zero
    denominator, as core's threshold metrics say)."""
    tp, fp, tn, fn = (np.asarray(x, dtype=np.float64) for x in (c.tp, c.fp, c.tn, c.fn))
    pos, neg = tp + fn, fp + tn
    n = pos + neg
    if name == "precision":
        return _div(tp, tp + fp)
    if name == "recall":
        return _div(tp, pos)
    if name == "specificity":
        return _div(tn, neg)
    if name == "fpr":
        return _div(fp, neg)
    if name == "fnr":
        return _div(fn, pos)
    if name == "npv":
        return _div(tn, tn + fn)
    if name == "accuracy":
        return _div(tp + tn, n)
    if name == "queue_rate":
        return _div(tp + fp, n)
    if name == "predicted_positives":
        return tp + fp
    if name in ("f1", "fbeta"):
        b2 = Fraction(1) if name == "f1" else _beta_squared(beta)
        r, s = b2.numerator, b2.denominator  # scaled by s: every term stays whole
        num = (r + s) * tp
        return _div(num, num + r * fn + s * fp)
    if name == "balanced_accuracy":
        # (TP/P + TN/N)/2 as one division: (TP·N + TN·P) / (2·P·N)
        return _div(tp * neg + tn * pos, 2 * pos * neg)
    if name == "youden":
        return _div(tp * neg - fp * pos, pos * neg)
    if name == "lr_plus":
        return _div(tp * neg, fp * pos * (pos != 0))
    if name == "lr_minus":
        return _div(fn * neg, tn * pos * (pos != 0))
    if name == "mcc":
        prod = (tp + fp) * pos * neg * (tn + fn)
        with np.errstate(invalid="ignore", over="ignore"):
            return _div(tp * tn - fp * fn, np.sqrt(prod))
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
