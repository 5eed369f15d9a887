"""DeLong's variance of each AUC and their covariance (pROC's var and cov), against a
brute force of the structural components over every positive-negative pair."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.compare.paired import paired_delong


def _components(s: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray, float]:
    pos, neg = s[y], s[~y]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    return psi.mean(axis=1), psi.mean(axis=0), float(psi.mean())


def _var_cov(a: np.ndarray, b: np.ndarray, y: np.ndarray) -> tuple[float, float, float]:
    v10a, v01a, auc_a = _components(a, y)
    v10b, v01b, auc_b = _components(b, y)
    m, n = v10a.shape[0], v01a.shape[0]

    def s(x: np.ndarray, ax: float, z: np.ndarray, az: float, k: int) -> float:
        return float(((x - ax) * (z - az)).sum() / (k - 1))

    var_a = s(v10a, auc_a, v10a, auc_a, m) / m + s(v01a, auc_a, v01a, auc_a, n) / n
    var_b = s(v10b, auc_b, v10b, auc_b, m) / m + s(v01b, auc_b, v01b, auc_b, n) / n
    cov = s(v10a, auc_a, v10b, auc_b, m) / m + s(v01a, auc_a, v01b, auc_b, n) / n
    return var_a, var_b, cov


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 10_000), st.integers(6, 80))
def test_each_auc_s_variance_and_their_covariance_are_delong_s(seed: int, n: int) -> None:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    if y.sum() < 2 or (~y).sum() < 2:
        return
    a = np.round(rng.normal(y * 1.0, 1.0), 1)  # ties, within and across classes
    b = np.round(a * 0.5 + rng.normal(y * 0.5, 1.0), 1)
    d, why = paired_delong(a, b, y)
    assert d is not None, why
    var_a, var_b, cov = _var_cov(a, b, y)
    assert d.var_a == pytest.approx(var_a, rel=1e-9, abs=1e-15)
    assert d.var_b == pytest.approx(var_b, rel=1e-9, abs=1e-15)
    assert d.cov == pytest.approx(cov, rel=1e-9, abs=1e-12)
    assert d.se**2 == pytest.approx(max(var_a + var_b - 2 * cov, 0.0), rel=1e-9, abs=1e-15)


def test_the_json_gives_var_by_model_and_cov_for_every_pair() -> None:
    import json

    import threshold_lab as tl

    rng = np.random.default_rng(5)
    y = rng.random(300) < 0.3
    scores = {"A": rng.normal(y * 1.2, 1.0), "B": rng.normal(y * 0.8, 1.0)}
    r = tl.report(y, scores)
    out = json.loads(r.to_json())
    pair = out["comparison"][0]["auc_difference"]
    var_a, var_b, cov = _var_cov(scores["A"], scores["B"], y)
    assert pair["var"]["A"] == pytest.approx(var_a, rel=1e-9)
    assert pair["var"]["B"] == pytest.approx(var_b, rel=1e-9)
    assert pair["cov"] == pytest.approx(cov, rel=1e-9)
