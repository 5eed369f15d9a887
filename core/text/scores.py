"""Scores as people read them: a score a file wrote (``0.86``) is shown as written,
and a score a transform made (``0.7395999999999999``, the square of 0.86 in doubles)
with the fewest significant digits, four at least, that keep it apart from its
neighbouring distinct scores (``0.7396``).

The rounded text is then not the exact double; where a threshold is stated (the
status sentence, the threshold bar) it is marked ``≈`` so nobody types it back
expecting the same operating point.

>>> import numpy as np
>>> t = np.array([0.81, 0.7395999999999999, 0.6561000000000001, 0.5])
>>> [shown_score(x, t) for x in t.tolist()]
['0.81', '0.7396', '0.6561', '0.5']
>>> shown_score(0.30000000000000004, np.array([0.30000000000000004, 0.3]))
'0.30000000000000004'
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt
from threshold_lab.core.curves.sweep import first_not_above
from threshold_lab.core.decide.goal import number_text
from threshold_lab.core.doubles import read_exact

#: Significant digits a shortened score keeps at least.
FEWEST = 4
#: A written score of at most this many significant digits is shown as written.
WRITTEN = 12


def _significant(text: str) -> int:
    mantissa = text.lstrip("-").split("e")[0].replace(".", "").lstrip("0")
    return len(mantissa)


def shown_score(value: float, thresholds: npt.NDArray[np.float64] | None) -> str:
    """``value`` as a score is shown among the distinct ``thresholds`` (descending,
    a sweep's): as written, or rounded to keep its neighbours apart."""
    written = repr(float(value))
    if thresholds is None or _significant(written) <= WRITTEN or thresholds.shape[0] == 0:
        return written
    at = first_not_above(thresholds, value)
    if at >= thresholds.shape[0] or thresholds[at] != value:
        return _between(value, thresholds, at, written)
    return _apart(value, thresholds, at, written)


def shown_threshold(thresholds: npt.NDArray[np.float64], k: int) -> str:
    """Threshold ``k`` of the descending ``thresholds`` as :func:`shown_score` shows
    it, its place known (no search: a table of every point asks for each in turn)."""
    value = float(thresholds[k])
    written = repr(value)
    if _significant(written) <= WRITTEN:
        return written
    return _apart(value, thresholds, k, written)


def _apart(value: float, thresholds: npt.NDArray[np.float64], at: int, written: str) -> str:
    """The fewest digits, four at least, that keep score ``at`` apart from the
    scores beside it (halfway to each)."""
    upper = float(thresholds[at - 1]) if at > 0 else None
    lower = float(thresholds[at + 1]) if at + 1 < thresholds.shape[0] else None
    for digits in range(FEWEST, 18):
        text = _trimmed(f"{value:.{digits}g}")
        v = float(text)
        if v == value:
            return text
        if (lower is None or v > (lower + value) / 2) and (
            upper is None or v < (value + upper) / 2
        ):
            return text
    return written


def _between(value: float, thresholds: npt.NDArray[np.float64], at: int, written: str) -> str:
    """A threshold that is not a score (one kept through an undone transform): the
    fewest digits, four at least, that decide every row as it does."""
    for digits in range(FEWEST, 18):
        text = _trimmed(f"{value:.{digits}g}")
        if first_not_above(thresholds, float(text)) == at:
            return text
    return written


def _trimmed(text: str) -> str:
    """``0.7396`` (no trailing zeros past the point; ``1e-05`` as Python writes it)."""
    if "e" in text or "." not in text:
        return text
    return text.rstrip("0").rstrip(".")


def is_shortened(value: float, text: str) -> bool:
    """Whether ``text`` (from :func:`shown_score`) is not ``value`` exactly."""
    return float(text) != value


def threshold_words(value: float | None, thresholds: npt.NDArray[np.float64] | None) -> str:
    """A threshold stated in words: ``above all scores``, ``0.5``, or ``≈0.7396`` when
    the shown digits are not the exact double (typing them back would move it).

    >>> threshold_words(0.7395999999999999, np.array([0.81, 0.7395999999999999, 0.5]))
    '≈0.7396'
    >>> threshold_words(None, None), threshold_words(0.5, None)
    ('above all scores', '0.5')
    """
    if value is None:
        return "above all scores"
    text = shown_score(value, thresholds)
    return f"≈{text}" if is_shortened(value, text) else text


def typed_words(typed: str, value: float) -> str:
    """A number typed and read as the double ``value``, said back as typed in its
    shortest exact form (``2``, not ``2.0``; ``0.5`` for ``1/2``), and with the double
    it was read as where that is another number (``1/3 (the double
    0.3333333333333333)``).

    >>> typed_words("2", 2.0), typed_words("1/2", 0.5), typed_words("1/3", 1 / 3)
    ('2', '0.5', '1/3 (the double 0.3333333333333333)')
    """
    exact = read_exact(typed)
    text = number_text(exact)
    if Fraction(value) == exact or Fraction(repr(value)) == exact:
        return text
    return f"{text} (the double {value!r})"
