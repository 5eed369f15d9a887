"""Pilot tests: the state behind each behaviour of the explorer."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.session.session import Session
from threshold_lab.tui.app import ThresholdLab
from threshold_lab.tui.commands import COMMANDS
from threshold_lab.tui.screens.dialogs import ConfirmDialog, ValueDialog
from threshold_lab.tui.screens.help import HelpScreen
from threshold_lab.tui.widgets.lesson_line import LessonLine

from tests.tui.helpers import (
    SIZE,
    SMALL,
    active_screen,
    as_bindings,
    make_app,
    retype,
    system_commands,
)


async def test_opening_state() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        m = app.main
        assert m.session.threshold == 0.5
        assert m.analysis is not None and m.analysis.counts == Counts(2, 1, 1, 1)
        assert m.status_text == (
            "Threshold 0.5: 3 of 5 predicted positive; TP 2, FP 1, TN 1, FN 1; "
            "precision 2/3, recall 2/3."
        )


async def test_threshold_keys() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press("right")
        assert m.session.threshold == 0.51
        await pilot.press("shift+right", "shift+right", "shift+right")
        assert m.session.threshold == pytest.approx(0.81)
        assert m.analysis is not None and m.analysis.counts == Counts(1, 0, 2, 2)
        await pilot.press("left", "shift+left")
        assert m.session.threshold == pytest.approx(0.7)
        await pilot.press("home")
        assert m.session.threshold is None
        assert m.analysis.metrics["precision"].value is None
        await pilot.press("end")
        assert m.session.threshold == 0.1
        assert m.analysis.counts == Counts(3, 2, 0, 0)


async def test_tie_group_jumps() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press("home", "right_square_bracket")
        assert m.session.threshold == 0.9
        await pilot.press("right_square_bracket")
        assert m.session.threshold == 0.8 and m.analysis is not None
        assert m.analysis.counts == Counts(2, 1, 1, 1)  # both 0.8 rows entered together
        await pilot.press("left_square_bracket", "left_square_bracket")
        assert m.session.threshold is None


async def test_typed_threshold_valid_and_invalid() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press("t", *retype("0.85"), "enter")
        assert m.session.threshold == 0.85
        await pilot.press("t")
        await pilot.press(*retype("abc"), "enter")
        assert isinstance(app.screen, ValueDialog)
        assert m.session.threshold == 0.85
        await pilot.press("escape")
        assert m.session.threshold == 0.85 and active_screen(app) is m
        await pilot.press("t", *retype("above-all"), "enter")
        assert m.session.threshold is None


async def test_an_unchanged_threshold_says_so() -> None:
    """t then Enter applies the value it shows: the threshold is unchanged (not
    "cannot go further that way", which is for a step key at an end)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press("t", "enter")
        assert m.session.threshold == 0.5
        assert m.message == "Threshold unchanged: 0.5, at tie group 2 of 4 (score 0.8, 2 rows)."
        await pilot.press("t", *retype("0.50"), "enter")
        assert m.message == "Threshold unchanged: 0.5, at tie group 2 of 4 (score 0.8, 2 rows)."
        await pilot.press("t", *retype("above-all"), "enter", "t", "enter")
        assert m.session.threshold is None
        assert m.message == "Threshold unchanged: above all scores (before tie group 1 of 4)."


async def test_edit_flip_add_delete_undo_redo_reset() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press("down", "enter", *retype("0.3"), "enter")
        assert m.session.data is not None and m.session.data.scores.tolist() == [
            0.9,
            0.3,
            0.8,
            0.4,
            0.1,
        ]
        assert m.analysis is not None and m.analysis.counts == Counts(2, 0, 2, 1)
        assert m.frame is not None
        assert m.frame.update.changed.among(m.session.data.scores).tolist() == [1]
        assert m.message == "Row s2: score from 0.8 to 0.3."
        await pilot.press("space")
        assert m.session.data.labels.tolist() == [True, True, True, False, True]
        await pilot.press("a", *retype("0.6 0"), "enter")
        assert m.session.data.n == 6 and m.session.data.row_id(5) == "new6"
        await pilot.press("delete")
        assert m.session.data.n == 5
        await pilot.press("ctrl+z")
        assert m.session.data.n == 6
        await pilot.press("ctrl+y")
        assert m.session.data.n == 5
        await pilot.press("r")
        assert m.session.data.scores.tolist() == [0.9, 0.8, 0.8, 0.4, 0.1]
        assert not m.session.dirty


async def test_rejected_score_edit_loses_nothing() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        before = m.session.data
        await pilot.press("enter", *retype("1.5"), "enter")
        assert isinstance(app.screen, ValueDialog)
        assert "outside [0, 1]" in str(app.screen.query_one("#dialog-error").render())
        await pilot.press("escape")
        assert m.session.data is before


async def test_last_row_cannot_be_removed() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press(*(["delete"] * 5))
        assert m.session.data is not None and m.session.data.n == 1
        assert "cannot remove the only row" in m.message


async def test_playback_steps_through_tie_groups() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press("home")
        seen = []
        for _ in range(4):
            await pilot.press("n")
            assert m.analysis is not None
            seen.append((m.session.threshold, m.analysis.counts.cells()))
        assert seen == [
            (0.9, (1, 0, 2, 2)),
            (0.8, (2, 1, 1, 1)),
            (0.4, (2, 2, 0, 1)),
            (0.1, (3, 2, 0, 0)),
        ]
        assert "2 rows enter together: 1 positive, 1 negative" not in m.message
        await pilot.press("N", "N")
        assert m.session.threshold == 0.8
        # s4 (0.4) left the positive side
        assert m.frame is not None
        assert m.frame.update.changed.among(m.session.data.scores).tolist() == [3]
        assert "2 rows enter together: 1 positive, 1 negative" in m.message
        await pilot.press("p")
        assert m.playback.playing
        await pilot.press("p")
        assert not m.playback.playing
        assert (
            m.session.data is not None and m.session.data.n == 5
        )  # playback never changes the data


async def test_presets_and_chart_cycle() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        m.load_preset("no-actual-positives")
        await pilot.pause()
        assert m.analysis is not None and m.analysis.curves.summaries.roc_auc.value is None
        assert str(m.chart_mode) == "roc"
        await pilot.press("c")
        assert str(m.chart_mode) == "pr"
        await pilot.press("c")
        assert str(m.chart_mode) == "both"
        await pilot.press("P")
        await pilot.press("enter")
        assert m.session.source == "preset canonical"


async def test_save_writes_csv_and_asks_before_overwrite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A short relative name: each character is a key press (a temporary directory's
    # whole path typed twice is hundreds of keys).
    monkeypatch.chdir(tmp_path)
    app = make_app()
    target = tmp_path / "rows.csv"
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press("space", "s", *retype("rows.csv"), "enter")
        assert target.read_text().splitlines()[:2] == ["id,score,label", "s1,0.9,0"]
        await pilot.press("s", *retype("rows.csv"), "enter")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        assert "Not saved" in m.message


async def test_quit_asks_when_there_are_unsaved_edits() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "q")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        assert active_screen(app) is app.main
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        help_text = str(app.screen.query_one("Static").render())
        assert "  [                        Previous tie group (threshold up" in help_text
        assert "  ]                        Next tie group (the next" in help_text
        await pilot.press("escape")
        await pilot.press("q", "y")
    assert app.return_code == 0


async def test_no_crash_on_a_storm_of_keys() -> None:
    keys = [
        "left",
        "right",
        "home",
        "end",
        "left_square_bracket",
        "right_square_bracket",
        "space",
        "delete",
        "ctrl+z",
        "ctrl+y",
        "c",
        "m",
        "n",
        "N",
        "r",
        "shift+left",
        "down",
        "up",
    ]
    app = make_app("all-tied")
    async with app.run_test(size=SIZE) as pilot:
        for i in range(120):
            await pilot.press(keys[(i * 7) % len(keys)])
        assert app.main.analysis is not None


async def test_every_key_is_a_palette_command() -> None:
    from threshold_lab.tui.widgets.row_table import RowTable

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        titles = [c.title for c in system_commands(app)]
        for b in app.main.all_bindings():
            assert any((b.tooltip or b.description) in t for t in titles), b.description
        flip = next(c for c in system_commands(app) if "actual label" in c.title)
        flip.callback()
        await pilot.pause()
        assert app.main.session.data is not None
        assert app.main.session.data.labels.tolist() == [False, False, True, False, True]
        # The row table's keys run on the row table.
        order = next(c for c in system_commands(app) if "Row order" in c.title)
        order.callback()
        await pilot.pause()
        assert app.main.query_one("#rows", RowTable).order == "score-desc"


@pytest.mark.parametrize("ascii", [False, True])
async def test_the_palette_names_the_arrow_keys_as_keys(ascii: bool) -> None:
    # Before: --ascii wrote "+0.01 (>)", and > is not the key.
    app = make_app(ascii=ascii)
    async with app.run_test(size=SIZE):
        titles = [c.title for c in system_commands(app)]
        right, left = ("right", "left") if ascii else ("→", "←")
        assert any(t.endswith(f"({right})") and "up by 0.01" in t for t in titles), titles
        assert any(t.endswith(f"({left})") and "down by 0.01" in t for t in titles)
        assert not any(t.endswith(("(>)", "(<)")) for t in titles)


async def test_all_metrics_screen_lists_every_metric() -> None:
    from threshold_lab.core.metrics.threshold_metrics import METRIC_NAMES
    from threshold_lab.tui.screens.help import MetricsScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("m")
        assert isinstance(app.screen, MetricsScreen)
        lines = app.screen.body.plain.splitlines()
        # Every metric, one a line, then how the intervals were made, then the
        # summaries.
        at = METRIC_NAMES.index
        assert lines[at("lr_minus")] == "LR− = FNR/TNR = (1/3)/(1/2) = 2/3 ≈ 0.6667"
        assert lines[at("lift")].startswith("lift = precision/prevalence")
        assert lines[len(METRIC_NAMES) - 1].startswith("Jaccard index = TP/(TP+FP+FN) = 2/(2+1+1)")
        assert lines[0].endswith("(95% CI 0.21 to 0.94, Wilson, n = 3)")
        assert lines[len(METRIC_NAMES)].startswith("(95% intervals: Wilson's for proportions")
        assert "Ranking summaries (every threshold at once)" in lines
        await pilot.press("m")
        assert active_screen(app) is app.main


async def test_every_key_is_on_screen_where_there_is_room() -> None:
    # From 50 rows the key line under the status lists what the footer has no room
    # for (below that, the rows go to the chart, and ? lists every key).
    from textual.widgets import Footer

    app = make_app()
    async with app.run_test(size=(200, 60)) as pilot:
        await pilot.pause()
        footer_actions = {b.action for b in as_bindings(app.main.BINDINGS) if b.show}
        more = str(app.main.query_one("#more-keys").render())
        # The footer's "1-4 Panes", l, h and z (the chart's message says them), E
        # (the line a file opened with --group starts with says it) and F (a folds'
        # chart's legend says it), b (a curve's chart's message says it) and S (b's does);
        # D, { and } (help and the palette list D; the band line says { and }); ( ) < >
        # (generated presets only: help, the palette and teaching.md say them).
        quiet = {c.ID for c in COMMANDS if not c.ON_KEY_LINE}
        assert {
            "band",
            "band-low-up",
            "band-low-down",
            "braille-line",
            "sound-file",
            "pane-chart",
            "pane-rows",
            "pane-sweep",
            "log-fpr",
            "roc-hull",
            "roc-smooth",
            "fold-curve",
            "groups",
            "own-thresholds",
            "overlap-more",
            "overlap-less",
            "balance-up",
            "balance-down",
        } == quiet
        for b in app.main.all_bindings():
            moves = b.action.startswith("move(") or (b.id or "").startswith("sweep-")
            if b.action not in footer_actions and not moves and b.id not in quiet:
                assert b.description in more, b.description
        assert "j Boundary" in more and "o Order" in more and "f Filter" in more
        assert "[ Prev group" in more and "] Next group" in more
        assert app.main.query_one(Footer).display


async def test_demo_is_the_tour_lesson_and_esc_leaves_it() -> None:
    app = make_app(demo=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        m = app.main
        line = m.query_one(LessonLine)
        assert m.lessons.running and line.display
        assert line.lesson is not None and line.lesson.heading.endswith("Step 1 of 9")
        assert line.lesson.body.startswith("Five hand-authored rows at threshold 0.5")
        await pilot.press("n")
        assert m.session.threshold == 0.81 and line.lesson.heading.endswith("Step 2 of 9")
        await pilot.press("right")  # the presenter explores: the tour goes on
        assert m.lessons.running and m.session.threshold == 0.82
        await pilot.press("escape")  # leaves, keeping the state
        assert not m.lessons.running and not line.display
        assert m.session.threshold == 0.82
        assert m.message.startswith("You left the lesson")


async def test_demo_runs_to_its_end() -> None:
    app = make_app(demo=True)
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        for _ in range(8):
            m.lessons.forward()
        await pilot.pause()
        assert m.session.source == "preset delivery-b"
        assert m.lessons.entered is not None and m.lessons.entered.heading == "Step 9 of 9"
        m.lessons.forward()
        assert not m.lessons.running
        assert m.message.startswith("The lesson is over.")


#: What each demo step speaks of: the matrix's denominators, the ROC point, AP
#: against the PR area, accuracy's counts, two models' AUC against AP.
DEMO_VIEWS = [
    *[("matrix", "roc")] * 3,
    *[("chart", "roc")] * 3,
    ("chart", "pr"),
    ("matrix", "pr"),
    ("chart", "both"),
]


@pytest.mark.parametrize("size", [SMALL, SIZE])
async def test_each_demo_step_shows_what_its_caption_speaks_of(size: tuple[int, int]) -> None:
    """At 80x24 (one pane at a time) the tour stayed on the matrix while its captions
    spoke of the ROC point and of AP against the PR area. Where every pane shows, the
    panes stay and the chart is the one spoken of."""
    app = make_app(demo=True)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        m = app.main
        seen = []
        for step in range(9):
            if step:
                m.lessons.forward()
            await pilot.pause()
            assert m.message.startswith(f"Step {step + 1} of 9")
            seen.append((m.view, m.chart_mode))
        if size == SMALL:
            assert seen == DEMO_VIEWS
        else:
            assert seen == [("all", chart) for _, chart in DEMO_VIEWS]


async def test_terminal_cursor_follows_the_selected_row() -> None:
    from textual.geometry import Offset
    from threshold_lab.tui.widgets.row_table import RowTable

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.main.query_one(RowTable)
        first = app.cursor_position
        # below the summary line and the column names
        assert first == Offset(table.content_region.x, table.region.y + 2)
        await pilot.press("down", "down")
        assert app.cursor_position == Offset(first.x, first.y + 2)


async def test_playback_speed_keys() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        m.playback.seconds = 1.0
        await pilot.press("plus")
        assert m.playback.seconds == 0.5
        await pilot.press("minus", "minus")
        assert m.playback.seconds == 2.0
        assert m.message == "Playback: 2 s per tie group (+ faster, - slower)."


@pytest.mark.parametrize(
    ("lc_all", "flags", "expected"),
    [
        ("C", [], True),
        ("en_GB.UTF-8", [], False),
        ("C", ["--no-ascii"], False),
        ("en_GB.UTF-8", ["--ascii"], True),
    ],
)
def test_ascii_follows_the_locale_unless_told(
    monkeypatch: pytest.MonkeyPatch, lc_all: str, flags: list[str], expected: bool
) -> None:
    from threshold_lab.tui.cli import main

    opened: list[bool] = []
    monkeypatch.setattr(ThresholdLab, "run", lambda app: opened.append(app.ascii))
    monkeypatch.setenv("LC_ALL", lc_all)
    assert main(flags) == 0 and opened == [expected]


def test_unknown_theme_is_one_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    from threshold_lab.tui.cli import main

    assert main(["--theme", "nope"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("threshold-lab: error: no theme named 'nope'; themes are: ")
    assert "ansi-dark" in err and "Traceback" not in err


def test_screenshot_command_writes_an_svg(tmp_path: Path) -> None:
    from threshold_lab.tui.cli import main

    out = tmp_path / "shot.svg"
    assert (
        main(["screenshot", str(out), "--preset", "good", "--press", "home,n", "--size", "100x30"])
        == 0
    )
    svg = out.read_text()
    assert svg.startswith("<svg") and "Threshold&#160;0.95" in svg
    assert main(["screenshot", str(tmp_path / "no" / "x.svg")]) == 2


async def test_virtual_tables_scroll_far_and_edit_the_right_row() -> None:
    import numpy as np
    from threshold_lab.core.data.dataset import make_dataset
    from threshold_lab.tui.widgets.row_table import RowTable
    from threshold_lab.tui.widgets.sweep_table import SweepTable

    n = 5000
    rng = np.random.default_rng(1)
    data = make_dataset(np.round(rng.random(n), 3), rng.random(n) < 0.4)
    app = ThresholdLab(Session(data, 0.5, source="generated"))
    async with app.run_test(size=SIZE) as pilot:
        table = app.main.query_one(RowTable)
        for _ in range(40):  # 40 pages of 20 rows
            await pilot.press("pagedown")
        assert table.selected_row == 800
        assert table.top <= 800 < table.top + table._body_height()
        assert table.summary.startswith("rows ") and "of 5,000; file order" in table.summary
        before = bool(data.labels[800])
        await pilot.press("space")
        assert app.main.session.data.labels[800] == (not before)
        assert "Row 801: actual label flipped to" in app.main.message
        await pilot.press("G")
        assert table.selected_row == n - 1
        await pilot.press("g")
        assert table.selected_row == 0 and table.top == 0
        sweep = app.main.query_one(SweepTable)
        await pilot.press("end")
        last = app.main.session.analysis.sweep.size - 1
        assert app.main.session.analysis.point == last
        assert sweep.top <= last < sweep.top + sweep._body_height()


async def test_rows_sort_by_score_filter_by_cell_and_jump_to_the_boundary() -> None:
    from threshold_lab.tui.widgets.row_table import RowTable

    app = make_app()  # canonical: s1 0.9 P, s2 0.8 N, s3 0.8 P, s4 0.4 N, s5 0.1 P at 0.5
    async with app.run_test(size=SIZE) as pilot:
        table = app.main.query_one(RowTable)
        m = app.main

        def shown() -> list[str]:
            return [m.session.data.row_id(int(i)) for i in table.view.indices(0, len(table.view))]

        await pilot.press("o")
        assert str(table.order) == "score-desc" and shown() == ["s1", "s2", "s3", "s4", "s5"]
        assert m.message == "Rows in score, high to low."
        await pilot.press("o")
        assert shown() == ["s5", "s4", "s3", "s2", "s1"]  # high to low, read backwards
        await pilot.press("o")
        assert str(table.order) == "file"
        await pilot.press("f")
        assert table.cell == "TP" and shown() == ["s1", "s3"]
        assert m.message.startswith("Showing only TP rows: 2 at this threshold")
        await pilot.press("f")
        assert shown() == ["s2"]  # FP
        await pilot.press("right_square_bracket")  # 0.4 enters: s4 becomes FP too
        assert shown() == ["s2", "s4"]
        await pilot.press("f", "f")
        assert table.cell == "FN" and shown() == ["s5"]
        await pilot.press("f")
        assert table.cell is None and len(table.view) == 5
        # At 0.4 the boundary scores are 0.4 (lowest admitted) and 0.1 (highest left out).
        await pilot.press("j")
        assert table.selected_row == 3 and "Row s4, score 0.4" in m.message
        await pilot.press("j")
        assert table.selected_row == 4 and "below the threshold" in m.message
        await pilot.press("j")
        assert table.selected_row == 3  # round again


async def test_an_empty_filtered_view_says_so_and_edits_nothing() -> None:
    from threshold_lab.tui.widgets.row_table import RowTable

    app = make_app(threshold=None)  # above all: no TP rows
    async with app.run_test(size=SIZE) as pilot:
        table = app.main.query_one(RowTable)
        await pilot.press("f")
        assert len(table.view) == 0 and table.selected_row is None
        assert table.summary.startswith("no TP rows at this threshold")
        await pilot.press("space", "delete")
        assert not app.main.session.dirty


async def test_large_data_draws_curves_and_strip_off_the_ui_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Past a size, an edit's curve-wide work (summaries, reduced curves, the strip's
    # bins) runs in the screen's worker while the screen answers; placeholders say
    # so, and the finished drawing follows. Lowering the limit runs that path on 5 rows.
    from threshold_lab.core.analysis import analyse
    from threshold_lab.core.drawing import prepared
    from threshold_lab.core.session.edits import FlipLabel
    from threshold_lab.core.session.update import Update
    from threshold_lab.tui.state.frame import Frame
    from threshold_lab.tui.widgets import charts, score_strip
    from threshold_lab.tui.widgets.text import ItemLines

    monkeypatch.setattr(prepared, "BACKGROUND_ROWS", 2)
    app = make_app()
    async with app.run_test(size=(120, 50)) as pilot:  # tall enough for the strip
        await app.workers.wait_for_complete()
        await pilot.pause()
        roc = app.screen.query_one("#roc-chart", charts.CurveChart)
        strip = app.screen.query_one(score_strip.ScoreStrip)
        summary = app.screen.query_one("#chart-summary", ItemLines)
        assert "ROC AUC (trapezoid) 7/12" in summary.plain
        await pilot.press("space")  # s1 (0.9, actual 1) becomes a negative
        await app.workers.wait_for_complete()
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        m = app.main
        assert m.frame is not None and m.frame.ready is not None
        assert "ROC AUC (trapezoid) 1/4" in summary.plain  # the oracle's value below
        assert "Drawing" not in str(roc.render()) and "O" in str(roc.render())
        assert "actual 1" in str(strip.render())
        # Before the worker is done, a chart and the strip say what they are doing.
        fresh = analyse(FlipLabel(0).apply(m.session.data), 0.5)  # new rows, not prepared
        roc.frame = strip.frame = Frame(Update(fresh), None)
        assert str(roc.render()) == "Drawing the ROC curve of these rows…"
        assert str(strip.render()) == "Placing 5 rows on the score axis…"


def test_the_flipped_fixture_auc_is_one_quarter() -> None:
    # The oracle for the test above: scores .9 .8 .8 .4 .1, labels 0 0 1 0 1.
    from tests import oracle

    assert oracle.pairwise_auc([0.9, 0.8, 0.8, 0.4, 0.1], [0, 0, 1, 0, 1]) == Fraction(1, 4)


async def test_no_color_draws_every_widget(monkeypatch: pytest.MonkeyPatch) -> None:
    # Regression: the Line-API tables' blank lines had no style, and Textual's
    # NO_COLOR filter failed on them, so the explorer crashed on start under NO_COLOR.
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("right", "G")
        await pilot.pause()
        shot = app.export_screenshot()
    assert app.return_code in (None, 0)
    assert "Threshold 0.51" in shot.replace("&#160;", " ")


async def test_a_reset_or_a_preset_reaches_each_widget_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # One change, one result: a reset moves the rows and the threshold together, and
    # each widget must be handed the new state once, not once per moved part.
    import functools
    from collections import Counter
    from collections.abc import Callable

    from threshold_lab.tui.widgets.charts import ChartPanel, CurveChart
    from threshold_lab.tui.widgets.confusion import ConfusionMatrix, MetricsPanel
    from threshold_lab.tui.widgets.row_table import RowTable
    from threshold_lab.tui.widgets.sweep_table import SweepTable
    from threshold_lab.tui.widgets.text import StatusLine
    from threshold_lab.tui.widgets.threshold_bar import ThresholdBar

    calls: Counter[object] = Counter()
    bound = (ThresholdBar, ConfusionMatrix, MetricsPanel, ChartPanel, CurveChart)
    for cls in (*bound, RowTable, SweepTable, StatusLine):

        def counted(watch: Callable[..., object], *args: object) -> Callable[..., object]:
            @functools.wraps(watch)  # the same parameters, so Textual passes the same values
            def spy(self: object, *args: object) -> object:
                calls[self] += 1
                return watch(self, *args)

            return spy

        monkeypatch.setattr(cls, "watch_frame", counted(cls.watch_frame))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press("right", "space", "down", "enter", *retype("0.2"), "enter")
        await pilot.pause()
        widgets = [w for cls in (*bound, RowTable, SweepTable, StatusLine) for w in m.query(cls)]
        # The metric-vs-threshold, reliability, gains, DET, decision and cost charts are
        # CurveCharts too.
        assert len(widgets) == 15
        for change in ("r", "preset"):
            calls.clear()
            if change == "r":
                await pilot.press("r")
            else:
                m.load_preset("good")
            await pilot.pause()
            assert {calls[w] for w in widgets} == {1}, change
        assert m.session.data.n == 20 and m.status_text.startswith("Threshold 0.5: ")


async def test_ctrl_q_and_the_palette_quit_ask_before_losing_edits() -> None:
    # Textual's own quit (ctrl+q, and Quit in the palette) exited at once over
    # unsaved edits.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "ctrl+q")
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        assert active_screen(app) is app.main and app.return_code is None
        await app.action_quit()  # what the palette's Quit runs
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
    assert app.return_code == 0


async def test_ctrl_q_quits_at_once_without_edits() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("ctrl+q")
    assert app.return_code == 0


async def test_a_preset_over_unsaved_edits_asks_first() -> None:
    # P (and the palette's presets) loaded over unsaved edits and cleared the history.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press("space")
        m.load_preset("good")  # what the palette's "Preset: good" runs
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        assert m.session.data.n == 5 and m.session.dirty
        assert m.message == "Preset not loaded; the edits are kept."
        await pilot.press("ctrl+z")  # the history is intact
        assert not m.session.dirty
        await pilot.press("space", "P", "down", "enter")  # the picker asks too
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("y")
        assert m.session.data.n != 5 or m.session.source != "preset canonical"
        assert not m.session.dirty


async def test_the_score_column_narrows_again_after_an_undone_transform() -> None:
    # Before: "0.0010627599999999998" widened the column for good.
    from threshold_lab.tui.widgets.row_table import RowTable

    app = make_app("good")
    async with app.run_test(size=SIZE) as pilot:
        table = app.main.query_one(RowTable)
        await pilot.pause()
        before = table._widths["score"]
        await pilot.press("T", *retype("square"), "enter")
        await pilot.pause()
        lines = [table.render_line(y).text for y in range(table.size.height)]
        assert any("0.7396" in line for line in lines)
        assert not any("99999" in line for line in lines), lines
        await pilot.press("ctrl+z")
        await pilot.pause()
        lines = [table.render_line(y).text for y in range(table.size.height)]
        assert table._widths["score"] == before, lines


async def test_a_message_too_long_for_its_line_says_so_and_the_log_has_it_whole() -> None:
    # Before: "...runner-up threshold 0.9793 with recall" and the rest was lost.
    from threshold_lab.tui.screens.help import MessageLogScreen
    from threshold_lab.tui.widgets.text import MessageLine

    app = make_app("good")
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("d", *retype("max precision where recall >= 0.5"), "enter")
        await pilot.pause()
        full = app.main.message
        assert full.endswith("runner-up threshold 0.55 with precision 8/9.")
        shown = str(app.main.query_one(MessageLine).render())
        assert shown.endswith("… (L: the whole message)") and shown != full
        await pilot.press("L")
        await pilot.pause()
        assert isinstance(app.screen, MessageLogScreen)
        text = str(app.screen.query_one("Static").render())
        assert f"1. {full}" in text
        await pilot.press("escape")
        await pilot.pause()
        for _ in range(60):  # the log keeps the last 50
            await pilot.press("right")
        await pilot.pause()
        assert len(app.main.said) == 50


async def test_a_message_that_fits_is_shown_as_said() -> None:
    from threshold_lab.tui.widgets.text import MessageLine

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("right")
        await pilot.pause()
        assert str(app.main.query_one(MessageLine).render()) == app.main.message


async def test_a_message_of_double_width_characters_is_measured_by_its_cells() -> None:
    # MessageLine.fit measured with textwrap, by characters: a sentence naming a file in
    # Chinese characters took twice the cells it counted and ran past its two lines.
    from rich.text import Text
    from threshold_lab.tui.widgets.text import MessageLine

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        line = app.main.query_one(MessageLine)
        width = line.content_region.width
        said = "Saved the rows of " + "数据 " * 36 + "and nothing was lost."
        assert len(said) < 2 * width < Text(said).cell_len  # fits by characters, not cells
        shown = line.fit(said)
        assert shown.endswith(MessageLine.CUT)
        assert len(Text(shown).wrap(app.console, width)) <= 2


@pytest.mark.parametrize("key", ["c", "l", "h", "R"])
async def test_chart_keys_show_the_chart_where_it_is_hidden(key: str) -> None:
    """At 80x24 (one pane at a time), a chart key on pane 1 shows pane 2, so it never
    changes a chart that cannot be seen; where all panes show, the pane stays."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        m = app.main
        before = m.view
        await pilot.press(key)
        assert (before, m.view) == ("matrix", "chart")
        if key != "R":
            assert m.message.startswith("Pane 2 shown. ")
        await pilot.press("3", key)
        assert m.view == "chart"
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press(key)
        assert m.view == "all"
        assert not m.message.startswith("Pane 2")


async def test_help_and_palette_name_every_chart() -> None:
    """c cycles nine charts: its help entry and palette entry name each, in order, and
    so do pane 2's; the message on reaching one says what it shows."""
    from threshold_lab.tui.commands import CHARTS
    from threshold_lab.tui.state.chart_modes import CHART_MODES

    assert tuple(CHARTS) == CHART_MODES
    names = [name for name, _ in CHARTS.values()]
    assert names == [
        *("ROC", "PR", "both", "metrics", "reliability", "gains", "DET"),
        *("decision curve", "cost curves"),
    ]
    listed = ", ".join(names)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        by_key = {b.key: b for b in app.main.all_bindings()}
        assert listed in by_key["c"].tooltip
        assert by_key["2"].tooltip == "Pane 2: the chart (c for the next of its 9)"
        titles = [c.title for c in system_commands(app)]
        assert any(listed in t and "(c)" in t for t in titles)
        m = app.main
        for mode, (_, words) in [*list(CHARTS.items())[1:], next(iter(CHARTS.items()))]:
            await pilot.press("c")
            assert m.chart_mode == mode
            assert m.message.startswith(f"Chart: {words}")


async def test_dialogs_wrap_at_80x24() -> None:
    """A dialog's question wraps: at 80x24 the load-preset question over unsaved
    edits was cut at "... and lo", hiding what y would lose."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("3", "space")
        app.main.load_preset("predict-no-positives")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        text = " ".join(app.export_screenshot().replace("&#160;", " ").split())
        assert "Load preset predict-no-positives and" in text  # wrapped, not cut
        assert "lose them?" in text


async def test_the_message_log_opens_at_the_newest() -> None:
    """L lists the newest message first (at the top, where the log opens and a screen
    reader starts), each numbered as said, 1 the oldest kept."""
    from threshold_lab.tui.screens.help import MessageLogScreen

    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(30):
            await pilot.press("right")
        said = list(app.main.said)
        await pilot.press("L")
        await pilot.pause()
        assert isinstance(app.screen, MessageLogScreen)
        text = str(app.screen.query_one("Static").render())
        lines = text.splitlines()
        assert lines[0] == f"Messages (the last {len(said)}, newest first)"
        assert lines[2] == f"{len(said)}. {said[-1]}"
        assert lines[3] == f"{len(said) - 1}. {said[-2]}"
        assert f"1. {said[0]}" in lines
        assert app.screen.query_one("#message-log").scroll_y == 0


async def test_terminal_cursor_on_the_threshold_and_the_active_point() -> None:
    """Where no table has the keys (panes 1 and 2 at 80x24), the terminal's cursor,
    which screen magnifiers and braille displays follow, sits on the threshold's value
    on pane 1 and on the active point (the O) on the chart."""
    from rich.text import Text
    from textual.geometry import Offset
    from threshold_lab.tui.widgets.charts import Chart
    from threshold_lab.tui.widgets.threshold_bar import ThresholdBar

    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        m = app.main
        bar = m.query_one(ThresholdBar).content_region
        assert m.view == "matrix" and m.focused is None
        assert app.cursor_position == Offset(bar.x + len("Threshold "), bar.y)
        await pilot.press("2")
        await pilot.pause()
        chart = next(c for c in m.query(Chart) if c.display and c.active_cell is not None)
        at = chart.active_offset()
        assert at is not None and app.cursor_position == at
        drawn = chart.render()
        assert isinstance(drawn, Text) and chart.active_cell is not None
        col, row = chart.active_cell
        assert drawn.plain.splitlines()[row][col] == "O"
        await pilot.press("left_square_bracket")  # the point moves: the cursor with it
        await pilot.pause()
        assert app.cursor_position == chart.active_offset() != at
        await pilot.press("1")
        await pilot.pause()
        assert app.cursor_position == Offset(bar.x + len("Threshold "), bar.y)


async def test_a_dialog_puts_the_terminal_cursor_in_its_field_and_redraws() -> None:
    """The S dialog's field takes the terminal's cursor once it has its place (the
    field sets it on focus, before layout), and asks for a redraw: a real terminal's
    cursor moves only when the screen is drawn (checked by hand in tmux, where it had
    stayed near the corner)."""
    from textual.widgets import Input

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.press("S")
        await pilot.pause()
        await pilot.pause()
        field = app.screen.query_one("#dialog-input", Input)
        assert field.has_focus and field.region.contains_point(app.cursor_position)
        assert app.cursor_position == field.cursor_screen_offset
        await pilot.press("escape")


@pytest.mark.parametrize("chart", ["roc", "pr", "det", "both"])
async def test_tie_group_keys_walk_the_curve_shown(chart: str) -> None:
    """With a curve's chart shown, [ and ] walk it: the message line says the step as
    plain walk does, from the same core sentence, and the cursor sits on the point."""
    from textual.geometry import Offset
    from threshold_lab.core.curves.walk import entered_rows, step_words
    from threshold_lab.tui.widgets.charts import Chart
    from threshold_lab.tui.widgets.threshold_bar import ThresholdBar

    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        m = app.main
        await pilot.press("2", "home")
        m.chart_mode = chart  # type: ignore[assignment]
        kind = "roc" if chart == "both" else chart
        for key, point in [("]", 1), ("]", 2), ("]", 3), ("[", 2)]:
            await pilot.press("right_square_bracket" if key == "]" else "left_square_bracket")
            await pilot.pause()
            a = m.analysis
            assert a is not None and a.point == point
            rows, count = entered_rows(a.data, a.sweep, point)
            assert m.message == step_words(a.sweep, kind, point, rows, count)
            assert m.message.startswith(f"Point {point + 1} of 5: ")
            drawn = [c.active_offset() for c in m.query(Chart) if c.display]
            drawn = [at for at in drawn if at is not None]
            if drawn:
                assert app.cursor_position in drawn
            else:  # not drawn (DET has no point at FPR 0 or 1): on the threshold
                bar = m.query_one(ThresholdBar).content_region
                assert app.cursor_position == Offset(bar.x + len("Threshold "), bar.y)
            assert drawn or (chart == "det" and point in (1, 3))  # FPR 0, FPR 1
        assert m.message == (
            {
                "pr": "Point 3 of 5: recall 2/3, precision 2/3; right and down",
                "det": "Point 3 of 5: FPR 1/2, FNR 1/3; diagonal, down and right",
            }.get(chart, "Point 3 of 5: FPR 1/2, TPR 2/3; diagonal")
            + "; slope 2/3 (1 positive, 1 negative entered); threshold 0.8; "
            "rows entered: s2, s3."
        )
        await pilot.press("1", "right_square_bracket")  # no chart shown: a move, said so
        assert m.message.startswith("Moved: ")


@pytest.mark.parametrize("size", [SMALL, SIZE])
async def test_b_shows_the_braille_line_with_the_cursor_on_the_point(
    size: tuple[int, int],
) -> None:
    """b: the shown curve as core's braille line above the chart, the active point's
    cell marked and the terminal's cursor on it as the threshold moves; c to PR reads
    the PR curve; b again hides it."""
    from textual.geometry import Offset
    from threshold_lab.core.curves.braille import braille_line, point_cell
    from threshold_lab.tui.widgets.charts.braille import BrailleStrip

    app = make_app("good")
    async with app.run_test(size=size) as pilot:
        m = app.main
        strip = m.query_one(BrailleStrip)
        await pilot.press("b")
        await pilot.pause()
        assert strip.display and m.braille_line and m.focused is None
        assert m.view in ("chart", "all")
        a = m.analysis
        assert a is not None
        want = braille_line(a.sweep, "roc", 40)
        assert strip.render().plain == f"{want.cells} ROC"
        said = m.said[-1]  # whole, as the log (L) has it
        assert "Braille line of the ROC curve above the chart" in said
        assert said.endswith(f"(b: hide; S: the curve as sound); {want.scale}.")
        for key in ("home", "right_square_bracket", "end"):
            await pilot.press(key)
            await pilot.pause()
            a = m.analysis
            assert a is not None
            cell = point_cell(a.sweep, "roc", a.point, 40)
            assert cell is not None
            at = strip.content_region
            assert app.cursor_position == Offset(at.x + cell, at.y)
            spans = strip.render().spans
            assert [(s.start, s.end, str(s.style)) for s in spans] == [(cell, cell + 1, "reverse")]
        m.chart_mode = "pr"
        await pilot.pause()
        assert strip.render().plain.startswith(braille_line(a.sweep, "pr", 40).cells)
        m.chart_mode = "metrics"  # not a curve: no line
        await pilot.pause()
        assert not strip.display
        m.chart_mode = "roc"
        await pilot.press("b")
        await pilot.pause()
        assert not strip.display and m.message == "Braille line hidden (b: show it again)."


async def test_S_writes_the_curve_as_sound_or_offers_it_as_a_download(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """S: the shown curve as core's WAV file (PR on the PR chart), named in a dialog,
    asked before replacing a file; served to a browser, offered as a download instead
    (the same bytes), nothing written where the explorer runs."""
    import io
    import wave

    from threshold_lab.core.curves.sound import sonify, write_wav
    from threshold_lab.core.output import output

    app = make_app("good")
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        a = m.analysis
        assert a is not None
        target = tmp_path / "roc.wav"
        await pilot.press("S")
        assert isinstance(app.screen, ValueDialog)
        await pilot.press(*retype(str(target)), "enter")
        await pilot.pause()
        want = tmp_path / "want.wav"
        write_wav(output(want), sonify(a.sweep, "roc"))
        assert target.read_bytes() == want.read_bytes()
        assert m.message.startswith(f"Wrote {target}: the ROC curve as 21 tones of 0.25 s")
        await pilot.press("S", *retype(str(target)), "enter")  # exists: asked first
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("n")
        assert m.message == "Not written."
        m.chart_mode = "pr"
        await pilot.press("S", *retype(str(tmp_path / "x.txt")), "enter")
        assert isinstance(app.screen, ValueDialog)  # refused in the dialog: not a .wav
        await pilot.press("escape")
        assert m.message == "Sound cancelled; nothing written."
        # Served: no dialog, the PR curve's bytes delivered, nothing left on disk.
        delivered: list[tuple[bytes, str | None, str | None]] = []

        def deliver(f: io.BytesIO, *, save_filename: str, mime_type: str) -> None:
            delivered.append((f.getvalue(), save_filename, mime_type))

        monkeypatch.setattr(type(app), "is_web", property(lambda self: True))
        monkeypatch.setattr(app, "deliver_binary", deliver)
        await pilot.press("S")
        await pilot.pause()
        assert not isinstance(app.screen, ValueDialog)
        ((data, name, mime),) = delivered
        pr = tmp_path / "pr-want.wav"
        write_wav(output(pr), sonify(a.sweep, "pr"))
        assert (data, name, mime) == (pr.read_bytes(), "pr.wav", "audio/wav")
        with wave.open(io.BytesIO(data)) as w:
            assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (2, 2, 22050)
        assert m.message.startswith("Offered pr.wav: the PR curve as ")
        assert m.message.endswith("; the browser downloads it.")


async def test_S_on_rows_of_one_class_is_refused_saying_why() -> None:
    """Found by the soak: S on rows with no positives raised out of the app."""
    app = make_app("no-actual-positives")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("S")
        assert not isinstance(app.screen, ValueDialog)
        assert app.main.message == (
            "Refused: sonify roc: the rows have no actual positives: the curve is undefined."
        )


async def test_b_under_ascii_says_where_the_braille_line_is() -> None:
    from threshold_lab.tui.widgets.charts.braille import BrailleStrip

    app = make_app("good", ascii=True)
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("b")
        assert not app.main.query_one(BrailleStrip).display
        assert "--ascii does not draw" in app.main.message


@pytest.mark.parametrize("pane", ["1", "2"])
async def test_row_keys_where_no_rows_show_say_where_they_are(pane: str) -> None:
    """At 80x24 on pane 1 or 2 no row is shown: Enter opens no score of a row the user
    cannot see, space flips no label, and each says where the rows are."""
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        m = app.main
        await pilot.press(pane, "enter")
        assert app.screen is m
        assert m.message == "Enter (edit its score) acts on the selected row: 3 shows the rows."
        await pilot.press("space", "delete")
        assert not m.session.dirty and m.session.data.n == 5
        assert m.message == "Delete (remove it) acts on the selected row: 3 shows the rows."


async def test_the_header_keeps_the_tie_count_at_80x24() -> None:
    """Short of room, the threshold bar drops the tie group's score but keeps how many
    rows it holds: tied rows entering together is what the canonical rows teach."""
    from threshold_lab.tui.widgets.threshold_bar import ThresholdBar

    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        line = app.main.query_one(ThresholdBar).render_line(0).text.rstrip()
        assert line.endswith("tie group 2 of 4 (2 rows)"), line


def test_ascii_separators_are_bars_not_full_stops() -> None:
    """--ascii: an item separator ``·`` is ``|`` (``.`` read as a full stop), while a
    product's ``·`` in a formula is a ``*`` where the explorer writes it, and stays one
    cell in a rendered line."""
    from rich.segment import Segment
    from textual.color import Color
    from threshold_lab.tui.ascii import AsciiFilter, to_ascii

    line = [Segment("Threshold 0.5"), Segment(" · positive if score >= 0.5 · "), Segment("2·2")]
    shown = "".join(s.text for s in AsciiFilter().apply(line, Color(0, 0, 0)))
    assert shown == "Threshold 0.5 | positive if score >= 0.5 | 2.2"
    assert to_ascii("F1 = 2·2/(2·2+1+1) · n = 5") == "F1 = 2*2/(2*2+1+1) | n = 5"


async def test_side_by_side_charts_keep_their_axis_names_whole_at_80x24() -> None:
    """Both charts at 80x24 on folds: each legend line ends with its axis's whole name
    (the ROC chart's read "x: FP": the gap before it was kept, the name cut)."""
    from rich.text import Text
    from threshold_lab.tui.widgets.charts import Chart

    from tests.paths import DATA
    from tests.tui.helpers import file_app

    app = file_app(str(DATA / "folds.csv"), "--fold", "fold")
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("2", "c", "c")
        await pilot.pause()
        m = app.main
        assert m.chart_mode == "both"
        ends = []
        for chart in m.query(Chart):
            if not chart.display or not chart.region:
                continue
            drawn = chart.render()
            assert isinstance(drawn, Text)
            last = drawn.plain.splitlines()[-1].rstrip()
            assert len(last) <= chart.content_region.width
            ends.append(last.rsplit("x: ", 1)[-1])
        assert ends == ["FPR", "recall"]
