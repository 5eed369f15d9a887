"""Plain sentences about the active policy, shared by every front end."""

from __future__ import annotations

from threshold_lab.core.analysis import Analysis
from threshold_lab.core.metrics.metric import format_count
from threshold_lab.core.text.notable import excerpt, notable_points, reasons_text
from threshold_lab.core.text.scores import threshold_words


def status_sentence(a: Analysis, threshold: str | None = None, *, metrics: bool = True) -> str:
    """One sentence naming the threshold, the predicted positives and the key counts.
    Precision and recall are their counts (964/1655), so each names its denominator.
    ``threshold`` says the threshold as it was typed
    (:func:`~threshold_lab.core.text.scores.typed_words`), rather than as its double.

    >>> from threshold_lab.core.analysis import analyse
    >>> from threshold_lab.core.data.presets import preset
    >>> print(status_sentence(analyse(preset("canonical").data, 0.5)))
    Threshold 0.5: 3 of 5 predicted positive; TP 2, FP 1, TN 1, FN 1; precision 2/3, recall 2/3.
    >>> status_sentence(analyse(preset("canonical").data, None)).split("; ")[-1]
    'precision undefined (no predicted positives), recall 0/3.'

    ``metrics=False`` stops at the counts (a lesson that hides the metrics asks for them).
    """
    k = a.counts
    where = "Threshold " + (threshold or threshold_words(a.threshold, a.sweep.thresholds))
    pooled = getattr(a, "pooled_words", None)  # groups each at its own threshold
    if callable(pooled):
        where = pooled()
    counted = (
        f"{where}: {format_count(k.predicted_positive)} of {format_count(k.total)} predicted "
        f"positive; {k.text()}"
    )
    if not metrics:
        return counted + "."
    precision, recall = a.metrics["precision"], a.metrics["recall"]
    p_text = precision.short()
    if precision.value is None:
        p_text += " (no predicted positives)"
    r_text = recall.short()
    if recall.value is None:
        r_text += " (no actual positives)"
    return f"{counted}; precision {p_text}, recall {r_text}."


def tie_group_text(a: Analysis) -> str:
    """Where the threshold sits in the sweep: ``tie group 2 of 4`` or ``above all scores``.

    >>> from threshold_lab.core.analysis import analyse
    >>> from threshold_lab.core.data.presets import preset
    >>> tie_group_text(analyse(preset("canonical").data, 0.8))
    'tie group 2 of 4 (score 0.8, 2 rows)'
    """
    m = a.sweep.size - 1
    if a.point == 0:
        return f"above all scores (before tie group 1 of {m})"
    i = a.point
    rows_here = sum(a.sweep.entering(i))
    score = threshold_words(a.sweep.threshold_at(i), a.sweep.thresholds)
    rows = "row" if rows_here == 1 else "rows"
    return f"tie group {i} of {m} (score {score}, {format_count(rows_here)} {rows})"


def tie_group_rows(a: Analysis) -> str:
    """Where the threshold sits, with the rows of its tie group but not their score:
    ``tie group 2 of 4 (2 rows)`` (a place that is short of room keeps the tie's count,
    which teaches that tied rows enter together).

    >>> from threshold_lab.core.analysis import analyse
    >>> from threshold_lab.core.data.presets import preset
    >>> tie_group_rows(analyse(preset("canonical").data, 0.8))
    'tie group 2 of 4 (2 rows)'
    >>> tie_group_rows(analyse(preset("canonical").data, None))
    'before tie group 1 of 4'
    """
    m = a.sweep.size - 1
    if a.point == 0:
        return f"before tie group 1 of {m}"
    rows_here = sum(a.sweep.entering(a.point))
    rows = "row" if rows_here == 1 else "rows"
    return f"tie group {a.point} of {m} ({format_count(rows_here)} {rows})"


def step_sentence(a: Analysis) -> str:
    """What the sweep playback says at the active point.

    >>> from threshold_lab.core.analysis import analyse
    >>> from threshold_lab.core.data.presets import preset
    >>> step_sentence(analyse(preset("canonical").data, 0.8))
    'Step 2 of 4: threshold 0.8. 2 rows enter together: 1 positive, 1 negative.'
    >>> step_sentence(analyse(preset("canonical").data, None))
    'Step 0 of 4: threshold above all scores. Nothing is predicted positive.'
    """
    head = (
        f"Step {a.point} of {a.sweep.size - 1}: threshold "
        f"{threshold_words(a.threshold, a.sweep.thresholds)}."
    )
    if a.point == 0:
        return f"{head} Nothing is predicted positive."
    pos, neg = a.sweep.entering(a.point)
    c = format_count
    if pos + neg == 1:
        return f"{head} 1 row enters: {'a positive' if pos else 'a negative'}."
    return f"{head} {c(pos + neg)} rows enter together: {c(pos)} positive, {c(neg)} negative."


#: What each metric's denominator counts, for ``explain``.
DENOMINATORS = {
    "precision": ("TP+FP", "the predicted positives"),
    "recall": ("TP+FN", "the actual positives"),
    "f1": ("2TP+FP+FN", "twice the true positives plus every error"),
    "fbeta": ("(1+β²)TP+β²FN+FP", "the β-weighted true positives plus errors"),
    "accuracy": ("n", "every row"),
    "specificity": ("TN+FP", "the actual negatives"),
    "fpr": ("FP+TN", "the actual negatives"),
    "fnr": ("FN+TP", "the actual positives"),
    "npv": ("TN+FN", "the predicted negatives"),
    "balanced_accuracy": ("2", "the two classes, each recall weighing one half"),
    "mcc": ("√((TP+FP)(TP+FN)(TN+FP)(TN+FN))", "the four margins of the matrix"),
    "prevalence": ("n", "every row"),
    "queue_rate": ("n", "every row"),
    "lr_plus": ("FPR", "the false positive rate"),
    "lr_minus": ("TNR", "the true negative rate (specificity)"),
    "lift": ("prevalence", "the share of the rows actually positive"),
    "cohen_kappa": (
        "(TP+FP)(FP+TN)+(TP+FN)(FN+TN)",
        "the disagreement chance alone would give (n² times 1 − the chance agreement, halved)",
    ),
    "informedness": ("P·N", "both classes: it is TPR + TNR − 1, Youden's J"),
    "markedness": ("(TP+FP)(TN+FN)", "the predicted positives times the predicted negatives"),
    "diagnostic_odds_ratio": ("FP·FN", "the two kinds of error multiplied"),
    "fowlkes_mallows": (
        "√((TP+FP)(TP+FN))",
        "the predicted and the actual positives (a geometric mean of precision and recall)",
    ),
    "jaccard": ("TP+FP+FN", "every row predicted or actually positive"),
}


#: The metrics whose denominator is a rate, not a count: the rate's metric, and the
#: counts it divides (the count, its symbol; the whole, its symbol and what it counts).
RATE_DENOMINATORS = {
    "lr_plus": ("fpr", "FP", "FP+TN", "actual negatives predicted positive"),
    "lr_minus": ("specificity", "TN", "TN+FP", "actual negatives predicted negative"),
    "lift": ("prevalence", "TP+FN", "n", "rows"),
}


#: Summaries of every threshold at once, explained too (keyed as in Summaries).
SUMMARY_WORDS = {
    "roc_auc": "the chance a random positive outranks a random negative (ties count one "
    "half); it does not depend on the threshold",
    "average_precision": "precision at each rise in recall, weighted by that rise (not "
    "interpolated); it does not depend on the threshold",
    "pr_trapezoid_area": "the area under straight lines joining the precision-recall "
    "points from recall 0, precision 1; it interpolates, so it differs from average precision",
    "log_loss": "the mean surprise of the actual labels under the scores read as "
    "probabilities; a certain wrong prediction makes it infinite",
    "brier": "the mean squared gap between each score and its actual label (0 or 1)",
}

_ALIASES = {
    "lr+": "lr_plus",
    "lr−": "lr_minus",
    "lr-": "lr_minus",
    "lr_-": "lr_minus",
    "lr_+": "lr_plus",
    "tpr": "recall",
    "sensitivity": "recall",
    "tnr": "specificity",
    "ppv": "precision",
    "f2": "fbeta",
    "f_beta": "fbeta",
    "auc": "roc_auc",
    "roc": "roc_auc",
    "ap": "average_precision",
    "pr_area": "pr_trapezoid_area",
    "pr_trapezoid": "pr_trapezoid_area",
    "trapezoid": "pr_trapezoid_area",
    "brier_score": "brier",
    "logloss": "log_loss",
    "balanced": "balanced_accuracy",
    "kappa": "cohen_kappa",
    "cohen's_kappa": "cohen_kappa",
    "cohens_kappa": "cohen_kappa",
    "dor": "diagnostic_odds_ratio",
    "odds_ratio": "diagnostic_odds_ratio",
    "fmi": "fowlkes_mallows",
    "fowlkes_mallows_index": "fowlkes_mallows",
    "jaccard_index": "jaccard",
    "iou": "jaccard",
    "bm": "informedness",
    "mk": "markedness",
}


def metric_key(text: str) -> str | None:
    """The metric a person means: any name the tools print, any case, with spaces,
    hyphens or underscores, or a common alias; None when there is none.

    >>> [metric_key(t) for t in ("balanced accuracy", "LR+", "LR−", "ROC AUC", "AP", "nope")]
    ['balanced_accuracy', 'lr_plus', 'lr_minus', 'roc_auc', 'average_precision', None]
    """
    key = "_".join(text.strip().lower().replace("-", " ").split()) or "-"
    if text.strip().lower() in _ALIASES:
        return _ALIASES[text.strip().lower()]
    key = _ALIASES.get(key, key)
    return key if key in DENOMINATORS or key in SUMMARY_WORDS else None


def explain(a: Analysis, name: str) -> str:
    """A metric's formula with the counts filled in and its denominator named.

    >>> from threshold_lab.core.analysis import analyse
    >>> from threshold_lab.core.data.presets import preset
    >>> print(explain(analyse(preset("canonical").data, 0.5), "precision"))
    precision = TP/(TP+FP) = 2/(2+1) = 2/3 ≈ 0.6667. The denominator TP+FP = 3 counts the predicted positives.
    """  # noqa: E501
    if name in SUMMARY_WORDS:
        summary = getattr(a.curves.summaries, name)
        return f"{summary.describe()}. It is {SUMMARY_WORDS[name]}."
    m = a.metrics[name]
    symbol, meaning = DENOMINATORS[name]
    k = a.counts
    values = {
        "TP+FP": k.predicted_positive,
        "TP+FN": k.actual_positive,
        "TN+FP": k.actual_negative,
        "FP+TN": k.actual_negative,
        "FN+TP": k.actual_positive,
        "TN+FN": k.predicted_negative,
        "n": k.total,
        "TP+FP+FN": k.tp + k.fp + k.fn,
    }
    if name in RATE_DENOMINATORS:
        rate, part, whole, what = RATE_DENOMINATORS[name]
        counts = {"FP": k.fp, "TN": k.tn, "TP+FN": k.actual_positive}
        of = f"{format_count(counts[part])} of the {whole} = {format_count(values[whole])}"
        return (
            f"{m.describe()}. The denominator {symbol} = {a.metrics[rate].short()} is a rate, "
            f"{meaning}: {part} = {of} {what}."
        )
    size = f" = {format_count(values[symbol])}" if symbol in values else ""
    return f"{m.describe()}. The denominator {symbol}{size} counts {meaning}."


def _step_words(pos: int | float, neg: int | float) -> str:
    c = format_count
    if pos and neg:
        return f"{c(pos)} positive and {c(neg)} negative enter together"
    if pos:
        return f"{c(pos)} positive{'s' if pos != 1 else ''} enter{'s' if pos == 1 else ''}"
    if neg:
        return f"{c(neg)} negative{'s' if neg != 1 else ''} enter{'s' if neg == 1 else ''}"
    return "no weight enters"


def curve_words(
    a: Analysis, kind: str, *, limit: int = 40, notable: dict[int, list[str]] | None = None
) -> list[str]:
    """The ROC (``kind="roc"``) or PR curve in words: each tie-group step, then the
    summaries. A curve of more than ``limit`` steps says its notable points (``notable``:
    :func:`~threshold_lab.core.text.notable.notable_points`, by default the active one,
    max F1 and max informedness), its last and evenly spaced ones between, each notable
    one with why, and counts the steps not said.

    >>> from threshold_lab.core.analysis import analyse
    >>> from threshold_lab.core.data.presets import preset
    >>> lines = curve_words(analyse(preset("canonical").data, 0.5), "roc")
    >>> lines[2]
    'Threshold 0.8: 1 positive and 1 negative enter together, ... TPR 2/3 (active).'
    >>> lines[-1]
    'ROC AUC, the trapezoid area under these points: 7/12 ≈ 0.5833.'
    """
    s, sm = a.sweep, a.curves.summaries
    if kind == "roc":
        if not sm.roc_auc.defined:
            return [f"No ROC curve: {sm.roc_auc.reason}."]
        lines = [f"ROC curve, {s.size} points; above all scores it starts at FPR 0, TPR 0."]
    else:
        if not sm.average_precision.defined:
            return [f"No precision-recall curve: {sm.average_precision.reason}."]
        lines = [
            f"Precision-recall curve, {s.size - 1} points; above all scores precision is "
            "undefined (nothing predicted positive)."
        ]
    marks = notable_points(a) if notable is None else notable
    indices = [k for k in excerpt(s.size, marks, limit + 1) if k > 0]
    previous = 0
    said: set[str] = set()  # a readout kind's words, said once: where its first one is
    for k in indices:
        if k != previous + 1:
            hidden = k - previous - 1
            lines.append(f"... {hidden} more {'step' if hidden == 1 else 'steps'} ...")
        previous = k
        why = f" ({reasons_text(marks[k], said)})" if marks.get(k) else ""
        pos, neg = s.entering(k)
        m = s.point_metrics(k)
        where = (
            f"Threshold {threshold_words(s.threshold_at(k), s.thresholds)}: {_step_words(pos, neg)}"
        )
        if kind == "roc":
            shape = "a diagonal step" if pos and neg else "up" if pos else "right"
            lines.append(
                f"{where}, {shape} to FPR {m['fpr'].short()}, TPR {m['tpr'].short()}{why}."
            )
        else:
            lines.append(
                f"{where}: recall {m['recall'].short()}, precision {m['precision'].short()}{why}."
            )
    if kind == "roc":
        lines.append(f"ROC AUC, the trapezoid area under these points: {sm.roc_auc.value_text()}.")
    else:
        lines.append(
            "Average precision, each recall gain times the precision where it is reached "
            f"(not interpolated): {sm.average_precision.value_text()}."
        )
        lines.append(
            "Trapezoid area under the precision-recall points, from recall 0 and "
            f"precision 1 (it interpolates, so it can differ from AP): "
            f"{sm.pr_trapezoid_area.value_text()}."
        )
    return lines


def change_words(before: Analysis, after: Analysis, *, metrics: bool = True) -> str:
    """What one change moved, briefly: the headline rates that changed, then the
    counts that changed ("" when nothing did), so a listener need not compare two
    long sentences.

    >>> from threshold_lab.core.analysis import analyse
    >>> from threshold_lab.core.data.presets import preset
    >>> d = preset("canonical").data
    >>> change_words(analyse(d, 0.5), analyse(d, 0.85))
    'precision from 2/3 to 1/1, recall from 2/3 to 1/3; TP -1, FP -1, TN +1, FN +1'
    >>> change_words(analyse(d, 0.5), analyse(d, 0.5))
    ''

    ``metrics=False`` says the counts alone (a lesson that hides the metrics asks for it).
    """
    rates = []
    for name in ("precision", "recall") if metrics else ():
        was, now = before.metrics[name], after.metrics[name]
        old, new = was.short(), now.short()
        # 1/1 to 2/2 is new counts, not a move: the rate has to change too.
        if old != new and was.value != now.value:
            rates.append(f"{name} from {old} to {new}")
    counts = []
    for cell, old_n, new_n in zip(
        ("TP", "FP", "TN", "FN"), before.counts.cells(), after.counts.cells(), strict=True
    ):
        delta = new_n - old_n
        if delta:
            counts.append(f"{cell} {'+' if delta > 0 else '-'}{format_count(abs(delta))}")
    return "; ".join(part for part in (", ".join(rates), ", ".join(counts)) if part)
