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
