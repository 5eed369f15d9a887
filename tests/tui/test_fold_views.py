"""The folds' charts (``--fold COL``): where a chart is small, all rows' curve and the
folds' range, with one fold's curve at a time on F; where it has room, every fold's;
every mark drawn named in the legend."""

from __future__ import annotations

from typing import Any

from threshold_lab.tui.widgets.charts import CurveChart
from threshold_lab.tui.widgets.charts.base import MODEL_MARKS, is_braille

from tests.paths import DATA
from tests.tui.helpers import LARGE, SMALL, file_app, rendered

FOLDS = (str(DATA / "folds.csv"), "--fold", "fold")
#: Each fold's mark (fold 1 is the second model, after all rows).
FOLD_MARKS = MODEL_MARKS[:5]


async def _settled(pilot: Any) -> None:
    for _ in range(2):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause(0.2)


def _canvas(chart: CurveChart) -> str:
    """The marks on the chart's canvas (the plot, without its axes)."""
    lines = rendered(chart).split("\n")
    assert chart._base is not None
    left, top, cols, rows = chart._base[3]
    return "\n".join(line[left : left + cols] for line in lines[top : top + rows])


def _legend(chart: CurveChart) -> str:
    """The legend as shown: in the border, or (no border, 80x24) on the axis name's line."""
    if chart._bordered():
        return str(chart.border_subtitle)
    return rendered(chart).split("\n")[-1]


def _every_mark_named(chart: CurveChart) -> None:
    """Each mark on the canvas is named in the legend: braille as ⠒⠒, any other mark
    doubled (a dot alone would be lost), the chance dash and the active point once."""
    legend = _legend(chart)
    for ch in set(_canvas(chart)) - {" ", "\n"}:
        if is_braille(ch):
            assert "\u2812\u2812 " in legend, legend
        elif ch in "-O":
            assert f"{ch} " in legend, (ch, legend)
        else:
            assert f"{ch}{ch} " in legend, (ch, legend)


async def test_a_small_chart_draws_all_rows_the_range_and_one_fold_on_f() -> None:
    app = file_app(*FOLDS)
    async with app.run_test(size=SMALL) as pilot:
        await _settled(pilot)
        await pilot.press("2")
        await _settled(pilot)
        roc = app.main.query_one("#roc-chart", CurveChart)
        drawn = _canvas(roc)
        assert not set(drawn) & set(FOLD_MARKS), drawn  # no fold's curve yet
        assert any(is_braille(c) for c in drawn) and "\u00b7" in drawn  # all rows, range
        _every_mark_named(roc)
        legend = _legend(roc)
        assert "\u00b7\u00b7 folds' range" in legend and "F: " in legend, legend
        for k, mark in enumerate(FOLD_MARKS, 1):
            await pilot.press("F")
            await _settled(pilot)
            drawn = _canvas(roc)
            assert mark in drawn and not set(drawn) & (set(FOLD_MARKS) - {mark}), (k, drawn)
            assert f"{mark}{mark} fold {k}" in _legend(roc)
            assert f"fold {k}'s curve" in app.main.message
            _every_mark_named(roc)
        await pilot.press("F")  # after the last fold: none again
        await _settled(pilot)
        assert not set(_canvas(roc)) & set(FOLD_MARKS)


async def test_a_large_chart_draws_every_fold_and_f_picks_one() -> None:
    app = file_app(*FOLDS)
    async with app.run_test(size=LARGE) as pilot:
        await _settled(pilot)
        roc = app.main.query_one("#roc-chart", CurveChart)
        drawn = _canvas(roc)
        assert set(FOLD_MARKS) <= set(drawn), drawn
        _every_mark_named(roc)
        await pilot.press("F", "F")
        await _settled(pilot)
        drawn = _canvas(roc)
        assert "%" in drawn and not set(drawn) & (set(FOLD_MARKS) - {"%"}), drawn
        _every_mark_named(roc)


async def test_f_without_folds_says_so() -> None:
    app = file_app(str(DATA / "clinics.csv"), "--group", "site")
    async with app.run_test(size=SMALL) as pilot:
        await _settled(pilot)
        await pilot.press("F")
        await _settled(pilot)
        assert "--fold" in app.main.message


async def test_a_starred_fold_says_what_its_star_means() -> None:
    """M shows one fold's rows: short of room its curve is starred, and the legend says
    what the star means; all rows' curve is never starred bare."""
    app = file_app(*FOLDS)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("2", "M")
        await _settled(pilot)
        chart = next(c for c in app.main.query(CurveChart) if c.display and c.region)
        legend = _legend(chart)
        assert "all*" not in legend
        if "*" in legend.replace("* shown", ""):
            assert "* shown" in legend, legend
