"""A lesson in plain mode: each step said as text, questions read out and answers typed.

``lesson FILE`` (or a shipped lesson's name) starts it at step 1. Then an empty line
goes on to the next step, ``back`` to the one before, ``go N`` to step N, ``again`` to
this step as it began (each step entered afresh: the same state however it is reached),
``leave`` leaves the lesson keeping the state. While a question waits, a line that reads
as an answer is the answer (``skip`` shows it instead); a command word (``help``,
``status``, ``quit``) runs as ever. Any other command runs as it always does, so a
student can explore between steps, except one that would show a part the lesson hides
until later: it says so and shows nothing. While the metrics are hidden, what is said
after a move gives the counts without precision and recall.
"""

from __future__ import annotations

from pathlib import Path

from threshold_lab.core.curves.sound import check_wav, sonify, write_wav
from threshold_lab.core.errors import InputError
from threshold_lab.core.lessons.answers import Answer, Verdict, check
from threshold_lab.core.lessons.lesson import Lesson
from threshold_lab.core.lessons.play import Entered, Tally, enter, read_lesson
from threshold_lab.core.session.update import Update
from threshold_lab.core.text.sentences import status_sentence
from threshold_lab.tui.plain.describing import Describing
from threshold_lab.tui.plain.words import parse_count

#: The words a running lesson takes (beside an empty line, and an answer).
LESSON_WORDS = ("back", "go", "again", "skip", "leave")
#: The plain commands that would show each part a lesson can hide.
SHOWS = {
    "metrics": (
        "metrics",
        "explain",
        "compare",
        "intervals",
        "roc",
        "pr",
        "describe",
        "hull",
        "corners",
        "smooth",
        "readout",
        "partial",
        "calibration",
        "gains",
        "ks",
        "net",
        "useful",
        "models",
        "groups",
        "goal",
        "band",
        "power",
        "sweep",
        "stability",
        "multiclass",
        "classes",
    ),
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
        "smooth",
        "sound",
        "gains",
        "ks",
    ),
    "matrix": ("status",),
}
#: Each part as a sentence names it, with its verb.
_PART_WORDS = {
    "metrics": ("the metrics", "are"),
    "sweep": ("the sweep table", "is"),
    "rows": ("the rows", "are"),
    "curve": ("the curve", "is"),
    "matrix": ("the confusion matrix", "is"),
}


def _parts(parts: frozenset[str] | tuple[str, ...]) -> str:
    return ", ".join(_PART_WORDS[p][0] for p in sorted(parts))


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
        n = len(lesson)
        self.say(
            f"Lesson: {lesson.title}, {n} step{'s' * (n != 1)}.{about} An empty line goes on; "
            "back, go N, again, skip (a question) and leave steer it."
        )
        self._go(0)

    # --- what the rest of plain mode asks of a running lesson

    def metrics_hidden(self) -> bool:
        return self._entered is not None and "metrics" in self._entered.hidden

    def status(self) -> str:
        return status_sentence(self.analysis, metrics=not self.metrics_hidden())

    def status_of(self, update: Update) -> str:
        if self.metrics_hidden():
            return status_sentence(update.analysis, metrics=False)
        return update.status

    def lesson_line(self, words: list[str]) -> bool:
        """Run ``words`` as the lesson's when it takes them: True when it did."""
        if self.lesson is None or self._entered is None:
            return False
        word = words[0].lower() if words else ""
        if word in LESSON_WORDS and word != "skip":
            self._steer(word, words[1:])
            return True
        if self._waiting is not None:  # an empty line is asked again, not passed over
            verdict = check(self._waiting, " ".join(words))
            if verdict.right is None and word in self.commands:  # a command, not an answer
                return self._refused_if_hidden(word)
            self._answered(verdict)
            return True
        if not words:
            self._next()
            return True
        if word == "skip":
            self.say("No question waits.")
            return True
        answer = self._entered.answer  # answered already: a line that reads as an
        if answer is not None and word not in self.commands:  # answer answers again
            verdict = check(answer, " ".join(words))
            if verdict.right is not None:
                self._waiting = answer
                self._answered(verdict)
                return True
        return self._refused_if_hidden(word)

    def _steer(self, word: str, rest: list[str]) -> None:
        assert self.lesson is not None and self._entered is not None
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
            self._go(self._entered.index)
        else:  # leave
            self._no_args(rest)
            self._leave("You left the lesson; the rows and threshold stay as they are.")

    def _refused_if_hidden(self, word: str) -> bool:
        """Refuse a command that would show a hidden part (True: refused)."""
        assert self._entered is not None
        for part in sorted(self._entered.hidden):
            if word in SHOWS[part]:
                name, verb = _PART_WORDS[part]
                them = "them" if verb == "are" else "it"
                self.say(f"{name.capitalize()} {verb} hidden until the lesson shows {them}.")
                return True
        return False

    def _go(self, k: int) -> None:
        assert self.lesson is not None
        self._walking = None
        entered = enter(self.lesson, k, self.session)
        self._entered = entered
        self._waiting = entered.answer
        if entered.step.walk is not None:
            self._walking = entered.step.walk
        self._say_step(entered)

    def _say_step(self, e: Entered) -> None:
        self.say(f"{e.heading}. {' '.join(e.said)}".strip())
        if e.described and "curve" not in e.hidden:
            self.say(*e.described)
        if "matrix" not in e.hidden:
            self.say(self.status())
        step = e.step
        said_by_setting = step.prevalence is not None or step.goal is not None or step.band
        if said_by_setting and "metrics" not in e.hidden and e.update.message:
            self.say(e.update.message)  # what the prevalence, goal or band makes of it
        if e.hidden:
            self.say(f"Hidden for now: {_parts(e.hidden)}.")
        if step.walk is not None and "curve" not in e.hidden:
            self.say(f"Walking the {step.walk.upper()} curve: n and p move a point.")
            self.say(self._step_words())
        if step.sonify is not None and "curve" not in e.hidden:
            self._sound(e, step.sonify)
        if self._waiting is not None:
            self.say(f"Question: {self._waiting.question.prompt()}")

    def _sound(self, e: Entered, kind: str) -> None:
        """A step's curve as sound: a WAV file named by the step, in the working folder
        (one of the lesson's own, replaced when the step is played again)."""
        name = f"lesson-step-{e.index + 1}-{kind}.wav"
        try:
            out = check_wav(Path(name), "sound")
            made = sonify(self.analysis.sweep, kind)
            said = made.sentence(write_wav(out, made))
        except InputError as exc:
            self.say(f"No sound of the {kind.upper()} curve: {exc}.")
            return
        self.say(f"Hear it: {said[0].lower()}{said[1:]} (play it with any audio player).")

    def _answered(self, verdict: Verdict) -> None:
        assert self._waiting is not None and self._entered is not None
        self.say(verdict.said)
        if verdict.right is None:
            return
        self._tally.mark(self._entered.index, verdict)
        self._waiting = None
        before = self._entered.hidden
        self._entered = self._entered.answered()
        shown = before - self._entered.hidden
        if shown:
            self.say(f"Shown now: {_parts(shown)}.")
        if self.lesson is not None and self._entered.index == len(self.lesson) - 1:
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
