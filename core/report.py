"""The headless report: one JSON object, or readable text, for one threshold."""

from __future__ import annotations

from typing import Any

from core.analysis import Analysis
from core.metric import Metric, format_count
from core.metrics import METRIC_NAMES
from core.sentences import status_sentence
from core.threshold import format_threshold

SCHEMA = 1


def sweep_rows(a: Analysis) -> list[dict[str, Any]]:
    """Every operating point with its counts and rates, above-all first."""
    s = a.sweep
    rows = []
    for k in range(s.size):
        c = s.counts_at(k)
        row: dict[str, Any] = {"threshold": s.threshold_at(k), **c.as_json()}
        row.update({name: m.as_json() for name, m in a.sweep.point_metrics(k).items()})
        rows.append(row)
    return rows


def report_json(a: Analysis, *, source: str) -> dict[str, Any]:
    """The report as a JSON-ready dict (schema 1); no NaN or infinity anywhere."""
    s = a.curves.summaries
    return {
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
        "metrics": {name: a.metrics[name].as_json() for name in METRIC_NAMES},
        "formulas": {name: a.metrics[name].describe() for name in METRIC_NAMES},
        "status": status_sentence(a),
        "sweep": sweep_rows(a),
        "roc": {"auc": s.roc_auc.as_json()},
        "pr": {
            "average_precision": s.average_precision.as_json(),
            "trapezoid_area": s.pr_trapezoid_area.as_json(),
        },
        "probability": {"log_loss": s.log_loss.as_json(), "brier": s.brier.as_json()},
    }


def _cell(m: Metric) -> str:
    return m.value_text() if m.value is not None else "undefined"


def _table(header: list[str], rows: list[list[str]]) -> list[str]:
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    fmt = "  ".join(f"{{:<{w}}}" if i == 0 else f"{{:>{w}}}" for i, w in enumerate(widths))
    return [fmt.format(*header).rstrip(), *(fmt.format(*r).rstrip() for r in rows)]


def sweep_table(a: Analysis, *, limit: int = 40) -> list[str]:
    """The sweep as text rows, the active point marked with ``>``; long sweeps elided."""
    c = format_count
    s = a.sweep
    indices = list(range(s.size))
    if s.size > limit:
        half = limit // 2
        indices = [*indices[:half], -1, *indices[-half:]]
    rows: list[list[str]] = []
    for i in indices:
        if i == -1:
            rows.append([f"... {s.size - 2 * (limit // 2)} more points ...", *[""] * 8])
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


def report_text(a: Analysis, *, source: str, sweep_limit: int = 40) -> str:
    """A readable plain-text report: counts, metrics with formulas, sweep, summaries."""
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
        *(f"  {a.metrics[name].describe()}" for name in METRIC_NAMES),
        "",
        "Sweep: one operating point per distinct score, tied scores enter together",
    ]
    out += sweep_table(a, limit=sweep_limit)
    out.append("  (> marks the active operating point)")
    sm = a.curves.summaries
    out += [
        "",
        "Ranking summaries (do not depend on the threshold)",
        f"  ROC AUC, trapezoid over the exact sweep: {sm.roc_auc.value_text()}"
        + (f" ({sm.roc_auc.reason})" if sm.roc_auc.value is None else ""),
        f"  Average precision, step-weighted (not interpolated): "
        f"{sm.average_precision.value_text()}"
        + (f" ({sm.average_precision.reason})" if sm.average_precision.value is None else ""),
        f"  PR area by the trapezoid rule, from recall 0 / precision 1: "
        f"{sm.pr_trapezoid_area.value_text()}"
        + (f" ({sm.pr_trapezoid_area.reason})" if sm.pr_trapezoid_area.value is None else ""),
        "",
        "Probability metrics (scores read as probabilities of the positive class)",
        f"  {sm.log_loss.describe()}",
        f"  {sm.brier.describe()}",
    ]
    return "\n".join(out) + "\n"
