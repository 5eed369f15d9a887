"""A metric value that may be undefined, carrying its reason and exact fraction."""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from fractions import Fraction

Number = int | float
#: Fractions with longer denominators are shown as decimals (exact stays in JSON).
READABLE_DIGITS = 6


def is_integral(x: Number) -> bool:
    """True when ``x`` is a whole number small enough to be counted exactly."""
    if isinstance(x, int):
        return True
    return math.isfinite(x) and float(x).is_integer() and abs(x) <= 2**53


def format_count(x: Number) -> str:
    """A count as people write it: ``2`` for 2 or 2.0, ``2.5`` for a weighted 2.5."""
    if is_integral(x):
        return str(int(x))
    return format(float(x), ".6g")


def count_json(x: Number) -> int | float:
    """A count in JSON: an int where it is whole (and held exactly), else a float."""
    return int(x) if is_integral(x) else float(x)


def format_fraction(f: Fraction) -> str:
    """``2/3``; whole numbers without a denominator (``1``, ``0``)."""
    return str(f.numerator) if f.denominator == 1 else f"{f.numerator}/{f.denominator}"


def fraction_text(f: Fraction) -> str:
    """``2/3``, ``1/1``: always with its denominator (the JSON's exact fields)."""
    return f"{f.numerator}/{f.denominator}"


def _is_exactly(decimal: str, exact: Fraction) -> bool:
    try:
        return Fraction(decimal) == exact
    except ValueError:
        return False


def format_decimal(value: float, *, places: int = 4) -> str:
    """A decimal approximation, without trailing zeros past the point; a value too
    small for ``places`` keeps that many significant digits (never a silent 0).

    >>> format_decimal(0.25), format_decimal(2 / 3), format_decimal(3.8e-299), format_decimal(1e300)
    ('0.25', '0.6667', '3.8e-299', '1e300')
    """
    if math.isfinite(value) and abs(value) >= 1e15:  # not 300 digits of float noise
        return _scientific(value, places)
    text = f"{value:.{places}f}".rstrip("0").rstrip(".")
    if text in ("-0", "0", "") and value != 0 and math.isfinite(value):
        return _scientific(value, places)
    return "0" if text in ("-0", "") else text


def _scientific(value: float, digits: int) -> str:
    """``3.8e-299``, ``1e300``: ``digits`` significant digits, no trailing zeros."""
    mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
    return f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent)}"


@dataclass(frozen=True)
class Metric:
    """One metric at one threshold (or one summary of a curve).

    ``value`` is ``None`` exactly when the metric is undefined, and then
    ``reason`` says why (which denominator is empty). ``exact`` is the reduced
    fraction when the inputs are whole counts, else ``None``. ``counts`` is the
    unreduced (numerator, denominator) when the metric is one whole count over
    another: it is what is shown, so a reader sees the denominator (791/1393, not
    113/199); ``exact`` stays reduced (the JSON's).

    >>> m = ratio(8, 14, reason="never", name="recall", formula="TP/(TP+FN)", filled="8/(8+6)")
    >>> m.describe()
    'recall = TP/(TP+FN) = 8/(8+6) = 8/14 = 4/7 ≈ 0.5714'
    >>> m.short(), m.exact
    ('8/14', Fraction(4, 7))
    >>> ratio(0, 0, reason="No predicted positives (TP+FP=0)").value is None
    True
    """

    value: float | None
    reason: str | None = None
    exact: Fraction | None = None
    name: str = ""
    formula: str = ""
    filled: str = ""
    counts: tuple[int, int] | None = None

    @property
    def defined(self) -> bool:
        return self.value is not None

    def reduced(self) -> Metric:
        """This metric shown as its reduced fraction, without its counts: what the
        JSON's text fields have always said, and the rates inside a ratio of rates.

        >>> ratio(8, 14, reason="never").reduced().short()
        '4/7'
        """
        return self if self.counts is None else dataclasses.replace(self, counts=None)

    def exact_text(self) -> str | None:
        """The exact value as ``"p/q"`` (always with a denominator), or None."""
        if self.exact is None:
            return None
        return fraction_text(self.exact)

    @property
    def denominator(self) -> int | None:
        """The denominator a reader sees: the counts' when the metric has them, else
        the reduced fraction's; None without an exact value."""
        if self.counts is not None:
            return self.counts[1]
        return None if self.exact is None else self.exact.denominator

    @property
    def readable_exact(self) -> Fraction | None:
        """The exact fraction while a person can read it (the denominator shown has
        at most :data:`READABLE_DIGITS` digits); None past that, where the decimal says more.

        >>> Metric(0.6067, exact=Fraction(88266613, 145495350)).value_text()
        '≈ 0.6067'
        """
        denominator = self.denominator
        if self.exact is None or denominator is None or denominator >= 10**READABLE_DIGITS:
            return None
        if abs(self.exact) >= 10**15 and self.counts is None:  # not 300 digits: a decimal
            return None
        return self.exact

    def fraction_shown(self) -> str | None:
        """The exact value as it is written while readable: the counts (``8/14``,
        ``0/3153``) when the metric has them, else the reduced fraction (``2/3``,
        ``1``); None when there is no readable exact value."""
        exact = self.readable_exact
        if exact is None:
            return None
        if self.counts is not None:
            return f"{self.counts[0]}/{self.counts[1]}"
        return format_fraction(exact)

    def value_text(self, *, places: int = 4) -> str:
        """``8/14 ≈ 0.5714``, ``0/3153 = 0``, ``2/3 ≈ 0.6667``, ``1``, ``≈ 0.1738`` or
        ``undefined``.

        The exact value is shown while it is readable (as its counts where it has
        them: a whole value keeps its denominator); JSON always carries it.

        >>> ratio(0, 3153, reason="never").value_text(), ratio(11, 11, reason="never").value_text()
        ('0/3153 = 0', '11/11 = 1')
        """
        if self.value is None:
            return "undefined"
        exact, frac = self.readable_exact, self.fraction_shown()
        if exact is not None and frac is not None:
            if exact.denominator == 1 and self.counts is None:
                return frac
            decimal = format_decimal(self.value, places=places)
            sign = "=" if Fraction(decimal) == exact else "≈"
            return f"{frac} {sign} {decimal}"
        decimal = format_decimal(self.value, places=places)
        if (
            self.exact is not None
            and abs(self.exact) >= 10**15
            and _is_exactly(decimal, self.exact)
        ):
            return decimal  # a large whole value that its decimal says exactly
        return f"≈ {decimal}"

    def short(self) -> str:
        """``8/14``, ``2/3``, ``0``, ``≈ 0.1738`` or ``undefined``: the readable exact
        value (its counts where it has them) if any."""
        if self.value is None:
            return "undefined"
        frac = self.fraction_shown()
        return frac if frac is not None else self.value_text()

    def value_or_reason(self) -> str:
        """``2/3 ≈ 0.6667``, or ``undefined: no predicted positives (TP+FP=0)``: the
        one way a number that may be undefined is said in a sentence."""
        return self.value_text() if self.value is not None else self.undefined_text()

    def brief(self) -> str:
        """A number for a line of several: the exact value while it is short (a
        denominator shown of at most three digits), else a four-place decimal."""
        if self.value is None:
            return "undefined"
        denominator = self.denominator
        if denominator is not None and denominator >= 1000:
            return f"≈ {self.value:.4f}"
        return self.short()

    def undefined_text(self) -> str:
        """``undefined: no actual positives (TP+FN=0)``. Not "undefined (reason)": a
        reason carries its own parenthesised denominator, and nested parentheses
        read badly."""
        reason = self.reason or "no value"
        reason = lower_first(reason)
        return f"undefined: {reason}"

    def describe(self, *, places: int = 4, reduced: bool = True) -> str:
        """One line: name, formula, the counts filled in, and the value or the reason.
        Where the counts reduce, the reduced fraction follows them: ``= 8/14 = 4/7 ≈
        0.5714`` (``reduced`` False leaves it out, where room is short).

        >>> ratio(8, 14, reason="", name="recall").describe(reduced=False)
        'recall = 8/14 ≈ 0.5714'
        """
        parts = [p for p in (self.name, self.formula, self.filled) if p]
        head = " = ".join(parts)
        if self.value is None:
            return f"{head} is {self.undefined_text()}" if head else self.undefined_text()
        body = self.value_text(places=places)
        after = self._reduced_after_counts() if reduced else None
        if after is not None:
            frac, rest = body.split(" ", 1)
            body = f"{frac} = {after} {rest}"
        if body.startswith("≈"):
            return f"{head} {body}" if head else body
        return f"{head} = {body}" if head else body

    def _reduced_after_counts(self) -> str | None:
        """The reduced fraction the shown counts equal, where it is another fraction
        (``4/7`` after ``8/14``); None for a whole value, which the decimal says."""
        exact = self.readable_exact
        if self.counts is None or exact is None or exact.denominator == 1:
            return None
        if (exact.numerator, exact.denominator) == self.counts:
            return None
        return format_fraction(exact)

    def as_json(self) -> dict[str, object]:
        """``{"value": number|null, "reason": string|null, "exact": "p/q"|null}``.

        An exact fraction with a numerator or denominator past 30 digits is left out:
        ``"exact"`` is null and ``"exact_reason"`` (present only then) says why, and the
        decimal ``"value"`` stands for it. An AP at 5,000 rows is a 3,000-character
        fraction nobody reads, and a macro average over hundreds of classes passes
        Python's 4,300-digit limit on writing an int, which would fail the report. Its
        digits are counted without writing it out.

        >>> Metric(1 / 3, exact=Fraction(1, 3)).as_json()
        {'value': 0.3333333333333333, 'reason': None, 'exact': '1/3'}
        >>> Metric(1 / 3, exact=Fraction(10**40, 3 * 10**40 + 1)).as_json()["exact_reason"]
        'the exact fraction has a 41-digit denominator; past 30 digits the decimal value ...'
        """
        limit = 30  # digits of the numerator or denominator written in full
        out: dict[str, object] = {"value": self.value, "reason": self.reason, "exact": None}
        f = self.exact
        if f is None:
            return out
        longest = max(abs(f.numerator), f.denominator)
        if longest < 10**limit:
            out["exact"] = fraction_text(f)
            return out
        digits = int((longest.bit_length() - 1) * 0.30102999566398120) + 1  # log10(2)
        if longest >= 10**digits:  # the estimate is the count or one short of it
            digits += 1
        part = "denominator" if f.denominator >= abs(f.numerator) else "numerator"
        out["exact_reason"] = (
            f"the exact fraction has a {digits}-digit {part}; past {limit} digits the "
            "decimal value stands for it"
        )
        return out


def lower_first(text: str) -> str:
    """``text`` to follow a colon mid-sentence: "No actual ..." and "A margin ..." lose
    their capital; an acronym ("FPR is 0") keeps it.

    >>> lower_first("A margin is empty"), lower_first("FPR is 0"), lower_first("No rows")
    ('a margin is empty', 'FPR is 0', 'no rows')
    """
    first = text.split(" ", 1)[0]
    if first[:1].isupper() and (len(first) == 1 or first[1:].islower()):
        return text[:1].lower() + text[1:]
    return text


def ratio(
    numerator: Number,
    denominator: Number,
    *,
    reason: str,
    name: str = "",
    formula: str = "",
    filled: str = "",
    exact_ok: bool = True,
) -> Metric:
    """``numerator / denominator``, undefined with ``reason`` when the denominator is 0.

    A zero denominator is never turned into 0 or 1. ``exact_ok`` False says the
    counts may have been rounded (whole weights past 2**53), so no exact fraction.
    Whole counts are kept unreduced in ``counts`` beside the reduced ``exact``.
    """
    if denominator == 0:
        return Metric(None, reason, None, name, formula, filled)
    if exact_ok and is_integral(numerator) and is_integral(denominator):
        top, bottom = int(numerator), int(denominator)
        exact = Fraction(top, bottom)
        return Metric(float(exact), None, exact, name, formula, filled, (top, bottom))
    return Metric(float(numerator) / float(denominator), None, None, name, formula, filled)


def from_fraction(
    exact: Fraction | None, value: float, *, name: str = "", formula: str = "", filled: str = ""
) -> Metric:
    """A defined metric from an exact fraction (when known) and its float value."""
    if exact is not None:
        value = float(exact)
    return Metric(value, None, exact, name, formula, filled)


def undefined(reason: str, *, name: str = "", formula: str = "", filled: str = "") -> Metric:
    """An undefined metric with its reason."""
    return Metric(None, reason, None, name, formula, filled)
