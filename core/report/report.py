"""One Report, built once: every section computed in core from the rows and the
options, then rendered by whichever front end asked (JSON, text, plain mode, the
explorer's metrics screen, a notebook).

:func:`build` runs what the report needs in order: each model's sweep (once),
its transform, its goal, its bootstrap (synchronously), then every pair of
models compared and, with several classes, the multiclass summary.
"""

from __future__ import annotations

import dataclasses
import enum
import functools
import html
import json
import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from os import PathLike
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Analysis, Curves, analyse, curves_for
from threshold_lab.core.curves.coordinates import (
    READS,
    Coordinate,
    Given,
    coordinate_key,
    coordinates,
)
from threshold_lab.core.curves.coordinates import reader as coordinate_reader
from threshold_lab.core.curves.operating import (
    PartialAUC,
    Readout,
    partial_auc,
    partial_auc_key,
    partial_aucs,
    readout_key,
    readout_rates,
    readouts,
)
from threshold_lab.core.curves.roc import roc_auc
from threshold_lab.core.data.dataset import Dataset, Model
from threshold_lab.core.decide.net_benefit import (
    decision_curve,
    net_benefit_key,
    net_benefit_reader,
)
from threshold_lab.core.errors import InputError, MissingDependency, quoted
from threshold_lab.core.intervals import IntervalsShown
from threshold_lab.core.intervals.bootstrap import REPLICATES, CurveStatistic, bootstrap
from threshold_lab.core.measures import Measure, auc_measure, boot_measure
from threshold_lab.core.report.as_json import JSON_POINTS, report_dict, report_pieces
from threshold_lab.core.report.option import keywords_checked
from threshold_lab.core.report.options import Options
from threshold_lab.core.report.parts import Contents, ModelPart
from threshold_lab.core.report.request import Request, check, given_from_python
from threshold_lab.core.report.table import OPTIONS
from threshold_lab.core.text.sweep_table import TEXT_POINTS
from threshold_lab.core.threshold import Threshold, check_threshold, format_threshold

# What only some reports read (a comparison, groups, folds, a gate, a figure, a
# transform, a data frame, the text) is imported where it is read, so that a command
# starts without loading it.
if TYPE_CHECKING:
    from numpy.typing import ArrayLike
    from threshold_lab.core.compare.models import Comparison, NetBenefitDifference
    from threshold_lab.core.curves.braille import BrailleLine
    from threshold_lab.core.curves.describe import Description
    from threshold_lab.core.curves.hull import CostCurve
    from threshold_lab.core.curves.smooth import Smoothed
    from threshold_lab.core.curves.sweep import Sweep as CoreSweep
    from threshold_lab.core.data.sources import Source
    from threshold_lab.core.decide.band import Band
    from threshold_lab.core.decide.net_benefit import DecisionCurve
    from threshold_lab.core.decide.solve import Decision
    from threshold_lab.core.folds import FoldReport
    from threshold_lab.core.groups.gaps import Gap
    from threshold_lab.core.groups.thresholds import GroupThresholds
    from threshold_lab.core.metrics.confusion import Counts
    from threshold_lab.core.multiclass.metrics import MulticlassReport
    from threshold_lab.core.report.gate import Baseline, Gate, Number, Outcome, Requirement
    from threshold_lab.core.transform import Applied

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True, eq=False)
class _Prepared:
    """One model's rows as the report reads them, swept once: the rows as given,
    and with a transform what it did (the rows before it, and the map applied)."""

    name: str
    model: Model
    curves: Curves
    before: Curves | None = None
    applied: Applied | None = None


def _prepare(name: str, data: Dataset, options: Options) -> _Prepared:
    model = Model(name, data)
    if options.transform is None:
        return _Prepared(name, model, curves_for(data))
    from threshold_lab.core.transform import apply

    applied = apply(options.transform, data)
    after = curves_for(data.with_scores(applied.scores))
    return _Prepared(name, model, after, curves_for(data), applied)


def _part(
    p: _Prepared,
    source: Source,
    options: Options,
    quantised: Any,
    previous: ModelPart | None = None,
) -> ModelPart:
    """One model at its operating point, its goal solved and its bootstrap run."""
    o = options
    a = analyse(p.curves, o.threshold, beta=o.beta)
    said = None
    if p.applied is not None and p.before is not None:
        from threshold_lab.core.transform import kept

        said = kept(p.applied, o.threshold, analyse(p.before, o.threshold, beta=o.beta), a)
    decision: Decision | None = None
    setting = None
    if o.goal is not None:
        from threshold_lab.core.decide.solve import threshold_statistic
        from threshold_lab.core.decide.text import solved_at

        at_goal, decision, setting = solved_at(a, o.goal, o.prevalence, a.data, source.columns)
        if o.follow_goal:
            a = at_goal
    sure = IntervalsShown(o.confidence)
    if o.replicates is not None:
        # The same rows at another point (Report.at): the draws counted there only.
        base = None if previous is None else previous.sure.boot
        if base is not None and base.point == a.point:
            boot = base
        else:
            boot = bootstrap(
                a.sweep,
                a.point,
                beta=o.beta,
                replicates=o.replicates,
                seed=o.seed,
                confidence=o.confidence,
                bands=True,
                goal=None
                if o.goal is None or setting is None
                else threshold_statistic(o.goal, setting),
                base=base,
                curves=curve_statistics(o),
            )
        sure = IntervalsShown(o.confidence, boot)
    if o.partial_aucs:
        # The AUC's pass keeps running sums each partial AUC reads (the report has
        # the AUC anyway): then a partial AUC reads two blocks, not its whole region.
        a.curves.summaries  # noqa: B018
    reads, areas = readouts(a.sweep, o.readouts), partial_aucs(a.sweep, o.partial_aucs)
    if previous is not None and previous.decision_curve is not None:
        curve, costs = previous.decision_curve, previous.cost_curve  # the same rows
    else:
        curve = decision_curve(a.sweep, o.pt, harm=o.harm, prevalence=o.prevalence)
        costs = a.curves.cost_curve
    return ModelPart(
        p.name,
        a,
        decision,
        sure,
        quantised,
        said,
        reads,
        areas,
        curve,
        costs,
        coordinates=coordinates(a.sweep, o.coordinates()),
        smoothed=tuple(a.curves.smoothed(m, o.bandwidth) for m in o.smooth),
    )


class Same(enum.Enum):
    """``threshold=`` not given to a figure: the report's own threshold."""

    REPORT = "the report's threshold"


_SAME = Same.REPORT


def _or_nan(value: float | None) -> float:
    return math.nan if value is None else value


#: The ROC AUC of each replicate's own curve: its percentile interval beside DeLong's, as
#: pROC's ``ci.auc(method = "bootstrap")`` (the report's and the explorer's bootstrap).
ROC_AUC_STATISTIC = CurveStatistic(
    lambda s: (_or_nan(roc_auc(s).value),), ("roc_auc",), ("the ROC AUC",)
)


def curve_statistics(o: Options) -> tuple[CurveStatistic, ...]:
    """What each bootstrap replicate re-reads off its own curve: the ROC AUC (a
    percentile interval beside DeLong's, as pROC's ``ci.auc(method = "bootstrap")``),
    every readout's TPR and FPR, every partial AUC's area and standardised value."""
    out: list[CurveStatistic] = [ROC_AUC_STATISTIC]

    def rates_of(kind: Any, limit: float) -> Callable[[CoreSweep], tuple[float, ...]]:
        return lambda s: readout_rates(s, kind, limit)

    def area_of(focus: Any, low: float, high: float) -> Callable[[CoreSweep], tuple[float, ...]]:
        def read(s: CoreSweep) -> tuple[float, ...]:
            p = partial_auc(s, focus, low, high)
            return _or_nan(p.area.value), _or_nan(p.standardised.value)

        return read

    for kind, limit in o.readouts:
        said = f"{'TPR at FPR <=' if kind == 'tpr_at_fpr' else 'FPR at TPR >='} {limit:g}"
        out.append(
            CurveStatistic(
                rates_of(kind, limit),
                (readout_key(kind, limit, "tpr"), readout_key(kind, limit, "fpr")),
                (f"the TPR of {said}", f"the FPR of {said}"),
            )
        )
    out.append(
        CurveStatistic(
            net_benefit_reader(o.pt, o.harm, o.prevalence),
            tuple(net_benefit_key(pt) for pt in o.pt),
            tuple(f"the net benefit at pt {float(pt):g}" for pt in o.pt),
        )
    )
    for given, at in o.coordinates():
        c = Coordinate(given, at, {})
        out.append(
            CurveStatistic(
                coordinate_reader(given, at),
                tuple(coordinate_key(given, at, r) for r in READS[given]),
                tuple(f"the {r} {c.words().removeprefix(r + ' ')}" for r in READS[given]),
            )
        )
    for focus, low, high in o.partial_aucs:
        region = f"{focus.upper()} {low:g} to {high:g}"
        out.append(
            CurveStatistic(
                area_of(focus, low, high),
                (
                    partial_auc_key(focus, low, high, "area"),
                    partial_auc_key(focus, low, high, "standardised"),
                ),
                (f"the partial AUC ({region})", f"the standardised partial AUC ({region})"),
            )
        )
    return tuple(out)


def _contents(
    source: Source,
    options: Options,
    prepared: Sequence[_Prepared],
    previous: Contents | None = None,
    grouped: Sequence[_Prepared] = (),
) -> Contents:
    parts = tuple(
        _part(
            p,
            source,
            options,
            source.quantised.get(p.name),
            None if previous is None else previous.parts[i],
        )
        for i, p in enumerate(prepared)
    )
    if source.fold_codes is not None:
        parts = tuple(
            dataclasses.replace(
                part,
                folds=previous.parts[i].folds
                if previous is not None
                else _folds(source, options, prepared[i], part),
            )
            for i, part in enumerate(parts)
        )
    comparisons: tuple[Comparison, ...] = ()
    if options.tests and len(parts) < 2:
        raise InputError(
            f"--test {','.join(options.tests)} compares two models, and these rows have one: "
            "give several score columns (--score-column A --score-column B, or a dict of "
            "scores from Python) or --compare FILE"
        )
    if len(parts) >= 2:
        from threshold_lab.core.compare.models import compare, pairs

        boot = None if options.replicates is None else (options.replicates, options.seed)
        asked = {"bootstrap", "sensitivity", "specificity"} & set(options.tests)
        if boot is None and asked:  # the comparison's own bootstrap
            boot = (REPLICATES, options.seed)
        rates: list[tuple[Given, float]] = []
        if "sensitivity" in options.tests and options.at_specificity is not None:
            rates.append(("specificity", options.at_specificity))
        if "specificity" in options.tests and options.at_sensitivity is not None:
            rates.append(("sensitivity", options.at_sensitivity))
        venk = (options.permutations, options.seed) if "venkatraman" in options.tests else None
        models = [p.model for p in prepared]
        if previous is not None and all(
            x.thresholds == (parts[i].analysis.threshold, parts[j].analysis.threshold)
            for x, (i, j) in zip(previous.comparisons, pairs(models), strict=True)
        ):
            comparisons = previous.comparisons
        else:
            comparisons = tuple(
                compare(
                    models[i],
                    parts[i].analysis,
                    models[j],
                    parts[j].analysis,
                    options.confidence,
                    boot,
                    paired=source.paired and not options.unpaired,
                    alternative=options.alternative,
                    permutations=venk,
                    rates=tuple(rates),
                    areas=options.partial_aucs if "bootstrap" in options.tests else (),
                )
                for i, j in pairs(models)
            )
        if all(c.net_benefit_difference == () for c in comparisons):
            comparisons = tuple(
                dataclasses.replace(
                    x,
                    net_benefit_difference=_nb_difference(
                        source, options, prepared[i], prepared[j], parts[i], parts[j]
                    ),
                )
                for x, (i, j) in zip(comparisons, pairs(models), strict=True)
            )
    mc = source.multiclass
    summary: MulticlassReport | None = None
    if mc is not None:
        from threshold_lab.core.multiclass.metrics import multiclass_report

        summary = previous.multiclass if previous is not None else multiclass_report(mc)
    group_parts, gaps, chosen = _groups(source, options, parts[0], grouped)
    contents = Contents(
        source=source.label,
        options=options,
        parts=parts,
        comparisons=comparisons,
        group_by=source.group_by,
        multiclass=summary,
        klass=None if mc is None else mc.classes[source.klass],
        group_column=source.group_column,
        groups=group_parts,
        gaps=gaps,
        group_thresholds=chosen,
    )
    folds = parts[0].folds
    if options.stable_in is not None and folds is not None and options.stable_in > len(folds.folds):
        n = len(folds.folds)
        raise InputError(
            f"stable in: {options.stable_in} folds asked for, but there are {n}; give a "
            f"number of folds from 1 to {n}"
        )
    if options.baseline is None and not options.requirements:
        return contents
    from threshold_lab.core.report.conditions import conditions

    gated = _gate(source, options, contents)
    return dataclasses.replace(contents, gate=gated, conditions=conditions(gated.outcomes))


def regated(report: Report, baseline: Baseline | None, reqs: tuple[Requirement, ...]) -> Contents:
    """``report``'s contents gated anew: against ``baseline``, with ``reqs`` (each
    readout, partial AUC or net benefit they read computed for them)."""
    before = report.contents
    options = dataclasses.replace(before.options, baseline=baseline, requirements=reqs)
    options = _with_required_readouts(options)
    # The same rows at the same point: its bootstrap and decision curve are kept (as
    # at() keeps them), unless a requirement's net benefit widened the curve's grid.
    previous = before if options.pt == before.options.pt else None
    return _contents(report._source, options, report._prepared, previous, report._grouped)


def _folds(source: Source, o: Options, p: _Prepared, part: ModelPart) -> FoldReport:
    """The model's rows split by fold, each fold's sweep and summaries."""
    assert source.fold_column is not None and source.fold_codes is not None
    from threshold_lab.core.data.groups import split_groups
    from threshold_lab.core.folds import fold_report

    split = split_groups(p.model.data, source.fold_names, source.fold_codes)
    sweeps = []
    for name, data in split:
        sweeps.append((name, data.n, _prepare(name, data, o).curves.sweep))
    pooled = part.analysis.curves.summaries.roc_auc
    return fold_report(source.fold_column, sweeps, pooled, o.readouts)


def _gate(source: Source, o: Options, c: Contents) -> Gate:
    """The headline numbers against the baseline's, and each requirement, read from
    the report's own JSON (as the baseline's are from its)."""
    from threshold_lab.core.compare.paired import paired_delong
    from threshold_lab.core.report.gate import SEVERAL, AucTest, facts, gate, headline

    d = report_dict(c, 0)
    current = {**headline(d), **_at_goal(c)}
    test, why = None, None
    rows = o.baseline_rows
    if o.baseline is not None and rows is not None and len(source.models) > 1:
        why = SEVERAL
    elif o.baseline is not None and rows is not None:
        data = source.models[0].data if source.models else source.data
        if rows.scores.shape[0] != data.n:
            raise InputError(
                f"--baseline-rows {rows.name}: {rows.scores.shape[0]:,} scores for "
                f"{data.n:,} rows (give the baseline model's score of each "
                "row)"
            )
        delong, why = paired_delong(
            data.scores, rows.scores, data.labels, data.weights, o.confidence
        )
        if delong is not None:
            test = AucTest(data.n, rows.name, delong)
    return gate(current, o.baseline, o.requirements, test, why, now=facts(d))


def _at_goal(c: Contents) -> dict[str, Number]:
    """Every metric at the goal's own point (at the deployment prevalence when one is
    given), whatever threshold the report stands at (``Report.at``)."""
    first, o = c.first, c.options
    decision = first.decision
    if decision is None or not decision.feasible:
        return {}
    from threshold_lab.core.decide.solve import metrics_at_prevalence
    from threshold_lab.core.metrics.threshold_metrics import METRIC_NAMES
    from threshold_lab.core.report.gate import Number

    a = first.analysis
    if o.prevalence is not None:
        metrics = metrics_at_prevalence(a.sweep, decision.index, o.prevalence, o.beta)
    else:
        metrics = analyse(a.curves, decision.threshold, beta=o.beta).metrics
    return {
        f"{name} at goal": Number(m.value, m.exact, m.reason)
        for name, m in metrics.items()
        if name in METRIC_NAMES
    }


def _with_required_readouts(o: Options) -> Options:
    """``o`` with every readout (``tpr at fpr 0.02``), partial AUC (``partial_auc fpr
    0 0.1``) and net benefit (``net_benefit at pt 0.2``) a requirement reads added."""
    if not o.requirements:
        return o
    from threshold_lab.core.report.gate import needed_partial_aucs, needed_pts, needed_readouts

    extra = [r for r in needed_readouts(o.requirements) if r not in o.readouts]
    partial = [p for p in needed_partial_aucs(o.requirements) if p not in o.partial_aucs]
    pts = [p for p in needed_pts(o.requirements) if p not in o.pt]
    if extra:
        o = dataclasses.replace(o, readouts=o.readouts + tuple(extra))
    if partial:
        o = dataclasses.replace(o, partial_aucs=o.partial_aucs + tuple(partial))
    if pts:
        o = dataclasses.replace(o, pt=tuple(sorted((*o.pt, *pts))))
    return o


def _groups(
    source: Source, options: Options, first: ModelPart, grouped: Sequence[_Prepared]
) -> tuple[tuple[ModelPart, ...], Mapping[str, Gap] | None, GroupThresholds | None]:
    """Each group's rows at the report's threshold (the first model's point: its goal's
    when it follows one), as the binary report of those rows alone gives them, and the
    gaps between the groups."""
    if not grouped:
        if options.group_goal is not None:
            raise InputError("--group-goal needs groups: --group COL (or groups=)")
        return (), None, None
    o = dataclasses.replace(
        options, threshold=first.analysis.threshold, goal=None, follow_goal=False, replicates=None
    )
    own = dict(options.group_at or ())
    parts = tuple(
        _part(
            g,
            source,
            o if g.name not in own else dataclasses.replace(o, threshold=own[g.name]),
            None,
        )
        for g in grouped
    )
    from threshold_lab.core.decide.goal import parse_goal
    from threshold_lab.core.groups.gaps import GroupRates, compute_gaps
    from threshold_lab.core.groups.thresholds import solve_group_thresholds, solve_same_goal

    rates = [GroupRates(p.name, p.analysis.counts, p.analysis.sweep.whole_counts()) for p in parts]
    gaps = compute_gaps(
        rates, confidence=options.confidence, replicates=options.replicates, seed=options.seed
    )
    chosen = None
    if options.group_goal is not None:
        goal = options.goal or parse_goal("max accuracy")
        if options.group_goal == "same_goal":
            if options.goal is None:
                raise InputError("--group-goal same_goal needs --goal (each group solves it)")
            chosen = solve_same_goal([(p.name, p.analysis) for p in parts], goal, beta=options.beta)
        else:
            if goal.constraints:
                raise InputError(
                    f"--group-goal {options.group_goal}: the goal's objective is maximised "
                    f"under the criterion; its constraints ({goal.text().split(' where ')[1]}) "
                    "apply with same_goal only"
                )
            chosen = solve_group_thresholds(
                [(p.name, p.analysis.sweep) for p in parts],
                options.group_goal,
                goal,
                options.tolerance,
                beta=options.beta,
                randomised=options.randomised,
            )
    return parts, MappingProxyType(gaps), chosen


def _nb_difference(
    source: Source,
    o: Options,
    pa: _Prepared,
    pb: _Prepared,
    a: ModelPart,
    b: ModelPart,
) -> tuple[NetBenefitDifference, ...]:
    """Two models' net benefit difference at each pt of the grid (see
    :func:`net_benefit_differences`)."""
    da, db = a.decision_curve, b.decision_curve
    if da is None or db is None or da.reason is not None or db.reason is not None:
        return ()
    from threshold_lab.core.compare.models import net_benefit_differences
    from threshold_lab.core.decide.net_benefit import weights_of

    w = weights_of(a.analysis.sweep, o.prevalence, o.harm)
    if isinstance(w, str):
        return ()
    boot = None if o.replicates is None else (o.replicates, o.seed)
    return net_benefit_differences(
        pa.model,
        pb.model,
        [(r.pt, r.net_benefit) for r in da.grid],
        [(r.pt, r.net_benefit) for r in db.grid],
        (float(w.a), float(w.b)),
        paired=source.paired and not o.unpaired,
        confidence=o.confidence,
        boot=boot,
    )


def build(source: Source, options: Options) -> Report:
    """The report of ``source`` (its rows, models or classes) as ``options`` ask,
    every section computed now (the bootstrap too, when asked for).

    >>> from threshold_lab.core.data.sources import open_source
    >>> r = build(open_source("canonical"), Options(threshold=0.5))
    >>> r.counts, r.metrics["recall"].exact
    (Counts(tp=2, fp=1, tn=1, fn=1), Fraction(2, 3))
    """
    options = _with_required_readouts(options)
    if source.models:
        prepared = [_prepare(m.name, m.data, options) for m in source.models]
    else:
        prepared = [_prepare("", source.data, options)]
    grouped = tuple(_prepare(name, data, options) for name, data in source.groups)
    return Report(
        _contents(source, options, prepared, None, grouped), source, tuple(prepared), grouped
    )


def build_report(request: Request, src: Source | None = None) -> Report:
    """The report a front end's ``request`` asks for (of ``src`` when its rows are
    open already).

    >>> from threshold_lab.core.decide.goal import parse_goal
    >>> request = Request.from_command("report", "canonical", {"goal": parse_goal("max f1")})
    >>> r = build_report(request)
    >>> r.goal.threshold, r.counts
    (0.1, Counts(tp=3, fp=2, tn=0, fn=0))
    """
    if src is None:
        src = request.open()
    return build(src, request.options(src))


P = ParamSpec("P")
R = TypeVar("R")

#: ``Report.from_estimator`` called without ``threshold=``: the estimator's own.
_ESTIMATORS_OWN: Any = type("EstimatorsOwn", (), {"__repr__": lambda self: "0.5"})()


def _threshold_of_the_estimator(fn: Callable[P, R]) -> Callable[P, R]:
    """``fn`` told whether its caller gave ``threshold=`` (the signature, and its
    default as help() shows it, stay the function's own)."""

    @functools.wraps(fn)
    def call(*args: P.args, **kwargs: P.kwargs) -> R:
        kwargs.setdefault("threshold", _ESTIMATORS_OWN)
        return fn(*args, **kwargs)

    return call


def _keywords(given: Mapping[str, Any], *data: str) -> dict[str, Any]:
    """A constructor's keyword options, from its ``locals()`` (not ``cls`` and not the
    data it takes first)."""
    left_out = {"cls", "y_true", "y_score", *data}
    return {k: v for k, v in given.items() if k not in left_out}


@dataclass(frozen=True)
class Sweep:
    """Every operating point of the exact sweep, read-only: ``threshold`` descending
    with ``inf`` first for the "above all scores" point (nothing predicted
    positive), and the confusion counts there (weighted sums when weighted)."""

    threshold: FloatArray
    tp: npt.NDArray[Any]
    fp: npt.NDArray[Any]
    tn: npt.NDArray[Any]
    fn: npt.NDArray[Any]

    def __len__(self) -> int:
        return int(self.tp.shape[0])


@dataclass(frozen=True, eq=False)
class Group:
    """One group of rows at the report's threshold (see :attr:`Report.groups`)."""

    _part: ModelPart
    report: Report

    @property
    def name(self) -> str:
        return self._part.name

    @property
    def n(self) -> int:
        return self._part.analysis.data.n

    @property
    def positives(self) -> int | float:
        return self._part.analysis.data.positives

    @property
    def prevalence(self) -> Measure:
        return self.metrics["prevalence"]

    @property
    def counts(self) -> Counts:
        return self._part.analysis.counts

    @property
    def metrics(self) -> Mapping[str, Measure]:
        return MappingProxyType(self._part.metrics())

    @property
    def selection_rate(self) -> Measure:
        """(TP+FP)/n: the share of the group predicted positive (the queue rate)."""
        return self.metrics["queue_rate"]

    @property
    def roc_auc(self) -> Measure:
        return self.report.roc_auc

    @property
    def average_precision(self) -> Measure:
        return self.report.average_precision

    def __repr__(self) -> str:
        k = self.counts
        return (
            f"<Group {self.name}: {self.n} rows; TP {k.tp}, FP {k.fp}, TN {k.tn}, FN {k.fn}; "
            f"selection rate {self.selection_rate.metric.short()}>"
        )


def _readonly(a: npt.NDArray[Any]) -> npt.NDArray[Any]:
    a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False, repr=False)
class Report:
    """A classifier's scores at one threshold, with everything that follows: counts,
    every metric with its formula and interval, the sweep, the summaries, the goal,
    the prevalence, models compared, several classes. Immutable; :meth:`at` gives
    the same rows at another threshold without sweeping again.
    """

    contents: Contents
    _source: Source
    _prepared: tuple[_Prepared, ...]
    _grouped: tuple[_Prepared, ...] = ()

    # --- making one ----------------------------------------------------------------

    @classmethod
    @keywords_checked("threshold_lab.report")
    def from_predictions(
        cls,
        y_true: ArrayLike,
        y_score: ArrayLike | Mapping[str, ArrayLike],
        *,
        threshold: float | str | None = 0.5,
        goal: str | None = None,
        band_goal: str | None = None,
        cv_goal: str | None = None,
        stable_within: float | Fraction | str | None = None,
        stable_in: int | None = None,
        prevalence: float | Fraction | str | None = None,
        beta: float = 2.0,
        confidence: float = 0.95,
        bootstrap: int | bool | None = None,
        seed: int | None = None,
        readout: str | Sequence[str] | None = None,
        partial_auc: str | Sequence[str] | None = None,
        describe: str | Sequence[str] | None = None,
        pt: str | Sequence[float | str] | None = None,
        harm: float | Fraction | str | None = None,
        alternative: str = "two-sided",
        unpaired: bool = False,
        test: str | Sequence[str] | None = None,
        permutations: int | None = None,
        at_specificity: float | str | None = None,
        at_sensitivity: float | str | None = None,
        auc_interval: str | None = None,
        ci_se: float | str | Sequence[float | str] | None = None,
        ci_sp: float | str | Sequence[float | str] | None = None,
        ci_thresholds: float | str | Sequence[float | str] | None = None,
        smooth: str | Sequence[str] | None = None,
        bandwidth: float | str | None = None,
        transform: str | None = None,
        bins: int = 10,
        binning: str = "mass",
        group_goal: str | None = None,
        tolerance: float | Fraction | str | None = None,
        randomised: bool = False,
        baseline: str | PathLike[str] | Mapping[str, Any] | Report | None = None,
        baseline_scores: ArrayLike | None = None,
        require: str | Sequence[str] | None = None,
        positive: Hashable | None = None,
        pos_label: Hashable | None = None,
        sample_weight: ArrayLike | None = None,
        ids: ArrayLike | None = None,
        classes: Sequence[object] | None = None,
        groups: ArrayLike | None = None,
        group_name: str | None = None,
        folds: ArrayLike | None = None,
        fold_name: str | None = None,
        source: str | None = None,
    ) -> Report:
        """The report of labels and scores at one threshold (``threshold_lab.report``).

        ``y_true``: 0/1, booleans or true/false (two other values with
        ``positive="yes"``); ``y_score``: one number a row, a mapping of model name to
        scores (several models of the same rows), or a 2-D array of one column a class
        with ``classes=[...]``. Anything ``numpy.asarray`` takes: lists, numpy arrays,
        pandas or polars Series. Every option is keyword-only and means what the
        command line's flag of the same name means (docs/report.md lists them all).

        Bad input raises :class:`InputError` (a ValueError) with the message the
        command line gives.
        """
        keywords = _keywords(locals())
        return build_report(Request.from_python("report()", y_true, y_score, keywords))

    @classmethod
    @keywords_checked("threshold_lab.from_frame")
    def from_frame(
        cls,
        frame: Any,
        *,
        score: str | Sequence[str] = "score",
        label: str = "label",
        weight: str | None = None,
        id: str | None = None,
        group: str | None = None,
        fold: str | None = None,
        threshold: float | str | None = 0.5,
        goal: str | None = None,
        band_goal: str | None = None,
        cv_goal: str | None = None,
        stable_within: float | Fraction | str | None = None,
        stable_in: int | None = None,
        prevalence: float | Fraction | str | None = None,
        beta: float = 2.0,
        confidence: float = 0.95,
        bootstrap: int | bool | None = None,
        seed: int | None = None,
        readout: str | Sequence[str] | None = None,
        partial_auc: str | Sequence[str] | None = None,
        describe: str | Sequence[str] | None = None,
        pt: str | Sequence[float | str] | None = None,
        harm: float | Fraction | str | None = None,
        alternative: str = "two-sided",
        unpaired: bool = False,
        test: str | Sequence[str] | None = None,
        permutations: int | None = None,
        at_specificity: float | str | None = None,
        at_sensitivity: float | str | None = None,
        auc_interval: str | None = None,
        ci_se: float | str | Sequence[float | str] | None = None,
        ci_sp: float | str | Sequence[float | str] | None = None,
        ci_thresholds: float | str | Sequence[float | str] | None = None,
        smooth: str | Sequence[str] | None = None,
        bandwidth: float | str | None = None,
        transform: str | None = None,
        bins: int = 10,
        binning: str = "mass",
        group_goal: str | None = None,
        tolerance: float | Fraction | str | None = None,
        randomised: bool = False,
        baseline: str | PathLike[str] | Mapping[str, Any] | Report | None = None,
        baseline_scores: ArrayLike | None = None,
        require: str | Sequence[str] | None = None,
        positive: Hashable | None = None,
        pos_label: Hashable | None = None,
        groups: ArrayLike | None = None,
        group_name: str | None = None,
        folds: ArrayLike | None = None,
        fold_name: str | None = None,
        source: str | None = None,
    ) -> Report:
        """The report of a data frame's columns (``threshold_lab.from_frame``): pandas,
        polars, pyarrow or DuckDB (any frame with the Arrow PyCapsule stream or the
        dataframe interchange protocol, read through pyarrow). ``score`` may list
        several columns (several models); ``group`` names a column of each row's group
        (every number per group, and the gaps); ``fold`` a column of each row's
        cross-validation fold; the other options are :meth:`from_predictions`'s."""
        keywords = _keywords(locals(), "frame", "score", "label", "weight", "id")
        given = given_from_python("from_frame()", keywords)
        from threshold_lab.core.data.frames import frame_columns, frame_values

        check("from_frame()", given)
        if fold is not None:
            given["folds"] = frame_values(frame, fold)
            given.setdefault("fold_name", fold)
        if group is not None:
            given["groups"] = frame_values(frame, group)
            given.setdefault("group_name", group)
        given.pop("fold", None)
        given.pop("group", None)
        names = [score] if isinstance(score, str) else list(score)
        if not names:
            raise InputError("score: name at least one score column")
        y, scores, w, row_ids = frame_columns(
            frame, scores=names, label=label, weight=weight, id=id
        )
        y_score: Any = (
            scores[0] if isinstance(score, str) else dict(zip(names, scores, strict=True))
        )
        given.update({"sample_weight": w, "ids": row_ids})
        # Named after what it was made from (titles, JSON's source): the score columns.
        given.setdefault("source", f"{' and '.join(names)} ({type(frame).__name__})")
        arrays = Request(
            "from_frame()", {k: v for k, v in given.items() if v is not None}, arrays=(y, y_score)
        )
        return build_report(arrays)

    @classmethod
    @keywords_checked("Report.from_estimator")
    @_threshold_of_the_estimator
    def from_estimator(
        cls,
        estimator: Any,
        X: ArrayLike,
        y: ArrayLike,
        *,
        threshold: float | str | None = 0.5,
        goal: str | None = None,
        band_goal: str | None = None,
        cv_goal: str | None = None,
        stable_within: float | Fraction | str | None = None,
        stable_in: int | None = None,
        prevalence: float | Fraction | str | None = None,
        beta: float = 2.0,
        confidence: float = 0.95,
        bootstrap: int | bool | None = None,
        seed: int | None = None,
        readout: str | Sequence[str] | None = None,
        partial_auc: str | Sequence[str] | None = None,
        describe: str | Sequence[str] | None = None,
        pt: str | Sequence[float | str] | None = None,
        harm: float | Fraction | str | None = None,
        alternative: str = "two-sided",
        unpaired: bool = False,
        test: str | Sequence[str] | None = None,
        permutations: int | None = None,
        at_specificity: float | str | None = None,
        at_sensitivity: float | str | None = None,
        auc_interval: str | None = None,
        ci_se: float | str | Sequence[float | str] | None = None,
        ci_sp: float | str | Sequence[float | str] | None = None,
        ci_thresholds: float | str | Sequence[float | str] | None = None,
        smooth: str | Sequence[str] | None = None,
        bandwidth: float | str | None = None,
        transform: str | None = None,
        bins: int = 10,
        binning: str = "mass",
        group_goal: str | None = None,
        tolerance: float | Fraction | str | None = None,
        randomised: bool = False,
        baseline: str | PathLike[str] | Mapping[str, Any] | Report | None = None,
        baseline_scores: ArrayLike | None = None,
        require: str | Sequence[str] | None = None,
        positive: Hashable | None = None,
        pos_label: Hashable | None = None,
        sample_weight: ArrayLike | None = None,
        ids: ArrayLike | None = None,
        groups: ArrayLike | None = None,
        group_name: str | None = None,
        folds: ArrayLike | None = None,
        fold_name: str | None = None,
        source: str | None = None,
    ) -> Report:
        """The report of a fitted classifier on ``X`` and ``y`` at the estimator's own
        decision rule, so that its counts are ``estimator.predict(X)``'s: the scores
        are ``predict_proba(X)`` (with three or more classes, ``positive=`` names the
        class against the rest, and without it the estimator is refused), else
        ``decision_function(X)``, at 0.5 and 0; a ``FixedThresholdClassifier`` or
        ``TunedThresholdClassifierCV`` is reported on the response it uses at its
        ``threshold`` or ``best_threshold_``. The positive class is
        ``estimator.classes_[1]`` (its ``pos_label`` for those two). ``threshold=``
        given wins; the report's source names the estimator and its response method.
        The options are :meth:`from_predictions`'s."""
        keywords = _keywords(locals(), "estimator", "X", "y")
        own = threshold is _ESTIMATORS_OWN
        if own:
            keywords["threshold"] = 0.5  # read below, then the estimator's
        given = given_from_python("from_estimator()", keywords)
        check("from_estimator()", given)
        from threshold_lab.core.report.estimator import estimator_rule, predict_disagrees

        rule = estimator_rule(estimator, X, given.get("positive"))
        scores = rule.scores
        if rule.several:
            given.setdefault("classes", rule.classes)
        elif rule.positive is not None:
            given.setdefault("positive", rule.positive)
        if own and rule.threshold is not None and "goal" not in given:
            given["threshold"] = rule.threshold
        if "source" not in given:
            source = rule.describe(type(estimator).__name__)
            differ = predict_disagrees(estimator, X, rule, given.get("threshold"))
            if differ:
                source += f" ({differ} rows decided otherwise by predict)"
            given["source"] = source
        made = build_report(Request("from_estimator()", given, arrays=(y, scores)))
        answered = dataclasses.replace(made._source, response=(rule.method, rule.positive))
        return dataclasses.replace(made, _source=answered)

    # --- the numbers -------------------------------------------------------------

    @property
    def _first(self) -> ModelPart:
        return self.contents.first

    @property
    def analysis(self) -> Analysis:
        """The first model's rows at the operating point (core's own object)."""
        return self._first.analysis

    @property
    def source(self) -> str:
        return self.contents.source

    @property
    def threshold(self) -> Threshold:
        """The operating point's threshold (None: above all scores)."""
        return self._first.analysis.threshold

    @property
    def n(self) -> int:
        return self._first.analysis.data.n

    @property
    def positives(self) -> int | float:
        return self._first.analysis.data.positives

    @property
    def negatives(self) -> int | float:
        return self._first.analysis.data.negatives

    @property
    def counts(self) -> Counts:
        """TP, FP, TN and FN at the threshold."""
        return self._first.analysis.counts

    @property
    def metrics(self) -> Mapping[str, Measure]:
        """Every threshold metric by name (``precision``, ``recall``, ``f1``, ...),
        each with its value, exact fraction or reason, formula and interval."""
        return MappingProxyType(self._first.metrics())

    @property
    def roc_auc(self) -> Measure:
        """ROC AUC (trapezoid over the exact sweep) with DeLong's interval."""
        return auc_measure(self._first.analysis, self._first.sure)[0]

    @property
    def average_precision(self) -> Measure:
        """Average precision, step-weighted (not interpolated)."""
        s = self._first.analysis.curves.summaries
        return boot_measure(s.average_precision, self._first.sure, "average_precision")

    @property
    def pr_trapezoid_area(self) -> Measure:
        """The PR curve's area by the trapezoid rule: not the same number as AP."""
        s = self._first.analysis.curves.summaries
        return boot_measure(s.pr_trapezoid_area, self._first.sure, "pr_trapezoid_area")

    @property
    def log_loss(self) -> Measure:
        return Measure(self._first.analysis.curves.summaries.log_loss)

    @property
    def brier(self) -> Measure:
        return Measure(self._first.analysis.curves.summaries.brier)

    @property
    def readouts(self) -> tuple[Readout, ...]:
        """The operating points at fixed rates (``readout=``; by default TPR at FPR <=
        0.001, 0.01, 0.05, 0.1 and FPR at TPR >= 0.9, 0.95, 0.99): each with its
        ``threshold``, ``counts``, ``tpr`` and ``fpr``, and the ROC line's
        ``interpolated`` value at exactly the limit.

        >>> from threshold_lab.core.data.sources import open_source
        >>> r = build(open_source("canonical"), Options())
        >>> [(x.asked, x.threshold, x.value.short()) for x in r.readouts[3:5]]
        [('TPR at FPR <= 0.1', 0.9, '1/3'), ('FPR at TPR >= 0.9', 0.1, '2/2')]
        """
        return self._first.readouts

    @property
    def partial_auc(self) -> tuple[PartialAUC, ...]:
        """The partial AUCs asked for (``partial_auc="fpr:0-0.1"`` or a list), each with
        its ``area`` and McClish's ``standardised`` value."""
        return self._first.partial_aucs

    @property
    def decision_curve(self) -> DecisionCurve | None:
        """Net benefit at each threshold probability of the grid (``pt=``; by default
        0.01 to 0.99 in steps of 0.01), beside treating everyone, with the range of pt
        where the model beats both treating everyone and no one (``useful_range``);
        ``reason`` says why there is none (scores that are not probabilities).

        >>> from threshold_lab.core.data.sources import open_source
        >>> d = build(open_source("deliveries"), Options()).decision_curve
        >>> row = d.at(0.1)
        >>> row.net_benefit.short(), row.treat_all.short(), d.useful_range[0]
        ('11/90', '1/9', (0.05, 0.25))
        """
        return self._first.decision_curve

    @property
    def cost_curve(self) -> CostCurve:
        """The cost curves' lower envelope: the ROC convex hull's vertices (``hull``),
        each with the probability-costs PC(+) over which it is the cheapest point, and
        the area under the hull (``hull_auc``, ROCCH AUC)."""
        return self._first.analysis.curves.cost_curve

    @property
    def goal(self) -> Decision | None:
        """The goal solved (None without one)."""
        return self._first.decision

    @property
    def sweep(self) -> Sweep:
        """The exact sweep as read-only numpy arrays, the above-all point first."""
        s = self._first.analysis.sweep
        threshold = np.concatenate([[np.inf], s.thresholds])
        tp, fp = s.tp.copy(), s.fp.copy()
        return Sweep(
            _readonly(threshold),
            _readonly(tp),
            _readonly(fp),
            _readonly(s.negatives - fp),
            _readonly(s.positives - tp),
        )

    @property
    def models(self) -> Mapping[str, Report]:
        """Several models (or an aggregated file's groups): each one's own report,
        by name, in order (empty with one model)."""
        if not self.contents.several:
            return MappingProxyType({})
        out = {}
        for part, prepared in zip(self.contents.parts, self._prepared, strict=True):
            one = dataclasses.replace(
                self.contents,
                parts=(part,),
                comparisons=(),
                group_by=None,
                group_column=None,
                groups=(),
                gaps=None,
            )
            out[part.name] = Report(one, self._source, (prepared,))
        return MappingProxyType(out)

    @property
    def comparisons(self) -> tuple[Comparison, ...]:
        """Every pair of models compared (empty with one model)."""
        return self.contents.comparisons

    @property
    def groups(self) -> tuple[Group, ...]:
        """Each group's rows at the report's threshold (``groups=``, ``--group COL``),
        in order: its ``name``, ``n``, ``positives``, ``prevalence``, ``counts``,
        ``metrics`` (each with Wilson's interval), ``selection_rate``, ``roc_auc``
        (with DeLong's), ``average_precision``, and ``report``, the binary report of
        its rows alone. Empty without groups.

        >>> r = Report.from_predictions([1, 0, 1, 0, 1, 0], [.9, .8, .7, .4, .3, .2],
        ...                             groups=["a", "a", "a", "b", "b", "b"])
        >>> [(g.name, g.counts.tp, g.selection_rate.exact) for g in r.groups]
        [('a', 2, Fraction(1, 1)), ('b', 0, Fraction(0, 1))]
        """
        return tuple(
            Group(
                p,
                Report(
                    dataclasses.replace(
                        self.contents,
                        parts=(p,),
                        comparisons=(),
                        group_by=None,
                        group_column=None,
                        groups=(),
                        gaps=None,
                    ),
                    self._source,
                    (g,),
                ),
            )
            for p, g in zip(self.contents.groups, self._grouped, strict=True)
        )

    @property
    def gaps(self) -> Mapping[str, Gap] | None:
        """The gaps between the groups by name (``demographic_parity_difference``,
        ``equal_opportunity_difference``, ``equalized_odds_difference``, ...; see
        :data:`threshold_lab.core.groups.gaps.GAPS`), each with its ``value``, the two
        ``groups`` and an ``interval`` for a difference; None without groups.

        >>> r = Report.from_predictions([1, 0, 1, 0, 1, 0], [.9, .8, .7, .4, .3, .2],
        ...                             groups=["a", "a", "a", "b", "b", "b"])
        >>> g = r.gaps["demographic_parity_difference"]
        >>> g.value.exact, g.groups
        (Fraction(1, 1), ('a', 'b'))
        """
        return self.contents.gaps

    @property
    def group_thresholds(self) -> GroupThresholds | None:
        """Per-group thresholds for the fairness criterion asked for (``group_goal=``,
        ``--group-goal``): ``feasible``, ``chosen`` (``thresholds`` by group,
        ``objective`` on all rows pooled, ``gap``), ``runner_up``, ``reason`` when
        infeasible; None when none was asked for.

        >>> r = Report.from_predictions([1, 0, 1, 0, 1, 0, 1, 0],
        ...                             [.9, .8, .7, .4, .6, .5, .3, .2],
        ...                             groups=["a"] * 4 + ["b"] * 4,
        ...                             group_goal="demographic_parity", tolerance=0)
        >>> g = r.group_thresholds
        >>> g.chosen.thresholds, g.chosen.objective.short(), g.chosen.gap.short()
        ({'a': 0.9, 'b': 0.6}, '6/8', '0')
        """
        return self.contents.group_thresholds

    @property
    def multiclass(self) -> MulticlassReport | None:
        """Several classes: the matrix, each class, the averages (None with two)."""
        return self.contents.multiclass

    @property
    def folds(self) -> FoldReport | None:
        """Cross-validation folds (``folds=``, ``--fold COL``): each fold's rows alone
        (``folds.folds``: name, n, auc, average_precision, readouts, sweep), the
        spread of AUC and AP across them (``folds.auc.mean``, ``.sd``: the sample
        standard deviation) and the pooled AUC of every row (``folds.pooled_auc``)."""
        return self._first.folds

    @property
    def gate(self) -> Gate | None:
        """Against ``baseline=`` and the ``require=`` requirements: the change of every
        headline number (:attr:`Gate.changes`), the AUC's paired test, each
        requirement's outcome (None when neither was given)."""
        return self.contents.gate

    @property
    def requirements(self) -> tuple[Outcome, ...]:
        """Each ``require=`` requirement evaluated (``passed``, ``value``, ``bound``)."""
        return () if self.contents.gate is None else self.contents.gate.outcomes

    @property
    def passed(self) -> bool:
        """Whether every requirement holds (True with none)."""
        return all(o.passed for o in self.requirements)

    # --- figures -----------------------------------------------------------------------

    @keywords_checked("Report.figure")
    def figure(
        self,
        chart: str,
        *,
        size: tuple[float, float] | str = (6.0, 4.0),
        dpi: int = 150,
        title: str | None = None,
        threshold: float | str | Same | None = _SAME,
    ) -> Any:
        """The matplotlib Figure of ``chart`` (roc, pr, det, decision, reliability,
        gains, cost, metrics): what :meth:`plot` saves, the active point at
        ``threshold`` (default: the report's). A notebook shows it as an image; a plain
        session opens no window. Needs matplotlib (``pip install
        'threshold-lab[plot]'``; without it, an ImportError saying so)."""
        if threshold is not _SAME:
            return self.at(threshold).figure(chart, size=size, dpi=dpi, title=title)
        return self._draw(chart, size, dpi, title, None)

    def _draw(
        self, chart: str, size: tuple[float, float] | str, dpi: int, title: str | None, ax: Any
    ) -> Any:
        c = self.contents
        from threshold_lab.core.figures import FigureModel, Look, draw

        look = Look(
            size=OPTIONS["size"].read(size),
            dpi=OPTIONS["dpi"].read(dpi),
            title=title,
            bins=c.options.bins,
            binning=c.options.binning,
        )
        alone = len(c.parts) == 1 and ax is not None  # on shared axes, named as the report
        # The band goal's band, on the chart that shows bands (the first model's).
        band = c.band() if chart == "risk-coverage" else None
        models = [
            FigureModel(
                c.source if alone else p.name,
                p.analysis,
                p.sure,
                p.decision_curve,
                p.smoothed,
                band if i == 0 else None,
            )
            for i, p in enumerate(c.parts)
        ]
        return draw(chart, models, source=c.source, folds=c.first.folds, look=look, ax=ax)

    @keywords_checked("Report.plot")
    def plot(
        self,
        chart: str,
        path: str | PathLike[str] | None = None,
        *,
        ax: Any = None,
        size: tuple[float, float] | str = (6.0, 4.0),
        dpi: int = 150,
        title: str | None = None,
        threshold: float | str | Same | None = _SAME,
    ) -> Any:
        """Draw ``chart`` and write it to ``path`` (.png, .svg or .pdf), returning the
        path written; or, with ``ax``, draw it on those matplotlib axes and return them,
        as scikit-learn's displays do (several reports on one ``ax`` overlay, each
        legend entry under its report's name; ``size`` and ``dpi`` are then the
        caller's figure's). The exact sweep, the baseline, the active point, the
        summaries named, each model's own marker and line style, bands when the
        bootstrap ran, each fold's curve."""
        if (path is None) == (ax is None):
            raise InputError(
                "Report.plot(): give path= (a file to write) or ax= (matplotlib axes to "
                "draw on), one of the two"
            )
        if ax is not None:
            if threshold is not _SAME:
                return self.at(threshold).plot(chart, ax=ax, title=title)
            return self._draw(chart, size, dpi, title, ax)
        assert path is not None
        source = self.contents.source
        from threshold_lab.core.figures import check_output, save

        target = check_output(path, inputs=[source] if Path(source).is_file() else [])
        figure = self.figure(chart, size=size, dpi=dpi, title=title, threshold=threshold)
        return save(figure, target)

    # --- another threshold ---------------------------------------------------------

    def at(self, threshold: float | str | None) -> Report:
        """The same rows at ``threshold`` (a number, or None for above all scores),
        swept once already; a goal is still reported, but the point is ``threshold``.

        >>> from threshold_lab.core.data.sources import open_source
        >>> build(open_source("canonical"), Options()).at(0.85).counts
        Counts(tp=1, fp=0, tn=2, fn=2)
        """
        t = (
            check_threshold(threshold)
            if not isinstance(threshold, np.floating)
            else float(threshold)
        )
        options = dataclasses.replace(self.contents.options, threshold=t, follow_goal=False)
        contents = _contents(self._source, options, self._prepared, self.contents, self._grouped)
        return Report(contents, self._source, self._prepared, self._grouped)

    # --- renderings ----------------------------------------------------------------

    def metric_at_thresholds(
        self,
        metric_func: str | Callable[..., Any],
        *,
        metric_params: Mapping[str, Any] | None = None,
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """``metric_func`` at every distinct score of the report's rows (the first
        model's), the above-all point first: :func:`threshold_lab.metric_at_thresholds`
        on these rows (a metric's name is read off the report's own sweep, with its
        ``beta``)."""
        data = self._first.analysis.data
        from threshold_lab.core.report.at_thresholds import at_thresholds

        return at_thresholds(data, metric_func, metric_params, beta=self.contents.options.beta)

    def classifier(self, estimator: Any, *, response_method: str | None = None) -> Any:
        """scikit-learn's ``FixedThresholdClassifier`` deciding as this report does:
        ``estimator`` (fitted: it is not fitted again) at the goal's threshold (else
        the report's; above all scores: ``inf``), on the response method the report's
        scores came from (``from_estimator``'s; else ``response_method``, else
        scikit-learn's ``"auto"``), with its positive class. Both decide ``score >=
        threshold``, so its ``predict`` on the report's rows gives the report's
        counts, ties included (a plain classifier's strict ``>`` was matched by
        ``from_estimator`` already, with the next double above its 0 or 0.5).
        Needs scikit-learn."""
        try:
            from sklearn.model_selection import FixedThresholdClassifier
        except ImportError:
            raise MissingDependency(
                "Report.classifier() needs scikit-learn: pip install scikit-learn"
            ) from None
        decision = self.goal
        t = decision.threshold if decision is not None and decision.feasible else self.threshold
        made = self._source.response
        method = response_method or (made[0] if made is not None else "auto")
        positive = made[1] if made is not None else None
        return FixedThresholdClassifier(
            estimator,
            threshold=math.inf if t is None else float(t),
            response_method=method,
            pos_label=positive,
        )

    def log_to_mlflow(
        self, *, charts: Sequence[str] = ("roc", "pr"), prefix: str = "", points: int = 0
    ) -> str:
        """Log the report to the active MLflow run (the ``[mlflow]`` extra): each
        headline number that is defined as a metric (``roc_auc``, ``average_precision``,
        ..., then every metric at the threshold, each name after ``prefix``), the
        threshold as a param, each undefined number as a tag with its reason (never a
        0), the JSON report (``points`` sweep points listed) and each of ``charts`` as
        a PNG figure (``charts=()``: none, and no matplotlib needed). Returns the run's
        id. MLflow starts a run when none is active, as its own functions do."""
        c = self.contents
        numbers: dict[str, float | None] = {}
        reasons: dict[str, str] = {}
        summaries = [
            ("roc_auc", self.roc_auc),
            ("average_precision", self.average_precision),
            ("pr_trapezoid_area", self.pr_trapezoid_area),
            ("log_loss", self.log_loss),
            ("brier", self.brier),
        ]
        for name, m in [*summaries, *self.metrics.items()]:
            numbers[prefix + name] = m.value
            if m.value is None:
                reasons[prefix + name] = m.reason or "undefined"
        t = self.threshold
        params = {prefix + "threshold": "above all" if t is None else repr(t)}
        params[prefix + "source"] = c.source[:250]  # MLflow keeps params short
        figures = {chart: self.figure(chart) for chart in charts}
        from threshold_lab.core.report import tracking

        return tracking.log(numbers, reasons, params, self.to_dict(points=points), figures)

    @property
    def band(self) -> Band | None:
        """The review band ``band_goal=`` asked for (accept at or above ``.t_high``,
        reject below ``.t_low``, review between), solved exactly over every pair of
        thresholds; None without a band goal. docs/deciding.md says how."""
        return self.contents.band()

    def describe(self, kind: str = "roc") -> Description:
        """The curve's shape (roc or pr) in a few sentences, each made from one claim
        over the exact sweep (``.sentences``, ``.claims``: each ``{"kind", "text", ...}``
        with its arguments exact; ``.reason`` when there are none). With several
        models, the first's ROC curve is compared with each other's (``crosses``,
        ``dominates``, ``same_curve``). The claims are docs/accessible-curves.md's."""
        return self.contents.describe(kind)

    def smoothed(
        self, method: str = "binormal", *, bandwidth: float | str | None = None
    ) -> Smoothed:
        """The first model's ROC curve smoothed by ``method`` (binormal, density or
        normal, as pROC's ``smooth``): ``.fpr``/``.tpr`` its points, ``.auc`` its
        area (labelled ``.label``, never the rows' own AUC), ``.parameters`` the
        model's. ``bandwidth`` (density only): nrd0, nrd or a number; default the
        report's. InputError says why rows cannot be smoothed that way."""
        if not isinstance(method, str):
            raise InputError(f"smoothed(): give a method's name, not {quoted(method)}")
        from threshold_lab.core.curves.smooth import NotSmoothed, parse_method

        methods = parse_method(method)
        if len(methods) != 1:
            raise InputError(f"smoothed(): give one method, not {quoted(method)}")
        if bandwidth is not None and methods[0] != "density":
            raise InputError("smoothed(): bandwidth= is the density smoothing's")
        rule = (
            self.contents.options.bandwidth
            if bandwidth is None
            else OPTIONS["bandwidth"].read(bandwidth)
        )
        # The report's own smoothings are these rows' cached ones: asked again, the same.
        done = self.analysis.curves.smoothed(methods[0], rule)
        if isinstance(done, NotSmoothed):
            raise InputError(f"smooth {done.method}: {done.reason}")
        return done

    def braille(self, kind: str = "roc", *, width: int = 40) -> BrailleLine:
        """The curve (roc, pr or det) as one line of ``width`` Unicode braille cells,
        for a refreshable braille display: ``str()`` gives the line and the sentence
        giving its scale; ``.levels`` each dot column's level (0 to 3, None: no value).
        The contract is docs/accessible-curves.md's."""
        from threshold_lab.core.curves.braille import braille_line

        return braille_line(self._first.analysis.sweep, kind, width)

    def sonify(
        self,
        kind: str,
        path: str | PathLike[str],
        *,
        seconds: float = 0.25,
        reference: bool = False,
    ) -> list[dict[str, Any]]:
        """Write the curve (roc or pr) as a WAV file at ``path``: one tone a curve point,
        pitch its TPR or precision, left to right its FPR or recall, ``seconds`` each
        (``reference``: the chance diagonal as a quieter second tone). Returns the
        segments (start, seconds, frequency, x, y, threshold, point). The contract is
        docs/accessible-curves.md's."""
        source = self.contents.source
        from threshold_lab.core.curves.sound import check_wav, sonify, write_wav

        out = check_wav(Path(path), "sonify()", (source,) if Path(source).is_file() else ())
        made = sonify(self._first.analysis.sweep, kind, seconds, reference=reference)
        write_wav(out, made)
        return [dict(s) for s in made.segments]

    def to_frame(self, kind: str = "sweep", *, exact: bool = False) -> Any:
        """One of the report's tables as a tidy data frame: pandas when it is
        installed, else polars (an ImportError naming both when neither is).

        ``kind``: ``"sweep"`` (threshold, tp, fp, tn, fn, tpr, fpr, precision, recall:
        a row per operating point, the above-all point first at threshold inf),
        ``"metrics"`` (name, value, exact, low, high, method, reason), ``"groups"``,
        ``"folds"`` or ``"readouts"``. An undefined number is null, never 0 or 1;
        ``exact=True`` adds each rate's exact fraction as text (``"2/3"``)."""
        from threshold_lab.core.report import tables

        return tables.to_frame(tables.columns(self, kind, exact))

    def to_arrow(self, kind: str = "sweep", *, exact: bool = False) -> Any:
        """:meth:`to_frame`'s table as a pyarrow Table (the ``[parquet]`` extra)."""
        from threshold_lab.core.report import tables

        return tables.to_arrow(tables.columns(self, kind, exact))

    def to_dict(self, *, points: int | None = JSON_POINTS) -> dict[str, Any]:
        """The report as ``threshold-lab report --json`` gives it (``points``: how many
        sweep points to list; None lists every one)."""
        return report_dict(self.contents, points)

    def to_json(self, *, points: int | None = JSON_POINTS, indent: int | None = None) -> str:
        """:meth:`to_dict` as JSON text (no NaN or infinity)."""
        if indent is None:
            return "".join(report_pieces(self.contents, points))
        return json.dumps(self.to_dict(points=points), indent=indent, allow_nan=False)

    def text(self, *, points: int | None = TEXT_POINTS) -> str:
        """The report as ``threshold-lab report`` prints it."""
        from threshold_lab.core.report.as_text import report_text

        return report_text(self.contents, points)

    def __repr__(self) -> str:
        k = self.counts
        a = self._first.analysis
        d = a.data
        metrics = a.metrics
        s = a.curves.summaries
        prevalence = metrics["prevalence"].short()
        return (
            f"<Report of {self.source}: {d.n} rows, prevalence {prevalence}; at threshold "
            f"{format_threshold(self.threshold)}: TP {k.tp}, FP {k.fp}, TN {k.tn}, FN {k.fn}; "
            f"precision {metrics['precision'].short()}, recall {metrics['recall'].short()}; "
            f"ROC AUC {s.roc_auc.short()}, AP {s.average_precision.short()}>"
        )

    def _repr_html_(self) -> str:
        """For a notebook: each model's confusion matrix and headline metrics under its
        name, the models' comparisons (AUC difference with DeLong's interval and p),
        and the groups and folds in short."""
        c = self.contents
        e = html.escape
        several = len(c.parts) > 1
        head = (
            f"<p>{e(self.source)}: {c.first.analysis.data.n} rows, threshold "
            f"{e(format_threshold(self.threshold))} (positive if score &gt;= threshold)"
            + (f"; {len(c.parts)} models" if several else "")
            + "</p>"
        )
        body = [_model_html(p.name if several else "", p.analysis) for p in c.parts]
        if c.comparisons:
            rows = [_row("models", "AUC difference", "interval", "p", head=True)]
            for x in c.comparisons:
                d = x.delong
                rows.append(
                    _row(
                        f"{x.a} − {x.b}",
                        x.auc_difference.value_or_reason(),
                        "" if d is None else d.interval.text(),
                        (x.delong_reason or "") if d is None else d.p.text(),
                    )
                )
            body.append(f"<p>Comparisons (DeLong's paired test)</p><table>{''.join(rows)}</table>")
        if c.groups:
            heads = ("group", "rows", "TP", "FP", "TN", "FN", "selection rate", "TPR", "FPR")
            rows = [_row(*heads, head=True)]
            for g in self.groups:
                k, m = g.counts, g.metrics
                rows.append(
                    _row(
                        g.name,
                        str(g.n),
                        *(str(v) for v in (k.tp, k.fp, k.tn, k.fn)),
                        *(m[n].metric.short() for n in ("queue_rate", "recall", "fpr")),
                    )
                )
            body.append(f"<p>Groups by {e(str(c.group_column))}</p><table>{''.join(rows)}</table>")
        folds = c.first.folds
        if folds is not None:
            rows = [_row("fold", "rows", "ROC AUC", "average precision", head=True)]
            rows += [
                _row(
                    f.name, str(f.n), f.auc.value_or_reason(), f.average_precision.value_or_reason()
                )
                for f in folds.folds
            ]
            spread = folds.auc
            body.append(
                f"<p>Folds by {e(folds.column)}: ROC AUC mean {spread.mean:.4f}, "
                f"sd {spread.sd:.4f}</p><table>{''.join(rows)}</table>"
            )
        return f"<div>{head}{''.join(body)}</div>"


def _row(*cells: str, head: bool = False) -> str:
    tag = "th" if head else "td"
    return "<tr>" + "".join(f"<{tag}>{html.escape(c)}</{tag}>" for c in cells) + "</tr>"


def _model_html(name: str, a: Analysis) -> str:
    """One model's confusion matrix and headline metrics, under its name."""
    k, m, s = a.counts, a.metrics, a.curves.summaries
    matrix = "".join(
        [
            _row("", "predicted 1", "predicted 0", head=True),
            _row("actual 1", f"TP {k.tp}", f"FN {k.fn}"),
            _row("actual 0", f"FP {k.fp}", f"TN {k.tn}"),
        ]
    )
    names = ("precision", "recall", "f1", "accuracy", "fpr")
    headline = [(m[n].name or n, m[n].value_or_reason()) for n in names]
    headline += [
        ("ROC AUC", s.roc_auc.value_or_reason()),
        ("average precision", s.average_precision.value_or_reason()),
    ]
    metrics = "".join(_row(n, v) for n, v in headline)
    title = f"<p><b>{html.escape(name)}</b></p>" if name else ""
    return f"{title}<table>{matrix}</table><table>{metrics}</table>"
