"""Goals in the explorer: the goal dialog (d), the goal line, the prevalence what-if (w)
and the metric-vs-threshold chart (the fourth c)."""

from __future__ import annotations

from threshold_lab.tui.screens.dialogs import ValueDialog
from threshold_lab.tui.widgets.charts import MetricChart
from threshold_lab.tui.widgets.charts.roc_pr import CurveChart
from threshold_lab.tui.widgets.goal_line import GoalLine

from tests.paths import DATA
from tests.tui.helpers import SIZE, file_app, keys, make_app, retype


async def test_d_solves_a_goal_and_the_goal_line_says_why() -> None:
    app = make_app("good")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ValueDialog)
        await pilot.press(*retype("max precision where recall >= 0.9"), "enter")
        await pilot.pause()
        m = app.main
        assert m.session.threshold == 0.42
        assert m.message.startswith("Goal max precision where recall >= 0.9: threshold 0.42")
        line = m.query_one(GoalLine)
        assert line.display
        assert "-> threshold 0.42 (here)" in line.plain
        assert "recall 9/10 (>= 0.9, slack 0)" in line.plain
        assert "same decisions for t with 0.38 < t <= 0.42" in line.plain
        await pilot.press("right")  # moved off the goal's point: the line says so
        await pilot.pause()
        assert "(d re-applies it)" in line.plain


async def test_a_malformed_goal_keeps_the_dialog_open_with_the_reason() -> None:
    app = make_app("good")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d", *retype("max precison"), "enter")
        await pilot.pause()
        assert isinstance(app.screen, ValueDialog)
        error = str(app.screen.query_one("#dialog-error").render())
        assert '"precison" is not a metric' in error
        await pilot.press("escape")
        assert app.main.session.threshold == 0.5 and app.main.message == "Goal unchanged."


async def test_an_infeasible_goal_is_said_and_the_closest_point_shown() -> None:
    app = make_app("imbalanced")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(
            "d", *retype("min fpr where recall >= 0.95 and precision >= 0.5"), "enter"
        )
        await pilot.pause()
        line = app.main.query_one(GoalLine).plain
        assert "not feasible: no operating point meets" in line
        assert app.main.session.threshold == 0.4


async def test_w_shows_the_metrics_at_a_deployment_prevalence() -> None:
    app = make_app("good", threshold=0.42)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w", *retype("1/20"), "enter")
        await pilot.pause()
        line = app.main.query_one(GoalLine).plain
        assert "At prevalence 1/20, threshold 0.42 (TPR, FPR, LR± kept): precision 3/22" in line
        assert app.main.message.startswith(
            "Prevalence 1/20: at threshold 0.42, precision from 9/12 to 3/22"
        )
        await pilot.press("m")
        await pilot.pause()
        from textual.widgets import Static

        text = "\n".join(str(s.render()) for s in app.screen.query(Static))
        # The heading is the report's and plain mode's (one prevalence wording in core).
        assert "At prevalence 1/20 (TPR and FPR kept" in text and "precision: 3/22" in text
        await pilot.press("escape", "w", *retype("off"), "enter")
        await pilot.pause()
        assert not app.main.query_one(GoalLine).display


async def test_a_bad_prevalence_is_refused_in_the_dialog() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("w", *retype("1.5"), "enter")
        await pilot.pause()
        assert isinstance(app.screen, ValueDialog)
        assert "not strictly between 0 and 1" in str(app.screen.query_one("#dialog-error").render())


async def test_the_fourth_chart_draws_metrics_against_the_threshold() -> None:
    app = make_app()  # canonical at 0.5: scores .9 .8 .8 .4 .1
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("c", "c", "c")
        await pilot.pause()
        chart = app.main.query_one(MetricChart)
        assert chart.display and app.main.chart_mode == "metrics"
        text = chart.render().plain  # type: ignore[union-attr]
        for mark in ("p", "r", "f", "q", "|"):
            assert mark in text
        assert chart.legend.startswith("p precision · r recall · f F1 · q queue rate")
        assert str(chart.border_subtitle).startswith("p precision")
        # The x axis runs over the scores (0.1 to 0.9) in round steps.
        axis = [line.split() for line in text.split("\n") if "0.50" in line and "┤" not in line]
        assert axis == [["0.00", "0.25", "0.50", "0.75", "1.00"]], text
        await pilot.press("c", "c", "c")  # then the reliability and gains charts, DET
        assert str(app.main.chart_mode) == "det"
        await pilot.press("c", "c")  # the decision curve and the cost curves
        assert str(app.main.chart_mode) == "cost"
        await pilot.press("c")
        assert str(app.main.chart_mode) == "roc"


async def test_goal_bounds_are_drawn_on_the_metric_chart() -> None:
    app = make_app("good")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d", *retype("max precision where recall >= 0.9"), "enter", "c", "c", "c")
        await pilot.pause()
        text = app.main.query_one(MetricChart).render().plain  # type: ignore[union-attr]
        assert "=====" in text


def test_keys_for_goals_are_in_help() -> None:
    from threshold_lab.tui.screens.help import HELP_GROUPS

    assert HELP_GROUPS["Deciding"] == {"goal", "band", "band-low-up", "band-low-down", "prevalence"}
    assert keys("d") == ["d"]


async def test_a_cost_goal_then_a_delete_says_the_column_no_longer_lines_up() -> None:
    # Before: the goal line summed a 59-value column over 58 rows and crashed
    # ("operands could not be broadcast").
    app = file_app(str(DATA / "costs.csv"), "--goal", "min cost fp=1 fn=@amount")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        line = app.main.query_one(GoalLine)
        assert "cost" in line.plain and "no longer lines up" not in line.plain
        await pilot.press("space", "delete")
        await pilot.pause()
        assert app.main.session.data.n == 59, app.main.message
        assert 'the cost column "amount" no longer lines up with the rows' in line.plain
        await pilot.press("r")  # reset: the file's rows, and the goal solved again
        await pilot.pause()
        assert "no longer lines up" not in line.plain and app.main.session.data.n == 60


async def test_the_prevalence_line_says_at_which_threshold_once_moved_off_the_goal() -> None:
    # Before: the goal line spoke at the goal's threshold, the prevalence line under
    # it at the current one, without saying which.
    app = make_app("good")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("d", *retype("max precision where recall >= 0.9"), "enter")
        await pilot.press("w", *retype("1/20"), "enter", "right")
        await pilot.pause()
        line = app.main.query_one(GoalLine).plain
        assert "-> threshold 0.42 (d re-applies it)" in line
        assert "At prevalence 1/20, threshold 0.43 (TPR, FPR, LR± kept)" in line


BAND = "band: max coverage where precision >= 0.9 and npv >= 0.9"


async def test_a_band_from_d_shows_its_parts_and_its_reject_threshold_moves() -> None:
    """good: accept >= 0.64 (TP 7, FP 0), reject < 0.33 (TN 6, FN 0), 7 reviewed; } and
    { move the reject threshold a tie group, never above the accept threshold."""
    from threshold_lab.tui.widgets.band_line import BandLine
    from threshold_lab.tui.widgets.score_strip import ScoreStrip

    app = make_app("good")
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.press("D", *retype(BAND), "enter")
        await pilot.pause()
        review = app.main.session.current().review
        assert review is not None and (review.t_high, review.t_low) == (0.64, 0.33)
        c = review.counts
        assert (c.tp, c.fp, c.tn, c.fn, c.reviewed) == (7, 0, 6, 0, 7)
        line = app.main.query_one(BandLine)
        assert line.display
        said = " ".join(t.plain for t in line.lines_at(line.content_region.width))
        assert "reject < 0.33: 6 (TN 6, FN 0)" in said and "review 7" in said
        strip = app.main.query_one(ScoreStrip).render().plain
        assert "reject < 0.33 left of :" in strip
        roc = app.main.query_one("#roc-chart", CurveChart)
        assert "L" in str(roc.render()) and "L reject point" in roc.legend_to_fit(200)
        await pilot.press("right_curly_bracket")
        await pilot.pause()
        review = app.main.session.current().review
        assert review is not None and review.t_low == 0.3 and review.counts.rejected == 5
        for _ in range(12):
            await pilot.press("left_curly_bracket")
        await pilot.pause()
        review = app.main.session.current().review
        assert review is not None and review.t_low == 0.64 and review.counts.reviewed == 0
        assert "it meets the accept threshold" in app.main.message
        await pilot.press("D", *retype("off"), "enter")
        await pilot.pause()
        assert app.main.session.current().review is None
        assert not app.main.query_one(BandLine).display


async def test_the_reject_keys_without_a_band_say_how_to_set_one() -> None:
    app = make_app("good")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("right_curly_bracket")
        await pilot.pause()
        assert "no band is set" in app.main.message
