"""Bounded quantisation: merging distinct scores into fewer, with a bound on AUC.

Two rules, each monotone in the score so that merged scores are always a run of
neighbours and never reorder:

- ``round:D``: ``floor(score · 10^D + 0.5) / 10^D`` in double precision. Every
  engine computes it with the same IEEE operations, so they agree bit for bit.
- ``quantile_bins:N``: the distinct scores of a group in ascending order, each
  in bin ``floor(N · below / total)`` where ``below`` is the mass (positives +
  negatives) of strictly lower scores; a bin is written at its lowest score, so
  each operating point of the quantised sweep is one of the true sweep's.

Merging tied-up examples changes AUC only through pairs inside a merged group:
such a pair counts 1/2 where its true order counts 0 or 1. So the exact AUC of
the quantised data is within

    e = Σ_b pos_b · neg_b / (2 · P · N)

of the true AUC, the sum over the merged groups b (rows whose ``merged`` is
true), P and N the total positives and negatives. An aggregated file that was
quantised has a ``merged`` column (and ``quantisation`` naming the rule), so
the bound travels with the file.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import dot
from threshold_lab.core.errors import InputError, quoted

#: The largest D for ``--round D``: 10^D and every score · 10^D below 2^53 stay exact.
MAX_DIGITS = 15
#: The most bins ``--quantile-bins`` takes.
MAX_BINS = 10**9
#: |score| · 10^D must stay below this for rounding to be exact in double precision.
ROUND_LIMIT = 2.0**53


@dataclass(frozen=True)
class Rule:
    """A quantisation rule: ``round`` with ``digits``, or ``quantile_bins`` with ``bins``."""

    kind: str
    value: int

    @property
    def text(self) -> str:
        """As recorded in an aggregated file's ``quantisation`` column: ``round:3``."""
        return f"{self.kind}:{self.value}"

    def words(self) -> str:
        """``rounded to 3 decimal digits`` or ``in 100 quantile bins``."""
        if self.kind == "round":
            return f"rounded to {self.value} decimal digit{'s' if self.value != 1 else ''}"
        return f"in {self.value} quantile bins"

    @property
    def scale(self) -> float:
        """10^D for a ``round`` rule."""
        return float(10**self.value)


def parse_rule(text: str) -> Rule:
    """A rule from its recorded text.

    >>> parse_rule("round:3"), parse_rule(" quantile_bins:100 ").words()
    (Rule(kind='round', value=3), 'in 100 quantile bins')
    >>> parse_rule("round:x")
    Traceback (most recent call last):
    ...
    threshold_lab.core.errors.InputError: quantisation 'round:x' is not round:D or quantile_bins:N
    """
    m = re.fullmatch(r"\s*(round|quantile_bins):(\d{1,10})\s*", text)
    if m is None:
        raise InputError(f"quantisation {quoted(text)} is not round:D or quantile_bins:N")
    rule = Rule(m.group(1), int(m.group(2)))
    if rule.kind == "round" and rule.value > MAX_DIGITS:
        raise InputError(f"quantisation {quoted(text)}: at most {MAX_DIGITS} digits")
    if rule.kind == "quantile_bins" and not 1 <= rule.value <= MAX_BINS:
        raise InputError(f"quantisation {quoted(text)}: 1 to {MAX_BINS:,} bins")
    return rule


def digits(text: str) -> int:
    """``--round D``: 0 to 15 decimal digits."""
    try:
        d = int(text)
    except ValueError:
        raise InputError(
            f"--round {quoted(text)}: the number of decimal digits, 0 to {MAX_DIGITS}"
        ) from None
    if not 0 <= d <= MAX_DIGITS:
        raise InputError(f"--round {d}: the number of decimal digits must be 0 to {MAX_DIGITS}")
    return d


def bins(text: str) -> int:
    """``--quantile-bins N``: 1 to 10^9 bins."""
    try:
        n = int(text)
    except ValueError:
        raise InputError(f"--quantile-bins {quoted(text)}: a whole number of bins") from None
    if not 1 <= n <= MAX_BINS:
        raise InputError(f"--quantile-bins {n}: the number of bins must be 1 to {MAX_BINS:,}")
    return n


def round_scores(scores: npt.NDArray[np.float64], d: int) -> npt.NDArray[np.float64]:
    """The ``round:D`` rule, as every engine computes it.

    >>> round_scores(np.array([0.12345, 0.1235, -0.0004, 2.5]), 3).tolist()
    [0.123, 0.124, 0.0, 2.5]
    """
    c = float(10**d)
    out: npt.NDArray[np.float64] = np.floor(scores * c + 0.5) / c
    return out + 0.0  # -0.0 is 0.0


def bin_of(below: npt.NDArray[np.float64], total: float, n: int) -> npt.NDArray[np.int64]:
    """The ``quantile_bins:N`` bin of each distinct score, given the mass below it.

    >>> bin_of(np.array([0.0, 1.0, 2.0, 3.0]), 4.0, 2).tolist()
    [0, 0, 1, 1]
    """
    if total <= 0:
        return np.zeros(below.shape[0], dtype=np.int64)
    return np.floor(n * below / total).astype(np.int64)


def bound(
    positives: npt.NDArray[np.float64],
    negatives: npt.NDArray[np.float64],
    merged: npt.NDArray[np.bool_],
) -> float | None:
    """e = Σ over merged rows of pos · neg / (2 · P · N); None when P or N is 0.

    >>> bound(np.array([2.0, 1.0]), np.array([1.0, 2.0]), np.array([True, False]))
    0.1111111111111111
    """
    p, n = float(positives.sum()), float(negatives.sum())
    if p <= 0 or n <= 0:
        return None
    pairs = dot(positives[merged], negatives[merged])
    return pairs / (2.0 * p * n)


def bound_words(e: float) -> str:
    """The bound as the report prints it: 4 significant digits, rounded up.

    >>> bound_words(0.000123456), bound_words(0.0), bound_words(0.5)
    ('0.0001235', '0', '0.5')
    """
    if e <= 0:
        return "0"
    exp = math.floor(math.log10(e)) - 3
    up = math.ceil(e / 10.0**exp) * 10.0**exp
    return f"{up:.4g}"
