"""Every single-threshold metric, computed from the four counts.

Each is a :class:`~core.metrics.metric.Metric`: value, exact fraction when the counts
are whole, the formula with the counts filled in, or undefined with the
reason naming the empty denominator.
"""

from __future__ import annotations

import math
from fractions import Fraction

from core.metrics.confusion import Counts
from core.metrics.metric import Metric, from_fraction, is_integral, ratio, undefined
from core.metrics.metric import format_count as c

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
    if all(is_integral(v) for v in (tp, fp, fn)):
        num = (1 + b2) * int(tp)
        exact = num / (num + b2 * int(fn) + int(fp))
        return from_fraction(exact, 0.0, name=name, formula=formula, filled=filled)
    bf = float(b2)
    value = (1 + bf) * tp / ((1 + bf) * tp + bf * fn + fp)
    return Metric(value, None, None, name, formula, filled)


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
    if all(is_integral(v) for v in k.cells()):
        num = int(tp) * int(tn) - int(fp) * int(fn)
        prod = (int(tp) + int(fp)) * (int(tp) + int(fn)) * (int(tn) + int(fp)) * (int(tn) + int(fn))
        root = math.isqrt(prod)
        if root * root == prod:  # exact only when the product is a perfect square
            return from_fraction(
                Fraction(num, root), 0.0, name="MCC", formula=formula, filled=filled
            )
        value = num / math.sqrt(prod)
    else:
        value = (tp * tn - fp * fn) / math.sqrt((tp + fp) * (tp + fn) * (tn + fp) * (tn + fn))
    return Metric(value, None, None, "MCC", formula, filled)


def _rate_ratio(name: str, top: Metric, bottom: Metric, formula: str, filled: str) -> Metric:
    """A ratio of two rates (LR+ and LR−), undefined if either rate is or the bottom is 0."""
    if top.value is None or bottom.value is None:
        reason = top.reason if top.value is None else bottom.reason
        return undefined(str(reason), name=name, formula=formula, filled=filled)
    if bottom.value == 0:
        return undefined(
            f"{bottom.name} is 0, so the ratio has a zero denominator",
            name=name,
            formula=formula,
            filled=filled,
        )
    if top.exact is not None and bottom.exact is not None:
        return from_fraction(
            top.exact / bottom.exact, 0.0, name=name, formula=formula, filled=filled
        )
    return Metric(top.value / bottom.value, None, None, name, formula, filled)


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
    recall = ratio(
        tp,
        tp + fn,
        reason=NO_ACTUAL_POS,
        name="recall",
        formula="TP/(TP+FN)",
        filled=f"{c(tp)}/({c(tp)}+{c(fn)})",
    )
    specificity = ratio(
        tn,
        tn + fp,
        reason=NO_ACTUAL_NEG,
        name="specificity",
        formula="TN/(TN+FP)",
        filled=f"{c(tn)}/({c(tn)}+{c(fp)})",
    )
    fpr = ratio(
        fp,
        fp + tn,
        reason=NO_ACTUAL_NEG,
        name="FPR",
        formula="FP/(FP+TN)",
        filled=f"{c(fp)}/({c(fp)}+{c(tn)})",
    )
    fnr = ratio(
        fn,
        fn + tp,
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
            reason="No rows (n=0)",
            name="prevalence",
            formula="(TP+FN)/n",
            filled=f"({c(tp)}+{c(fn)})/{c(n)}",
        ),
        "queue_rate": ratio(
            tp + fp,
            n,
            reason="No rows (n=0)",
            name="queue rate",
            formula="(TP+FP)/n",
            filled=f"({c(tp)}+{c(fp)})/{c(n)}",
        ),
        "lr_plus": _rate_ratio(
            "LR+", recall, fpr, "TPR/FPR", f"({recall.short()})/({fpr.short()})"
        ),
        "lr_minus": _rate_ratio(
            "LR−", fnr, specificity, "FNR/TNR", f"({fnr.short()})/({specificity.short()})"
        ),
    }
    return out
