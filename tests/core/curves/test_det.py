"""The DET curve's points against scikit-learn's ``det_curve``, and the probit against
scipy's ``ndtri`` (both test-only oracles)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special
from sklearn import metrics as skm
from threshold_lab.core.curves.det import det_points, det_span, normal_cdf, placeable, probit
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset

from tests.strategies import examples, tied_scores

weights_st = st.lists(st.floats(0.05, 10.0), min_size=40, max_size=40)


@settings(max_examples=150, deadline=None)
@given(examples(both_classes=True), st.one_of(st.none(), weights_st))
def test_det_points_are_scikit_learns(ex, weights) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    w = None if weights is None else np.array(weights[: len(s)])
    ours = det_points(build_sweep(make_dataset(s, y, weights=w)))
    fpr, fnr, thr = skm.det_curve(y, s, sample_weight=w)
    assert ours is not None
    np.testing.assert_allclose(ours[0], fpr, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ours[1], fnr, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(ours[2], thr)


@settings(max_examples=100, deadline=None)
@given(examples(scores=tied_scores, both_classes=True))
def test_det_points_do_not_follow_row_order(ex) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    order = np.random.default_rng(len(s)).permutation(len(s))
    a = det_points(build_sweep(make_dataset(s, y)))
    b = det_points(build_sweep(make_dataset(s[order], y[order])))
    assert a is not None and b is not None
    for u, v in zip(a, b, strict=True):
        np.testing.assert_array_equal(u, v)


def test_one_class_has_no_det_curve() -> None:
    assert det_points(build_sweep(make_dataset(np.array([0.2, 0.4]), np.array([1, 1])))) is None


@settings(max_examples=60, deadline=None)
@given(examples(both_classes=True))
def test_placeable_points_are_those_with_both_rates_strictly_inside(ex) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    sweep = build_sweep(make_dataset(s, y))
    fpr, tpr = sweep.fp / sweep.negatives, sweep.tp / sweep.positives
    fnr = 1 - tpr
    want = (fpr > 0) & (fpr < 1) & (fnr > 0) & (fnr < 1)
    assert placeable(sweep).tolist() == want.tolist()
    first, stop = det_span(sweep)
    assert not want[:first].any() and not want[stop:].any()


@given(st.floats(1e-300, 1 - 1e-16))
def test_probit_is_scipys_ndtri(p: float) -> None:
    assert float(probit(p)) == pytest.approx(float(special.ndtri(p)), rel=1e-13, abs=1e-13)


def test_probit_at_the_ends_and_outside() -> None:
    assert probit([0.0, 1.0]).tolist() == [-np.inf, np.inf]
    assert np.isnan(probit([-0.1, 1.5])).all()
    assert probit(np.zeros(0)).shape == (0,)


@given(st.floats(-30, 30))
def test_normal_cdf_is_scipys_ndtr(z: float) -> None:
    assert float(normal_cdf(z)) == pytest.approx(float(special.ndtr(z)), rel=1e-12, abs=1e-300)
