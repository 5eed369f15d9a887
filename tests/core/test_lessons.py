"""Lessons: read whole or refused naming the step and field, each step's state the same
however it is reached, and every answer checked exactly against an oracle."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.data.presets import preset
from threshold_lab.core.errors import InputError
from threshold_lab.core.lessons.answers import Answer, Question, check, read_number
from threshold_lab.core.lessons.lesson import Lesson
from threshold_lab.core.lessons.play import enter, parse_lesson, read_lesson
from threshold_lab.core.lessons.words import CHARTS, PANES, SHIPPED
from threshold_lab.core.metrics.metric import format_fraction
from threshold_lab.core.session.session import Session

from tests import oracle


def fresh() -> Session:
    return Session(preset("weak").data, 0.3, source="elsewhere")


def _state(s: Session) -> tuple[object, ...]:
    d = s.data
    return (
        d.scores.tolist(),
        d.labels.tolist(),
        s.threshold,
        None if s.goal is None else s.goal.text(),
        s.prevalence,
        s.source,
    )


def _rows(s: Session) -> tuple[list[float], list[int]]:
    return s.data.scores.tolist(), [int(y) for y in s.data.labels.tolist()]


def _oracle(metric: str, s: Session) -> Fraction | None:
    """The answer counted from the rows, sharing nothing with core."""
    scores, labels = _rows(s)
    return oracle.measure(metric, scores, labels, s.threshold)


def _direction(s: Session) -> str:
    scores, labels = _rows(s)
    below = sorted({x for x in scores if s.threshold is None or x < s.threshold}, reverse=True)
    entering = [y for x, y in zip(scores, labels, strict=True) if x == below[0]]
    if 0 in entering and 1 in entering:
        return "diagonal"
    return "up" if 1 in entering else "right"


@pytest.mark.parametrize("name", SHIPPED)
def test_every_answer_of_a_shipped_lesson_equals_the_oracle(name: str) -> None:
    lesson = read_lesson(name)
    s = fresh()
    for k in range(len(lesson)):
        e = enter(lesson, k, s)
        q = e.step.ask
        if q is None:
            continue
        assert e.answer is not None
        if q.kind == "metric":
            assert q.metric is not None
            assert e.answer.value == _oracle(q.metric, s), (name, k)
        if q.kind == "next":
            assert e.answer.value == _direction(s), (name, k)
        # The explanation says the answer it explains (it is written by hand).
        value = e.answer.value
        if isinstance(value, Fraction):
            assert format_fraction(value) in q.explain, (name, k + 1, q.explain)
        elif value is None:
            assert "undefined" in q.explain
        else:
            assert str(value) in q.explain.lower() or str(value) in q.explain, (name, k + 1)


def test_the_tour_has_no_questions_and_the_shipped_ones_do() -> None:
    assert all(s.ask is None for s in read_lesson("tour").steps)
    for name in ("denominator", "ap-vs-trapezoid", "accuracy-trap"):
        lesson = read_lesson(name)
        assert sum(s.ask is not None for s in lesson.steps) >= 4
        assert all(s.ask is None for s in lesson.without_questions().steps)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(SHIPPED), st.lists(st.integers(0, 20), min_size=1, max_size=6))
def test_a_step_is_the_same_however_it_is_reached(name: str, visits: list[int]) -> None:
    """Forward, back, straight to it, or after exploring: the state a step makes."""
    lesson = read_lesson(name)
    visits = [v % len(lesson) for v in visits]
    wandered = fresh()
    for v in visits[:-1]:
        enter(lesson, v, wandered)
        wandered.set_threshold(0.123)  # exploring between steps
        wandered.set_goal("max f1")
    target = visits[-1]
    e1 = enter(lesson, target, wandered)
    straight = fresh()
    e2 = enter(lesson, target, straight)
    assert _state(wandered) == _state(straight)
    assert (e1.hidden, e1.pane, e1.chart, e1.said) == (e2.hidden, e2.pane, e2.chart, e2.said)


def test_hidden_parts_fold_over_steps_and_answers() -> None:
    lesson = read_lesson("denominator")
    assert lesson.hidden(0) == {"metrics", "sweep"}
    assert lesson.hidden(1) == {"metrics", "sweep"}  # step 1's answer reveals nothing
    assert lesson.hidden(2) == {"metrics", "sweep"}  # step 2 revealed on its answer, 3 hides
    assert lesson.hidden(4) == {"metrics", "sweep"}  # 4 revealed the metrics, 5 hides them
    assert lesson.hidden(5) == {"metrics", "sweep", "curve"}  # 6 asks where the point goes
    assert lesson.hidden(6) == {"metrics", "sweep"}  # 6's answer showed the curve again
    assert lesson.hidden(7) == {"metrics"}  # 7's answer showed both; 8 asks of the metrics
    e = enter(lesson, 1, fresh())
    assert e.hidden == {"metrics", "sweep"} and e.answered().hidden == {"sweep"}


def test_the_words_are_the_explorers() -> None:
    from threshold_lab.tui.state.chart_modes import CHART_MODES
    from threshold_lab.tui.widgets.panes import PANES as EXPLORER_PANES

    assert set(CHARTS) == set(CHART_MODES)
    assert set(PANES) == {name for _, name, _ in EXPLORER_PANES} | {"all"}


LESSON = """
title = "t"
[[step]]
preset = "canonical"
caption = "c"
"""


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ('threshold = "high"', "step 2: threshold: "),
        ("move = 1.5", "step 2: move is a whole number"),
        ('goal = "max nothing"', "step 2: goal: "),
        ('prevalence = "2"', "step 2: prevalence: "),
        ('show = "graph"', "step 2: show 'graph' is not one of matrix, chart"),
        ('chart = "pie"', "step 2: chart 'pie' is not one of roc"),
        ('hide = ["legend"]', "step 2: hide: 'legend' is not one of curve"),
        ('preset = "nope"', "step 2: preset: no preset named 'nope'"),
        ('colour = "red"', "step 2: unknown field 'colour'"),
        ("rows = { scores = [0.1], labels = [2] }", "rows: label 1 is 2; a label is 0 or 1"),
        ("rows = { scores = [0.1, 0.2], labels = [1] }", "step 2: rows: 2 scores but 1 labels"),
        ('preset = "canonical"\nrows = { scores = [0.1], labels = [1] }', "not both"),
        ('describe = "det"', "step 2: describe 'det' is not one of roc, pr"),
        ('sonify = "det"', "step 2: sonify 'det' is not one of roc, pr"),
        (
            "move = 5",
            "step 2: move: 5 tie groups down (lower thresholds) from here, but there are 2",
        ),
        ('[step.ask]\nquestion = "q"', "step 2: ask: give one kind of answer"),
        ('[step.ask]\nquestion = "q"\nanswer = "two"', "step 2: ask: answer is a number"),
        ('[step.ask]\nquestion = "q"\nmetric = "niceness"', "step 2: ask: metric 'niceness'"),
        ('[step.ask]\nquestion = "q"\nrange = "0.4-0.8"', "step 2: ask: range is an interval"),
        ('[step.ask]\nquestion = "q"\nrange = "(0.5, 0.5]"', "holds no threshold"),
        ('[step.ask]\nquestion = "q"\nchoices = ["a"]\nanswer = "a"', "two or more texts"),
        ('[step.ask]\nquestion = "q"\nchoices = ["a", "b"]\nanswer = "c"', "one of the choices"),
        ('[step.ask]\nquestion = "q"\nnext = "point"', 'next = "step"'),
        ('threshold = "lowest"\n[step.ask]\nquestion = "q"\nnext = "step"', "step 2: ask: "),
    ],
)
def test_a_malformed_lesson_is_refused_naming_the_step_and_field(extra: str, said: str) -> None:
    text = LESSON + '\n[[step]]\ncaption = "d"\n' + extra + "\n"
    with pytest.raises(InputError) as refused:
        parse_lesson(text, "my.toml")
    assert said in str(refused.value), str(refused.value)
    assert str(refused.value).startswith("my.toml")


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("title = 1", "title is text"),
        ('title = "t"', "no steps"),
        ('title = "t"\n[[step]]\ncaption = "c"', "step 1: a lesson begins by loading rows"),
        ('title = "t"\nauthor = "me"', "unknown field 'author'"),
        ('title = "t"\n[[step]]\npreset = "canonical"', "step 1: a step says something"),
        ("title = [", "not TOML"),
    ],
)
def test_a_lesson_without_its_frame_is_refused(text: str, said: str) -> None:
    with pytest.raises(InputError, match="lesson"):
        parse_lesson(text, "lesson x")
    with pytest.raises(InputError) as refused:
        parse_lesson(text, "lesson x")
    assert said in str(refused.value)


def test_a_missing_file_names_the_shipped_lessons() -> None:
    with pytest.raises(InputError, match=r"no such file .*denominator, ap-vs-trapezoid"):
        read_lesson("/nowhere/lesson.toml")


def _answer(q: Question, value: object) -> Answer:
    return Answer(q, value, str(value))  # type: ignore[arg-type]


def test_numbers_are_checked_exactly() -> None:
    q = Question("q", "number", number=Fraction(2, 3))
    a = _answer(q, Fraction(2, 3))
    assert check(a, "2/3").right and check(a, "4/6").right and check(a, " 2 / 3 ").right
    assert check(a, "200/3%").right
    assert check(a, "0.6667").right is False and check(a, "66.7%").right is False
    assert check(a, "two thirds").right is None and check(a, "").right is None
    assert check(a, "1/0").right is None
    undefined = _answer(Question("q", "metric", metric="precision"), None)
    assert check(undefined, "undefined").right and check(undefined, "0").right is False
    assert check(a, "undefined").right is False
    assert read_number("25%") == Fraction(1, 4) and read_number("-1.5") == Fraction(-3, 2)


def test_ranges_choices_and_directions() -> None:
    r = Question("q", "range", low=Fraction(2, 5), high=Fraction(4, 5), closed=(False, True))
    a = _answer(r, None)
    assert check(a, "0.8").right and check(a, "1/2").right
    assert check(a, "0.4").right is False and check(a, "0.81").right is False
    c = Question("q", "choice", choices=("Model A", "Model B"), choice=1)
    ca = _answer(c, "Model B")
    assert check(ca, "model  b").right and check(ca, "2").right
    assert check(ca, "1").right is False and check(ca, "3").right is None
    d = _answer(Question("q", "next"), "diagonal")
    assert check(d, "diagonal").right and check(d, "D").right
    assert check(d, "up").right is False and check(d, "left").right is None
    assert "diagonally" in check(d, "u").said


def test_a_lesson_holds_its_steps() -> None:
    lesson = read_lesson("tour")
    assert isinstance(lesson, Lesson) and len(lesson) == 9
    assert lesson.view(0) == ("matrix", "roc") and lesson.view(6) == ("chart", "pr")
