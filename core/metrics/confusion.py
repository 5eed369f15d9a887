"""Confusion counts at one threshold, and each row's cell."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.metrics.metric import Number, format_count
from threshold_lab.core.threshold import Threshold, check_threshold

CELL_NAMES = ("TP", "FP", "TN", "FN")


@dataclass(frozen=True)
class Counts:
    """The four cells of the confusion matrix (weighted sums when weighted).

    >>> c = Counts(tp=2, fp=1, tn=1, fn=1)
    >>> c.predicted_positive, c.actual_positive, c.total
    (3, 3, 5)
    """

    tp: Number
    fp: Number
    tn: Number
    fn: Number

    @property
    def actual_positive(self) -> Number:
        return self.tp + self.fn

    @property
    def actual_negative(self) -> Number:
        return self.fp + self.tn

    @property
    def predicted_positive(self) -> Number:
        return self.tp + self.fp

    @property
    def predicted_negative(self) -> Number:
        return self.tn + self.fn

    @property
    def total(self) -> Number:
        return self.tp + self.fp + self.tn + self.fn

    def as_json(self) -> dict[str, Number]:
        return {"tp": self.tp, "fp": self.fp, "tn": self.tn, "fn": self.fn}

    def text(self) -> str:
        """``TP 2, FP 1, TN 1, FN 1``."""
        return ", ".join(
            f"{name} {format_count(v)}" for name, v in zip(CELL_NAMES, self.cells(), strict=True)
        )

    def cells(self) -> tuple[Number, Number, Number, Number]:
        return (self.tp, self.fp, self.tn, self.fn)


#: Which rows: a slice, or an array of row indices (a table's visible rows).
Rows = slice | npt.NDArray[np.intp]


def predict(
    data: Dataset, threshold: Threshold, *, rows: Rows = slice(None)
) -> npt.NDArray[np.bool_]:
    """Predicted positive per row (of ``rows``): ``score >= threshold``; none above all."""
    t = check_threshold(threshold)
    scores = data.scores[rows]
    if t is None:
        return np.zeros(scores.shape[0], dtype=bool)
    return scores >= t


def confusion_counts(data: Dataset, threshold: Threshold) -> Counts:
    """Count TP, FP, TN, FN at ``threshold`` directly from the rows.

    >>> from threshold_lab.core.data.presets import preset
    >>> confusion_counts(preset("canonical").data, 0.5)
    Counts(tp=2, fp=1, tn=1, fn=1)
    >>> confusion_counts(preset("canonical").data, None)
    Counts(tp=0, fp=0, tn=2, fn=3)
    """
    pred = predict(data, threshold)
    y = data.labels
    if data.weights is None:
        tp = int(np.count_nonzero(pred & y))
        fp = int(np.count_nonzero(pred & ~y))
        return Counts(tp=tp, fp=fp, tn=data.negatives - fp, fn=data.positives - tp)
    w = data.weights
    tp_w = float(w[pred & y].sum())
    fp_w = float(w[pred & ~y].sum())
    return Counts(tp=tp_w, fp=fp_w, tn=float(w[~pred & ~y].sum()), fn=float(w[~pred & y].sum()))


def row_cells(
    data: Dataset, threshold: Threshold, *, rows: Rows = slice(None)
) -> npt.NDArray[np.str_]:
    """Each row's cell (of ``rows``) as text: ``"TP"``, ``"FP"``, ``"TN"`` or ``"FN"``.

    >>> from threshold_lab.core.data.presets import preset
    >>> row_cells(preset("canonical").data, 0.5).tolist()
    ['TP', 'FP', 'TP', 'TN', 'FN']
    """
    pred = predict(data, threshold, rows=rows)
    y = data.labels[rows]
    out = np.where(pred, np.where(y, "TP", "FP"), np.where(y, "FN", "TN"))
    return out
