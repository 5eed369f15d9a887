"""A lesson in the explorer, the presenter in control: every question answered right and
wrong, pause and resume, back and forward, go to a step, Esc; each step's screen the same
as a fresh run started at that step, at 80x24 and 120x40."""

from __future__ import annotations

import re

import pytest
from textual.pilot import Pilot
from threshold_lab.core.lessons.lesson import Lesson
from threshold_lab.core.lessons.play import read_lesson
from threshold_lab.core.lessons.words import PARTS
from threshold_lab.tui.app import ThresholdLab
from threshold_lab.tui.screens.dialogs import ValueDialog
from threshold_lab.tui.widgets.lesson_line import LessonLine

from tests.tui.helpers import SIZE, SMALL, keys, make_app

LESSONS = ("denominator", "ap-vs-trapezoid", "accuracy-trap")


def _screen_text(app: ThresholdLab) -> str:
    """The screen's text as drawn, without the message line's words (which say how
    the step was reached) and the SVG's ids."""
    svg = app.export_screenshot(title="t")
    return re.sub(r"terminal-\d+", "terminal", svg)


def _state(app: ThresholdLab) -> tuple[object, ...]:
    m = app.main
    s = m.session
    hidden = frozenset(p for p in PARTS if m.has_class(f"-hide-{p}"))
    line = m.query_one(LessonLine).lesson
    return (
        s.data.scores.tolist(),
        s.data.labels.tolist(),
        s.threshold,
        s.prevalence,
        m.view,
        m.chart_mode,
        hidden,
        line,
    )


async def _answer(pilot: Pilot[None], app: ThresholdLab, text: str) -> None:
    await pilot.press("a")
    await pilot.pause()
    assert isinstance(app.screen, ValueDialog)
    await pilot.press(*keys(text), "enter")
    await pilot.pause()


def _right_and_wrong(app: ThresholdLab) -> tuple[str, str]:
    answer = app.main.lessons.waiting
    assert answer is not None
    q = answer.question
    if q.kind == "choice":
        return str(q.choice + 1), str((q.choice + 1) % len(q.choices) + 1)
    if q.kind == "next":
        wrong = "up" if answer.value != "up" else "right"
        return str(answer.value), wrong
    if answer.value is None:
        return "undefined", "0"
    return answer.said, "12345"


@pytest.mark.parametrize("size", [SMALL, SIZE])
@pytest.mark.parametrize("name", LESSONS)
async def test_a_lesson_runs_to_its_end(name: str, size: tuple[int, int]) -> None:
    lesson = read_lesson(name)
    app = make_app(lesson=lesson)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        m = app.main
        line = m.query_one(LessonLine)
        right = 0
        for k in range(len(lesson)):
            e = m.lessons.entered
            assert e is not None and e.index == k
            assert (
                line.lesson is not None and f"Step {k + 1} of {len(lesson)}" in line.lesson.heading
            )
            if m.lessons.waiting is not None:
                good, bad = _right_and_wrong(app)
                if k % 2:  # wrong first, then back to the step and right
                    await _answer(pilot, app, bad)
                    assert line.lesson.body.startswith("Not quite")
                    await pilot.press("p")
                    await pilot.press("n")
                    assert m.lessons.waiting is not None  # entered afresh: asked again
                await _answer(pilot, app, good)
                assert line.lesson.body.startswith("Right"), line.lesson.body
                right += 1
                ask = lesson.steps[k].ask
                assert ask is not None
                for part in ask.reveal:
                    assert not m.has_class(f"-hide-{part}")
            await pilot.press("n")
            await pilot.pause()
        assert not m.lessons.running and not line.display
        assert m.message == (
            f"The lesson is over. {right} of {right} questions answered right. "
            "Explore freely; ? lists every key."
        )
        assert not any(m.has_class(f"-hide-{p}") for p in PARTS)


@pytest.mark.parametrize("size", [SMALL, SIZE])
@pytest.mark.parametrize("name", LESSONS)
async def test_each_step_is_a_fresh_run_to_that_step(name: str, size: tuple[int, int]) -> None:
    """n, p and g N reach each step as a fresh run started there draws it."""
    lesson = read_lesson(name)
    fresh: list[tuple[object, ...]] = []
    for k in range(len(lesson)):
        app = make_app("weak", lesson=lesson, lesson_step=k)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            fresh.append(_state(app))
    app = make_app(lesson=lesson)
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await pilot.press("right", "right")  # the presenter explores, then goes to step 1
        await pilot.press("g", "1", "enter")
        await pilot.pause()
        reached = [_state(app)]
        for _ in range(len(lesson) - 1):
            await pilot.press("right", "n")  # exploring at each step changes none after
            await pilot.pause()
            reached.append(_state(app))
        assert reached == fresh
        for k in reversed(range(len(lesson) - 1)):
            await pilot.press("p")
            await pilot.pause()
            assert _state(app) == fresh[k], k
        await pilot.press("g")
        await pilot.pause()
        await pilot.press(*keys(str(len(lesson))), "enter")
        await pilot.pause()
        assert _state(app) == fresh[-1]


async def test_space_pauses_and_resumes_and_a_paused_step_stays() -> None:
    lesson = read_lesson("tour")
    app = make_app(lesson=lesson)
    app.main.lessons.seconds = 0.02  # a step goes on by itself after a moment
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press("space")
        assert m.lessons.paused
        line = m.query_one(LessonLine).lesson
        assert line is not None and line.heading.endswith("· paused")
        at = m.lessons.entered
        await pilot.pause(0.5)
        assert m.lessons.entered is at  # paused: it stays
        await pilot.press("space")
        assert not m.lessons.paused
        await pilot.pause(2.0)
        assert m.lessons.entered is None or m.lessons.entered.index > 0


async def test_a_question_holds_the_lesson_until_answered() -> None:
    app = make_app(lesson=read_lesson("denominator"))
    app.main.lessons.seconds = 0.02
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.5)
        m = app.main
        assert m.lessons.entered is not None and m.lessons.entered.index == 0
        await pilot.press("a")
        await pilot.pause()
        await pilot.press(*keys("two"), "enter")  # not a number: the dialog stays
        await pilot.pause()
        assert isinstance(app.screen, ValueDialog)
        await pilot.press("escape")  # cancelled: the question still waits
        await pilot.pause()
        assert m.lessons.waiting is not None
        line = m.query_one(LessonLine).lesson
        assert line is not None and line.keys.startswith(
            "hidden for now: metrics, sweep · a answer"
        )


async def test_esc_leaves_the_lesson_keeping_the_state() -> None:
    app = make_app(lesson=read_lesson("accuracy-trap"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("n")
        m = app.main
        assert m.session.threshold is None and m.has_class("-hide-metrics")
        await pilot.press("escape")
        assert not m.lessons.running and m.session.threshold is None
        assert not m.has_class("-hide-metrics")
        await pilot.press("n", "p")  # lesson keys no more: the explorer's own
        assert not m.lessons.running


def test_a_lesson_holds_nine_steps_of_the_tour() -> None:
    lesson: Lesson = read_lesson("tour")
    assert len(lesson) == 9


async def test_overlap_and_balance_keys_make_generated_rows_again() -> None:
    from threshold_lab.core.data.presets import preset
    from threshold_lab.core.session.session import Session

    p = preset("binormal:d=1.5,prevalence=0.2,n=200,seed=3")
    app = ThresholdLab(Session(p.data, 0.5, source=f"preset {p.name}"), playback_seconds=60.0)
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press("left_parenthesis")
        assert m.session.source == "preset binormal:d=1.25,prevalence=1/5,n=200,seed=3"
        assert m.message.startswith("Made again (overlap up)")
        await pilot.press("right_parenthesis", "right_parenthesis")
        assert "d=1.75" in m.session.source
        await pilot.press("less_than_sign")
        assert "prevalence=1/10" in m.session.source and m.session.threshold == 0.5
        await pilot.press("greater_than_sign", "greater_than_sign")
        assert "prevalence=3/10" in m.session.source
    canon = make_app()
    async with canon.run_test(size=SIZE) as pilot:
        await pilot.press("left_parenthesis")
        assert canon.main.message.startswith("Refused: overlap makes generated rows again")


async def test_hidden_metrics_are_not_shown_another_way() -> None:
    """While the metrics are hidden: m refuses, a move says the counts alone, the
    status line has no precision, and the models' line is hidden with them."""
    app = make_app(lesson=read_lesson("denominator"))
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press("g", "3", "enter")
        await pilot.pause()
        await pilot.press("m")
        assert m.message == "The metrics are hidden until the lesson shows them."
        await pilot.press("end")
        assert m.message == "Moved: TP +2, FP +2, TN -2, FN -2."
        assert "precision" not in str(m.query_one("#status").render())


async def test_an_answer_goes_back_to_the_steps_point_and_skip_shows_it() -> None:
    app = make_app(lesson=read_lesson("denominator"))
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press("g", "3", "enter", "end")  # explored away from step 3's 0.81
        await _answer(pilot, app, "1")
        assert m.session.threshold == 0.81 and m.message == "Step 3 of 10: right."
        assert not m.has_class("-hide-metrics")
        await _answer(pilot, app, "skip")  # a answers again; skip shows the answer
        line = m.query_one(LessonLine).lesson
        assert line is not None and line.body.startswith("The answer: 1.")
        assert m.message == "Step 3 of 10: the answer is 1."
        assert m.lessons._tally.right == {2: True}  # a skip counts neither way


async def test_the_keys_line_says_what_each_key_does_here() -> None:
    lesson = read_lesson("tour")
    app = make_app(lesson=lesson)
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        line = m.query_one(LessonLine)
        assert line.lesson is not None
        assert line.lesson.keys == "space pause · n next · g go to · Esc leave"  # step 1
        await pilot.press("space", "n")
        assert line.lesson.keys == "space resume · n next · p back · g go to · Esc leave"
        await pilot.press("g", "9", "enter")
        assert line.lesson.keys == "space resume · n end · p back · g go to · Esc leave"


async def test_the_last_step_stays_until_n_ends_the_lesson() -> None:
    lesson = read_lesson("tour")
    app = make_app(lesson=lesson, lesson_step=8)
    app.main.lessons.seconds = 0.01
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.5)
        m = app.main
        assert m.lessons.running and m.lessons.entered is not None
        await pilot.press("n")
        assert not m.lessons.running and m.message.startswith("The lesson is over.")


async def test_a_walk_step_shows_its_curve_and_a_sound_step_asks_for_its_file() -> None:
    from threshold_lab.core.lessons.play import parse_lesson

    text = (
        'title = "t"\n[[step]]\npreset = "good"\ncaption = "Listen."\nwalk = "pr"\nsonify = "roc"\n'
    )
    app = make_app(lesson=parse_lesson(text, "t"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        m = app.main
        assert isinstance(app.screen, ValueDialog)  # the sound's file name, as S asks it
        await pilot.press("escape")
        assert m.view == "chart" and m.chart_mode == "pr"
        line = m.query_one(LessonLine).lesson
        assert line is not None and "[ and ] walk the PR curve" in line.body
        await pilot.press("right_square_bracket")
        assert m.message.startswith("Point ")


async def test_charts_and_lines_of_metric_values_hide_with_the_metrics() -> None:
    app = make_app(lesson=read_lesson("denominator"))
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        await pilot.press("g", "3", "enter")
        await pilot.pause()
        assert not m.has_class("-hide-metric-chart")  # the ROC chart: rates only
        await pilot.press("c")  # PR: precision on its axis
        assert m.chart_mode == "pr" and m.has_class("-hide-metric-chart")
        await _answer(pilot, app, "1")  # the answer shows the metrics, and the chart
        assert not m.has_class("-hide-metric-chart")


async def test_a_step_in_use_waits_before_going_on() -> None:
    app = make_app(lesson=read_lesson("tour"))
    app.main.lessons.seconds = 0.1  # steps go on by themselves after a few tenths
    async with app.run_test(size=SIZE) as pilot:
        m = app.main
        for _ in range(8):  # a key every 0.2 s holds the step
            await pilot.press("right")
            await pilot.pause(0.2)
        assert m.lessons.entered is not None and m.lessons.entered.index == 0
        await pilot.press("t")  # a dialog over the step holds it too
        await pilot.pause(3.0)
        assert m.lessons.entered.index == 0
        await pilot.press("escape")
        await pilot.pause(4.0)
        assert m.lessons.entered is None or m.lessons.entered.index > 0


async def test_the_choices_are_on_the_lesson_line() -> None:
    app = make_app(lesson=read_lesson("denominator"), lesson_step=7)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        line = app.main.query_one(LessonLine).lesson
        assert line is not None and "(1. 0.55; 2. 0.75; 3. 0.92)" in line.body


async def test_a_described_curve_goes_to_the_message_line_and_the_log() -> None:
    from threshold_lab.core.lessons.play import parse_lesson

    text = 'title = "t"\n[[step]]\npreset = "good"\ncaption = "In words."\ndescribe = "roc"\n'
    app = make_app(lesson=parse_lesson(text, "t"))
    async with app.run_test(size=SMALL) as pilot:
        await pilot.pause()
        m = app.main
        line = m.query_one(LessonLine).lesson
        assert line is not None and "L reads it whole" in line.body
        assert m.said[-1].startswith("Before the first false positive")
