"""What a report (or a session) is asked for besides the rows: the threshold, the
goal, the intervals, the bins, and the rest, as read by the option table
(:mod:`threshold_lab.core.report.table`) from whichever front end asked.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING

from threshold_lab.core.calibration.reliability import BINS
from threshold_lab.core.choices import TOLERANCE
from threshold_lab.core.curves.operating import (
    DEFAULT_READOUTS,
    Focus,
    Kind,
    PartialAUC,
    Readout,
    partial_aucs,
    readouts,
)
from threshold_lab.core.decide.net_benefit import DEFAULT_GRID
from threshold_lab.core.intervals.bootstrap import SEED
from threshold_lab.core.intervals.closed import CONFIDENCE

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt
    from threshold_lab.core.curves.coordinates import Given
    from threshold_lab.core.curves.sweep import Sweep
    from threshold_lab.core.decide.band import BandGoal
    from threshold_lab.core.decide.goal import Goal
    from threshold_lab.core.report.gate import Baseline, Requirement
    from threshold_lab.core.threshold import Threshold
    from threshold_lab.core.transform import Transform


@dataclass(frozen=True)
class Options:
    """Everything a report depends on besides the rows.

    ``follow_goal`` False keeps the operating point at ``threshold`` even with a goal
    (:meth:`threshold_lab.core.report.report.Report.at`); the goal is still solved
    and reported.
    """

    threshold: Threshold = 0.5
    beta: float = 2.0
    goal: Goal | None = None
    #: The review band's goal (--band-goal): two thresholds, solved exactly.
    band_goal: BandGoal | None = None
    #: With folds: the one threshold over every fold (--cv-goal), and the thresholds
    #: within ``stable_within`` of each fold's optimum on ``stable_in`` folds.
    cv_goal: Goal | None = None
    stable_within: Fraction | None = None
    stable_in: int | None = None
    prevalence: Fraction | None = None
    confidence: float = CONFIDENCE
    #: Bootstrap replicates (None: no bootstrap) and the seed of its resampling.
    replicates: int | None = None
    seed: int = SEED
    bins: int = BINS
    binning: str = "mass"
    transform: Transform | None = None
    follow_goal: bool = True
    #: The readouts (TPR at each FPR, FPR at each TPR) and the partial AUCs asked for.
    readouts: tuple[tuple[Kind, float], ...] = DEFAULT_READOUTS
    partial_aucs: tuple[tuple[Focus, float, float], ...] = ()
    #: The curves whose shape is described (--describe roc|pr, none for none): checked
    #: sentences.
    describe: tuple[str, ...] = ("roc", "pr")
    #: Model comparison: the tests' alternative, and whether the models' rows are
    #: compared as different examples (unpaired) even when they are the same.
    alternative: str = "two-sided"
    unpaired: bool = False
    #: The tests of two models beyond DeLong's (--test bootstrap, venkatraman) and the
    #: permutations of Venkatraman's.
    tests: tuple[str, ...] = ()
    permutations: int = 2000
    #: The specificity (--test sensitivity) or sensitivity (--test specificity) at
    #: which two models' rates are compared.
    at_specificity: float | None = None
    at_sensitivity: float | None = None
    #: The AUC's interval beside DeLong's (--auc-interval bootstrap), and the
    #: coordinates given a bootstrap interval: sensitivity at each specificity
    #: (--ci-se), specificity at each sensitivity (--ci-sp), both at each threshold.
    auc_interval: str = "delong"
    ci_se: tuple[float, ...] = ()
    ci_sp: tuple[float, ...] = ()
    ci_thresholds: tuple[float, ...] = ()
    #: Smoothed ROC curves shown beside the empirical one (--smooth), and the density
    #: smoothing's bandwidth (a number, or a rule's name).
    smooth: tuple[str, ...] = ()
    bandwidth: float | str = "nrd0"
    #: The decision curve's grid of threshold probabilities (--pt), and the harm of
    #: acting (--harm) subtracted from the model's net benefit.
    pt: tuple[Fraction, ...] = DEFAULT_GRID
    harm: Fraction = Fraction(0)
    #: Per-group thresholds: the fairness criterion (None: none asked for) and the
    #: largest gap it allows.
    group_goal: str | None = None
    tolerance: Fraction = TOLERANCE
    #: Also each group's mixture of two points at one common rate (--randomised).
    randomised: bool = False
    #: Each group at its own threshold (the explorer's, by group name), or None: every
    #: group at ``threshold``.
    group_at: tuple[tuple[str, Threshold], ...] | None = None
    #: The gate: an earlier report's headline numbers (--baseline), the baseline
    #: model's scores of the same rows for DeLong's paired test (--baseline-rows), and
    #: the requirements (--require).
    baseline: Baseline | None = None
    baseline_rows: BaselineRows | None = None
    requirements: tuple[Requirement, ...] = ()

    def coordinates(self) -> tuple[tuple[Given, float], ...]:
        """Every coordinate given a bootstrap interval, in the order asked."""
        return (
            *(("specificity", x) for x in self.ci_se),
            *(("sensitivity", x) for x in self.ci_sp),
            *(("threshold", x) for x in self.ci_thresholds),
        )

    def read(self, sweep: Sweep) -> tuple[Readout, ...]:
        """The readouts asked for, read off ``sweep``."""
        return readouts(sweep, self.readouts)

    def partial(self, sweep: Sweep) -> tuple[PartialAUC, ...]:
        """The partial AUCs asked for, of ``sweep``."""
        return partial_aucs(sweep, self.partial_aucs)


@dataclass(frozen=True, eq=False)
class BaselineRows:
    """The baseline model's scores of the report's rows, in the report's row order."""

    name: str
    scores: npt.NDArray[np.float64]
