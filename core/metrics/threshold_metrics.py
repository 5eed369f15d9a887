"""Every single-threshold metric, computed from the four counts.

Each is a :class:`~core.metrics.metric.Metric`: value, exact fraction when the counts
are whole, the formula with the counts filled in, or undefined with the
reason naming the empty denominator.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.metrics.metric import (
    Metric,
    Number,
    from_fraction,
    is_integral,
    ratio,
    undefined,
)
from threshold_lab.core.metrics.metric import format_count as c

NO_PRED_POS = "No predicted positives (TP+FP=0)"
NO_PRED_NEG = "No predicted negatives (TN+FN=0)"
NO_ACTUAL_POS = "No actual positives (TP+FN=0)"
NO_ACTUAL_NEG = "No actual negatives (FP+TN=0)"

#: The order in which metrics are listed everywhere (report, TUI, JSON).
METRIC_NAMES = (
    "precision",
    "recall",
    "f1",
    "fbeta",
    "accuracy",
    "specificity",
    "fpr",
    "fnr",
    "npv",
    "balanced_accuracy",
    "mcc",
    "prevalence",
    "queue_rate",
    "lr_plus",
    "lr_minus",
    "lift",
)


def _beta_squared(beta: float) -> Fraction:
    # The decimal the user wrote (0.5, 2, 0.3), not its binary approximation.
    return Fraction(repr(float(beta))) ** 2


def f_beta(counts: Counts, *, beta: float = 1.0) -> Metric:
    """F-beta in count form: (1+β²)TP / ((1+β²)TP + β²FN + FP).

    >>> f_beta(Counts(1, 0, 2, 1), beta=0.5).value_text()
    '5/6 ≈ 0.8333'
    >>> f_beta(Counts(1, 0, 2, 1), beta=2).value_text()
    '5/9 ≈ 0.5556'
    """
    if not (math.isfinite(beta) and beta > 0):
        raise ValueError(f"beta must be a positive finite number, got {beta}")
    b2 = _beta_squared(beta)
    name = "F1" if b2 == 1 else f"F{repr(float(beta)).removesuffix('.0')}"
    tp, fp, fn = counts.tp, counts.fp, counts.fn
    if b2 == 1:
        formula = "2TP/(2TP+FP+FN)"
        filled = f"2·{c(tp)}/(2·{c(tp)}+{c(fp)}+{c(fn)})"
    else:
        k, b = 1 + b2, b2
        formula = "(1+β²)TP/((1+β²)TP+β²FN+FP)"
        filled = f"{k}·{c(tp)}/({k}·{c(tp)}+{b}·{c(fn)}+{c(fp)})"
    denom_zero = tp + fp + fn == 0
    if denom_zero:
        return undefined(
            f"No actual or predicted positives ({'2TP+FP+FN' if b2 == 1 else 'TP+FP+FN'}=0)",
            name=name,
            formula=formula,
            filled=filled,
        )
    # Weighted sums are exact as fractions too: float products could overflow.
    tp_, fp_, fn_ = (_fraction(v) for v in (tp, fp, fn))
    num = (1 + b2) * tp_
    value = num / (num + b2 * fn_ + fp_)
    if _whole(counts):
        return from_fraction(value, 0.0, name=name, formula=formula, filled=filled)
    return Metric(float(value), None, None, name, formula, filled)


def _fraction(x: float) -> Fraction:
    """A count as an exact fraction: a float's own binary value, never rounded."""
    return Fraction(int(x)) if isinstance(x, int) else Fraction(float(x))


def _whole(counts: Counts) -> bool:
    """True when the counts are whole numbers summed without rounding.

    Whole weights below 2**53 in total add up exactly in floats; past that a
    count derived by subtraction may have been rounded, so no fraction is exact.
    """
    return all(is_integral(v) for v in counts.cells()) and counts.total < 2**53


def _root_ratio(num: Fraction, square: Fraction) -> float:
    """``num / sqrt(square)`` as a float, from exact fractions of any size.

    The root is taken in integers with 64 extra bits, so the result is within
    a unit or two in the last place wherever the counts lie (no overflow or
    underflow from multiplying four large or four tiny counts).
    """
    top, bottom = square.numerator * square.denominator, square.denominator
    shift = max(0, 64 - top.bit_length() // 2)
    root = math.isqrt(top << (2 * shift))  # sqrt(top) · 2**shift, to 64+ bits
    return float(num * Fraction(bottom << shift, root))


def _mcc(k: Counts) -> Metric:
    formula = "(TP·TN−FP·FN)/√((TP+FP)(TP+FN)(TN+FP)(TN+FN))"
    tp, fp, tn, fn = k.cells()
    filled = (
        f"({c(tp)}·{c(tn)}−{c(fp)}·{c(fn)})/"
        f"√(({c(tp)}+{c(fp)})({c(tp)}+{c(fn)})({c(tn)}+{c(fp)})({c(tn)}+{c(fn)}))"
    )
    empty = [
        label
        for label, v in (
            ("TP+FP", tp + fp),
            ("TP+FN", tp + fn),
            ("TN+FP", tn + fp),
            ("TN+FN", tn + fn),
        )
        if v == 0
    ]
    if empty:
        return undefined(
            "A margin of the confusion matrix is empty ("
            + ", ".join(f"{e}=0" for e in empty)
            + ")",
            name="MCC",
            formula=formula,
            filled=filled,
        )
    tp_, fp_, tn_, fn_ = (_fraction(v) for v in (tp, fp, tn, fn))
    num = tp_ * tn_ - fp_ * fn_
    prod = (tp_ + fp_) * (tp_ + fn_) * (tn_ + fp_) * (tn_ + fn_)
    if num == 0:  # exactly 0, whatever the root: never "≈ 0"
        return from_fraction(Fraction(0), 0.0, name="MCC", formula=formula, filled=filled)
    if _whole(k) and prod.denominator == 1:
        root = math.isqrt(prod.numerator)
        if root * root == prod.numerator:  # exact only when the product is a perfect square
            return from_fraction(num / root, 0.0, name="MCC", formula=formula, filled=filled)
    return Metric(_root_ratio(num, prod), None, None, "MCC", formula, filled)


def _rate_ratio(
    name: str,
    top: Metric,
    bottom: Metric,
    rates: tuple[tuple[Number, Number], tuple[Number, Number]],
    formula: str,
    filled: str,
) -> Metric:
    """A ratio of two rates (LR+ and LR−), undefined if either rate is or the bottom is 0.

    ``rates`` are the two rates' (numerator, denominator) counts: the ratio is
    taken from them exactly, since a tiny weighted rate may round to 0 as a float.
    """
    if top.value is None or bottom.value is None:
        reason = top.reason if top.value is None else bottom.reason
        return undefined(str(reason), name=name, formula=formula, filled=filled)
    (a, b), (c, d) = rates
    if c == 0:
        return undefined(
            f"{bottom.name} is 0, so the ratio has a zero denominator",
            name=name,
            formula=formula,
            filled=filled,
        )
    value = (_fraction(a) * _fraction(d)) / (_fraction(b) * _fraction(c))
    if value > _LARGEST:
        return undefined(
            f"{name} is about {_scientific(value)}, past the largest float (about 1.8e+308)",
            name=name,
            formula=formula,
            filled=filled,
        )
    if top.exact is not None and bottom.exact is not None:
        return from_fraction(value, 0.0, name=name, formula=formula, filled=filled)
    return Metric(float(value), None, None, name, formula, filled)


_LARGEST = Fraction(sys.float_info.max)


def _scientific(x: Fraction) -> str:
    """A positive fraction of any size in two significant figures: ``5e+319``.

    >>> _scientific(Fraction(10**400 * 23, 10))
    '2.3e+400'
    """
    exponent = len(str(x.numerator // x.denominator)) - 1
    mantissa = float(x / Fraction(10) ** exponent)
    if round(mantissa, 1) >= 10:
        mantissa, exponent = mantissa / 10, exponent + 1
    return f"{mantissa:.2g}e+{exponent}"


def lift(counts: Counts) -> Metric:
    """Lift = precision / prevalence = (TP/(TP+FP)) / ((TP+FN)/n): how many times the
    base rate of positives the predicted positives hold.

    >>> lift(Counts(tp=2, fp=1, tn=1, fn=1)).describe()
    'lift = precision/prevalence = (2/(2+1))/((2+1)/5) = 10/9 ≈ 1.1111'
    """
    tp, fp, tn, fn = counts.tp, counts.fp, counts.tn, counts.fn
    n = tp + fp + tn + fn
    name, formula = "lift", "precision/prevalence"
    filled = f"({c(tp)}/({c(tp)}+{c(fp)}))/(({c(tp)}+{c(fn)})/{c(n)})"
    if tp + fp == 0:
        return undefined(f"{NO_PRED_POS}: precision is undefined", name=name, formula=formula)
    if tp + fn == 0:
        return undefined(
            f"{NO_ACTUAL_POS}: the prevalence is 0", name=name, formula=formula, filled=filled
        )
    if _whole(counts):
        exact = Fraction(int(tp), int(tp + fp)) / Fraction(int(tp + fn), int(n))
        return from_fraction(exact, float(exact), name=name, formula=formula, filled=filled)
    value = (float(tp) / float(tp + fp)) / (float(tp + fn) / float(n))
    return Metric(value, None, None, name, formula, filled)


def threshold_metrics(counts: Counts, *, beta: float = 2.0) -> dict[str, Metric]:
    """All single-threshold metrics, keyed and ordered as :data:`METRIC_NAMES`.

    >>> m = threshold_metrics(Counts(tp=2, fp=1, tn=1, fn=1))
    >>> m["precision"].describe()
    'precision = TP/(TP+FP) = 2/(2+1) = 2/3 ≈ 0.6667'
    >>> m["f1"].value_text()
    '2/3 ≈ 0.6667'
    >>> threshold_metrics(Counts(tp=0, fp=0, tn=2, fn=3))["precision"].reason
    'No predicted positives (TP+FP=0)'
    """
    tp, fp, tn, fn = counts.cells()
    n = counts.total
    whole = _whole(counts)
    recall = ratio(
        tp,
        tp + fn,
        exact_ok=whole,
        reason=NO_ACTUAL_POS,
        name="recall",
        formula="TP/(TP+FN)",
        filled=f"{c(tp)}/({c(tp)}+{c(fn)})",
    )
    specificity = ratio(
        tn,
        tn + fp,
        exact_ok=whole,
        reason=NO_ACTUAL_NEG,
        name="specificity",
        formula="TN/(TN+FP)",
        filled=f"{c(tn)}/({c(tn)}+{c(fp)})",
    )
    fpr = ratio(
        fp,
        fp + tn,
        exact_ok=whole,
        reason=NO_ACTUAL_NEG,
        name="FPR",
        formula="FP/(FP+TN)",
        filled=f"{c(fp)}/({c(fp)}+{c(tn)})",
    )
    fnr = ratio(
        fn,
        fn + tp,
        exact_ok=whole,
        reason=NO_ACTUAL_POS,
        name="FNR",
        formula="FN/(FN+TP)",
        filled=f"{c(fn)}/({c(fn)}+{c(tp)})",
    )
    if recall.value is None or specificity.value is None:
        balanced = undefined(
            str(recall.reason if recall.value is None else specificity.reason),
            name="balanced accuracy",
            formula="(TPR+TNR)/2",
        )
    elif recall.exact is not None and specificity.exact is not None:
        balanced = from_fraction(
            (recall.exact + specificity.exact) / 2,
            0.0,
            name="balanced accuracy",
            formula="(TPR+TNR)/2",
            filled=f"({recall.short()}+{specificity.short()})/2",
        )
    else:
        balanced = Metric(
            (recall.value + specificity.value) / 2, None, None, "balanced accuracy", "(TPR+TNR)/2"
        )
    out = {
        "precision": ratio(
            tp,
            tp + fp,
            exact_ok=whole,
            reason=NO_PRED_POS,
            name="precision",
            formula="TP/(TP+FP)",
            filled=f"{c(tp)}/({c(tp)}+{c(fp)})",
        ),
        "recall": recall,
        "f1": f_beta(counts, beta=1.0),
        "fbeta": f_beta(counts, beta=beta),
        "accuracy": ratio(
            tp + tn,
            n,
            exact_ok=whole,
            reason="No rows (n=0)",
            name="accuracy",
            formula="(TP+TN)/n",
            filled=f"({c(tp)}+{c(tn)})/{c(n)}",
        ),
        "specificity": specificity,
        "fpr": fpr,
        "fnr": fnr,
        "npv": ratio(
            tn,
            tn + fn,
            exact_ok=whole,
            reason=NO_PRED_NEG,
            name="NPV",
            formula="TN/(TN+FN)",
            filled=f"{c(tn)}/({c(tn)}+{c(fn)})",
        ),
        "balanced_accuracy": balanced,
        "mcc": _mcc(counts),
        "prevalence": ratio(
            tp + fn,
            n,
            exact_ok=whole,
            reason="No rows (n=0)",
            name="prevalence",
            formula="(TP+FN)/n",
            filled=f"({c(tp)}+{c(fn)})/{c(n)}",
        ),
        "queue_rate": ratio(
            tp + fp,
            n,
            exact_ok=whole,
            reason="No rows (n=0)",
            name="queue rate",
            formula="(TP+FP)/n",
            filled=f"({c(tp)}+{c(fp)})/{c(n)}",
        ),
        "lr_plus": _rate_ratio(
            "LR+",
            recall,
            fpr,
            ((tp, tp + fn), (fp, fp + tn)),
            "TPR/FPR",
            f"({recall.short()})/({fpr.short()})",
        ),
        "lr_minus": _rate_ratio(
            "LR−",
            fnr,
            specificity,
            ((fn, fn + tp), (tn, tn + fp)),
            "FNR/TNR",
            f"({fnr.short()})/({specificity.short()})",
        ),
        "lift": lift(counts),
    }
    return out
