"""P-values, every one of them made here: the normal two-sided tail of a z statistic
and McNemar's exact binomial tail, each as a double and as its base-10 logarithm, so
a p-value below what a double holds is still a number.

The normal tail is ``erfc(|z|/√2)`` computed as the tail itself (``1 − Φ(|z|)``
would cancel: 2% low at z = 8 and exactly 0 from z ≈ 9); where even that underflows
its logarithm comes from the asymptotic series of ``erfc``.

>>> normal_two_sided(1.959963984540054).value  # doctest: +ELLIPSIS
0.0500000000000...
>>> p = normal_two_sided(12.77)
>>> p.text(), round(p.log10, 3)
('p = 2.41e-37', -36.618)
>>> normal_two_sided(40).text()
'p = 7.31e-350'
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

_LN10 = math.log(10)
#: Past this |z| / √2, erfc is not a normal double: its logarithm comes from the series.
_SERIES_FROM = 20.0


@dataclass(frozen=True)
class PValue:
    """A p-value: ``value`` as a double (it may underflow to a subnormal or 0) and
    ``log10``, its base-10 logarithm, finite however small it is (0 for p = 1)."""

    value: float
    log10: float

    def text(self, digits: int = 3) -> str:
        """``p = 0.0312``, ``p = 2.37e-37``, ``p = 7.31e-350`` (``digits`` significant
        digits, from the logarithm where the double cannot hold it); ``p = 0`` only for
        a statistic with no spread at all (an infinite z)."""
        if self.value >= 1e-300 or not math.isfinite(self.log10):
            return f"p = {self.value:.{digits}g}"
        exponent = math.floor(self.log10)
        mantissa = 10 ** (self.log10 - exponent)
        if round(mantissa, 2) >= 10:
            mantissa, exponent = mantissa / 10, exponent + 1
        return f"p = {mantissa:.{digits}g}e{exponent}"

    def as_json(self) -> dict[str, float | None]:
        """``{"p_value", "p_value_log10"}`` (the logarithm null only for p = 0)."""
        return {"p_value": self.value,
                "p_value_log10": self.log10 if math.isfinite(self.log10) else None}  # fmt: skip


ONE = PValue(1.0, 0.0)
#: A difference with no spread at all (a standard error of 0 but a difference).
ZERO = PValue(0.0, -math.inf)


def _log10_erfc(x: float) -> float:
    """log10 of erfc(x) for x > 0, to within a few units in the last place."""
    if x < _SERIES_FROM:
        return math.log10(math.erfc(x))
    # erfc(x) = exp(−x²) / (x√π) · (1 − 1/(2x²) + 3/(2x²)² − 15/(2x²)³ + ...)
    total, term = 1.0, 1.0
    for k in range(1, 12):
        term *= -(2 * k - 1) / (2 * x * x)
        total += term
    return (-x * x - math.log(x * math.sqrt(math.pi)) + math.log(total)) / _LN10


def normal_two_sided(z: float) -> PValue:
    """P(|Z| >= |z|) for a standard normal Z."""
    if not math.isfinite(z):
        raise ValueError(f"z must be finite, got {z}")
    x = abs(z) / math.sqrt(2)
    return PValue(min(1.0, math.erfc(x)), min(0.0, _log10_erfc(x)))


def binomial_two_sided(b: int, c: int) -> PValue:
    """McNemar's exact p-value: twice the smaller tail of Binomial(b + c, 1/2), at most 1
    (exactly, in integers, up to 2000 trials; past that in logarithms)."""
    n, k = b + c, min(b, c)
    if n == 0:
        return ONE
    if n <= 2000:
        tail = Fraction(2 * sum(math.comb(n, i) for i in range(k + 1)), 2**n)
        if tail >= 1:
            return ONE
        return PValue(float(tail), math.log10(tail.numerator) - math.log10(tail.denominator))
    # The tail's terms in logs, log C(n, i) built up by the ratios
    # C(n, i) / C(n, i − 1) = (n − i + 1) / i, and summed from the largest.
    i = np.arange(1, k + 1, dtype=np.float64)
    log_comb = np.concatenate(([0.0], np.cumsum(np.log((n - i + 1) / i))))
    log_terms = log_comb - n * math.log(2)
    top = float(log_terms.max())
    ln = math.log(2) + top + math.log(float(np.exp(log_terms - top).sum()))
    if ln >= 0:
        return ONE
    return PValue(math.exp(ln), ln / _LN10)
