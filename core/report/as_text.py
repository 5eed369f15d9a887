"""The report as readable text, and the sections that plain mode and the explorer's
metrics screen say too: counts, each metric's formula with its interval, the sweep,
the summaries, the goal, the prevalence, the models compared, the classes.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING

from threshold_lab.core.calibration.reliability import BINS
from threshold_lab.core.curves.coordinates import coordinate_key
from threshold_lab.core.curves.operating import (
    PartialAUC,
    Readout,
    partial_auc_key,
    readout_key,
)
from threshold_lab.core.data.quantise import parse_rule
from threshold_lab.core.decide.band import band_lines
from threshold_lab.core.decide.solve import WORDS, Decision, decision_sentence
from threshold_lab.core.decide.stability import stability_lines
from threshold_lab.core.errors import InputError
from threshold_lab.core.intervals import IntervalsShown
from threshold_lab.core.intervals.closed import percent
from threshold_lab.core.measures import (
    Measure,
    auc_interval_text,
    boot_measure,
    metric_measure,
)
from threshold_lab.core.metrics.metric import Metric, format_count, format_fraction
from threshold_lab.core.metrics.threshold_metrics import METRIC_NAMES
from threshold_lab.core.text.calibration import calibration_lines, ks_words
from threshold_lab.core.text.decision import cost_curve_lines, decision_curve_lines
from threshold_lab.core.text.folds import folds_lines
from threshold_lab.core.text.groups import groups_lines
from threshold_lab.core.text.multiclass import multiclass_lines
from threshold_lab.core.text.notable import notable_points
from threshold_lab.core.text.operating import partial_auc_sentence, readout_sentence
from threshold_lab.core.text.sentences import status_sentence
from threshold_lab.core.text.sweep_table import TEXT_POINTS, SweepRows, sweep_rows
from threshold_lab.core.text.table import table
from threshold_lab.core.threshold import format_threshold

if TYPE_CHECKING:
    from threshold_lab.core.analysis import Analysis
    from threshold_lab.core.compare.models import Comparison
    from threshold_lab.core.data.aggregated import Quantised
    from threshold_lab.core.decide.net_benefit import DecisionCurve
    from threshold_lab.core.intervals.bootstrap import Estimate
    from threshold_lab.core.report.parts import Contents, ModelPart


def intervals_sentence(sure: IntervalsShown, ask: str = "--bootstrap B") -> str:
    """How the intervals were made, in words (``ask``: how to ask for a bootstrap)."""
    pct = percent(sure.confidence)
    text = f"{pct} intervals: Wilson's for proportions, n = the denominator"
    b = sure.boot
    if b is None:
        return text + f"; F1, F-beta, MCC and the rest need a bootstrap ({ask})"
    return (
        text + f"; the rest by a stratified bootstrap over tie groups, B = {b.replicates}, "
        f"seed {b.seed}, percentile"
    )


def measure_line(m: Measure, sure: IntervalsShown) -> str:
    """A number's formula line with its interval where it has one:
    ``precision = ... = 2/3 ≈ 0.6667 (95% CI 0.21 to 0.94, Wilson, n = 3)``; a
    bootstrap that ran and gave none says why."""
    line = m.formula
    if m.value is None:
        return line
    if m.interval is not None:
        return f"{line} ({m.interval.text()})"
    if m.interval_from == "bootstrap" and sure.boot is not None:
        return f"{line} (no interval: {m.interval_reason})"
    return line


def metric_lines(a: Analysis, sure: IntervalsShown | None = None) -> list[str]:
    """Each threshold metric's formula line, with its interval where it has one."""
    sure = sure or IntervalsShown()
    return [measure_line(metric_measure(name, a, sure), sure) for name in METRIC_NAMES]


def metrics_section(
    a: Analysis, sure: IntervalsShown | None, ask: str = "--bootstrap B"
) -> list[str]:
    """Every threshold metric's line, in :data:`METRIC_NAMES` order (with intervals on,
    their intervals and a last line saying how they were made)."""
    if sure is None:
        return [a.metrics[name].describe() for name in METRIC_NAMES]
    return [*metric_lines(a, sure), f"({intervals_sentence(sure, ask)})"]


def prevalence_section(at: dict[str, Metric], p: Fraction) -> list[str]:
    """Every threshold metric at a deployment prevalence, a line each, under its heading."""
    lines = [prevalence_heading(p)]
    for name in METRIC_NAMES:
        m = at[name]
        lines.append(f"{m.name or name}: {m.value_or_reason()}")
    return lines


def quantised_rule_words(q: Quantised) -> str:
    """``rounded to 3 decimal digits`` (the rule recorded in the file)."""
    try:
        return parse_rule(q.rule).words()
    except InputError:
        return q.rule


def quantised_lines(a: Analysis, quantised: Quantised | None) -> list[str]:
    """``  AUC 0.9132 (quantised: true AUC within ± 0.0003)``, or nothing."""
    if quantised is None:
        return []
    auc = a.curves.summaries.roc_auc.value
    shown = "undefined" if auc is None else f"{auc:.4f}"
    return [
        f"  AUC {shown} ({quantised.words()}); the scores were {quantised_rule_words(quantised)},"
        " so the AUC of these counts differs from the rows' by at most that."
    ]


def _boot_auc(auc: Metric, sure: IntervalsShown) -> str:
    """The AUC's bootstrap interval after DeLong's, when a bootstrap ran."""
    if sure.boot is None or auc.value is None:
        return ""
    m = boot_measure(auc, sure, "roc_auc")
    return f"; {m.interval.text()}" if m.interval is not None else ""


def _summary_line(m: Measure, sure: IntervalsShown) -> str:
    """A summary's value (or ``undefined: reason``) and its bootstrap interval."""
    text = m.metric.value_or_reason()
    if m.value is None or sure.boot is None:
        return text
    if m.interval is None:
        return f"{text} (no interval: {m.interval_reason})"
    return f"{text} ({m.interval.text()})"


def model_lines(
    a: Analysis,
    *,
    source: str,
    sweep_limit: int | None = TEXT_POINTS,
    sure: IntervalsShown | None = None,
    bins: tuple[int, str] = (BINS, "mass"),
    quantised: Quantised | None = None,
    readouts: tuple[Readout, ...] = (),
    partial: tuple[PartialAUC, ...] = (),
    goal_point: int | None = None,
    decision: DecisionCurve | None = None,
) -> list[str | SweepRows]:
    """One model's text report: counts, metrics with formulas, sweep (its notable
    points: the active one, the readouts', the goal's, max F1, max informedness),
    summaries, readouts at fixed rates and partial AUCs."""
    sure = sure or IntervalsShown()
    k, d = a.counts, a.data
    c = format_count
    sm = a.curves.summaries
    auc_text = auc_interval_text(a, sure)
    out = [
        f"threshold-lab report: {source}",
        f"{c(d.n)} rows{' (weighted)' if d.weighted else ''}: "
        f"{c(d.positives)} actual positive, {c(d.negatives)} actual negative",
        f"Rule: predicted positive if score >= threshold. Threshold: "
        f"{format_threshold(a.threshold)}",
        "",
        status_sentence(a),
        "",
        "Confusion matrix",
        *table(
            ["", "predicted 1", "predicted 0", "total"],
            [
                ["actual 1", f"TP {c(k.tp)}", f"FN {c(k.fn)}", c(k.actual_positive)],
                ["actual 0", f"FP {c(k.fp)}", f"TN {c(k.tn)}", c(k.actual_negative)],
                ["total", c(k.predicted_positive), c(k.predicted_negative), c(k.total)],
            ],
        ),
        "",
        "Metrics (exact fraction, then a decimal; ≈ marks an approximation)",
        *(f"  {line}" for line in metric_lines(a, sure)),
        f"  ({intervals_sentence(sure)})",
        "",
        "Sweep: one operating point per distinct score, tied scores enter together",
        *sweep_rows(a, limit=sweep_limit, notable=notable_points(a, readouts, goal_point)),
        "  (> marks the active operating point; * a vertex of the ROC convex hull, the "
        "cheapest point at some cost ratio (no other point ever is); notable says why a "
        "point is listed when the sweep is too long to list whole)",
        "",
        "Ranking summaries (do not depend on the threshold)",
        f"  ROC AUC, trapezoid over the exact sweep: {sm.roc_auc.value_or_reason()}"
        + ("" if auc_text is None else f" ({auc_text}{_boot_auc(sm.roc_auc, sure)})"),
        "  Area under the ROC convex hull (ROCCH AUC): "
        + a.curves.cost_curve.hull_auc.value_or_reason(),
        *quantised_lines(a, quantised),
        "  Average precision, step-weighted (not interpolated): "
        + _summary_line(boot_measure(sm.average_precision, sure, "average_precision"), sure),
        "  PR area by the trapezoid rule, from recall 0 / precision 1: "
        + _summary_line(boot_measure(sm.pr_trapezoid_area, sure, "pr_trapezoid_area"), sure),
        *partial_lines(partial, sure),
        "",
        *operating_lines(readouts, sure),
        f"  {ks_words(a.curves.ks)}",
        "",
        "Probability metrics (scores read as probabilities of the positive class)",
        f"  {sm.log_loss.describe()}",
        f"  {sm.brier.describe()}",
        "",
        *calibration_lines(a.curves.calibration(*bins)),
        "",
        *decision_curve_lines(decision, sure),
        "",
        *cost_curve_lines(a),
    ]
    return out


def _ci(sure: IntervalsShown, name: str) -> str | None:
    """``95% CI 0.40 to 1.00, bootstrap`` for a bootstrap estimate, or None."""
    if sure.boot is None:
        return None
    e = sure.estimate(name)
    return None if e.interval is None else e.interval.text()


def partial_lines(partial: tuple[PartialAUC, ...], sure: IntervalsShown) -> list[str]:
    """A line per partial AUC, its area with the bootstrap's interval."""
    key = partial_auc_key
    return [
        f"  {partial_auc_sentence(p, _ci(sure, key(p.focus, p.low, p.high, 'area')))}"
        for p in partial
    ]


def operating_lines(readouts: tuple[Readout, ...], sure: IntervalsShown | None = None) -> list[str]:
    """The readouts section (none: no lines), with the bootstrap's intervals."""
    if not readouts:
        return []
    s = sure or IntervalsShown()
    rate = {"tpr_at_fpr": "tpr", "fpr_at_tpr": "fpr"}
    return [
        "Operating points at fixed rates (each a threshold to deploy; an interpolated value "
        "lies on the ROC line between two points, and no threshold attains it)",
        *(
            f"  {readout_sentence(r, _ci(s, readout_key(r.kind, r.limit, rate[r.kind])))}"
            for r in readouts
        ),
        "",
    ]


def coordinate_and_smooth_lines(part: ModelPart) -> list[str]:
    """The smoothed curves' areas (each named a model) and the bootstrap intervals at
    coordinates (--ci-se, --ci-sp, --ci-thresholds): none when none was asked for."""
    lines = [f"  {s.sentence()}" for s in part.smoothed]
    if part.coordinates:
        lines.append(
            "  Rates at coordinates, read on the ROC line between its points as pROC's "
            "coords (at a threshold: score >= T), with bootstrap intervals:"
        )
    for c in part.coordinates:
        told = []
        for rate, m in c.values.items():
            ci = _ci(part.sure, coordinate_key(c.given, c.at, rate))
            said = m.value_or_reason() + ("" if ci is None else f" ({ci})")
            told.append(said if c.given != "threshold" else f"{rate} {said}")
        head = c.words() if c.given != "threshold" else f"At threshold {c.at:g}"
        lines.append(f"    {head}: {'; '.join(told)}")
    return lines


def decision_lines(d: Decision, a: Analysis) -> list[str]:
    """The goal section: the goal, its threshold, and the thresholds deciding the same."""
    at = f" (at prevalence {format_fraction(d.prevalence)})" if d.prevalence else ""
    lines = ["Goal: " + d.goal.text() + at, "  " + decision_sentence(d, a.sweep)]
    where = "above all scores" if d.threshold is None else f"point {d.index} of {a.sweep.size - 1}"
    lines.append(
        f"  The same decisions: {d.same_decisions_text()} ({where}; "
        f"{d.attaining} point{'s attain' if d.attaining != 1 else ' attains'} the optimum; "
        f"{d.feasible_points} feasible)"
    )
    if not d.exact:
        lines.append("  (a plateau too long to compare exactly was compared in floats)")
    return lines


def threshold_spread_line(d: Decision, e: Estimate) -> str | None:
    """How the goal's threshold varies over the bootstrap samples, and where the goal is
    feasible (None: not resampled)."""
    if not d.feasible or d.threshold is None:
        return (
            None
            if e.choices is None
            else f"  Over the resamples the goal is {e.choices.sentence()}"
        )
    said = e.interval.text() if e.interval is not None else f"no interval ({e.reason})"
    if e.choices is not None:
        said += f"; the goal is {e.choices.sentence()}"
    return "  The chosen threshold varies from sample to sample: " + said


def prevalence_heading(p: Fraction) -> str:
    """``At prevalence 1/20 (TPR and FPR kept; LR+ and LR− do not change)``."""
    return f"At prevalence {format_fraction(p)} (TPR and FPR kept; LR+ and LR− do not change)"


def prevalence_lines(a: Analysis, at: dict[str, Metric], p: Fraction) -> list[str]:
    """The report's section of the metrics at another prevalence."""
    lines = [prevalence_heading(p)]
    for name in METRIC_NAMES:
        here, there = a.metrics[name], at[name]
        lines.append(
            f"  {WORDS.get(name, name):<18} {here.value_or_reason():>20}  ->  "
            f"{there.value_or_reason()}"
        )
    return lines


def models_lines(c: Contents) -> list[str]:
    """The section comparing the models (or an aggregated file's groups)."""
    first = c.first
    if c.group_by is not None:
        names = ", ".join(p.name for p in c.parts)
        lines = [
            f"Groups by {c.group_by} ({len(c.parts)}: {names}; each is different examples, "
            f"compared as independent samples; the report above is group "
            f"{first.name}'s, --group NAME for another)"
        ]
    else:
        lines = [
            f"Models ({len(c.parts)}, the same {first.analysis.data.n} examples; the report "
            f"above is model {first.name}'s)"
        ]
    for x in c.comparisons:
        lines += x.detail_lines()
    return lines


def comparison_lines(comparisons: Sequence[Comparison]) -> list[str]:
    """Each pair's numbers, one a line, unindented (plain mode)."""
    return [line.strip() for x in comparisons for line in x.detail_lines()]


def _report_lines(c: Contents, points: int | None) -> list[str | SweepRows]:
    """The text report's lines; a sweep listed whole at scale is one lazy item."""
    o, first = c.options, c.first
    a, sure = first.analysis, first.sure
    body = model_lines(
        a,
        source=c.source,
        sweep_limit=points,
        sure=sure,
        bins=(o.bins, o.binning),
        quantised=first.quantised,
        readouts=first.readouts,
        partial=first.partial_aucs,
        goal_point=first.decision.index if first.decision and first.decision.feasible else None,
        decision=first.decision_curve,
    )
    more = coordinate_and_smooth_lines(first)
    if more:  # after the ranking summaries
        place = body.index("Ranking summaries (do not depend on the threshold)")
        place = body.index("", place)
        body[place:place] = more
    if o.describe:  # the shape, after the ranking summaries
        shape: list[str] = []
        for kind in o.describe:
            told = c.describe(kind)
            shape.append(
                f"Shape of the {kind.upper()} curve (each sentence a claim over the exact sweep)"
            )
            shape += [f"  {x}" for x in told.sentences] or [f"  none: {told.reason}"]
            shape.append("")
        place = body.index(
            "Probability metrics (scores read as probabilities of the positive class)"
        )
        body[place:place] = shape
    said: list[str] = []
    if c.multiclass is not None:
        said.append(
            f"Class {c.klass} against the rest (--class C for another; the multiclass "
            "summary is at the end)"
        )
    if c.group_by is not None:
        said.append(
            f"Group {first.name} ({c.group_by} = {first.name}; {len(c.parts)} groups, "
            "--group NAME for another; they are compared at the end)"
        )
    if first.kept is not None:
        said.append(first.kept.sentence())
    deciding: list[str] = []
    d = first.decision
    if d is not None:
        deciding += decision_lines(d, a)
        if o.replicates is not None:
            spread = threshold_spread_line(d, sure.estimate("goal_threshold"))
            if spread is not None:
                deciding.append(spread)
        deciding.append("")
    band = c.band()
    if band is not None:
        band_text = band_lines(band, a.sweep)
        if c.several and c.group_by is None:
            band_text[0] += f" (model {c.first.name}'s scores)"
        if o.prevalence is not None:
            band_text.append(
                "  (solved on the rows as they are: the deployment prevalence does not "
                "reweight a band)"
            )
        deciding += [*band_text, ""]
    at = c.at_prevalence()
    if at is not None and o.prevalence is not None:
        deciding += [*prevalence_lines(a, at, o.prevalence), ""]
    matrix = body.index("Confusion matrix")
    lines: list[str | SweepRows] = [body[0], *said, *body[1:matrix], *deciding, *body[matrix:]]
    if c.several:
        lines += ["", *models_lines(c)]
        for part in c.parts[1:]:  # the first's are with its summaries
            more = coordinate_and_smooth_lines(part)
            if more:
                lines += ["", f"Model {part.name}", *more]
    if c.multiclass is not None:
        lines += ["", *multiclass_lines(c.multiclass)]
    if c.group_column is not None:
        lines += [
            "",
            *groups_lines(
                c.group_column, c.groups, c.gaps, a.threshold, first.name if c.several else None
            ),
        ]
        if c.group_thresholds is not None:
            lines += ["", *c.group_thresholds.sentences()]
    for part in c.parts:
        if part.folds is not None:
            lines += ["", *folds_lines(part.folds, part.name if c.several else None)]
    stable = c.stability()
    if stable is not None:
        lines += ["", *stability_lines(stable, first.decision if o.cv_goal == o.goal else None)]
    if c.gate is not None:
        lines += ["", *c.gate.lines()]
    return lines


def report_text(c: Contents, points: int | None = TEXT_POINTS) -> str:
    """The whole text report (what ``threshold-lab report`` prints)."""
    return "".join(report_text_pieces(c, points))


def report_text_pieces(c: Contents, points: int | None = TEXT_POINTS) -> Iterator[str]:
    """The text report a piece at a time: a sweep listed whole (``--points all``) is
    written as it is formatted, a block of rows at a time, never held whole."""
    for line in _report_lines(c, points):
        if isinstance(line, SweepRows):
            yield from line.pieces()
        else:
            yield line + "\n"
