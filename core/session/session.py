"""One exploring session: the rows, the threshold, the edit history and the file.

Both front ends (the Textual explorer and the plain line mode) drive a Session. Each
operation either raises InputError with nothing changed, or changes the state and
returns one immutable :class:`Update`: the analysis after it, the rows whose
prediction it changed, and the sentence to say. The state lives in four parts, each
with one job (:class:`History`: the rows, their edits and file; :class:`Shown`:
which model or class is shown; :class:`Policy`: threshold, goal and prevalence;
:class:`Sureness`: the intervals and the bootstrap); the Session is their front.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Literal

import numpy as np
from threshold_lab.core.analysis import Analysis, Curves
from threshold_lab.core.curves.operating import Focus, Kind
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.data.presets import preset
from threshold_lab.core.decide.net_benefit import (
    DecisionCurve,
    net_benefit_key,
    net_benefit_reader,
)
from threshold_lab.core.decide.solve import decision_sentence
from threshold_lab.core.drawing.bands import Band
from threshold_lab.core.drawing.decision import decision_curve_of
from threshold_lab.core.drawing.model_rows import ModelRow, model_row
from threshold_lab.core.errors import InputError
from threshold_lab.core.folds import tpr_band
from threshold_lab.core.groups.thresholds import parse_criterion, parse_tolerance
from threshold_lab.core.intervals import BootJob
from threshold_lab.core.intervals.bootstrap import Bootstrap, CurveStatistic
from threshold_lab.core.report.options import Options
from threshold_lab.core.session import edits
from threshold_lab.core.session.groups import PooledAnalysis, RowGroups
from threshold_lab.core.session.history import NeedsOverwrite, Performed, Stale, Travel
from threshold_lab.core.session.policy import (
    OFF_WORDS,
    STEP,
    Asked,
    goal_at_prevalence,
    label_of,
)
from threshold_lab.core.session.reading import Reading
from threshold_lab.core.session.rowview import NOTHING_CHANGED, Changed
from threshold_lab.core.session.shown import Shown
from threshold_lab.core.session.update import Update
from threshold_lab.core.text.operating import readout_sentence
from threshold_lab.core.threshold import Threshold, format_threshold
from threshold_lab.core.transform import kept

__all__ = ["STEP", "Later", "NeedsOverwrite", "Session"]

#: Why the threshold does not move while every row is shown and each group has its own.
OWN_REFUSED = (
    "each group has its own threshold: M shows a group alone to move its own "
    "(O: one threshold for every group again)"
)


class Session(Reading):
    """Mutable exploring state around immutable datasets: every operation returns
    one :class:`Update` (what it reads is :class:`Reading`'s).

    >>> from threshold_lab.core.data.presets import preset
    >>> s = Session(preset("canonical").data, 0.5, source="preset canonical")
    >>> s.flip_label(1).message
    'Row s2: actual label flipped to 1.'
    >>> s.undo().message, s.data.labels.tolist()
    ('Undone: row s2: actual label flipped to 1.', [True, False, True, False, True])
    """

    #: The readout the explorer's R last jumped to (-1: none yet).
    _readout: int = -1
    #: The models are every row pooled and its cross-validation folds (``--fold COL``).
    folds: bool = False
    _fold_band_kept: tuple[tuple[int, ...], Band] | None = None
    #: The rows' groups (``--group COL``), followed through the edits; None without.
    row_groups: RowGroups | None = None
    #: The last pooled analysis with each group at its own threshold, and its key.
    _pooled_kept: tuple[tuple[object, ...], PooledAnalysis] | None = None

    def _update(
        self, changed: Changed = NOTHING_CHANGED, message: str = "", *, fresh: bool = False
    ) -> Update:
        """An Update of the current state, with the goal and prevalence in force."""
        return Update(
            self.analysis,
            changed,
            message,
            fresh,
            self._deciding(),
            self.sure,
            self.model_rows(wait=False),
            self.shown.class_name,
            self.group_by,
            self.quantisation,
            self.asked,
            self.pooled,
            self.folds,
            self._fold_band(),
        )

    def _fold_band(self) -> Band | None:
        """With folds: the folds' TPR range at each FPR (lowest to highest fold), the
        band the ROC chart shades; None until every fold's sweep is ready."""
        n = len(self.shown.models)
        if not self.folds or n < 3 or any(self.model_waits(i) for i in range(1, n)):
            return None
        curves = [self.model_curves(i) for i in range(1, n)]
        key = tuple(id(c) for c in curves)
        kept = self._fold_band_kept
        if kept is None or kept[0] != key:
            x, low, _, high = tpr_band([c.sweep for c in curves])
            kept = self._fold_band_kept = (key, Band(x, low, high))
        return kept[1]

    def current(self) -> Update:
        return self._update()  # the state as it is, with nothing to say

    @property
    def analysis(self) -> Analysis:
        """The current operating point; with each group at its own threshold while
        every row is shown, the groups' counts pooled (:class:`PooledAnalysis`)."""
        a = Reading.analysis.fget(self)  # type: ignore[attr-defined]
        own, groups = self.shown.own, self.row_groups
        if own is None or groups is None or self.shown.showing_group is not None:
            return a  # type: ignore[no-any-return]
        return self._pooled_at_own(a.curves, a.threshold)

    def _pooled_at_own(self, curves: Curves, threshold: Threshold) -> PooledAnalysis:
        own, groups = self.shown.own, self.row_groups
        assert own is not None and groups is not None
        key = (curves, threshold, tuple(own.items()), self.beta)
        kept = self._pooled_kept
        if kept is None or kept[0] != key:  # O(rows): once per rows and thresholds
            pooled = PooledAnalysis(
                curves=curves,
                threshold=threshold,
                beta=self.beta,
                own=tuple((n, own[n]) for n in groups.names if n in own),
                groups=groups,
            )
            kept = self._pooled_kept = (key, pooled)
        return kept[1]

    def model_rows(self, *, wait: bool = True) -> tuple[ModelRow, ...]:
        """Every model (or all rows and each group) at the threshold; with each group at
        its own threshold, all rows' line is the groups' counts pooled."""
        rows = super().model_rows(wait=wait)
        if not rows or self.shown.own is None or self.row_groups is None or rows[0].pending:
            return rows
        if self.shown.showing_group is None:
            pooled = self.analysis
        else:  # every row as loaded, each group at its own threshold
            pooled = self._pooled_at_own(self.shown.curves(0, self.curves), self.threshold)
        first = model_row(
            rows[0].name, rows[0].shown, pooled, None if self.sure is None else self.sure.confidence
        )
        return (first, *rows[1:])

    def toggle_own(self) -> Update:
        """Each group its own threshold (all at the current one to start), or one
        threshold for every group again."""
        names = self._group_names("each group its own threshold")
        if self.shown.own is not None:
            self.shown.own = None
            return self._update(
                message=f"One threshold for every group again: {format_threshold(self.threshold)}."
            )
        self.shown.own = dict.fromkeys(names, self.threshold)
        return self._update(
            message=(
                f"Each group now has its own threshold, every one at "
                f"{format_threshold(self.threshold)} to start: M shows a group alone to move its "
                "own; all rows' status line and matrix are the groups' pooled. O again: one "
                "threshold."
            )
        )

    def set_group_thresholds(self, thresholds: dict[str, Threshold], said: str) -> Update:
        """Each group at its own threshold from ``thresholds`` (by group name)."""
        names = self._group_names("per-group thresholds")
        missing = [n for n in names if n not in thresholds]
        if missing:
            raise InputError(f"no threshold for group {missing[0]!r}")
        self.shown.own = {n: thresholds[n] for n in names}
        g = self.shown.showing_group
        if g is not None:
            self.policy.threshold = self.shown.own[g]
        return self._update(message=said)

    def solve_group_goal(self, criterion: str, tolerance: str | None = None) -> Update:
        """Per-group thresholds for a fairness ``criterion`` (``--group-goal``), the
        objective the goal in force names (max accuracy without one), on every row as
        the groups split them; each group then carries its own."""
        self._group_names("per-group thresholds")
        assert self.row_groups is not None
        crit = parse_criterion(criterion)
        opts = Options(group_goal=crit, goal=self.goal)
        if tolerance is not None:
            opts = dataclasses.replace(opts, tolerance=parse_tolerance(tolerance))
        r, _ = self.row_groups.report(
            self.grouped_rows(),
            self.threshold,
            beta=self.beta,
            confidence=self.confidence,
            label=self.source,
            solve=opts,
        )
        g = r.group_thresholds
        assert g is not None
        if not g.feasible or g.chosen is None:
            raise InputError(f"per-group thresholds for {crit}: {g.reason}")
        head, *rest = [line.strip() for line in g.sentences() if line.strip()]
        said = f"{head} " + "; ".join(x for x in rest if not x.startswith("(")) + "."
        return self.set_group_thresholds(dict(g.chosen.thresholds), said)

    def _group_names(self, what: str) -> list[str]:
        if self.row_groups is None or not self.shown.pooled:
            raise InputError(
                f"{what} needs groups: open a file with --group COL (a column "
                "naming each row's group)"
            )
        return list(self.row_groups.names)

    @property
    def threshold_held(self) -> str | None:
        """Why the threshold cannot move now (every row shown, each group at its own),
        or None."""
        held = self.shown.own is not None and self.shown.showing_group is None
        return OWN_REFUSED if held else None

    def grouped_rows(self) -> Dataset:
        """The rows the groups split: every row as edited, or, while one group is shown
        alone (``M``), every row as loaded (edits wait until all rows are shown again)."""
        if self.shown.showing_group is not None:
            return self.shown.models[0].data
        return self.data

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
        return self.sureness.job(self._state(), self.analysis, goal, self.beta, (net_benefit,))

    def boot_done(self, job: BootJob, result: Bootstrap) -> bool:
        return self.sureness.done(job, result, self._state())

    def set_intervals(self, text: str) -> Update:
        return self._update(message=self.sureness.set_intervals(text))

    def set_bootstrap(self, text: str, seed: str | None = None) -> Update:
        return self._update(message=self.sureness.set_bootstrap(text, seed))

    def set_threshold(self, t: Threshold, *, note: str = "") -> Update:
        """Move the threshold to ``t`` (None: above all scores); with each group at its
        own threshold, the shown group's (refused while every row is shown)."""
        t = self.policy.checked(t)
        own = self.shown.own
        if own is not None:
            g = self.shown.showing_group
            if g is None:
                raise InputError(OWN_REFUSED)
            own[g] = t
        old, self.policy.threshold = self.threshold, t
        return self._update(Changed.band(old, self.threshold), note)

    def step(self, steps: int) -> Update:
        """Move by ``steps`` × 0.01; from above all a step down admits the top group."""
        if self.threshold is None:
            return self.group(1) if steps < 0 else self.current()
        return self.set_threshold(self.policy.stepped(steps))

    def group(self, delta: int) -> Update:
        """Move to the next (``delta`` 1, lower threshold) or previous tie group."""
        a = self.analysis
        k = int(np.clip(a.point + delta, 0, a.sweep.size - 1))
        return self.set_threshold(a.sweep.threshold_at(k))

    def set_asked(
        self,
        *,
        readouts: tuple[tuple[Kind, float], ...] | None = None,
        partial_aucs: tuple[tuple[Focus, float, float], ...] | None = None,
        alternative: str | None = None,
        unpaired: bool | None = None,
        pt: tuple[Fraction, ...] | None = None,
        harm: Fraction | None = None,
    ) -> None:
        """What to read besides the threshold (``--readout``, ``--partial-auc``, the
        decision curve's ``--pt`` and ``--harm``) and how models are tested
        (``--alternative``, ``--unpaired``); None keeps each as it is."""
        a = self.asked
        self.policy.asked = Asked(
            a.readouts if readouts is None else readouts,
            a.partial_aucs if partial_aucs is None else partial_aucs,
            a.alternative if alternative is None else alternative,
            a.unpaired if unpaired is None else unpaired,
            a.pt if pt is None else pt,
            a.harm if harm is None else harm,
        )
        self._readout = -1

    def decision_curve(self) -> DecisionCurve:
        """The rows' decision curve on the grid asked for (``--pt``, ``--harm``), at the
        prevalence in force (computed once per rows and asking)."""
        a = self.asked
        return decision_curve_of(self.analysis.curves, a.pt, a.harm, self.policy.prevalence)

    def next_readout(self) -> Update:
        """The threshold at the next readout's point, round them in turn (by default the
        seven: TPR at FPR <= 0.001, 0.01, 0.05, 0.1, then FPR at TPR >= 0.9, 0.95,
        0.99), saying it.

        >>> from threshold_lab.core.data.presets import preset
        >>> s = Session(preset("canonical").data, 0.5, source="preset canonical")
        >>> s.next_readout().message.split(";")[0], s.threshold
        ('TPR at FPR <= 0.001: 1/3 ≈ 0.3333 at threshold 0.9 (FPR 0/2 = 0', 0.9)
        """
        found = self.asked.read(self.analysis.sweep)
        self._readout = (self._readout + 1) % len(found)
        r = found[self._readout]
        where = f"readout {self._readout + 1} of {len(found)}"
        if r.counts is None:
            return self._update(message=f"{r.asked}: undefined: {r.reason} ({where}).")
        return self.set_threshold(r.threshold, note=f"{readout_sentence(r)} ({where}).")

    def lowest(self) -> Update:
        """The lowest score: everything predicted positive."""
        sweep = self.analysis.sweep
        return self.set_threshold(sweep.threshold_at(sweep.size - 1))

    def set_goal(self, text: str) -> Update:
        """Solve a goal (or ``off``) and move the threshold to its point."""
        off = text.strip().lower() in OFF_WORDS
        if self.shown.own is not None and self.shown.showing_group is None and not off:
            raise InputError(OWN_REFUSED)
        if text.strip().lower() in OFF_WORDS:
            said = "No goal is set." if self.goal is None else "Goal off."
            self.policy.goal = None
            return self._update(message=said)
        before, self.policy.goal = self.goal, self.policy.goal_for(text, self.history)
        deciding = self._deciding()
        if deciding is None or deciding.decision is None:
            self.policy.goal = before
            raise InputError(deciding.problem if deciding and deciding.problem else "no goal")
        d = deciding.decision
        moved = self.set_threshold(d.threshold)
        return dataclasses.replace(moved, message=decision_sentence(d, self.analysis.sweep))

    def set_prevalence(self, text: str) -> Update:
        """Show every metric also at a deployment prevalence (``off`` to stop); a goal
        is solved again there, and the threshold follows it."""
        said = self.policy.set_prevalence(text, self.analysis)
        deciding = self._deciding() if self.goal is not None else None
        if self.prevalence is None or deciding is None or deciding.decision is None:
            return self._update(message=said)
        d = deciding.decision
        moved = self.set_threshold(d.threshold)
        return dataclasses.replace(moved, message=goal_at_prevalence(self.prevalence, d))

    def _apply(self, edit: edits.Edit, note: str | Callable[[], str]) -> Update:
        """Perform ``edit`` as one undoable step; ``note`` is its sentence, or says it
        once the edit is done (a transform's depends on the rows after it)."""
        before, inverse = self.data, self.history.perform(edit)
        said = note if isinstance(note, str) else note()
        self.history.record(inverse, said)
        return self._update(edit.changed(before, self.data, self.threshold), said)

    def transform(self, text: str) -> Update:
        """A monotone score transform as one undoable edit; the threshold stays, and the
        message says what changed and which threshold makes the old decisions again."""
        before = self.analysis
        applied, edit = edits.rescore(text, self.data, before.sweep)
        return self._apply(
            edit, lambda: kept(applied, self.threshold, before, self.analysis).sentence()
        )

    def set_score(self, index: int, text: str) -> Update:
        return self._apply(*edits.score_edit(self.data, index, text))

    def flip_label(self, index: int) -> Update:
        return self.later("flip", index).finish()

    def set_label(self, index: int, text: str) -> Update:
        if bool(self.data.labels[index]) != label_of(text):
            return self.flip_label(index)
        return self._update(
            message=f"Row {self.data.shown_id(index)}: actual label is already {text.strip()}."
        )

    def add_row(self, score_text: str, label_text: str) -> Update:
        """Add a row at the end from typed text (a score, and a label 0 or 1)."""
        label = label_of(label_text)
        return self.insert_row(edits.check_score(self.data, score_text), label)

    def insert_row(self, score: float, label: bool) -> Update:
        return self._apply(*edits.insert_edit(self.data, score, label))

    def delete_row(self, index: int) -> Update:
        return self.later("delete", index).finish()

    def later(self, kind: Literal["delete", "flip", "undo", "redo"], index: int = -1) -> Later:
        """A delete or flip of row ``index``, an undo or a redo, to be worked out by
        :meth:`Later.work` (in a thread: the copying of the rows and the sweep happens
        there) and made the state by :meth:`Later.finish` (on the caller's thread, by
        references only). Nothing else may edit the rows between the two; if something
        did, ``finish`` does an undo or redo again and refuses a delete or flip.

        >>> from threshold_lab.core.data.presets import preset
        >>> s = Session(preset("canonical").data, 0.5, source="preset canonical")
        >>> job = s.later("delete", 0)
        >>> job.work()
        >>> s.data.n, job.finish().message, s.data.n
        (5, 'Removed row s1. Undo brings it back.', 4)
        """
        return Later(self, kind, index)

    def undo(self) -> Update:
        return self._travel(back=True)

    def redo(self) -> Update:
        return self._travel(back=False)

    def _travel(self, back: bool) -> Update:
        before = self.data
        edit, said = self.history.travel(back)
        changed = (
            NOTHING_CHANGED if edit is None else edit.changed(before, self.data, self.threshold)
        )
        return self._update(changed, said)

    def reset(self) -> Update:
        """Back to the rows and threshold as loaded (itself an undoable step)."""
        before, old = self.data, self.threshold
        data, threshold = self.loaded
        self.history.aligned = True  # before the update below solves the goal again
        if self.data is not data:
            self._apply(edits.Replace(data), f"Reset to {self.source} as loaded.")
        self.policy.threshold = threshold
        one = ""
        if self.shown.own is not None:
            self.shown.own = None  # as loaded: one threshold for every group
            one = " One threshold for every group."
        changed = edits.changed_between(before, old, self.data, self.threshold)
        return self._update(
            changed,
            f"Reset to {self.source} as loaded, threshold {format_threshold(threshold)}.{one}",
        )

    def recover(self) -> Path | None:
        """Unsaved edits written to a new recovery file (on a hang-up), or None."""
        return self.history.recover()

    def recovery_notice(self) -> str:
        """The sentence to start with when an earlier session left recovery files."""
        return self.history.recovery_notice()

    def save(self, target: Path, *, overwrite: bool = False) -> Update:
        written = self.history.save(target, overwrite=overwrite)
        return self._update(message=f"Saved {self.data.n} rows to {written}.")

    def load_preset(self, name: str) -> Update:
        """Load a built-in fixture; the history starts afresh."""
        p = preset(name)
        self.row_groups = None  # other rows: the groups were the file's
        self.history.start(p.data, p.threshold, f"preset {name}", fresh=True)
        self.shown = Shown(p.models, p.multiclass)
        self.policy.threshold = p.threshold
        if self.goal is not None and self.goal.columns():
            self.policy.goal = None  # a preset has no cost columns: the goal goes
        said = f"Loaded preset {name}: {p.description}"
        if p.models:
            names = ", ".join(m.name for m in p.models)
            said += f" Models {names}; {p.models[0].name}'s scores shown."
        # Other rows altogether: nothing is marked changed against the rows before.
        return self._update(message=said, fresh=True)

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


class Later:
    """One edit worked out in a thread and made the state on the caller's (see
    :meth:`Session.later`)."""

    def __init__(
        self, session: Session, kind: Literal["delete", "flip", "undo", "redo"], index: int
    ) -> None:
        self.session, self.kind, self.index = session, kind, index
        self._done: Performed | Travel | None = None
        self._note = ""
        self._error: InputError | None = None
        self._worked = False

    def work(self) -> None:
        """The copying: reads the session's (read-only) rows and sweep, changes nothing."""
        history, i = self.session.history, self.index
        try:
            if self.kind == "delete":
                edit, self._note = edits.delete_edit(history.data, i)
                self._done = history.prepare(edit)
            elif self.kind == "flip":
                edit, self._note = edits.flip_edit(history.data, i)
                self._done = history.prepare(edit)
            else:
                self._done = history.prepare_travel(back=self.kind == "undo")
        except InputError as exc:
            self._error = exc
        self._worked = True

    def finish(self) -> Update:
        """The edit made the state, and its Update (raises InputError as the edit would;
        nothing changes then)."""
        s = self.session
        if not self._worked:
            self.work()
        if self._error is not None:
            raise self._error
        done, self._done = self._done, None  # the rows it holds are not kept after this
        try:
            if isinstance(done, Performed):
                before = s.data
                inverse = s.history.commit(done)
                s.history.record(inverse, self._note)
                update = s._update(done.edit.changed(before, s.data, s.threshold), self._note)
                if self.kind == "delete":
                    update = dataclasses.replace(
                        update, message=f"{update.message} Undo brings it back."
                    )
                return update
            if isinstance(done, Travel):
                before = s.data
                edit, said = s.history.commit_travel(done)
                return s._update(edit.changed(before, s.data, s.threshold), said)
        except Stale:
            if self.kind in ("undo", "redo"):
                return s._travel(back=self.kind == "undo")
            what = "removed" if self.kind == "delete" else "flipped"
            raise InputError(f"the rows changed first; nothing {what}") from None
        return s._travel(back=self.kind == "undo")  # nothing to undo or redo: said so
