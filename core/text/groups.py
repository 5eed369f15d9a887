"""The report's groups section: a table of each group at the report's threshold, a
sentence a group with its intervals, and the gaps between groups."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

from threshold_lab.core.analysis import Analysis
from threshold_lab.core.groups.gaps import GAP_RATES, RATE_WORDS, Gap
from threshold_lab.core.intervals import IntervalsShown
from threshold_lab.core.intervals.closed import percent
from threshold_lab.core.measures import Measure, auc_measure, metric_measures
from threshold_lab.core.metrics.metric import format_count
from threshold_lab.core.threshold import Threshold, format_threshold


class ModelPart(Protocol):
    """A group's part of the report (the report's ModelPart): its name, its rows at
    the threshold, and the intervals in force."""

    @property
    def name(self) -> str: ...

    @property
    def analysis(self) -> Analysis: ...

    @property
    def sure(self) -> IntervalsShown: ...


#: The table's rate columns: the gaps' five rates.
COLUMNS = tuple(GAP_RATES)


def _cell(m: Measure) -> str:
    """A rate as its counts (``3/4``), a decimal when weighted, or ``undefined``."""
    if m.value is None:
        return "undefined"
    return m.metric.short()


def _with_interval(m: Measure) -> str:
    if m.value is None:
        return f"undefined ({m.reason})"
    shown = m.metric.short()
    if m.interval is not None:
        return f"{shown} ({m.interval.short()})"
    if m.interval_reason is not None:
        return f"{shown} (no interval: {m.interval_reason})"
    return shown


def group_measures(p: ModelPart) -> dict[str, Measure]:
    """The five rates the gaps compare, by their gap names, with Wilson's intervals."""
    m = metric_measures(p.analysis, p.sure)
    return {rate: m[metric] for rate, metric in GAP_RATES.items()}


def group_sentence(p: ModelPart, sure: IntervalsShown | None = None) -> str:
    """``a: 4 rows, 3 positive (prevalence 3/4); TP 2, FP 1, TN 0, FN 1; selection
    rate 3/4 (95% CI ...), ...; ROC AUC 1/2 (95% CI ..., DeLong), AP 0.83``."""
    a = p.analysis
    d, k = a.data, a.counts
    rates = group_measures(p)
    said = "; ".join(f"{RATE_WORDS[r]} {_with_interval(m)}" for r, m in rates.items())
    auc, _ = auc_measure(a, sure or p.sure)
    ap = a.curves.summaries.average_precision
    prevalence = a.metrics["prevalence"]
    return (
        f"{p.name}: {format_count(d.n)} rows"
        + (f" (weight {format_count(d.positives + d.negatives)})" if d.weighted else "")
        + f", {format_count(d.positives)} positive (prevalence "
        f"{prevalence.short() if prevalence.value is not None else 'undefined'}); TP "
        f"{format_count(k.tp)}, FP {format_count(k.fp)}, TN {format_count(k.tn)}, FN "
        f"{format_count(k.fn)}; {said}; ROC AUC {_with_interval(auc)}; AP "
        f"{ap.value_or_reason()}"
    )


def groups_table(parts: Sequence[ModelPart]) -> list[str]:
    """One line a group: rows (their weight when weighted), positives, the counts, the
    five rates as counts, AUC."""
    weighted = any(p.analysis.data.weighted for p in parts)  # then the weights, not rows
    head = [
        "group",
        "weight" if weighted else "rows",
        "positives",
        "TP",
        "FP",
        "TN",
        "FN",
        *(RATE_WORDS[r] for r in COLUMNS),
        "ROC AUC",
    ]
    rows = [head]
    for p in parts:
        a, k = p.analysis, p.analysis.counts
        rates = group_measures(p)
        auc = a.curves.summaries.roc_auc
        rows.append(
            [
                p.name,
                format_count(a.data.positives + a.data.negatives if weighted else a.data.n),
                format_count(a.data.positives),
                format_count(k.tp),
                format_count(k.fp),
                format_count(k.tn),
                format_count(k.fn),
                *(_cell(rates[r]) for r in COLUMNS),
                "undefined" if auc.value is None else f"{auc.value:.4f}",
            ]
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    return [
        "  " + "  ".join(c.ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows
    ]


def groups_lines(
    column: str,
    parts: Sequence[ModelPart],
    gaps: Mapping[str, Gap] | None,
    t: Threshold,
    model: str | None = None,
    *,
    table: bool = True,
) -> list[str]:
    """The whole section: the table, a sentence a group, then every gap (``model``:
    whose scores, with several models)."""
    whose = f"model {model}'s scores, " if model is not None else ""
    ts = {p.analysis.threshold for p in parts}
    at = (
        f"each at threshold {format_threshold(t)}"
        if ts <= {t}
        else "each at its own "
        "threshold ("
        + ", ".join(f"{p.name} {format_threshold(p.analysis.threshold)}" for p in parts)
        + ")"
    )
    lines = [
        f"Groups by {column} ({len(parts)} groups, {whose}{at}; each group's numbers are the "
        "binary report of its rows alone)",
        *(groups_table(parts) if table else []),
        "",
        f"Each group, with {percent(parts[0].sure.confidence)} intervals (Wilson for rates, "
        "DeLong for ROC AUC):",
        *("  " + group_sentence(p) for p in parts),
    ]
    if gaps is not None:
        lines += [
            "",
            "Gaps between the groups (the largest difference and the smallest ratio "
            "across groups, naming the two):",
        ]
        lines += ["  " + g.sentence() for g in gaps.values()]
    return lines


def groups_at_threshold(
    column: str,
    parts: Sequence[ModelPart],
    gaps: Mapping[str, Gap] | None,
    t: Threshold,
    added: int = 0,
    *,
    table: bool = True,
) -> list[str]:
    """The groups at the threshold as plain mode's ``groups`` and the explorer's ``E``
    show them: :func:`groups_lines`, then how many rows an edit added (they have no
    group and are left out)."""
    lines = groups_lines(column, parts, gaps, t, table=table)
    if added:
        lines.append(
            f"({added} row{'s' if added != 1 else ''} added by an edit "
            f"{'have' if added != 1 else 'has'} no group and "
            f"{'are' if added != 1 else 'is'} left out.)"
        )
    return lines
