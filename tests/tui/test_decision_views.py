"""The explorer's decision and cost charts and the ROC convex hull: ``c`` reaches
both after DET, each says on its line what it shows (where the model is useful; the
hull's area and where the active point is cheapest); a bootstrap draws the net benefit's
band; ``h`` draws the hull on the ROC chart with ROCCH AUC beside the AUC; scores that
are not probabilities leave a note, not a chart."""

from __future__ import annotations

import pytest
from threshold_lab.core.decide.net_benefit import net_benefit_key
from threshold_lab.tui.widgets.charts import (
    ChartPanel,
    CostChart,
    CurveChart,
    DecisionChart,
)
from threshold_lab.tui.widgets.text import ItemLines, TextLines

from tests.tui.helpers import SIZE, SMALL, make_app, rendered, retype


async def _settle(app: object, pilot: object) -> None:
    for _ in range(300):
        await pilot.pause(0.02)  # type: ignore[attr-defined]
        if not app.workers:  # type: ignore[attr-defined]
            return


async def test_c_reaches_the_decision_curve_then_the_cost_curves() -> None:
    app = make_app("deliveries", 0.2)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(7):
            await pilot.press("c")
        await _settle(app, pilot)
        panel = app.main.query_one(ChartPanel)
        assert panel.mode == "decision"
        assert app.main.message.startswith("Chart: the decision curve")
        chart = app.main.query_one(DecisionChart)
        assert chart.display
        # Three ranges, each after the first saying so where the line breaks; 0.95 is
        # the top score, at which one delay is acted on and the model is useful.
        assert app.main.query_one("#chart-summary", ItemLines).plain.splitlines() == [
            "Beats treating all and none where 0.05 < pt < 0.25",
            "and where 0.25 < pt < ≈ 0.2857",
            "and where 0.85 < pt <= 0.95 · prevalence 0.2",
        ]
        drawn = rendered(chart)
        # A's curve (braille), B's (#), treating all (=) and none (-), the threshold 0.2 on
        # A's curve: NB 1/20, inside the chart.
        assert "#" in drawn and "=" in drawn and "-" in drawn and "O" in drawn
        assert "treat all" in chart.legend and "treat none" in chart.legend
        await pilot.press("c")
        await _settle(app, pilot)
        assert str(panel.mode) == "cost"
        cost = app.main.query_one(CostChart)
        assert cost.display and "o" in rendered(cost)
        summary = " ".join(app.main.query_one("#chart-summary", ItemLines).plain.split())
        assert "ROCCH AUC 29/32" in summary and "4 hull vertices" in summary
        # 0.2 acts from 0.25 (8 of 10 flagged, every positive among them): on the hull's
        # top edge, TPR 1 from FPR 3/8 to 1, so as cheap as any point at PC(+) = 1 alone.
        assert (
            "the active point is on a hull edge, not a vertex cheapest (tied) only at PC(+) = 1"
            in summary
        )
        await pilot.press("c")
        assert str(panel.mode) == "roc"  # round again


async def test_the_cost_line_tells_a_point_on_a_hull_edge_from_one_inside() -> None:
    """The canonical fixture at 0.5 acts from 0.8: (1/2, 2/3) lies on the hull's edge
    from (0, 1/3) to (1, 1) and ties for cheapest at PC(+) = 3/5; at 0.9, a vertex,
    cheapest from 0 to 3/5; at 0.4 strictly inside; above all scores, tied only at 0.
    A line too narrow for the whole sentence breaks it between two items."""
    app = make_app("canonical", 0.5)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(8):
            await pilot.press("c")
        await _settle(app, pilot)
        assert str(app.main.query_one(ChartPanel).mode) == "cost"

        def lines() -> list[str]:
            return app.main.query_one("#chart-summary", ItemLines).plain.splitlines()

        assert lines() == [
            "ROCCH AUC 2/3 ≈ 0.6667 · 3 hull vertices",
            "the active point is on a hull edge, not a vertex",
            "cheapest (tied) only at PC(+) = 0.6",
        ]
        for threshold, words in (
            ("0.9", "the active point is cheapest for PC(+) from 0 to 0.6"),
            ("0.4", "the active point is never the cheapest (inside the hull)"),
            ("above-all", "the active point is cheapest (tied) only at PC(+) = 0"),
        ):
            await pilot.press("t", *retype(threshold), "enter")
            await _settle(app, pilot)
            assert lines()[1:] == [words], (threshold, lines())
    app = make_app("canonical", 0.5)
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.press("2", *["c"] * 8)  # the chart alone: the whole sentence fits
        await _settle(app, pilot)
        assert lines() == [
            "ROCCH AUC 2/3 ≈ 0.6667 · 3 hull vertices · the active point is on the hull, "
            "not a vertex: cheapest (tied) only at PC(+) = 0.6"
        ]
        await pilot.press("t", *retype("0.4"), "enter")
        await _settle(app, pilot)
        assert lines()[0].endswith(
            " · the active point is never the cheapest (strictly inside the hull)"
        )


async def test_the_useful_ranges_keep_their_join_and_their_closed_end_at_80x24() -> None:
    """The canonical fixture is useful for 0.5 < pt < 2/3 and 0.8 < pt <= 0.9 (at 0.9
    the row scored 0.9 is acted on, and useful): at 80 columns the line breaks between
    the two, and the second still says it is another range; with room, it is one line."""
    app = make_app("canonical", 0.5)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2", *["c"] * 7)
        await _settle(app, pilot)
        assert str(app.main.query_one(ChartPanel).mode) == "decision"
        assert app.main.query_one("#chart-summary", ItemLines).plain.splitlines() == [
            "Beats treating all and none where 0.5 < pt < ≈ 0.6667",
            "and where 0.8 < pt <= 0.9 · prevalence 0.6",
        ]
    app = make_app("canonical", 0.5)
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.press("2", *["c"] * 7)  # room for the whole line
        await _settle(app, pilot)
        assert app.main.query_one("#chart-summary", ItemLines).plain.splitlines() == [
            "Useful (beats treating all and none) where 0.5 < pt < ≈ 0.6667 · and where "
            "0.8 < pt <= 0.9 · prevalence 0.6"
        ]


async def test_the_bootstrap_draws_the_net_benefit_band() -> None:
    app = make_app("good", 0.5)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("B")
        await _settle(app, pilot)
        for _ in range(7):
            await pilot.press("c")
        await _settle(app, pilot)
        sure = app.main.session.sure
        assert sure is not None and sure.boot is not None
        grid = app.main.session.decision_curve().grid
        assert sure.estimate(net_benefit_key(grid[9].pt)).interval is not None
        chart = app.main.query_one(DecisionChart)
        assert "band" in chart.legend and "\u00b7" in rendered(chart)


async def test_h_draws_the_roc_hull_and_its_area() -> None:
    app = make_app("good")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("h")
        await pilot.pause()
        chart = app.main.query_one("#roc-chart", CurveChart)
        assert chart.draws_hull and "convex hull" in chart.legend and "=" in rendered(chart)
        summary = " ".join(app.main.query_one("#chart-summary", ItemLines).plain.split())
        assert "ROCCH AUC 189/200 = 0.945" in summary
        assert app.main.message == (
            "ROC chart: its convex hull (=), the points ever cheapest, and ROCCH AUC (h: hide)."
        )
        await pilot.press("h")
        await pilot.pause()
        assert not chart.draws_hull and "=" not in rendered(chart)


async def test_z_draws_each_smoothed_curve_in_turn_beside_the_exact_one() -> None:
    """z cycles binormal, density, normal and none: each drawn (~) as core smooths it,
    its AUC named with the method beside the exact AUC, and said with its fit."""
    from threshold_lab.core.curves.smooth import smooth

    app = make_app("good")
    async with app.run_test(size=SIZE) as pilot:
        chart = app.main.query_one("#roc-chart", CurveChart)
        sweep = app.main.session.analysis.sweep
        for method in ("binormal", "density", "normal"):
            await pilot.press("z")
            await _settle(app, pilot)
            want = smooth(sweep, method)
            assert chart.smoothed is not None and chart.smoothed.auc == want.auc
            assert f"~ smoothed ({method})" in chart.legend and "~" in rendered(chart)
            summary = " ".join(app.main.query_one("#chart-summary", ItemLines).plain.split())
            assert f"smoothed ({method}) AUC ≈ {want.auc:.3f}" in summary
            assert app.main.message.startswith(f"ROC chart: ~ smoothed ({method}), AUC ≈")
        await pilot.press("z")
        await pilot.pause()
        assert chart.smoothed is None and "~" not in rendered(chart)
        assert app.main.message == "ROC chart: the smoothed curve hidden (z: binormal)."


async def test_on_a_log_fpr_axis_the_hull_and_the_smoothed_curve_are_said_linear() -> None:
    app = make_app("good")
    async with app.run_test(size=SIZE) as pilot:
        for key in ("z", "h", "l"):
            await pilot.press(key)
            await _settle(app, pilot)
        assert "the hull and the smoothed curve show with FPR linear" in app.main.message
        await pilot.press("z")
        await _settle(app, pilot)
        assert "drawn with FPR on the linear scale (l)" in app.main.message


async def test_z_on_rows_that_cannot_be_smoothed_says_why() -> None:
    from threshold_lab.core.data.dataset import make_dataset
    from threshold_lab.core.session.session import Session
    from threshold_lab.tui.app import ThresholdLab

    data = make_dataset([0.9, 0.1], [1, 0])  # no point strictly inside the square
    app = ThresholdLab(Session(data, 0.5, source="two rows"))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("z")
        await _settle(app, pilot)
        assert app.main.message.startswith("ROC chart: no smoothed (binormal) curve: the ROC")
        assert app.main.query_one("#roc-chart", CurveChart).smoothed is None


async def test_scores_that_are_not_probabilities_leave_a_note() -> None:
    from threshold_lab.core.data.dataset import make_dataset
    from threshold_lab.core.session.session import Session
    from threshold_lab.tui.app import ThresholdLab

    data = make_dataset([2.0, -1.0, 0.5, 0.3, 1.5], [1, 0, 1, 0, 0])
    app = ThresholdLab(Session(data, 0.5, source="margins"))
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(7):
            await pilot.press("c")
        await _settle(app, pilot)
        assert not app.main.query_one(DecisionChart).display
        note = str(app.main.query_one("#chart-note", TextLines).render())
        assert note.startswith("No decision curve: decision curves need scores in [0, 1]")
        await pilot.press("c")
        await _settle(app, pilot)
        assert app.main.query_one(CostChart).display  # the cost curves need no probability


@pytest.mark.parametrize("size", [SMALL, SIZE])
async def test_an_active_point_off_the_decision_chart_is_said_not_named(
    size: tuple[int, int],
) -> None:
    """At prevalence 1/10 the canonical rows' net benefit at 0.5 is far below the y axis
    (which runs from a little below 0 to the prevalence): no O is drawn, and the legend
    says where it is rather than naming a mark that is not there."""
    from threshold_lab.tui.widgets.charts import DecisionChart

    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("2" if size == SMALL else "0", "w", *retype("1/10"), "enter")
        for _ in range(7):
            await pilot.press("c")
        await _settle(app, pilot)
        chart = app.main.query_one(DecisionChart)
        frame = app.main.frame
        assert frame is not None
        here = frame.readings.net_benefit
        assert here is not None and here < 0
        drawn = rendered(chart)
        assert "O" not in drawn.replace("O below", "")
        legend = chart.legend_to_fit(200)
        assert "O below the chart (NB ≈" in legend and "active" not in legend
        shown = str(chart.border_subtitle) if chart._bordered() else drawn.split("\n")[-1]
        assert "O below" in shown, shown
