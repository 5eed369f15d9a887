"""One ROC curve's power and sample size against pROC 1.18's documented values (its
power.roc.test help and the s100b curve of aSAH), and each solve against the others:
the power at a solved sample size, AUC or significance level is the power asked."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd  # type: ignore[import-untyped]  # no pandas-stubs installed
import pytest
from threshold_lab.core.errors import InputError
from threshold_lab.core.intervals.power import power_one

import threshold_lab as tl
from tests.paths import DATA


def test_proc_s_documented_powers() -> None:
    # power.roc.test(ncases=41, ncontrols=72, auc=0.73, sig.level=0.05)
    assert power_one(auc=0.73, cases=41, controls=72).power == pytest.approx(0.9897453, abs=1e-7)
    # power.roc.test(roc(aSAH$outcome, aSAH$s100b)): AUC 0.7314, 41 cases, 72 controls
    frame = pd.read_csv(DATA / "asah.csv")
    y = (frame["outcome"].str.strip() == "Poor").to_numpy()
    auc = tl.report(y, frame["s100b"].to_numpy()).roc_auc.value
    assert auc is not None
    p = power_one(auc=auc, cases=int(y.sum()), controls=int((~y).sum()))
    assert p.power == pytest.approx(0.9904833, abs=1e-7)


@pytest.mark.parametrize("auc", [0.58, 0.62, 0.66])
@pytest.mark.parametrize("alternative", ["two-sided", "one-sided"])
def test_each_solve_undoes_the_others(auc: float, alternative: str) -> None:
    base = power_one(auc=auc, cases=50, controls=80, alternative=alternative)
    # The AUC that reaches this power with these cases is the AUC given.
    back = power_one(cases=50, controls=80, power=base.power, alternative=alternative)
    assert back.auc == pytest.approx(auc, abs=1e-9)
    # The significance level that reaches it is 0.05.
    sig = power_one(
        auc=auc, cases=50, controls=80, power=base.power, sig_level=None, alternative=alternative
    )
    assert sig.sig_level == pytest.approx(0.05, abs=1e-9)
    # The sample size for this power, rounded up, reaches at least it.
    size = power_one(auc=auc, power=base.power, kappa=80 / 50, alternative=alternative)
    assert size.cases == int(size.cases) and size.cases <= 50
    assert size.power_at_whole is not None and size.power_at_whole >= base.power - 1e-12


def test_what_cannot_be_solved_is_one_line() -> None:
    with pytest.raises(InputError, match="left out: sample size, power"):
        power_one(auc=0.7)
    with pytest.raises(InputError, match="give both the cases and the controls"):
        power_one(auc=0.7, cases=40, power=0.9)
    with pytest.raises(InputError, match="not all three"):
        power_one(auc=0.7, cases=40, controls=50, kappa=2)
    with pytest.raises(InputError, match="no significance level below 1"):
        power_one(auc=0.73, cases=41, controls=72, power=0.999999, sig_level=None)
    with pytest.raises(InputError, match="nothing is left to solve for"):
        power_one(auc=0.7, cases=40, controls=40, power=0.9)
    with pytest.raises(InputError, match=r"above 0\.5 and below 1"):
        power_one(auc=0.4, cases=40, controls=40)


def test_the_command_line_the_api_and_plain_mode_agree(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import io

    from threshold_lab.tui.cli import main
    from threshold_lab.tui.plain import run_plain

    from tests.argv import opened

    argv = ["power", "--auc", "0.73", "--cases", "41", "--controls", "72", "--json"]
    assert main(argv) == 0
    got = json.loads(capsys.readouterr().out)
    assert set(got) >= {
        "method",
        "auc",
        "cases",
        "controls",
        "sig_level",
        "power",
        "alternative",
        "solved_for",
    }
    assert got["solved_for"] == "power" and got["power"] == pytest.approx(0.9897453, abs=1e-7)
    assert tl.power(auc=0.73, cases=41, controls=72).power == got["power"]
    size = tl.power(auc=0.73, power=0.9, kappa=72 / 41)
    assert size.solved_for == "sample size" and size.cases == np.ceil(size.cases)
    out = io.StringIO()
    session = opened(["good"]).session
    run_plain(session, ["power auc 0.73 cases 41 controls 72\n"], out, prompt=False)
    assert "power 0.9897453 (solved for)" in out.getvalue()
