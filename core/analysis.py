"""Everything known about one dataset at one threshold, computed once.

The TUI, the plain line mode and the report all read from an
:class:`Analysis`; none of them computes a metric itself.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Literal

import numpy as np
import numpy.typing as npt
from threshold_lab.core.calibration.gains import KS, Gains, gains, ks_from_gap, ks_statistic
from threshold_lab.core.calibration.reliability import (
    BINS,
    Calibration,
    bin_ranges,
    calibration,
    calibration_from_sums,
)
from threshold_lab.core.curves.corners import local_maxima
from threshold_lab.core.curves.hull import CostCurve, cost_curve
from threshold_lab.core.curves.pr import pr_from_sums, pr_summaries
from threshold_lab.core.curves.probabilities import probability_from_sums, probability_summaries
from threshold_lab.core.curves.roc import auc_from_sums, roc_auc
from threshold_lab.core.curves.smooth import NotSmoothed, Smoothed, smoothed_or_why
from threshold_lab.core.curves.sweep import Sweep, build_sweep
from threshold_lab.core.curves.tie_pass import TieSums, tie_sums, usable
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.intervals.closed import delong_from_moments, delong_se
from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.metrics.metric import Metric
from threshold_lab.core.metrics.threshold_metrics import threshold_metrics
from threshold_lab.core.threshold import Threshold, check_threshold


@dataclass(frozen=True)
class Summaries:
    """Whole-ranking and probability summaries: they do not depend on the threshold."""

    roc_auc: Metric
    average_precision: Metric
    pr_trapezoid_area: Metric
    log_loss: Metric
    brier: Metric


@dataclass(frozen=True, eq=False)
class RowChange:
    """How one set of rows came from ``before`` by one row: the row at ``score`` with
    actual label ``label`` (as it was) was ``added``, ``removed`` or had its label
    ``flipped``. What is drawn of ``before`` can then be moved, not made again."""

    before: Dataset
    kind: Literal["added", "removed", "flipped"]
    score: float
    label: bool


@dataclass(frozen=True, eq=False)
class Curves:
    """A dataset's sweep and summaries; built once per dataset."""

    data: Dataset
    sweep: Sweep
    #: The one-row edit these rows came from, when they did (None: loaded, or more).
    origin: RowChange | None = None

    @property
    def summaries_ready(self) -> bool:
        """Whether :attr:`summaries` is computed (a front end may compute it elsewhere)."""
        return "summaries" in self.__dict__

    @property
    def ready(self) -> bool:
        """Whether the summaries and DeLong's SE are both computed."""
        return "summaries" in self.__dict__ and "auc_se" in self.__dict__

    @cached_property
    def _ranges(self) -> list[tuple[int, int, int]]:
        """The default reliability bins' runs of points (whole counts)."""
        return bin_ranges(self.sweep, BINS, "mass")

    @cached_property
    def tie_sums(self) -> TieSums | None:
        """Every curve-wide sum of the sweep in one pass over its tie groups, where
        that applies (:func:`~threshold_lab.core.curves.tie_pass.usable`; None: each
        summary sums on its own). The summaries, DeLong's SE, KS and the default
        reliability bins read it: one pass, not seven."""
        if not usable(self.sweep):
            return None
        return tie_sums(self.sweep, cuts=[first for _, first, _ in self._ranges])

    @cached_property
    def auc_se(self) -> tuple[float | None, float | None, str | None]:
        """ROC AUC and DeLong's standard error, or why there is none (computed once)."""
        t = self.tie_sums
        if t is None:
            return delong_se(self.sweep)
        auc = self.summaries.roc_auc.value
        assert auc is not None  # both classes: usable
        return delong_from_moments(self.sweep, auc, t.positives_fp, t.negatives_tp)

    @cached_property
    def ks(self) -> KS:
        """The KS statistic and its threshold (computed once)."""
        t = self.tie_sums
        if t is None:
            return ks_statistic(self.sweep)
        return ks_from_gap(self.sweep, t.ks_point, t.ks_gap)

    @cached_property
    def cost_curve(self) -> CostCurve:
        """The ROC convex hull and the cost curves' envelope (computed once)."""
        return cost_curve(self.sweep)

    @cached_property
    def _smoothed(self) -> dict[tuple[str, float | str], Smoothed | NotSmoothed]:
        return {}

    def smoothed(self, method: str, bandwidth: float | str = "nrd0") -> Smoothed | NotSmoothed:
        """The ROC curve smoothed by ``method`` (binormal, density at ``bandwidth``, or
        normal), or why these rows cannot be (each computed once)."""
        key = (method, bandwidth if method == "density" else "")
        done = self._smoothed.get(key)
        if done is None:
            done = self._smoothed[key] = smoothed_or_why(self.sweep, method, bandwidth)
        return done

    @cached_property
    def local_maxima(self) -> npt.NDArray[np.intp]:
        """The ROC curve's corners, pROC's "local maximas" (computed once)."""
        return local_maxima(self.sweep)

    @cached_property
    def gains(self) -> Gains | None:
        """The cumulative gains curve (None without actual positives)."""
        return gains(self.sweep)

    def calibration(self, bins: int = BINS, binning: str = "mass") -> Calibration:
        """The reliability table, ECE, MCE and Brier decomposition (kept per binning)."""
        key = (bins, binning)
        kept = self.__dict__.setdefault("_calibration", {})
        if key not in kept:
            t = self.tie_sums if key == (BINS, "mass") else None
            if t is None:
                kept[key] = calibration(self.sweep, bins=bins, binning=binning)
            else:
                kept[key] = calibration_from_sums(
                    self.sweep,
                    ranges=self._ranges,
                    run_scores=t.run_scores,
                    squares=t.squares,
                    mixed=t.mixed,
                )
        return kept[key]  # type: ignore[no-any-return]

    @cached_property
    def summaries(self) -> Summaries:
        t = self.tie_sums
        if t is not None:
            ap, area = pr_from_sums(self.sweep, t.ap, t.trap, t.first)
            log_loss, brier = probability_from_sums(self.data, self.sweep, t.logs, t.squares)
            auc = auc_from_sums(self.sweep, t.twice_auc, t.starts, t.before)
            return Summaries(auc, ap, area, log_loss, brier)
        ap, area = pr_summaries(self.sweep)  # one pass for the two
        log_loss, brier = probability_summaries(self.data, self.sweep)  # one for these
        return Summaries(
            roc_auc=roc_auc(self.sweep),
            average_precision=ap,
            pr_trapezoid_area=area,
            log_loss=log_loss,
            brier=brier,
        )


def curves_for(data: Dataset) -> Curves:
    """Sweep a dataset once."""
    return Curves(data=data, sweep=build_sweep(data))


@dataclass(frozen=True, eq=False)
class Analysis:
    """One operating point of a dataset: counts and every metric at ``threshold``.

    >>> from threshold_lab.core.data.presets import preset
    >>> a = analyse(preset("canonical").data, 0.5)
    >>> a.counts, a.point, a.metrics["recall"].value_text()
    (Counts(tp=2, fp=1, tn=1, fn=1), 2, '2/3 ≈ 0.6667')
    """

    curves: Curves
    threshold: Threshold
    beta: float = 2.0

    @property
    def data(self) -> Dataset:
        return self.curves.data

    @property
    def sweep(self) -> Sweep:
        return self.curves.sweep

    @cached_property
    def point(self) -> int:
        """Index of the operating point in the sweep (0 is above all)."""
        return self.sweep.index_of(self.threshold)

    @cached_property
    def counts(self) -> Counts:
        return self.sweep.counts_at(self.point)

    @cached_property
    def metrics(self) -> dict[str, Metric]:
        return threshold_metrics(self.counts, beta=self.beta)


def analyse(data: Dataset | Curves, threshold: Threshold, *, beta: float = 2.0) -> Analysis:
    """Analyse ``data`` at ``threshold``; pass :class:`Curves` to reuse a sweep."""
    curves = data if isinstance(data, Curves) else curves_for(data)
    return Analysis(curves=curves, threshold=check_threshold(threshold), beta=beta)
