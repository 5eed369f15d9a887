"""Every p-value goes through core/intervals/pvalues.py, checked against scipy: the normal
tail to 1e-12 relative out to z = 38 (its logarithm beyond), McNemar's exact tail."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.stats import binomtest, norm
from threshold_lab.core.compare.paired import paired_delong
from threshold_lab.core.intervals.pvalues import binomial_two_sided, normal_two_sided


@pytest.mark.parametrize("z", [*np.linspace(0, 37.5, 751).tolist(), -3.0, -12.77, -37.0])
def test_the_normal_tail_is_scipys(z: float) -> None:
    p = normal_two_sided(z)
    want = 2 * norm.sf(abs(z))
    assert p.value == pytest.approx(want, rel=1e-12, abs=0)
    want_log10 = (norm.logsf(abs(z)) + math.log(2)) / math.log(10)
    assert p.log10 == pytest.approx(min(want_log10, 0.0), rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("z", [37.8, 38.0, 45.0, 80.0, 300.0])
def test_past_a_doubles_range_the_logarithm_still_holds(z: float) -> None:
    p = normal_two_sided(z)
    want_log10 = (norm.logsf(z) + math.log(2)) / math.log(10)
    assert p.log10 == pytest.approx(want_log10, rel=1e-12)
    assert p.text().startswith("p = ") and "e-" in p.text()


def test_the_tail_does_not_cancel_at_large_z() -> None:
    # 1 − Φ(|z|) was 2% low at z = 8 and exactly 0 from z ≈ 9.
    assert normal_two_sided(8.0).value == pytest.approx(2 * norm.sf(8.0), rel=1e-12)
    p = normal_two_sided(12.77)
    assert p.value > 0 and p.text() == "p = 2.41e-37"


@pytest.mark.parametrize(
    ("b", "c"), [(0, 0), (1, 5), (3, 3), (0, 10), (40, 90), (700, 1100), (1500, 2500), (2, 4000)]
)
def test_mcnemar_is_the_exact_binomial_tail(b: int, c: int) -> None:
    p = binomial_two_sided(b, c)
    want = 1.0 if b + c == 0 else binomtest(min(b, c), b + c, 0.5).pvalue
    if want > 1e-300:
        assert p.value == pytest.approx(want, rel=1e-9)
    if p.value > 0:
        assert p.log10 == pytest.approx(math.log10(p.value), rel=1e-9, abs=1e-12)


def test_a_strong_difference_of_two_models_has_a_p_value_not_zero() -> None:
    rng = np.random.default_rng(28)
    y = rng.random(5000) < 0.3
    a = rng.normal(0, 1, 5000) + 2.0 * y
    b = rng.normal(0, 1, 5000) + 0.8 * y
    d, why = paired_delong(a, b, y)
    assert d is not None and why is None and d.z is not None and d.z > 9
    assert d.p.value == pytest.approx(2 * norm.sf(d.z), rel=1e-12) and d.p.value > 0
    assert d.p.log10 == pytest.approx((norm.logsf(d.z) + math.log(2)) / math.log(10), rel=1e-12)
