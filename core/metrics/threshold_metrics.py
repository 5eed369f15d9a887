"""Every single-threshold metric, computed from the four counts.

Each is a :class:`~threshold_lab.core.metrics.metric.Metric`: value, exact fraction when the counts
are whole, the formula with the counts filled in, or undefined with the
reason naming the empty denominator.
"""

from __future__ import annotations

import math
import sys
from fractions import Fraction

from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.metrics.formulas import (
    FORMULAS,
    NO_ACTUAL_NEG,
    NO_ACTUAL_POS,
    NO_PRED_NEG,
    NO_PRED_POS,
    RATES,
    Cells,
)
from threshold_lab.core.metrics.metric import (
    Metric,
    from_fraction,
    is_integral,
    ratio,
    undefined,
)
from threshold_lab.core.metrics.metric import format_count as c

__all__ = [
    "METRIC_NAMES",
    "NO_ACTUAL_NEG",
    "NO_ACTUAL_POS",
    "NO_PRED_NEG",
    "NO_PRED_POS",
    "beta_squared",
    "f_beta",
    "lift",
    "threshold_metrics",
]

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
    "cohen_kappa",
    "informedness",
    "markedness",
    "diagnostic_odds_ratio",
    "fowlkes_mallows",
    "jaccard",
)


def beta_squared(beta: float) -> Fraction:
    # The decimal the user wrote (0.5, 2, 0.3), not its binary approximation.
    return Fraction(repr(float(beta))) ** 2


#: The betas F-beta takes: β² from 1e-6 to 1e6 keeps (1+β²)·TP a whole number held
#: exactly in a double for whole counts up to a billion, and its formula short.
BETA_RANGE = (0.001, 1000.0)


def check_beta(beta: float) -> float:
    """``beta`` if F-beta can be computed with it (raises ValueError naming the range).

    >>> check_beta(1e200)
    Traceback (most recent call last):
    ValueError: beta 1e+200 is out of range: give one from 0.001 to 1000
    """
    if not (math.isfinite(beta) and beta > 0):
        raise ValueError(f"beta {beta!r} must be a positive finite number")
    if not BETA_RANGE[0] <= beta <= BETA_RANGE[1]:
        raise ValueError(f"beta {beta!r} is out of range: give one from 0.001 to 1000")
    return beta


def f_beta(counts: Counts, *, beta: float = 1.0) -> Metric:
    """F-beta in count form: (1+β²)TP / ((1+β²)TP + β²FN + FP).

    >>> f_beta(Counts(1, 0, 2, 1), beta=0.5).value_text()
    '5/6 ≈ 0.8333'
    >>> f_beta(Counts(1, 0, 2, 1), beta=2).value_text()
    '5/9 ≈ 0.5556'
    """
    check_beta(beta)
    b2 = beta_squared(beta)
    name = "F1" if b2 == 1 else f"F{repr(float(beta)).removesuffix('.0')}"
    tp, fp, fn = counts.tp, counts.fp, counts.fn
    if b2 == 1:
        formula = "2TP/(2TP+FP+FN)"
        filled = f"2·{c(tp)}/(2·{c(tp)}+{c(fp)}+{c(fn)})"
    else:
        k, b = 1 + b2, b2
        formula = "(1+β²)TP/((1+β²)TP+β²FN+FP)"
        filled = f"{k}·{c(tp)}/({k}·{c(tp)}+{b}·{c(fn)}+{c(fp)})"
    table = FORMULAS["f1" if b2 == 1 else "fbeta"]
    # Weighted sums are exact as fractions too: float products could overflow.
    exact_cells = _exact_cells(counts)
    num, den = table.parts(exact_cells, b2)
    if den == 0:
        return undefined(table.why(exact_cells), name=name, formula=formula, filled=filled)
    value = Fraction(num) / den
    if _whole(counts) and b2.denominator == 1:
        # β² whole: the formula's numerator and denominator are whole counts, shown.
        return ratio(int(num), int(den), reason="", name=name, formula=formula, filled=filled)
    if _whole(counts):
        return from_fraction(value, 0.0, name=name, formula=formula, filled=filled)
    return Metric(float(value), None, None, name, formula, filled)


def _fraction(x: float) -> Fraction:
    """A count as an exact fraction: a float's own binary value, never rounded."""
    return Fraction(int(x)) if isinstance(x, int) else Fraction(float(x))


def _exact_cells(counts: Counts) -> Cells:
    """The four counts as exact fractions, for the table's formulas."""
    return Cells(*(_fraction(v) for v in counts.cells()))


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
    table = FORMULAS["mcc"]
    formula = table.text
    tp, fp, tn, fn = k.cells()
    filled = (
        f"({c(tp)}·{c(tn)}−{c(fp)}·{c(fn)})/"
        f"√(({c(tp)}+{c(fp)})({c(tp)}+{c(fn)})({c(tn)}+{c(fp)})({c(tn)}+{c(fn)}))"
    )
    cells = _exact_cells(k)
    num, prod = table.parts(cells, Fraction(1))
    if prod == 0:
        return undefined(table.why(cells), name="MCC", formula=formula, filled=filled)
    if num == 0:  # exactly 0, whatever the root: never "≈ 0"
        return from_fraction(Fraction(0), 0.0, name="MCC", formula=formula, filled=filled)
    if _whole(k) and prod.denominator == 1:
        root = math.isqrt(prod.numerator)
        if root * root == prod.numerator:  # exact only when the product is a perfect square
            return from_fraction(num / root, 0.0, name="MCC", formula=formula, filled=filled)
    return Metric(_root_ratio(num, prod), None, None, "MCC", formula, filled)


def _root(key: str, k: Counts, filled: str) -> Metric:
    """numerator / √(square) from the table (the Fowlkes–Mallows index): exact when the
    square is a perfect square of whole counts, else correctly rounded from fractions."""
    table = FORMULAS[key]
    name, formula = table.name, table.text
    cells = _exact_cells(k)
    num, square = table.parts(cells, Fraction(1))
    if square == 0:
        return undefined(table.why(cells), name=name, formula=formula, filled=filled)
    if num == 0:
        return from_fraction(Fraction(0), 0.0, name=name, formula=formula, filled=filled)
    if _whole(k) and square.denominator == 1:
        root = math.isqrt(square.numerator)
        if root * root == square.numerator:
            return from_fraction(num / root, 0.0, name=name, formula=formula, filled=filled)
    return Metric(_root_ratio(num, square), None, None, name, formula, filled)


def _of_sum(first: Metric, second: Metric, key: str, counts: Counts) -> Metric:
    """A rate plus a rate less 1 (informedness, markedness), undefined with the first
    undefined rate's reason; exact from the table's one division of the counts."""
    table = FORMULAS[key]
    name, formula = table.name, table.text
    for m in (first, second):
        if m.value is None:
            return undefined(str(m.reason), name=name, formula=formula)
    filled = f"{first.short()}+{second.short()}−1"
    if first.exact is not None and second.exact is not None:
        num, den = table.parts(_exact_cells(counts), Fraction(1))
        return from_fraction(Fraction(num) / den, 0.0, name=name, formula=formula, filled=filled)
    assert first.value is not None and second.value is not None  # both checked above
    return Metric(first.value + second.value - 1, None, None, name, formula, filled)


def _rate_ratio(key: str, counts: Counts, filled: str) -> Metric:
    """A ratio of two rates (LR+, LR−), undefined if either rate is or the bottom is 0.
    Taken from the counts exactly (the table's (TP·N)/(FP·P)), since a tiny weighted
    rate may round to 0 as a float."""
    table = FORMULAS[key]
    cells = _exact_cells(counts)
    num, den = table.parts(cells, Fraction(1))
    name, formula = table.name, table.text
    if den == 0:
        return undefined(table.why(cells), name=name, formula=formula, filled=filled)
    value = Fraction(num) / den
    if value > _LARGEST:
        return undefined(
            f"{name} is about {_scientific(value)}, past the largest float (about 1.8e+308)",
            name=name,
            formula=formula,
            filled=filled,
        )
    if _whole(counts):
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
    table = FORMULAS["lift"]
    tp, fp, fn = counts.tp, counts.fp, counts.fn
    name, formula = table.name, table.text
    filled = f"({c(tp)}/({c(tp)}+{c(fp)}))/(({c(tp)}+{c(fn)})/{c(counts.total)})"
    cells = _exact_cells(counts)
    num, den = table.parts(cells, Fraction(1))
    if den == 0:
        # With no predicted positives the counts say nothing more than that.
        shown = filled if tp + fp != 0 else ""
        return undefined(table.why(cells), name=name, formula=formula, filled=shown)
    exact = Fraction(num) / den
    if _whole(counts):
        return from_fraction(exact, float(exact), name=name, formula=formula, filled=filled)
    return Metric(float(exact), None, None, name, formula, filled)


def _rate(key: str, cells: Cells, whole: bool) -> Metric:
    """A proportion of the table (precision, recall, ...) at these counts."""
    r = RATES[key]
    num, den = r.parts(cells, Fraction(1))
    return ratio(
        num,
        den,
        exact_ok=whole,
        reason=r.why(cells),
        name=r.name,
        formula=r.text,
        filled=r.filled(cells),
    )


def _balanced(counts: Counts, recall: Metric, specificity: Metric) -> Metric:
    """(TPR+TNR)/2, from the table's one division of the counts."""
    table = FORMULAS["balanced_accuracy"]
    name, formula = table.name, table.text
    if recall.value is None or specificity.value is None:
        return undefined(
            str(recall.reason if recall.value is None else specificity.reason),
            name=name,
            formula=formula,
        )
    if recall.exact is not None and specificity.exact is not None:
        num, den = table.parts(_exact_cells(counts), Fraction(1))
        filled = f"({recall.short()}+{specificity.short()})/2"
        return from_fraction(Fraction(num) / den, 0.0, name=name, formula=formula, filled=filled)
    return Metric((recall.value + specificity.value) / 2, None, None, name, formula)


def _of_rates(top: Metric, bottom: Metric) -> str:
    """``(8/10)/(2/10)``: a ratio of two rates filled in with each rate's counts, so
    each names its denominator (the ratio itself is no count over a count: its value
    is the reduced fraction)."""
    return f"({top.short()})/({bottom.short()})"


def threshold_metrics(counts: Counts, *, beta: float = 2.0) -> dict[str, Metric]:
    """All single-threshold metrics, keyed and ordered as :data:`METRIC_NAMES`.

    >>> m = threshold_metrics(Counts(tp=2, fp=1, tn=1, fn=1))
    >>> m["precision"].describe()
    'precision = TP/(TP+FP) = 2/(2+1) = 2/3 ≈ 0.6667'
    >>> m["f1"].value_text()  # 2TP/(2TP+FP+FN) as counted
    '4/6 ≈ 0.6667'
    >>> threshold_metrics(Counts(tp=0, fp=0, tn=2, fn=3))["precision"].reason
    'No predicted positives (TP+FP=0)'
    """
    cells = Cells(*counts.cells())
    whole = _whole(counts)
    recall = _rate("recall", cells, whole)
    specificity = _rate("specificity", cells, whole)
    fpr = _rate("fpr", cells, whole)
    fnr = _rate("fnr", cells, whole)
    out = {
        "precision": _rate("precision", cells, whole),
        "recall": recall,
        "f1": f_beta(counts, beta=1.0),
        "fbeta": f_beta(counts, beta=beta),
        "accuracy": _rate("accuracy", cells, whole),
        "specificity": specificity,
        "fpr": fpr,
        "fnr": fnr,
        "npv": _rate("npv", cells, whole),
        "balanced_accuracy": _balanced(counts, recall, specificity),
        "mcc": _mcc(counts),
        "prevalence": _rate("prevalence", cells, whole),
        "queue_rate": _rate("queue_rate", cells, whole),
        "lr_plus": _rate_ratio("lr_plus", counts, _of_rates(recall, fpr)),
        "lr_minus": _rate_ratio("lr_minus", counts, _of_rates(fnr, specificity)),
        "lift": lift(counts),
    }
    tp, fp, tn, fn = (c(v) for v in counts.cells())
    out["cohen_kappa"] = _rate_ratio(
        "cohen_kappa",
        counts,
        f"2({tp}·{tn}−{fp}·{fn})/(({tp}+{fp})({fp}+{tn})+({tp}+{fn})({fn}+{tn}))",
    )
    out["informedness"] = _of_sum(recall, specificity, "informedness", counts)
    out["markedness"] = _of_sum(out["precision"], out["npv"], "markedness", counts)
    out["diagnostic_odds_ratio"] = _rate_ratio(
        "diagnostic_odds_ratio", counts, f"({tp}·{tn})/({fp}·{fn})"
    )
    out["fowlkes_mallows"] = _root("fowlkes_mallows", counts, f"{tp}/√(({tp}+{fp})({tp}+{fn}))")
    out["jaccard"] = _rate("jaccard", cells, whole)
    return out
