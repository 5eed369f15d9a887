"""One exploring session: the rows, the threshold, the edit history and the file.

Both front ends (the Textual explorer and the plain line mode) drive a
Session. Each operation either raises InputError with nothing changed, or
changes the state and returns one immutable :class:`Update`: the analysis
after it, the rows whose prediction it changed, and the sentence to say.
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Analysis, Curves, analyse, curves_for
from threshold_lab.core.compare.models import (
    Comparison,
    ModelRow,
    compare,
    model_row,
    pairs,
    pending_row,
)
from threshold_lab.core.data.aggregated import Quantised
from threshold_lab.core.data.classes import Multiclass
from threshold_lab.core.data.dataset import Dataset, Model
from threshold_lab.core.data.extra import numeric_column
from threshold_lab.core.data.presets import preset
from threshold_lab.core.decide.goal import Goal, parse_goal
from threshold_lab.core.decide.solve import (
    Decision,
    decision_sentence,
    parse_prevalence,
    solve,
    threshold_statistic,
)
from threshold_lab.core.decide.text import goal_setting, prevalence_words, solved_at
from threshold_lab.core.drawing.prepared import BACKGROUND_ROWS
from threshold_lab.core.errors import InputError
from threshold_lab.core.intervals import BootJob, Sure
from threshold_lab.core.intervals.bootstrap import SEED, Bootstrap, parse_replicates, parse_seed
from threshold_lab.core.intervals.closed import CONFIDENCE, parse_confidence
from threshold_lab.core.metrics.metric import fraction_text
from threshold_lab.core.multiclass.metrics import MulticlassReport, multiclass_report
from threshold_lab.core.session import edits
from threshold_lab.core.session.rowview import NOTHING_CHANGED, Changed
from threshold_lab.core.session.savefile import check_name, write_atomic
from threshold_lab.core.session.update import Deciding, Update
from threshold_lab.core.threshold import Threshold, format_threshold
from threshold_lab.core.transform import apply as apply_transform
from threshold_lab.core.transform import kept, parse_transform

#: Threshold steps of the arrow keys (and ``step`` commands).
STEP = 0.01


class NeedsOverwrite(InputError):
    """Saving would replace a file; ``question`` asks the user whether to."""

    def __init__(self, message: str, question: str) -> None:
        super().__init__(message)
        self.question = question


class Session:
    """Mutable exploring state around immutable datasets.

    >>> from threshold_lab.core.data.presets import preset
    >>> s = Session(preset("canonical").data, 0.5, source="preset canonical")
    >>> s.flip_label(1).message
    'Row s2: actual label flipped to 1.'
    >>> s.undo().message, s.data.labels.tolist()
    ('Undone: row s2: actual label flipped to 1.', [True, False, True, False, True])
    """

    def __init__(
        self,
        data: Dataset,
        threshold: Threshold,
        *,
        source: str,
        path: Path | None = None,
        beta: float = 2.0,
        columns: Mapping[str, npt.NDArray[np.float64]] | None = None,
        models: Sequence[Model] = (),
        multiclass: Multiclass | None = None,
        klass: int = 0,
        quantised: Mapping[str, Quantised] | None = None,
        group_by: str | None = None,
    ) -> None:
        self.data = data
        #: Quantised aggregated counts: rule and AUC bound by model name ("" for one).
        self.quantised: Mapping[str, Quantised] = quantised or {}
        #: The column whose groups the models are (different examples), or None
        #: when the models score the same rows.
        self.group_by = group_by
        #: Several models of the same rows, as loaded (the rows shown are one of
        #: them, ``model``); edits apply to the rows shown only.
        self.models: tuple[Model, ...] = tuple(models)
        self.model = 0
        self._model_curves: dict[int, Curves] = {}
        #: Several classes (the rows shown are one class against the rest, ``klass``).
        self.multiclass = multiclass
        self.klass = klass
        self._summary: MulticlassReport | None = None
        #: Leave large models' sweeps to a worker (the explorer's): their rows wait.
        self.defer_models = False
        #: The last transform applied (the explorer's dialog offers it again).
        self.last_transform: str | None = None
        #: What a front end says first (a transform asked for on the command line).
        self.opening = ""
        self.threshold = threshold
        self.source = source
        self.path = path
        self.beta = beta
        self.loaded = (data, threshold)
        # The history keeps inverse edits, not datasets: ten million rows would
        # cost 90 MB per step. Each state has a version; the saved one is clean.
        self._versions = itertools.count(1)
        self._version = 0
        self._saved = (0, data)
        self._undo: list[tuple[edits.Edit, int, str]] = []
        self._redo: list[tuple[edits.Edit, int, str]] = []
        self._curves: Curves | None = None
        #: The goal and the deployment prevalence in force (None: none).
        self.goal: Goal | None = None
        self.prevalence: Fraction | None = None
        #: Numeric columns kept for a goal's costs, one value per loaded row.
        self.columns: Mapping[str, npt.NDArray[np.float64]] = columns or {}
        #: Whether those columns still line up with the rows (no row added or deleted).
        self._aligned = True
        self._solved: tuple[object, Decision | str] | None = None
        #: Intervals: shown or not, at what confidence, and the bootstrap asked for
        #: (replicates, None when off) with the last one finished, keyed by its state.
        self.intervals = True
        self.confidence = CONFIDENCE
        self.replicates: int | None = None
        self.seed = SEED
        self._boot: tuple[tuple[object, ...], Bootstrap] | None = None

    # --- derived -------------------------------------------------------------------

    @property
    def analysis(self) -> Analysis:
        """The current operating point; the sweep is rebuilt only when the rows change."""
        if self._curves is None or self._curves.data is not self.data:
            # A model shown again is not swept again.
            kept = (c for c in list(self._model_curves.values()) if c.data is self.data)
            self._curves = next(kept, None) or curves_for(self.data)
        return analyse(self._curves, self.threshold, beta=self.beta)

    def _update(
        self,
        analysis: Analysis,
        changed: Changed = NOTHING_CHANGED,
        message: str = "",
        *,
        fresh: bool = False,
    ) -> Update:
        """An Update of the current state, with the goal and prevalence in force."""
        klass = None if self.multiclass is None else self.multiclass.classes[self.klass]
        return Update(
            analysis,
            changed,
            message,
            fresh,
            self._deciding(),
            self.sure,
            self.model_rows(),
            klass,
            self.group_by,
            self.quantisation,
        )

    @property
    def paired(self) -> bool:
        """Whether the models score the same rows (not groups of different examples)."""
        return self.group_by is None

    @property
    def quantisation(self) -> Quantised | None:
        """The rows shown as quantised counts (rule and AUC bound), while unedited."""
        key = self.models[self.model].name if self.models else ""
        q = self.quantised.get(key)
        return None if q is None or self._undo else q

    def model_rows(self) -> tuple[ModelRow, ...]:
        """Every model at the threshold (the one shown with its current rows), or ().

        With :attr:`defer_models` set, a large model whose sweep and summaries are not
        computed yet gets a pending row rather than holding the caller: a front end
        computes them in a worker (:meth:`model_curves`) and asks again."""
        if len(self.models) < 2:
            return ()
        sure = self.sure
        confidence = None if sure is None else sure.confidence
        rows = []
        for i, m in enumerate(self.models):
            shown = i == self.model
            # The model shown with its rows as they are now (edits included).
            if self.defer_models and self.model_waits(i):
                rows.append(pending_row(m.name, shown, self.data if shown else m.data))
                continue
            a = analyse(self.model_curves(i), self.threshold, beta=self.beta)
            rows.append(model_row(m.name, shown, a, confidence))
        return tuple(rows)

    def model_waits(self, i: int) -> bool:
        """Whether model ``i`` is large and its curves are not computed yet (with
        :attr:`defer_models`, its row waits for a worker's :meth:`model_curves`)."""
        data = self.data if i == self.model else self.models[i].data
        kept = self.analysis.curves if i == self.model else self._model_curves.get(i)
        return data.n > BACKGROUND_ROWS and (kept is None or not kept.ready)

    def model_curves(self, i: int) -> Curves:
        """Model ``i``'s curves as loaded (the shown one's as they are now), swept once,
        with their summaries and DeLong's SE computed. Safe to call from one worker
        thread while the session goes on: it only fills a cache."""
        data = self.models[i].data
        if i == self.model and self.data is not data:  # the shown model, edited
            curves = self.analysis.curves
        elif i in self._model_curves:
            curves = self._model_curves[i]
        else:
            curves = self.analysis.curves if self.data is data else curves_for(data)
        curves.summaries  # noqa: B018 - computed now, where the caller chose to wait
        curves.auc_se  # noqa: B018
        if i != self.model or self.data is data:
            # Kept only once ready, and the first kept stays: two workers (one cancelled,
            # still running) may sweep the same model, and a row that waits for curves
            # another worker has just replaced would wait for a frame that never comes.
            curves = self._model_curves.setdefault(i, curves)
        return curves

    # --- intervals -----------------------------------------------------------------

    def _boot_state(self) -> tuple[object, ...]:
        """What a bootstrap's threshold-free results depend on (the point aside)."""
        return (
            self.analysis.curves, self.goal, self.prevalence, self._aligned, self.beta,
            self.confidence, self.replicates, self.seed,
        )  # fmt: skip

    @property
    def sure(self) -> Sure | None:
        """The intervals to show, or None when they are turned off."""
        if not self.intervals:
            return None
        boot = None
        if self.replicates is not None and self._boot is not None:
            key, result = self._boot
            if key[:-1] == self._boot_state():
                boot = result
        return Sure(self.confidence, boot)

    def boot_job(self) -> BootJob | None:
        """The bootstrap to run for the state as it is, or None when none is wanted
        or the last one finished is for this very state."""
        if not self.intervals or self.replicates is None:
            return None
        a = self.analysis
        key = (*self._boot_state(), a.point)
        if self._boot is not None and self._boot[0] == key:
            return None
        goal = None
        deciding = self._deciding()
        if self.goal is not None and deciding is not None and deciding.decision is not None:
            columns = self.columns if self._aligned else {}
            setting = goal_setting(a, self.goal, self.prevalence, self.data, columns)
            goal = threshold_statistic(self.goal, setting)
        base = None
        if self._boot is not None and self._boot[0][:-1] == key[:-1]:
            base = self._boot[1]  # the same rows at another point: count the new one only
        return BootJob(
            key, a.sweep, a.point, self.beta, self.replicates, self.seed, self.confidence, goal,
            base,
        )  # fmt: skip

    def boot_done(self, job: BootJob, result: Bootstrap) -> bool:
        """Keep a finished bootstrap if it still belongs to these rows (its
        threshold-free results then stand even after the threshold moved)."""
        if job.key[:-1] != self._boot_state():
            return False
        self._boot = (job.key, result)
        return True

    def set_intervals(self, text: str) -> Update:
        """``on``, ``off``, or a confidence (0.9) which also turns them on."""
        word = text.strip().lower()
        if word in ("on", "off"):
            self.intervals = word == "on"
        elif word:
            try:
                self.confidence = parse_confidence(word)
            except ValueError as exc:
                raise InputError(
                    f"intervals: {exc}; give on, off or a confidence like 0.9"
                ) from None
            self.intervals = True
        else:
            self.intervals = not self.intervals
        if not self.intervals:
            return self._update(self.analysis, NOTHING_CHANGED, "Intervals off.")
        boot = (
            "" if self.replicates is None
            else f"; bootstrap for the rest, B = {self.replicates}"
        )  # fmt: skip
        said = (
            f"Intervals on: {self.confidence * 100:g}%, Wilson's for proportions, "
            f"DeLong's for ROC AUC{boot}."
        )
        return self._update(self.analysis, NOTHING_CHANGED, said)

    def set_bootstrap(self, text: str, seed: str | None = None) -> Update:
        """``off``, or the replicates (and optionally the seed) of a bootstrap for the
        numbers with no closed form; it runs when :meth:`boot_job` is run."""
        word = text.strip().lower()
        if word in ("off", "none"):
            self.replicates = None
            return self._update(self.analysis, NOTHING_CHANGED, "Bootstrap off.")
        try:
            replicates = parse_replicates(word)
            chosen = self.seed if seed is None else parse_seed(seed)
        except ValueError as exc:
            raise InputError(f"bootstrap: {exc}") from None
        self.replicates, self.seed, self.intervals = replicates, chosen, True
        return self._update(
            self.analysis,
            NOTHING_CHANGED,
            f"Bootstrap on: {replicates} replicates, seed {chosen}, resampling positives "
            "and negatives separately.",
        )

    def _deciding(self) -> Deciding | None:
        if self.goal is None and self.prevalence is None:
            return None
        decision = None
        if self.goal is not None:
            a = self.analysis
            key = (a.curves, self.goal, self.prevalence, self._aligned, len(self.columns))
            if self._solved is None or self._solved[0] != key:
                columns = self.columns if self._aligned else {}
                setting = goal_setting(a, self.goal, self.prevalence, self.data, columns)
                try:
                    self._solved = (key, solve(setting, self.goal))
                except InputError as exc:  # a class gone by an edit: said on the goal line
                    self._solved = (key, str(exc))
            solved = self._solved[1]
            decision = solved if isinstance(solved, Decision) else None
            problem = solved if isinstance(solved, str) else None
            return Deciding(self.goal, self.prevalence, decision, problem)
        return Deciding(None, self.prevalence, None, None)

    # --- goals ---------------------------------------------------------------------

    def set_goal(self, text: str) -> Update:
        """Solve a goal (or ``off``) and move the threshold to its point."""
        if text.strip().lower() in ("off", "none", "clear"):
            if self.goal is None:
                return self._update(self.analysis, NOTHING_CHANGED, "No goal is set.")
            self.goal = None
            return self._update(self.analysis, NOTHING_CHANGED, "Goal off.")
        goal = parse_goal(text)
        missing = [c for c in goal.columns() if c not in self.columns]
        if missing and self.path is not None and self._aligned:
            # A cost column the file has but was not asked for when it was opened.
            self.columns = {
                **self.columns,
                **{c: numeric_column(self.path, c, self.data.n) for c in missing},
            }
            missing = []
        if missing:
            raise InputError(
                f'goal: no numeric column "{missing[0]}" was loaded with these rows '
                "(open the file with the goal: threshold-lab FILE --goal ...)"
            )
        if goal.columns() and not self._aligned:
            raise InputError(
                f'goal: the cost column "{goal.columns()[0]}" no longer lines up with the '
                "rows (rows were added or deleted); r resets them"
            )
        before = self.goal
        self.goal = goal
        try:
            deciding = self._deciding()
            assert deciding is not None
            if deciding.problem is not None:
                raise InputError(deciding.problem)
        except InputError:
            self.goal = before
            raise
        assert deciding.decision is not None
        d = deciding.decision
        moved = self.set_threshold(d.threshold)
        return dataclasses.replace(moved, message=decision_sentence(d, self.analysis.sweep))

    def set_prevalence(self, text: str) -> Update:
        """Show every metric also at a deployment prevalence (``off`` to stop)."""
        if text.strip().lower() in ("off", "none", "clear"):
            self.prevalence = None
            return self._update(self.analysis, NOTHING_CHANGED, "Prevalence what-if off.")
        p = parse_prevalence(text)
        self.prevalence = p
        said = f"Prevalence {fraction_text(p)}: " + prevalence_words(self.analysis, p)
        if self.goal is not None:
            deciding = self._deciding()
            if deciding is not None and deciding.decision is not None:
                d = deciding.decision
                moved = self.set_threshold(d.threshold)
                # The goal, solved again at this prevalence, says what it chose; the
                # goal line shows the metrics there.
                where = "above all scores" if d.threshold is None else f"threshold {d.threshold!r}"
                value = d.objective.short() if d.objective.value is not None else "undefined"
                words = f"the goal chooses {where} there ({d.goal.metric} {value})"
                if not d.feasible:
                    words = f"the goal is not feasible there: {d.reason}"
                said = f"Prevalence {fraction_text(p)}: {words}."
                return dataclasses.replace(moved, message=said)
        return self._update(self.analysis, NOTHING_CHANGED, said)

    def current(self) -> Update:
        """The state as it is, with nothing changed and nothing to say."""
        return self._update(self.analysis)

    @property
    def dirty(self) -> bool:
        """True when the rows differ from what was loaded or last saved."""
        version, data = self._saved
        return self._version != version and self.data is not data

    def row_index(self, row_id: str) -> int:
        """The position of the row called ``row_id`` (its id, or its number from 1)."""
        found = self.data.position_of(row_id)
        if found is not None:
            return found
        if "\\" in row_id:  # an id with a newline or escape, typed as it is shown
            found = next((i for i in range(self.data.n) if self.data.shown_id(i) == row_id), None)
            if found is not None:
                return found
        first = [self.data.shown_id(i) for i in range(min(self.data.n, 8))]
        shown = ", ".join(first) + (", ..." if self.data.n > 8 else "")
        raise InputError(f"no row {row_id!r}; rows are: {shown}")

    # --- threshold -----------------------------------------------------------------

    def set_threshold(self, t: Threshold, *, note: str = "") -> Update:
        """Move the threshold to ``t`` (None: above all scores)."""
        if t is not None and not math.isfinite(t):
            raise InputError(f"threshold {t!r} is not a finite number (or None for above-all)")
        old = self.threshold
        # Exactly as given: a tie group's threshold is a score, and rounding it
        # could lift it above that score and leave the group out.
        self.threshold = None if t is None else float(t)
        return self._update(self.analysis, Changed.band(old, self.threshold), note)

    def step(self, steps: int) -> Update:
        """Move by ``steps`` × 0.01; from above all a step down admits the top group."""
        if self.threshold is None:
            if steps < 0:
                return self.set_threshold(self.analysis.sweep.threshold_at(1))
            return self.current()
        # Rounding keeps repeated 0.01 steps on the decimal grid people type.
        try:
            moved = round(self.threshold + steps * STEP, 12)
        except OverflowError:
            moved = math.inf
        if not math.isfinite(moved):
            raise InputError(
                # Not the step itself: str() refuses an int of over 4300 digits.
                "that step would move the threshold past the largest finite number; "
                f"it stays at {format_threshold(self.threshold)}"
            )
        return self.set_threshold(moved)

    def group(self, delta: int) -> Update:
        """Move to the next (``delta`` 1, lower threshold) or previous tie group."""
        a = self.analysis
        k = int(np.clip(a.point + delta, 0, a.sweep.size - 1))
        return self.set_threshold(a.sweep.threshold_at(k))

    def lowest(self) -> Update:
        """The lowest score: everything predicted positive."""
        sweep = self.analysis.sweep
        return self.set_threshold(sweep.threshold_at(sweep.size - 1))

    # --- rows ----------------------------------------------------------------------

    def _perform(self, edit: edits.Edit) -> edits.Edit:
        """Apply ``edit`` (raising InputError with nothing changed), keep the sweep
        in step without sorting again, and return the edit that undoes it."""
        before = self.data
        after = edit.apply(before)
        inverse = edit.inverse(before)
        curves = self._curves
        if curves is not None and curves.data is before:
            sweep = edit.update(curves.sweep, before, after)
            self._curves = None if sweep is None else Curves(data=after, sweep=sweep)
        self.data = after
        return inverse

    def _apply(self, edit: edits.Edit, note: str | Callable[[], str]) -> Update:
        """Perform ``edit`` as one undoable step; ``note`` is its sentence, or says it
        once the edit is done (a transform's depends on the rows after it)."""
        before = self.data
        inverse = self._perform(edit)
        note = note if isinstance(note, str) else note()
        self._undo.append((inverse, self._version, note))
        self._redo.clear()
        self._version = next(self._versions)
        return self._update(self.analysis, edit.changed(before, self.data, self.threshold), note)

    def transform(self, text: str) -> Update:
        """Apply a monotone score transform (``square``, ``log``, ``rank``, ...) to the
        rows shown, as one undoable edit; the threshold stays, and the message says
        what changed (the summaries do not; decisions at the threshold may) and which
        threshold makes the old decisions again."""
        applied = apply_transform(parse_transform(text), self.data)
        before = self.analysis
        sweep = before.sweep
        if applied.transform.name == "rank":
            thresholds = None  # ranks come from the whole column: sweep again
        else:
            with np.errstate(all="ignore"):
                thresholds = applied.transform.f(sweep.thresholds.copy())
        edit = edits.Rescore(self.data.with_scores(applied.scores), thresholds)
        self.last_transform = applied.transform.name
        return self._apply(
            edit, lambda: kept(applied, self.threshold, before, self.analysis).sentence()
        )

    def set_score(self, index: int, text: str) -> Update:
        value = edits.check_score(self.data, text)
        old = float(self.data.scores[index])
        note = f"Row {self.data.shown_id(index)}: score {old!r} -> {value!r}."
        return self._apply(edits.SetScore(index, value), note)

    def flip_label(self, index: int) -> Update:
        now = int(not self.data.labels[index])
        note = f"Row {self.data.shown_id(index)}: actual label flipped to {now}."
        return self._apply(edits.FlipLabel(index), note)

    def set_label(self, index: int, text: str) -> Update:
        if text.strip() not in ("0", "1"):
            raise InputError(f"label {text.strip()!r} is not 0 or 1")
        if bool(self.data.labels[index]) == (text.strip() == "1"):
            said = f"Row {self.data.shown_id(index)}: actual label is already {text.strip()}."
            return self._update(self.analysis, NOTHING_CHANGED, said)
        return self.flip_label(index)

    def add_row(self, score_text: str, label_text: str) -> Update:
        """Add a row at the end from typed text (a score, and a label 0 or 1)."""
        if label_text.strip() not in ("0", "1"):
            raise InputError(f"label {label_text.strip()!r} is not 0 or 1")
        score = edits.check_score(self.data, score_text)
        return self.insert_row(score, label_text.strip() == "1")

    def insert_row(self, score: float, label: bool) -> Update:
        """Add a row at the end (see :func:`threshold_lab.core.session.edits.parse_new_row`)."""
        edit = edits.new_row(self.data, score, label)
        self._aligned = False  # a cost column has no value for the new row
        return self._apply(edit, f"Added row {edit.name}: score {score!r}, label {int(label)}.")

    def delete_row(self, index: int) -> Update:
        rid = self.data.shown_id(index)
        done = self._apply(edits.DeleteRow(index), f"Removed row {rid}.")
        self._aligned = False  # the cost columns' rows no longer line up
        return dataclasses.replace(done, message=f"{done.message} Undo brings it back.")

    def undo(self) -> Update:
        return self._travel(self._undo, self._redo, "undo", "Undone.")

    def redo(self) -> Update:
        return self._travel(self._redo, self._undo, "redo", "Redone.")

    def _travel(
        self,
        source: list[tuple[edits.Edit, int, str]],
        target: list[tuple[edits.Edit, int, str]],
        verb: str,
        done: str,
    ) -> Update:
        if not source:
            return self._update(self.analysis, NOTHING_CHANGED, f"Nothing to {verb}.")
        edit, version, note = source[-1]
        before = self.data
        target.append((self._perform(edit), self._version, note))
        source.pop()
        self._version = version
        # Say which edit: "Undone: row s2: score 0.8 -> 0.3."
        said = f"{done.rstrip('.')}: {note[0].lower()}{note[1:]}" if note else done
        return self._update(self.analysis, edit.changed(before, self.data, self.threshold), said)

    def reset(self) -> Update:
        """Back to the rows and threshold as loaded (itself an undoable step)."""
        before, old = self.data, self.threshold
        data, threshold = self.loaded
        self._aligned = True  # before the update below solves the goal again
        if self.data is not data:
            self._apply(edits.Replace(data), f"Reset to {self.source} as loaded.")
        self.threshold = threshold
        changed = edits.changed_between(before, old, self.data, self.threshold)
        return self._update(
            self.analysis,
            changed,
            f"Reset to {self.source} as loaded, threshold {format_threshold(threshold)}.",
        )

    # --- sources -------------------------------------------------------------------

    def load_preset(self, name: str) -> Update:
        """Load a built-in fixture; the history starts afresh."""
        p = preset(name)
        self.source, self.path = f"preset {name}", None
        self.loaded = (p.data, p.threshold)
        self._undo.clear()
        self._redo.clear()
        self.data = p.data
        self._version = next(self._versions)
        self._saved = (self._version, p.data)
        self.threshold = p.threshold
        # A preset has no cost columns: a goal that needs one goes with them.
        self.columns, self._aligned = {}, True
        self.models, self.model, self._model_curves = p.models, 0, {}
        self.quantised, self.group_by = {}, None
        self.multiclass, self.klass, self._summary = p.multiclass, 0, None
        if self.goal is not None and self.goal.columns():
            self.goal = None
        # Other rows altogether: nothing is marked changed against the rows before.
        said = f"Loaded preset {name}: {p.description}"
        if p.models:
            names = ", ".join(m.name for m in p.models)
            said += f" Models {names}; {p.models[0].name}'s scores shown."
        return self._update(self.analysis, NOTHING_CHANGED, said, fresh=True)

    # --- models --------------------------------------------------------------------

    def set_model(self, name: str) -> Update:
        """Show model ``name``'s scores of the same rows (the threshold stays)."""
        names = [m.name for m in self.models]
        if not self.models:
            raise InputError("these rows have one model; open a file with several score "
                             "columns (score_A, score_B), or two with --compare, to compare "
                             "models")  # fmt: skip
        if name not in names:
            raise InputError(f"no model {name!r}; the models are: {', '.join(names)}")
        if self._undo:
            raise InputError(
                "edits apply to the model shown only: undo or reset them (r) before "
                "showing another model"
            )
        self.model = names.index(name)
        said = f"Model {name}: its scores of the same rows."
        if not self.paired:
            said = f"Group {name} ({self.group_by} = {name}): its own rows."
        return self._show_rows(self.models[self.model].data, said)

    def next_model(self) -> Update:
        """Show the next model's scores (after the last, the first)."""
        if len(self.models) < 2:
            raise InputError("these rows have one model (open a file with score_A, score_B, "
                             "..., --score-column twice, or --compare OTHER_FILE to compare "
                             "models)")  # fmt: skip
        return self.set_model(self.models[(self.model + 1) % len(self.models)].name)

    # --- classes -------------------------------------------------------------------

    def set_class(self, name: str) -> Update:
        """Show class ``name`` against the rest (the threshold stays)."""
        mc = self.multiclass
        if mc is None:
            raise InputError("these rows have two classes; open a file with a label column "
                             "of class names and score_<class> columns for several")  # fmt: skip
        if name not in mc.classes:
            raise InputError(f"no class {name!r}; the classes are: {', '.join(mc.classes)}")
        if self._undo:
            raise InputError(
                "edits apply to the class shown only: undo or reset them (r) before "
                "showing another class"
            )
        self.klass = mc.classes.index(name)
        return self._show_rows(
            mc.one_vs_rest(self.klass),
            f"Class {name} against the rest: its scores, and label == {name}.",
        )

    def _show_rows(self, data: Dataset, said: str) -> Update:
        """Show other rows of the same examples (another model, another class) as if
        loaded: the threshold stays, nothing to save or redo (callers refuse while
        there are edits)."""
        self._redo.clear()  # an undone edit of the rows shown before
        self.data = data
        self.loaded = (data, self.threshold)
        self._version = next(self._versions)
        self._saved = (self._version, data)
        return self._update(self.analysis, NOTHING_CHANGED, said, fresh=True)

    def next_class(self) -> Update:
        """Show the next class against the rest (after the last, the first)."""
        mc = self.multiclass
        if mc is None:
            return self.set_class("")  # refused, saying why
        return self.set_class(mc.classes[(self.klass + 1) % mc.k])

    def multiclass_summary(self) -> MulticlassReport | None:
        """The multiclass summary of the rows as loaded (computed once), or None."""
        if self.multiclass is None:
            return None
        if self._summary is None:
            self._summary = multiclass_report(self.multiclass)
        return self._summary

    def comparisons(self) -> list[Comparison]:
        """Every pair of models compared, each at the threshold (or at its own goal's
        point), as loaded."""
        runs = []
        for i, m in enumerate(self.models):
            a = analyse(self.model_curves(i), self.threshold, beta=self.beta)
            if self.goal is not None and not self.goal.columns():
                # A goal this model's rows cannot be solved for: it stays at the threshold.
                with contextlib.suppress(InputError):
                    a = solved_at(a, self.goal, self.prevalence, m.data)[0]
            runs.append(a)
        return [
            compare(
                self.models[i],
                runs[i],
                self.models[j],
                runs[j],
                self.confidence,
                paired=self.paired,
            )
            for i, j in pairs(self.models)
        ]

    def default_save_path(self) -> Path:
        if self.path is not None:
            return self.path.with_name(self.path.stem + "-edited.csv")
        return Path(self.source.removeprefix("preset ") + ".csv")

    def save(self, target: Path, *, overwrite: bool = False) -> Update:
        """Write the rows as CSV, atomically. An existing file is replaced only with
        ``overwrite``; otherwise :class:`NeedsOverwrite` asks, naming what it is. A
        folder is never replaced. Saving does not change what :meth:`reset` returns
        to: that stays the rows as loaded."""
        target = check_name(target)
        try:
            folder, exists = target.is_dir(), target.exists()
        except OSError as exc:  # a folder on the way that cannot be searched
            raise InputError(f"cannot save to {target}: {exc.strerror or exc}") from None
        if folder:
            raise InputError(f"{target} is a folder; give a file name")
        if exists and not overwrite:
            same = self.path is not None and target.resolve() == self.path.resolve()
            what = "the source file" if same else "an existing file"
            raise NeedsOverwrite(
                f"{target} is {what}; nothing written", f"{target} is {what}. Overwrite it?"
            )
        written = write_atomic(target, edits.to_csv(self.data))
        self._saved = (self._version, self.data)
        return self._update(
            self.analysis, NOTHING_CHANGED, f"Saved {self.data.n} rows to {written}."
        )
