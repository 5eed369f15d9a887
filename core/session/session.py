"""One exploring session: the rows, the threshold, the edit history and the file.

Both front ends (the Textual explorer and the plain line mode) drive a Session, made
by :func:`~threshold_lab.core.session.opening.open_session`. Each operation either
raises InputError with nothing changed, or changes the state and returns one
immutable :class:`Update`: the analysis after it, the rows whose prediction it
changed, and the sentence to say. The state lives in four parts, each with one job
(:class:`History`: the rows, their edits and file; :class:`ShownRows`: which model or
class is shown; :class:`Policy`: threshold, goal and prevalence; :class:`IntervalSettings`:
the intervals and the bootstrap), read through :class:`SessionState`; the operating point
(:class:`OperatingPoint`), the edits (:class:`Editing`) and loading other rows
(:class:`Loading`) are layers below this one.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from threshold_lab.core.curves.operating import (
    Focus,
    Kind,
    PartialAUC,
    Readout,
    partial_aucs,
    readouts,
)
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.decide.goal import Goal
from threshold_lab.core.decide.net_benefit import (
    DecisionCurve,
    decision_curve,
    net_benefit_key,
    net_benefit_reader,
)
from threshold_lab.core.decide.solve import decision_sentence
from threshold_lab.core.drawing.decision import decision_curve_of
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.intervals import BootJob
from threshold_lab.core.intervals.bootstrap import SEED, Bootstrap, CurveStatistic
from threshold_lab.core.report.options import Options
from threshold_lab.core.report.report import ROC_AUC_STATISTIC
from threshold_lab.core.report.table import OPTIONS, shown_value
from threshold_lab.core.session.editing import Later
from threshold_lab.core.session.history import NeedsOverwrite
from threshold_lab.core.session.loading import Loading
from threshold_lab.core.session.operating import OWN_REFUSED
from threshold_lab.core.session.policy import OFF_WORDS, STEP, goal_at_prevalence
from threshold_lab.core.session.state import DEFAULTS
from threshold_lab.core.session.update import Update

__all__ = ["STEP", "Later", "NeedsOverwrite", "Session"]


class Session(Loading):
    """Mutable exploring state around immutable datasets: every operation returns
    one :class:`Update` (what it reads is :class:`SessionState`'s).

    >>> from threshold_lab.core.data.presets import preset
    >>> s = Session(preset("canonical").data, 0.5, source="preset canonical")
    >>> s.flip_label(1).message
    'Row s2: actual label flipped to 1.'
    >>> s.undo().message, s.data.labels.tolist()
    ('Undone: row s2: actual label flipped to 1.', [True, False, True, False, True])
    """

    def set_goal(self, given: str | Goal) -> Update:
        """Solve a goal (text, a Goal, or ``off``) and move the threshold to its point."""
        off = isinstance(given, str) and given.strip().lower() in OFF_WORDS
        if self.shown.own is not None and self.shown.showing_group is None and not off:
            raise InputError(OWN_REFUSED)
        if off:
            said = "No goal is set." if self.goal is None else "Goal off."
            self.policy.goal = None
            return self._update(message=said)
        before, self.policy.goal = self.goal, self.policy.goal_for(given, self.history)
        deciding = self._deciding()
        if deciding is None or deciding.decision is None:
            self.policy.goal = before
            raise InputError(deciding.problem if deciding and deciding.problem else "no goal")
        d = deciding.decision
        moved = self.set_threshold(d.threshold)
        return dataclasses.replace(moved, message=decision_sentence(d, self.analysis.sweep))

    def set_prevalence(self, given: str | Fraction) -> Update:
        """Show every metric also at a deployment prevalence (``off`` to stop); a goal
        is solved again there, and the threshold follows it."""
        said = self.policy.set_prevalence(given, self.analysis)
        deciding = self._deciding() if self.goal is not None else None
        if self.prevalence is None or deciding is None or deciding.decision is None:
            return self._update(message=said)
        d = deciding.decision
        moved = self.set_threshold(d.threshold)
        return dataclasses.replace(moved, message=goal_at_prevalence(self.prevalence, d))

    def boot_job(self) -> BootJob | None:
        """The bootstrap to run for the state as it is (with the goal's threshold among
        its numbers while the goal is solved), or None."""
        d = self._deciding()
        solved = d is not None and d.decision is not None
        goal = self.policy.statistic(self.analysis, self.history) if solved else None
        a = self.asked
        net_benefit = CurveStatistic(
            net_benefit_reader(a.pt, a.harm, self.policy.prevalence),
            tuple(net_benefit_key(pt) for pt in a.pt),
            tuple(f"the net benefit at pt {float(pt):g}" for pt in a.pt),
        )
        curves = (ROC_AUC_STATISTIC, net_benefit)
        return self.sureness.job(self._state(), self.analysis, goal, self.beta, curves)

    def boot_done(self, job: BootJob, result: Bootstrap) -> bool:
        return self.sureness.done(job, result, self._state())

    def set_intervals(self, text: str) -> Update:
        return self._update(message=self.sureness.set_intervals(text))

    def set_bootstrap(self, text: str, seed: str | None = None) -> Update:
        """``off``, or a bootstrap of B replicates (and seed S), each read as the
        option table reads ``--bootstrap`` and ``--seed``."""
        if text.strip().lower() in OFF_WORDS:
            return self._update(message=self.sureness.set_bootstrap(None))
        b = OPTIONS["bootstrap"].read(text)
        chosen = None if seed is None else OPTIONS["seed"].read(seed)
        return self._update(message=self.sureness.set_bootstrap(b, chosen))

    @contextlib.contextmanager
    def bootstrap_undone_on_interrupt(self) -> Iterator[None]:
        """The bootstrap's settings put back as they were when what runs inside (a
        bootstrap asked for and run at once) is stopped by Ctrl-C."""
        s = self.sureness
        before = (s.replicates, s.seed, s.intervals)
        try:
            yield
        except KeyboardInterrupt:
            s.replicates, s.seed, s.intervals = before
            raise

    @property
    def options(self) -> Options:
        """Every option in force, as a report of these rows would be asked for it."""
        p, s = self.policy, self.sureness
        return dataclasses.replace(
            p.asked,
            threshold=p.threshold,
            beta=p.beta,
            goal=p.goal,
            prevalence=p.prevalence,
            confidence=s.confidence,
            replicates=s.replicates,
            seed=s.seed,
        )

    def set_option(self, word: str, text: str) -> Update:
        """The option plain mode calls ``word`` (``option harm 0.1``) set from ``text``,
        read by its entry in the option table; ``default`` (and, where the default is
        none, ``off``) puts it back as it is when nothing asks for it."""
        option = OPTIONS.by_plain().get(word.strip().lower())
        if option is None:
            words = ", ".join(OPTIONS.by_plain())
            raise InputError(f"option: no option {quoted(word)}; the options are: {words}")
        back = text.strip().lower() in ("default", *(OFF_WORDS if not option.default else ()))
        value: Any = option.default if back else option.read(text)
        name = option.name
        if name == "threshold":
            return self.set_threshold(value)
        if name in ("goal", "prevalence"):
            setter = self.set_goal if name == "goal" else self.set_prevalence
            return setter("off" if value is None else value)
        if name == "bootstrap":
            return self._update(message=self.sureness.set_bootstrap(value))
        if name == "transform":
            if value is None:
                raise InputError("a transform is an edit of the scores: undo takes it back")
            return self.transform(text)
        if name == "group_goal":
            return self.one_threshold() if value is None else self.solve_group_goal(value)
        if name == "beta":
            self.policy.beta = value
        elif name in ("confidence", "seed"):
            setattr(self.sureness, name, SEED if value is None else value)
        else:  # what is read besides the threshold: readouts, tests, the decision curve
            assert option.field is not None
            changed: dict[str, Any] = {
                option.field: getattr(DEFAULTS, option.field) if value is None else value
            }
            self.policy.asked = dataclasses.replace(self.policy.asked, **changed)
            self._readout = -1
        now = getattr(self.options, option.field or name)
        return self._update(message=f"Option {option.plain} is {shown_value(option, now)}.")

    def decision_curve(self, pt: tuple[Fraction, ...] | None = None) -> DecisionCurve:
        """The rows' decision curve on the grid asked for (``--pt``, ``--harm``; or at
        the threshold probabilities ``pt``), at the prevalence in force (the grid's
        computed once per rows and asking)."""
        a = self.asked
        if pt is not None:
            sweep = self.analysis.sweep
            return decision_curve(sweep, pt, harm=a.harm, prevalence=self.policy.prevalence)
        return decision_curve_of(self.analysis.curves, a.pt, a.harm, self.policy.prevalence)

    def readouts(self, asked: tuple[tuple[Kind, float], ...] | None = None) -> tuple[Readout, ...]:
        """The readouts asked for (``--readout``; by default the seven), or ``asked``."""
        sweep = self.analysis.sweep
        return readouts(sweep, self.asked.readouts if asked is None else asked)

    def partial_aucs(
        self, asked: tuple[tuple[Focus, float, float], ...] | None = None
    ) -> tuple[PartialAUC, ...]:
        """The partial AUCs asked for (``--partial-auc``), or ``asked``."""
        sweep = self.analysis.sweep
        return partial_aucs(sweep, self.asked.partial_aucs if asked is None else asked)

    def set_model(self, name: str) -> Update:
        """Show model ``name``'s scores of the same rows (the threshold stays; a group
        with its own threshold opens at it)."""
        shown = self.shown.pick_model(name, self.history.edited)
        own, g = self.shown.own, self.shown.showing_group
        if own is not None and g is not None:
            self.policy.threshold = own[g]
        return self._show(*shown)

    def next_model(self) -> Update:
        """Show the next model's scores (after the last, the first)."""
        return self.set_model(self.shown.next_model_name())

    def set_class(self, name: str) -> Update:
        """Show class ``name`` against the rest (the threshold stays)."""
        return self._show(*self.shown.pick_class(name, self.history.edited))

    def next_class(self) -> Update:
        """Show the next class against the rest (after the last, the first)."""
        return self.set_class(self.shown.next_class_name())

    def _show(self, data: Dataset, said: str) -> Update:
        """Show other rows of the same examples (another model, another class) as if
        loaded: the threshold stays, nothing to save or redo."""
        self.history.start(data, self.threshold)
        return self._update(message=said, fresh=True)
