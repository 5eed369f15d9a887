"""Smoothed ROC curves: pROC 1.18's own numbers on aSAH (smooth(roc(outcome, s100b)),
R 4.2's density), scipy's normal distribution and an ordinary least-squares fit as
oracles, an exact sum of kernels for the density, and the invariants: whole weights are
repeated rows, row order never matters, a monotone map leaves the binormal curve be."""

from __future__ import annotations

import csv
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from threshold_lab.core.curves.smooth import (
    bandwidth_of,
    parse_bandwidth,
    parse_method,
    smooth,
    smoothed_or_why,
)
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.errors import InputError

from tests.paths import ROOT


def _asah() -> tuple[np.ndarray, np.ndarray]:
    with (ROOT / "tests" / "data" / "asah.csv").open() as f:
        rows = list(csv.DictReader(f))
    y = np.array([r["outcome"] == "Poor" for r in rows]).astype(int)
    return np.array([float(r["s100b"]) for r in rows]), y


# auc(smooth(roc(aSAH$outcome, aSAH$s100b), method = ...)) in pROC 1.18.0 on R 4.2.2;
# fitdistr is pROC's "normal" (its default density).
@pytest.mark.parametrize(
    ("method", "auc"),
    [
        ("binormal", 0.740012862077311),
        ("density", 0.724355068395993),
        ("normal", 0.831051375175754),
    ],
)
def test_the_area_is_procs_on_asah(method: str, auc: float) -> None:
    s, y = _asah()
    got = smooth(build_sweep(make_dataset(s, y)), method)
    assert got.auc == pytest.approx(auc, abs=1e-12)
    assert got.label == f"smoothed ({method})"
    assert got.fpr.shape == got.tpr.shape == (514,)
    assert (got.fpr[0], got.tpr[0], got.fpr[-1], got.tpr[-1]) == (0.0, 0.0, 1.0, 1.0)


def test_nrd0_is_rs_on_asah() -> None:
    s, _ = _asah()
    # bw.nrd0(c(controls, cases)) in R 4.2.2
    assert bandwidth_of(np.sort(s), np.ones(s.size), "nrd0") == pytest.approx(0.06262291, abs=5e-9)
    sd, q = np.std(s, ddof=1), np.percentile(s, [25, 75])
    assert bandwidth_of(np.sort(s), np.ones(s.size), "nrd") == pytest.approx(
        1.06 * min(sd, (q[1] - q[0]) / 1.34) * s.size**-0.2, rel=1e-12
    )


def _rows(seed: int, n: int = 200) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.35).astype(int)
    return np.round(rng.normal(0, 1, n) + 1.1 * y, 2), y


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_binormal_is_a_least_squares_line_on_the_deviate_scale(seed: int) -> None:
    s, y = _rows(seed)
    sweep = build_sweep(make_dataset(s, y))
    se = sweep.tp / sweep.positives
    sp = 1 - sweep.fp / sweep.negatives
    keep = (se > 0) & (se < 1) & (sp > 0) & (sp < 1)
    slope, intercept = np.polyfit(stats.norm.ppf(se[keep]), stats.norm.ppf(sp[keep]), 1)
    got = smooth(sweep, "binormal")
    assert got.parameters["a"] == pytest.approx(-intercept / slope, rel=1e-9)
    assert got.parameters["b"] == pytest.approx(-1 / slope, rel=1e-9)
    assert got.auc == pytest.approx(stats.norm.cdf(intercept / math.hypot(1, slope)), rel=1e-12)
    u = np.arange(512) / 511
    tpr = u[::-1]
    fpr = 1 - stats.norm.cdf(intercept + slope * stats.norm.ppf(tpr))
    assert np.allclose(got.tpr[1:-1], np.sort(tpr), atol=1e-12)
    assert np.allclose(got.fpr[1:-1], np.sort(fpr), atol=1e-12)


@pytest.mark.parametrize("seed", [4, 5])
def test_normal_reads_two_fitted_normals_on_the_scores_grid(seed: int) -> None:
    s, y = _rows(seed)
    got = smooth(build_sweep(make_dataset(s, y)), "normal")
    grid = np.linspace(s.min(), s.max(), 512)
    cases = stats.norm.pdf(grid, s[y == 1].mean(), s[y == 1].std())
    controls = stats.norm.pdf(grid, s[y == 0].mean(), s[y == 0].std())
    tpr = [cases[k:].sum() / cases.sum() for k in range(512)]
    spec = [controls[:k].sum() / controls.sum() for k in range(512)]
    assert np.allclose(got.tpr[1:-1], tpr[::-1], atol=1e-12)
    assert np.allclose(got.fpr[1:-1], 1 - np.array(spec[::-1]), atol=1e-12)
    fpr, t = got.fpr, got.tpr
    assert got.auc == pytest.approx(float(np.sum(np.diff(fpr) * (t[1:] + t[:-1]) / 2)), abs=1e-12)
    model = stats.norm.cdf(
        (s[y == 1].mean() - s[y == 0].mean()) / math.hypot(s[y == 1].std(), s[y == 0].std())
    )
    assert got.parameters["model_auc"] == pytest.approx(model, rel=1e-12)


@pytest.mark.parametrize("seed", [6, 7])
def test_density_is_near_the_exact_sum_of_kernels(seed: int) -> None:
    """R's binned kernel density is an approximation: within 10^-3 of the exact one."""
    s, y = _rows(seed)
    got = smooth(build_sweep(make_dataset(s, y)), "density", 0.3)
    grid = np.linspace(s.min() - 0.9, s.max() + 0.9, 512)

    def kde(x: np.ndarray) -> np.ndarray:
        return np.asarray(stats.norm.pdf(grid[:, None], x[None, :], 0.3).sum(axis=1))

    cases, controls = kde(s[y == 1]), kde(s[y == 0])
    tpr = np.array([cases[k:].sum() / cases.sum() for k in range(512)])
    spec = np.array([controls[:k].sum() / controls.sum() for k in range(512)])
    assert np.max(np.abs(got.tpr[1:-1] - tpr[::-1])) < 1e-3
    assert np.max(np.abs(got.fpr[1:-1] - (1 - spec[::-1]))) < 1e-3
    assert got.parameters["bandwidth"] == 0.3


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["binormal", "density", "normal"]))
def test_whole_weights_are_repeated_rows_and_order_never_matters(seed: int, method: str) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(8, 40))
    y = np.r_[1, 0, (rng.random(n - 2) < 0.5).astype(int)]
    s = np.round(rng.normal(0, 1, n) + y, 1)
    w = rng.integers(1, 4, n)
    weighted = smoothed_or_why(
        build_sweep(make_dataset(s, y, weights=w.astype(float))), method, "nrd0"
    )
    repeated = smoothed_or_why(
        build_sweep(make_dataset(np.repeat(s, w), np.repeat(y, w))), method, "nrd0"
    )
    order = rng.permutation(n)
    shuffled = smoothed_or_why(
        build_sweep(make_dataset(s[order], y[order], weights=w[order].astype(float))),
        method,
        "nrd0",
    )
    for other in (repeated, shuffled):
        assert type(other) is type(weighted)
        if hasattr(weighted, "auc"):
            assert other.auc == pytest.approx(weighted.auc, abs=1e-12)  # type: ignore[union-attr]
            assert np.allclose(other.tpr, weighted.tpr, atol=1e-12)  # type: ignore[union-attr]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000))
def test_a_monotone_map_leaves_the_binormal_curve_as_it_was(seed: int) -> None:
    s, y = _rows(seed, 60)
    one = smoothed_or_why(build_sweep(make_dataset(s, y)), "binormal", "nrd0")
    two = smoothed_or_why(build_sweep(make_dataset(np.exp(3 * s), y)), "binormal", "nrd0")
    assert type(one) is type(two)
    if hasattr(one, "auc"):
        assert two.auc == pytest.approx(one.auc, abs=1e-12)  # type: ignore[union-attr]


def test_what_cannot_be_smoothed_says_why() -> None:
    one_class = build_sweep(make_dataset(np.array([0.1, 0.5]), np.array([1, 1])))
    with pytest.raises(InputError, match="no actual negatives, so there is no ROC curve"):
        smooth(one_class, "density")
    two_points = build_sweep(make_dataset(np.array([0.1, 0.9]), np.array([0, 1])))
    with pytest.raises(InputError, match="has no point with"):
        smooth(two_points, "binormal")
    with pytest.raises(InputError, match="positives' scores are all equal"):
        smooth(build_sweep(make_dataset(np.array([0.1, 0.5, 0.5]), np.array([0, 1, 1]))), "normal")
    said = smoothed_or_why(two_points, "binormal", "nrd0")
    assert said.as_json()["auc"] is None and "has no point with" in said.as_json()["reason"]


def test_typed_methods_and_bandwidths() -> None:
    assert parse_method("density,binormal,density") == ("density", "binormal")
    assert parse_bandwidth("NRD") == "nrd" and parse_bandwidth("1/10") == 0.1
    for bad, said in (("ucv", "not built here"), ("-1", "positive number"), ("x", "nrd0")):
        with pytest.raises(InputError, match=said):
            parse_bandwidth(bad)
    with pytest.raises(InputError, match="give binormal, density, normal"):
        parse_method("loess")


def _ndka() -> tuple[np.ndarray, np.ndarray]:
    with (ROOT / "tests" / "data" / "asah.csv").open() as f:
        rows = list(csv.DictReader(f))
    y = np.array([r["outcome"] == "Poor" for r in rows]).astype(int)
    return np.array([float(r["ndka"]) for r in rows]), y


def test_procs_own_tests_hold() -> None:
    """pROC's tests/testthat/test-smooth.R: smooth(r.ndka, method = "fitdistr", n = 10)
    (normal densities); with n = 10, density (R 4.2's) and binormal from pROC 1.18."""
    s, y = _ndka()
    sweep = build_sweep(make_dataset(s, y))
    fitted = smooth(sweep, "normal", points=10)
    se = [
        1,
        1,
        0.65584212882921,
        0.303849532306639,
        0.0922807400203477,
        0.017547821937714,
        0.00203415264061833,
        0.000141550295211778,
        5.86072275643637e-06,
        1.43622216786009e-07,
        2.05997195401133e-09,
        0,
    ]
    sp = [0, 0, 0.961731211013412, 0.999999997253703, 1, 1, 1, 1, 1, 1, 1, 1]
    assert np.allclose(fitted.tpr, se[::-1], atol=1e-12, rtol=1e-8)
    assert np.allclose(fitted.fpr, 1 - np.array(sp[::-1]), atol=1e-12)
    assert fitted.auc == pytest.approx(0.814600645965216, abs=1e-12)
    density = smooth(sweep, "density", points=10)
    assert density.auc == pytest.approx(0.515210912152301, abs=1e-12)
    assert density.tpr[-3] == pytest.approx(0.9906659809825769, abs=1e-12)
    binormal = smooth(sweep, "binormal", points=10)
    assert binormal.auc == pytest.approx(0.600569923699544, abs=1e-12)
    assert np.allclose(binormal.tpr[1:-1], np.arange(10) / 9, atol=1e-12)
