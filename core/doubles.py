"""A number written as text, read as a double only where the double keeps it: the one
reader behind every score, weight and typed score; and a typed number, which may also
be one fraction (``1/3``), read exactly (:func:`read_exact`) or as the double nearest
it (:func:`read_typed`): the one reader behind every number a person types.

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
from fractions import Fraction

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


#: A typed number's exponent has at most four digits: ``Fraction("1e999999999")`` would
#: build a billion-digit integer before any check of its size could refuse it.
_LONG_EXPONENT = re.compile(r"[eE][+-]?[0-9]{5}")


class OutOfRange(ValueError):
    """A typed number too long to work out (an exponent of five digits, thousands of
    digits)."""


class DividesByZero(ValueError):
    """A typed fraction whose denominator is 0."""


def read_exact(text: str) -> Fraction:
    """A typed number, exactly: a decimal (``0.9``, ``-2``, ``1e-3``) or one fraction
    of two (``9/10``); ValueError with the reason (``'x' is not a number``;
    :class:`OutOfRange`: an exponent of five digits, or thousands of digits;
    :class:`DividesByZero`).

    >>> read_exact("9/10"), read_exact(" 1e-3 "), read_exact("2/-4")
    (Fraction(9, 10), Fraction(1, 1000), Fraction(-1, 2))
    >>> read_exact("1/0")
    Traceback (most recent call last):
    threshold_lab.core.doubles.DividesByZero: '1/0' is not a number (it divides by zero)
    """
    parts = [part.strip() for part in text.strip().split("/")]
    if len(parts) > 2 or not all(DECIMAL.fullmatch(part) for part in parts):
        raise ValueError(f"{quoted(text)} is not a number")
    if any(_LONG_EXPONENT.search(part) for part in parts):
        raise OutOfRange(f"{quoted(text)} is out of range (an exponent has at most four digits)")
    try:
        top, bottom = Fraction(parts[0]), Fraction(parts[-1]) if len(parts) == 2 else 1
    except ValueError:  # thousands of digits: past what Python turns into an integer
        raise OutOfRange(f"{quoted(text)} is out of range (too many digits)") from None
    if bottom == 0:
        raise DividesByZero(f"{quoted(text)} is not a number (it divides by zero)")
    return top / bottom


def read_typed(text: str) -> float:
    """A typed number as a double: a decimal as :func:`read_double` reads it, or one
    fraction read exactly and rounded once, to the double nearest it; ValueError with
    the reason, as :func:`read_double` gives it.

    >>> read_typed("1/4"), read_typed("2/3") == 2 / 3, read_typed("0.5")
    (0.25, True, 0.5)
    >>> read_typed("1e-400/3")
    Traceback (most recent call last):
    ValueError: '1e-400/3' is too small for a double: it would read as 0
    """
    if "/" not in text:
        return read_double(text)
    value = read_exact(text)
    try:
        double = float(value)  # one correctly rounded division of two integers
    except OverflowError:
        too_large = "is not a finite number (too large for a double)"
        raise ValueError(f"{quoted(text)} {too_large}") from None
    if double == 0 and value != 0:
        raise ValueError(f"{quoted(text)} is too small for a double: it would read as 0")
    return double
