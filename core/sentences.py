"""Plain sentences about the active policy, shared by every front end."""

from __future__ import annotations

from core.analysis import Analysis
from core.metric import format_count
from core.threshold import format_threshold


def status_sentence(a: Analysis) -> str:
    """One sentence naming the threshold, the predicted positives and the key counts.

    >>> from core.analysis import analyse
    >>> from core.presets import preset
    >>> print(status_sentence(analyse(preset("canonical").data, 0.5)))
    Threshold 0.5: 3 of 5 predicted positive; TP 2, FP 1, TN 1, FN 1; precision 2/3, recall 2/3.
    >>> status_sentence(analyse(preset("canonical").data, None)).split("; ")[-1]
    'precision undefined (no predicted positives), recall 0.'
    """
    k = a.counts
    where = "Threshold " + format_threshold(a.threshold)
    precision, recall = a.metrics["precision"], a.metrics["recall"]
    p_text = precision.short()
    if precision.value is None:
        p_text += " (no predicted positives)"
    r_text = recall.short()
    if recall.value is None:
        r_text += " (no actual positives)"
    return (
        f"{where}: {format_count(k.predicted_positive)} of {format_count(k.total)} predicted "
        f"positive; {k.text()}; precision {p_text}, recall {r_text}."
    )


def tie_group_text(a: Analysis) -> str:
    """Where the threshold sits in the sweep: ``tie group 2 of 4`` or ``above all scores``.

    >>> from core.analysis import analyse
    >>> from core.presets import preset
    >>> tie_group_text(analyse(preset("canonical").data, 0.8))
    'tie group 2 of 4 (score 0.8, 2 rows)'
    """
    m = a.sweep.size - 1
    if a.point == 0:
        return f"above all scores (before tie group 1 of {m})"
    tp, fp = a.sweep.tp, a.sweep.fp
    i = a.point
    rows_here = (tp[i] - tp[i - 1]) + (fp[i] - fp[i - 1])
    score = format_threshold(a.sweep.threshold_at(i))
    rows = "row" if rows_here == 1 else "rows"
    note = f"score {score}, {format_count(rows_here.item())} {rows}"
    return f"tie group {i} of {m} ({note})"
