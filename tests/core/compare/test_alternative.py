"""One-sided and unpaired DeLong tests, and McNemar's one-sided test:
pROC's published roc.test values on aSAH, scipy's t, normal and binomial tails."""

from __future__ import annotations

import csv
import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from threshold_lab.core.compare.paired import mcnemar, paired_delong, unpaired_delong
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.intervals.pvalues import binomial_p, normal_p, student_t_p
from threshold_lab.tui.cli import main

from tests.paths import DATA


def _asah() -> tuple[dict[str, np.ndarray], np.ndarray]:
    with (DATA / "asah.csv").open() as f:
        rows = list(csv.DictReader(f))
    y = np.array([r["outcome"] == "Poor" for r in rows])
    return {c: np.array([float(r[c]) for r in rows]) for c in ("wfns", "s100b", "ndka")}, y


# pROC tests/testthat/test-roc.test.R: roc.test(r.a, r.b[, paired = FALSE][, alternative]).
PAIRED = [
    ("wfns", "s100b", 2.20898359144091, 0.0271757822291882),
    ("wfns", "ndka", 2.79777591868904, 0.00514557970691098),
    ("ndka", "s100b", -1.39077002573558, 0.164295175223054),
]
UNPAIRED = [
    ("wfns", "s100b", 1.43490640926908, 0.152825378808796),
    ("wfns", "ndka", 3.10125096778969, 0.00220950791756457),
    ("ndka", "s100b", -1.55995743389685, 0.120192832430845),
]


@pytest.mark.parametrize(("a", "b", "z", "p"), PAIRED)
def test_paired_delong_is_procs(a: str, b: str, z: float, p: float) -> None:
    x, y = _asah()
    d, why = paired_delong(x[a], x[b], y)
    assert why is None and d is not None
    assert d.z == pytest.approx(z, abs=1e-12) and d.p.value == pytest.approx(p, rel=1e-10)


@pytest.mark.parametrize(("a", "b", "d_stat", "p"), UNPAIRED)
def test_unpaired_delong_is_procs_student_t(a: str, b: str, d_stat: float, p: float) -> None:
    x, y = _asah()
    sa, sb = (build_sweep(make_dataset(x[c], y)) for c in (a, b))
    d, why = unpaired_delong(sa, sb)
    assert why is None and d is not None and d.df is not None
    assert d.z == pytest.approx(d_stat, abs=1e-12) and d.p.value == pytest.approx(p, rel=1e-10)
    assert d.method == "unpaired DeLong"


def test_one_sided_tests_are_procs() -> None:
    x, y = _asah()
    greater, _ = paired_delong(x["wfns"], x["s100b"], y, alternative="greater")
    less, _ = paired_delong(x["wfns"], x["s100b"], y, alternative="less")
    assert greater is not None and less is not None
    assert greater.p.value == pytest.approx(0.0135878911145941, rel=1e-10)
    assert less.p.value == pytest.approx(0.986412108885406, rel=1e-10)
    sa, sb = (build_sweep(make_dataset(x[c], y)) for c in ("wfns", "s100b"))
    up_gt, _ = unpaired_delong(sa, sb, alternative="greater")
    up_lt, _ = unpaired_delong(sa, sb, alternative="less")
    assert up_gt is not None and up_lt is not None
    assert up_gt.p.value == pytest.approx(0.076412689404398, rel=1e-10)
    assert up_lt.p.value == pytest.approx(0.923587310595602, rel=1e-10)


def test_identical_curves_have_no_z_and_p_1() -> None:
    x, y = _asah()
    d, _ = paired_delong(x["wfns"], x["wfns"], y)
    assert d is not None and d.z is None and d.p.value == 1.0 and d.se == 0.0
    assert d.z_reason is not None and "difference and its SE are 0" in d.z_reason


def test_the_report_says_the_alternative_and_the_method(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "report",
        str(DATA / "asah.csv"),
        "--label-column",
        "outcome",
        "--positive",
        "Poor",
        "--score-column",
        "wfns",
        "--score-column",
        "s100b",
        "--json",
    ]
    assert main([*args, "--alternative", "greater"]) == 0
    c = json.loads(capsys.readouterr().out)["comparison"][0]
    auc = c["auc_difference"]
    assert (auc["method"], auc["alternative"]) == ("paired DeLong", "greater")
    assert auc["p_value"] == pytest.approx(0.0135878911145941, rel=1e-10)
    assert c["at_threshold"]["mcnemar"]["alternative"] == "greater"
    assert main([*args, "--unpaired"]) == 0
    auc = json.loads(capsys.readouterr().out)["comparison"][0]["auc_difference"]
    assert (auc["method"], auc["alternative"]) == ("unpaired DeLong", "two-sided")
    assert auc["z"] == pytest.approx(1.43490640926908, abs=1e-12)
    assert auc["df"] > 2
    assert main([*args, "--alternative", "bigger"]) == 2
    assert "alternative 'bigger' is not one of two-sided, greater, less" in capsys.readouterr().err


@settings(max_examples=300, deadline=None)
@given(st.floats(-40, 40), st.floats(0.5, 1e5), st.sampled_from(["two-sided", "greater", "less"]))
def test_the_t_and_normal_tails_are_scipys(t: float, df: float, alt: str) -> None:
    want_t = {
        "two-sided": 2 * stats.t.sf(abs(t), df),
        "greater": stats.t.sf(t, df),
        "less": stats.t.cdf(t, df),
    }[alt]
    got = student_t_p(t, df, alt)
    if want_t > 1e-290:
        assert got.value == pytest.approx(min(1.0, want_t), rel=1e-8)
    assert math.isfinite(got.log10) or got.value == 0
    want_z = {
        "two-sided": 2 * stats.norm.sf(abs(t)),
        "greater": stats.norm.sf(t),
        "less": stats.norm.cdf(t),
    }[alt]
    if want_z > 1e-290:
        assert normal_p(t, alt).value == pytest.approx(min(1.0, want_z), rel=1e-10)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 80), st.integers(0, 80), st.sampled_from(["greater", "less"]))
def test_mcnemars_one_sided_tail_is_scipys_binomial(b: int, c: int, alt: str) -> None:
    if b + c == 0:
        assert binomial_p(b, c, alt).value == 1.0
        return
    want = stats.binomtest(b, b + c, 0.5, alternative=alt).pvalue
    assert binomial_p(b, c, alt).value == pytest.approx(want, rel=1e-12)


def test_mcnemar_greater_means_model_a_right_more_often() -> None:
    y = np.array([True] * 8 + [False] * 2)
    pred_a = y.copy()  # a right everywhere
    pred_b = np.array([False] * 7 + [True] + [False] * 2)  # b misses 7 positives
    m, _ = mcnemar(pred_a, pred_b, y, alternative="greater")
    assert m is not None and (m.b, m.c) == (7, 0)
    assert m.p.value == pytest.approx(1 / 128)
