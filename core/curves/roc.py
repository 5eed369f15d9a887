"""The ROC curve of a sweep: its (FPR, TPR) points and the area under it (ROC AUC).

The area is the trapezoid rule over the exact, tie-grouped sweep: a tie
between the classes is one diagonal segment, which is the same number as the
pairwise ranking probability with ties counted one half.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import blocks, dot, shifted
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.metrics.metric import Metric, from_fraction, undefined

NO_BOTH_CLASSES = "ROC needs both actual classes: {missing}"

FloatArray = npt.NDArray[np.float64]

#: Whole counts below this total keep Σ ΔFP·(TP+TP′) (at most 2·P·N) inside int64.
_INT64_SAFE = 2**31


#: The key in a sweep's memo, for a sweep whose AUC was summed in whole counts: where
#: each block began and the sum of the segments before it.
_CHECKPOINTS = "roc_auc_checkpoints"


def segment_terms(fp: npt.NDArray[Any], tp: npt.NDArray[Any], first: int, last: int) -> int:
    """Σ ΔFP·(TP + TP′) over segments ``first`` .. ``last`` (segment k joins point k − 1
    to point k), in whole counts: twice the area they enclose times P·N."""
    total = 0
    for b in blocks(first, last + 1):
        before = shifted(b, -1)
        # Each block's slices made int64 (whole weights are float64): never the arrays.
        f, f0 = fp[b].astype(np.int64, copy=False), fp[before].astype(np.int64, copy=False)
        t, t0 = tp[b].astype(np.int64, copy=False), tp[before].astype(np.int64, copy=False)
        total += int(np.sum((f - f0) * (t + t0)))
    return total


def segment_sum(sweep: Sweep, first: int, last: int) -> int:
    """:func:`segment_terms` of ``sweep`` (whole counts), from the AUC's own running
    sums where its AUC was summed already: then only the blocks the two ends fall
    in are read, however many segments lie between them."""
    if last < first:
        return 0
    kept = sweep.memo.get(_CHECKPOINTS)
    if kept is None:
        return segment_terms(sweep.fp, sweep.tp, first, last)
    starts: npt.NDArray[np.int64] = kept[0]
    before: list[int] = kept[1]

    def upto(m: int) -> int:  # segments 1 .. m
        if m < 1:
            return 0
        i = int(np.searchsorted(starts, m, side="right")) - 1
        return before[i] + segment_terms(sweep.fp, sweep.tp, int(starts[i]), m)

    return upto(last) - upto(first - 1)


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


def auc_from_sums(
    sweep: Sweep, twice: int, starts: npt.NDArray[np.int64], before: list[int]
) -> Metric:
    """The ROC AUC of ``sweep`` (whole counts, both classes) from Σ ΔFP·(TP+TP′) summed
    elsewhere (``twice``), and the running sums ``before`` each block's first point
    ``starts``, which partial AUCs read (:func:`segment_sum`)."""
    sweep.memo[_CHECKPOINTS] = (starts, before)
    exact = Fraction(twice, 2 * int(sweep.positives) * int(sweep.negatives))
    return from_fraction(exact, 0.0, name="ROC AUC", formula="Σ ΔFPR·(TPR+TPR′)/2")


def roc_auc(sweep: Sweep) -> Metric:
    """Area under the ROC curve by the trapezoid rule over the exact sweep.

    A tie between classes is one diagonal segment (half credit).

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> roc_auc(build_sweep(preset("canonical").data)).value_text()
    '7/12 ≈ 0.5833'
    """
    missing = _missing_classes(sweep)
    name, formula = "ROC AUC", "Σ ΔFPR·(TPR+TPR′)/2"
    if missing:
        return undefined(NO_BOTH_CLASSES.format(missing=missing), name=name, formula=formula)
    tp, fp = sweep.tp, sweep.fp
    if sweep.whole_counts(limit=_INT64_SAFE):
        # Σ ΔFP·(TP+TP′) over consecutive points, a block at a time (small
        # temporaries): twice the area times P·N, a whole number summed in
        # integers. Whole weights (multiplicities) count exactly too.
        twice = 0
        starts: list[int] = []
        sums: list[int] = []
        for b in blocks(1, sweep.size):
            starts.append(b.start)
            sums.append(twice)
            twice += segment_terms(fp, tp, b.start, b.stop - 1)
        # The running sum at each block's start: a partial AUC reads any run of
        # segments from two of these and at most two blocks (see segment_sum).
        sweep.memo[_CHECKPOINTS] = (np.asarray(starts, dtype=np.int64), sums)
        exact = Fraction(twice, 2 * int(sweep.positives) * int(sweep.negatives))
        return from_fraction(exact, 0.0, name=name, formula=formula)
    # Weighted sums can be near the largest float or near the smallest: take the
    # rates first (each in [0, 1]), so no product overflows or underflows to 0.
    pos, neg = float(sweep.positives), float(sweep.negatives)
    area = 0.0
    for b in blocks(1, sweep.size):
        before = shifted(b, -1)
        width = (fp[b] - fp[before]) / neg
        area += dot(width, tp[b] / pos + tp[before] / pos) / 2
    return Metric(area, None, None, name, formula)
