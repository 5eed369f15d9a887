"""The goal line's words: what a goal chose and why, and the headline metrics at a
deployment prevalence (the explorer shows them under the threshold bar)."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt
from threshold_lab.core.decide.solve import WORDS, Deciding, metric_word, slack_text
from threshold_lab.core.decide.text import PREVALENCE_WORDS
from threshold_lab.core.metrics.metric import Metric, fraction_text
from threshold_lab.core.text.scores import threshold_words


def goal_words(
    deciding: Deciding, point: int, thresholds: npt.NDArray[np.float64] | None = None
) -> tuple[str, list[str]]:
    """``("Goal max f1 at prevalence 1/20", ["-> threshold 0.42 (here)", "F1 3/4",
    ...])``: the goal, then what it chose (``point``: the operating point shown), its
    bounds' slack and the thresholds that decide the same; empty without a goal."""
    if deciding.goal is None:
        return "", []
    at_p = (
        ""
        if deciding.prevalence is None
        else f" at prevalence {fraction_text(deciding.prevalence)}"
    )
    head = f"Goal {deciding.goal.text()}{at_p}"
    d = deciding.decision
    if d is None:
        return head, [f"cannot be solved: {deciding.problem}"]
    items = []
    where = (
        "above all scores"
        if d.threshold is None
        else (f"threshold {threshold_words(d.threshold, thresholds)}")
    )
    if not d.feasible:
        items.append(f"not feasible: {d.reason}; closest {where}")
    else:
        here = "here" if point == d.index else "d re-applies it"
        value = d.objective.short() if d.objective.value is not None else "undefined"
        items.append(f"-> {where} ({here})")
        items.append(f"{metric_word(d.goal.metric, d.goal)} {value}")
    items += [slack_text(s) for s in d.slacks]
    if d.attaining > 1:
        items.append(f"{d.attaining} points attain it")
    items.append(f"same decisions for {d.same_decisions_text().removeprefix('every threshold ')}")
    return head, items


def prevalence_headline(at: dict[str, Metric], p: Fraction, where: str = "") -> tuple[str, str]:
    """``("At prevalence 1/20, threshold 0.42 (TPR, FPR, LR± kept): ", "precision 3/22,
    NPV ...")``: ``where`` names the threshold the metrics are at (the one shown, which
    after a move or a transform is not the goal's)."""
    shown = ", ".join(f"{WORDS[n]} {at[n].short()}" for n in PREVALENCE_WORDS)
    at_where = f", {where}" if where else ""
    return f"At prevalence {fraction_text(p)}{at_where} (TPR, FPR, LR± kept): ", shown
