"""The layout at 80x24, 120x40 and 200x60, the charts'
axes, and which table has the keys. Each was seen in tmux or a rendered snapshot."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from textual.widget import Widget
from textual.widgets._footer import FooterKey
from threshold_lab.tui.app import ThresholdLab
from threshold_lab.tui.widgets.charts import CurveChart
from threshold_lab.tui.widgets.confusion import PANEL_ORDER, MetricsPanel
from threshold_lab.tui.widgets.row_table import RowTable
from threshold_lab.tui.widgets.score_strip import ScoreStrip
from threshold_lab.tui.widgets.sweep_table import SweepTable
from threshold_lab.tui.widgets.text import ItemLines
from threshold_lab.tui.widgets.threshold_bar import ThresholdBar

from tests.tui.helpers import SIZE, SMALL, file_app, make_app, rendered

PANE_WIDGETS = {
    "1": "#matrix",
    "2": "#roc-chart",
    "3": "#rows",
    "4": "#sweep",
}


def shown(widget: Widget) -> bool:
    """On screen: displayed, with all its ancestors, and given some room."""
    return (
        widget.display
        and all(a.display for a in widget.ancestors_with_self if isinstance(a, Widget))
        and widget.region.area > 0
    )


def chart_lines(chart: CurveChart) -> list[str]:
    return rendered(chart).split("\n")


def left_edge(widget: Widget) -> str:
    """The style of ``widget``'s left border, read afresh (focus changes it)."""
    return widget.styles.border_left[0]


def canvas_rows(lines: list[str]) -> list[int]:
    """The rows of a chart's plot: those with the y axis (a tick or a bar) in them."""
    return [i for i, line in enumerate(lines) if re.match(r"^\s*\S*[┤│]", line)]


async def test_at_80x24_one_pane_at_a_time_and_each_is_reachable() -> None:
    # 7. At 80x24 the charts were 2 rows tall, the footer cut Help and Quit, the top
    # line was cut, and formulas wrapped mid-expression.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        m = app.main
        for key in PANE_WIDGETS:
            await pilot.press(key)
            await pilot.pause()
            for other_key, other in PANE_WIDGETS.items():
                assert shown(m.query_one(other)) == (other_key == key), (key, other)
            assert rendered(m.query_one("#pane-bar")).count("[") == 1
        # The strip comes with the rows (pane 3).
        await pilot.press("3")
        await pilot.pause()
        assert shown(m.query_one(ScoreStrip))
        # 0 cannot show every pane here, and says so.
        await pilot.press("0")
        assert "1-4 show one pane each" in m.message
        # Help and Quit are in the footer, on screen.
        footer_keys = {str(k.description): k for k in m.query(FooterKey)}
        for word in ("Help", "Quit", "Panes", "Threshold"):
            assert footer_keys[word].region.right <= 80, word
        # The top line fits whole.
        bar = m.query_one(ThresholdBar)
        assert bar.region.height == 1 and bar.plain.startswith("Threshold 0.5 ·")


async def test_at_80x24_the_chart_has_thirteen_rows_and_its_legend() -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2")
        await pilot.pause()
        for mode in ("roc", "pr", "both"):
            for chart in app.main.query(CurveChart):
                if not chart.display:
                    continue
                lines = chart_lines(chart)
                # 13 rows, or 11 of the 12 the side-by-side pair has: an odd count, so
                # the 0.5 tick falls on a row.
                assert len(canvas_rows(lines)) >= 11, (mode, chart.kind)
                # No border here: the legend shares the axis name's line.
                assert "- " in lines[-1] and " sweep" in lines[-1], lines[-1]
                assert "FPR" in lines[-1] or "recall" in lines[-1] or mode == "both"
            await pilot.press("c")
            await pilot.pause()


@pytest.mark.parametrize("width", [80, 120])
async def test_formulas_break_only_at_their_equals_signs(width: int) -> None:
    app = make_app("imbalanced")
    async with app.run_test(size=(width, 24)) as pilot:
        await pilot.pause()
        panel = app.main.query_one(MetricsPanel)
        lines = [t.plain for t in panel.lines_at(panel.content_region.width)]
        names = (
            "precision",
            "recall",
            "F1",
            "F2",
            "accuracy",
            "specificity",
            "FPR",
            "FNR",
            "NPV",
            "balanced",
            "MCC",
            "prevalence",
            "queue",
            "LR",
            "m: all",
        )
        for line in lines:
            # A formula, its continuation at an = sign, or its interval on a line of
            # its own, or the keys' hint.
            assert (
                line.startswith(names) or line.startswith("  = ") or line.startswith("  (95% CI")
            ), line
            assert len(line) <= panel.content_region.width


async def test_the_metrics_panel_fills_its_rows() -> None:
    # At 200x60 the metrics column had a band of empty rows: it now shows every metric.
    app = make_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.pause()
        panel = app.main.query_one(MetricsPanel)
        text = "\n".join(t.plain for t in panel.lines_at(panel.content_region.width))
        # With an interval under most metrics all but the last two of the first
        # sixteen fit (and not the six agreement metrics after them); none is cut.
        assert text.splitlines()[-1].startswith("m: all metrics (8 more)  i: hide intervals")
        assert "MCC" in text and "LR+" in text
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        panel = app.main.query_one(MetricsPanel)
        last = panel.lines_at(panel.content_region.width)[-1].plain
        more = int(re.findall(r"\((\d+) more\)", last)[0])
        assert 0 < more < len(PANEL_ORDER) - 6


def test_the_panel_counts_every_metric_the_m_screen_lists() -> None:
    """The hint's N in "m: all metrics (N more)" is every metric not shown: the panel's
    order holds them all (lift was once missing, so N was one short)."""
    from threshold_lab.core.metrics.threshold_metrics import METRIC_NAMES

    assert sorted(PANEL_ORDER) == sorted(METRIC_NAMES)
    assert len(set(PANEL_ORDER)) == len(PANEL_ORDER)


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 60)])
async def test_ticks_sit_on_their_values_and_the_active_point_between_them(
    size: tuple[int, int],
) -> None:
    # 8. The plot was 6 rows at 120x40; TPR 2/3 sat on the row labelled 0.50; the y
    # label was under the plot; the right frame was doubled; the line ran past it.
    app = make_app()  # canonical at 0.5: the active ROC point is (1/2, 2/3)
    async with app.run_test(size=size) as pilot:
        await pilot.press("2")
        await pilot.pause()
        chart = app.main.query_one("#roc-chart", CurveChart)
        lines = chart_lines(chart)
        rows = {
            float(m.group(1)): i
            for i, line in enumerate(lines)
            if (m := re.match(r"^\s*(\d\.\d\d)┤", line))
        }
        assert sorted(rows) == [0.0, 0.25, 0.5, 0.75, 1.0]
        gaps = {rows[a] - rows[b] for a, b in ((0.0, 0.25), (0.25, 0.5), (0.5, 0.75), (0.75, 1.0))}
        assert max(gaps) - min(gaps) <= 1 and min(gaps) >= 2  # (nearly) evenly spaced
        at = next(i for i, line in enumerate(lines) if "O" in line)
        assert rows[0.75] < at < rows[0.5]  # 2/3 lies between 0.75 and 0.5
        # The y axis's name is on the axis, at its top.
        assert lines[rows[1.0] + 1].lstrip().startswith("TPR│")
        # The x ticks: 0.50 is under the active point's column.
        ticks = lines[rows[0.0] + 1]
        labels = lines[rows[0.0] + 2]
        col = lines[at].index("O")
        assert ticks[col] == "┬" and labels[col - 2 : col + 2] == "0.50"
        # Nothing is drawn right of x = 1 (the last tick), and no second frame.
        last = ticks.rindex("┬")
        for i in range(rows[1.0], rows[0.0] + 1):
            assert lines[i][last + 1 :].strip() == "", lines[i]
        assert chart.border_title in ("ROC curve", "", None)


async def test_the_chart_takes_most_of_the_height_at_120x40_and_200x60() -> None:
    for size, least in (((120, 40), 17), ((200, 60), 25)):
        app = make_app()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            chart = app.main.query_one("#roc-chart", CurveChart)
            assert len(canvas_rows(chart_lines(chart))) >= least, size
            # The summaries are whole, on lines of their own above the chart: the ROC
            # chart's AUC, then (c) the PR chart's AP and trapezoid area side by side.
            summary = app.main.query_one("#chart-summary", ItemLines)
            assert summary.plain.replace("\n", " · ") == (
                "ROC AUC (trapezoid) 7/12 ≈ 0.5833 · 95% CI 0.00 to 1.00, DeLong"
            )
            await pilot.press("c")
            await pilot.pause()
            assert summary.plain.replace("\n", " · ") == (
                "AP (step-weighted) 34/45 ≈ 0.7556 · PR trapezoid area 143/180 ≈ 0.7944"
            )


async def test_summaries_break_between_items_never_inside_a_number() -> None:
    # 8/9. "61/90 ≈ 0.6778" and "trapezoid ar..." were cut in the border title.
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("2", "c", "c")  # both charts: all three summaries
        await pilot.pause()
        summary = app.main.query_one("#chart-summary", ItemLines)
        for line in summary.plain.split("\n"):
            assert not line.rstrip().endswith(("≈", "/")) and len(line) <= 78
        assert "143/180 ≈ 0.7944" in summary.plain


async def test_under_no_color_the_baseline_and_the_sweep_differ_in_shape(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        chart = app.main.query_one("#roc-chart", CurveChart)
        body = "\n".join(chart_lines(chart)[:-3])
        assert "-" in body and any("\u2801" <= ch <= "\u28ff" for ch in body)
        assert str(chart.border_subtitle).startswith("- chance · ⠒⠒ exact sweep · O active")


async def test_the_strip_caption_is_never_cut() -> None:
    # 9. At 80 columns the caption ended "scores 0.03".
    app = make_app("good")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3")
        await pilot.pause()
        caption = app.main.query_one(ScoreStrip).render().plain.split("\n")[-1]
        assert caption.rstrip().endswith("scores 0.03 to 0.95")


async def test_the_rows_header_is_whole_at_80_columns() -> None:
    # 9. The filtered rows' header was cut ("* chang").
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("3", "f")
        await pilot.pause()
        table = app.main.query_one(RowTable)
        header = table.render_line(0).text.rstrip()
        assert header.endswith("* changed"), header


async def test_tab_gives_the_sweep_table_the_keys_and_shows_which_has_them() -> None:
    # 2 and 15: the sweep table had no keys, and its active row looked exactly like
    # the row cursor. The focused table now has a bar down its left side and the
    # bright cursor; the other keeps a dimmer mark.
    app = make_app("good", threshold=0.5)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        m = app.main
        rows, sweep = m.query_one(RowTable), m.query_one(SweepTable)
        assert rows.has_focus and left_edge(rows) == "outer"
        assert left_edge(sweep) == "blank"
        unfocused = sweep.get_component_rich_style("sweep-table--active")
        await pilot.press("tab")
        await pilot.pause()
        assert sweep.has_focus and left_edge(sweep) == "outer"
        assert left_edge(rows) == "blank"
        assert sweep.get_component_rich_style("sweep-table--active") != unfocused
        assert m.analysis is not None
        point = m.analysis.point
        await pilot.press("down")
        assert m.analysis.point == point + 1
        await pilot.press("up", "up")
        assert m.analysis.point == point - 1
        await pilot.press("pagedown")
        assert m.analysis.point > point + 1
        # A click on a line picks that operating point.
        await pilot.click(SweepTable, offset=(5, 3))  # under the summary and the header
        assert m.analysis.point == sweep.top + 1


async def test_a_number_key_zooms_one_pane_and_zero_shows_them_all() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        m = app.main
        chart = m.query_one("#roc-chart", CurveChart)
        before = chart.region.height
        await pilot.press("2")
        await pilot.pause()
        assert not shown(m.query_one("#matrix")) and chart.region.height > before
        await pilot.press("0")
        await pilot.pause()
        assert shown(m.query_one("#matrix")) and shown(m.query_one("#sweep"))
        assert chart.region.height == before


async def test_a_pane_switch_restyles_the_screen_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The layout's classes change together: Textual restyles a node and everything in
    it on each class change, and the screen holds every widget; a restyle per class
    made two of them for each pane switch."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        m = app.main
        restyled: list[str] = []
        update_styles = type(app).update_styles

        def counted(self: ThresholdLab, node: Widget, animate: bool = True) -> None:
            if node is m:
                restyled.append(" ".join(sorted(c for c in m.classes if c.startswith("-"))))
            update_styles(self, node, animate=animate)

        monkeypatch.setattr(type(app), "update_styles", counted)
        for key, classes in (("2", "-one -view-chart"), ("0", ""), ("3", "-one -view-rows")):
            restyled.clear()
            await pilot.press(key)
            await pilot.pause()
            assert restyled == [classes], key
        restyled.clear()
        await pilot.resize_terminal(80, 24)  # one pane at a time, shorter, the footer compact
        await pilot.pause()
        assert restyled == ["-compact -one -view-rows"]


@pytest.mark.parametrize(
    ("size", "ascii"), [((80, 24), False), ((80, 24), True), ((120, 40), True)]
)
async def test_the_footer_holds_only_whole_keys(size: tuple[int, int], ascii: bool) -> None:
    # Seen in review: "s Sav|^p palette" in ASCII at 120, "P Pre" at 80 columns.
    app = make_app(ascii=ascii)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.pause()
        keys = list(app.main.query(FooterKey))
        assert keys and all(k.region.right <= size[0] for k in keys)
        shown = {str(k.description) for k in keys}
        assert {"Help", "Quit", "Panes", "Threshold"} <= shown
        for key in keys:  # each drawn whole: its key and its description
            text = rendered(key)
            assert str(key.description) in text


def _footer(app: ThresholdLab) -> list[tuple[str, str, bool, tuple[str, ...]]]:
    keys = app.main.query(FooterKey)
    return [(k.key, str(k.description), k._disabled, tuple(sorted(k.classes))) for k in keys]


async def test_the_footer_rebuilds_its_keys_only_when_they_change() -> None:
    """Textual rebuilds a footer's keys on every key press and resize; ours keeps them
    while they would come out the same (the same widgets), and after a change shows
    what a footer built from scratch shows: focus on the row table, then 80 columns."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.pause()
        before = list(app.main.query(FooterKey))
        await pilot.press("right", "shift+right", "c", "l", "l")
        await pilot.resize_terminal(SIZE[0] + 1, SIZE[1])  # a column more: the same keys fit
        await pilot.pause()
        await pilot.pause()
        assert list(app.main.query(FooterKey)) == before  # kept, not rebuilt
        await pilot.press("tab")  # the row table's keys join the footer's
        await pilot.pause()
        await pilot.resize_terminal(*SMALL)
        await pilot.pause()
        await pilot.pause()
        after = _footer(app)
    fresh = make_app()
    async with fresh.run_test(size=SMALL) as pilot:
        await pilot.pause()
        await pilot.press("right", "shift+right", "c", "l", "l", "tab")
        await pilot.pause()
        await pilot.pause()
        assert after == _footer(fresh)
        assert len(after) < len(before)


async def test_the_strip_shows_density_at_5000_rows_and_says_what_its_digits_mean(
    tmp_path: Path,
) -> None:
    # Before: nearly every column read "#" at 5,000 rows, explained nowhere.
    rng = np.random.default_rng(5)
    y = rng.random(5000) < 0.3
    s = 1 / (1 + np.exp(-(rng.normal(size=5000) + 1.5 * y)))
    p = tmp_path / "noisy.csv"
    body = "".join(f"{a:.6f},{int(b)}\n" for a, b in zip(s.tolist(), y.tolist(), strict=True))
    p.write_text("score,label\n" + body)
    app = file_app(str(p))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("3")
        await pilot.pause(0.5)
        text = str(app.main.query_one(ScoreStrip).render())
        lines = text.split("\n")
        lanes = [line for line in lines if line.startswith((" #=", " actual", "    "))]
        marks = "".join(line[10:] for line in lanes)
        assert marks.count("#") <= 4  # the busiest columns only (one or two a lane)
        assert len({c for c in marks if c.isdigit()}) >= 5  # density in tenths
        assert sum(line.startswith(" #=") for line in lines) == 2  # each lane's busiest
        assert "digits: " in text and "tenths of " in text and "busiest (#)" in text


# Six more since the agreement metrics, Cohen's kappa, informedness, markedness, the DOR, the
# Fowlkes-Mallows and Jaccard indices after the sixteen.
@pytest.mark.parametrize(("size", "more"), [((120, 40), 12), ((80, 24), 12)])
async def test_the_reduced_fraction_after_the_counts_never_costs_the_panel_a_metric(
    size: tuple[int, int], more: int
) -> None:
    # "= 4/5" after "8/10" makes longer lines: they wrapped, and at 80x24 the
    # panel listed two metrics fewer (8 more, not 6). It is left out where it would take
    # a line. (At 120x40 the counts themselves cost F2's line: balanced accuracy's
    # "(8/10+8/10)/2 = 4/5 = 0.8" wraps where "(4/5+4/5)/2" fitted, and its exact
    # value is not a ratio of counts, so there is no reduced form to leave out.)
    app = make_app("good")
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        text = app.main.query_one(MetricsPanel).plain
        assert f"m: all metrics ({more} more)" in text, text
        assert "precision = TP/(TP+FP) = 8/(8+2) = 8/10" in text
