"""Where a session operates: one threshold, or each group at its own (``--group
COL`` with ``O`` or ``--group-goal``), the moves of the threshold, and the
:class:`Update` that tells a front end the state after each operation."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import numpy as np
from threshold_lab.core.analysis import Analysis, Curves
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.decide.band import (
    BandGoal,
    BandShown,
    band_shown,
    parse_band_goal,
    solve_band,
)
from threshold_lab.core.decide.solve import Setting, solve
from threshold_lab.core.drawing.bands import Band
from threshold_lab.core.drawing.model_rows import ModelRow, model_row
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.folds import tpr_band
from threshold_lab.core.groups.thresholds import parse_criterion, parse_tolerance
from threshold_lab.core.report.options import Options
from threshold_lab.core.report.report import Report
from threshold_lab.core.session.groups import PooledAnalysis
from threshold_lab.core.session.policy import OFF_WORDS
from threshold_lab.core.session.rowview import NOTHING_CHANGED, Changed
from threshold_lab.core.session.state import SessionState
from threshold_lab.core.session.update import FoldChoice, Update
from threshold_lab.core.text.operating import readout_sentence
from threshold_lab.core.threshold import Threshold, format_threshold

#: Why the threshold does not move while every row is shown and each group has its own.
OWN_REFUSED = (
    "each group has its own threshold: M shows a group alone to move its own "
    "(O: one threshold for every group again)"
)


class OperatingPoint(SessionState):
    """A session's operating point: the threshold and its moves, each group's own
    threshold when they have one, and the :class:`Update` of the state."""

    #: The readout the explorer's R last jumped to (-1: none yet).
    _readout: int = -1
    _fold_band_kept: tuple[tuple[int, ...], Band] | None = None
    _fold_choices_kept: tuple[tuple[object, ...], tuple[FoldChoice, ...]] | None = None
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
            self._review(),
            self._fold_choices(),
        )

    def _fold_choices(self) -> tuple[FoldChoice, ...] | None:
        """With folds and a goal: the goal solved on each fold's rows alone (the strip
        marks each fold's threshold); None without them, or until every fold's sweep is
        ready, or for a cost column (not read per fold)."""
        goal = self.policy.goal
        n = len(self.shown.models)
        if not self.folds or goal is None or goal.columns() or n < 3:
            return None
        if any(self.model_waits(i) for i in range(1, n)):
            return None
        curves = [self.model_curves(i) for i in range(1, n)]
        key = (goal, self.beta, tuple(id(c) for c in curves))
        kept = self._fold_choices_kept
        if kept is None or kept[0] != key:
            names = [m.name for m in self.shown.models[1:]]
            chosen = []
            for name, c in zip(names, curves, strict=True):
                d = solve(Setting(c.sweep, beta=self.beta), goal)
                chosen.append(FoldChoice(name, d.feasible, d.threshold if d.feasible else None))
            kept = self._fold_choices_kept = (key, tuple(chosen))
        return kept[1]

    def _review(self) -> BandShown | None:
        """The review band in force at the active threshold (None: none, or each group
        at its own threshold)."""
        band = self.policy.band
        if band is None or self.shown.own is not None:
            return None
        a = self.analysis
        return band_shown(
            a.sweep, a.point, a.threshold, band[1], band[0], bounds=self.policy.band_goal
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
        a = SessionState.analysis.fget(self)  # type: ignore[attr-defined]
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

    def set_band(self, given: str | BandGoal) -> Update:
        """Solve a band goal and show its band: the threshold moves to its accept
        threshold and the reject threshold to its own (``off`` drops the band)."""
        if isinstance(given, str) and given.strip().lower() in OFF_WORDS:
            said = "No band is set." if self.policy.band is None else "Band off."
            self.policy.band = self.policy.band_goal = None
            return self._update(message=said)
        if self.shown.own is not None:
            raise InputError(OWN_REFUSED)
        goal = parse_band_goal(given) if isinstance(given, str) else given
        # Its two thresholds only: the frontier and the steps are the report's.
        band = solve_band(self.analysis.sweep, goal, self.confidence, frontier=False)
        self.policy.band, self.policy.band_goal = (goal.text(), band.t_low), goal
        moved = self.set_threshold(band.t_high)
        shown = moved.review
        assert shown is not None
        said = f"{goal.text()}: {shown.sentence().removeprefix('Band: ')}"
        if not band.decides:
            said += " No band that decides rows is better: every row is reviewed."
        return dataclasses.replace(moved, message=said)

    def move_band_low(self, delta: int) -> Update:
        """Move the reject threshold by ``delta`` tie groups (1: the next, a lower
        score; -1: the previous), never above the accept threshold."""
        band = self.policy.band
        if band is None:
            raise InputError(
                "no band is set: set one with a band goal (D in the explorer; band: max "
                "coverage where precision >= 0.99 and npv >= 0.995)"
            )
        a = self.analysis
        now = band_shown(a.sweep, a.point, a.threshold, band[1], band[0])
        k = int(np.clip(now.index_low + delta, a.point, a.sweep.size - 1))
        t = a.sweep.threshold_at(k)
        self.policy.band = (None, None if t is None else float(t))
        update = self._update()
        shown = update.review
        assert shown is not None
        edge = "it meets the accept threshold" if k == a.point and delta < 0 else ""
        edge = edge or ("the lowest score" if k == a.sweep.size - 1 and delta > 0 else "")
        return dataclasses.replace(update, message=shown.sentence(edge))

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

    def to_point(self, k: int) -> Update:
        """Move to sweep point ``k`` (0: above all scores)."""
        sweep = self.analysis.sweep
        return self.set_threshold(sweep.threshold_at(int(np.clip(k, 0, sweep.size - 1))))

    def lowest(self) -> Update:
        """The lowest score: everything predicted positive."""
        sweep = self.analysis.sweep
        return self.set_threshold(sweep.threshold_at(sweep.size - 1))

    def next_readout(self) -> Update:
        """The threshold at the next readout's point, round them in turn (by default the
        seven: TPR at FPR <= 0.001, 0.01, 0.05, 0.1, then FPR at TPR >= 0.9, 0.95,
        0.99), saying it.

        >>> from threshold_lab.core.data.presets import preset
        >>> s = OperatingPoint(preset("canonical").data, 0.5, source="preset canonical")
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

    def toggle_own(self) -> Update:
        """Each group its own threshold (all at the current one to start), or one
        threshold for every group again."""
        names = self._group_names("each group its own threshold")
        if self.shown.own is not None:
            return self.one_threshold()
        self.shown.own = dict.fromkeys(names, self.threshold)
        return self._update(
            message=(
                f"Each group now has its own threshold, every one at "
                f"{format_threshold(self.threshold)} to start: M shows a group alone to move its "
                "own; all rows' status line and matrix are the groups' pooled. O again: one "
                "threshold."
            )
        )

    def one_threshold(self) -> Update:
        """One threshold for every group again (each had its own)."""
        self.shown.own = None
        return self._update(
            message=f"One threshold for every group again: {format_threshold(self.threshold)}."
        )

    def set_group_thresholds(self, thresholds: dict[str, Threshold], said: str) -> Update:
        """Each group at its own threshold from ``thresholds`` (by group name)."""
        names = self._group_names("per-group thresholds")
        missing = [n for n in names if n not in thresholds]
        if missing:
            raise InputError(f"no threshold for group {quoted(missing[0])}")
        self.shown.own = {n: thresholds[n] for n in names}
        g = self.shown.showing_group
        if g is not None:
            self.policy.threshold = self.shown.own[g]
        return self._update(message=said)

    def solve_group_goal(self, criterion: str, tolerance: Fraction | str | None = None) -> Update:
        """Per-group thresholds for a fairness ``criterion`` (``--group-goal``), the
        objective the goal in force names (max accuracy without one), on every row as
        the groups split them; each group then carries its own."""
        self._group_names("per-group thresholds")
        assert self.row_groups is not None
        crit = parse_criterion(criterion)
        if isinstance(tolerance, str):
            tolerance = parse_tolerance(tolerance)
        opts = Options(group_goal=crit, goal=self.goal, tolerance=tolerance or self.asked.tolerance)
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

    def groups_report(self) -> tuple[Report, int]:
        """The groups' report at the threshold (each group at its own, when they have
        their own), and how many rows an edit added (no group: left out); refused
        without groups."""
        g = self.row_groups
        if g is None:
            raise InputError(
                "no groups: open a file with --group COL (a column naming each row's group)"
            )
        return g.report(
            self.grouped_rows(),
            self.threshold,
            beta=self.beta,
            confidence=self.confidence,
            label=self.source,
            own=self.shown.own,
        )

    def grouped_rows(self) -> Dataset:
        """The rows the groups split: every row as edited, or, while one group is shown
        alone (``M``), every row as loaded (edits wait until all rows are shown again)."""
        if self.shown.showing_group is not None:
            return self.shown.models[0].data
        return self.data
