"""Metrics of the probabilities themselves: log loss and Brier score.

They need every score in [0, 1]. Scores outside (logits, margins) are fine
for every ranking metric, and these two are then undefined with a reason.
Nothing is clipped: a certain wrong prediction makes log loss undefined.
"""

from __future__ import annotations

import math

import numpy as np
from threshold_lab.core.blocks import DOT_BLOCK, blocks, dot, shifted
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.metrics.metric import Metric, undefined

LOG_LOSS = ("log loss", "−mean[y·ln p + (1−y)·ln(1−p)]")
BRIER = ("Brier score", "mean[(p − y)²]")


def _not_probabilities(data: Dataset, name: str, formula: str) -> Metric | None:
    if data.are_probabilities:
        return None
    outside = np.flatnonzero((data.scores < 0) | (data.scores > 1))
    i = int(outside[0])
    return undefined(
        f"Scores are not probabilities: row {data.shown_id(i)} "
        f"has score {float(data.scores[i])!r}, "
        f"outside [0, 1] ({outside.shape[0]} such rows)",
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


def probability_summaries(data: Dataset, sweep: Sweep) -> tuple[Metric, Metric]:
    """:func:`log_loss` and :func:`brier_score` of ``data``, whose sweep is ``sweep``.

    Where the counts are whole, both are sums over the tie groups rather than the
    rows: every row of a group has its score s, so the group adds A·ln s + B·ln(1 − s)
    and A·(1 − s)² + B·s² (A positives, B negatives), one pass over the sweep for the
    two, in place in small buffers (at 10^7 rows: 0.08 s and 0.014 s over the rows,
    against about 0.04 s for both). Weights that are not whole are summed over the
    rows (a group's weight as a difference of running sums would round), as is a
    certain wrong prediction, whose row the reason names.

    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> from threshold_lab.core.data.dataset import make_dataset
    >>> d = make_dataset([0.1, 0.2, 0.7, 0.99, 0.7], [0, 0, 1, 1, 0])
    >>> [m.value_text() for m in probability_summaries(d, build_sweep(d))]
    ['≈ 0.3798', '≈ 0.126']
    """
    ends = sweep.thresholds
    if (
        sweep.size < 2
        or not sweep.whole_counts()
        or not (float(ends[0]) <= 1.0 and float(ends[-1]) >= 0.0)
    ):
        return log_loss(data), brier_score(data)
    logs, squares = _group_sums(sweep)
    total = float(sweep.positives) + float(sweep.negatives)
    brier = Metric(squares / total, None, None, *BRIER)
    if not math.isfinite(logs):  # a certain wrong prediction: the rows say which
        return log_loss(data), brier
    return Metric(-logs / total, None, None, *LOG_LOSS), brier


def _group_sums(sweep: Sweep) -> tuple[float, float]:
    """Σ A·ln s + B·ln(1 − s) and Σ A·(1 − s)² + B·s² over the tie groups (group k joins
    points k − 1 and k, at score thresholds[k − 1]); −inf in the first for a group of
    some positives at score 0 or of some negatives at score 1."""
    tp, fp, scores = sweep.tp, sweep.fp, sweep.thresholds
    m = sweep.size - 1
    size = DOT_BLOCK  # each product one BLAS call on this thread; the buffers stay cached
    a, b, w = np.empty(size), np.empty(size), np.empty(size)
    logs = squares = 0.0
    for blk in blocks(1, m + 1, size):
        before, n = shifted(blk, -1), blk.stop - blk.start
        pos, neg, work = a[:n], b[:n], w[:n]
        np.subtract(tp[blk], tp[before], out=pos)
        np.subtract(fp[blk], fp[before], out=neg)
        s = scores[blk.start - 1 : blk.stop - 1]
        with np.errstate(divide="ignore"):
            np.log(s, out=work)
            # Only the last group can score 0 (scores descend): 0·ln 0 where it has no
            # positives (the limit; the product would be NaN).
            if s[-1] == 0.0 and pos[-1] == 0:
                work[-1] = 0.0
            logs += float(np.dot(pos, work))
            np.negative(s, out=work)
            np.log1p(work, out=work)
            if s[0] == 1.0 and neg[0] == 0:  # only the first group can score 1
                work[0] = 0.0
            logs += float(np.dot(neg, work))
        np.subtract(1.0, s, out=work)
        np.multiply(work, work, out=work)
        squares += float(np.dot(pos, work))
        np.multiply(s, s, out=work)
        squares += float(np.dot(neg, work))
    return logs, squares
