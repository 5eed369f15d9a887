"""A lesson in plain mode: each step said as text, questions read out and answers typed.

``lesson FILE`` (or a shipped lesson's name) starts it at step 1. Then an empty line
goes on to the next step, ``back`` to the one before, ``go N`` to step N (each step
entered afresh: the same state however it is reached), ``again`` says the step again,
``leave`` leaves the lesson keeping the state. While a question waits, the line typed is
the answer (``skip`` shows it instead). Any other command runs as it always does, so a
student can explore between steps, except one that would show a part the lesson hides
until later: it says so and shows nothing.
"""

from __future__ import annotations

from threshold_lab.core.errors import InputError
from threshold_lab.core.lessons.answers import Answer, check
from threshold_lab.core.lessons.lesson import Lesson
from threshold_lab.core.lessons.play import Entered, Tally, enter, read_lesson
from threshold_lab.core.text.sentences import status_sentence
from threshold_lab.tui.plain.describing import Describing
from threshold_lab.tui.plain.words import parse_count

#: The words a running lesson takes (beside an empty line, and an answer).
LESSON_WORDS = ("back", "go", "again", "skip", "leave")
#: The plain commands that show each part a lesson can hide.
SHOWS = {
    "metrics": ("metrics", "explain", "status", "compare", "intervals"),
    "sweep": ("sweep", "boundary"),
    "rows": ("rows",),
    "curve": (
        "roc",
        "pr",
        "braille",
        "describe",
        "walk",
        "n",
        "p",
        "first",
        "last",
        "corners",
        "hull",
        "sound",
        "gains",
        "ks",
    ),
    "matrix": ("status",),
}
_PART_WORDS = {
    "metrics": "the metrics",
    "sweep": "the sweep table",
    "rows": "the rows",
    "curve": "the curve",
    "matrix": "the confusion matrix",
}


class Lessons(Describing):
    """Plain mode's lesson: started by ``lesson``, then it reads the lines it takes first."""

    lesson: Lesson | None = None
    _entered: Entered | None = None
    _waiting: Answer | None = None
    _tally = Tally()

    def cmd_lesson(self, args: list[str]) -> None:
        """``lesson FILE`` starts a lesson; ``lesson`` alone says where it stands."""
        if not args:
            if self.lesson is None or self._entered is None:
                raise InputError("say lesson FILE, or a shipped lesson's name (help lesson)")
            self._say_step(self._entered)
            return
        self.start_lesson(read_lesson(" ".join(args)))

    def start_lesson(self, lesson: Lesson) -> None:
        """Run ``lesson`` from its first step."""
        self.lesson, self._tally = lesson, Tally()
        self._walking = None
        about = f" {lesson.about}" if lesson.about else ""
        self.say(
            f"Lesson: {lesson.title}, {len(lesson)} steps.{about} An empty line goes on; "
            "back, go N, again and leave steer it."
        )
        self._go(0)

    def lesson_line(self, words: list[str]) -> bool:
        """Run ``words`` as the lesson's when it takes them: True when it did."""
        if self.lesson is None or self._entered is None:
            return False
        word = words[0].lower() if words else ""
        if self._waiting is not None and word not in LESSON_WORDS:
            self._answer(" ".join(words))
            return True
        if not words:
            self._next()
            return True
        if word not in LESSON_WORDS:
            hidden = self._hidden_by(word)
            if hidden is None:
                return False
            self.say(f"{_PART_WORDS[hidden].capitalize()} stay hidden until the lesson shows them.")
            return True
        rest = words[1:]
        if word == "back":
            self._no_args(rest)
            if self._entered.index == 0:
                self.say("This is step 1: there is no step before it.")
            else:
                self._go(self._entered.index - 1)
        elif word == "go":
            n = parse_count(rest[0], "step", signed=False) if len(rest) == 1 else None
            if n is None or not 1 <= n <= len(self.lesson):
                raise InputError(f"say go N, a step from 1 to {len(self.lesson)}")
            self._go(n - 1)
        elif word == "again":
            self._no_args(rest)
            self._say_step(self._entered)
        elif word == "skip":
            self._no_args(rest)
            if self._waiting is None:
                self.say("No question waits.")
            else:
                answer, self._waiting = self._waiting, None
                self.say(f"The answer: {answer.said}. {answer.question.explain}".strip())
                self._after()
        else:  # leave
            self._no_args(rest)
            self._leave("You left the lesson; the rows and threshold stay as they are.")
        return True

    def _hidden_by(self, word: str) -> str | None:
        """The part a command would show that the lesson hides now, if any."""
        assert self._entered is not None
        for part in sorted(self._entered.hidden):
            if word in SHOWS[part]:
                return part
        return None

    def _go(self, k: int) -> None:
        assert self.lesson is not None
        self._walking = None
        entered = enter(self.lesson, k, self.session)
        self._entered = entered
        self._waiting = entered.answer
        if entered.step.walk is not None:
            self._walking = entered.step.walk
        self._say_step(entered)
        if entered.answer is None and k == len(self.lesson) - 1:
            self._finish()

    def _say_step(self, e: Entered) -> None:
        self.say(f"{e.heading}. {' '.join(e.said)}".strip())
        if "matrix" not in e.hidden:
            self.say(status_sentence(self.analysis, metrics="metrics" not in e.hidden))
        if e.hidden:
            parts = ", ".join(_PART_WORDS[p] for p in sorted(e.hidden))
            self.say(f"Hidden for now: {parts}.")
        if e.step.walk is not None and "curve" not in e.hidden:
            self.say(f"Walking the {e.step.walk.upper()} curve: n and p move a point.")
            self.say(self._step_words())
        if self._waiting is not None:
            self.say(f"Question: {self._waiting.question.prompt()}")

    def _answer(self, typed: str) -> None:
        assert self._waiting is not None
        verdict = check(self._waiting, typed)
        self.say(verdict.said)
        if verdict.right is None:
            return
        assert self._entered is not None
        self._tally.mark(self._entered.index, verdict.right)
        self._waiting = None
        self._after()

    def _after(self) -> None:
        """After a question: what it reveals, and the way on."""
        assert self._entered is not None and self.lesson is not None
        ask = self._entered.step.ask
        if ask is not None and ask.reveal:
            parts = ", ".join(_PART_WORDS[p] for p in ask.reveal)
            self._entered = self._entered.answered()
            self.say(f"Shown now: {parts}.")
        if self._entered.index == len(self.lesson) - 1:
            self._finish()
        else:
            self.say("An empty line goes on.")

    def _next(self) -> None:
        assert self._entered is not None and self.lesson is not None
        if self._entered.index + 1 >= len(self.lesson):
            self._finish()
            return
        self._go(self._entered.index + 1)

    def _finish(self) -> None:
        self._leave(f"{self._tally.ending()} Explore freely; help lists the commands.")

    def _leave(self, said: str) -> None:
        self.lesson, self._entered, self._waiting = None, None, None
        self.say(said)
