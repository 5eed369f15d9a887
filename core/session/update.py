"""What one Session operation did, as one immutable value.

Both front ends apply an :class:`Update` as a whole: the plain mode prints
its message and status; the explorer hands it to every widget at once, so a
change that moves the rows and the threshold together (a reset, a preset) is
drawn once, and the rows whose prediction changed are known from the edit
itself rather than found again by comparing predictions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Analysis, Curves
from threshold_lab.core.curves.peaks import f1_peak
from threshold_lab.core.data.aggregated import Quantised
from threshold_lab.core.decide.band import BandShown
from threshold_lab.core.decide.net_benefit import DecisionCurve
from threshold_lab.core.decide.solve import WORDS, Deciding, metrics_at_prevalence
from threshold_lab.core.drawing.bands import Band, DrawnBands, drawn_bands
from threshold_lab.core.drawing.decision import (
    CostSeries,
    DecisionSeries,
    cost_series,
    decision_curve_of,
    decision_series,
)
from threshold_lab.core.drawing.model_rows import ModelRow
from threshold_lab.core.drawing.series import metric_series
from threshold_lab.core.intervals import IntervalsShown
from threshold_lab.core.measures import Measure, auc_measure, boot_measure, metric_measures
from threshold_lab.core.metrics.metric import Metric
from threshold_lab.core.metrics.threshold_metrics import threshold_metrics
from threshold_lab.core.report.options import Options
from threshold_lab.core.session.rowview import NOTHING_CHANGED, Changed
from threshold_lab.core.text.sentences import status_sentence


@dataclass(frozen=True)
class FoldChoice:
    """A fold's own choice for the goal in force: its name, whether the goal is
    feasible on its rows, and its threshold (None: infeasible, or above all scores)."""

    name: str
    feasible: bool
    threshold: float | None


@dataclass(frozen=True, eq=False)
class Update:
    """The state after one operation.

    Attributes
    ----------
    analysis : the rows and threshold after the operation, analysed
    changed : the rows whose prediction the operation changed
    message : the sentence to tell the user ("" when the status says it all)
    fresh : other rows altogether (a preset loaded): no mark, selection or
        place in a table carries over from the rows before
    deciding : the goal and prevalence in force
    sure : the intervals to show (None: turned off), with the bootstrap's estimates
        when one has finished for these rows

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.session.session import Session
    >>> s = Session(preset("canonical").data, 0.5, source="preset canonical")
    >>> u = s.set_threshold(0.85)
    >>> u.changed.among(u.analysis.data.scores).tolist(), u.analysis.counts.tp
    ([1, 2], 1)
    """

    analysis: Analysis
    changed: Changed = NOTHING_CHANGED
    message: str = ""
    fresh: bool = False
    deciding: Deciding | None = None
    sure: IntervalsShown | None = None
    #: Several models of these rows, each at the threshold (empty with one model).
    models: tuple[ModelRow, ...] = ()
    #: Several classes: the one shown against the rest (None with two classes).
    klass: str | None = None
    #: The models are groups by this column (different rows), or None.
    group_by: str | None = None
    #: The rows shown are quantised counts: the rule and the bound on AUC.
    quantised: Quantised | None = None
    #: The readouts and partial AUCs asked for, and how models are tested.
    asked: Options = field(default_factory=Options)
    #: The first model is every row pooled, the others its groups (``--group COL``).
    pooled: bool = False
    #: The groups are cross-validation folds (``--fold COL``).
    folds: bool = False
    #: With folds, the folds' TPR range at each FPR (the ROC chart shades it).
    fold_band: Band | None = None
    #: A review band: the active threshold accepts, its reject threshold below (None:
    #: no band).
    review: BandShown | None = None
    #: With folds and a goal: the goal solved on each fold alone (the strip marks them).
    fold_choices: tuple[FoldChoice, ...] | None = None

    @cached_property
    def at_prevalence(self) -> dict[str, Metric] | None:
        """Every threshold metric at the deployment prevalence in force, or None."""
        d = self.deciding
        if d is None or d.prevalence is None:
            return None
        a = self.analysis
        return metrics_at_prevalence(a.sweep, a.point, d.prevalence, a.beta)

    @cached_property
    def sweep_columns(self) -> tuple[tuple[str, str], ...]:
        """The sweep table's metric columns beside TPR, FPR and precision, as (name,
        heading): F1, then each metric of the goal in force the table does not show
        already (a goal at a prevalence reads every metric there but the rates of one
        class, TPR, FPR, FNR and specificity, which no prevalence changes)."""
        shown = {"recall", "tpr", "fpr", "precision", "f1"}
        columns = [("f1", "F1")]
        d = self.deciding
        if d is None or d.setting is None:
            return tuple(columns)
        at = d.prevalence
        for name in d.goal_metrics():
            one_class = name in ("recall", "tpr", "fpr", "fnr", "specificity")
            if name in shown and (at is None or one_class):
                continue
            heading = WORDS.get(name, name)
            if at is not None and not one_class:
                heading += f" at {at}"
            columns.append((f"goal:{name}", heading))
        return tuple(columns)

    def sweep_metrics(self, point: int) -> tuple[Metric | None, ...]:
        """Point ``point``'s value of each of :attr:`sweep_columns` (None: not read)."""
        a = self.analysis
        f1 = threshold_metrics(a.sweep.counts_at(point), beta=a.beta)["f1"]
        out: list[Metric | None] = [f1]
        d = self.deciding
        for name, _ in self.sweep_columns[1:]:
            out.append(None if d is None else d.metric_at(name.removeprefix("goal:"), point))
        return tuple(out)

    @cached_property
    def status(self) -> str:
        """The plain sentence describing the active policy."""
        return status_sentence(self.analysis)

    @cached_property
    def measures(self) -> dict[str, Measure]:
        """Every threshold metric with its interval (none while intervals are off)."""
        return metric_measures(self.analysis, self.sure or IntervalsShown())

    @cached_property
    def ranking(self) -> tuple[Measure, Measure, Measure]:
        """ROC AUC (with DeLong's interval), AP and the PR trapezoid area (with the
        bootstrap's): read only once the summaries are computed (a worker's, for large
        rows)."""
        sure = self.sure or IntervalsShown()
        s = self.analysis.curves.summaries
        auc = auc_measure(self.analysis, sure)[0] if self.sure is not None else Measure(s.roc_auc)
        return (
            auc,
            boot_measure(s.average_precision, sure, "average_precision"),
            boot_measure(s.pr_trapezoid_area, sure, "pr_trapezoid_area"),
        )

    @cached_property
    def decision_curve(self) -> DecisionCurve:
        """The rows' decision curve on the grid asked for, at the prevalence in force
        (kept with the rows' curves: a threshold move does not make it again)."""
        d, a = self.deciding, self.asked
        prevalence = None if d is None else d.prevalence
        return decision_curve_of(self.analysis.curves, a.pt, a.harm, prevalence)

    @cached_property
    def bands(self) -> DrawnBands | None:
        """The bootstrap's bands around the curves, when there are any to draw."""
        return drawn_bands(self.sure)

    @property
    def f1_peak(self) -> tuple[int, Metric] | None:
        """F1's largest value on these rows' sweep and its point (see
        :func:`threshold_lab.core.drawing.series.f1_peak`): computed once per sweep, kept
        with the sweep's curves, not once per frame (O(distinct scores) each)."""
        kept = self.analysis.curves.__dict__
        if "_f1_peak" not in kept:
            kept["_f1_peak"] = f1_peak(self.analysis.sweep)
        return kept["_f1_peak"]  # type: ignore[no-any-return]

    def metric_series(
        self, names: tuple[str, ...], cols: int, span: tuple[float, float] | None = None
    ) -> tuple[npt.NDArray[np.float64], dict[str, npt.NDArray[np.float64]]]:
        """``names`` against the threshold, sampled for a chart of ``cols`` columns over
        the axis ``span`` (see :func:`threshold_lab.core.drawing.series.metric_series`)."""
        key = (names, cols, span)
        kept = self.__dict__.setdefault("_series", {})
        if key not in kept:
            a = self.analysis
            kept[key] = metric_series(a.sweep, a.beta, names, cols, span)
        return kept[key]  # type: ignore[no-any-return]

    def decision_series(self, curves: Curves | None, cols: int) -> DecisionSeries:
        """Net benefit along pt for a chart of ``cols`` columns, of the shown rows or
        another model's (its ``curves``; None: the shown rows), at the harm asked
        for and the prevalence in force (see
        :func:`threshold_lab.core.drawing.decision.decision_series`)."""
        c = self.analysis.curves if curves is None else curves
        d = self.deciding
        key = ("decision", c, cols)
        kept = self.__dict__.setdefault("_series", {})
        if key not in kept:
            kept[key] = decision_series(
                c, self.asked.harm, None if d is None else d.prevalence, cols
            )
        return kept[key]  # type: ignore[no-any-return]

    def cost_series(self, faint: tuple[int, ...], cols: int) -> CostSeries:
        """The cost chart's lines for ``cols`` columns: the envelope, the lines of the
        ``faint`` points and the active point's (see
        :func:`threshold_lab.core.drawing.decision.cost_series`)."""
        key = ("cost", faint, cols)
        kept = self.__dict__.setdefault("_series", {})
        if key not in kept:
            a = self.analysis
            kept[key] = cost_series(a.curves, np.asarray(faint, dtype=np.intp), a.point, cols)
        return kept[key]  # type: ignore[no-any-return]
