"""How sure each number is: closed-form intervals (Wilson, DeLong) and a stratified
bootstrap over tie groups for the rest (average precision, the PR area, F1, MCC, ...).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.intervals.bootstrap import AT_THRESHOLD as BOOT_AT_THRESHOLD
from threshold_lab.core.intervals.bootstrap import (
    Bootstrap,
    CurveStatistic,
    Estimate,
    SweepStatistic,
)
from threshold_lab.core.intervals.bootstrap import bootstrap as run_bootstrap
from threshold_lab.core.intervals.closed import CONFIDENCE

#: Why a statistic has no interval until a bootstrap runs.
NEEDS_BOOTSTRAP = "no closed form; a bootstrap gives one"


@dataclass(frozen=True)
class IntervalsShown:
    """What intervals a report or screen shows: at ``confidence``, with a finished
    bootstrap's estimates when there is one."""

    confidence: float = CONFIDENCE
    boot: Bootstrap | None = None

    def estimate(self, name: str, point: int | None = None) -> Estimate:
        """``name``'s bootstrap estimate (for the threshold metrics, at ``point``), or
        an :class:`Estimate` with no interval saying why."""
        if self.boot is None:
            return Estimate(None, NEEDS_BOOTSTRAP)
        e = self.boot.estimate(name)
        if e is None:
            return Estimate(None, NEEDS_BOOTSTRAP)
        if point is not None and point != self.boot.point and name in BOOT_AT_THRESHOLD:
            return Estimate(None, "the bootstrap ran at another threshold")
        return e


@dataclass(frozen=True, eq=False)
class BootJob:
    """A bootstrap a session wants run (off the UI thread, in the explorer); ``key``
    says which state it belongs to, so a late result for other rows is dropped."""

    key: tuple[object, ...]
    sweep: Sweep
    point: int
    beta: float
    replicates: int
    seed: int
    confidence: float
    goal: SweepStatistic | None = None
    #: A finished run of the same state at another point: only the point is counted.
    base: Bootstrap | None = None
    #: Threshold-free numbers each replicate reads off its own sweep (the decision
    #: curve's net benefit at each pt of its grid).
    curves: tuple[CurveStatistic, ...] = ()

    def run(self, progress: Callable[[int, int], bool | None] | None = None) -> Bootstrap:
        """Run it (raises :class:`threshold_lab.core.intervals.bootstrap.Cancelled` when
        ``progress`` returns False)."""
        return run_bootstrap(
            self.sweep,
            self.point,
            beta=self.beta,
            replicates=self.replicates,
            seed=self.seed,
            confidence=self.confidence,
            bands=True,
            goal=self.goal,
            progress=progress,
            base=self.base,
            curves=self.curves,
        )
