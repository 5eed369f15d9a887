"""Playing a lesson on a session: entering a step, and rehearsing every step at load.

Entering step ``k`` plays the steps from the last one at or before ``k`` that loads
rows, on the session given: a load starts afresh, so the state a step shows is the same
however it was reached (forward, back, or straight to it), whatever was explored
between. Both front ends enter steps through :func:`enter`, and say what it returns.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

from threshold_lab.core.curves.describe import describe
from threshold_lab.core.curves.sound import sonify
from threshold_lab.core.data.presets import preset
from threshold_lab.core.errors import InputError
from threshold_lab.core.lessons.answers import Answer, Verdict, expected
from threshold_lab.core.lessons.lesson import LOWEST, Lesson, Step, lesson_from_toml, lesson_text
from threshold_lab.core.session.session import Session
from threshold_lab.core.session.update import Update


@dataclass(frozen=True)
class Entered:
    """A step entered: what to say (the caption; the description apart), the question's answer
    at this point, what is hidden and shown, and the session's last update."""

    lesson: Lesson
    index: int
    said: tuple[str, ...]
    answer: Answer | None
    hidden: frozenset[str]
    pane: str | None
    chart: str | None
    update: Update
    #: The curve's description, a sentence a claim, when the step asks for one.
    described: tuple[str, ...] = ()

    @property
    def step(self) -> Step:
        return self.lesson.steps[self.index]

    def answered(self) -> Entered:
        """The step once its question is answered (or skipped): what it reveals shown."""
        ask = self.step.ask
        if ask is None or not ask.reveal:
            return self
        return dataclasses.replace(self, hidden=self.hidden - frozenset(ask.reveal))

    @property
    def heading(self) -> str:
        """``Step 3 of 9``: always on screen while a lesson runs."""
        return f"Step {self.index + 1} of {len(self.lesson)}"


@dataclass
class Tally:
    """The questions answered, each by its last answer (a step gone back to and answered
    again counts once), and how the end of the lesson says them."""

    right: dict[int, bool] = dataclasses.field(default_factory=dict)

    def mark(self, index: int, verdict: Verdict) -> None:
        """A question answered (a skipped one counts neither way)."""
        if verdict.right is not None and not verdict.skipped:
            self.right[index] = verdict.right

    def ending(self) -> str:
        """``The lesson is over. 6 of 8 questions answered right.``"""
        n = len(self.right)
        if not n:
            return "The lesson is over."
        noun = "question" if n == 1 else "questions"
        return f"The lesson is over. {sum(self.right.values())} of {n} {noun} answered right."


def read_lesson(where: str | Path) -> Lesson:
    """Read the lesson at ``where`` (a path, or a shipped lesson's name), check every
    field, and play it once on a session of its own: refused whole, naming the step and
    the field, before any of it runs."""
    text, source = lesson_text(where)
    return rehearse(lesson_from_toml(text, source))


def parse_lesson(text: str, source: str = "lesson") -> Lesson:
    """A lesson from TOML ``text``, checked and rehearsed as :func:`read_lesson` does."""
    return rehearse(lesson_from_toml(text, source))


def rehearse(lesson: Lesson) -> Lesson:
    """Play every step in order on a session of the lesson's own, so that a step that
    cannot be played is refused at load (step and field named)."""
    first = lesson.steps[0].rows
    assert first is not None
    try:
        data = preset(first.preset).data if first.preset is not None else first.data
    except InputError as exc:
        raise InputError(f"{lesson.source}, step 1: preset: {exc}") from None
    assert data is not None
    session = Session(data, 0.5, source="lesson")
    for i in range(len(lesson)):
        step = _play(lesson, i, session).step
        if step.sonify is not None:  # its sound is made when played; here only tried
            try:
                sonify(session.analysis.sweep, step.sonify)
            except InputError as exc:
                where = f"{lesson.source}, step {step.number}"
                raise InputError(f"{where}: sonify: {exc}") from None
    return lesson


def enter(lesson: Lesson, k: int, session: Session) -> Entered:
    """Enter step ``k`` (0-based) on ``session``: play from the last load at or before it."""
    if not 0 <= k < len(lesson):
        raise InputError(f"the lesson has steps 1 to {len(lesson)}; there is no step {k + 1}")
    start = max(i for i in range(k + 1) if lesson.steps[i].rows is not None)
    for i in range(start, k):
        _act(lesson, lesson.steps[i], session)
    return _play(lesson, k, session)


def _play(lesson: Lesson, k: int, session: Session) -> Entered:
    step = lesson.steps[k]
    update = _act(lesson, step, session)
    where = f"{lesson.source}, step {step.number}"
    said = [step.caption] if step.caption else []
    described: tuple[str, ...] = ()
    if step.describe is not None:
        a = session.analysis
        d = describe(a.sweep, step.describe, sorted(a.curves.cost_curve.points()))
        if d.reason is not None:
            raise InputError(f"{where}: describe: {d.reason}")
        described = tuple(d.sentences)
    answer = None
    if step.ask is not None:
        try:
            answer = expected(step.ask, session.analysis)
        except InputError as exc:
            raise InputError(f"{where}: ask: {exc}") from None
    pane, chart = lesson.view(k)
    return Entered(lesson, k, tuple(said), answer, lesson.hidden(k), pane, chart, update, described)


def _act(lesson: Lesson, step: Step, session: Session) -> Update:
    """What ``step`` does to the session, in the order it is written: rows, threshold,
    move, goal, prevalence, band. Refusals name the step and the field."""
    where = f"{lesson.source}, step {step.number}"
    update = session.current()
    field = ""
    try:
        rows = step.rows
        if rows is not None:
            field = "preset" if rows.preset is not None else "rows"
            if rows.preset is not None:
                update = session.load_preset(rows.preset)
            else:
                assert rows.data is not None
                n = rows.data.n
                update = session.load_rows(
                    rows.data, rows.threshold, "lesson rows", f"Loaded the lesson's {n} rows."
                )
            # A load starts afresh: no goal or prevalence from the steps before.
            if session.goal is not None:
                session.set_goal("off")
            if session.prevalence is not None:
                session.set_prevalence("off")
            update = session.current()
        if step.sets_threshold:
            field = "threshold"
            t = step.threshold
            update = session.lowest() if t == LOWEST else session.set_threshold(_float(t))
        if step.move:
            field = "move"
            a = session.analysis
            if not 0 <= a.point + step.move < a.sweep.size:
                room = a.sweep.size - 1 - a.point if step.move > 0 else a.point
                way = "down (lower thresholds)" if step.move > 0 else "up"
                raise InputError(
                    f"{abs(step.move)} tie groups {way} from here, but there "
                    f"{'is' if room == 1 else 'are'} {room}"
                )
            update = session.group(step.move)
        if step.goal is not None:
            field = "goal"
            update = session.set_goal(step.goal)
        if step.prevalence is not None:
            field = "prevalence"
            update = session.set_prevalence(step.prevalence)
        if step.band is not None:
            field = "band"
            update = session.set_band(step.band)
    except InputError as exc:
        said = str(exc)
        # A goal's own refusal names it already ("goal: ..."): not twice.
        named = said.startswith(f"{field}:") or said.startswith(f"{field} goal:")
        raise InputError(f"{where}: {said if named else f'{field}: {said}'}") from None
    return update


def _float(t: object) -> float | None:
    return None if t is None else float(t)  # type: ignore[arg-type]
