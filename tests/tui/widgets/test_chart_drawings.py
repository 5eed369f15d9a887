"""Each chart keeps its drawing while nothing it is drawn from changes: shown again, a
chart is drawn once (its first frame came before its resize, which used to throw the
drawing away and draw it again at the same size), and a size or a border that changes
draws it afresh: what a chart shows is what it would draw from scratch."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from threshold_lab.tui.widgets.charts import CHART_MODES, ChartPanel, CurveChart

from tests.tui.helpers import make_app, rendered


def _counting(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    drawn: Counter[str] = Counter()
    build = CurveChart._build

    def counted(self: CurveChart, *args: Any) -> Any:
        drawn[self.kind] += 1
        return build(self, *args)

    monkeypatch.setattr(CurveChart, "_build", counted)
    return drawn


async def test_a_chart_shown_again_is_drawn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = _counting(monkeypatch)
    app = make_app("good")
    async with app.run_test(size=(160, 45)) as pilot:
        await pilot.press("2")
        await pilot.pause()
        for again in (False, True):  # every mode, twice round
            for _ in CHART_MODES:
                drawn.clear()
                await pilot.press("c")
                await pilot.pause()
                mode = app.main.query_one(ChartPanel).mode
                shown = Counter(c.kind for c in app.main.query(CurveChart) if c.display)
                assert shown, mode
                if again:  # the same size as before: the drawing kept
                    assert drawn <= shown, (mode, drawn)
                elif mode != "roc":  # (the ROC curve was first drawn unzoomed)
                    assert drawn == shown, (mode, drawn)


async def test_a_kept_drawing_is_the_one_made_afresh() -> None:
    """Each mode from 120x40 (a border carries the legend) to 80x24 (no border: the
    legend on the axis name's line), 100x30 and back: what each shown chart renders,
    its drawing kept, is what it renders with the drawing thrown away."""
    app = make_app("good")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("2")
        for mode in CHART_MODES:
            for size in ((80, 24), (100, 30), (120, 40)):
                await pilot.resize_terminal(*size)
                await pilot.pause()
                for chart in app.main.query(CurveChart):
                    if chart.display:
                        kept = rendered(chart)
                        chart._base = None
                        assert kept == rendered(chart), (mode, size, chart.kind)
            await pilot.press("c")
