"""Defects of the explorer's screen, each held by a Pilot test."""

from __future__ import annotations

from functools import partial

import pytest
from textual.widgets import Label
from threshold_lab.core.session.rowview import NOTHING_CHANGED
from threshold_lab.tui.screens.dialogs import ValueDialog
from threshold_lab.tui.screens.help import MetricsScreen
from threshold_lab.tui.widgets.row_table import RowTable

from tests.tui.helpers import SIZE, keys, make_app, system_commands


async def test_play_starts_from_above_all_and_resumes_after_a_pause() -> None:
    # At 0.5, p played 0.5 -> 0.4 -> 0.1 although it said "from above all".
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press("p")
        assert m.session.threshold is None
        assert m.message.startswith("Playing the sweep from above all scores")
        await pilot.press("p", "right")  # pause, move by hand
        moved = m.session.threshold
        await pilot.press("p")  # resumes where it is
        assert m.session.threshold == moved and m.message.startswith("Playback resumed")
        await pilot.press("r", "p")  # a reset stops it; p starts again from above all
        assert m.session.threshold is None


async def test_typing_replaces_the_prefilled_value() -> None:
    # t at 0.1, typing 0.37 gave 0.10.37.
    app = make_app(threshold=0.1)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await pilot.pause()
        await pilot.press(*keys("0.37"), "enter")
        await pilot.pause()
        assert app.main.session.threshold == 0.37


async def test_messages_belong_to_the_action_that_made_them() -> None:
    # "Playback paused" stayed after home; "Reset..." stayed after c.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press("p", "p")
        assert m.message.startswith("Playback paused")
        await pilot.press("home")
        assert "Playback" not in m.message
        await pilot.press("r")
        assert m.message.startswith("Reset to preset canonical as loaded, threshold 0.5")
        await pilot.press("c")
        assert m.message.startswith("Chart: the precision-recall curve")


async def test_a_refusal_in_a_dialog_goes_when_the_text_changes() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await pilot.pause()
        await pilot.press(*keys("abc"), "enter")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ValueDialog)
        error = dialog.query_one("#dialog-error", Label)
        assert str(error.render()).startswith("Refused:")
        await pilot.press("backspace")
        await pilot.pause()
        assert str(error.render()) == ""


async def test_t_is_named_for_what_it_sets() -> None:
    # t was labelled "Type t".
    app = make_app()
    async with app.run_test(size=SIZE):
        t = next(b for b in app.main.all_bindings() if b.key == "t")
        assert t.description == "Threshold" and t.tooltip.startswith("Type a threshold")


async def test_all_metrics_include_the_summaries_and_probability_metrics() -> None:
    # Log loss and Brier never appeared; AUC and AP were missing from m.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("m")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MetricsScreen)
        body = screen.body.plain
        for line in (
            "ROC AUC = Σ ΔFPR·(TPR+TPR′)/2 = 7/12 ≈ 0.5833",
            "average precision = Σ (Rₖ−Rₖ₋₁)·Pₖ = 34/45 ≈ 0.7556",
            "log loss = −mean[y·ln p + (1−y)·ln(1−p)] ≈ 0.9503",
            "Brier score = mean[(p − y)²] ≈ 0.332",
        ):
            assert line in body.splitlines()


async def test_a_preset_load_keeps_no_marks_and_starts_at_the_top() -> None:
    # After P -> good from canonical at 0.9, rows were marked against other rows.
    app = make_app(threshold=0.9)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("down", "down", "down")
        rows = app.main.query_one(RowTable)
        assert rows.cursor == 3
        app.main.load_preset("good")
        await pilot.pause()
        frame = app.main.frame
        assert frame is not None and frame.update.fresh
        assert frame.update.changed is NOTHING_CHANGED
        assert rows.cursor == 0 and rows.top == 0


async def test_undo_and_redo_say_what() -> None:
    # undo/redo said only "Undone."
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "ctrl+z")
        assert app.main.message == "Undone: row s1: actual label flipped to 0."
        await pilot.press("ctrl+y")
        assert app.main.message == "Redone: row s1: actual label flipped to 0."


async def test_the_sweep_table_shows_every_point_that_fits_and_where_it_is() -> None:
    # The sweep table opened scrolled so the active point was its top row,
    # hiding "above all" and 0.9 on canonical; a wider column drawn late left
    # earlier rows one column out of line.
    from threshold_lab.tui.widgets.sweep_table import SweepTable

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.main.query_one(SweepTable)
        assert table.top == 0  # five points, all shown
        assert table.summary() == "5 operating points; > the active one"
        lines = [table.render_line(y).text.rstrip() for y in range(2, 7)]
        assert lines[0].startswith("  above all") and lines[2].startswith("> 0.8")
        starts = {line.rstrip().rfind(" ") + 1 for line in lines}
        assert len(starts) == 1, lines  # the last column lines up
    app = make_app("good")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.main.query_one(SweepTable)
        body, point = table._body_height(), app.main.session.analysis.point
        assert table.top + 1 <= point < table.top + body - 1  # context on both sides
        where = f"operating points {table.top + 1}-{table.top + body} of 21"
        assert table.summary() == f"{where}; > the active one"


async def test_the_strip_line_stands_at_the_thresholds_own_place_on_the_axis() -> None:
    # At 0.5 the line was drawn against the 0.8 glyphs, and it did not move
    # while the threshold went from 0.41 to 0.80.
    from threshold_lab.tui.state.layout import LABEL_WIDTH
    from threshold_lab.tui.widgets.score_strip import ScoreStrip

    app = make_app()
    async with app.run_test(size=(120, 50)) as pilot:  # the strip is in the overview
        await pilot.pause()
        strip = app.main.query_one(ScoreStrip)
        places = {}
        for t in (0.41, 0.5, 0.7, 0.8):
            app.main.run(partial(app.main.session.set_threshold, t))
            await pilot.pause()
            lines = strip.render().plain.split("\n")
            axis = next(line for line in lines if line.startswith(" score"))
            places[t] = axis.index("^")
            assert all(line[places[t]] == "|" for line in lines[:6])
        assert places[0.41] < places[0.5] < places[0.7] < places[0.8]
        # Halfway between the lowest score (0.1) and the highest (0.9), at 0.5.
        usable = strip.size.width - LABEL_WIDTH - 1
        assert abs((places[0.5] - LABEL_WIDTH) - usable / 2) <= 2
        # The axis carries round values where they fall.
        axis = next(line for line in strip.render().plain.split("\n") if line.startswith(" score"))
        assert "0.2" in axis and "0.4" in axis and "0.6" in axis


async def test_ascii_spells_arrows_and_cuts_words_not_numbers() -> None:
    # "…" became "." so "AUC (trapezoid) 7." read like a value; arrows became
    # "<" and ">", which look like keys.
    from textual.binding import Binding
    from threshold_lab.tui.ascii import AsciiFilter

    app = make_app(ascii=True)
    async with app.run_test(size=(80, 24)):
        assert app.get_key_display(Binding("left", "x")) == "left"
        assert app.get_key_display(Binding("shift+right", "x")).endswith("right")
    from rich.segment import Segment
    from textual.color import Color

    line = AsciiFilter().apply([Segment("ROC · AUC (trapezoid) 7/12 ≈ 0.58…")], Color(0, 0, 0))
    assert line[0].text == "ROC | AUC (trapezoid) 7/12 ~ ...  "
    plain = make_app()
    async with plain.run_test(size=(80, 24)):
        assert plain.get_key_display(Binding("left", "x")) == "←"


async def test_above_all_is_said_once_in_the_top_bar() -> None:
    # Above all, the top bar said "above all scores" twice.
    from threshold_lab.tui.widgets.threshold_bar import ThresholdBar

    app = make_app(threshold=None)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = str(app.main.query_one(ThresholdBar).render())
        assert text.count("above all") == 1
        assert text.endswith("before tie group 1 of 4")


@pytest.mark.parametrize("size", [(120, 40), (80, 24), (200, 60)])
async def test_the_layout_does_not_jump_when_a_message_comes_or_goes(
    size: tuple[int, int],
) -> None:
    # home wrapped the status to two lines and the chart lost a row it never
    # got back; a message appearing did the same.
    from threshold_lab.tui.widgets.charts import ChartPanel

    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        # One pane at a time: on the chart's pane (c there shows it, from pane 1).
        await pilot.press("2" if app.main.compact else "0")
        await pilot.pause()
        charts = app.main.query_one(ChartPanel)
        first = charts.region
        for key in ("home", "p", "p", "end", "r", "c", "escape"):
            await pilot.press(key)
            await pilot.pause()
            assert charts.region.height == first.height, key


async def test_the_top_bar_names_the_tie_group_whole() -> None:
    from threshold_lab.tui.widgets.threshold_bar import ThresholdBar

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        text = str(app.main.query_one(ThresholdBar).render())
        assert text.endswith("tie group 2 of 4 (score 0.8, 2 rows)")


async def test_the_palette_lists_each_command_once() -> None:
    # Quit and the keys were listed twice (Textual's and the explorer's).
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        titles = [c.title for c in system_commands(app)]
        assert len(titles) == len(set(titles))
        assert [t for t in titles if t.startswith("Quit")] == ["Quit (q)"]
        helps = [t for t in titles if t.endswith("(?)")]
        assert "Keys" not in titles and helps == ["Every key, grouped, and what the marks mean (?)"]


async def test_a_move_says_what_moved() -> None:
    # The explorer also says what a change moved, for listeners.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.main.run(lambda: app.main.session.set_threshold(0.85))
        await pilot.pause()
        assert app.main.message == (
            "Moved: precision from 2/3 to 1/1, recall from 2/3 to 1/3; TP -1, FP -1, TN +1, FN +1."
        )
        await pilot.press("right")  # 0.86: no prediction moves, and it says so
        assert app.main.message == (
            "No prediction changed: still tie group 1 of 4 (score 0.9, 1 row)."
        )
        await pilot.press("home", "left_square_bracket")  # already above all: [ cannot go up
        assert app.main.message.startswith("Already at above all scores")
        await pilot.press("end", "right_square_bracket")
        assert app.main.message.startswith("Already at tie group 4 of 4")


async def test_help_is_grouped_lists_ctrl_p_and_explains_every_mark() -> None:
    # Help was one flat list, left out ctrl+p and had no legend for + o * > O.
    from textual.widgets import Static
    from threshold_lab.tui.screens.help import HELP_GROUPS, HelpScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HelpScreen)
        text = str(screen.query_one(Static).render())
        lines = text.splitlines()
        for group in HELP_GROUPS:
            assert group in lines
        assert any(line.strip().startswith("ctrl+p") for line in lines)
        for mark in ("+  o", "*", ">", "O"):
            assert any(line.strip().startswith(mark + " ") for line in lines), mark
        described = [b.tooltip or b.description for b in app.main.all_bindings()]
        whole = " ".join(text.split())  # an entry may wrap onto a second line
        for words in described:  # every key once
            assert whole.count(" " + " ".join(words.split())) == 1, words


async def test_a_narrow_sweep_table_still_says_where_it_is() -> None:
    from threshold_lab.tui.widgets.sweep_table import SweepTable

    app = make_app("good")
    async with app.run_test(size=(100, 30)) as pilot:  # every pane, the sweep narrow
        await pilot.pause()
        table = app.main.query_one(SweepTable)
        summary = table.render_line(0).text.rstrip()
        last = table.top + table._body_height()
        assert summary.startswith(f"operating points {table.top + 1}-{last} of 21")
        assert table.render_line(1).text.startswith("  threshold TP FP")


async def test_a_dialogs_scrollbar_thumb_stands_out_from_its_track() -> None:
    # Seen in review: help's and the preset picker's thumb was navy on black.
    from textual.containers import VerticalScroll
    from threshold_lab.tui.screens.help import HelpScreen

    from tests.tui.test_contrast import contrast

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        styles = app.screen.query_one(VerticalScroll).styles
        thumb, track = styles.scrollbar_color, styles.scrollbar_background
        assert contrast(thumb.hex[:7], track.hex[:7]) >= 3.0
