"""The PR chart above all scores: precision is undefined there (nothing is predicted
positive), so no active point is drawn; the legend says why rather than naming a mark
that is not there, at every size."""

from __future__ import annotations

import pytest
from rich.text import Text
from threshold_lab.tui.widgets.charts import CurveChart
from threshold_lab.tui.widgets.charts.base import ACTIVE_MARK

from tests.tui.helpers import make_app


def _legend(chart: CurveChart) -> str:
    """The legend as shown: the border's, or (80x24, no border) the axis name's line."""
    if chart._bordered():
        return str(chart.border_subtitle)
    text = chart.render()
    assert isinstance(text, Text)
    return text.plain.split("\n")[-1]


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_above_all_the_pr_legend_says_why_no_point_is_drawn(size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("2", "c", "home")
        await pilot.pause()
        chart = app.main.query_one("#pr-chart", CurveChart)
        text = chart.render()
        assert isinstance(text, Text)
        assert chart._base is not None
        left, top, cols, rows = chart._base[3]
        lines = text.plain.split("\n")[top : top + rows]
        assert not any(ACTIVE_MARK in line[left : left + cols] for line in lines)  # none drawn
        legend = _legend(chart)
        assert "precision undefined" in legend, legend
        assert f"{ACTIVE_MARK} active" not in legend, legend
        assert len(legend) <= chart.size.width, legend
        if size != (80, 24):
            assert "no active point: precision undefined above all scores" in legend, legend
        await pilot.press("end")  # every row predicted positive: O is drawn again
        await pilot.pause()
        legend = _legend(chart)
        assert f"{ACTIVE_MARK} active" in legend and "undefined" not in legend, legend
