"""Calibration, gains and transforms through the interfaces: the report's JSON and
text, plain mode, the explorer's transform dialog and its reliability and gains
charts."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from threshold_lab.core.data.presets import preset
from threshold_lab.core.session.session import Session
from threshold_lab.tui.plain import run_plain

from tests.paths import ROOT
from tests.tui.helpers import SIZE, SMALL, make_app, retype


def _report(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "threshold_lab", "report", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_the_report_json_has_calibration_ks_lift_and_the_transform() -> None:
    out = _report("delivery-a", "--threshold", "0.7", "--json", "--bins", "5")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    cal = doc["calibration"]
    assert cal["binning"] == "mass" and cal["requested_bins"] == 5 and cal["reason"] is None
    assert [b["n"] for b in cal["bins"]] == [2, 2, 2, 2, 2]
    first = cal["bins"][0]
    assert set(first) >= {"n", "mean_score", "positive_rate", "low_score", "high_score"}
    assert (first["low_score"], first["high_score"]) == (0.05, 0.15)
    assert first["positive_rate"]["exact"] == "0/1" and first["positive_rate"]["interval"]
    assert set(cal["brier_decomposition"]) == {"reliability", "resolution", "uncertainty"}
    assert cal["ece"]["value"] == pytest.approx(0.3) and cal["mce"]["value"] > 0
    assert doc["metrics"]["lift"]["exact"] == "5/3"
    assert doc["ks"] == {
        "value": {"value": 0.625, "reason": None, "exact": "5/8"},
        "threshold": 0.55,
    }
    assert "transform" not in doc
    sq = json.loads(
        _report("delivery-a", "--threshold", "0.7", "--json", "--transform", "square").stdout
    )
    assert sq["transform"]["name"] == "square"
    assert sq["transform"]["equivalent_threshold"] == 0.49
    assert sq["transform"]["decisions_changed"] == 1
    assert (
        sq["metrics"]["precision"]["exact"] == "1/2" and sq["metrics"]["recall"]["exact"] == "1/2"
    )
    assert sq["roc"]["auc"]["exact"] == "13/16" and sq["pr"]["average_precision"]["exact"] == "7/10"
    width = json.loads(_report("delivery-a", "--json", "--binning", "width", "--bins", "2").stdout)
    assert [b["n"] for b in width["calibration"]["bins"]] == [5, 5]


def test_the_report_text_prints_the_reliability_table_and_the_transform() -> None:
    out = _report("delivery-a", "--threshold", "0.7", "--transform", "square")
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[1] == (
        "Scores transformed by square: at threshold 0.7 (kept) 1 row's decision changed, and "
        "threshold 0.49 = square(0.7) makes the old decisions again; ROC AUC and AP are "
        "unchanged, 13/16 and 7/10 before and after (the ranking is the same); log loss, "
        "Brier and calibration are not."
    )
    assert any(line.startswith("Calibration (10 equal-mass bins") for line in lines)
    assert "  KS = max (TPR − FPR) = 5/8 = 0.625, at threshold 0.3025" in out.stdout  # 0.55²
    assert "lift = precision/prevalence = (1/(1+1))/((1+1)/10) = 5/2 = 2.5" in out.stdout


@pytest.mark.parametrize(
    ("content", "args", "words"),
    [
        (
            "id,score,label\na,0.0,1\nb,0.5,0\n",
            ["--transform", "log"],
            "log is defined and increasing on scores > 0 only; row a has score 0.0",
        ),
        ("score,label\n0.2,1\n", ["--transform", "cube"], "no transform 'cube'"),
        ("score,label\n0.2,1\n", ["--bins", "0"], "bins must be from 1 to 1000"),
        ("score,label\n0.2,1\n", ["--binning", "quantile"], "binning is mass"),
    ],
)
def test_bad_transforms_and_bins_are_one_clear_line(
    tmp_path: Path, content: str, args: list[str], words: str
) -> None:
    f = tmp_path / "s.csv"
    f.write_text(content)
    out = _report(str(f), *args)
    assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr


def test_scores_that_are_not_probabilities_say_why_in_json(tmp_path: Path) -> None:
    f = tmp_path / "s.csv"
    f.write_text("score,label\n-2,0\n3.5,1\n")
    doc = json.loads(_report(str(f), "--json").stdout)
    assert doc["calibration"]["bins"] == []
    assert doc["calibration"]["reason"].endswith("the lowest score is -2.0")
    assert doc["calibration"]["ece"]["value"] is None


def test_plain_mode_calibration_gains_ks_and_transform() -> None:
    p = preset("delivery-a")
    s = Session(p.data, 0.7, source="preset delivery-a")
    out = io.StringIO()
    run_plain(
        s,
        io.StringIO("calibration 3\nks\ngains\ntransform square\nundo\ntransform x\n"),
        out,
        prompt=False,
    )
    text = out.getvalue()
    assert "Calibration in 3 equal-mass bins (of 3 asked for;" in text
    assert "Bin 2: 3 rows, scores 0.45 to 0.65, mean score 0.55, observed positive rate 1/3" in text
    assert "KS = max (TPR − FPR) = 5/8 = 0.625, at threshold 0.55" in text
    assert (
        "up to 50% of the rows: threshold 0.55 predicts 5 of 10 rows positive and "
        "captures 2 of 2 positives" in text
    )
    assert text.count("up to ") == 10  # one line a tenth, each point once
    assert "Scores transformed by square:" in text
    assert "Threshold 0.7: 2 of 10 predicted positive; TP 1, FP 1, TN 7, FN 1" in text
    assert "Undone: scores transformed by square" in text
    assert "no transform 'x'; the transforms are: square, sqrt" in text


async def test_the_explorer_transforms_as_one_undoable_edit() -> None:
    app = make_app("delivery-a", 0.7)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("T", *retype("square"), "enter")
        await pilot.pause()
        s = app.main.session
        assert app.main.message.startswith(
            "Scores transformed by square: at threshold 0.7 (kept) 1 row's decision changed"
        )
        assert s.analysis.metrics["precision"].short() == "1/2" and s.threshold == 0.7
        assert s.data.scores.tolist()[0] == pytest.approx(0.9025)
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert s.analysis.metrics["precision"].short() == "1/3"
        await pilot.press("T", *retype("log2"), "enter")  # refused in the dialog: stays open
        await pilot.pause()
        assert app.screen is not app.main
        await pilot.press("escape")
        await pilot.pause()
        assert app.main.message == "Scores unchanged."


async def test_the_reliability_and_gains_charts() -> None:
    from threshold_lab.tui.widgets.charts import GainsChart, ReliabilityChart

    app = make_app("good")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c", "c", "c", "c")
        await pilot.pause()
        rel = app.main.query_one(ReliabilityChart)
        assert app.main.chart_mode == "reliability" and rel.display
        assert rel.border_title == "Reliability diagram, 10 equal-mass bins"
        assert "\u25c6" in str(rel.render())
        await pilot.press("c")
        await pilot.pause()
        gains = app.main.query_one(GainsChart)
        assert gains.display and gains.border_title == "Cumulative gains"
        drawn = str(gains.render())
        assert "O" in drawn and "=" in drawn
    odd = make_app("canonical")
    async with odd.run_test(size=SIZE) as pilot:
        odd.main.session.transform("affine:3,1")  # scores 1.3 to 3.7: not probabilities
        odd.main.show(odd.main.session.current())
        await pilot.press("c", "c", "c", "c")
        await pilot.pause()
        note = str(odd.main.query_one("#chart-note").render())
        assert note.startswith("No reliability diagram: calibration needs scores in [0, 1]")
    small = make_app("good", ascii=True)
    async with small.run_test(size=SMALL) as pilot:
        await pilot.press("2", "c", "c", "c", "c")
        await pilot.pause()
        assert "@" in str(small.main.query_one(ReliabilityChart).render())


def test_a_transform_on_the_command_line_opens_the_rows_transformed() -> None:
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "threshold_lab",
            "--plain",
            "delivery-a",
            "--threshold",
            "0.7",
            "--transform",
            "square",
        ],
        input="status\nquit\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert out.returncode == 0, out.stderr  # not an unsaved edit: quit needs no save
    lines = out.stdout.splitlines()
    assert lines[1].endswith("precision 1/2, recall 1/2.")
    assert lines[2].startswith("Scores transformed by square: at threshold 0.7 (kept)")
    two = subprocess.run(
        [sys.executable, "-m", "threshold_lab", "--plain", "deliveries", "--transform", "sqrt"],
        input="models\nquit\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert "B: ROC AUC 7/8" in two.stdout  # every model transformed; rankings kept


async def test_the_reliability_line_shows_the_brier_score_then_its_terms() -> None:
    """The line reads as the Brier score (the report's), not as its first term."""
    from threshold_lab.core.report.report import build_report
    from threshold_lab.core.report.request import Request
    from threshold_lab.tui.widgets.charts.reliability import reliability_items

    app = make_app("canonical")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c", "c", "c", "c")
        await pilot.pause()
        frame = app.main.frame
        assert frame is not None
        line = next(i for i in reliability_items(frame) if i.startswith("Brier"))
    brier = build_report(Request.from_command("report", "canonical", {})).to_dict()
    value = brier["probability"]["brier"]["value"]
    assert line.startswith(f"Brier ≈ {value:.4g} = "), line
    assert line.endswith("(reliability − resolution + uncertainty)")
