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
        return {
            "p_value": self.value,
            "p_value_log10": self.log10 if math.isfinite(self.log10) else None,
        }


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


def _binomial_tail(n: int, k: int, times: int) -> PValue:
    """``times`` · P(X <= k) for X ~ Binomial(n, 1/2), at most 1: exactly, in integers,
    up to 2000 trials; past that in logarithms."""
    if n <= 2000:
        tail = Fraction(times * sum(math.comb(n, i) for i in range(k + 1)), 2**n)
        if tail >= 1:
            return ONE
        return PValue(float(tail), math.log10(tail.numerator) - math.log10(tail.denominator))
    # The tail's terms in logs, log C(n, i) built up by the ratios
    # C(n, i) / C(n, i − 1) = (n − i + 1) / i, and summed from the largest.
    i = np.arange(1, k + 1, dtype=np.float64)
    log_comb = np.concatenate(([0.0], np.cumsum(np.log((n - i + 1) / i))))
    log_terms = log_comb - n * math.log(2)
    top = float(log_terms.max())
    ln = math.log(times) + top + math.log(float(np.exp(log_terms - top).sum()))
    if ln >= 0:
        return ONE
    return PValue(math.exp(ln), ln / _LN10)


def binomial_two_sided(b: int, c: int) -> PValue:
    """McNemar's exact p-value: twice the smaller tail of Binomial(b + c, 1/2), at most 1
    (exactly, in integers, up to 2000 trials; past that in logarithms)."""
    n, k = b + c, min(b, c)
    if n == 0:
        return ONE
    return _binomial_tail(n, k, 2)


#: The alternatives a test takes: "greater" means model a's statistic above b's.
ALTERNATIVES = ("two-sided", "greater", "less")


def parse_alternative(text: str) -> str:
    """``two-sided`` (the default), ``greater`` (a above b) or ``less``.

    >>> parse_alternative("Greater")
    'greater'
    >>> parse_alternative("bigger")
    Traceback (most recent call last):
    ...
    ValueError: alternative 'bigger' is not one of two-sided, greater, less
    """
    word = text.strip().lower()
    if word not in ALTERNATIVES:
        raise ValueError(f"alternative {text!r} is not one of {', '.join(ALTERNATIVES)}")
    return word


def _upper_normal(z: float) -> PValue:
    """P(Z >= z) for a standard normal Z, its logarithm finite however far out."""
    if z <= 0:
        return PValue(
            1.0 - 0.5 * math.erfc(-z / math.sqrt(2)),
            math.log10(1.0 - 0.5 * math.erfc(-z / math.sqrt(2))),
        )
    x = z / math.sqrt(2)
    return PValue(0.5 * math.erfc(x), min(0.0, _log10_erfc(x) - math.log10(2)))


def normal_p(z: float, alternative: str = "two-sided") -> PValue:
    """The normal test's p-value for ``alternative`` (greater: P(Z >= z)).

    >>> round(normal_p(1.6448536269514722, "greater").value, 12), normal_p(-1.0, "less").text()
    (0.05, 'p = 0.159')
    """
    if not math.isfinite(z):
        raise ValueError(f"z must be finite, got {z}")
    if alternative == "two-sided":
        return normal_two_sided(z)
    return _upper_normal(z if alternative == "greater" else -z)


def _log_beta_cf(a: float, b: float, x: float) -> float:
    """log of the continued fraction of the regularized incomplete beta (Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        for num in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-16:
            break
    return math.log(h)


def _log_incomplete_beta(a: float, b: float, x: float, y: float) -> float:
    """ln I_x(a, b), the regularized incomplete beta function, for 0 <= x <= 1 with
    y = 1 − x given as accurately (a t statistic near 0 makes x round to 1)."""
    if y <= 0:
        return 0.0
    if x <= 0:
        return -math.inf
    ln_front = (
        a * math.log(x) + b * math.log(y) + (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b))
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return ln_front + _log_beta_cf(a, b, x) - math.log(a)
    # I_x(a, b) = 1 − I_{1−x}(b, a)
    other = ln_front + _log_beta_cf(b, a, y) - math.log(b)
    return math.log(-math.expm1(other)) if other < 0 else -math.inf


def student_t_p(t: float, df: float, alternative: str = "two-sided") -> PValue:
    """The p-value of Student's t with ``df`` degrees of freedom for ``alternative``
    (greater: P(T >= t)), from the incomplete beta function.

    >>> round(student_t_p(2.228138851986274, 10).value, 10)
    0.05
    >>> student_t_p(-2.0, 5.5, "greater").text()
    'p = 0.952'
    """
    if not (math.isfinite(t) and df > 0):
        raise ValueError(f"t must be finite and df positive, got {t}, {df}")
    if t == 0:
        return ONE if alternative == "two-sided" else PValue(0.5, math.log10(0.5))
    # P(|T| >= |t|) = I_{df/(df+t²)}(df/2, 1/2)
    ln_two = _log_incomplete_beta(df / 2.0, 0.5, df / (df + t * t), t * t / (df + t * t))
    if alternative == "two-sided":
        return PValue(min(1.0, math.exp(ln_two)), min(0.0, ln_two / _LN10))
    ln_tail = ln_two - math.log(2.0)  # P(T >= |t|)
    toward = (t > 0) == (alternative == "greater")
    if toward:
        return PValue(math.exp(ln_tail), ln_tail / _LN10)
    rest = -math.expm1(ln_tail)
    return PValue(rest, math.log10(rest))


def student_t_quantile(confidence: float, df: float) -> float:
    """The t with P(|T| <= t) = ``confidence`` for ``df`` degrees of freedom, by
    bisection on :func:`student_t_p` (to 1e-12).

    >>> round(student_t_quantile(0.95, 10), 6)
    2.228139
    """
    lo, hi = 0.0, 1.0
    while student_t_p(hi, df).value > 1 - confidence:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if student_t_p(mid, df).value > 1 - confidence:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12:
            break
    return (lo + hi) / 2


def binomial_p(b: int, c: int, alternative: str = "two-sided") -> PValue:
    """McNemar's exact p-value for ``alternative``: greater (model a right more often)
    is P(X >= b) with X ~ Binomial(b + c, 1/2), less is P(X <= b).

    >>> binomial_p(7, 1, "greater").text(), binomial_p(7, 1, "less").text()
    ('p = 0.0352', 'p = 0.996')
    """
    if alternative == "two-sided":
        return binomial_two_sided(b, c)
    n = b + c
    if n == 0:
        return ONE
    k = b if alternative == "less" else c  # P(X >= b) = P(Y <= c), Y = n − X
    return _binomial_tail(n, k, 1)
