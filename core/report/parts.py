"""The report's contents: what one build computed, as immutable values that the
renderers (JSON, text, plain mode, the explorer's metrics screen) only read. Each
number in them is a :class:`threshold_lab.core.measures.Measure`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from threshold_lab.core.measures import Measure, metric_measures

# What only some reports have (a band, folds' stability, a description) is imported
# where it is computed.
if TYPE_CHECKING:
    from threshold_lab.core.analysis import Analysis
    from threshold_lab.core.compare.models import Comparison
    from threshold_lab.core.curves.coordinates import Coordinate
    from threshold_lab.core.curves.describe import Description
    from threshold_lab.core.curves.hull import CostCurve
    from threshold_lab.core.curves.operating import PartialAUC, Readout
    from threshold_lab.core.curves.smooth import NotSmoothed, Smoothed
    from threshold_lab.core.data.aggregated import Quantised
    from threshold_lab.core.decide.band import Band
    from threshold_lab.core.decide.net_benefit import DecisionCurve
    from threshold_lab.core.decide.solve import Decision
    from threshold_lab.core.decide.stability import Stability
    from threshold_lab.core.folds import FoldReport
    from threshold_lab.core.groups.gaps import Gap
    from threshold_lab.core.groups.thresholds import GroupThresholds
    from threshold_lab.core.intervals import IntervalsShown
    from threshold_lab.core.metrics.metric import Metric
    from threshold_lab.core.multiclass.metrics import MulticlassReport
    from threshold_lab.core.report.conditions import Condition
    from threshold_lab.core.report.gate import Gate
    from threshold_lab.core.report.options import Options
    from threshold_lab.core.transform import Kept


@dataclass(frozen=True, eq=False)
class ModelPart:
    """One model's (or the only one's) part of a report: its rows at its operating
    point (the threshold, or its goal's), the goal solved, the intervals."""

    name: str
    analysis: Analysis
    decision: Decision | None
    sure: IntervalsShown
    #: Quantised aggregated counts: the rule and the bound on AUC (None otherwise).
    quantised: Quantised | None = None
    #: A transform applied to the scores: what it kept and changed (None: none).
    kept: Kept | None = None
    #: The operating points at fixed rates, and the partial AUCs, asked for.
    readouts: tuple[Readout, ...] = ()
    partial_aucs: tuple[PartialAUC, ...] = ()
    #: Net benefit over the threshold probabilities asked for, and the cost curves'
    #: envelope (the ROC convex hull): neither depends on the threshold.
    decision_curve: DecisionCurve | None = None
    cost_curve: CostCurve | None = None
    #: Each cross-validation fold's rows alone, and their spread (None: no folds).
    folds: FoldReport | None = None
    #: The rates at each coordinate given a bootstrap interval (--ci-se, --ci-sp,
    #: --ci-thresholds), and the smoothed ROC curves asked for (--smooth).
    coordinates: tuple[Coordinate, ...] = ()
    smoothed: tuple[Smoothed | NotSmoothed, ...] = ()

    def metrics(self) -> dict[str, Measure]:
        return metric_measures(self.analysis, self.sure)


@dataclass(frozen=True, eq=False)
class Contents:
    """Everything a report shows, computed once.

    ``parts`` holds one :class:`ModelPart` per model, the first being the one
    reported at the top (with one model, just it); ``comparisons`` every pair
    of models; ``group_by`` the column an aggregated file's groups came from (the
    models are then different examples).
    """

    source: str
    options: Options
    parts: tuple[ModelPart, ...]
    comparisons: tuple[Comparison, ...] = ()
    group_by: str | None = None
    multiclass: MulticlassReport | None = None
    #: Several classes: the one reported against the rest.
    klass: str | None = None
    #: Rows split by a group column: its name, each group's part at the report's
    #: threshold, and the gaps between them (None without groups).
    group_column: str | None = None
    groups: tuple[ModelPart, ...] = ()
    gaps: Mapping[str, Gap] | None = None
    group_thresholds: GroupThresholds | None = None
    #: Against a baseline, and the requirements (None: neither asked for).
    gate: Gate | None = None
    #: What decides the exit status, in the order evaluated: the requirements (and
    #: from ``report --check`` the goal and each --max-gap); the JSON's conditions.
    conditions: tuple[Condition, ...] = ()

    @property
    def first(self) -> ModelPart:
        return self.parts[0]

    @property
    def several(self) -> bool:
        """Whether there are several models (or groups) to compare."""
        return len(self.parts) >= 2

    def stability(self) -> Stability | None:
        """With folds and a goal (or --cv-goal): the goal on each fold of the first
        model, its regret matrix, the stable ranges and the one threshold for every
        fold; None without them."""
        o, folds = self.options, self.first.folds
        if folds is None or (o.goal is None and o.cv_goal is None):
            return None
        from threshold_lab.core.decide.stability import stability

        return stability(
            [(f.name, f.sweep) for f in folds.folds],
            o.goal or o.cv_goal,
            self.first.analysis.beta,
            within=o.stable_within,
            at_least=o.stable_in,
            cv_goal=o.cv_goal,
            confidence=o.confidence,
        )

    def band(self) -> Band | None:
        """The review band of ``--band-goal`` on the first model's rows, or None."""
        goal = self.options.band_goal
        if goal is None:
            return None
        from threshold_lab.core.decide.band import solve_band

        return solve_band(self.first.analysis.sweep, goal, self.options.confidence)

    def describe(self, kind: str) -> Description:
        """The first model's curve described (``kind`` roc or pr), its ROC curve
        compared with the other models' (not with an aggregated file's groups, which
        are other examples)."""
        from threshold_lab.core.curves.describe import describe

        a = self.first.analysis
        models = self.group_by is None
        others = [(p.name, p.analysis.sweep) for p in self.parts[1:]] if models else []
        hull = sorted(a.curves.cost_curve.points())  # the report's cost curve has the hull
        return describe(a.sweep, kind, hull, name=self.first.name, others=others)

    def at_prevalence(self) -> dict[str, Metric] | None:
        """Every threshold metric at the deployment prevalence asked for, or None."""
        p = self.options.prevalence
        if p is None:
            return None
        from threshold_lab.core.decide.solve import metrics_at_prevalence

        a = self.first.analysis
        return metrics_at_prevalence(a.sweep, a.point, p, self.options.beta)
