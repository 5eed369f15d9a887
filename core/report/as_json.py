"""The report as one JSON object (schema 1): a contract that other programs read.

No NaN or infinity anywhere; every number that can be undefined is ``M =
{"value": number|null, "reason": string|null, "exact": "p/q"|null}``. An exact
fraction past 30 digits (numerator or denominator) is null, with ``"exact_reason"``
added saying so; the decimal stands for it (:meth:`Metric.as_json
<threshold_lab.core.metrics.metric.Metric.as_json>`, which writes every such field).
The sweep comes last, so :func:`report_pieces` can write a 10^7-point one in blocks.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.calibration.reliability import BINS
from threshold_lab.core.curves.coordinates import coordinate_key
from threshold_lab.core.curves.operating import (
    PartialAUC,
    Readout,
    partial_auc_key,
    readout_key,
)
from threshold_lab.core.curves.reduce import reduce_curve
from threshold_lab.core.decide.net_benefit import DecisionCurve, net_benefit_key
from threshold_lab.core.intervals import IntervalsShown
from threshold_lab.core.measures import auc_measure, boot_measure, metric_measures
from threshold_lab.core.metrics.metric import Metric, count_json, fraction_text
from threshold_lab.core.metrics.threshold_metrics import METRIC_NAMES
from threshold_lab.core.text.sentences import status_sentence

if TYPE_CHECKING:
    from threshold_lab.core.analysis import Analysis
    from threshold_lab.core.data.aggregated import Quantised
    from threshold_lab.core.folds import FoldReport
    from threshold_lab.core.report.parts import Contents, ModelPart

SCHEMA = 1

#: How many sweep points the JSON report lists unless asked for more (``--points``).
JSON_POINTS = 10_000
#: The smallest reduced listing: the endpoints, the active point and the curve's corners.
MIN_POINTS = 10


def listed_points(a: Analysis, points: int | None) -> npt.NDArray[np.intp]:
    """Indices of the sweep points a report lists, ascending.

    ``None`` lists every point; ``0`` none. Otherwise, when the sweep is longer
    than ``points``, at most ``points`` of them: the ends, the active point, and
    the corners that keep the ROC curve's shape (collinear points dropped, then a
    few per bucket of FPR). Every listed point is exact; only gaps are added.

    >>> from threshold_lab.core.analysis import analyse
    >>> from threshold_lab.core.data.presets import preset
    >>> listed_points(analyse(preset("canonical").data, 0.5), None).tolist()
    [0, 1, 2, 3, 4]
    """
    m = a.sweep.size
    if points is None or m <= points:
        return np.arange(m, dtype=np.intp)
    if points == 0:
        return np.arange(0, dtype=np.intp)
    if points < MIN_POINTS:
        raise ValueError(f"points must be 0 or at least {MIN_POINTS}, got {points}")
    s = a.sweep

    def reduced(columns: int) -> npt.NDArray[np.intp]:
        return reduce_curve(s.fp, s.tp, columns=columns, keep=[a.point], rising=True)

    # A bucket keeps at most four points, a rising curve's about two, and a straight
    # stretch none inside it: from the count one width of bucket gives, the buckets
    # are narrowed (twice at most, each reduction reading O(columns · log m)) while
    # the listing stays within ``points`` and grows.
    columns = max(1, (points - 3) // 4)
    kept = reduced(columns)
    for _ in range(2):
        if len(kept) >= points * 9 // 10:
            break
        narrower = max(columns + 1, columns * points * 19 // (20 * max(len(kept), 1)))
        more = reduced(narrower)
        if len(more) > points or len(more) <= len(kept):
            break
        columns, kept = narrower, more
    return kept


def sweep_row(a: Analysis, k: int) -> dict[str, Any]:
    """Operating point ``k`` (0 is above all) with its counts and rates."""
    s = a.sweep
    row: dict[str, Any] = {"index": k, "threshold": s.threshold_at(k), **s.counts_at(k).as_json()}
    row.update({name: m.as_json() for name, m in s.point_metrics(k).items()})
    # A vertex of the ROC convex hull: the cheapest point at some cost ratio (no other
    # point ever is).
    row["hull"] = k in a.curves.cost_curve.points()
    return row


def _listing(a: Analysis, listed: int, points: int | None) -> dict[str, Any]:
    total = a.sweep.size
    if listed == total:
        how = "every operating point"
    elif listed == 0:
        how = "none (--points 0)"
    else:
        how = (
            f"at most {points} of the {total} points: both ends, the active point and the "
            "corners of the ROC curve; each listed point is exact (--points all lists every one)"
        )
    return {"total": total, "listed": listed, "selection": how}


def corners_json(
    a: Analysis, points: int | None, listed: npt.NDArray[np.intp] | None = None
) -> dict[str, Any]:
    """pROC's "local maximas", the corners the curve rose into and goes right out of:
    every one where they are at most ``points`` (None: every one), else those among the
    listed sweep points (``listed``, where the caller has them), each still a corner of
    the whole curve, with their count."""
    corners = a.curves.local_maxima
    total = int(corners.shape[0])
    if not (a.sweep.positives > 0 and a.sweep.negatives > 0):
        how = "none: the ROC curve needs both actual classes"
    elif points is None or total <= points:
        how = "every corner"
    else:
        if listed is None:
            listed = listed_points(a, points)
        corners = np.intersect1d(corners, listed, assume_unique=True)
        how = (
            f"the {corners.shape[0]} of the {total} corners among the listed sweep points "
            "(--points all lists every one)"
        )
    s = a.sweep
    return {
        "local_maxima": [
            {
                "index": int(k),
                "threshold": s.threshold_at(int(k)),
                "tp": count_json(s.tp[k].item()),
                "fp": count_json(s.fp[k].item()),
            }
            for k in corners.tolist()
        ],
        "local_maxima_count": total,
        "local_maxima_selection": how,
    }


def report_json(
    a: Analysis,
    *,
    source: str,
    points: int | None = JSON_POINTS,
    sure: IntervalsShown | None = None,
    bins: tuple[int, str] = (BINS, "mass"),
    quantised: Quantised | None = None,
    readouts: tuple[Readout, ...] = (),
    partial: tuple[PartialAUC, ...] = (),
    decision: DecisionCurve | None = None,
) -> dict[str, Any]:
    """One model's report as a JSON-ready dict: the counts and metrics at ``a``'s
    point, the summaries, calibration, the readouts and partial AUCs, the decision
    curve and the cost curves' envelope, and the listed sweep (:func:`listed_points`);
    ``sure`` the intervals' confidence and a bootstrap's estimates."""
    sure = sure or IntervalsShown()
    s = a.curves.summaries
    listed = listed_points(a, points)
    auc, se = auc_measure(a, sure)
    ap = boot_measure(s.average_precision, sure, "average_precision")
    roc: dict[str, Any] = {
        "auc": auc.as_json(),
        "auc_se": se,
        # The AUC's percentile interval from the bootstrap, as pROC's ci.auc(method =
        # "bootstrap") gives it (null, with why, when no bootstrap ran).
        "auc_bootstrap": _auc_bootstrap(s.roc_auc, sure),
        "hull_auc": a.curves.cost_curve.hull_auc.as_json(),  # the ROC convex hull's area
        **corners_json(a, points, listed),
    }
    if quantised is not None:
        roc["quantisation_bound"] = quantised.bound
    out: dict[str, Any] = {
        "schema": SCHEMA,
        "source": source,
        "n": a.data.n,
        "weighted": a.data.weighted,
        "positives": a.data.positives,
        "negatives": a.data.negatives,
        "threshold": a.threshold,
        "rule": "predicted positive iff score >= threshold; null threshold = above all scores",
        "beta": a.beta,
        "counts": a.counts.as_json(),
        "metrics": {name: m.as_json() for name, m in metric_measures(a, sure).items()},
        # Text fields of schema 1, unchanged: reduced fractions, as the exact fields.
        "formulas": {name: a.metrics[name].describe() for name in METRIC_NAMES},
        "status": status_sentence(a),
        "roc": roc,
        "pr": {
            "average_precision": ap.as_json(),
            "trapezoid_area": boot_measure(
                s.pr_trapezoid_area, sure, "pr_trapezoid_area"
            ).as_json(),
        },
        "probability": {"log_loss": s.log_loss.as_json(), "brier": s.brier.as_json()},
        "calibration": a.curves.calibration(*bins).as_json(),
        "ks": a.curves.ks.as_json(),
        "readouts": [readout_json(r, sure) for r in readouts],
        "partial_auc": [partial_auc_json(p, sure) for p in partial],
        "decision_curve": None if decision is None else decision_curve_json(decision, sure),
        "cost_curve": a.curves.cost_curve.as_json(),
        "intervals": intervals_json(sure),
        "quantisation": None if quantised is None else quantised.as_json(),
    }
    if sure.boot is not None and sure.boot.bands is not None:
        out["bands"] = sure.boot.bands.as_json()
    out["sweep_points"] = _listing(a, int(listed.shape[0]), points)
    out["sweep"] = [sweep_row(a, int(k)) for k in listed]
    return out


def _auc_bootstrap(auc: Metric, sure: IntervalsShown) -> dict[str, Any]:
    """The AUC with its bootstrap interval; without a bootstrap, null and why."""
    out = boot_measure(auc, sure, "roc_auc").as_json()
    if sure.boot is None and auc.value is not None:
        out["interval_reason"] = "no bootstrap ran; one gives it (DeLong's interval is auc's)"
    return out


def _booted(m: Metric, sure: IntervalsShown | None, name: str) -> dict[str, Any]:
    """``m``'s JSON, with its bootstrap ``interval`` (or null and why) when one ran."""
    out = m.as_json()
    if sure is not None and sure.boot is not None and m.value is not None:
        out.update(sure.estimate(name).as_json_fields())
    return out


def readout_json(r: Readout, sure: IntervalsShown | None = None) -> dict[str, Any]:
    """``{"kind", "limit", "threshold" (null: above all), "tpr": M, "fpr": M, "counts",
    "interpolated"}``; an undefined readout has null threshold, counts and
    interpolated value, and its ``"reason"``. After a bootstrap, ``tpr`` and ``fpr``
    carry its interval (each replicate read off its own curve)."""
    inter = r.interpolated.as_json()
    return {
        "kind": r.kind,
        "limit": r.limit,
        "threshold": r.threshold,
        "point": r.point,
        "tpr": _booted(r.tpr, sure, readout_key(r.kind, r.limit, "tpr")),
        "fpr": _booted(r.fpr, sure, readout_key(r.kind, r.limit, "fpr")),
        "counts": None if r.counts is None else r.counts.as_json(),
        "interpolated": inter["value"],
        "interpolated_exact": inter["exact"],
        "reason": r.reason,
    }


def decision_curve_json(d: DecisionCurve, sure: IntervalsShown | None = None) -> dict[str, Any]:
    """``{"prevalence", "harm", "grid": [{"pt", "net_benefit", "treat_all",
    "interventions_avoided_per_100", "standardised", "interval"?}], "useful_range",
    "reason"}``: each grid row's net benefit gets its bootstrap ``interval`` (or null
    and why) when one ran."""
    out = d.as_json()
    if sure is not None and sure.boot is not None:
        for row, fields in zip(d.grid, out["grid"], strict=True):
            if row.net_benefit.value is not None:
                fields.update(sure.estimate(net_benefit_key(row.pt)).as_json_fields())
    return out


def partial_auc_json(p: PartialAUC, sure: IntervalsShown | None = None) -> dict[str, Any]:
    """``{"focus": "fpr"|"tpr", "low", "high", "area": M, "standardised": M}``, each
    with its bootstrap interval after a bootstrap."""
    key = partial_auc_key
    return {
        "focus": p.focus,
        "low": p.low,
        "high": p.high,
        "area": _booted(p.area, sure, key(p.focus, p.low, p.high, "area")),
        "standardised": _booted(p.standardised, sure, key(p.focus, p.low, p.high, "standardised")),
    }


def intervals_json(sure: IntervalsShown) -> dict[str, Any]:
    """How the intervals were made: ``{"confidence", "bootstrap": {replicates, seed}|null}``."""
    b = sure.boot
    return {
        "confidence": sure.confidence,
        "bootstrap": None if b is None else {"replicates": b.replicates, "seed": b.seed},
    }


def _goal_json(part: ModelPart, booted: bool) -> dict[str, Any]:
    d = part.decision
    assert d is not None
    out = d.as_json()
    if booted and d.feasible and d.threshold is not None:
        fields = part.sure.estimate("goal_threshold").as_json_fields()
        out.update({"threshold_" + k: v for k, v in fields.items()})
    elif booted:  # no interval of a threshold the rows do not choose; where it is feasible
        choices = part.sure.estimate("goal_threshold").choices
        if choices is not None:
            out["threshold_choices"] = choices.as_json()
    return out


def roc_more(part: ModelPart) -> dict[str, Any]:
    """The ROC fields asked for beyond the report's own: the smoothed curves
    (``smoothed``) and the bootstrap intervals at coordinates (``ci_se``: the
    sensitivity at each specificity; ``ci_sp``: the reverse; ``ci_thresholds``: both
    at each threshold), each rate with its ``interval``."""
    out: dict[str, Any] = {}
    if part.smoothed:
        out["smoothed"] = [s.as_json() for s in part.smoothed]
    field = {"specificity": "ci_se", "sensitivity": "ci_sp", "threshold": "ci_thresholds"}
    for c in part.coordinates:
        row: dict[str, Any] = {c.given: c.at}
        for rate, m in c.values.items():
            row[rate] = _booted(m, part.sure, coordinate_key(c.given, c.at, rate))
        out.setdefault(field[c.given], []).append(row)
    return out


def _part_json(c: Contents, part: ModelPart, points: int | None) -> dict[str, Any]:
    """One model's fields (as the top level has them for the first model)."""
    o = c.options
    fields = report_json(
        part.analysis,
        source=c.source,
        points=points,
        sure=part.sure,
        bins=(o.bins, o.binning),
        quantised=part.quantised,
        readouts=part.readouts,
        partial=part.partial_aucs,
        decision=part.decision_curve,
    )
    fields["roc"].update(roc_more(part))
    out: dict[str, Any] = {"name": part.name, **fields}
    if part.decision is not None:
        out["goal"] = _goal_json(part, o.replicates is not None)
    if part.folds is not None:
        out["folds"], out["fold_summary"] = folds_json(part.folds)
    return out


def folds_json(fr: FoldReport) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """``folds``: each fold's ``{"name", "n", "positives", "negatives", "roc": {"auc"},
    "pr": {"average_precision"}, "readouts"}``; ``fold_summary``: the mean and sample
    standard deviation of AUC and AP across folds, the pooled AUC (every row
    together), and at each readout the folds' interpolated rates averaged."""
    folds = [
        {
            "name": f.name,
            "n": f.n,
            "positives": f.positives,
            "negatives": f.negatives,
            "roc": {"auc": f.auc.as_json()},
            "pr": {"average_precision": f.average_precision.as_json()},
            "readouts": [readout_json(r) for r in f.readouts],
        }
        for f in fr.folds
    ]
    summary = {
        "column": fr.column,
        "folds": len(fr.folds),
        "auc": fr.auc.as_json(),
        "average_precision": fr.average_precision.as_json(),
        "pooled_auc": fr.pooled_auc.as_json(),
        "readouts": [
            {
                "kind": kind,
                "limit": limit,
                "averaging": "vertical" if kind == "tpr_at_fpr" else "horizontal",
                **spread.as_json(),
            }
            for kind, limit, spread in fr.readout_spreads()
        ],
    }
    return folds, summary


def group_json(p: ModelPart) -> dict[str, Any]:
    """``{"name", "n", "positives", "negatives", "prevalence", "counts", "metrics",
    "selection_rate", "roc": {"auc", "interval", "auc_se"}, "pr":
    {"average_precision", "trapezoid_area"}}``: the group's rows at the report's
    threshold, each rate with its Wilson interval, AUC with DeLong's."""
    a = p.analysis
    metrics = {name: m.as_json() for name, m in metric_measures(a, p.sure).items()}
    auc, se = auc_measure(a, p.sure)
    s = a.curves.summaries
    auc_json = auc.as_json()
    return {
        "name": p.name,
        "n": a.data.n,
        "weighted": a.data.weighted,
        "positives": a.data.positives,
        "negatives": a.data.negatives,
        "prevalence": metrics["prevalence"],
        "counts": a.counts.as_json(),
        "metrics": metrics,
        "selection_rate": metrics["queue_rate"],
        "roc": {"auc": auc_json, "interval": auc_json.get("interval"), "auc_se": se},
        "pr": {
            "average_precision": boot_measure(
                s.average_precision, p.sure, "average_precision"
            ).as_json(),
            "trapezoid_area": boot_measure(
                s.pr_trapezoid_area, p.sure, "pr_trapezoid_area"
            ).as_json(),
        },
    }


def extra_json(c: Contents, points: int | None) -> dict[str, Any]:
    """The fields after the first model's: groups, transform, classes, the goal, the
    prevalence, and with several models each model's report and every comparison."""
    o, first = c.options, c.first
    extra: dict[str, Any] = {}
    if o.describe:
        extra["description"] = {kind: c.describe(kind).as_json() for kind in o.describe}
    band = c.band()
    if band is not None:
        extra["band"] = band.as_json()
    stable = c.stability()
    if stable is not None:
        extra["stability"] = stable.as_json()
    if c.group_by is not None:
        extra["groups"] = {
            "by": c.group_by,
            "names": [p.name for p in c.parts],
            "shown": first.name,
        }
    if c.group_column is not None:
        extra["group_column"] = c.group_column
        extra["groups"] = [group_json(p) for p in c.groups]
        extra["gaps"] = None if c.gaps is None else {k: g.as_json() for k, g in c.gaps.items()}
        if c.group_thresholds is not None:
            extra["group_thresholds"] = c.group_thresholds.as_json()
    if first.kept is not None:
        extra["transform"] = first.kept.as_json()
    if c.multiclass is not None:
        extra["class"] = c.klass
        extra["multiclass"] = c.multiclass.as_json()
    if first.decision is not None:
        extra["goal"] = _goal_json(first, o.replicates is not None)
    at = c.at_prevalence()
    if at is not None and o.prevalence is not None:
        p = o.prevalence
        extra["at_prevalence"] = {
            "prevalence": fraction_text(p),
            "metrics": {name: m.as_json() for name, m in at.items()},
        }
    if first.folds is not None:
        extra["folds"], extra["fold_summary"] = folds_json(first.folds)
    if c.gate is not None:
        if c.gate.baseline is not None:
            extra["baseline"] = c.gate.baseline_json()
        if c.options.requirements:
            extra["requirements"] = c.gate.requirements_json()
    if c.conditions:
        extra["conditions"] = [x.as_json() for x in c.conditions]
    if c.several:
        extra["models"] = [_part_json(c, part, points) for part in c.parts]
        extra["comparison"] = [x.as_json() for x in c.comparisons]
    return extra


def report_dict(c: Contents, points: int | None = JSON_POINTS) -> dict[str, Any]:
    """The whole report as one JSON-ready dict: ``json.loads`` of what
    :func:`report_pieces` writes."""
    first = c.first
    head = report_json(
        first.analysis,
        source=c.source,
        points=points,
        sure=first.sure,
        bins=(c.options.bins, c.options.binning),
        quantised=first.quantised,
        readouts=first.readouts,
        partial=first.partial_aucs,
        decision=first.decision_curve,
    )
    head["roc"].update(roc_more(first))
    sweep = head.pop("sweep")
    head.update(extra_json(c, points))
    head["sweep"] = sweep
    return head


def report_pieces(
    c: Contents, points: int | None = JSON_POINTS, *, chunk: int = 4096
) -> Iterator[str]:
    """The JSON report as text pieces that join to one object, equal to
    ``json.dumps(report_dict(c, points))``; the sweep is written ``chunk`` points at a
    time, so listing every point of a 10^7-row sweep needs little memory."""
    first = c.first
    a = first.analysis
    listed = listed_points(a, points)
    head = report_json(
        a,
        source=c.source,
        points=0,
        sure=first.sure,
        bins=(c.options.bins, c.options.binning),
        quantised=first.quantised,
        readouts=first.readouts,
        partial=first.partial_aucs,
        decision=first.decision_curve,
    )
    head["roc"].update(roc_more(first))
    head["roc"].update(corners_json(a, points, listed))
    head["sweep_points"] = _listing(a, int(listed.shape[0]), points)
    del head["sweep"]
    head.update(extra_json(c, points))
    yield json.dumps(head, allow_nan=False)[:-1] + ', "sweep": ['
    for start in range(0, listed.shape[0], chunk):
        rows = _rows_json(a, listed[start : start + chunk])
        yield ("" if start == 0 else ", ") + ", ".join(rows)
    yield "]}"


def _integral(x: npt.NDArray[Any]) -> npt.NDArray[np.bool_]:
    """Elementwise :func:`threshold_lab.core.metrics.metric.is_integral`."""
    if x.dtype.kind in "iu":
        return np.ones(x.shape, dtype=bool)
    out: npt.NDArray[np.bool_] = np.isfinite(x) & (x == np.floor(x)) & (np.abs(x) <= 2**53)
    return out


def _rates_json(num: npt.NDArray[Any], den: npt.NDArray[Any], reason: str) -> list[str]:
    """``Metric.as_json()`` text of ``ratio(num, den)`` for many points at once. Its
    fractions are of int64 counts, at most 19 digits: never past the 30 after which
    ``Metric.as_json`` leaves the exact fraction out."""
    den = np.broadcast_to(den, num.shape)
    defined = den != 0
    value = np.divide(num, den, out=np.zeros(num.shape), where=defined)
    exactable = defined & _integral(num) & _integral(den)
    whole_num = np.where(exactable, num, 0).astype(np.int64)
    whole_den = np.where(exactable, den, 1).astype(np.int64)
    g = np.gcd(whole_num, whole_den)
    missing = json.dumps({"value": None, "reason": reason, "exact": None})
    out = []
    for v, d, e, p, q in zip(
        value.tolist(),
        defined.tolist(),
        exactable.tolist(),
        (whole_num // g).tolist(),
        (whole_den // g).tolist(),
        strict=True,
    ):
        if not d:
            out.append(missing)
        elif e:
            out.append(f'{{"value": {v!r}, "reason": null, "exact": "{p}/{q}"}}')
        else:
            out.append(f'{{"value": {v!r}, "reason": null, "exact": null}}')
    return out


def _rows_json(a: Analysis, indices: npt.NDArray[np.intp]) -> list[str]:
    """``json.dumps(sweep_row(a, k))`` for each of ``indices``, a block at a time:
    listing every point of a 10^7-point sweep takes about a minute, not ten."""
    s = a.sweep
    tp, fp = s.tp[indices], s.fp[indices]
    tn, fn = s.negatives - fp, s.positives - tp
    rates = {
        name: _rates_json(num, np.asarray(den), reason)
        for name, (num, den, reason) in s.rate_parts(tp, fp).items()
    }
    thresholds = ["null" if k == 0 else repr(float(s.thresholds[k - 1])) for k in indices.tolist()]
    hull = a.curves.cost_curve.points()
    on = ["true" if k in hull else "false" for k in indices.tolist()]
    return [
        f'{{"index": {k}, "threshold": {t}, "tp": {tp_!r}, "fp": {fp_!r}, "tn": {tn_!r}, '
        f'"fn": {fn_!r}, "tpr": {r1}, "fpr": {r2}, "precision": {r3}, "recall": {r4}, '
        f'"hull": {h}}}'
        for k, t, tp_, fp_, tn_, fn_, r1, r2, r3, r4, h in zip(
            indices.tolist(),
            thresholds,
            tp.tolist(),
            fp.tolist(),
            tn.tolist(),
            fn.tolist(),
            rates["tpr"],
            rates["fpr"],
            rates["precision"],
            rates["recall"],
            on,
            strict=True,
        )
    ]
