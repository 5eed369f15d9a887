"""The headless report: one JSON object, or readable text, for one threshold."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

from core.analysis import Analysis
from core.calibration.reliability import BINS
from core.curves.reduce import reduce_curve
from core.data.aggregated import Quantised
from core.errors import InputError
from core.intervals import Sure
from core.intervals.bootstrap import AT_THRESHOLD as BOOT_AT_THRESHOLD
from core.intervals.closed import auc_interval, proportion_interval
from core.metrics.metric import Metric, format_count
from core.metrics.threshold_metrics import METRIC_NAMES
from core.text.calibration import calibration_lines, ks_words
from core.text.sentences import status_sentence
from core.threshold import format_threshold

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

    >>> from core.analysis import analyse
    >>> from core.data.presets import preset
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
    return reduce_curve(s.fp, s.tp, columns=(points - 3) // 4, keep=[a.point])


def sweep_row(a: Analysis, k: int) -> dict[str, Any]:
    """Operating point ``k`` (0 is above all) with its counts and rates."""
    s = a.sweep
    row: dict[str, Any] = {"index": k, "threshold": s.threshold_at(k), **s.counts_at(k).as_json()}
    row.update({name: m.as_json() for name, m in s.point_metrics(k).items()})
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


def report_json(
    a: Analysis,
    *,
    source: str,
    points: int | None = JSON_POINTS,
    sure: Sure | None = None,
    bins: tuple[int, str] = (BINS, "mass"),
    quantised: Quantised | None = None,
) -> dict[str, Any]:
    """The report as a JSON-ready dict (schema 1); no NaN or infinity anywhere.

    ``points`` is how many sweep points to list (see :func:`listed_points`);
    ``sure`` the intervals' confidence and a bootstrap's estimates.
    The sweep comes last, so :func:`json_pieces` can stream it.
    """
    sure = sure or Sure()
    s = a.curves.summaries
    listed = listed_points(a, points)
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
        "metrics": metrics_json(a, sure),
        "formulas": {name: a.metrics[name].describe() for name in METRIC_NAMES},
        "status": status_sentence(a),
        "roc": roc_json(a, sure, quantised),
        "pr": {
            "average_precision": _with_estimate(s.average_precision, sure, "average_precision"),
            "trapezoid_area": _with_estimate(s.pr_trapezoid_area, sure, "pr_trapezoid_area"),
        },
        "probability": {"log_loss": s.log_loss.as_json(), "brier": s.brier.as_json()},
        "calibration": a.curves.calibration(*bins).as_json(),
        "ks": a.curves.ks.as_json(),
        "intervals": intervals_json(sure),
        "quantisation": None if quantised is None else quantised.as_json(),
    }
    if sure.boot is not None and sure.boot.bands is not None:
        out["bands"] = sure.boot.bands.as_json()
    out["sweep_points"] = _listing(a, int(listed.shape[0]), points)
    out["sweep"] = [sweep_row(a, int(k)) for k in listed]
    return out


def intervals_json(sure: Sure) -> dict[str, Any]:
    """How the intervals were made: ``{"confidence", "bootstrap": {replicates, seed}|null}``."""
    b = sure.boot
    return {
        "confidence": sure.confidence,
        "bootstrap": None if b is None else {"replicates": b.replicates, "seed": b.seed},
    }


def _with_estimate(m: Metric, sure: Sure, name: str, point: int | None = None) -> dict[str, Any]:
    """``m.as_json()`` with its bootstrap interval (or null and why), when defined."""
    out = m.as_json()
    if m.value is not None:
        out.update(sure.estimate(name, point).as_json_fields())
    return out


def json_pieces(
    a: Analysis,
    *,
    source: str,
    points: int | None = JSON_POINTS,
    chunk: int = 4096,
    extra: dict[str, Any] | None = None,
    sure: Sure | None = None,
    bins: tuple[int, str] = (BINS, "mass"),
    quantised: Quantised | None = None,
) -> Iterator[str]:
    """The JSON report as text pieces that join to one object, the same as
    ``json.dumps(report_json(...))``; the sweep is written ``chunk`` points at a
    time, so listing every point of a 10^7-row sweep needs little memory.
    ``extra`` adds fields (a goal, a prevalence) before the sweep."""
    listed = listed_points(a, points)
    head = report_json(a, source=source, points=0, sure=sure, bins=bins, quantised=quantised)
    head["sweep_points"] = _listing(a, int(listed.shape[0]), points)
    del head["sweep"]
    head.update(extra or {})
    yield json.dumps(head, allow_nan=False)[:-1] + ', "sweep": ['
    for start in range(0, listed.shape[0], chunk):
        rows = _rows_json(a, listed[start : start + chunk])
        yield ("" if start == 0 else ", ") + ", ".join(rows)
    yield "]}"


def _integral(x: npt.NDArray[Any]) -> npt.NDArray[np.bool_]:
    """Elementwise :func:`core.metrics.metric.is_integral`."""
    if x.dtype.kind in "iu":
        return np.ones(x.shape, dtype=bool)
    out: npt.NDArray[np.bool_] = np.isfinite(x) & (x == np.floor(x)) & (np.abs(x) <= 2**53)
    return out


def _rates_json(num: npt.NDArray[Any], den: npt.NDArray[Any], reason: str) -> list[str]:
    """``Metric.as_json()`` text of ``ratio(num, den)`` for many points at once."""
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
    return [
        f'{{"index": {k}, "threshold": {t}, "tp": {tp_!r}, "fp": {fp_!r}, "tn": {tn_!r}, '
        f'"fn": {fn_!r}, "tpr": {r1}, "fpr": {r2}, "precision": {r3}, "recall": {r4}}}'
        for k, t, tp_, fp_, tn_, fn_, r1, r2, r3, r4 in zip(
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
            strict=True,
        )
    ]


def _cell(m: Metric) -> str:
    return m.value_text() if m.value is not None else "undefined"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    fmt = "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
    return [fmt.format(*header).rstrip(), *(fmt.format(*r).rstrip() for r in rows)]


#: How many sweep rows the text report shows unless asked for more (``--points``).
TEXT_POINTS = 40


def sweep_table(a: Analysis, *, limit: int | None = TEXT_POINTS) -> list[str]:
    """The sweep as text rows, the active point marked with ``>``; long sweeps elided
    to the first and last ``limit // 2`` rows (``None``: every row)."""
    c = format_count
    s = a.sweep
    indices: list[int] | range = range(s.size)
    half = s.size
    if limit is not None and s.size > limit:
        half = limit // 2
        indices = [*range(half), -1, *range(s.size - half, s.size)]
    rows: list[list[str]] = []
    for i in indices:
        if i == -1:
            hidden = s.size - 2 * half
            more = "more points" if half else "points, not listed"
            rows.append([f"... {hidden} {more} ...", *[""] * 8])
            continue
        pk = s.counts_at(i)
        pm = a.sweep.point_metrics(i)
        label = "above all" if i == 0 else format_threshold(s.threshold_at(i))
        if i == a.point:
            label = "> " + label
        rows.append(
            [
                label,
                c(pk.tp),
                c(pk.fp),
                c(pk.tn),
                c(pk.fn),
                *(_cell(pm[n]) for n in ("tpr", "fpr", "precision", "recall")),
            ]
        )
    return _table(
        ["  threshold", "TP", "FP", "TN", "FN", "TPR", "FPR", "precision", "recall"],
        [["  " + r[0], *r[1:]] for r in rows],
    )


def report_text(
    a: Analysis,
    *,
    source: str,
    sweep_limit: int | None = TEXT_POINTS,
    sure: Sure | None = None,
    bins: tuple[int, str] = (BINS, "mass"),
    quantised: Quantised | None = None,
) -> str:
    """A readable plain-text report: counts, metrics with formulas, sweep, summaries."""
    sure = sure or Sure()
    k, d = a.counts, a.data
    c = format_count
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
        *_table(
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
    ]
    out += sweep_table(a, limit=sweep_limit)
    out.append("  (> marks the active operating point)")
    sm = a.curves.summaries
    out += [
        "",
        "Ranking summaries (do not depend on the threshold)",
        f"  ROC AUC, trapezoid over the exact sweep: {_summary(sm.roc_auc)}"
        f"{_auc_interval(a, sure)}",
        *quantised_lines(a, quantised),
        f"  Average precision, step-weighted (not interpolated): {_summary(sm.average_precision)}"
        f"{_boot_text(sm.average_precision, sure, 'average_precision')}",
        f"  PR area by the trapezoid rule, from recall 0 / precision 1: "
        f"{_summary(sm.pr_trapezoid_area)}"
        f"{_boot_text(sm.pr_trapezoid_area, sure, 'pr_trapezoid_area')}",
        "",
        f"  {ks_words(a.curves.ks)}",
        "",
        "Probability metrics (scores read as probabilities of the positive class)",
        f"  {sm.log_loss.describe()}",
        f"  {sm.brier.describe()}",
        "",
        *calibration_lines(a.curves.calibration(*bins)),
    ]
    return "\n".join(out) + "\n"


def _summary(m: Metric) -> str:
    """A summary's value, or ``undefined: reason``."""
    return m.value_text() if m.value is not None else m.undefined_text()


def intervals_sentence(sure: Sure, ask: str = "--bootstrap B") -> str:
    """How the intervals were made, in words (``ask``: how to ask for a bootstrap)."""
    pct = f"{sure.confidence * 100:g}%"
    text = f"{pct} intervals: Wilson's for proportions, n = the denominator"
    b = sure.boot
    if b is None:
        return text + f"; F1, F-beta, MCC and the rest need a bootstrap ({ask})"
    return (
        text + f"; the rest by a stratified bootstrap over tie groups, B = {b.replicates}, "
        f"seed {b.seed}, percentile"
    )


def metrics_json(a: Analysis, sure: Sure | None = None) -> dict[str, Any]:
    """Each metric's ``M``, with its interval: Wilson's where it is a proportion, the
    bootstrap's for the rest when one ran (or ``"interval": null`` and
    ``"interval_reason"`` when it has none)."""
    sure = sure or Sure()
    whole = a.sweep.whole_counts()
    out: dict[str, Any] = {}
    for name in METRIC_NAMES:
        m = a.metrics[name].as_json()
        if a.metrics[name].value is not None and name in BOOT_AT_THRESHOLD:
            m.update(sure.estimate(name, a.point).as_json_fields())
            out[name] = m
            continue
        interval, reason = proportion_interval(
            name, a.counts, whole=whole, confidence=sure.confidence
        )
        if interval is not None:
            m["interval"] = interval.as_json()
        elif reason is not None:
            m["interval"], m["interval_reason"] = None, reason
        out[name] = m
    return out


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


def quantised_rule_words(q: Quantised) -> str:
    """``rounded to 3 decimal digits`` (the rule recorded in the file)."""
    from core.engines.quantise import parse_rule

    try:
        return parse_rule(q.rule).words()
    except InputError:
        return q.rule


def roc_json(
    a: Analysis, sure: Sure | None = None, quantised: Quantised | None = None
) -> dict[str, Any]:
    """``{"auc": M with its DeLong interval, "auc_se": number|null}``, and with
    quantised counts ``"quantisation_bound": e`` (the true AUC is within e of M)."""
    sure = sure or Sure()
    auc = a.curves.summaries.roc_auc.as_json()
    se = None
    if a.curves.summaries.roc_auc.value is not None:
        value, se, reason = a.curves.auc_se
        if value is not None and se is not None:
            auc["interval"] = auc_interval(value, se, sure.confidence).as_json()
        else:
            auc["interval"], auc["interval_reason"] = None, reason
    out: dict[str, Any] = {"auc": auc, "auc_se": se}
    if quantised is not None:
        out["quantisation_bound"] = quantised.bound
    return out


def metric_interval(a: Analysis, name: str, sure: Sure, *, short: bool = False) -> str | None:
    """Metric ``name``'s interval at ``a`` as text (``95% CI 0.21 to 0.94, Wilson,
    n = 3``; ``short``: without the method's name), or None when it has none."""
    if a.metrics[name].value is None:
        return None
    if name in BOOT_AT_THRESHOLD:
        interval = sure.estimate(name, a.point).interval
    else:
        interval, _ = proportion_interval(
            name, a.counts, whole=a.sweep.whole_counts(), confidence=sure.confidence
        )
    if interval is None:
        return None
    return interval.short() if short else interval.text()


def metric_lines(a: Analysis, sure: Sure | None = None) -> list[str]:
    """Each metric's formula line, with its interval where it has one:
    ``precision = ... = 2/3 ≈ 0.6667 (95% CI 0.21 to 0.94, Wilson, n = 3)``."""
    sure = sure or Sure()
    lines = []
    for name in METRIC_NAMES:
        m = a.metrics[name]
        line = m.describe()
        text: str | None
        if name in BOOT_AT_THRESHOLD and sure.boot is not None and m.value is not None:
            e = sure.estimate(name, a.point)
            text = e.interval.text() if e.interval is not None else f"no interval: {e.reason}"
        else:
            text = metric_interval(a, name, sure) if m.value is not None else None
        lines.append(line if text is None else f"{line} ({text})")
    return lines


def auc_interval_text(a: Analysis, sure: Sure) -> str | None:
    """``95% CI 0.62 to 0.84, DeLong; SE 0.0558``, or None."""
    if a.curves.summaries.roc_auc.value is None:
        return None
    value, se, _ = a.curves.auc_se
    if value is None or se is None:
        return None
    return f"{auc_interval(value, se, sure.confidence).text()}; SE {se:.4f}"


def _auc_interval(a: Analysis, sure: Sure) -> str:
    text = auc_interval_text(a, sure)
    return "" if text is None else f" ({text})"


def _boot_text(m: Metric, sure: Sure, name: str) -> str:
    if m.value is None or sure.boot is None:
        return ""
    e = sure.estimate(name)
    if e.interval is None:
        return f" (no interval: {e.reason})"
    return f" ({e.interval.text()})"
