"""Cross-validation folds: each fold's curve and summaries, and their spread.

A fold column names each row's fold. Each fold is reported as its own rows alone
(its sweep, AUC, AP and readouts, as the binary report of those rows gives them);
across the folds, the mean and the sample standard deviation (n − 1) of the AUC
and of AP, beside the **pooled** AUC of every row together, which is a different
number (one ranking of all rows, not the average of the folds' rankings).

At each readout rate the folds are averaged **vertically** (Fawcett's vertical
averaging, as scikit-learn's ``RocCurveDisplay.from_cv_results`` example does):
each fold's ROC polyline is read at exactly that FPR (its TPR, interpolated
between the fold's two points around it, the higher TPR where the polyline is
vertical there) and the folds' values are averaged, with their spread (standard
deviation, lowest, highest). :func:`tpr_band` reads every fold the same way at a
grid of FPRs: the band a chart draws between the lowest and highest fold.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.curves.operating import Kind, Readout, readouts
from threshold_lab.core.curves.pr import average_precision
from threshold_lab.core.curves.roc import roc_auc
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.metrics.metric import Metric

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Spread:
    """The folds' values of one number (None: undefined in that fold), and the mean,
    sample standard deviation, lowest and highest of the defined ones."""

    values: tuple[float | None, ...]

    @property
    def defined(self) -> list[float]:
        return [v for v in self.values if v is not None]

    @property
    def mean(self) -> float | None:
        d = self.defined
        return float(np.mean(d)) if d else None

    @property
    def sd(self) -> float | None:
        """The sample standard deviation (ddof 1): None with fewer than two values."""
        d = self.defined
        return float(np.std(d, ddof=1)) if len(d) >= 2 else None

    @property
    def low(self) -> float | None:
        d = self.defined
        return min(d) if d else None

    @property
    def high(self) -> float | None:
        d = self.defined
        return max(d) if d else None

    @property
    def reason(self) -> str | None:
        missing = len(self.values) - len(self.defined)
        if not missing:
            return None
        return f"undefined in {missing} of {len(self.values)} folds (a fold with one class)"

    def as_json(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "sd": self.sd,
            "low": self.low,
            "high": self.high,
            "values": list(self.values),
            "reason": self.reason,
        }


@dataclass(frozen=True, eq=False)
class Fold:
    """One fold's rows alone."""

    name: str
    n: int
    positives: int | float
    negatives: int | float
    sweep: Sweep
    auc: Metric
    average_precision: Metric
    readouts: tuple[Readout, ...]


@dataclass(frozen=True, eq=False)
class FoldReport:
    """Every fold, and the spread across them."""

    column: str
    folds: tuple[Fold, ...]
    pooled_auc: Metric

    @property
    def auc(self) -> Spread:
        return Spread(tuple(f.auc.value for f in self.folds))

    @property
    def average_precision(self) -> Spread:
        return Spread(tuple(f.average_precision.value for f in self.folds))

    def readout_spreads(self) -> list[tuple[Kind, float, Spread]]:
        """At each readout, the folds' polyline values (TPR at the FPR, or FPR at the
        TPR), vertically (or horizontally) averaged."""
        if not self.folds:
            return []
        out = []
        for i, r in enumerate(self.folds[0].readouts):
            values = tuple(f.readouts[i].interpolated.value for f in self.folds)
            out.append((r.kind, r.limit, Spread(values)))
        return out


def fold_report(
    column: str,
    folds: Sequence[tuple[str, int, Sweep]],
    pooled_auc: Metric,
    asked: tuple[tuple[Kind, float], ...],
) -> FoldReport:
    """Each fold's summaries from its own sweep, given as (name, rows, sweep)
    (``asked``: the readouts)."""
    out = []
    for name, n, sweep in folds:
        out.append(
            Fold(
                name,
                n,
                sweep.positives,
                sweep.negatives,
                sweep,
                roc_auc(sweep),
                average_precision(sweep),
                readouts(sweep, asked),
            )
        )
    return FoldReport(column, tuple(out), pooled_auc)


def tpr_at(sweep: Sweep, fpr: npt.ArrayLike) -> FloatArray:
    """The ROC polyline's TPR at each FPR in ``fpr`` (the readouts' interpolated
    value, as doubles: the higher TPR where the polyline is vertical); NaN without
    both classes.

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> tpr_at(build_sweep(preset("canonical").data), [0, 0.25, 0.5, 1]).round(4).tolist()
    [0.3333, 0.5, 0.6667, 1.0]
    """
    x = np.asarray(fpr, dtype=np.float64)
    P, N = float(sweep.positives), float(sweep.negatives)
    if P == 0 or N == 0:
        return np.full(x.shape, np.nan)
    f = np.asarray(sweep.fp, dtype=np.float64) / N
    t = np.asarray(sweep.tp, dtype=np.float64) / P
    k = np.searchsorted(f, x, side="right") - 1
    k = np.clip(k, 0, f.shape[0] - 1)
    nxt = np.minimum(k + 1, f.shape[0] - 1)
    rise = f[nxt] - f[k]
    inside = (nxt > k) & (f[k] < x) & (rise > 0)
    share = np.divide(x - f[k], rise, out=np.zeros_like(x), where=inside)
    out: FloatArray = np.where(inside, t[k] + (t[nxt] - t[k]) * share, t[k])
    return out


def tpr_band(
    sweeps: Sequence[Sweep], grid: npt.ArrayLike | None = None
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """(FPR grid, lowest, mean, highest TPR of the folds at each): the folds' band
    (a grid of 201 FPRs from 0 to 1 unless one is given)."""
    x = np.linspace(0.0, 1.0, 201) if grid is None else np.asarray(grid, dtype=np.float64)
    rows = np.array([tpr_at(s, x) for s in sweeps]).reshape(len(sweeps), x.shape[0])
    rows = rows[~np.any(np.isnan(rows), axis=1)]  # a fold without both classes: no curve
    if rows.shape[0] == 0:
        nothing = np.full(x.shape, np.nan)
        return x, nothing, nothing.copy(), nothing.copy()
    return x, rows.min(axis=0), rows.mean(axis=0), rows.max(axis=0)
