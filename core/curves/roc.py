"""The ROC curve of a sweep: its (FPR, TPR) points and the area under it (ROC AUC).

The area is the trapezoid rule over the exact, tie-grouped sweep: a tie
between the classes is one diagonal segment, which is the same number as the
pairwise ranking probability with ties counted one half.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import blocks, dot, shifted
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.metrics.metric import Metric, from_fraction, undefined

NO_BOTH_CLASSES = "ROC needs both actual classes: {missing}"

FloatArray = npt.NDArray[np.float64]

#: Whole counts below this total keep Σ ΔFP·(TP+TP′) (at most 2·P·N) inside int64.
_INT64_SAFE = 2**31


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
        def whole(a: npt.NDArray[np.generic]) -> npt.NDArray[np.int64]:
            return a.astype(np.int64, copy=False)  # counts are int64 already: no copy

        twice = sum(
            int(
                np.sum(
                    (whole(fp[b]) - whole(fp[shifted(b, -1)]))
                    * (whole(tp[b]) + whole(tp[shifted(b, -1)]))
                )
            )
            for b in blocks(1, sweep.size)
        )
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
