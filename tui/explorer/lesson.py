"""A lesson in the explorer, with the presenter in control (and ``--demo``'s tour).

Each step is entered through core (:func:`~threshold_lab.core.lessons.play.enter`), so
the screen at a step is the same however it was reached. The lesson line shows the step
number and total, the caption, a question and its verdict, and the keys: space pauses
and resumes (a step without a question goes on by itself after a while), ``n`` and
``p`` step forward and back, ``g`` goes to a step, ``a`` answers the question waiting,
Esc leaves the lesson keeping the state. Every other key works as ever.
"""

from __future__ import annotations

from textual.events import Key
from textual.timer import Timer
from threshold_lab.core.errors import InputError
from threshold_lab.core.lessons.answers import Answer, Verdict, check
from threshold_lab.core.lessons.lesson import Lesson
from threshold_lab.core.lessons.play import Entered, Tally, enter
from threshold_lab.core.session.update import Update
from threshold_lab.tui.state.chart_modes import chart_mode
from threshold_lab.tui.state.host import Host
from threshold_lab.tui.state.lesson_text import LessonText

#: The keys a running lesson takes before the explorer's own.
LESSON_KEYS = ("space", "n", "p", "g", "a", "escape")
#: Playback steps a word of caption adds to a step's time on screen (beside 3): at the
#: default second a step, a caption of 20 words stays 9 seconds.
READING = 0.3


class LessonPlayer:
    """Runs one lesson on the host screen (see the module)."""

    def __init__(self, host: Host, seconds: float) -> None:
        self.host = host
        self.seconds = seconds
        self.lesson: Lesson | None = None
        self.entered: Entered | None = None
        self.paused = False
        self.waiting: Answer | None = None
        self.verdict: str = ""
        self._timer: Timer | None = None
        self._tally = Tally()

    @property
    def running(self) -> bool:
        return self.lesson is not None

    def start(self, lesson: Lesson, step: int = 0, *, paused: bool = False) -> None:
        """Run ``lesson`` from ``step`` (0-based)."""
        self.lesson, self.paused, self._tally = lesson, paused, Tally()
        self.go(step)

    def go(self, k: int) -> None:
        """Enter step ``k``: the screen as that step makes it, whatever came before."""
        lesson = self.lesson
        assert lesson is not None
        self._stop_timer()
        entered: list[Entered] = []

        def act() -> Update:
            entered.append(enter(lesson, k, self.host.session))
            return entered[-1].update

        self.host.run(act)
        if not entered:  # refused (a lesson is rehearsed at load: not expected)
            return
        e = self.entered = entered[0]
        self.waiting, self.verdict = e.answer, ""
        self.host.hide_parts(e.hidden)
        step = e.step
        # A walk is along the chart of its curve, with [ and ]: that chart is shown.
        walk = step.walk if step.walk is not None and step.chart is None else None
        named = walk or e.chart
        chart = None if named is None else chart_mode(named)
        self.host.show_view("chart" if walk else e.pane or "matrix", chart)
        # The lesson line has the words; the message line says where the lesson is
        # (not the load's message, which may say what a hidden part shows).
        if e.described and "curve" not in e.hidden:
            # A description runs to several sentences: the message line starts it, the
            # log (L) keeps it whole, and the lesson line says so.
            self.host.say(" ".join(e.described))
        else:
            self.host.say(f"{e.heading} of the lesson.")
        self._show()
        if step.sonify is not None and "curve" not in e.hidden:
            self.host.offer_sound(step.sonify)  # its name asked for, as S does
        # A question waits for its answer (a opens the field), the screen in full view.
        if e.answer is None and not self.paused:
            self._schedule()

    def _schedule(self) -> None:
        e = self.entered
        assert e is not None and self.lesson is not None
        if e.index + 1 >= len(self.lesson):
            return  # the last step stays until n ends the lesson, its words still up
        words = sum(len(s.split()) for s in e.said)
        self._timer = self.host.later(self.seconds * (3 + READING * words), self.forward)

    def _stop_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def forward(self) -> None:
        """The next step, or the end after the last."""
        if self.lesson is None or self.entered is None:
            return
        if self._timer is not None and self.host.dialog_open():
            self._schedule()  # the step is in use (a dialog over it): it waits
            return
        if self.entered.index + 1 >= len(self.lesson):
            self.finish()
        else:
            self.go(self.entered.index + 1)

    def back(self) -> None:
        if self.entered is None:
            return
        if self.entered.index == 0:
            self.host.say("This is step 1: there is no step before it.")
            return
        self.go(self.entered.index - 1)

    def toggle_pause(self) -> None:
        self.paused = not self.paused
        if self.paused:
            self._stop_timer()
        elif self.entered is not None and self.entered.answer is None:
            self._schedule()
        self._show()

    def ask(self) -> None:
        """Open the answer dialog for the step's question (again, after an answer: the
        last answer is the one counted)."""
        answer = None if self.entered is None else self.entered.answer
        if answer is None:
            self.host.say("This step asks no question: n goes on.")
            return

        def read(text: str) -> Verdict:
            verdict = check(answer, text)
            if verdict.right is None:
                raise InputError(verdict.said)
            return verdict

        entered = self.entered

        def done(verdict: object) -> None:
            if isinstance(verdict, Verdict) and self.entered is entered:
                self.answered(verdict)

        self.host.ask_text(
            f"{self.heading()}: {answer.question.prompt()}",
            read,
            done,
            hint="Type the answer exactly (2/3, 0.25, undefined, a choice's number); skip "
            "shows it.",
            enter="answers",
        )

    def answered(self, verdict: Verdict) -> None:
        """Say the verdict; the screen goes back to the step's point (the answer is
        about it, whatever was explored since) with what the question reveals shown."""
        step, lesson = self.entered, self.lesson
        assert step is not None and lesson is not None
        answer = step.answer
        assert answer is not None
        self._tally.mark(step.index, verdict)
        self.host.run(lambda: enter(lesson, step.index, self.host.session).update)
        self.entered = e = step.answered()
        self.waiting, self.verdict = None, verdict.said
        self.host.hide_parts(e.hidden)
        if verdict.skipped:
            short = f"the answer is {answer.said}"
        else:
            short = "right" if verdict.right else f"not quite; the answer is {answer.said}"
        self.host.say(f"{e.heading}: {short}.")
        self._show()

    def go_to(self) -> None:
        lesson = self.lesson
        assert lesson is not None

        def read(text: str) -> int:
            t = text.strip()
            if not t.isdigit() or not 1 <= int(t) <= len(lesson):
                raise InputError(f"a step from 1 to {len(lesson)}")
            return int(t) - 1

        def done(k: object) -> None:
            if isinstance(k, int) and self.lesson is lesson:
                self.go(k)

        self.host.ask_text(f"Go to step (1-{len(lesson)})", read, done, enter="goes")

    def key(self, event: Key) -> bool:
        """Take a lesson key (True: taken, nothing else sees it). Any other key is the
        presenter using the step: a step going on by itself waits again from now."""
        if self.lesson is None:
            return False
        if event.key not in LESSON_KEYS:
            if self._timer is not None:
                self._stop_timer()
                self._schedule()
            return False
        event.stop()
        event.prevent_default()
        if event.key == "space":
            self.toggle_pause()
        elif event.key == "n":
            self.forward()
        elif event.key == "p":
            self.back()
        elif event.key == "g":
            self.go_to()
        elif event.key == "a":
            self.ask()
        else:
            self.leave("You left the lesson; the rows and the threshold stay as they are.")
        return True

    def finish(self) -> None:
        self.leave(f"{self._tally.ending()} Explore freely; ? lists every key.")

    def leave(self, said: str) -> None:
        self._stop_timer()
        self.lesson = self.entered = self.waiting = None
        self.host.hide_parts(frozenset())
        self.host.show_lesson(None)
        self.host.say(said)

    def heading(self) -> str:
        e = self.entered
        assert e is not None
        return e.heading

    def _show(self) -> None:
        e = self.entered
        assert e is not None and self.lesson is not None
        state = " · paused" if self.paused else ""
        heading = f"{self.lesson.title} · {e.heading}{state}"
        if self.verdict:
            body = self.verdict
        elif self.waiting is not None:
            q = self.waiting.question
            asked = q.prompt() if q.kind in ("choice", "next") else q.question  # the options
            body = f"{' '.join(e.said)} Question: {asked}".strip()
        else:
            body = " ".join(e.said)
        if e.described and "curve" not in e.hidden and not self.verdict:
            body += " The curve's description is on the message line; L reads it whole."
        if e.step.walk is not None and "curve" not in e.hidden and not self.verdict:
            body += f" [ and ] walk the {e.step.walk.upper()} curve a point at a time, in words."
        last = e.index + 1 >= len(self.lesson)
        keys = [
            "space resume" if self.paused else "space pause",
            "n end" if last else "n next",
            *(["p back"] if e.index else []),
            "g go to",
            "Esc leave",
        ]
        if e.answer is not None:
            keys.insert(0, "a answer" if self.waiting is not None else "a answer again")
        if e.hidden:
            keys.insert(0, f"hidden for now: {', '.join(sorted(e.hidden))}")
        self.host.show_lesson(LessonText(heading, body, " · ".join(keys)))
