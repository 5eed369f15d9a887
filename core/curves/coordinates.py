"""Sensitivity and specificity at any coordinate of the ROC curve, as pROC reads them.

pROC's ``coords`` (and so ``ci.se``, ``ci.sp`` and the sensitivity and specificity
tests of ``roc.test``) reads the ROC **polyline**: the sensitivity at specificity S
is the line's TPR at FPR = 1 − S, linearly interpolated between the two points
around it; where several points share that FPR (the line is vertical there) it is
the highest of their TPRs. The specificity at sensitivity S is 1 − the line's FPR at
TPR = S, the lowest FPR where several points share that TPR. No single threshold
attains an interpolated value; the readouts (:mod:`threshold_lab.core.curves.operating`)
give the deployable point beside it.

At a threshold T both rates are those of the rule ``score >= T`` (pROC's own
thresholds are midpoints between scores, so it never meets a tie with one).

With whole counts each value is an exact fraction: S is read as the decimal written
(0.9 is 9/10), so 1 − 0.9 is exactly 1/10.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

import numpy as np
from threshold_lab.core.curves.operating import interpolated
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.doubles import read_typed
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.metrics.formulas import NO_ACTUAL_NEG, NO_ACTUAL_POS
from threshold_lab.core.metrics.metric import Metric, from_fraction, ratio, undefined

Given = Literal["specificity", "sensitivity", "threshold"]

#: What each given coordinate reads: at a specificity the sensitivity, and the reverse;
#: at a threshold both.
READS: dict[Given, tuple[str, ...]] = {
    "specificity": ("sensitivity",),
    "sensitivity": ("specificity",),
    "threshold": ("sensitivity", "specificity"),
}


def parse_rates(text: str, what: str) -> tuple[float, ...]:
    """``"0.8,0.9,0.95"``: rates in [0, 1] (``what`` names them in a message).

    >>> parse_rates("0.8, 0.9", "specificities")
    (0.8, 0.9)
    >>> parse_rates("0.9,1.2", "specificities")
    Traceback (most recent call last):
    ...
    threshold_lab.core.errors.InputError: specificities '0.9,1.2': '1.2' is not a rate in [0, 1]
    """
    out = []
    for word in _words(text, what):
        try:
            x = read_typed(word)
        except ValueError:
            raise InputError(f"{what} {quoted(text)}: {quoted(word)} is not a number") from None
        if not 0.0 <= x <= 1.0:  # NaN fails too
            raise InputError(f"{what} {quoted(text)}: {quoted(word)} is not a rate in [0, 1]")
        out.append(x)
    return tuple(out)


def parse_rate(text: str) -> float:
    """One rate in [0, 1].

    >>> parse_rate("0.9"), parse_rate("9/10")
    (0.9, 0.9)
    """
    try:
        x = read_typed(text)
    except ValueError:
        raise InputError(f"{quoted(text)} is not a number") from None
    if not 0.0 <= x <= 1.0:
        raise InputError(f"{quoted(text)} is not a rate in [0, 1]")
    return x


def parse_thresholds(text: str) -> tuple[float, ...]:
    """``"0.3,0.5"``: finite scores to read both rates at.

    >>> parse_thresholds("0.3, 1/2")
    (0.3, 0.5)
    """
    out = []
    for word in _words(text, "thresholds"):
        try:
            x = read_typed(word)
        except ValueError:
            raise InputError(f"thresholds {quoted(text)}: {quoted(word)} is not a number") from None
        if not math.isfinite(x):
            raise InputError(f"thresholds {quoted(text)}: {quoted(word)} is not a finite score")
        out.append(x)
    return tuple(out)


def _words(text: str, what: str) -> list[str]:
    words = [w.strip() for w in text.split(",")]
    if not text.strip():
        raise InputError(f"{what}: give one or more, comma-separated, such as 0.8,0.9")
    if any(not w for w in words):
        raise InputError(f"{what} {quoted(text)}: an empty value between commas")
    return words


@dataclass(frozen=True)
class Coordinate:
    """The rates at one coordinate: ``given`` (specificity, sensitivity or threshold)
    = ``at``; ``values`` the rates it reads, by name (``READS``)."""

    given: Given
    at: float
    values: dict[str, Metric]

    @property
    def key(self) -> str:
        """Its name among a bootstrap's estimates, before the rate's name."""
        return coordinate_key(self.given, self.at)

    def words(self) -> str:
        """``sensitivity at specificity 0.9`` (or ``at threshold 0.5``)."""
        if self.given == "threshold":
            return f"at threshold {self.at:g}"
        return f"{READS[self.given][0]} at {self.given} {self.at:g}"


def coordinate_key(given: Given, at: float, rate: str | None = None) -> str:
    """The name a coordinate's rate has among a bootstrap's estimates."""
    return f"coordinate {given} {at!r}" + ("" if rate is None else f" {rate}")


def _missing(sweep: Sweep) -> str | None:
    if sweep.positives == 0:
        return NO_ACTUAL_POS
    if sweep.negatives == 0:
        return NO_ACTUAL_NEG
    return None


def _metric(value: Fraction | float, name: str, how: str) -> Metric:
    if isinstance(value, Fraction):
        return from_fraction(value, float(value), name=name, formula=how)
    return Metric(float(value), None, None, name, how)


def _exact(x: float, whole: bool) -> Fraction | float:
    return Fraction(repr(float(x))) if whole else float(x)


def sensitivity_at(sweep: Sweep, specificity: float) -> Metric:
    """The ROC polyline's sensitivity at ``specificity`` (pROC's ``coords(input =
    "specificity")``).

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> sensitivity_at(build_sweep(preset("canonical").data), 0.75).short()
    '1/2'
    """
    why = _missing(sweep)
    if why is not None:
        return undefined(f"{why}: the ROC curve needs both classes", name="sensitivity")
    whole = sweep.whole_counts()
    value = interpolated(sweep, "tpr_at_fpr", 1 - _exact(specificity, whole))
    how = f"the ROC polyline's TPR at FPR = 1 − {specificity:g}, interpolated"
    return _metric(value, "sensitivity", how)


def specificity_at(sweep: Sweep, sensitivity: float) -> Metric:
    """1 − the ROC polyline's FPR at TPR = ``sensitivity`` (pROC's ``coords(input =
    "sensitivity")``).

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> specificity_at(build_sweep(preset("canonical").data), 0.5).short()
    '3/4'
    """
    why = _missing(sweep)
    if why is not None:
        return undefined(f"{why}: the ROC curve needs both classes", name="specificity")
    whole = sweep.whole_counts()
    value = 1 - interpolated(sweep, "fpr_at_tpr", _exact(sensitivity, whole))
    how = f"1 − the ROC polyline's FPR at TPR = {sensitivity:g}, interpolated"
    return _metric(value, "specificity", how)


def _point(sweep: Sweep, threshold: float) -> int:
    """The operating point of ``score >= threshold``: how many distinct scores are at
    or above it (thresholds descend)."""
    return int(np.searchsorted(-sweep.thresholds, -threshold, side="right"))


def rates_at_threshold(sweep: Sweep, threshold: float) -> tuple[Metric, Metric]:
    """Sensitivity TP/P and specificity TN/N of ``score >= threshold``.

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> se, sp = rates_at_threshold(build_sweep(preset("canonical").data), 0.5)
    >>> se.short(), sp.short()
    ('2/3', '1/2')
    """
    k = _point(sweep, threshold)
    whole = sweep.whole_counts()
    tp, fp = sweep.tp[k].item(), sweep.fp[k].item()
    tn = sweep.negatives - fp
    se = ratio(
        tp,
        sweep.positives,
        reason=NO_ACTUAL_POS,
        name="sensitivity",
        formula="TP/(TP+FN)",
        exact_ok=whole,
    )
    sp = ratio(
        tn,
        sweep.negatives,
        reason=NO_ACTUAL_NEG,
        name="specificity",
        formula="TN/(TN+FP)",
        exact_ok=whole,
    )
    return se, sp


def coordinate(sweep: Sweep, given: Given, at: float) -> Coordinate:
    """The rates read at one coordinate."""
    if given == "specificity":
        return Coordinate(given, at, {"sensitivity": sensitivity_at(sweep, at)})
    if given == "sensitivity":
        return Coordinate(given, at, {"specificity": specificity_at(sweep, at)})
    se, sp = rates_at_threshold(sweep, at)
    return Coordinate(given, at, {"sensitivity": se, "specificity": sp})


def coordinates(sweep: Sweep, asked: tuple[tuple[Given, float], ...]) -> tuple[Coordinate, ...]:
    """Every coordinate asked for, in order."""
    return tuple(coordinate(sweep, given, at) for given, at in asked)


def reader(given: Given, at: float) -> Callable[[Sweep], tuple[float, ...]]:
    """What a bootstrap replicate reads off its own sweep at this coordinate: its
    rates (``READS[given]``) as floats, NaN where undefined."""

    def read(s: Sweep) -> tuple[float, ...]:
        c = coordinate(s, given, at)
        values = (c.values[r].value for r in READS[given])
        return tuple(math.nan if v is None else float(v) for v in values)

    return read
