"""What a report is asked for: the threshold, the goal, the intervals, the bins.

The command line and the Python API both turn what a user gave into one
:class:`Options`, through the same parsers, so a bad value gets the same message
from either.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import TypeVar

import numpy as np
import numpy.typing as npt
from threshold_lab.core.calibration.reliability import BINS, parse_binning, parse_bins
from threshold_lab.core.curves.operating import (
    DEFAULT_READOUTS,
    Focus,
    Kind,
    parse_partial_auc,
    parse_readouts,
)
from threshold_lab.core.decide.goal import Goal, parse_goal
from threshold_lab.core.decide.net_benefit import DEFAULT_GRID, parse_harm, parse_pt
from threshold_lab.core.decide.solve import parse_prevalence
from threshold_lab.core.errors import InputError
from threshold_lab.core.groups.thresholds import TOLERANCE, parse_criterion, parse_tolerance
from threshold_lab.core.intervals.bootstrap import REPLICATES, SEED, parse_replicates, parse_seed
from threshold_lab.core.intervals.closed import CONFIDENCE, parse_confidence
from threshold_lab.core.intervals.pvalues import parse_alternative
from threshold_lab.core.metrics.metric import fraction_text
from threshold_lab.core.metrics.threshold_metrics import check_beta
from threshold_lab.core.report.gate import Baseline, Requirement, baseline_of, parse_requirements
from threshold_lab.core.threshold import Threshold, check_threshold, parse_threshold
from threshold_lab.core.transform import Transform, parse_transform

T = TypeVar("T")


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
    #: Model comparison: the tests' alternative, and whether the models' rows are
    #: compared as different examples (unpaired) even when they are the same.
    alternative: str = "two-sided"
    unpaired: bool = False
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


@dataclass(frozen=True, eq=False)
class BaselineRows:
    """The baseline model's scores of the report's rows, in the report's row order."""

    name: str
    scores: npt.NDArray[np.float64]


def _text(value: object) -> str:
    return value if isinstance(value, str) else str(value)


def make_options(
    *,
    threshold: object = 0.5,
    beta: object = 2.0,
    goal: object = None,
    prevalence: object = None,
    confidence: object = CONFIDENCE,
    bootstrap: object = None,
    seed: object = None,
    bins: object = BINS,
    binning: object = "mass",
    transform: object = None,
    readout: object = None,
    partial_auc: object = None,
    alternative: object = "two-sided",
    unpaired: object = False,
    pt: object = None,
    harm: object = None,
    group_goal: object = None,
    tolerance: object = None,
    randomised: object = False,
    baseline: object = None,
    require: object = None,
) -> Options:
    """Options from what a Python caller passed, each checked by the parser the
    command line uses (raises InputError naming the option).

    ``threshold`` is a number, ``None`` or ``"above-all"`` (above all scores);
    ``prevalence`` a number, a Fraction or text such as ``"1/20"``; ``bootstrap``
    the replicates (``True``: the default number); ``readout`` one text such as
    ``"fpr 0.01,0.05"`` or a list of them (replacing the default seven), and
    ``partial_auc`` one such as ``"fpr:0-0.1"`` or a list; ``alternative`` the model
    tests' (``"two-sided"``, ``"greater"``: a above b, ``"less"``) and ``unpaired``
    True to compare models as different examples; ``pt`` the decision curve's grid
    (``"0.01:0.99:0.01"``, ``"0.05,0.1,0.2"`` or a list of numbers) and ``harm`` what
    acting costs every case, in net benefit; ``group_goal`` a fairness criterion for
    per-group thresholds (``"equal_opportunity"``, ...) and ``tolerance`` its gap;
    ``baseline`` an earlier report (a path to its JSON, its dict or a Report) and
    ``require`` one requirement (``"auc >= baseline.auc - 0.01"``) or a list.

    >>> make_options(threshold="0.7", prevalence="1/20").prevalence
    Fraction(1, 20)
    >>> make_options(confidence=1.5)
    Traceback (most recent call last):
    ...
    threshold_lab.core.errors.InputError: confidence 1.5 is not strictly between 0 and 1
    """
    t: Threshold
    if threshold is None or isinstance(threshold, str):
        t = None if threshold is None else parse_threshold(threshold)
    elif isinstance(threshold, numbers.Real) and not isinstance(threshold, bool):
        t = check_threshold(float(threshold))
    else:
        raise InputError(f"threshold {threshold!r} is not a number (or None for above all)")
    b = _checked("beta", beta, _beta)
    g = None if goal is None else parse_goal(_text(goal))
    p: Fraction | None = None
    if prevalence is not None:
        p = parse_prevalence(_prevalence_text(prevalence))
    c = _checked("confidence", confidence, lambda x: parse_confidence(_text(x)))
    replicates = None
    if bootstrap is not None and bootstrap is not False:
        n = REPLICATES if bootstrap is True else bootstrap
        replicates = _checked("bootstrap", n, lambda x: parse_replicates(_text(x)))
    s = SEED if seed is None else _checked("seed", seed, lambda x: parse_seed(_text(x)))
    nb = _checked("bins", bins, lambda x: parse_bins(_text(x)))
    how = _checked("binning", binning, lambda x: parse_binning(_text(x)))
    tf = None if transform is None else parse_transform(_text(transform))
    reads = DEFAULT_READOUTS
    if readout is not None:
        reads = tuple(r for text in _texts("readout", readout) for r in parse_readouts(text))
    areas: tuple[tuple[Focus, float, float], ...] = ()
    if partial_auc is not None:
        areas = tuple(parse_partial_auc(text) for text in _texts("partial_auc", partial_auc))
    alt = _checked("alternative", alternative, lambda x: parse_alternative(_text(x)))
    if not isinstance(unpaired, bool):
        raise InputError(f"unpaired: give True or False, not {unpaired!r}")
    grid = DEFAULT_GRID if pt is None else _grid(pt)
    h = Fraction(0) if harm is None else _checked("harm", harm, lambda x: parse_harm(_text(x)))
    crit = None if group_goal is None else parse_criterion(_text(group_goal))
    e = TOLERANCE if tolerance is None else parse_tolerance(_text(tolerance))
    if not isinstance(randomised, bool):
        raise InputError(f"randomised: give True or False, not {randomised!r}")
    if randomised and crit is None:
        raise InputError("randomised needs group_goal (--randomised needs --group-goal)")
    reqs = () if require is None else parse_requirements(require)
    base = None if baseline is None else baseline_of(baseline)
    return Options(
        t,
        b,
        g,
        p,
        c,
        replicates,
        s,
        nb,
        how,
        tf,
        readouts=reads,
        partial_aucs=areas,
        alternative=alt,
        unpaired=unpaired,
        pt=grid,
        harm=h,
        group_goal=crit,
        tolerance=e,
        randomised=randomised,
        baseline=base,
        requirements=reqs,
    )


def _grid(pt: object) -> tuple[Fraction, ...]:
    """``pt=``: a text (``"0.01:0.99:0.01"``, ``"0.05,0.1"``) or a list of numbers."""
    if isinstance(pt, str):
        return parse_pt(pt)
    if (
        isinstance(pt, list | tuple)
        and pt
        and all(isinstance(v, numbers.Real | str) and not isinstance(v, bool) for v in pt)
    ):
        return parse_pt(",".join(str(v) for v in pt))
    raise InputError(f"pt: give a text such as '0.01:0.99:0.01' or a list of numbers, not {pt!r}")


def _texts(name: str, value: object) -> list[str]:
    """One text, or a list or tuple of texts."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        return list(value)
    example = "fpr 0.01,0.05" if name == "readout" else "fpr:0-0.1"
    raise InputError(f"{name}: give a text such as {example!r} or a list of them, not {value!r}")


def _prevalence_text(p: object) -> str:
    if isinstance(p, Fraction):
        return fraction_text(p)
    if isinstance(p, float):
        return repr(p)
    return _text(p)


def _beta(x: object) -> float:
    return check_beta(float(_text(x)))


def _checked(name: str, value: object, parse: Callable[[object], T]) -> T:
    """``parse(value)``, its ValueError said as an InputError naming the option."""
    try:
        return parse(value)
    except InputError:
        raise
    except (TypeError, ValueError) as exc:
        said = str(exc)
        raise InputError(said if said.startswith(name) else f"{name}: {said}") from None
