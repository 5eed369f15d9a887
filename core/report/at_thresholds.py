"""Any metric over the exact sweep, as scikit-learn 1.9's ``metric_at_thresholds``:
``metric_func(y_true, y_pred, **metric_params)`` at every distinct score, ``y_pred =
y_score >= t``, tied scores together, with the above-all point first (threshold inf,
nothing predicted positive), which scikit-learn leaves out.

A metric named by threshold-lab's own name (``"f1"``, ``"precision"``, ...) is read off
the sweep's counts in one pass, never predicting again: NaN where it is undefined (a
zero denominator), where scikit-learn's functions give 0 and warn. A callable is called
once a threshold, with ``y_true`` and ``y_pred`` as 0/1 integers and the weights as
``sample_weight`` when there are weights.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt
from numpy.typing import ArrayLike
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.data.arrays import arrays_source
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.decide.values import float_values
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.metrics.formulas import FORMULAS, Cells

FloatArray = npt.NDArray[np.float64]

#: The metrics named by text (read off the counts).
NAMES = tuple(sorted(FORMULAS))


def at_thresholds(
    data: Dataset,
    metric_func: str | Callable[..., Any],
    metric_params: Mapping[str, Any] | None = None,
    *,
    beta: float = 2.0,
) -> tuple[FloatArray, FloatArray]:
    """(metric values, thresholds) over ``data``'s exact sweep, the above-all point
    first (see the module docstring)."""
    sweep = curves_for(data).sweep
    thresholds = np.concatenate([[np.inf], sweep.thresholds])
    if isinstance(metric_func, str):
        name = metric_func.strip().lower()
        if name not in FORMULAS:
            raise InputError(
                f"metric_at_thresholds: {quoted(metric_func)} is not a metric's name; give "
                f"one of {', '.join(NAMES)}, or a function metric(y_true, y_pred)"
            )
        if metric_params:
            raise InputError(
                "metric_at_thresholds: metric_params are a function's; a metric named by "
                "text takes none (beta comes from the report)"
            )
        cells = Cells(
            sweep.tp,
            sweep.fp,
            pos=np.float64(float(sweep.positives)),
            neg=np.float64(float(sweep.negatives)),
        )
        return np.asarray(float_values(name, cells, beta), dtype=np.float64), thresholds
    if not callable(metric_func):
        raise InputError(
            f"metric_at_thresholds: metric_func {quoted(metric_func)} is neither a function "
            "nor a metric's name"
        )
    params = dict(metric_params or {})
    if data.weights is not None:
        params.setdefault("sample_weight", data.weights)
    # In score order, as scikit-learn's own (0/1 as int32, as it passes them): the
    # same values, at its pace.
    order = np.argsort(-data.scores, kind="stable")
    y_true = data.labels[order].astype(np.int32)
    scores = data.scores[order]
    if "sample_weight" in params and params["sample_weight"] is data.weights:
        params["sample_weight"] = data.weights[order]
    values = []
    for t in thresholds.tolist():
        y_pred = (scores >= t).astype(np.int32)
        values.append(metric_func(y_true, y_pred, **params))
    return np.asarray(values, dtype=np.float64), thresholds


def metric_at_thresholds(
    y_true: ArrayLike,
    y_score: ArrayLike,
    metric_func: str | Callable[..., Any],
    *,
    sample_weight: ArrayLike | None = None,
    metric_params: Mapping[str, Any] | None = None,
) -> tuple[FloatArray, FloatArray]:
    """``metric_func`` at every distinct score of ``y_score`` (``y_pred = y_score >=
    t``), as scikit-learn 1.9's ``metric_at_thresholds`` (its name, arguments and
    return: ``metric_values, thresholds``), with the above-all point first (threshold
    inf). ``metric_func``: a function ``metric(y_true, y_pred, **metric_params)``, or
    a threshold-lab metric's name (``"f1"``), read off the counts in one pass, NaN
    where undefined. Labels are read as :func:`threshold_lab.report` reads them.

    >>> values, thresholds = metric_at_thresholds([1, 0, 1, 0, 1], [.9, .8, .8, .4, .1], "recall")
    >>> thresholds.tolist(), [round(v, 4) for v in values.tolist()]
    ([inf, 0.9, 0.8, 0.4, 0.1], [0.0, 0.3333, 0.6667, 0.6667, 1.0])
    """
    if isinstance(y_score, Mapping):
        raise InputError("metric_at_thresholds: give one model's scores (one number a row)")
    source = arrays_source(y_true, y_score, sample_weight=sample_weight)
    return at_thresholds(source.data, metric_func, metric_params)
