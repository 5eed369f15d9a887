"""The decision rule and the threshold a user types.

The rule is ``predicted positive iff score >= threshold``. The threshold
``None`` is the explicit above-all sentinel: nothing is predicted positive.
"""

from __future__ import annotations

import math

from threshold_lab.core.doubles import read_typed
from threshold_lab.core.errors import InputError, quoted

Threshold = float | None
ABOVE_ALL: Threshold = None
ABOVE_ALL_WORDS = ("above-all", "above_all", "above all", "aboveall", "none", "+inf", "inf")
#: What a typed threshold may be, in the words its refusals use.
_A_NUMBER = "a number such as 0.5 or 1/3, or above-all"


def parse_threshold(text: str) -> Threshold:
    """A typed threshold: a finite number (a decimal, or one fraction read as the
    double nearest it), or ``above-all`` for the sentinel.

    >>> parse_threshold("0.5"), parse_threshold("above-all"), parse_threshold("1/4")
    (0.5, None, 0.25)
    >>> parse_threshold("nan")
    Traceback (most recent call last):
    ...
    threshold_lab.core.errors.InputError: threshold 'nan' is not a finite number: use a number ...
    """
    cleaned = text.strip()
    if cleaned.lower() in ABOVE_ALL_WORDS:
        return ABOVE_ALL
    if not cleaned:
        raise InputError(f"threshold is empty: use {_A_NUMBER}")
    try:
        return read_typed(cleaned)  # a score's rule: 1e-400 is not read as 0
    except ValueError as exc:
        said = str(exc).removeprefix(f"{quoted(cleaned)} is ")
        raise InputError(f"threshold {quoted(cleaned)} is {said}: use {_A_NUMBER}") from None


def check_threshold(value: object) -> Threshold:
    """Validate a threshold given in code: a finite real number or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"threshold {quoted(value)} is not a number (or None for above-all)")
    try:
        double = float(value)
    except OverflowError:
        double = math.inf
    if not math.isfinite(double):
        raise InputError(
            f"threshold {quoted(value)} is not a finite number (or None for above-all)"
        )
    return double


def format_threshold(value: Threshold) -> str:
    """``above all scores`` for the sentinel, else the shortest exact decimal."""
    return "above all scores" if value is None else repr(float(value))
