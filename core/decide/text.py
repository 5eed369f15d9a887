"""A goal and a prevalence in words: the report's sections, and the setting a goal
is solved in (with the cost columns summed per operating point)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Analysis, analyse
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.decide.goal import Goal
from threshold_lab.core.decide.solve import (
    WORDS,
    Decision,
    Setting,
    metrics_at_prevalence,
    solve,
)
from threshold_lab.core.errors import quoted

FloatArray = npt.NDArray[np.float64]


def column_cells(
    data: Dataset, thresholds: FloatArray, values: FloatArray
) -> dict[str, FloatArray]:
    """Per operating point, the sum of ``values`` (times the weights) over each cell:
    ``{"tp": ..., "fp": ..., "tn": ..., "fn": ...}``, point 0 being above all."""
    w = values if data.weights is None else values * data.weights
    # The point at which each row enters: 1 + the index of its score among the
    # distinct scores, descending.
    ascending = thresholds[::-1]
    entry = thresholds.shape[0] - np.searchsorted(ascending, data.scores, side="left")
    m = thresholds.shape[0] + 1
    pos = np.bincount(entry, weights=np.where(data.labels, w, 0.0), minlength=m)
    neg = np.bincount(entry, weights=np.where(data.labels, 0.0, w), minlength=m)
    with np.errstate(over="ignore", invalid="ignore"):  # past 1e308: the solver refuses
        tp, fp = np.cumsum(pos), np.cumsum(neg)
        return {"tp": tp, "fp": fp, "fn": tp[-1] - tp, "tn": fp[-1] - fp}


def goal_setting(
    a: Analysis,
    goal: Goal,
    prevalence: Fraction | None,
    data: Dataset,
    columns: Mapping[str, FloatArray] | None = None,
) -> Setting:
    """The setting ``goal`` is solved in: ``a``'s sweep, at ``prevalence`` if given,
    with the goal's cost columns (from ``columns``) summed per point."""
    sums = {
        name: column_cells(data, a.sweep.thresholds, (columns or {})[name])
        for name in goal.columns()
        if name in (columns or {})
    }
    whole = all(
        bool(np.all(np.floor(v) == v)) and float(np.max(np.abs(v), initial=0.0)) < 2**53
        for cells in sums.values()
        for v in cells.values()
    )
    return Setting(a.sweep, a.beta, prevalence, sums, whole)


def solved_at(
    a: Analysis,
    goal: Goal,
    prevalence: Fraction | None,
    data: Dataset,
    columns: Mapping[str, FloatArray] | None = None,
) -> tuple[Analysis, Decision, Setting]:
    """``goal`` solved on ``a``'s rows: the analysis at its point, the decision and the
    setting it was solved in (raises InputError when it cannot be solved)."""
    setting = goal_setting(a, goal, prevalence, data, columns)
    decision = solve(setting, goal)
    return analyse(a.curves, decision.threshold, beta=a.beta), decision, setting


#: The metrics a prevalence change is told by, in one line.
PREVALENCE_WORDS = ("precision", "npv", "accuracy", "f1")


def prevalence_words(a: Analysis, prevalence: Fraction) -> str:
    """``at threshold 0.42, precision from 9/12 to 3/22, NPV from 7/8 to 133/134, ...;
    TPR and FPR are kept, LR+ and LR− do not change.`` (words a speech synthesiser
    reads, where it passes over an arrow)"""
    at = metrics_at_prevalence(a.sweep, a.point, prevalence, a.beta)
    where = "above all scores" if a.threshold is None else f"threshold {quoted(a.threshold)}"
    parts = [f"{WORDS[n]} from {a.metrics[n].short()} to {at[n].short()}" for n in PREVALENCE_WORDS]
    return f"at {where}, " + ", ".join(parts) + " (TPR, FPR and LR± kept)."
