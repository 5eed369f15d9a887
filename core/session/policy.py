"""The decision policy in force: the threshold, the F-beta's beta, a goal and a
deployment prevalence, with the goal solved once per set of rows."""

from __future__ import annotations

import math
from collections.abc import Mapping
from fractions import Fraction

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.data.extra import numeric_column
from threshold_lab.core.decide.band import BandGoal
from threshold_lab.core.decide.goal import Goal, parse_goal
from threshold_lab.core.decide.solve import (
    Deciding,
    Decision,
    Setting,
    parse_prevalence,
    solve,
    threshold_statistic,
)
from threshold_lab.core.decide.text import goal_setting, prevalence_words
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.intervals.bootstrap import SweepStatistic
from threshold_lab.core.metrics.metric import fraction_text
from threshold_lab.core.report.options import Options
from threshold_lab.core.session.history import History
from threshold_lab.core.threshold import Threshold, format_threshold

#: Threshold steps of the arrow keys (and ``step`` commands).
STEP = 0.01

OFF_WORDS = ("off", "none", "clear")


def misaligned(goal: Goal) -> str:
    """Why ``goal`` cannot be solved once rows were added or deleted: its cost column
    has one value per row as the file had them."""
    return (
        f'goal: the cost column "{goal.columns()[0]}" no longer lines up with the '
        "rows (rows were added or deleted); reset (r) puts them back"
    )


class Policy:
    """What decides: ``threshold`` (None: above all scores), ``beta``, ``goal`` and
    ``prevalence`` (None: none)."""

    def __init__(self, threshold: Threshold, options: Options) -> None:
        self.threshold = threshold
        self.beta = options.beta
        #: Set by solving it (:meth:`goal_for`), never as given: it may need columns.
        self.goal: Goal | None = None
        self.prevalence: Fraction | None = options.prevalence
        #: What else was asked for: the readouts, partial AUCs, tests, pt and harm.
        self.asked = options
        self._solved: tuple[object, Decision | str, Setting | None] | None = None
        #: A review band: the goal that set it (None once moved by hand) and its reject
        #: threshold (None: every row rejected); the active threshold accepts.
        self.band: tuple[str | None, Threshold] | None = None
        #: The band goal last set: its bounds are checked while the band is moved by hand.
        self.band_goal: BandGoal | None = None

    def deciding(
        self,
        a: Analysis,
        data: Dataset,
        columns: Mapping[str, npt.NDArray[np.float64]],
        aligned: bool,
    ) -> Deciding | None:
        """The goal and prevalence in force, the goal solved for ``a``'s rows (once per
        set of rows; ``problem`` says why it cannot be, e.g. a class an edit removed)."""
        if self.goal is None and self.prevalence is None:
            return None
        if self.goal is None:
            return Deciding(None, self.prevalence, None, None)
        key = (a.curves, self.goal, self.prevalence, aligned, len(columns))
        if self._solved is None or self._solved[0] != key:
            if self.goal.columns() and not aligned:
                self._solved = (key, misaligned(self.goal), None)
            else:
                setting = goal_setting(a, self.goal, self.prevalence, data, columns)
                try:
                    self._solved = (key, solve(setting, self.goal), setting)
                except InputError as exc:  # a class gone by an edit: on the goal line
                    self._solved = (key, str(exc), None)
        _, solved, solved_in = self._solved
        decision = solved if isinstance(solved, Decision) else None
        problem = solved if isinstance(solved, str) else None
        return Deciding(self.goal, self.prevalence, decision, problem, solved_in)

    def statistic(self, a: Analysis, history: History) -> SweepStatistic | None:
        """The goal's chosen threshold, read off a bootstrap replicate (None: no goal)."""
        if self.goal is None:
            return None
        columns = history.columns if history.aligned else {}
        setting = goal_setting(a, self.goal, self.prevalence, history.data, columns)
        return threshold_statistic(self.goal, setting)

    def checked(self, t: Threshold) -> Threshold:
        """``t`` as the threshold to move to: exactly as given (a tie group's threshold
        is a score, and rounding could lift it above that score)."""
        if t is not None and not math.isfinite(t):
            raise InputError(
                f"threshold {quoted(t)} is not a finite number (or None for above-all)"
            )
        return None if t is None else float(t)

    def stepped(self, steps: int) -> float:
        """The threshold ``steps`` × 0.01 away (not from above all: the caller's)."""
        assert self.threshold is not None
        # Rounding keeps repeated 0.01 steps on the decimal grid people type.
        try:
            moved = round(self.threshold + steps * STEP, 12)
        except OverflowError:
            moved = math.inf
        if not math.isfinite(moved):
            raise InputError(
                # Not the step itself: str() refuses an int of over 4300 digits.
                "that step would move the threshold past the largest finite number; "
                f"it stays at {format_threshold(self.threshold)}"
            )
        return moved

    def goal_for(self, given: str | Goal, history: History) -> Goal:
        """``given`` as a goal these rows can be solved for (raises InputError): a cost
        column the file has but was not asked for when it was opened is read now."""
        goal = parse_goal(given) if isinstance(given, str) else given
        missing = [c for c in goal.columns() if c not in history.columns]
        if missing and history.path is not None and history.aligned:
            history.columns = {
                **history.columns,
                **{c: numeric_column(history.path, c, history.data.n) for c in missing},
            }
            missing = []
        if missing:
            raise InputError(
                f'goal: no numeric column "{missing[0]}" was loaded with these rows '
                "(open the file with the goal: threshold-lab FILE --goal ...)"
            )
        if goal.columns() and not history.aligned:
            raise InputError(misaligned(goal))
        return goal

    def set_prevalence(self, given: str | Fraction, a: Analysis) -> str:
        """Set (or, with ``off``, drop) the deployment prevalence; what it does at ``a``."""
        if isinstance(given, str) and given.strip().lower() in OFF_WORDS:
            self.prevalence = None
            return "Prevalence what-if off."
        self.prevalence = parse_prevalence(given) if isinstance(given, str) else given
        return f"Prevalence {fraction_text(self.prevalence)}: " + prevalence_words(
            a, self.prevalence
        )


def goal_at_prevalence(p: Fraction, d: Decision) -> str:
    """What a goal solved again at prevalence ``p`` chose, in a sentence."""
    where = "above all scores" if d.threshold is None else f"threshold {quoted(d.threshold)}"
    value = d.objective.short() if d.objective.value is not None else "undefined"
    words = f"the goal chooses {where} there ({d.goal.metric} {value})"
    if not d.feasible:
        words = f"the goal is not feasible there: {d.reason}"
    return f"Prevalence {fraction_text(p)}: {words}."


def label_of(text: str) -> bool:
    """A typed label: 0 or 1 (raises InputError)."""
    if text.strip() not in ("0", "1"):
        raise InputError(f"label {quoted(text.strip())} is not 0 or 1")
    return text.strip() == "1"
