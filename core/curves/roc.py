"""The ROC curve of a sweep: its (FPR, TPR) points and the area under it (ROC AUC).

The area is the trapezoid rule over the exact, tie-grouped sweep: a tie
between the classes is one diagonal segment, which is the same number as the
pairwise ranking probability with ties counted one half.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt

from core.blocks import blocks, shifted
from core.curves.sweep import Sweep
from core.metrics.metric import Metric, from_fraction, undefined

NO_BOTH_CLASSES = "ROC needs both actual classes: {missing}"

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


def roc_auc(sweep: Sweep) -> Metric:
    """Area under the ROC curve by the trapezoid rule over the exact sweep.

    A tie between classes is one diagonal segment (half credit).

    >>> from core.data.presets import preset
    >>> from core.curves.sweep import build_sweep
    >>> roc_auc(build_sweep(preset("canonical").data)).value_text()
    '7/12 ≈ 0.5833'
    """
    missing = _missing_classes(sweep)
    name, formula = "ROC AUC", "Σ ΔFPR·(TPR+TPR′)/2"
    if missing:
        return undefined(NO_BOTH_CLASSES.format(missing=missing), name=name, formula=formula)
    tp, fp = sweep.tp, sweep.fp
    # Σ ΔFP·(TP+TP′) over consecutive points, a block at a time (small temporaries).
    parts = [
        np.sum((fp[b] - fp[shifted(b, -1)]) * (tp[b] + tp[shifted(b, -1)]))
        for b in blocks(1, sweep.size)
    ]
    if not sweep.weighted:
        # Twice the area times P·N is a whole number: sum it in integers.
        twice = sum(int(v) for v in parts)
        exact = Fraction(twice, 2 * int(sweep.positives) * int(sweep.negatives))
        return from_fraction(exact, 0.0, name=name, formula=formula)
    area = float(sum(float(v) for v in parts)) / (
        2.0 * float(sweep.positives) * float(sweep.negatives)
    )
    return Metric(area, None, None, name, formula)
