"""The explorer and plain mode take --readout, --partial-auc, --alternative and
--unpaired as report does; the DET chart and the log-FPR ROC say what they could
not place; the partial AUC's range is drawn on the ROC chart."""

from __future__ import annotations

import io
from fractions import Fraction

from threshold_lab.core.curves.operating import partial_auc, readouts
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.drawing.scaled import det_line, log_roc_line
from threshold_lab.core.text.operating import partial_auc_short
from threshold_lab.tui.plain import run_plain
from threshold_lab.tui.widgets.charts import ChartPanel, CurveChart
from threshold_lab.tui.widgets.text import ItemLines

from tests.argv import opened as open_argv
from tests.paths import DATA
from tests.tui.helpers import SIZE, file_app, make_app, rendered

ASAH = (str(DATA / "asah.csv"), "--score", "s100b", "--label", "outcome", "--positive", "Poor")
MODELS = (str(DATA / "model-a.csv"), "--compare", str(DATA / "model-b.csv"))


def _plain(*argv: str, commands: str) -> list[str]:
    out = io.StringIO()
    run_plain(open_argv([*argv, "--plain"]).session, commands.splitlines(True), out, prompt=False)
    return out.getvalue().splitlines()


async def test_r_walks_the_readouts_the_command_line_asked_for() -> None:
    app = file_app(*ASAH, "--readout", "fpr 0.05,0.2", "--readout", "tpr 0.8")
    sweep = app.main.session.analysis.sweep
    want = readouts(sweep, (("tpr_at_fpr", 0.05), ("tpr_at_fpr", 0.2), ("fpr_at_tpr", 0.8)))
    async with app.run_test(size=SIZE) as pilot:
        for i, r in enumerate(want):
            await pilot.press("R")
            await pilot.pause()
            assert app.main.session.threshold == r.threshold
            assert app.main.message.startswith(r.asked + ": ")
            assert app.main.message.endswith(f"(readout {i + 1} of 3).")


async def test_the_roc_chart_draws_the_partial_aucs_range_and_says_its_value() -> None:
    app = file_app(*ASAH, "--partial-auc", "fpr:0-0.25")
    part = partial_auc(app.main.session.analysis.sweep, "fpr", 0.0, 0.25)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        summary = app.main.query_one("#chart-summary", ItemLines).plain.split()
        words = " ".join(summary)
        assert partial_auc_short(part) in words and ": marks its range" in words
        chart = app.main.query_one("#roc-chart", CurveChart)
        lines = rendered(chart).split("\n")
        assert chart._base is not None
        left, top, cols, rows = chart._base[3]
        # The edge at FPR 0.25 is a column of : from the bottom of the plot to its top,
        # on the column of the 0.25 tick, wherever the curve does not cross it.
        col = left + round(0.25 * (cols - 1))
        column = [lines[top + r][col] for r in range(rows)]
        assert column.count(":") >= rows - 3, column
        assert lines[top + rows][col] == "┬"
    # pROC's own value for this area is exact here: the trapezoids in fractions.
    assert part.area.exact is not None and part.area.exact == Fraction(part.area.exact)


async def test_the_det_chart_says_how_many_points_it_left_out() -> None:
    app = file_app(*ASAH)
    line = det_line(build_sweep(app.main.session.data), columns=40)
    assert line is not None and line.left_out == 3 and line.points == 40
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*["c"] * 6)
        await pilot.pause()
        assert app.main.chart_mode == "det"
        chart = app.main.query_one("#det-chart", CurveChart)
        assert chart.display and chart.border_title == "DET curve"
        summary = app.main.query_one("#chart-summary", ItemLines).plain.split()
        said = "3 of the DET curve's 40 points left out (a rate of 0 or 1 is off probit axes)"
        assert said in " ".join(summary)
        text = rendered(chart)
        for tick in ("0.1%", "1%", "5%", "20%", "50%", "80%", "95%"):
            assert f"{tick}┤" in text and tick in text.split("└")[1]
        assert "FPR (probit scale)" in text and "FNR" in text
        await pilot.press("home")  # above all: FPR 0 has no place on a probit axis
        await pilot.pause()
        summary = app.main.query_one("#chart-summary", ItemLines).plain.split()
        assert "the active point is not on it" in " ".join(summary)
        assert "O" not in rendered(chart).split("└")[0].replace("FNR", "")


async def test_l_puts_fpr_on_a_log_scale_and_back() -> None:
    app = file_app(*ASAH)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c", "c")  # both curves: l keeps them
        await pilot.press("l")
        await pilot.pause()
        panel = app.main.query_one(ChartPanel)
        assert panel.log_fpr and app.main.chart_mode == "both"
        chart = app.main.query_one("#roc-chart", CurveChart)
        assert chart.border_title == "ROC curve, FPR on a log scale"
        text = rendered(chart)
        assert "FPR (log scale)" in text and " 0.1 " in text
        line = log_roc_line(build_sweep(app.main.session.data), columns=40)
        assert line is not None and line.on_axis == 12
        summary = app.main.query_one("#chart-summary", ItemLines).plain.split()
        assert "12 points sit at FPR 0, on the axis (0)" in " ".join(summary)
        await pilot.press("c", "l")  # from the metrics chart, l goes back to ROC
        await pilot.pause()
        assert not panel.log_fpr and app.main.chart_mode == "roc"
        assert "linear scale again" in app.main.message
        assert chart.border_title == "ROC curve"
        await pilot.press("l")  # the ROC chart alone: room for every decade
        await pilot.pause()
        assert panel.log_fpr and " 0.01 " in rendered(chart)


async def test_a_one_class_file_has_no_det_curve_and_says_why() -> None:
    app = make_app("no-actual-positives")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*["c"] * 6)
        await pilot.pause()
        assert not app.main.query_one("#det-chart", CurveChart).display
        note = app.main.query_one("#chart-note").render()
        assert "No DET curve" in str(note)


def test_plain_mode_takes_the_operating_options() -> None:
    said = _plain(
        *ASAH,
        "--readout",
        "fpr 0.2",
        "--partial-auc",
        "fpr:0-0.1",
        commands="readout\npartial auc\nroc\nquit\n",
    )
    text = "\n".join(said)
    assert "TPR at FPR <= 0.2: " in text and "TPR at FPR <= 0.01" not in text
    assert "Partial AUC, FPR 0 to 0.1 (∫ TPR dFPR): 967/29520 ≈ 0.0328" in text
    assert "(TPR at FPR <= 0.2" in text  # roc marks the readout's step


def test_plain_partial_auc_alone_without_any_asked_says_how() -> None:
    said = _plain(*ASAH, commands="partial auc\nquit\n")
    assert any("partial auc: give the focus and the range" in line for line in said)


def test_plain_compare_takes_the_alternative_and_unpaired() -> None:
    one = "\n".join(_plain(*MODELS, "--alternative", "greater", commands="compare\nquit\n"))
    assert "one-sided, H1: model-a > model-b" in one and "paired DeLong" in one
    two = "\n".join(_plain(*MODELS, "--unpaired", commands="compare\nquit\n"))
    assert "unpaired DeLong" in two and "Student's t on" in two


def test_the_explorer_refuses_a_bad_readout_in_one_line(capsys) -> None:  # type: ignore[no-untyped-def]
    from threshold_lab.tui.cli import main

    assert main([*ASAH, "--readout", "fpr 1.5"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--readout" in err and "Traceback" not in err


async def test_the_log_fpr_title_names_the_models_and_the_scale() -> None:
    app = file_app(*MODELS)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("l")
        await pilot.pause()
        chart = app.main.query_one("#roc-chart", CurveChart)
        assert chart.border_title == "ROC curves of 2 models, FPR on a log scale"
