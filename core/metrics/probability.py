"""Metrics of the probabilities themselves: log loss and Brier score.

They need every score in [0, 1]. Scores outside (logits, margins) are fine
for every ranking metric, and these two are then undefined with a reason.
Nothing is clipped: a certain wrong prediction makes log loss undefined.
"""

from __future__ import annotations

import math

import numpy as np
from threshold_lab.core.blocks import blocks, dot
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.metrics.metric import Metric, undefined

LOG_LOSS = ("log loss", "−mean[y·ln p + (1−y)·ln(1−p)]")
BRIER = ("Brier score", "mean[(p − y)²]")


def _such_rows(n: int) -> str:
    """``1 such row``, ``2 such rows``."""
    return "1 such row" if n == 1 else f"{n:,} such rows"


def _not_probabilities(data: Dataset, name: str, formula: str) -> Metric | None:
    if data.are_probabilities:
        return None
    outside = np.flatnonzero((data.scores < 0) | (data.scores > 1))
    i = int(outside[0])
    return undefined(
        f"Scores are not probabilities: row {data.shown_id(i)} "
        f"has score {float(data.scores[i])!r}, "
        f"outside [0, 1] ({_such_rows(outside.shape[0])})",
        name=name,
        formula=formula,
    )


def log_loss(data: Dataset) -> Metric:
    """Mean of −[y·ln p + (1−y)·ln(1−p)], weighted when weights are given.

    >>> from threshold_lab.core.data.dataset import make_dataset
    >>> log_loss(make_dataset([0.1, 0.2, 0.7, 0.99], [0, 0, 1, 1])).value_text()
    '≈ 0.1738'
    >>> print(log_loss(make_dataset([0.0, 0.5], [1, 0])).reason)
    Row 1 is a certain wrong prediction (score 0.0 for an actual positive): log loss is infinite
    """
    name, formula = LOG_LOSS
    bad = _not_probabilities(data, name, formula)
    if bad:
        return bad
    p, y, w = data.scores, data.labels, data.weights
    total, weight = 0.0, _total_weight(data)
    for b in blocks(0, data.n):  # small temporaries on 10^7 rows
        yb, pb = y[b], p[b]
        # Both logarithms of every row, then the one its label needs (ln p, or ln(1 − p)
        # as log1p(−p)): whole-block logarithms run in SIMD, where a masked one (``where=``)
        # ran element by element and cost three times as much.
        with np.errstate(divide="ignore"):
            per_row = np.log(pb)
            other = np.log1p(np.negative(pb))
        np.copyto(per_row, other, where=~yb)
        if w is None:
            part = float(per_row.sum())
        else:  # a zero-weight row counts for nothing, even a certain wrong one
            part = dot(np.where(w[b] > 0, per_row, 0.0), w[b] / weight)
        if not math.isfinite(part):
            # −inf: a certain wrong prediction (a positive scored 0, a negative 1) of some
            # weight makes the mean infinite; the first is named (blocks run in row order).
            certain_wrong = np.where(yb, pb == 0.0, pb == 1.0)
            if w is not None:
                certain_wrong &= w[b] > 0
            i = b.start + int(np.flatnonzero(certain_wrong)[0])
            side = "an actual positive" if y[i] else "an actual negative"
            return undefined(
                f"Row {data.shown_id(i)} is a certain wrong prediction "
                f"(score {float(p[i])!r} for {side}): log loss is infinite",
                name=name,
                formula=formula,
            )
        total -= part
    value = total / data.n if w is None else total
    return Metric(value, None, None, name, formula)


def _total_weight(data: Dataset) -> float:
    """The weights' total, by which each weight is divided before it multiplies a
    loss: a weight near the largest float times a loss above 1 would overflow."""
    return float(data.n) if data.weights is None else float(data.weights.sum())


def brier_score(data: Dataset) -> Metric:
    """Mean of (p − y)², weighted when weights are given.

    >>> from threshold_lab.core.data.presets import preset
    >>> brier_score(preset("canonical").data).value_text()
    '≈ 0.332'
    """
    name, formula = BRIER
    bad = _not_probabilities(data, name, formula)
    if bad:
        return bad
    p, y, w = data.scores, data.labels, data.weights
    total, weight = 0.0, _total_weight(data)
    for b in blocks(0, data.n):
        err = (p[b] - y[b]) ** 2
        total += float(err.sum()) if w is None else dot(err, w[b] / weight)
    value = total / data.n if w is None else total
    return Metric(value, None, None, name, formula)
