"""A lesson's questions and how a typed answer is checked: exactly, never to a tolerance.

``[step.ask]`` has a ``question``, an ``explain`` said after the answer (right or
wrong), parts it ``reveal``\\s then, and one kind of answer:

- ``answer = "2/3"``: a number (a fraction, a decimal, a percentage); the typed answer
  is right when it is that number exactly (0.6667 is not 2/3; 66.7% is not either);
- ``metric = "precision"``: the number is the metric's exact value at the step's point
  (any threshold metric, ``tp``/``fp``/``tn``/``fn``, ``roc_auc``, ``average_precision``,
  ``pr_trapezoid_area``), so the lesson cannot state it wrong; an undefined metric's
  answer is ``undefined``;
- ``range = "(0.4, 0.8]"``: a threshold inside the interval (``[`` and ``]`` include
  an end, ``(`` and ``)`` leave it out);
- ``choices = ["A", "B", "C"]`` with ``answer = "B"``: one of them, typed or by number;
- ``next = "step"``: where the next tie group moves the ROC point as the threshold
  lowers (``up``, ``right`` or ``diagonal``), read from the sweep.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Literal

from threshold_lab.core.analysis import Analysis
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.lessons.words import PARTS
from threshold_lab.core.metrics.metric import Metric, format_fraction
from threshold_lab.core.metrics.threshold_metrics import METRIC_NAMES

Kind = Literal["number", "metric", "range", "choice", "next"]
#: The counts and whole-curve summaries a ``metric`` answer may name, beside the metrics.
COUNTS = ("tp", "fp", "tn", "fn")
SUMMARIES = ("roc_auc", "average_precision", "pr_trapezoid_area")
ANSWERABLE = (*COUNTS, *METRIC_NAMES, *SUMMARIES)
DIRECTIONS = ("up", "right", "diagonal")
UNDEFINED = "undefined"
#: Typed instead of an answer: the answer is shown, and counted neither way.
SKIP = "skip"
_RANGE = re.compile(r"^\s*([\[(])\s*([^,]+?)\s*,\s*([^\])]+?)\s*([\])])\s*$")
_MOVES = {"up": "up", "right": "right", "diagonal": "diagonally (up and right at once)"}
_FIELDS = ("question", "explain", "reveal", "answer", "metric", "range", "choices", "next")


@dataclass(frozen=True)
class Question:
    """One question: its text, the kind of answer and what it is, and what follows it."""

    question: str
    kind: Kind
    explain: str = ""
    reveal: tuple[str, ...] = ()
    number: Fraction | None = None
    metric: str | None = None
    low: Fraction | None = None
    high: Fraction | None = None
    closed: tuple[bool, bool] = (True, True)
    choices: tuple[str, ...] = ()
    choice: int = 0

    def prompt(self) -> str:
        """The question as it is put, with what kind of answer it takes."""
        if self.kind == "choice":
            listed = "; ".join(f"{i + 1}. {c}" for i, c in enumerate(self.choices))
            return f"{self.question} ({listed})"
        if self.kind == "next":
            return f"{self.question} (up, right or diagonal)"
        if self.kind == "range":
            return f"{self.question} (a threshold)"
        if self.kind == "metric":
            return f"{self.question} (a number such as 2/3 or 0.25, or undefined)"
        return f"{self.question} (a number such as 2/3 or 0.25)"


@dataclass(frozen=True)
class Answer:
    """The right answer to a question at one point: a number (None: undefined), a
    threshold range, a choice, or a direction; and how it is said."""

    question: Question
    value: Fraction | str | None
    said: str


@dataclass(frozen=True)
class Verdict:
    """A typed answer checked: ``right`` (None when the answer could not be read, and
    the question still waits), and what is said; ``skipped`` when ``skip`` asked for
    the answer (counted neither way)."""

    right: bool | None
    said: str
    skipped: bool = False


def read_question(raw: object, where: str) -> Question:
    """A ``[step.ask]`` table, each field checked; ``where`` names the step."""
    if not isinstance(raw, Mapping):
        raise InputError(f"{where} is a table: question = ..., and one kind of answer")
    extra = [k for k in raw if k not in _FIELDS]
    if extra:
        raise InputError(
            f"{where}: unknown field {quoted(extra[0])}; an ask has " + ", ".join(_FIELDS)
        )
    text = raw.get("question")
    if not isinstance(text, str) or not text.strip():
        raise InputError(f'{where}: give the question (question = "...")')
    explain = raw.get("explain", "")
    if not isinstance(explain, str):
        raise InputError(f"{where}: explain is text in quotes")
    reveal = raw.get("reveal", [])
    reveal = [reveal] if isinstance(reveal, str) else reveal
    if not isinstance(reveal, list) or any(
        not isinstance(p, str) or p.lower() not in PARTS for p in reveal
    ):
        raise InputError(f"{where}: reveal is a list of parts: {', '.join(PARTS)}")
    base = Question(
        " ".join(text.split()),
        "number",
        explain=" ".join(explain.split()),
        reveal=tuple(p.lower() for p in reveal),
    )
    kinds = [k for k in ("metric", "range", "choices", "next") if k in raw]
    if "answer" in raw and "choices" not in raw:
        kinds.append("answer")
    if len(kinds) != 1:
        raise InputError(
            f"{where}: give one kind of answer: answer, metric, range, choices (with "
            "answer) or next"
        )
    kind = kinds[0]
    if kind == "answer":
        return replace(base, number=_number(raw["answer"], f"{where}: answer"))
    if kind == "metric":
        name = raw["metric"]
        if not isinstance(name, str) or name.lower() not in ANSWERABLE:
            raise InputError(
                f"{where}: metric {quoted(name)} is not one this can answer: "
                + ", ".join(ANSWERABLE)
            )
        return replace(base, kind="metric", metric=name.lower())
    if kind == "range":
        low, high, closed = _range(raw["range"], f"{where}: range")
        return replace(base, kind="range", low=low, high=high, closed=closed)
    if kind == "choices":
        choices = raw["choices"]
        if (
            not isinstance(choices, list)
            or len(choices) < 2
            or not all(isinstance(c, str) and c.strip() for c in choices)
        ):
            raise InputError(f"{where}: choices is a list of two or more texts")
        keys = [_key(c) for c in choices]
        if len(set(keys)) != len(keys):
            raise InputError(f"{where}: two choices read the same")
        answer = raw.get("answer")
        if not isinstance(answer, str) or _key(answer) not in keys:
            raise InputError(f"{where}: answer is one of the choices, in quotes")
        return replace(
            base,
            kind="choice",
            choices=tuple(" ".join(c.split()) for c in choices),
            choice=keys.index(_key(answer)),
        )
    if raw["next"] != "step":
        raise InputError(f'{where}: next = "step" asks where the next tie group moves the point')
    return replace(base, kind="next")


def expected(question: Question, analysis: Analysis) -> Answer:
    """The right answer to ``question`` with the rows and threshold of ``analysis``;
    refused when it cannot be said exactly there (a weighted metric, the last point)."""
    if question.kind == "number":
        n = question.number
        assert n is not None
        return Answer(question, n, format_fraction(n))
    if question.kind == "range":
        return Answer(question, None, _range_text(question))
    if question.kind == "choice":
        choice = question.choices[question.choice]
        return Answer(question, choice, choice)
    if question.kind == "next":
        sweep, k = analysis.sweep, analysis.point
        if k + 1 >= len(sweep.tp):
            raise InputError(
                "the question asks where the next tie group moves the point, but every row "
                "is predicted positive already"
            )
        dtp = float(sweep.tp[k + 1] - sweep.tp[k])
        dfp = float(sweep.fp[k + 1] - sweep.fp[k])
        direction = "diagonal" if dtp > 0 and dfp > 0 else "up" if dtp > 0 else "right"
        return Answer(question, direction, direction)
    name = question.metric
    assert name is not None
    metric = _metric(analysis, name)
    if isinstance(metric, Fraction):
        return Answer(question, metric, format_fraction(metric))
    if metric.value is None:
        return Answer(question, None, f"{UNDEFINED}: {_lower_first(metric.reason or '')}")
    if metric.exact is None:
        raise InputError(f"the question asks for {name}, which is not exact here (weighted rows)")
    return Answer(question, metric.exact, format_fraction(metric.exact))


def _lower_first(text: str) -> str:
    """``No predicted positives`` as part of a sentence; ``ROC needs ...`` kept."""
    if len(text) > 1 and text[1].islower():
        return text[:1].lower() + text[1:]
    return text


def _metric(analysis: Analysis, name: str) -> Metric | Fraction:
    if name in COUNTS:
        count = getattr(analysis.counts, name)
        if not float(count).is_integer():
            raise InputError(f"the question asks for {name}, which is not whole here (weights)")
        return Fraction(int(count))
    if name in SUMMARIES:
        return getattr(analysis.curves.summaries, name)  # type: ignore[no-any-return]
    return analysis.metrics[name]


def check(answer: Answer, typed: str) -> Verdict:
    """Check ``typed`` against ``answer``; the explanation follows either way."""
    q = answer.question
    text = " ".join(typed.split()).rstrip(".!:;").strip()  # "undefined." is undefined
    if not text:
        return Verdict(None, "Type an answer (skip shows it).")
    if text.lower() == SKIP:
        said = f"The answer: {_as_said(q, answer).removeprefix('the answer is ')}."
        return Verdict(False, f"{said} {q.explain}".strip(), skipped=True)
    if q.kind == "choice":
        right = _choice(q, text)
        if right is None:
            return Verdict(
                None, f"{quoted(text)} is not one of the choices: type one, or its number."
            )
        return _verdict(right == q.choice, text, answer)
    if q.kind == "next":
        word = _direction(text)
        if word is None:
            return Verdict(None, f"{quoted(text)} is not a direction: type up, right or diagonal.")
        return _verdict(word == answer.value, word, answer)
    if q.kind in ("number", "metric") and text.lower() == UNDEFINED:
        return _verdict(answer.value is None, text, answer)
    value = read_number(text)
    if value is None:
        return Verdict(
            None, f"{quoted(text)} is not a number: type a fraction such as 2/3, or a decimal."
        )
    if q.kind == "range":
        return _verdict(_inside(q, value), text, answer)
    return _verdict(answer.value == value, text, answer)


def _verdict(right: bool, typed: str, answer: Answer) -> Verdict:
    q = answer.question
    if right:
        said = f"Right: {_as_said(q, answer)}."
    else:
        said = f"Not quite: you said {typed}; {_as_said(q, answer)}."
    return Verdict(right, f"{said} {q.explain}".strip())


def _as_said(q: Question, answer: Answer) -> str:
    if q.kind == "range":
        return f"any threshold in {answer.said} gives it"
    if q.kind == "next":
        return f"the point moves {_MOVES[str(answer.value)]}"
    if q.kind == "choice":
        return f"the answer is {answer.said}"
    if isinstance(answer.value, Fraction) and answer.value.denominator != 1:
        decimal = Metric(float(answer.value), exact=answer.value).value_text()
        return f"the answer is {decimal.replace(' ≈ ', ' exactly (≈ ').replace(' = ', ' (= ')})"
    return f"the answer is {answer.said}"


def read_number(text: str) -> Fraction | None:
    """A typed number, exactly: ``2/3``, ``0.25``, ``25%``, ``-1``; None if it is not one.

    >>> read_number("2/3"), read_number("25%"), read_number("3.5/6"), read_number("x")
    (Fraction(2, 3), Fraction(1, 4), Fraction(7, 12), None)
    """
    t = text.strip().replace(" ", "")
    percent = t.endswith("%")
    if percent:
        t = t[:-1]
    top, slash, bottom = t.partition("/")
    try:  # each side may be a decimal: 3.5/6 is 7/12
        value = Fraction(top) / Fraction(bottom) if slash else Fraction(t)
    except (ValueError, ZeroDivisionError):
        return None
    return value / 100 if percent else value


def _number(value: object, where: str) -> Fraction:
    if isinstance(value, bool):
        raise InputError(f"{where} is a number such as 2/3 or 0.25, not {quoted(value)}")
    if isinstance(value, int):
        return Fraction(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise InputError(f"{where} {quoted(value)} is not a finite number")
        return Fraction(repr(value))  # as written: 0.1 is 1/10
    if isinstance(value, str):
        n = read_number(value)
        if n is not None:
            return n
    raise InputError(f"{where} is a number such as 2/3 or 0.25, not {quoted(value)}")


def _range(value: object, where: str) -> tuple[Fraction, Fraction, tuple[bool, bool]]:
    m = _RANGE.match(value) if isinstance(value, str) else None
    low = read_number(m.group(2)) if m else None
    high = read_number(m.group(3)) if m else None
    if m is None or low is None or high is None:
        raise InputError(f'{where} is an interval such as "(0.4, 0.8]", not {quoted(value)}')
    closed = (m.group(1) == "[", m.group(4) == "]")
    if low > high or (low == high and closed != (True, True)):
        raise InputError(f"{where}: {value} holds no threshold")
    return low, high, closed


def _range_text(q: Question) -> str:
    assert q.low is not None and q.high is not None
    left = "[" if q.closed[0] else "("
    right = "]" if q.closed[1] else ")"
    return f"{left}{short_decimal(q.low)}, {short_decimal(q.high)}{right}"


def short_decimal(x: Fraction) -> str:
    """``x`` as written when it has a short decimal (0.95), else its fraction (1/3).

    >>> short_decimal(Fraction(19, 20)), short_decimal(Fraction(1, 3))
    ('0.95', '1/3')
    """
    for places in range(7):
        if (x * 10**places).denominator == 1:
            return f"{float(x):.{places}f}"
    return format_fraction(x)


def _inside(q: Question, x: Fraction) -> bool:
    assert q.low is not None and q.high is not None
    above = x >= q.low if q.closed[0] else x > q.low
    below = x <= q.high if q.closed[1] else x < q.high
    return above and below


def _key(text: str) -> str:
    return " ".join(text.split()).lower()


def _choice(q: Question, text: str) -> int | None:
    key = _key(text)
    keys = [_key(c) for c in q.choices]
    if key in keys:
        return keys.index(key)
    if key.isdigit() and 1 <= int(key) <= len(keys):
        return int(key) - 1
    return None


def _direction(text: str) -> str | None:
    word = _key(text)
    for d in DIRECTIONS:
        if word in (d, d[0]):
            return d
    return None


__all__ = [
    "ANSWERABLE",
    "Answer",
    "Question",
    "Verdict",
    "check",
    "expected",
    "read_question",
]
