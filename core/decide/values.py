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

from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.metrics.formulas import FORMULAS, Cells
from threshold_lab.core.metrics.threshold_metrics import beta_squared

FloatArray = npt.NDArray[np.float64]

#: Metrics whose exact value may be irrational (MCC) or a ratio of ratios (LR+,
#: LR-): their floats are never taken as exact.
NOT_SEPARATED = frozenset(
    {
        "mcc",
        "lr_plus",
        "lr_minus",
        "cohen_kappa",
        "markedness",
        "diagnostic_odds_ratio",
        "fowlkes_mallows",
        "topleft",
    }
)


def _div(num: Any, den: Any) -> FloatArray:
    """``num / den`` as doubles, NaN where ``den`` is 0. Counts are divided as doubles in
    the one pass that divides (a count array is not copied to doubles first); a
    Fraction's products (object arrays) are made doubles first."""
    a, b = np.asarray(num), np.asarray(den)
    if a.dtype == object:
        a = a.astype(np.float64)
    if b.dtype == object:
        b = b.astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        out: FloatArray = np.asarray(np.true_divide(a, b, dtype=np.float64))
    if b.ndim == 0:
        return out if b != 0 else np.full(out.shape, np.nan)
    if not b.all():  # one pass; the zeros are looked for only where there are some
        out[np.broadcast_to(b == 0, out.shape)] = np.nan
    return out


def float_values(name: str, c: Cells, beta: float) -> FloatArray:
    """``name`` at every point as floats (:mod:`threshold_lab.core.metrics.formulas`);
    NaN where it is undefined (a zero denominator, as core's threshold metrics say).
    Give ``c`` the class totals (as the sweep knows them): TN and FN are then worked
    out only by the metrics that use them."""
    if name == "topleft":  # pROC's closest.topleft, (1 − TPR)² + FPR²
        tpr, fpr = _div(c.tp, c.pos), _div(c.fp, c.neg)
        return np.asarray((1 - tpr) ** 2 + fpr**2, dtype=np.float64)
    f = FORMULAS.get(name)
    if f is None:
        raise ValueError(f"not a goal metric: {name}")
    num, den = f.parts(c, beta_squared(beta) if name == "fbeta" else Fraction(1))
    if f.root:
        with np.errstate(invalid="ignore", over="ignore"):
            den = np.sqrt(np.asarray(den, dtype=np.float64))
    return _div(num, den)


def _q(x: Any) -> Fraction:
    if isinstance(x, Fraction):
        return x
    return Fraction(int(x)) if isinstance(x, int | np.integer) else Fraction(float(x))


def exact_value(name: str, c: Cells, beta: float) -> Fraction | None:
    """``name`` at one point as an exact fraction (None where undefined). MCC, whose
    value may be irrational, gives sign(MCC)·MCC² instead: the same order."""
    if name == "topleft":
        pos, neg = _q(c.tp) + _q(c.fn), _q(c.fp) + _q(c.tn)
        if pos == 0 or neg == 0:
            return None
        return (1 - _q(c.tp) / pos) ** 2 + (_q(c.fp) / neg) ** 2
    f = FORMULAS.get(name)
    if f is None:
        raise ValueError(f"not a goal metric: {name}")
    q = Cells(_q(c.tp), _q(c.fp), _q(c.tn), _q(c.fn))
    num, den = f.parts(q, beta_squared(beta) if name == "fbeta" else Fraction(1))
    if den == 0:
        return None
    top, bottom = Fraction(num), Fraction(den)
    if f.root:  # num / sqrt(den), squared with its sign
        return (1 if top >= 0 else -1) * top * top / bottom
    return top / bottom


def exact_key(name: str, value: Fraction) -> Fraction:
    """A bound on ``name`` in the form :func:`exact_value` gives (a root metric, MCC or
    the Fowlkes-Mallows index, squared with its sign)."""
    f = FORMULAS.get(name)
    return (1 if value >= 0 else -1) * value * value if f is not None and f.root else value


def denominator_bound(name: str, total: float, beta: float) -> float:
    """The largest denominator ``name``'s exact value can have at these totals."""
    if name in ("balanced_accuracy", "youden", "informedness"):
        return 2.0 * total * total
    if name == "fbeta":
        b2 = beta_squared(beta)
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
    if name in ("balanced_accuracy", "youden", "informedness") and 2.0 * total * total >= 2**53:
        return False
    if name == "predicted_positives":
        return total < 2**53
    return d * max(d, float(bound_den)) < 2**50
