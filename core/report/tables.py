"""A report's tables as tidy columns, for data frames: ``Report.to_frame(kind)`` and
``Report.to_arrow(kind)``.

Each kind is one row per thing with one column per quantity: ``sweep`` (a row per
operating point, the above-all point first with threshold ``inf``), ``metrics`` (a
row per number: the metrics at the threshold, then the summaries), ``groups``,
``folds`` and ``readouts``. Numbers are floats, an undefined one null (never a
silent 0 or 1; the ``metrics`` table says why in ``reason``); ``exact=True`` adds
each rate's exact fraction as text (``"2/3"``; null where the counts are not whole).
The columns are built here from numpy and lists; pandas, polars and pyarrow are read
only by the conversion, and none is a dependency.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from fractions import Fraction
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from threshold_lab.core.curves.operating import Readout
from threshold_lab.core.errors import InputError, MissingDependency, quoted
from threshold_lab.core.folds import FoldReport
from threshold_lab.core.measures import Measure
from threshold_lab.core.metrics.metric import Metric, format_fraction


class Report(Protocol):
    """What the tables read of a report (:class:`threshold_lab.Report`)."""

    @property
    def sweep(self) -> Any: ...
    @property
    def metrics(self) -> Mapping[str, Measure]: ...
    @property
    def roc_auc(self) -> Measure: ...
    @property
    def average_precision(self) -> Measure: ...
    @property
    def pr_trapezoid_area(self) -> Measure: ...
    @property
    def log_loss(self) -> Measure: ...
    @property
    def brier(self) -> Measure: ...
    @property
    def groups(self) -> tuple[Any, ...]: ...
    @property
    def folds(self) -> FoldReport | None: ...
    @property
    def readouts(self) -> tuple[Readout, ...]: ...


KINDS = ("sweep", "metrics", "groups", "folds", "readouts")

Columns = dict[str, Any]

NO_FRAME = (
    "to_frame() needs pandas or polars: pip install pandas (or pip install polars); "
    "to_arrow() gives a pyarrow Table"
)
NO_ARROW = "to_arrow() needs pyarrow: pip install 'threshold-lab[parquet]' (or pip install pyarrow)"


def columns(report: Report, kind: str, exact: bool = False) -> Columns:
    """The columns of ``kind`` (one of :data:`KINDS`), by name, in order."""
    make: dict[str, Callable[[Report, bool], Columns]] = {
        "sweep": _sweep,
        "metrics": _metrics,
        "groups": _groups,
        "folds": _folds,
        "readouts": _readouts,
    }
    if not isinstance(kind, str) or kind not in make:
        raise InputError(f"to_frame(): kind {quoted(kind)} is not one of {', '.join(KINDS)}")
    return make[kind](report, exact)


def _ratio(num: npt.NDArray[Any], den: npt.NDArray[Any] | float) -> npt.NDArray[np.float64]:
    """num / den as floats, NaN (null in a frame) where den is 0."""
    n = np.asarray(num, dtype=np.float64)
    d = np.broadcast_to(np.asarray(den, dtype=np.float64), n.shape)
    out = np.full(n.shape, np.nan)
    np.divide(n, d, out=out, where=d != 0)
    return out


def _exact_texts(num: npt.NDArray[Any], den: npt.NDArray[Any] | float) -> list[str | None]:
    n = np.asarray(num, dtype=np.float64)
    d = np.broadcast_to(np.asarray(den, dtype=np.float64), n.shape)
    if not (np.all(n == np.floor(n)) and np.all(d == np.floor(d))):
        return [None] * n.shape[0]  # weights that are not whole: no exact fraction
    return [
        None if b == 0 else format_fraction(Fraction(int(a), int(b)))
        for a, b in zip(n.tolist(), d.tolist(), strict=True)
    ]


def _sweep(report: Report, exact: bool) -> Columns:
    s = report.sweep
    pos = s.tp[0] + s.fn[0]
    neg = s.fp[0] + s.tn[0]
    out: Columns = {
        "threshold": np.asarray(s.threshold, dtype=np.float64),
        "tp": s.tp,
        "fp": s.fp,
        "tn": s.tn,
        "fn": s.fn,
        "tpr": _ratio(s.tp, pos),
        "fpr": _ratio(s.fp, neg),
        "precision": _ratio(s.tp, s.tp + s.fp),
        "recall": _ratio(s.tp, pos),
    }
    if exact:
        out["tpr_exact"] = _exact_texts(s.tp, pos)
        out["fpr_exact"] = _exact_texts(s.fp, neg)
        out["precision_exact"] = _exact_texts(s.tp, s.tp + s.fp)
        out["recall_exact"] = out["tpr_exact"]
    return out


def _text(x: Fraction | None) -> str | None:
    return None if x is None else format_fraction(x)


def _metrics(report: Report, exact: bool) -> Columns:
    rows: list[tuple[str, Measure | Metric]] = list(report.metrics.items())
    rows += [
        ("roc_auc", report.roc_auc),
        ("average_precision", report.average_precision),
        ("pr_trapezoid_area", report.pr_trapezoid_area),
        ("log_loss", report.log_loss),
        ("brier", report.brier),
    ]
    out: Columns = {k: [] for k in ("name", "value", "exact", "low", "high", "method", "reason")}
    for name, m in rows:
        interval = getattr(m, "interval", None)
        out["name"].append(name)
        out["value"].append(m.value)
        out["exact"].append(_text(m.exact))
        out["low"].append(None if interval is None else interval.low)
        out["high"].append(None if interval is None else interval.high)
        out["method"].append(None if interval is None else interval.method)
        out["reason"].append(m.reason)
    return out


#: The rates of each group's row, by the metric each is.
_GROUP_RATES = (
    ("selection_rate", "queue_rate"),
    ("tpr", "recall"),
    ("fpr", "fpr"),
    ("precision", "precision"),
    ("accuracy", "accuracy"),
)


def _groups(report: Report, exact: bool) -> Columns:
    groups = report.groups
    if not groups:
        raise InputError("to_frame('groups'): the report has no groups (make it with groups=)")
    out: Columns = {k: [] for k in ("group", "n", "positives", "tp", "fp", "tn", "fn")}
    for column, _ in _GROUP_RATES:
        out[column] = []
        if exact:
            out[f"{column}_exact"] = []
    out["roc_auc"] = []
    for g in groups:
        k = g.counts
        for column, value in zip(
            ("group", "n", "positives", "tp", "fp", "tn", "fn"),
            (g.name, g.n, g.positives, k.tp, k.fp, k.tn, k.fn),
            strict=True,
        ):
            out[column].append(value)
        metrics = g.metrics
        for column, name in _GROUP_RATES:
            out[column].append(metrics[name].value)
            if exact:
                out[f"{column}_exact"].append(_text(metrics[name].exact))
        out["roc_auc"].append(g.report.roc_auc.value)
    return out


def _folds(report: Report, exact: bool) -> Columns:
    folds = report.folds
    if folds is None:
        raise InputError("to_frame('folds'): the report has no folds (make it with folds=)")
    out: Columns = {
        k: [] for k in ("fold", "n", "positives", "negatives", "roc_auc", "average_precision")
    }
    if exact:
        out["roc_auc_exact"], out["average_precision_exact"] = [], []
    for f in folds.folds:
        out["fold"].append(f.name)
        out["n"].append(f.n)
        out["positives"].append(f.positives)
        out["negatives"].append(f.negatives)
        out["roc_auc"].append(f.auc.value)
        out["average_precision"].append(f.average_precision.value)
        if exact:
            out["roc_auc_exact"].append(_text(f.auc.exact))
            out["average_precision_exact"].append(_text(f.average_precision.exact))
    return out


def _readouts(report: Report, exact: bool) -> Columns:
    names = ("kind", "limit", "threshold", "tp", "fp", "tn", "fn", "tpr", "fpr")
    out: Columns = {k: [] for k in (*names, "interpolated", "reason")}
    if exact:
        out["tpr_exact"], out["fpr_exact"] = [], []
    for r in report.readouts:
        k = r.counts
        t = r.threshold
        values: tuple[Any, ...] = (r.kind, r.limit, np.inf if t is None else t)
        values += (None, None, None, None) if k is None else (k.tp, k.fp, k.tn, k.fn)
        values += (r.tpr.value, r.fpr.value)
        for column, value in zip(names, values, strict=True):
            out[column].append(value)
        out["interpolated"].append(r.interpolated.value)
        out["reason"].append(r.reason)
        if exact:
            out["tpr_exact"].append(_text(r.tpr.exact))
            out["fpr_exact"].append(_text(r.fpr.exact))
    return out


def to_frame(cols: Columns) -> Any:
    """The columns as a pandas DataFrame, else a polars one (MissingDependency, an
    ImportError, naming both when neither is installed)."""
    try:
        import pandas as pd  # type: ignore[import-untyped]  # no pandas-stubs installed
    except ImportError:
        pass
    else:
        return pd.DataFrame(cols)
    try:
        import polars as pl
    except ImportError:
        raise MissingDependency(NO_FRAME) from None
    return pl.DataFrame(cols, strict=False)


def to_arrow(cols: Columns) -> Any:
    """The columns as a pyarrow Table."""
    try:
        import pyarrow as pa
    except ImportError:
        raise MissingDependency(NO_ARROW) from None
    return pa.table(cols)
