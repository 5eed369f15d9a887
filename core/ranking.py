"""Whole-ranking summaries of a sweep: ROC AUC, average precision, PR trapezoid.

Average precision (step-weighted, not interpolated) and the trapezoidal area
under the precision-recall curve are different numbers; both are here, each
named for what it is.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt

from core.metric import Metric, from_fraction, undefined
from core.sweep import Sweep

NO_BOTH_CLASSES = "ROC needs both actual classes: {missing}"
#: Exact fractions for the PR summaries are summed term by term; beyond this
#: many recall steps only the decimal is given (the value itself is unaffected).
EXACT_STEP_LIMIT = 2000

FloatArray = npt.NDArray[np.float64]


def _missing_classes(sweep: Sweep) -> str | None:
    missing = []
    if sweep.positives == 0:
        missing.append("no actual positives (TP+FN=0)")
    if sweep.negatives == 0:
        missing.append("no actual negatives (FP+TN=0)")
    return " and ".join(missing) if missing else None


def roc_points(sweep: Sweep) -> tuple[FloatArray, FloatArray] | None:
    """(FPR, TPR) at every operating point, or None when a class is missing."""
    if _missing_classes(sweep):
        return None
    fpr = np.asarray(sweep.fp / float(sweep.negatives), dtype=np.float64)
    tpr = np.asarray(sweep.tp / float(sweep.positives), dtype=np.float64)
    return fpr, tpr


def precision_recall_points(
    sweep: Sweep,
) -> tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]] | None:
    """(recall, precision, defined) at every operating point; None without positives.

    Precision is undefined (``defined`` False, value NaN) where nothing is
    predicted positive, as at the above-all point.
    """
    if sweep.positives == 0:
        return None
    predicted = sweep.tp + sweep.fp
    defined = predicted > 0
    precision = np.full(predicted.shape[0], np.nan)
    np.divide(sweep.tp, predicted, out=precision, where=defined)
    recall = np.asarray(sweep.tp / float(sweep.positives), dtype=np.float64)
    return recall, np.asarray(precision, dtype=np.float64), defined


def roc_auc(sweep: Sweep) -> Metric:
    """Area under the ROC curve by the trapezoid rule over the exact sweep.

    A tie between classes is one diagonal segment (half credit).

    >>> from core.presets import preset
    >>> from core.sweep import build_sweep
    >>> roc_auc(build_sweep(preset("canonical").data)).value_text()
    '7/12 ≈ 0.5833'
    """
    missing = _missing_classes(sweep)
    name, formula = "ROC AUC", "Σ ΔFPR·(TPR+TPR′)/2"
    if missing:
        return undefined(NO_BOTH_CLASSES.format(missing=missing), name=name, formula=formula)
    tp, fp = sweep.tp, sweep.fp
    if not sweep.weighted:
        # Twice the area times P·N is a whole number: sum it in integers.
        twice = int(np.sum(np.diff(fp) * (tp[1:] + tp[:-1]), dtype=np.int64))
        exact = Fraction(twice, 2 * int(sweep.positives) * int(sweep.negatives))
        return from_fraction(exact, 0.0, name=name, formula=formula)
    area = float(np.sum(np.diff(fp) * (tp[1:] + tp[:-1]))) / (
        2.0 * float(sweep.positives) * float(sweep.negatives)
    )
    return Metric(area, None, None, name, formula)


def _no_positives(name: str, formula: str) -> Metric:
    return undefined(
        "No actual positives (TP+FN=0): recall is undefined", name=name, formula=formula
    )


def average_precision(sweep: Sweep) -> Metric:
    """Step-weighted average precision: Σ (R_k − R_{k−1}) · P_k over the sweep.

    Not interpolated. Tied rows enter together, so a tie between a positive
    and a negative is one step at their joint precision.

    >>> from core.presets import preset
    >>> from core.sweep import build_sweep
    >>> average_precision(build_sweep(preset("ap-vs-trapezoid").data)).value_text()
    '5/6 ≈ 0.8333'
    """
    name, formula = "average precision", "Σ (Rₖ−Rₖ₋₁)·Pₖ"
    if sweep.positives == 0:
        return _no_positives(name, formula)
    tp, fp = sweep.tp, sweep.fp
    gain = np.diff(tp)
    steps = np.flatnonzero(gain > 0) + 1  # points where recall rises
    if not sweep.weighted and steps.shape[0] <= EXACT_STEP_LIMIT:
        total = sum(
            (
                Fraction(int(gain[k - 1]), 1) * Fraction(int(tp[k]), int(tp[k] + fp[k]))
                for k in steps
            ),
            Fraction(0),
        )
        return from_fraction(total / int(sweep.positives), 0.0, name=name, formula=formula)
    precision = tp[steps] / (tp[steps] + fp[steps])
    value = float(np.sum(gain[steps - 1] * precision) / float(sweep.positives))
    return Metric(value, None, None, name, formula)


def pr_trapezoid_area(sweep: Sweep) -> Metric:
    """Trapezoidal area under the precision-recall points.

    Starts from the conventional point recall 0, precision 1 (as
    scikit-learn's ``auc(recall, precision)`` does) and joins every defined
    operating point with straight lines. This interpolates, so it generally
    differs from :func:`average_precision`.

    >>> from core.presets import preset
    >>> from core.sweep import build_sweep
    >>> pr_trapezoid_area(build_sweep(preset("ap-vs-trapezoid").data)).value_text()
    '19/24 ≈ 0.7917'
    """
    name, formula = "PR trapezoid area", "Σ (Rₖ−Rₖ₋₁)·(Pₖ+Pₖ₋₁)/2"
    if sweep.positives == 0:
        return _no_positives(name, formula)
    tp, fp = sweep.tp, sweep.fp
    keep = np.flatnonzero((tp + fp) > 0)
    tp_k, pred_k = tp[keep], (tp + fp)[keep]
    rises = np.flatnonzero(np.diff(np.concatenate(([0], tp_k))) > 0)
    if not sweep.weighted and rises.shape[0] <= EXACT_STEP_LIMIT:
        # Only segments where recall rises have width.
        total = Fraction(0)
        for j in rises:
            prev = Fraction(1) if j == 0 else Fraction(int(tp_k[j - 1]), int(pred_k[j - 1]))
            here = Fraction(int(tp_k[j]), int(pred_k[j]))
            width = int(tp_k[j]) - (0 if j == 0 else int(tp_k[j - 1]))
            total += width * (prev + here) / 2
        return from_fraction(total / int(sweep.positives), 0.0, name=name, formula=formula)
    recall = np.concatenate(([0.0], tp_k / float(sweep.positives)))
    precision = np.concatenate(([1.0], tp_k / pred_k))
    value = float(np.sum(np.diff(recall) * (precision[1:] + precision[:-1]) / 2))
    return Metric(value, None, None, name, formula)
