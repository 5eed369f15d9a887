"""Several models of the same rows (or every row pooled and its groups or folds) in
words: a heading, then a sentence a model, each at the threshold."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from threshold_lab.core.data.aggregated import Quantised
from threshold_lab.core.drawing.model_rows import ModelRow
from threshold_lab.core.metrics.metric import Metric
from threshold_lab.core.threshold import Threshold, format_threshold


def _v(m: Metric) -> str:
    return m.short() if m.value is not None else "undefined"


def models_summary(
    models: Sequence[ModelRow],
    *,
    rows: int,
    threshold: Threshold,
    group_by: str | None = None,
    pooled: Literal["groups", "folds"] | None = None,
    own: Mapping[str, Threshold] | None = None,
    quantised: Mapping[str, Quantised] | None = None,
) -> list[str]:
    """The models in words (plain mode's ``models``): a heading saying what they are
    (models of the same ``rows``, an aggregated file's groups by ``group_by``, or
    every row ``pooled`` and its groups or folds), then each one's AUC, AP and
    precision, recall and F1 at ``threshold`` (each group at its ``own``, when given).
    """
    if not models:
        return [
            "One model: these rows have one score column (open a file with score_A, "
            "score_B, ... or --score-column twice to compare models)."
        ]
    n = len(models)
    lines = [f"{n} models of the same {rows} rows:"]
    if pooled is not None:
        lines = [
            f"Every row pooled, then {n - 1} {pooled} by {group_by}, each its own rows "
            "(model NAME shows one):"
        ]
    elif group_by is not None:
        lines = [f"{n} groups by {group_by}, each its own rows (model NAME shows one):"]
    for row in models:
        at = "threshold " + format_threshold(threshold)
        if own is not None:
            at = (
                "each group's own threshold"
                if row.name not in own
                else "threshold " + format_threshold(own[row.name])
            )
        shown = " (shown)" if row.shown else ""
        q = (quantised or {}).get(row.name)
        if q is not None:
            shown += f" ({q.words()})"
        k = row.metrics
        lines.append(
            f"{row.name}{shown}: ROC AUC {_v(row.auc)}, average precision {_v(row.ap)}; "
            f"at {at}, precision {_v(k['precision'])}, recall {_v(k['recall'])}, "
            f"F1 {_v(k['f1'])}."
        )
    return lines
