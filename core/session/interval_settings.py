"""How sure the session's numbers are shown: intervals on or off, their confidence,
and the bootstrap asked for, with the last one finished kept for the state it ran on.

A front end runs the bootstrap the state wants (:meth:`IntervalSettings.job`: plain mode at
once, the explorer in a worker) and hands the result back (:meth:`IntervalSettings.done`); a
result for rows or a goal that have changed since is dropped.
"""

from __future__ import annotations

from collections.abc import Hashable

from threshold_lab.core.analysis import Analysis
from threshold_lab.core.errors import InputError
from threshold_lab.core.intervals import BootJob, IntervalsShown
from threshold_lab.core.intervals.bootstrap import (
    Bootstrap,
    CurveStatistic,
    SweepStatistic,
)
from threshold_lab.core.intervals.closed import parse_confidence, percent
from threshold_lab.core.report.options import Options

#: What a bootstrap's threshold-free results depend on besides these settings: the
#: rows' curves, the goal and prevalence, whether cost columns line up, beta.
State = tuple[Hashable, ...]


class IntervalSettings:
    """Intervals shown or not, at what confidence, and the bootstrap asked for."""

    def __init__(self, options: Options) -> None:
        self.intervals = True
        self.confidence = options.confidence
        #: Bootstrap replicates (None: no bootstrap) and its seed.
        self.replicates: int | None = options.replicates
        self.seed = options.seed
        self._boot: tuple[State, Bootstrap] | None = None

    def _state(self, state: State) -> State:
        return (*state, self.confidence, self.replicates, self.seed)

    def sure(self, state: State) -> IntervalsShown | None:
        """The intervals to show for ``state``, or None when they are turned off."""
        if not self.intervals:
            return None
        boot = None
        if self.replicates is not None and self._boot is not None:
            key, result = self._boot
            if key[:-1] == self._state(state):
                boot = result
        return IntervalsShown(self.confidence, boot)

    def job(
        self,
        state: State,
        a: Analysis,
        goal: SweepStatistic | None,
        beta: float,
        curves: tuple[CurveStatistic, ...] = (),
    ) -> BootJob | None:
        """The bootstrap to run for ``state`` at ``a``'s point, or None when none is
        wanted or the last one finished is for this very state."""
        if not self.intervals or self.replicates is None:
            return None
        key = (*self._state(state), a.point)
        if self._boot is not None and self._boot[0] == key:
            return None
        base = None
        if self._boot is not None and self._boot[0][:-1] == key[:-1]:
            base = self._boot[1]  # the same rows at another point: count the new one only
        return BootJob(
            key,
            a.sweep,
            a.point,
            beta,
            self.replicates,
            self.seed,
            self.confidence,
            goal,
            base,
            curves,
        )

    def done(self, job: BootJob, result: Bootstrap, state: State) -> bool:
        """Keep a finished bootstrap if it still belongs to ``state`` (its
        threshold-free results then stand even after the threshold moved)."""
        if job.key[:-1] != self._state(state):
            return False
        self._boot = (job.key, result)
        return True

    def set_intervals(self, text: str) -> str:
        """``on``, ``off``, or a confidence (0.9) which also turns them on; the
        sentence saying what is shown."""
        word = text.strip().lower()
        if word in ("on", "off"):
            self.intervals = word == "on"
        elif word:
            try:
                self.confidence = parse_confidence(word)
            except ValueError as exc:
                raise InputError(
                    f"intervals: {exc}; give on, off or a confidence like 0.9"
                ) from None
            self.intervals = True
        else:
            self.intervals = not self.intervals
        if not self.intervals:
            return "Intervals off."
        boot = "" if self.replicates is None else f"; bootstrap for the rest, B = {self.replicates}"
        return (
            f"Intervals on: {percent(self.confidence)}, Wilson's for proportions, "
            f"DeLong's for ROC AUC{boot}."
        )

    def set_bootstrap(self, replicates: int | None, seed: int | None = None) -> str:
        """No bootstrap (None), or one of ``replicates`` (and ``seed``; None keeps the
        seed) for the numbers with no closed form; the sentence saying so."""
        if replicates is None:
            self.replicates = None
            return "Bootstrap off."
        chosen = self.seed if seed is None else seed
        self.replicates, self.seed, self.intervals = replicates, chosen, True
        return (
            f"Bootstrap on: {replicates} replicates, seed {chosen}, resampling positives "
            "and negatives separately."
        )
