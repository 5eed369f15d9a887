"""A bootstrap's pointwise bands as the charts draw them: around the ROC curve, TPR
from low to high at each FPR of a grid; around the PR curve, precision at each recall."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from threshold_lab.core.intervals import IntervalsShown
from threshold_lab.core.intervals.bootstrap import Bands

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class Band:
    """At each ``x``, from ``low`` to ``high``."""

    x: FloatArray
    low: FloatArray
    high: FloatArray


@dataclass(frozen=True, eq=False)
class DrawnBands:
    """The bands of one finished bootstrap, at its ``confidence``; ``source`` is the
    bootstrap's own bands (the same object while the same run stands: a drawing keyed
    on it is not redone)."""

    roc: Band
    pr: Band
    confidence: float
    source: Bands

    def of(self, kind: str) -> Band:
        """The band around curve ``kind`` (``roc`` or ``pr``)."""
        return self.roc if kind == "roc" else self.pr


def drawn_bands(sure: IntervalsShown | None) -> DrawnBands | None:
    """The bands to draw, when intervals are shown and a bootstrap with bands finished."""
    if sure is None or sure.boot is None or sure.boot.bands is None:
        return None
    b = sure.boot.bands
    return DrawnBands(
        Band(b.fpr, b.tpr_low, b.tpr_high),
        Band(b.recall, b.precision_low, b.precision_high),
        sure.confidence,
        b,
    )
