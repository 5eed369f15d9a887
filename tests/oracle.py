"""Slow, obviously correct reference implementations, used only by tests.

Everything here loops over rows or pairs with exact Fractions, so it shares
no algorithm with core/.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from fractions import Fraction


def counts(scores: Sequence[float], labels: Sequence[int], t: float | None) -> tuple[int, ...]:
    """(TP, FP, TN, FN) by checking each row against score >= t."""
    tp = fp = tn = fn = 0
    for s, y in zip(scores, labels, strict=True):
        pred = t is not None and s >= t
        if pred and y:
            tp += 1
        elif pred:
            fp += 1
        elif y:
            fn += 1
        else:
            tn += 1
    return tp, fp, tn, fn


def thresholds(scores: Sequence[float]) -> list[float | None]:
    """Above-all, then each distinct score descending."""
    return [None, *sorted(set(scores), reverse=True)]


def pairwise_auc(scores: Sequence[float], labels: Sequence[int]) -> Fraction:
    """P(positive outranks negative), ties counting one half, over every pair."""
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]
    wins = Fraction(0)
    for p in pos:
        for n in neg:
            wins += 1 if p > n else Fraction(1, 2) if p == n else 0
    return wins / (len(pos) * len(neg))


def average_precision(scores: Sequence[float], labels: Sequence[int]) -> Fraction:
    """Σ (R_k − R_{k−1}) P_k over distinct thresholds, with exact fractions."""
    positives = sum(1 for y in labels if y)
    total, prev_recall = Fraction(0), Fraction(0)
    for t in thresholds(scores)[1:]:
        tp, fp, _, _ = counts(scores, labels, t)
        recall = Fraction(tp, positives)
        if recall > prev_recall:
            total += (recall - prev_recall) * Fraction(tp, tp + fp)
        prev_recall = recall
    return total


def pr_trapezoid(scores: Sequence[float], labels: Sequence[int]) -> Fraction:
    """Trapezoid over (recall, precision) from (0, 1) through every defined point."""
    positives = sum(1 for y in labels if y)
    points = [(Fraction(0), Fraction(1))]
    for t in thresholds(scores)[1:]:
        tp, fp, _, _ = counts(scores, labels, t)
        points.append((Fraction(tp, positives), Fraction(tp, tp + fp)))
    return sum(
        ((r1 - r0) * (p0 + p1) / 2 for (r0, p0), (r1, p1) in itertools.pairwise(points)),
        Fraction(0),
    )


def weighted_counts(
    scores: Sequence[float], labels: Sequence[int], weights: Sequence[Fraction], t: float | None
) -> tuple[Fraction, ...]:
    """(TP, FP, TN, FN) as exact weighted sums, each row checked against score >= t."""
    tp = fp = tn = fn = Fraction(0)
    for s, y, w in zip(scores, labels, weights, strict=True):
        pred = t is not None and s >= t
        if pred and y:
            tp += w
        elif pred:
            fp += w
        elif y:
            fn += w
        else:
            tn += w
    return tp, fp, tn, fn


def goal_metric(
    name: str, tp: Fraction, fp: Fraction, tn: Fraction, fn: Fraction, beta2: Fraction = Fraction(4)
) -> Fraction | None:
    """A goal metric from its textbook definition, exactly; MCC as sign·MCC² (same
    order); None where a denominator is zero."""
    pos, neg, n = tp + fn, fp + tn, tp + fp + tn + fn

    def r(a: Fraction, b: Fraction) -> Fraction | None:
        return None if b == 0 else a / b

    tpr, fpr, tnr, fnr = r(tp, pos), r(fp, neg), r(tn, neg), r(fn, pos)
    if name == "mcc":
        d = (tp + fp) * pos * neg * (tn + fn)
        if d == 0:
            return None
        num = tp * tn - fp * fn
        return (1 if num >= 0 else -1) * num * num / d
    if name == "fowlkes_mallows":  # √(PPV·TPR), squared (the same order: it is >= 0)
        ppv = r(tp, tp + fp)
        return None if ppv is None or tpr is None else ppv * tpr
    ppv, npv = r(tp, tp + fp), r(tn, tn + fn)
    p_o, p_e = (tp + tn) / n, ((tp + fp) * pos + (tn + fn) * neg) / (n * n)
    table: dict[str, Fraction | None] = {
        "cohen_kappa": None if p_e == 1 else (p_o - p_e) / (1 - p_e),
        "informedness": None if tpr is None or tnr is None else tpr + tnr - 1,
        "markedness": None if ppv is None or npv is None else ppv + npv - 1,
        "diagnostic_odds_ratio": r(tp * tn, fp * fn),
        "jaccard": r(tp, tp + fp + fn),
        "precision": r(tp, tp + fp),
        "recall": tpr,
        "specificity": tnr,
        "fpr": fpr,
        "fnr": fnr,
        "npv": r(tn, tn + fn),
        "accuracy": r(tp + tn, n),
        "queue_rate": r(tp + fp, n),
        "predicted_positives": tp + fp,
        "f1": r(2 * tp, 2 * tp + fp + fn),
        "fbeta": r((1 + beta2) * tp, (1 + beta2) * tp + beta2 * fn + fp),
        "balanced_accuracy": None if tpr is None or tnr is None else (tpr + tnr) / 2,
        "youden": None if tpr is None or fpr is None else tpr - fpr,
        "lr_plus": None if tpr is None or not fpr else tpr / fpr,
        "lr_minus": None if fnr is None or not tnr else fnr / tnr,
        # pROC's closest.topleft: (1 − TPR)² + FPR².
        "topleft": None if tpr is None or fpr is None else (1 - tpr) ** 2 + fpr**2,
    }
    return table[name]


def solve_goal(
    scores: Sequence[float],
    labels: Sequence[int],
    weights: Sequence[Fraction],
    objective: str,
    maximise: bool,
    constraints: Sequence[tuple[str, bool, Fraction]] = (),
    costs: dict[str, Fraction] | None = None,
    prevalence: Fraction | None = None,
) -> tuple[int, Fraction | None, int, int] | None:
    """Every threshold tried: (index of the chosen point, its objective, points attaining
    it, feasible points), or None when no point is feasible. ``constraints`` are
    (metric, at_least, bound); ``costs`` maps cells to constants."""
    rows = []
    for t in thresholds(scores):
        tp, fp, tn, fn = weighted_counts(scores, labels, weights, t)
        if prevalence is not None:
            pos, neg = tp + fn, fp + tn
            tp, fn = prevalence * tp / pos, prevalence * fn / pos
            fp, tn = (1 - prevalence) * fp / neg, (1 - prevalence) * tn / neg
        cells = {"tp": tp, "fp": fp, "tn": tn, "fn": fn}
        ok = True
        for metric, at_least, bound in constraints:
            v = goal_metric(metric, tp, fp, tn, fn)
            b = (
                (1 if bound >= 0 else -1) * bound * bound
                if metric in ("mcc", "fowlkes_mallows")
                else bound
            )
            if v is None or (v < b if at_least else v > b):
                ok = False
        if costs is not None:
            value: Fraction | None = sum((c * cells[k] for k, c in costs.items()), Fraction(0))
        else:
            value = goal_metric(objective, tp, fp, tn, fn)
        rows.append((ok and value is not None, value))
    feasible = [(k, v) for k, (ok, v) in enumerate(rows) if ok]
    if not feasible:
        return None
    pick = max if maximise else min
    best = pick(v for _, v in feasible if v is not None)
    attaining = [k for k, v in feasible if v == best]
    return attaining[0], best, len(attaining), len(feasible)


def measure(
    name: str, scores: Sequence[float], labels: Sequence[int], t: float | None
) -> Fraction | None:
    """A summary (``roc_auc``/``auc``, ``average_precision``/``ap``,
    ``pr_trapezoid_area``/``trapezoid``, ``groups``) or a metric at ``t`` (precision,
    recall, f1, accuracy), counted row by row; None where the denominator is 0."""
    summaries = {
        "auc": pairwise_auc,
        "roc_auc": pairwise_auc,
        "ap": average_precision,
        "average_precision": average_precision,
        "trapezoid": pr_trapezoid,
        "pr_trapezoid_area": pr_trapezoid,
    }
    if name in summaries:
        return summaries[name](scores, labels)
    if name == "groups":
        return Fraction(len(set(scores)))
    tp, fp, tn, fn = counts(scores, labels, t)
    num, den = {
        "precision": (tp, tp + fp),
        "recall": (tp, tp + fn),
        "f1": (2 * tp, 2 * tp + fp + fn),
        "accuracy": (tp + tn, tp + fp + tn + fn),
    }[name]
    return None if den == 0 else Fraction(num, den)
