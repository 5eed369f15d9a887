"""Two paired ROC curves' power and sample size, as pROC 1.18's power.roc.test(roc1,
roc2) and its parameter list give them (values from pROC itself), each solve undoing
the others, and the refusals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.errors import InputError
from threshold_lab.core.intervals.power_two import from_parameters, power_two
from threshold_lab.tui.cli import main

import threshold_lab as tl
from tests.paths import ROOT

PARAMS: dict[str, Any] = {
    "a1": 2.6,
    "b1": 1,
    "a2": 1.9,
    "b2": 1,
    "rn": 0.6,
    "ra": 0.6,
    "delta": 0.037,
}


@pytest.fixture
def asah(tmp_path: Path) -> str:
    """aSAH's s100b and ndka as two models of the same rows (score_ columns)."""
    rows = (ROOT / "tests" / "data" / "asah.csv").read_text().splitlines()[1:]
    out = ["label,score_s100b,score_ndka"]
    for r in rows:
        outcome, _, s100b, ndka = r.split(",")
        out.append(f"{int(outcome == 'Poor')},{s100b},{ndka}")
    path = tmp_path / "asah2.csv"
    path.write_text("\n".join(out) + "\n")
    return str(path)


def _pair(tmp_path: Path, one: str, two: str) -> str:
    rows = (ROOT / "tests" / "data" / "asah.csv").read_text().splitlines()
    head = rows[0].split(",")
    out = [f"label,score_{one},score_{two}"]
    for r in rows[1:]:
        v = dict(zip(head, r.split(","), strict=True))
        out.append(f"{int(v['outcome'] == 'Poor')},{v[one]},{v[two]}")
    path = tmp_path / f"{one}_{two}.csv"
    path.write_text("\n".join(out) + "\n")
    return str(path)


def test_procs_own_tests_hold(tmp_path: Path) -> None:
    """pROC's tests/testthat/test-power.roc.test.R, as fixed numbers."""
    nw = _pair(tmp_path, "ndka", "wfns")
    assert tl.power(from_file=nw).power == pytest.approx(0.7131594, abs=1e-6)
    ob = tl.power(from_file=nw, power_method="obuchowski")
    assert ob.power == pytest.approx(0.8061004, abs=1e-6)
    sized = tl.power(from_file=nw, power=0.9)
    assert sized.unrounded == pytest.approx((64.77777, 113.7561), abs=1e-4)
    sized = tl.power(from_file=nw, power=0.9, power_method="obuchowski")
    assert sized.unrounded == pytest.approx((53.23685, 93.48911), abs=1e-4)
    level = tl.power(from_file=nw, power=0.9, cases=41, controls=72)
    assert level.sig_level == pytest.approx(0.1836639, abs=1e-6)
    level = tl.power(from_file=nw, power=0.9, cases=41, controls=72, power_method="obuchowski")
    assert level.sig_level == pytest.approx(0.1150686, abs=1e-6)
    partial = tl.power(
        from_file=_pair(tmp_path, "wfns", "ndka"),
        power=0.9,
        power_method="obuchowski",
        partial_auc="fpr:0-0.1",
    )
    assert partial.unrounded == pytest.approx((0.5061498, 0.8888484), abs=1e-6)
    p = {**PARAMS, "delta": 0.037}
    part = tl.power(**p, power=0.8, partial_auc="fpr:0-0.2")
    assert part.unrounded == pytest.approx((107.0238, 107.0238), abs=1e-4)
    level = tl.power(**p, power=0.8, cases=107, controls=107, partial_auc="fpr:0-0.2")
    assert level.sig_level == pytest.approx(0.05004012, abs=1e-7)
    at = tl.power(**p, cases=107, controls=107, partial_auc="fpr:0-0.2")
    assert at.power == pytest.approx(0.7999286, abs=1e-6)
    one = tl.power(auc=0.7313686, power=0.95, kappa=1.7)
    assert one.unrounded == pytest.approx((29.29764, 49.806), abs=1e-4)


def test_from_data_it_is_procs_on_asah(asah: str) -> None:
    # power.roc.test(roc(outcome, s100b), roc(outcome, ndka)) and with power = 0.9
    assert tl.power(from_file=asah).power == pytest.approx(0.30906243063217, abs=1e-9)
    sized = tl.power(from_file=asah, power=0.9)
    assert (sized.cases, sized.controls) == (214, 375)  # 213.1177, 374.2554 rounded up
    level = tl.power(from_file=asah, power=0.9, cases=41, controls=72)
    assert level.sig_level == pytest.approx(0.909788999461354, abs=1e-9)


def test_from_parameters_it_is_procs_documented_example() -> None:
    sized = tl.power(**PARAMS, power=0.8)
    assert sized.cases == 166 and sized.controls == 166  # 165.760455
    at = tl.power(**PARAMS, cases=107, controls=321)
    assert at.power == pytest.approx(0.694258791420184, abs=1e-9)
    part = tl.power(**PARAMS, power=0.8, partial_auc="fpr:0-0.2")
    assert part.cases == 108  # 107.02375
    level = tl.power(**PARAMS, cases=107, controls=321, power=0.8)
    assert level.sig_level == pytest.approx(0.160493688116635, abs=1e-9)


@settings(max_examples=60, deadline=None)
@given(
    st.floats(0.5, 3),
    st.floats(0.5, 2),
    st.floats(0.2, 2.5),
    st.floats(0.5, 2),
    st.floats(-0.5, 0.9),
    st.floats(-0.5, 0.9),
    st.floats(0.02, 0.2),
    st.floats(0.5, 3),
)
def test_each_solve_undoes_the_others(
    a1: float, b1: float, a2: float, b2: float, rn: float, ra: float, delta: float, k: float
) -> None:
    cv = from_parameters((a1, b1), (a2, b2), rn, ra)
    v1, v2, c = cv(k)
    if not (2 * v1 - 2 * c > 1e-9 and v1 + v2 - 2 * c > 1e-9):
        return
    p = power_two(
        cv,
        delta,
        cases=80,
        controls=80 * k,
        kappa=None,
        sig_level=0.05,
        power=None,
        alternative="two-sided",
    )
    if not 0.01 < p.power < 0.99:
        return
    level = power_two(
        cv,
        delta,
        cases=80,
        controls=80 * k,
        kappa=None,
        sig_level=None,
        power=p.power,
        alternative="two-sided",
    )
    assert level.sig_level == pytest.approx(0.05, rel=1e-9)
    sized = power_two(
        cv,
        delta,
        cases=None,
        controls=None,
        kappa=k,
        sig_level=0.05,
        power=p.power,
        alternative="two-sided",
    )
    assert sized.cases == int(np.ceil(80 - 1e-9)) and sized.power_at_whole is not None


def test_the_json_and_the_refusals(asah: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["power", "--from", asah, "--power", "0.9", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["solved_for"] == "sample size" and len(out["auc"]) == 2
    assert set(out["variance_per_case"]) == {"auc1", "auc2", "covariance"}
    for argv, said in (
        (["--a1", "2"], "give --b1, --a2, --b2, --rn, --ra, --delta"),
        (["--from", asah, "--auc", "0.7"], "--auc is one curve's"),
        (["--from", asah, "--partial-auc", "fpr:0-0.2"], "variances are of the full AUCs"),
        (
            ["--auc", "0.7", "--cases", "20", "--controls", "20", "--partial-auc", "fpr:0-0.1"],
            "two curves' test",
        ),
        (
            [*(w for k, v in PARAMS.items() for w in (f"--{k}", str(v))), "--rn", "2"],
            "rn 2 is a correlation",
        ),
    ):
        assert main(["power", *argv]) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err
    with pytest.raises(InputError, match="difference is 0"):
        power_two(
            from_parameters((1, 1), (1, 1), 0.5, 0.5),
            0.0,
            cases=50,
            controls=50,
            kappa=None,
            sig_level=0.05,
            power=None,
            alternative="two-sided",
        )


def test_a_and_b_take_both_curves_as_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    paired = tl.power(a=(2.6, 1.9), b="1,1", rn=0.6, ra=0.6, delta=0.037, power=0.8)
    assert paired.cases == tl.power(**PARAMS, power=0.8).cases == 166
    argv = ["power", "--a", "2.6,1.9", "--b", "1,1", "--rn", "0.6", "--ra", "0.6"]
    assert main([*argv, "--delta", "0.037", "--power", "0.8", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["cases"] == 166
    for extra, said in (
        (["--a1", "2"], "give --a A1,A2 or --a1 and --a2, not both"),
        (["--a", "2.6"], "give two numbers, the first curve's and the second's"),
    ):
        assert main([*argv, "--delta", "0.037", "--power", "0.8", *extra]) == 2
        assert said in capsys.readouterr().err


def test_what_a_newcomer_tried(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A file's own columns, a third model, parameters beside a file, a partial range
    said, and a null variance that is not positive."""
    asah = str(ROOT / "tests" / "data" / "asah.csv")
    cols = ["--label-column", "outcome", "--positive", "Poor"]
    argv = ["power", "--from", asah, *cols, "--score-column", "s100b", "--score-column", "ndka"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith("Two ROC curves power calculation (DeLong's variances, as pROC), s100b")
    assert "  power 0.3090624 (solved for)" in out
    three = _pair(tmp_path, "s100b", "ndka").replace(".csv", "")
    rows = Path(three + ".csv").read_text().splitlines()
    Path(three + "3.csv").write_text(
        "\n".join([rows[0] + ",score_c", *(r + ",0.5" for r in rows[1:])]) + "\n"
    )
    for argv, said in (
        (["--from", three + "3.csv"], "has 3 models (s100b, ndka, c); the test is of two"),
        (
            ["--from", three + ".csv", *(w for k, v in PARAMS.items() for w in ("--" + k, str(v)))],
            "give two curves' parameters (--a1 ... --delta) or --from rows, not both",
        ),
        (
            [
                "--from",
                three + ".csv",
                "--power-method",
                "obuchowski",
                "--partial-auc",
                "fpr:0-0.1",
                "--power",
                "0.9",
            ],
            "variance under the null, 2·V1 − 2·C = ",
        ),
    ):
        assert main(["power", *argv]) == 2
        err = capsys.readouterr().err
        assert said in err and err.count("\n") == 1, err
    part = tl.power(
        from_file=_pair(tmp_path, "s100b", "ndka"),
        power_method="obuchowski",
        partial_auc="fpr:0-0.5",
        power=0.9,
    )
    assert part.lines()[1].startswith("  partial AUCs (FPR 0 to 0.5) ")
    assert part.as_json()["partial_auc"] == {"focus": "fpr", "low": 0.0, "high": 0.5}
    assert part.as_json()["models"] == ["s100b", "ndka"]


def test_obuchowski_from_rows_too_few_points_says_which_model(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = (
        "label,score_a,score_b\n1,0.9,0.5\n1,0.8,0.5\n1,0.4,0.5\n0,0.3,0.2\n0,0.2,0.1\n0,0.6,0.3\n"
    )
    path = tmp_path / "few.csv"
    path.write_text(rows)
    assert main(["power", "--from", str(path), "--power-method", "obuchowski"]) == 2
    err = capsys.readouterr().err
    assert "fits each curve's binormal line, and the first model's ROC curve has 1 point" in err
    assert "RuntimeWarning" not in err and err.count("\n") == 1
