"""Decision curves and cost curves in every front end: ``report --pt/--harm`` (the
JSON contract's names, the text's sections), the Python API (``r.decision_curve``,
``r.cost_curve``), plain mode's ``net benefit``, ``useful range`` and ``hull``, and the
refusals, each naming what is wrong."""

from __future__ import annotations

import io
import json
from fractions import Fraction

import pytest
from threshold_lab.core.data.presets import preset
from threshold_lab.core.session.session import Session
from threshold_lab.tui.cli import main
from threshold_lab.tui.plain import PlainSession

import threshold_lab as tl

Y = [1, 0, 0, 0, 1, 0, 0, 0, 0, 0]
A = [0.95, 0.85, 0.75, 0.65, 0.55, 0.45, 0.35, 0.25, 0.15, 0.05]


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:  # type: ignore[type-arg]
    assert main(["report", *argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_the_json_has_the_contract_s_names(capsys: pytest.CaptureFixture[str]) -> None:
    d = _json(capsys, "deliveries", "--pt", "0.1,0.2", "--harm", "0.01", "--bootstrap", "100")
    dc = d["decision_curve"]
    assert set(dc) >= {"prevalence", "harm", "grid", "useful_range", "reason"}
    assert (dc["prevalence"], dc["harm"], dc["reason"]) == (0.2, 0.01, None)
    row = dc["grid"][1]
    assert set(row) >= {
        "pt",
        "net_benefit",
        "treat_all",
        "interventions_avoided_per_100",
        "standardised",
        "interval",
    }
    # pt 0.2 acts from 0.25: TP 2, FP 6 of 10; NB = 2/10 − 6/10·1/4 − 0.01.
    assert row["pt"] == 0.2 and row["net_benefit"] == pytest.approx(0.05 - 0.01, abs=1e-15)
    assert row["treat_all"] == pytest.approx(0.0, abs=1e-15)
    assert row["interval"]["method"] == "bootstrap" and row["interval"]["replicates"] == 100
    cc = d["cost_curve"]
    assert set(cc) >= {"hull", "hull_auc"}
    assert set(cc["hull"][1]) >= {"threshold", "fpr", "tpr", "pc_low", "pc_high"}
    assert [v["threshold"] for v in cc["hull"]] == [None, 0.95, 0.55, 0.05]
    assert cc["hull_auc"]["exact"] == "29/32" and d["roc"]["hull_auc"]["exact"] == "29/32"
    diff = d["comparison"][0]["net_benefit_difference"]
    assert [x["pt"] for x in diff] == [0.1, 0.2] and {"value", "interval"} <= set(diff[0])
    assert all(m["decision_curve"]["grid"] for m in d["models"])
    assert [r["hull"] for r in d["sweep"][:3]] == [True, True, False]


def test_the_default_grid_is_0_01_to_0_99(capsys: pytest.CaptureFixture[str]) -> None:
    grid = _json(capsys, "good")["decision_curve"]["grid"]
    assert [r["pt"] for r in grid] == [k / 100 for k in range(1, 100)]


def test_scores_outside_0_1_leave_the_decision_curve_undefined_and_the_rest_stands(
    capsys: pytest.CaptureFixture[str],
) -> None:
    r = tl.report([1, 0, 1, 0], [2.0, -1.0, 0.5, 0.3])
    d = r.decision_curve
    assert d is not None and d.grid == () and d.reason is not None
    assert "highest score is 2.0" in d.reason
    assert r.roc_auc.value == 1.0 and r.cost_curve.hull_auc.value == 1.0
    assert "undefined: decision curves need scores in [0, 1]" in r.text()


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--pt", "0.5:0.1:0.1"], "--pt 0.5:0.1:0.1: the start is above the end"),
        (["--pt", "0,0.5"], "is not a threshold probability strictly between 0 and 1"),
        (["--pt", "x"], "is not a number"),
        (["--harm", "-0.1"], "a harm is at least 0"),
        (["--goal", "max net_benefit at pt 2"], "is not strictly between 0 and 1"),
    ],
)
def test_bad_options_are_refused_with_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    try:
        code = main(["report", "canonical", *argv])
    except SystemExit as e:  # argparse refuses an option's value itself
        code = e.code  # type: ignore[assignment]
    assert code == 2
    err = capsys.readouterr().err
    assert words in err and "Traceback" not in err


def test_the_python_api_takes_pt_and_harm() -> None:
    r = tl.report(Y, A, pt=[0.1, 0.2], harm="1/100")
    d = r.decision_curve
    assert d is not None and d.harm == Fraction(1, 100)
    harm = Fraction(1, 100)
    assert [row.net_benefit.exact for row in d.grid] == [
        Fraction(11, 90) - harm,
        Fraction(1, 20) - harm,
    ]
    assert r.cost_curve.hull_auc.exact == Fraction(29, 32)
    with pytest.raises(tl.InputError, match="pt"):
        tl.report(Y, A, pt={"a": 1})  # type: ignore[arg-type]


def _plain(*lines: str, name: str = "deliveries") -> list[str]:
    out = io.StringIO()
    p = preset(name)
    s = PlainSession(Session(p.data, p.threshold, source=f"preset {name}", models=p.models), out)
    for line in lines:
        s.run_line(line)
    return out.getvalue().splitlines()


def test_plain_mode_says_net_benefit_the_useful_range_and_the_hull() -> None:
    one = _plain("net benefit 0.2")
    assert one[0].startswith(
        "Net benefit at pt 0.2 (acting on every case scored >= 0.2; "
        "from threshold 0.25: TP 2, FP 6 of 10)"
    )
    assert "2/10 − 6/10·0.2/0.8 = 1/20 = 0.05" in one[0] and "useful here" in one[0]
    grid = _plain("net benefit")
    # Each useful range's first and last grid pt is listed: 0.06 and 0.24 of the first.
    assert grid[0].startswith("Decision curve") and any("  0.24 " in line for line in grid)
    useful = _plain("useful range")
    # 0.95 is the top score's own pt: one delay acted on, NB 1/10 beats both there.
    assert useful == [
        "Useful (beats treating all and treating none) where 0.05 < pt < 0.25 "
        "and 0.25 < pt < ≈ 0.2857 and 0.85 < pt <= 0.95."
    ]
    assert _plain("useful range", name="canonical") == [
        "Useful (beats treating all and treating none) where 0.5 < pt < ≈ 0.6667 "
        "and 0.8 < pt <= 0.9."
    ]
    hull = _plain("hull")
    assert hull[0].startswith("Cost curves") and "ROCCH AUC 29/32" in hull[1]
    # Four points are on an edge: the top one's, TPR 1 from FPR 3/8 to 1 (cheapest,
    # tied, only at PC(+) = 1), and they are not counted among the never cheapest.
    assert hull[-3:] == [
        "  4 of the 11 points lie on hull edges between two vertices: each is cheapest "
        "only at the PC(+) where its edge's vertices tie.",
        "  The other 3 of the 11 points are never the cheapest at any cost ratio "
        "(strictly inside the hull).",
        "  At threshold 0.7 the point (acting from 0.75) is never the cheapest "
        "(strictly inside the hull).",
    ]
    assert "  0.05         1    1  only at 1 (tied)" in hull


def test_plain_hull_tells_an_edge_from_the_inside_in_exact_fractions() -> None:
    """The canonical fixture at 0.5 acts from 0.8: (1/2, 2/3), on the hull's edge from
    (0, 1/3) to (1, 1), whose vertices tie at PC(+) = 3/5; only 0.4's (1, 2/3) is
    strictly inside. The above-all point ties 0.9 at PC(+) = 0 and is cheapest nowhere
    else."""
    assert _plain("hull", name="canonical") == [
        "Cost curves (each point costs FNR·PC + FPR·(1 − PC) at probability-cost PC(+))",
        "  ROCCH AUC 2/3 ≈ 0.6667; the cheapest point at each PC(+) is a vertex of the "
        "ROC convex hull:",
        "  threshold  FPR  TPR  cheapest for PC(+)",
        "  above all    0    0  only at 0 (tied)",
        "  0.9          0  1/3  0 to 0.6",
        "  0.1          1    1  0.6 to 1",
        "  1 of the 5 points lies on a hull edge between two vertices: it is cheapest "
        "only at the PC(+) where they tie.",
        "  The other 1 of the 5 points is never the cheapest at any cost ratio (strictly "
        "inside the hull).",
        "  At threshold 0.5 the point (acting from 0.8) is on the hull, not a vertex: "
        "cheapest (tied) only at PC(+) = 0.6.",
    ]


def test_plain_mode_refuses_a_bad_pt_in_its_own_words() -> None:
    out = _plain("net benefit 1.5", "net benefit 0.1 0.2", "useful")
    assert out == [
        "error: net benefit 1.5: give one threshold probability strictly between 0 and 1, "
        "like net benefit 0.2; nothing changed",
        "error: net benefit takes one threshold probability, not '0.1 0.2'; nothing changed",
        "error: say useful range; nothing changed",
    ]
