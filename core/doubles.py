"""A number written as text, read as a double only where the double keeps it: the one
reader behind every score, weight and typed score.

Python's ``float`` takes more than a file or a person means (``1_000``, digits of
other scripts) and silently rounds what a double cannot hold (``1e-400`` becomes 0
and ties with a real 0). Here a number is ASCII decimal digits, an optional point and
exponent, and reading it must not turn a non-zero number into 0.

>>> read_double("0.25"), read_double(" -3e-2 "), read_double("1e-310") > 0
(0.25, -0.03, True)
>>> read_double("1e-400")
Traceback (most recent call last):
ValueError: '1e-400' is too small for a double: it would read as 0
>>> read_double("1_000")
Traceback (most recent call last):
ValueError: '1_000' is not a number
"""

from __future__ import annotations

import math
import re

from threshold_lab.core.errors import quoted

#: A decimal number: ASCII digits with an optional point, an optional exponent (no
#: ``_``, no ``inf`` or ``nan``, no digits of other scripts). The goal grammar reads
#: its numbers with it too.
DECIMAL = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)
#: The words for the non-finite values, which are numbers but not finite ones.
_NON_FINITE = re.compile(r"[+-]?(?:inf|infinity|nan)", re.IGNORECASE)
#: A non-zero digit before any exponent: the number is not 0.
_NON_ZERO = re.compile(r"^[^eE]*[1-9]")


#: Every integer up to 2^53 is a double; past it, some read as their neighbours.
EXACT = 2**53
_INTEGER = re.compile(r"[+-]?[0-9]+", re.ASCII)


def integer_problem(value: int) -> str | None:
    """Why the integer ``value`` cannot be a score (None when a double holds it):
    past 2^53 a double rounds some integers onto their neighbours, which would tie
    two different scores.

    >>> integer_problem(2**53), integer_problem(2**53 + 2)
    (None, None)
    >>> integer_problem(2**53 + 1)
    'an integer a double cannot hold (past 2^53 = 9007199254740992 it reads as 9007199254740992)'
    """
    try:
        double = float(value)
    except OverflowError:
        return "too large for a double"
    if int(double) == value:
        return None
    return f"an integer a double cannot hold (past 2^53 = {EXACT} it reads as {int(double)})"


def read_double(text: str) -> float:
    """``text`` (surrounding spaces aside) as a double; ValueError with the reason,
    ``'x' is not a number`` or ``... is not a finite number`` or too small/large."""
    word = text.strip()
    if _NON_FINITE.fullmatch(word):
        raise ValueError(f"{quoted(text)} is not a finite number")
    if not DECIMAL.fullmatch(word):
        raise ValueError(f"{quoted(text)} is not a number")
    value = float(word)
    if not math.isfinite(value):
        raise ValueError(f"{quoted(text)} is not a finite number (too large for a double)")
    if value == 0 and _NON_ZERO.match(word):
        raise ValueError(f"{quoted(text)} is too small for a double: it would read as 0")
    if abs(value) >= EXACT and _INTEGER.fullmatch(word):
        problem = integer_problem(int(word))
        if problem is not None:
            raise ValueError(f"{quoted(text)} is {problem}")
    return value


def underflows(text: str) -> bool:
    """Whether ``text``, read as a double, is 0 but writes a non-zero number."""
    return bool(_NON_ZERO.match(text.strip())) and float(text) == 0
