"""Power and sample size for one ROC curve, as pROC's ``power.roc.test`` computes them.

The test is of AUC = 1/2 against the AUC given, by Obuchowski's variance of an AUC
under a binormal model with equal variances (her 2004 formula 3): with A = 1.414·Φ⁻¹(θ)
and κ the controls per case,

    V(θ) = 0.0099·e^(−A²/2)·((5A² + 8) + (A² + 8)/κ),   V(1/2) = 0.0792·(1 + 1/κ).

With z_α = Φ⁻¹(α) (α halved for a two-sided test) and z_β = Φ⁻¹(1 − power), the
cases needed are n = (z_α·√V(1/2) + z_β·√V(θ))² / (θ − 1/2)²; given n, the power,
the significance level or the smallest detectable AUC is the value solving that
equation (a quadratic for the first two, a root in (1/2, 1) for the AUC). Sample sizes
are rounded up to whole cases and controls, and the power at those whole numbers is
said beside.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from threshold_lab.core.doubles import read_typed
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.metrics.metric import count_json

_N = NormalDist()
ALTERNATIVES = ("two-sided", "one-sided")


def parse_power_number(text: str) -> float:
    """A typed number of a power calculation (a decimal or one fraction)."""
    try:
        return read_typed(text.strip())
    except ValueError as exc:
        raise InputError(f"power: {exc}") from None


def parse_pair(text: str) -> tuple[float, float]:
    """``"2.6,1.9"``: two numbers, the first curve's and the second's."""
    parts = [w.strip() for w in text.split(",")]
    if len(parts) != 2 or not all(parts):
        raise InputError(
            f"power: {quoted(text)}: give two numbers, the first curve's and the second's, "
            "as 2.6,1.9"
        )
    first, second = (parse_power_number(w) for w in parts)
    return first, second


def read_pair(value: object) -> tuple[float, float]:
    """A pair from Python: a text, or two numbers."""
    if isinstance(value, list | tuple) and len(value) == 2:
        return parse_pair(",".join(str(v) for v in value))
    raise InputError(f"power: give two numbers, as (2.6, 1.9), not {quoted(value)}")


def obuchowski_variance(theta: float, kappa: float) -> float:
    """Obuchowski's variance of an AUC ``theta`` with ``kappa`` controls per case."""
    a = _N.inv_cdf(theta) * 1.414
    return 0.0099 * math.exp(-a * a / 2) * ((5 * a * a + 8) + (a * a + 8) / kappa)


def _null_variance(kappa: float) -> float:
    return 0.0792 * (1 + 1 / kappa)


def _lower_root(a: float, b: float, c: float) -> float:
    return (-b - math.sqrt(b * b - 4 * a * c)) / (2 * a)


@dataclass(frozen=True)
class Power:
    """One ROC curve's power calculation: what was given and what was solved for."""

    auc: float
    cases: float
    controls: float
    sig_level: float
    power: float
    alternative: str
    solved_for: str
    #: A sample size solved for, rounded up to whole cases and controls: the power at it.
    power_at_whole: float | None = None
    method: str = "One ROC curve power calculation (Obuchowski's variance, as pROC)"
    #: A sample size solved for, before rounding up (pROC's own numbers).
    unrounded: tuple[float, float] | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "auc": self.auc,
            "cases": count_json(self.cases),
            "controls": count_json(self.controls),
            "sig_level": self.sig_level,
            "power": self.power,
            "alternative": self.alternative,
            "solved_for": self.solved_for,
            "power_at_whole": self.power_at_whole,
            "cases_unrounded": None if self.unrounded is None else self.unrounded[0],
            "controls_unrounded": None if self.unrounded is None else self.unrounded[1],
        }

    def lines(self) -> list[str]:
        solved = self.solved_for
        whole = solved == "sample size"
        c = f"{self.cases:.0f}" if whole else f"{self.cases:g}"
        k = f"{self.controls:.0f}" if whole else f"{self.controls:g}"
        smallest = " (solved for: the smallest detectable)" if solved == "auc" else ""
        rounded = " (solved for, rounded up to whole numbers)" if whole else ""
        return [
            self.method + ":",
            f"  AUC {self.auc:.6g}{smallest}",
            f"  cases {c}, controls {k}{rounded}",
            *level_and_power_lines(
                self.sig_level, self.alternative, self.power, solved, self.power_at_whole
            ),
        ]


def level_and_power_lines(
    sig_level: float, alternative: str, power: float, solved: str, at_whole: float | None
) -> list[str]:
    """A power calculation's last lines: the significance level, the power, and the
    power at a sample size rounded up (each said solved for where it was)."""
    level = "; solved for" if solved == "sig_level" else ""
    reached = " (solved for)" if solved == "power" else ""
    out = [
        f"  significance level {_shown(sig_level)} ({alternative}{level})",
        f"  power {_shown(power)}{reached}",
    ]
    if at_whole is not None:
        out.append(f"  power at those whole numbers ≈ {_shown(at_whole)}")
    return out


def power_one(
    *,
    auc: float | None = None,
    cases: float | None = None,
    controls: float | None = None,
    kappa: float | None = None,
    sig_level: float | None = 0.05,
    power: float | None = None,
    alternative: str = "two-sided",
) -> Power:
    """Solve for the one of ``auc``, the sample size (``cases`` and ``controls``, with
    ``kappa`` controls per case), ``sig_level`` and ``power`` left out."""
    if alternative not in ALTERNATIVES:
        raise InputError(f"power: alternative {alternative!r}: give two-sided or one-sided")
    if auc is not None and not 0.5 < auc < 1:
        raise InputError(f"power: AUC {auc:g} should be above 0.5 and below 1")
    for name, v in (("power", power), ("sig_level", sig_level)):
        if v is not None and not 0 < v < 1:
            raise InputError(f"power: {name} {v:g} should be strictly between 0 and 1")
    for name, v in (("cases", cases), ("controls", controls), ("kappa", kappa)):
        if v is not None and not v > 0:
            raise InputError(f"power: {name} {v:g} should be above 0")
    given_sizes = [v is not None for v in (cases, controls, kappa)]
    if all(given_sizes):
        raise InputError(
            "power: give two of the cases, the controls and kappa (controls per case), not "
            "all three"
        )
    if given_sizes[:2].count(True) == 1 and kappa is None:
        raise InputError(
            "power: give both the cases and the controls, or one of them with kappa "
            "(controls per case)"
        )
    cases, controls = completed(cases, controls, kappa)
    sizes = cases is not None and controls is not None
    solved = one_left(
        (("auc", auc is None), ("sample size", not sizes), ("sig_level", sig_level is None)),
        power,
        "the AUC, the sample size (cases and controls, or one of them with kappa), the "
        "significance level and the power",
    )
    two = alternative == "two-sided"
    alpha = None if sig_level is None else (sig_level / 2 if two else sig_level)
    if solved == "sample size":
        assert auc is not None and alpha is not None and power is not None
        k = 1.0 if kappa is None else kappa
        need = _cases(auc, k, alpha, power)
        whole_cases, whole_controls = math.ceil(need - 1e-9), math.ceil(k * need - 1e-9)
        at = _power(auc, float(whole_cases), whole_controls / whole_cases, alpha)
        return Power(
            auc,
            whole_cases,
            whole_controls,
            _sig(alpha, two),
            power,
            alternative,
            solved,
            at,
            unrounded=(need, k * need),
        )
    assert cases is not None and controls is not None
    k = controls / cases
    if solved == "power":
        assert auc is not None and alpha is not None
        return Power(
            auc,
            cases,
            controls,
            _sig(alpha, two),
            _power(auc, cases, k, alpha),
            alternative,
            solved,
        )
    if solved == "sig_level":
        assert auc is not None and power is not None
        v0, vt = _null_variance(k), obuchowski_variance(auc, k)
        zbr = _N.inv_cdf(1 - power) * math.sqrt(vt)
        z_alpha = _lower_root(
            v0, 2 * zbr * math.sqrt(v0), zbr * zbr - cases * (auc * auc - auc + 0.25)
        )
        level = _sig(_N.cdf(z_alpha), two)
        if not level < 1:
            raise InputError(
                f"power: no significance level below 1 reaches power {power:g} with these "
                "cases and controls"
            )
        return Power(auc, cases, controls, level, power, alternative, solved)
    assert alpha is not None and power is not None
    z_alpha, z_beta = _N.inv_cdf(alpha), _N.inv_cdf(1 - power)

    def excess(x: float) -> float:
        return (
            z_alpha * math.sqrt(_null_variance(k)) + z_beta * math.sqrt(obuchowski_variance(x, k))
        ) ** 2 / (x - 0.5) ** 2 - cases

    lo, hi = 0.5 + 1e-12, 1 - 1e-16
    if excess(hi) > 0:
        raise InputError("power: no AUC below 1 reaches that power with so few cases")
    for _ in range(200):
        mid = (lo + hi) / 2
        if excess(mid) > 0:
            lo = mid
        else:
            hi = mid
    return Power((lo + hi) / 2, cases, controls, _sig(alpha, two), power, alternative, solved)


def completed(
    cases: float | None, controls: float | None, kappa: float | None
) -> tuple[float | None, float | None]:
    """The cases and controls, one of them from the other and ``kappa`` (controls per
    case) where only one is given."""
    if cases is None and controls is not None and kappa is not None:
        return controls / kappa, controls
    if controls is None and cases is not None and kappa is not None:
        return cases, kappa * cases
    return cases, controls


def one_left(absent: tuple[tuple[str, bool], ...], power: float | None, words: str) -> str:
    """The one quantity left out to solve for (``absent``, with the power after them),
    or an InputError saying what to give (``words``: all of them, in a phrase)."""
    missing = [name for name, gone in (*absent, ("power", power is None)) if gone]
    if len(missing) != 1:
        left = "nothing is left to solve for" if not missing else f"left out: {', '.join(missing)}"
        raise InputError(f"power: give all but one of {words}; {left}")
    return missing[0]


def _shown(p: float) -> str:
    """A probability to 7 significant digits, never rounded to 1 or 0 when it is not."""
    if p >= 1 - 5e-8:  # 1 itself only by rounding: a power is below 1
        return "> 0.9999999"
    if 0 < p < 1e-12:
        return "< 1e-12"
    return f"{p:.7g}"


def _sig(alpha: float, two: bool) -> float:
    return alpha * 2 if two else alpha


def _cases(auc: float, kappa: float, alpha: float, power: float) -> float:
    z_alpha, z_beta = _N.inv_cdf(alpha), _N.inv_cdf(1 - power)
    v0, vt = _null_variance(kappa), obuchowski_variance(auc, kappa)
    return (z_alpha * math.sqrt(v0) + z_beta * math.sqrt(vt)) ** 2 / (auc - 0.5) ** 2


def _power(auc: float, cases: float, kappa: float, alpha: float) -> float:
    vt, v0 = obuchowski_variance(auc, kappa), _null_variance(kappa)
    zar = _N.inv_cdf(alpha) * math.sqrt(v0)
    z_beta = _lower_root(vt, 2 * zar * math.sqrt(vt), zar * zar - cases * (auc * auc - auc + 0.25))
    return 1 - _N.cdf(z_beta)
