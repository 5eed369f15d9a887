"""The decision rule and the threshold a user types.

The rule is ``predicted positive iff score >= threshold``. The threshold
``None`` is the explicit above-all sentinel: nothing is predicted positive.
"""

from __future__ import annotations

import math

from threshold_lab.core.errors import InputError

Threshold = float | None
ABOVE_ALL: Threshold = None
ABOVE_ALL_WORDS = ("above-all", "above_all", "above all", "aboveall", "none", "+inf", "inf")


def parse_threshold(text: str) -> Threshold:
    """A typed threshold: a finite number, or ``above-all`` for the sentinel.

    >>> parse_threshold("0.5"), parse_threshold("above-all")
    (0.5, None)
    >>> parse_threshold("nan")
    Traceback (most recent call last):
    ...
    threshold_lab.core.errors.InputError: threshold 'nan' is not a finite number: use a number ...
    """
    cleaned = text.strip()
    if cleaned.lower() in ABOVE_ALL_WORDS:
        return ABOVE_ALL
    if not cleaned:
        raise InputError("threshold is empty: use a number such as 0.5, or above-all")
    try:
        value = float(cleaned)
    except ValueError:
        raise InputError(
            f"threshold {cleaned!r} is not a number: use a number such as 0.5, or above-all"
        ) from None
    if not math.isfinite(value):
        raise InputError(
            f"threshold {cleaned!r} is not a finite number: use a number such as 0.5, or above-all"
        )
    return value


def check_threshold(value: object) -> Threshold:
    """Validate a threshold given in code: a finite real number or None."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise InputError(f"threshold {value!r} is not a finite number (or None for above-all)")
    return float(value)


def format_threshold(value: Threshold) -> str:
    """``above all scores`` for the sentinel, else the shortest exact decimal."""
    return "above all scores" if value is None else repr(float(value))
