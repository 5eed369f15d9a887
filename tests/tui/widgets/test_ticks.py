"""Every chart puts each tick on the row (and column) of its value, at every terminal
size: ``--preset good`` at 120x40 drew 19 plot rows with the y
ticks on rows 0, 4, 9, 13 and 18, so a TPR of 0.8 sat on the 0.75 tick's row; the
reliability diagram at 80x24 and the zoomed ROC at 120x40 were uneven too.

A tick is on its value's row when the row's centre is exactly that value: the plot
spans (cells - 1) steps and the value is a whole number of them. plotext itself is
asked where it draws a line at the tick's value, so the check does not lean on the
chart's own arithmetic (its grid of marks, read by ``plain_canvas``, which
test_plain_canvas.py holds to plotext's own text)."""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache

import pytest
from textual.screen import Screen
from threshold_lab.tui.widgets.charts import (
    CHART_MODES,
    ChartPanel,
    CurveChart,
    DecisionChart,
    MetricChart,
    plain_canvas,
)

from tests.tui.helpers import make_app, rendered

#: Every height from 24 to 60 in steps of three, each at a width stepping through 80
#: to 200, and the corners and the sizes where ticks once fell between rows.
SIZES = sorted(
    {(80 + 20 * (i % 7), h) for i, h in enumerate(range(24, 61, 3))}
    | {(80, 24), (80, 60), (200, 24), (200, 60), (120, 40)}
)
Y_LABEL = re.compile(r"^\s*(\d\.\d\d)┤")


@cache
def _plotext_row(cols: int, rows: int, value: float) -> int:
    """The canvas row plotext draws a horizontal line at ``value`` on."""
    plt = CurveChart("roc")._bare(cols, rows)
    plt.plot([0.0, 1.0], [value, value], marker="x")
    canvas = plain_canvas(plt, cols, rows)
    found = {r for r, line in enumerate(canvas) if "x" in line}
    assert len(found) == 1, (value, found)
    return found.pop()


@cache
def _plotext_column(cols: int, rows: int, value: float) -> int:
    """The canvas column plotext draws a vertical line at ``value`` on."""
    plt = CurveChart("roc")._bare(cols, rows)
    plt.plot([value, value], [0.0, 1.0], marker="x")
    canvas = plain_canvas(plt, cols, rows)
    found = {c for line in canvas for c, ch in enumerate(line) if ch == "x"}
    assert len(found) == 1, (value, found)
    return found.pop()


def _on_their_values(chart: CurveChart, where: str) -> None:
    lines = rendered(chart).split("\n")
    assert chart._base is not None, where
    left, top, cols, rows = chart._base[3]
    if chart._scaled() is not None:
        _scaled_on_their_values(chart, lines, where)
        return
    if isinstance(chart, DecisionChart):  # net benefit's own axis: each label where plotext
        yticks = dict((t, u) for u, t in chart._y_ticks(rows))  # draws its value's place
        found = {m.group(1): i for i, line in enumerate(lines) if (m := SCALED_Y.match(line))}
        assert len(found) >= 3 and set(found) == set(yticks), (where, found, yticks)
        for label, line in found.items():
            assert line - top == _plotext_row(cols, rows, yticks[label]), (where, label)
        assert "0.00" in found or "0.000" in found, (where, found)  # treating no one
    else:
        _unit_y_ticks(lines, left, top, cols, rows, where)
    rule = lines[top + rows]
    at = [c - left for c, ch in enumerate(rule) if ch == "┬"]
    assert len(at) >= 2, (where, rule)
    if isinstance(chart, MetricChart):  # its x axis is the score, in round steps
        labels = [float(x) for x in lines[top + rows + 1].split()]
        lo, hi = chart._span
        assert (labels[0], labels[-1]) == (lo, hi) and len(labels) == len(at), where
        for value, col in zip(labels, at, strict=True):
            steps = Fraction(value - lo).limit_denominator(10**6) / Fraction(hi - lo)
            assert (steps * (cols - 1)).denominator == 1, f"{where}: x tick {value}"
            assert col == int(steps * (cols - 1)), (where, value)
        return
    xs = [i / (len(at) - 1) for i in range(len(at))]
    for value, col in zip(xs, at, strict=True):
        steps = Fraction(value).limit_denominator(100) * (cols - 1)
        assert steps.denominator == 1, f"{where}: x tick {value} falls between columns"
        assert col == int(steps) == _plotext_column(cols, rows, value), (where, value)
        label = f"{value:.2f}"
        start = left + col - len(label) // 2
        assert lines[top + rows + 1][start : start + len(label)] == label, (where, value)


def _unit_y_ticks(lines: list[str], left: int, top: int, cols: int, rows: int, where: str) -> None:
    """The y ticks of a chart of the unit square: each on its value's row, evenly."""
    ticks = {float(m.group(1)): i for i, line in enumerate(lines) if (m := Y_LABEL.match(line))}
    assert len(ticks) >= 3 and {0.0, 0.5, 1.0} <= set(ticks), (where, ticks)
    for value, line in ticks.items():
        steps = Fraction(value).limit_denominator(100) * (rows - 1)
        assert steps.denominator == 1, f"{where}: y tick {value} falls between rows ({rows} rows)"
        assert line == top + rows - 1 - int(steps), (where, value)
        assert line - top == _plotext_row(cols, rows, value), (where, value)
    gaps = {ticks[a] - ticks[b] for a, b in zip(sorted(ticks), sorted(ticks)[1:], strict=False)}
    assert len(gaps) == 1, f"{where}: y ticks unevenly spaced {ticks}"


def _scaled_on_their_values(chart: CurveChart, lines: list[str], where: str) -> None:
    """A chart on scaled axes (DET, log FPR): each tick is on the row and column
    plotext draws its place at, and each label is its tick's."""
    assert chart._base is not None
    left, top, cols, rows = chart._base[3]
    yticks = dict((t, u) for u, t in chart._y_ticks(rows))
    found = {m.group(1): i for i, line in enumerate(lines) if (m := SCALED_Y.match(line))}
    assert len(found) >= 2 and set(found) <= set(yticks), (where, found, yticks)
    for label, line in found.items():
        assert line - top == _plotext_row(cols, rows, yticks[label]), (where, label)
    rule = lines[top + rows]
    at = [c - left for c, ch in enumerate(rule) if ch == "┬"]
    xticks = chart._xlabels
    assert len(at) == len(xticks) >= 2, (where, rule, xticks)
    for (u, label), col in zip(sorted(xticks.items()), at, strict=True):
        assert col == _plotext_column(cols, rows, u), (where, label)
        assert label in lines[top + rows + 1][max(0, left + col - len(label)) :], (where, label)


SCALED_Y = re.compile(r"^\s*(\S+)┤")

#: The sizes in four parts, each its own test (so two workers share them).
PARTS = 4


@pytest.fixture
def unpainted(monkeypatch: pytest.MonkeyPatch) -> None:
    """The screen lays its widgets out (sizes, resize events) but paints no frames:
    the checks read each chart's own text, and painting every frame of ~270 presses
    at up to 200x60 was half of this test's CPU. The snapshot tests paint."""

    def lay_out_only(self: Screen[object]) -> None:
        self._dirty_widgets.clear()
        self._compositor._dirty_regions.clear()

    monkeypatch.setattr(Screen, "_compositor_refresh", lay_out_only)


@pytest.mark.usefixtures("unpainted")
@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("zoomed", [False, True])
async def test_every_chart_puts_each_tick_on_the_row_of_its_value(zoomed: bool, part: int) -> None:
    app = make_app("good")
    sizes = SIZES[part::PARTS]
    async with app.run_test(size=(80, 24)) as pilot:
        checked: set[tuple[int, int, str]] = set()
        for width, height in sizes:
            if not (zoomed or width > 80):
                continue  # 80 columns show one pane at a time, the chart only zoomed
            await pilot.resize_terminal(width, height)
            await pilot.press("2" if zoomed else "0")
            await pilot.pause()
            for _ in CHART_MODES:
                await pilot.press("c")
                await pilot.pause()
                mode = app.main.query_one(ChartPanel).mode
                for chart in app.main.query(CurveChart):
                    if chart.display and chart.region.area and chart.content_region.height >= 6:
                        _on_their_values(chart, f"{width}x{height} {mode} {chart.kind}")
                        checked.add((width, height, mode))
            await pilot.press("l")  # the ROC chart with FPR on a log scale, and back
            await pilot.pause()
            for chart in app.main.query(CurveChart):
                if chart.display and chart.region.area and chart.content_region.height >= 6:
                    _on_their_values(chart, f"{width}x{height} log {chart.kind}")
            await pilot.press("l")
        # Every mode at every size 36 rows or taller where the pane is shown (80 columns
        # show one pane at a time: zoomed only); shorter ones where a chart has the rows.
        wide = [(w, h) for w, h in sizes if (zoomed or w > 80)]
        assert checked
        tall = [(w, h) for w, h in wide if h >= 36]
        assert {(w, h, m) for w, h in tall for m in CHART_MODES} <= checked
