"""Each chart keeps its drawing while nothing it is drawn from changes: shown again, a
chart is drawn once (its first frame came before its resize, which used to throw the
drawing away and draw it again at the same size), and a size or a border that changes
draws it afresh, the same as a new explorer at that size draws it."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from threshold_lab.tui.widgets import charts
from threshold_lab.tui.widgets.charts import CHART_MODES, ChartPanel, CurveChart

from tests.tui.helpers import make_app, rendered


def _counting(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    drawn: Counter[str] = Counter()
    build = charts.CurveChart._build

    def counted(self: CurveChart, *args: Any) -> Any:
        drawn[self.kind] += 1
        return build(self, *args)

    monkeypatch.setattr(charts.CurveChart, "_build", counted)
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


@pytest.mark.parametrize("mode", CHART_MODES)
async def test_a_chart_resized_is_drawn_as_a_new_one_at_that_size(mode: str) -> None:
    """From 120x40 (a border carries the legend) to 80x24 (no border: the legend on
    the axis name's line) and to 100x30: each chart's text is a fresh explorer's."""
    presses = ["2", *["c"] * CHART_MODES.index(mode)]

    async def shown(app: Any) -> dict[str, str]:
        return {c.kind: rendered(c) for c in app.main.query(CurveChart) if c.display}

    moved = make_app("good")
    async with moved.run_test(size=(120, 40)) as pilot:
        await pilot.press(*presses)
        await pilot.pause()
        before = await shown(moved)
        for size in ((80, 24), (100, 30), (120, 40)):
            await pilot.resize_terminal(*size)
            await pilot.pause()
            now = await shown(moved)
            fresh = make_app("good")
            async with fresh.run_test(size=size) as other:
                await other.press(*presses)
                await other.pause()
                assert now == await shown(fresh), (mode, size)
        assert now == before
