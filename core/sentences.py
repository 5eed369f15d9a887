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
    i = a.point
    rows_here = sum(a.sweep.entering(i))
    score = format_threshold(a.sweep.threshold_at(i))
    rows = "row" if rows_here == 1 else "rows"
    return f"tie group {i} of {m} (score {score}, {format_count(rows_here)} {rows})"


def step_sentence(a: Analysis) -> str:
    """What the sweep playback says at the active point.

    >>> from core.analysis import analyse
    >>> from core.presets import preset
    >>> step_sentence(analyse(preset("canonical").data, 0.8))
    'Step 2 of 4: threshold 0.8. 2 rows enter together: 1 positive, 1 negative.'
    >>> step_sentence(analyse(preset("canonical").data, None))
    'Step 0 of 4: threshold above all scores. Nothing is predicted positive.'
    """
    head = f"Step {a.point} of {a.sweep.size - 1}: threshold {format_threshold(a.threshold)}."
    if a.point == 0:
        return f"{head} Nothing is predicted positive."
    pos, neg = a.sweep.entering(a.point)
    c = format_count
    if pos + neg == 1:
        return f"{head} 1 row enters: {'a positive' if pos else 'a negative'}."
    return f"{head} {c(pos + neg)} rows enter together: {c(pos)} positive, {c(neg)} negative."
