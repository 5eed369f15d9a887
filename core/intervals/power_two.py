"""Two ROC curves' power and sample size, as pROC's ``power.roc.test(roc1, roc2)`` and
its parameter-list form compute them.

The test is of the difference δ of two paired AUCs. With V₁, V₂ the AUCs' variances
and C their covariance, each times the number of cases (so per case), the variance
of the difference is Vₐ = V₁ + V₂ − 2C and under the null V₀ = 2V₁ − 2C; then with
n cases, z_α + z_β relate by |δ|·√n = z_α·√V₀ + z_β·√Vₐ (z_α at α/2 for a two-sided
test), solved for the power, the cases or the significance level.

From data (two models' scores of the same rows) V₁, V₂ and C are DeLong's. From
parameters they are Obuchowski and McClish's for a binormal model of each curve
(``a1``, ``b1``, ``a2``, ``b2``: Φ⁻¹(TPR) = a + b·Φ⁻¹(FPR)), the correlations of the
two models' scores among the cases (``ra``) and the controls (``rn``), and κ controls
per case; a partial AUC over FPR in [e₁, e₂] uses their partial forms.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

from threshold_lab.core.errors import InputError
from threshold_lab.core.intervals.power import completed, level_and_power_lines, one_left
from threshold_lab.core.metrics.metric import count_json

_N = NormalDist()

#: (V₁, V₂, C) per case for κ controls per case.
Covariances = Callable[[float], tuple[float, float, float]]


def _f(a: float, b: float, fpr: tuple[float, float] | None) -> float:
    e = math.exp(-(a * a) / (2 * (1 + b * b)))
    out = e / math.sqrt(2 * math.pi * (1 + b * b))
    if fpr is None:
        return out
    c1, c2 = (_c(a, b, f) for f in fpr)
    return out * (_N.cdf(c1) - _N.cdf(c2))


def _c(a: float, b: float, fpr: float) -> float:
    """Obuchowski and McClish's c† at an FPR end (−inf at 0)."""
    z = -math.inf if fpr <= 0 else math.inf if fpr >= 1 else _N.inv_cdf(fpr)
    return (z + a * b / (1 + b * b)) * math.sqrt(1 + b * b)


def _g(a: float, b: float, fpr: tuple[float, float] | None) -> float:
    e = math.exp(-(a * a) / (2 * (1 + b * b)))
    whole = -e * a * b / math.sqrt(2 * math.pi * (1 + b * b) ** 3)
    if fpr is None:
        return whole
    c1, c2 = (_c(a, b, f) for f in fpr)
    tails = math.exp(-c1 * c1 / 2) - math.exp(-c2 * c2 / 2)
    # pROC's sign of the first term (its source notes it departs from the paper).
    return e / (2 * math.pi * (1 + b * b)) * (-tails) + whole * (_N.cdf(c1) - _N.cdf(c2))


def binormal_variance(a: float, b: float, kappa: float, fpr: tuple[float, float] | None) -> float:
    """The AUC's variance per case under the binormal model (Obuchowski and McClish)."""
    f, g = _f(a, b, fpr), _g(a, b, fpr)
    return f * f * (1 + b * b / kappa + a * a / 2) + g * g * b * b * (1 + kappa) / (2 * kappa)


def binormal_covariance(
    one: tuple[float, float],
    two: tuple[float, float],
    rn: float,
    ra: float,
    kappa: float,
    fpr: tuple[float, float] | None,
) -> float:
    """The two AUCs' covariance per case under the binormal model."""
    (a1, b1), (a2, b2) = one, two
    f1, f2, g1, g2 = _f(a1, b1, fpr), _f(a2, b2, fpr), _g(a1, b1, fpr), _g(a2, b2, fpr)
    return (
        f1 * f2 * (ra + rn * b1 * b2 / kappa + ra * ra * a1 * a2 / 2)
        + g1 * g2 * (b1 * b2 * (rn * rn + kappa * ra * ra) / (2 * kappa))
        + f1 * g2 * (ra * ra * a1 * b2 / 2)
        + f2 * g1 * (ra * ra * a2 * b1 / 2)
    )


def from_parameters(
    one: tuple[float, float],
    two: tuple[float, float],
    rn: float,
    ra: float,
    fpr: tuple[float, float] | None = None,
) -> Covariances:
    """(V₁, V₂, C) per case of two binormal curves, for any κ."""
    for name, r in (("rn", rn), ("ra", ra)):
        if not -1 <= r <= 1:
            raise InputError(f"power: {name} {r:g} is a correlation: give one from -1 to 1")
    return lambda kappa: (
        binormal_variance(*one, kappa, fpr),
        binormal_variance(*two, kappa, fpr),
        binormal_covariance(one, two, rn, ra, kappa, fpr),
    )


@dataclass(frozen=True)
class TwoPower:
    """Two ROC curves' power calculation: what was given and what was solved for."""

    aucs: tuple[float, float] | None
    delta: float
    cases: float
    controls: float
    sig_level: float
    power: float
    alternative: str
    solved_for: str
    variances: tuple[float, float, float]
    power_at_whole: float | None = None
    method: str = "Two ROC curves power calculation"
    #: A sample size solved for, before rounding up (pROC's own numbers).
    unrounded: tuple[float, float] | None = None
    #: The two models' names (from data), and the FPR range of partial AUCs (or None).
    models: tuple[str, str] | None = None
    region: tuple[float, float] | None = None

    def as_json(self) -> dict[str, Any]:
        v1, v2, c = self.variances
        return {
            "method": self.method,
            "auc": None if self.aucs is None else list(self.aucs),
            "delta": self.delta,
            "cases": count_json(self.cases),
            "controls": count_json(self.controls),
            "sig_level": self.sig_level,
            "power": self.power,
            "alternative": self.alternative,
            "solved_for": self.solved_for,
            "power_at_whole": self.power_at_whole,
            "variance_per_case": {"auc1": v1, "auc2": v2, "covariance": c},
            "models": None if self.models is None else list(self.models),
            "partial_auc": None
            if self.region is None
            else {"focus": "fpr", "low": self.region[0], "high": self.region[1]},
            "cases_unrounded": None if self.unrounded is None else self.unrounded[0],
            "controls_unrounded": None if self.unrounded is None else self.unrounded[1],
        }

    def lines(self) -> list[str]:
        whole = self.solved_for == "sample size"
        c = f"{self.cases:.0f}" if whole else f"{self.cases:g}"
        k = f"{self.controls:.0f}" if whole else f"{self.controls:g}"
        what = "AUCs" if self.region is None else "partial AUCs"
        if self.region is not None:
            what += f" (FPR {self.region[0]:g} to {self.region[1]:g})"
        if self.aucs is not None:
            what += f" {self.aucs[0]:.6g} and {self.aucs[1]:.6g}"
        said = f"{what}, " if self.aucs is not None or self.region is not None else ""
        head = self.method + (
            "" if self.models is None else f", {self.models[0]} against {self.models[1]}"
        )
        return [
            head + ":",
            f"  {said}difference {self.delta:.6g}",
            f"  cases {c}, controls {k}" + (" (solved for, rounded up)" if whole else ""),
            *level_and_power_lines(
                self.sig_level, self.alternative, self.power, self.solved_for, self.power_at_whole
            ),
        ]


def _z_power(n: float, delta: float, z_alpha: float, v0: float, va: float) -> float:
    return (math.sqrt(n * delta * delta) - z_alpha * math.sqrt(v0)) / math.sqrt(va)


def power_two(
    covariances: Covariances,
    delta: float,
    *,
    cases: float | None,
    controls: float | None,
    kappa: float | None,
    sig_level: float | None,
    power: float | None,
    alternative: str,
    aucs: tuple[float, float] | None = None,
    method: str = "Two ROC curves power calculation",
    models: tuple[str, str] | None = None,
    region: tuple[float, float] | None = None,
) -> TwoPower:
    """Solve for the one of the sample size (``cases`` and ``controls``, or one with
    ``kappa``), ``sig_level`` and ``power`` left out (module note)."""
    if not math.isfinite(delta) or delta == 0:
        raise InputError(
            "power: the two AUCs' difference is 0, so no sample size detects it; give "
            "curves that differ (or --delta)"
        )
    for name, v in (("power", power), ("sig_level", sig_level)):
        if v is not None and not 0 < v < 1:
            raise InputError(f"power: {name} {v:g} should be strictly between 0 and 1")
    cases, controls = completed(cases, controls, kappa)
    sizes = cases is not None and controls is not None
    solved = one_left(
        (("sample size", not sizes), ("sig_level", sig_level is None)),
        power,
        "the sample size, the significance level and the power",
    )
    two = alternative == "two-sided"
    half = None if sig_level is None else (sig_level / 2 if two else sig_level)
    k = (controls / cases) if sizes and cases and controls else (1.0 if kappa is None else kappa)
    v1, v2, c12 = covariances(k)
    v0, va = 2 * v1 - 2 * c12, v1 + v2 - 2 * c12
    if not v0 > 0:
        raise InputError(
            f"power: the difference's variance under the null, 2·V1 − 2·C = {v0:.3g}, is "
            "not positive for these curves (the covariance is as large as the first AUC's "
            "variance), so the formula does not apply (pROC gives NaN)"
        )
    if not va > 0:
        raise InputError(
            f"power: the difference's variance, V1 + V2 − 2·C = {va:.3g}, is not positive "
            "for these curves, so the formula does not apply (pROC gives NaN)"
        )
    out = {
        "variances": (v1, v2, c12),
        "aucs": aucs,
        "method": method,
        "models": models,
        "region": region,
    }
    if solved == "sample size":
        assert half is not None and power is not None
        z_alpha, z_beta = _N.inv_cdf(1 - half), _N.inv_cdf(power)
        need = (z_alpha * math.sqrt(v0) + z_beta * math.sqrt(va)) ** 2 / (delta * delta)
        whole_cases = math.ceil(need - 1e-9)
        whole_controls = math.ceil(k * need - 1e-9)
        at = _N.cdf(_z_power(whole_cases, delta, z_alpha, v0, va))
        return TwoPower(
            delta=delta,
            cases=whole_cases,
            controls=whole_controls,
            sig_level=sig_level or 0.0,
            power=power,
            alternative=alternative,
            solved_for=solved,
            power_at_whole=at,
            unrounded=(need, k * need),
            **out,  # type: ignore[arg-type]
        )
    assert cases is not None and controls is not None
    if solved == "power":
        assert half is not None and sig_level is not None
        z = _z_power(cases, delta, _N.inv_cdf(1 - half), v0, va)
        return TwoPower(
            delta=delta,
            cases=cases,
            controls=controls,
            sig_level=sig_level,
            power=_N.cdf(z),
            alternative=alternative,
            solved_for=solved,
            **out,  # type: ignore[arg-type]
        )
    assert power is not None
    z_alpha = (math.sqrt(cases * delta * delta) - _N.inv_cdf(power) * math.sqrt(va)) / math.sqrt(v0)
    level = 1 - _N.cdf(z_alpha)
    return TwoPower(
        delta=delta,
        cases=cases,
        controls=controls,
        sig_level=level * 2 if two else level,
        power=power,
        alternative=alternative,
        solved_for=solved,
        **out,  # type: ignore[arg-type]
    )
