"""Readouts and partial AUC in every front end: ``report --readout/--partial-auc`` (JSON
and text), the Python API (``r.readouts``, ``r.partial_auc``), and plain mode."""

from __future__ import annotations

import io
import json
from fractions import Fraction

import pytest
from threshold_lab.core.data.presets import preset
from threshold_lab.core.errors import InputError
from threshold_lab.core.session.session import Session
from threshold_lab.tui.cli import main
from threshold_lab.tui.plain import PlainSession

import threshold_lab as tl
from tests.paths import DATA

ASAH = [str(DATA / "asah.csv"), "--label-column", "outcome", "--positive", "Poor"]


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:  # type: ignore[type-arg]
    assert main(["report", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_every_report_carries_the_seven_default_readouts(
    capsys: pytest.CaptureFixture[str],
) -> None:
    d = _json(capsys, "canonical")
    got = [(r["kind"], r["limit"]) for r in d["readouts"]]
    assert got == [("tpr_at_fpr", x) for x in (0.001, 0.01, 0.05, 0.1)] + [
        ("fpr_at_tpr", y) for y in (0.9, 0.95, 0.99)
    ]
    # canonical: points (FPR, TPR) (0,0) (0,1/3) (1/2,2/3) (1,2/3) (1,1), thresholds
    # above all, 0.9, 0.8, 0.4, 0.1.
    first = d["readouts"][1]
    assert first["threshold"] == 0.9 and first["counts"] == {"tp": 1, "fp": 0, "tn": 2, "fn": 2}
    assert first["tpr"]["exact"] == "1/3" and first["fpr"]["exact"] == "0/1"
    # 1/3 + (2/3 − 1/3) · 0.01 / (1/2) = 17/50
    assert first["interpolated"] == pytest.approx(0.34) and first["interpolated_exact"] == "17/50"
    last = d["readouts"][-1]
    assert last["threshold"] == 0.1 and last["fpr"]["exact"] == "1/1"
    assert d["partial_auc"] == []


def test_readout_flags_replace_the_default_and_repeat(capsys: pytest.CaptureFixture[str]) -> None:
    d = _json(capsys, "canonical", "--readout", "fpr 0.5,0", "--readout", "tpr 0.5")
    rows = [(r["kind"], r["limit"], r["threshold"], r["interpolated_exact"]) for r in d["readouts"]]
    assert rows == [
        ("tpr_at_fpr", 0.5, 0.8, "2/3"),
        ("tpr_at_fpr", 0.0, 0.9, "1/3"),  # the top of the vertical at FPR 0
        ("fpr_at_tpr", 0.5, 0.8, "1/4"),  # 0 + (1/2)·(1/2 − 1/3)/(2/3 − 1/3)
    ]


def test_partial_auc_on_asah_is_procs(capsys: pytest.CaptureFixture[str]) -> None:
    """pROC: auc(roc(outcome, wfns), partial.auc=c(1, .9), partial.auc.correct=TRUE) and
    the same with partial.auc.focus="se"."""
    d = _json(
        capsys,
        *ASAH,
        "--score-column",
        "wfns",
        "--partial-auc",
        "fpr:0-0.1",
        "--partial-auc",
        "tpr:0.9-1",
    )
    fpr, tpr = d["partial_auc"]
    assert (fpr["focus"], fpr["low"], fpr["high"]) == ("fpr", 0.0, 0.1)
    assert fpr["area"]["value"] == pytest.approx(0.0334417344173442, abs=1e-13)
    assert fpr["standardised"]["value"] == pytest.approx(0.649693339038653, abs=1e-13)
    assert tpr["area"]["value"] == pytest.approx(0.0400999322493225, abs=1e-13)
    assert tpr["standardised"]["value"] == pytest.approx(0.68473648552275, abs=1e-13)
    assert Fraction(fpr["area"]["exact"]) == pytest.approx(0.0334417344173442, abs=1e-13)


def test_each_model_has_its_own_readouts(capsys: pytest.CaptureFixture[str]) -> None:
    d = _json(
        capsys,
        *ASAH,
        *(x for c in ("wfns", "s100b", "ndka") for x in ("--score-column", c)),
        "--readout",
        "fpr 0.1",
        "--partial-auc",
        "fpr:0-0.1",
    )
    names = [m["name"] for m in d["models"]]
    assert len(names) == 3
    areas = {m["name"]: m["partial_auc"][0]["area"]["value"] for m in d["models"]}
    assert areas["wfns"] == pytest.approx(0.0334417344173442, abs=1e-13)
    assert areas["ndka"] == pytest.approx(0.0107046070460705, abs=1e-13)
    assert all(len(m["readouts"]) == 1 for m in d["models"])


def test_the_text_report_says_each_readout_and_area(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "canonical", "--readout", "fpr 0.5", "--partial-auc", "fpr:0-0.5"]) == 0
    out = capsys.readouterr().out
    assert (
        "  TPR at FPR <= 0.5: 2/3 ≈ 0.6667 at threshold 0.8 (FPR 1/2 = 0.5; TP 2, FP 1, "
        "TN 1, FN 1); interpolated at FPR = 0.5 exactly: 2/3 ≈ 0.6667"
    ) in out
    assert (
        "  Partial AUC, FPR 0 to 0.5 (∫ TPR dFPR): 1/4 = 0.25 of at most 0.5; McClish "
        "standardised: 2/3 ≈ 0.6667"
    ) in out


@pytest.mark.parametrize(
    ("flag", "value", "said"),
    [
        ("--readout", "fpr", "readout 'fpr': start with fpr"),
        ("--readout", "fpr 2", "readout 'fpr 2': '2' is not a rate in [0, 1]"),
        ("--readout", "precision 0.1", "start with fpr (TPR at each FPR) or tpr"),
        ("--partial-auc", "fpr:0.3-0.1", "the low end 0.3 is not below the high end 0.1"),
        ("--partial-auc", "auc:0-1", "give the focus and the range"),
    ],
)
def test_a_bad_flag_is_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], flag: str, value: str, said: str
) -> None:
    code = main(["report", "canonical", flag, value])
    assert code == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_python_api_has_them() -> None:
    r = tl.report(
        [1, 0, 1, 0, 1],
        [0.9, 0.8, 0.8, 0.4, 0.1],
        readout=["fpr 0.5", "tpr 1"],
        partial_auc="fpr:0-0.5",
    )
    assert [(x.kind, x.threshold, x.value.exact) for x in r.readouts] == [
        ("tpr_at_fpr", 0.8, Fraction(2, 3)),
        ("fpr_at_tpr", 0.1, Fraction(1)),
    ]
    (p,) = r.partial_auc
    assert (p.area.exact, p.standardised.exact) == (Fraction(1, 4), Fraction(2, 3))
    assert len(tl.report([1, 0], [0.9, 0.1]).readouts) == 7
    d = r.to_dict()
    assert d["readouts"][0]["limit"] == 0.5 and d["partial_auc"][0]["focus"] == "fpr"
    with pytest.raises(InputError, match="readout: give a text"):
        tl.report([1, 0], [0.9, 0.1], readout=0.01)  # type: ignore[arg-type]


def test_plain_mode_reads_out_and_integrates() -> None:
    out = io.StringIO()
    p = preset("canonical")
    plain = PlainSession(Session(p.data, p.threshold, source="preset canonical"), out)
    for line in (
        "readout fpr 0.5",
        "partial auc fpr 0 0.5",
        "partial auc tpr:0.5-1",
        "readout tpr 2",
        "partial auc",
        "partial roc",
    ):
        plain.run_line(line)
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("TPR at FPR <= 0.5: 2/3 ≈ 0.6667 at threshold 0.8")
    assert lines[1].startswith("Partial AUC, FPR 0 to 0.5 (∫ TPR dFPR): 1/4 = 0.25")
    assert "below the chance line" in lines[2]
    assert lines[3].startswith("error: readout 'tpr 2': '2' is not a rate in [0, 1]")
    assert lines[4].startswith(
        "error: partial auc: give the focus and the range, as in partial auc"
    )
    assert lines[5].startswith("error: say partial auc, then the focus and the range")
    assert plain.refused == 3
