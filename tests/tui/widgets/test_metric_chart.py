"""The metric-against-threshold chart: at 80x24 on the canonical
rows the legend listed ``r recall`` but no ``r`` was drawn (its letters fell under
others'), every series had one colour, and the ticks read 0.0002, 0.25, 0.499."""

from __future__ import annotations

import pytest
from rich.text import Text
from threshold_lab.tui.widgets.charts import PEAK_MARK, SERIES, THRESHOLD_MARK, MetricChart
from threshold_lab.tui.widgets.text import ItemLines

from tests.tui.helpers import make_app

SIZES = [(80, 24), (120, 40), (200, 60)]


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", ["canonical", "good", "all-tied", "imbalanced"])
async def test_every_series_the_legend_lists_is_drawn_in_its_own_colour(
    name: str, size: tuple[int, int]
) -> None:
    app = make_app(name)
    async with app.run_test(size=size) as pilot:
        await pilot.press("2", "c", "c", "c")
        await pilot.pause()
        chart = app.main.query_one(MetricChart)
        text = chart.render()
        assert isinstance(text, Text)
        lines = text.plain.split("\n")
        assert chart._base is not None
        left, top, cols, rows = chart._base[3]
        plot = "".join(line[left : left + cols] for line in lines[top : top + rows])
        legend = chart.legend
        colours = {}
        for metric, mark, word, _ in SERIES:
            assert f"{mark} {word}" in legend
            assert mark in plot, f"{name} {size}: {word} ({mark}) is not drawn"
            styles = {
                str(span.style)
                for span in text.spans
                if text.plain[span.start : span.end].strip() == mark * (span.end - span.start)
            }
            assert len(styles) == 1, (mark, styles)
            colours[metric] = styles.pop()
        assert len(set(colours.values())) == len(SERIES), colours  # told apart by colour too
        assert THRESHOLD_MARK in plot  # the active threshold (0.5 on every preset here)
        assert PEAK_MARK in plot and f"{PEAK_MARK} " in legend  # F1's largest value


async def test_the_largest_f1_is_said_with_its_counts_and_threshold() -> None:
    # canonical: scores .9 .8 .8 .4 .1, labels 1 0 1 0 1; F1 is 2/4, 4/6, 4/7, 6/8 from
    # the highest threshold down: largest 3/4 at 0.1.
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("c", "c", "c")
        await pilot.pause()
        summary = app.main.query_one("#chart-summary", ItemLines).plain
        assert summary.startswith("largest F1 (^) ")
        assert "= 0.75 at threshold 0.1" in summary.split("\n")[0]
        # The ^ sits at (0.1, 0.75) on the 0..1 score axis.
        chart = app.main.query_one(MetricChart)
        assert chart._base is not None
        left, top, cols, rows = chart._base[3]
        lines = chart.render().plain.split("\n")  # type: ignore[union-attr]
        row = next(r for r in range(top, top + rows) if PEAK_MARK in lines[r][left:])
        col = lines[row].index(PEAK_MARK, left) - left
        assert chart._span == (0.0, 1.0)
        assert col == round(0.1 * (cols - 1)) and row - top == rows - 1 - round(0.75 * (rows - 1))


async def test_the_f1_peak_is_found_once_per_sweep_not_once_a_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """O(distinct scores) each time: at 10^7 rows it ran for every frame of the chart
    and its summary line; it is kept with the sweep's curves."""
    from threshold_lab.core.session import update

    calls: list[int] = []
    real = update.f1_peak  # type: ignore[attr-defined]

    def counted(sweep):  # type: ignore[no-untyped-def]
        calls.append(sweep.size)
        return real(sweep)

    monkeypatch.setattr(update, "f1_peak", counted)
    app = make_app("good")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("2", "c", "c", "c")
        await pilot.pause()
        for key in ("right", "right", "left", "]", "["):  # new thresholds, same rows
            await pilot.press(key)
        await pilot.pause()
        assert app.main.query_one(MetricChart).render() is not None
        assert len(calls) == 1

    # Other rows are another sweep, and so another peak (kept with those rows' curves).
    from threshold_lab.core.curves.peaks import f1_peak
    from threshold_lab.core.data.presets import preset
    from threshold_lab.core.session.session import Session

    session = Session(preset("good").data, 0.5, source="preset good")
    before = session.current()
    after = session.flip_label(0)
    assert after.analysis.curves is not before.analysis.curves
    for u in (before, after, session.undo()):
        assert u.f1_peak == f1_peak(u.analysis.sweep)


@pytest.mark.parametrize("size", SIZES)
async def test_the_x_axis_is_named_the_threshold(size: tuple[int, int]) -> None:
    """The series are read off at each threshold: the x axis is the threshold's, not
    the scores' (whose spread the score strip draws)."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.press("c", "c", "c")
        await pilot.pause()
        chart = app.main.query_one(MetricChart)
        text = chart.render()
        assert isinstance(text, Text)
        name = text.plain.split("\n")[-1]
        assert name.rstrip().endswith("threshold") and "score" not in name, name


@pytest.mark.parametrize("size", SIZES)
async def test_the_legend_names_the_goals_marks_only_with_a_goal(size: tuple[int, int]) -> None:
    """With no goal, no ``:`` (the goal's threshold) or ``=`` (a bound) is drawn, and
    the legend names neither; with a goal and a bound, it names each where it fits."""
    from threshold_lab.tui.widgets.charts.metric import BOUND_MARK, GOAL_MARK

    from tests.tui.helpers import retype

    app = make_app("good")
    async with app.run_test(size=size) as pilot:
        await pilot.press("c", "c", "c")
        await pilot.pause()
        chart = app.main.query_one(MetricChart)
        legend = chart.legend_to_fit(400)
        assert f"{GOAL_MARK} goal" not in legend and f"{BOUND_MARK} " not in legend, legend
        await pilot.press("d", *retype("max precision where recall >= 0.5"), "enter")
        await pilot.pause()
        legend = chart.legend_to_fit(400)
        assert f"{GOAL_MARK} goal's threshold" in legend and f"{BOUND_MARK} goal's bound" in legend
