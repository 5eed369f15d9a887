"""The report's pROC answers at any coordinate and its smoothed curves, through every
front door: the JSON field names other programs read (``roc.ci_se``, ``roc.ci_sp``,
``roc.ci_thresholds``, ``roc.smoothed``, a comparison's ``sensitivity_difference`` and
``specificity_difference``), the Python API (``Report.smoothed``), the refusals, and
the intervals against an independent row bootstrap scored with scikit-learn."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from sklearn.metrics import roc_curve
from threshold_lab.tui.cli import main

import threshold_lab as tl
from tests.paths import ROOT

ASAH = str(ROOT / "tests" / "data" / "asah.csv")
ARGS = ["--label", "outcome", "--positive", "Poor"]


def _asah() -> tuple[np.ndarray, np.ndarray]:
    with open(ASAH) as f:
        rows = list(csv.DictReader(f))
    return (
        np.array([r["outcome"] == "Poor" for r in rows]).astype(int),
        np.array([float(r["s100b"]) for r in rows]),
    )


def _json(argv: list[str], capsys: pytest.CaptureFixture[str]) -> dict:  # type: ignore[type-arg]
    assert main(["report", ASAH, *ARGS, "--json", *argv]) == 0, capsys.readouterr().err
    out: dict = json.loads(capsys.readouterr().out)  # type: ignore[type-arg]
    return out


def test_intervals_at_coordinates_are_in_the_json_beside_the_readouts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = _json(
        ["--score", "s100b", "--ci-se", "0.8,0.9", "--ci-sp", "0.9", "--ci-thresholds", "0.5"],
        capsys,
    )
    roc = out["roc"]
    assert [r["specificity"] for r in roc["ci_se"]] == [0.8, 0.9]
    assert roc["ci_se"][1]["sensitivity"]["exact"] == "16/41"  # pROC's coords
    assert roc["ci_sp"][0]["specificity"]["exact"] == "83/360"
    at = roc["ci_thresholds"][0]
    assert at["threshold"] == 0.5 and at["sensitivity"]["exact"] == "12/41"
    interval = roc["ci_se"][1]["sensitivity"]["interval"]
    # No --bootstrap: the default replicates, seeded.
    assert interval["replicates"] == 1000 and interval["method"] == "bootstrap"
    assert interval["low"] <= 16 / 41 <= interval["high"]


def test_the_intervals_agree_with_a_row_bootstrap_scored_by_scikit_learn(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Percentile intervals of 2,000 replicates each: the ends agree within Monte-Carlo
    error (a step of the rates, 1/41 and 1/72, and some)."""
    out = _json(
        ["--score", "s100b", "--ci-se", "0.9", "--ci-thresholds", "0.2", "--bootstrap", "2000"],
        capsys,
    )
    y, s = _asah()
    rng = np.random.default_rng(11)
    pos, neg = np.flatnonzero(y == 1), np.flatnonzero(y == 0)
    se_at, se_thr, sp_thr = [], [], []
    for _ in range(2000):
        rows = np.r_[pos[rng.integers(0, 41, 41)], neg[rng.integers(0, 72, 72)]]
        yy, ss = y[rows], s[rows]
        fpr, tpr, _ = roc_curve(yy, ss, drop_intermediate=False)
        at = tpr[np.isclose(fpr, 0.1)]
        if at.size:
            se_at.append(at.max())
        else:
            i = int(np.searchsorted(fpr, 0.1, side="right"))
            se_at.append(
                tpr[i - 1] + (tpr[i] - tpr[i - 1]) * (0.1 - fpr[i - 1]) / (fpr[i] - fpr[i - 1])
            )
        se_thr.append(np.mean(ss[yy == 1] >= 0.2))
        sp_thr.append(np.mean(ss[yy == 0] < 0.2))
    checks = [
        (out["roc"]["ci_se"][0]["sensitivity"], se_at),
        (out["roc"]["ci_thresholds"][0]["sensitivity"], se_thr),
        (out["roc"]["ci_thresholds"][0]["specificity"], sp_thr),
    ]
    for field, values in checks:
        lo, hi = np.quantile(values, [0.025, 0.975])
        assert field["interval"]["low"] == pytest.approx(lo, abs=0.06)
        assert field["interval"]["high"] == pytest.approx(hi, abs=0.06)


def test_auc_interval_bootstrap_runs_the_bootstrap(capsys: pytest.CaptureFixture[str]) -> None:
    plain = _json(["--score", "s100b"], capsys)
    assert plain["roc"]["auc_bootstrap"]["interval"] is None
    booted = _json(["--score", "s100b", "--auc-interval", "bootstrap", "--seed", "3"], capsys)
    interval = booted["roc"]["auc_bootstrap"]["interval"]
    assert interval["replicates"] == 1000 and interval["seed"] == 3
    assert "ci_se" not in plain["roc"] and "smoothed" not in plain["roc"]


def test_smoothed_curves_are_named_and_never_replace_the_auc(
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = _json(["--score", "s100b", "--smooth", "binormal,density", "--bandwidth", "nrd"], capsys)
    binormal, density = out["roc"]["smoothed"]
    assert out["roc"]["auc"]["exact"] == "2159/2952"
    assert binormal["label"] == "smoothed (binormal)"
    assert binormal["auc"] == pytest.approx(0.740012862077311, abs=1e-12)  # pROC 1.18
    assert density["parameters"]["rule"] == "nrd" and len(density["fpr"]) == 514
    y, s = _asah()
    r = tl.report(y, s, smooth="normal")
    assert r.smoothed("normal").auc == pytest.approx(0.831051375175754, abs=1e-12)
    assert r.smoothed("density", bandwidth=0.1).parameters["bandwidth"] == 0.1
    assert "smoothed (binormal): ≈ 0.740013" in tl.report(y, s, smooth="binormal").text()
    with pytest.raises(tl.InputError, match="no actual negatives"):
        tl.report([1, 1, 1], [0.1, 0.2, 0.3]).smoothed("binormal")
    one_class = tl.report([1, 1, 1], [0.1, 0.2, 0.3], smooth="binormal").to_dict()
    assert one_class["roc"]["smoothed"][0]["auc"] is None


def test_two_models_get_the_rate_tests(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--score", "s100b", "--score", "ndka", "--test", "sensitivity,specificity"]
    out = _json([*argv, "--at-specificity", "0.9", "--at-sensitivity", "0.9"], capsys)
    x = out["comparison"][0]
    se, sp = x["sensitivity_difference"], x["specificity_difference"]
    assert se["at_specificity"] == 0.9 and sp["at_sensitivity"] == 0.9
    assert se["values"][0]["exact"] == "16/41"
    assert se["bootstrap"]["replicates"] == 1000 and 0 <= se["bootstrap"]["p_value"] <= 1
    assert "p_value_log10" in sp["bootstrap"]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--test", "sensitivity"], "--test sensitivity needs --at-specificity S"),
        (["--at-specificity", "0.9", "--test", "bootstrap"], "add --test sensitivity"),
        (["--smooth", "binormal", "--bandwidth", "0.1"], "add --smooth density"),
        (["--bandwidth", "SJ", "--smooth", "density"], "SJ selector is not built here"),
        (["--ci-se", "0.9,2"], "'2' is not a rate in [0, 1]"),
        (["--smooth", "loess"], "give binormal, density, normal"),
        (["--auc-interval", "wald"], "give one of delong, bootstrap"),
    ],
)
def test_bad_options_are_one_line_naming_what_is_wrong(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", ASAH, *ARGS, "--score", "s100b", "--score", "ndka", *argv]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_roc_figure_draws_each_smoothed_curve_beside_the_exact_one() -> None:
    y, s = _asah()
    r = tl.report(y, s, smooth=["binormal", "normal"])
    ax = r.figure("roc").axes[0]
    lines = {x.get_gid(): x for x in ax.get_lines()}
    for method in ("binormal", "normal"):
        x, yy = lines[f"roc::{method}"].get_data()
        assert np.array_equal(x, r.smoothed(method).fpr)
        assert np.array_equal(yy, r.smoothed(method).tpr)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert "smoothed (binormal): AUC ≈ 0.740 (a model)" in labels
    assert lines["roc::binormal"]._dash_pattern != lines["roc::normal"]._dash_pattern


def test_tests_need_two_models_and_venkatraman_is_two_sided(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["report", ASAH, *ARGS, "--score", "s100b", "--test", "bootstrap"]) == 2
    assert "--test bootstrap compares two models, and these rows have one" in (
        capsys.readouterr().err
    )
    two = ["report", ASAH, *ARGS, "--score", "s100b", "--score", "ndka"]
    assert main([*two, "--test", "venkatraman", "--alternative", "greater"]) == 2
    assert "--test venkatraman is two-sided only" in capsys.readouterr().err
    out = _json(
        ["--score", "s100b", "--score", "ndka", "--test", "sensitivity", "--at-specificity", "0"],
        capsys,
    )
    test = out["comparison"][0]["sensitivity_difference"]["bootstrap"]
    assert (
        test["p_value"] is None and "every replicate's difference was the same" in (test["reason"])
    )


def test_the_text_report_says_every_models_extras(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["--score", "s100b", "--score", "ndka", "--smooth", "binormal", "--ci-se", "0.9"]
    assert main(["report", ASAH, *ARGS, *argv]) == 0
    text = capsys.readouterr().out
    ndka = text[text.index("Model ndka") :]
    assert "ROC AUC, smoothed (binormal): ≈ 0.600570" in ndka  # pROC 1.18: 0.6005699
    assert "sensitivity at specificity 0.9: 8/41" in ndka
