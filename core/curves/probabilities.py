"""Log loss and the Brier score of a swept dataset, summed over its tie groups.

:mod:`threshold_lab.core.metrics.probability` sums both over the rows; where the
counts are whole the sweep's tie groups give the same sums in one pass over the
distinct scores (the report's case at 10^7 rows).
"""

from __future__ import annotations

import math

import numpy as np
from threshold_lab.core.blocks import DOT_BLOCK, blocks, dot, shifted
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.metrics.metric import Metric
from threshold_lab.core.metrics.probability import BRIER, LOG_LOSS, brier_score, log_loss


def probability_summaries(data: Dataset, sweep: Sweep) -> tuple[Metric, Metric]:
    """:func:`log_loss` and :func:`brier_score` of ``data``, whose sweep is ``sweep``.

    Where the counts are whole, both are sums over the tie groups rather than the
    rows: every row of a group has its score s, so the group adds A·ln s + B·ln(1 − s)
    and A·(1 − s)² + B·s² (A positives, B negatives), one pass over the sweep for the
    two, in place in small buffers: a term a distinct score rather than a row. Weights
    that are not whole are summed over the rows (a group's weight as a difference of
    running sums would round), as is a certain wrong prediction, whose row the reason
    names.

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


def probability_from_sums(
    data: Dataset, sweep: Sweep, logs: float | None, squares: float | None
) -> tuple[Metric, Metric]:
    """:func:`probability_summaries` from Σ A·ln s + B·ln(1 − s) and Σ A·(1 − s)² + B·s²
    summed elsewhere over the groups of ``sweep`` (whole counts); None: a score is
    outside [0, 1], and the rows say which. A certain wrong prediction (−inf) is
    named by its row, as :func:`log_loss` names it."""
    if logs is None or squares is None:
        return log_loss(data), brier_score(data)
    total = float(sweep.positives) + float(sweep.negatives)
    brier = Metric(squares / total, None, None, *BRIER)
    if not math.isfinite(logs):
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
            logs += dot(pos, work)
            np.negative(s, out=work)
            np.log1p(work, out=work)
            if s[0] == 1.0 and neg[0] == 0:  # only the first group can score 1
                work[0] = 0.0
            logs += dot(neg, work)
        np.subtract(1.0, s, out=work)
        np.multiply(work, work, out=work)
        squares += dot(pos, work)
        np.multiply(s, s, out=work)
        squares += dot(neg, work)
    return logs, squares
