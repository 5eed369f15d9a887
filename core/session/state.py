"""What a Session reads: its four parts, and what they derive (the rows' sweep, the
operating point, the goal solved, the intervals to show, a row per model)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Analysis, Curves, analyse, curves_for
from threshold_lab.core.compare.models import Comparison
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.data.aggregated import Quantised
from threshold_lab.core.data.classes import Multiclass
from threshold_lab.core.data.dataset import Dataset, Model
from threshold_lab.core.decide.goal import Goal
from threshold_lab.core.decide.solve import Deciding
from threshold_lab.core.drawing.model_rows import ModelRow
from threshold_lab.core.errors import InputError
from threshold_lab.core.intervals import IntervalsShown
from threshold_lab.core.multiclass.metrics import MulticlassReport
from threshold_lab.core.report.options import Options
from threshold_lab.core.session.groups import RowGroups
from threshold_lab.core.session.history import History
from threshold_lab.core.session.interval_settings import IntervalSettings
from threshold_lab.core.session.part import Part
from threshold_lab.core.session.policy import Policy
from threshold_lab.core.session.shown import ShownRows
from threshold_lab.core.threshold import Threshold

#: Every option at its default.
DEFAULTS = Options()


class SessionState:
    """The state of a session in four parts, each with one job: :class:`History`
    (the rows, their edits and file), :class:`ShownRows` (which model or class is shown),
    :class:`Policy` (threshold, goal, prevalence) and :class:`IntervalSettings` (intervals and
    the bootstrap); their attributes read here as the session's own."""

    def __init__(
        self,
        data: Dataset,
        threshold: Threshold,
        *,
        source: str,
        path: Path | None = None,
        options: Options = DEFAULTS,
        columns: Mapping[str, npt.NDArray[np.float64]] | None = None,
        models: Sequence[Model] = (),
        multiclass: Multiclass | None = None,
        klass: int = 0,
        quantised: Mapping[str, Quantised] | None = None,
        group_by: str | None = None,
        pooled: bool = False,
        row_groups: RowGroups | None = None,
        folds: bool = False,
    ) -> None:
        self.history = History(data, threshold, source=source, path=path, columns=columns)
        self.shown = ShownRows(models, multiclass, klass, quantised, group_by, pooled)
        if folds:
            self.shown.part = "fold"
        self.policy = Policy(threshold, options)
        self.sureness = IntervalSettings(options)
        #: The rows' groups (``--group COL``), followed through the edits; None without.
        self.row_groups = row_groups
        #: The models are every row pooled and its cross-validation folds (``--fold COL``).
        self.folds = folds

    data: Part[Dataset] = Part("history", "data", "The rows shown, as edited.")
    source: Part[str] = Part("history", "source")
    path: Part[Path | None] = Part("history", "path")
    loaded: Part[tuple[Dataset, Threshold]] = Part("history", "loaded", "The rows as loaded.")
    columns: Part[Mapping[str, npt.NDArray[np.float64]]] = Part("history", "columns")
    dirty: Part[bool] = Part("history", "dirty", "Whether there is unsaved work.")
    threshold: Part[Threshold] = Part("policy", "threshold")
    beta: Part[float] = Part("policy", "beta")
    goal: Part[Goal | None] = Part("policy", "goal")
    prevalence: Part[Fraction | None] = Part("policy", "prevalence")
    asked: Part[Options] = Part(
        "policy", "asked", "The options asked for: the readouts, partial AUCs, tests, pt, harm."
    )
    models: Part[tuple[Model, ...]] = Part("shown", "models")
    model: Part[int] = Part("shown", "model", "Which model is shown.")
    multiclass: Part[Multiclass | None] = Part("shown", "multiclass")
    klass: Part[int] = Part("shown", "klass", "Which class is shown.")
    quantised: Part[Mapping[str, Quantised]] = Part("shown", "quantised")
    group_by: Part[str | None] = Part("shown", "group_by")
    paired: Part[bool] = Part("shown", "paired")
    pooled: Part[bool] = Part("shown", "pooled", "Whether the first model is every group pooled.")
    showing_group: Part[str | None] = Part("shown", "showing_group", "The group shown alone.")
    intervals: Part[bool] = Part("sureness", "intervals")
    confidence: Part[float] = Part("sureness", "confidence")
    replicates: Part[int | None] = Part("sureness", "replicates")
    seed: Part[int] = Part("sureness", "seed")

    @property
    def curves(self) -> Curves:
        """The rows' sweep and summaries: built when the rows change (a model shown
        again is not swept again)."""
        h = self.history
        if h.curves is None or h.curves.data is not h.data:
            h.curves = self.shown.kept_curves(h.data) or curves_for(h.data)
        return h.curves

    @property
    def analysis(self) -> Analysis:
        """The current operating point."""
        return analyse(self.curves, self.policy.threshold, beta=self.policy.beta)

    @property
    def quantisation(self) -> Quantised | None:
        return self.shown.quantisation(self.history.edited)

    @property
    def sure(self) -> IntervalsShown | None:
        """The intervals to show, or None when they are turned off."""
        return self.sureness.sure(self._state())

    def _state(self) -> tuple[object, ...]:
        """What a bootstrap's threshold-free results depend on (the point aside)."""
        p = self.policy
        return (
            self.curves,
            p.goal,
            p.prevalence,
            self.history.aligned,
            p.beta,
            p.asked.pt,
            p.asked.harm,
        )

    def _deciding(self) -> Deciding | None:
        h = self.history
        return self.policy.deciding(self.analysis, h.data, h.columns, h.aligned)

    def model_rows(self, *, wait: bool = True) -> tuple[ModelRow, ...]:
        """Every model at the threshold, or (); without ``wait`` a large model whose
        sweep is not done yet has a pending row (a front end sweeps it in a worker)."""
        s = self.sure
        return self.shown.rows(
            self.curves, self.threshold, self.beta, None if s is None else s.confidence, wait=wait
        )

    def model_waits(self, i: int) -> bool:
        return self.shown.waits(i, self.curves)

    def model_curves(self, i: int) -> Curves:
        return self.shown.curves(i, self.curves)

    def other_models(self) -> tuple[str, list[tuple[str, Sweep]]]:
        """The shown model's name and every other model's sweep by name (models of the
        same rows only: not groups or folds, which are other examples)."""
        shown = self.shown
        if len(shown.models) < 2 or not shown.paired or shown.pooled:
            return "", []
        others = [
            (m.name, self.model_curves(i).sweep)
            for i, m in enumerate(shown.models)
            if i != shown.model
        ]
        return shown.models[shown.model].name, others

    def model_pair(self) -> tuple[tuple[str, Dataset], tuple[str, Dataset]] | None:
        """The shown model's rows and the next model's, by name (models of the same
        rows only), for a test of two paired curves; None with one model; InputError
        where an edit left the shown model's rows apart from the other's."""
        shown = self.shown
        if len(shown.models) < 2 or not shown.paired or shown.pooled:
            return None
        i = shown.model
        j = (i + 1) % len(shown.models)
        (name, one), (other_name, other) = (
            (shown.models[i].name, self.model_curves(i).data),
            (shown.models[j].name, self.model_curves(j).data),
        )
        same = one.n == other.n and np.array_equal(one.labels, other.labels)
        if same and (one.ids is not None or other.ids is not None):
            same = one.ids is not None and other.ids is not None
            same = same and np.array_equal(np.asarray(one.ids), np.asarray(other.ids))
        if not same:
            raise InputError(
                f"power models compares two models of the same rows, and {name}'s rows "
                f"were edited ({one.n} rows, {other_name} has {other.n}): undo or reset first"
            )
        return (name, one), (other_name, other)

    def fold_sweeps(self) -> list[tuple[str, Sweep]]:
        """Each cross-validation fold's sweep by name, as loaded (opened with --fold:
        the first model is every row pooled, the others the folds), or []."""
        if not self.folds:
            return []
        shown = self.shown
        return [(m.name, self.model_curves(i).sweep) for i, m in enumerate(shown.models) if i]

    def comparisons(self) -> list[Comparison]:
        p = self.policy
        return self.shown.comparisons(
            self.curves, p.threshold, p.beta, self.confidence, p.goal, p.prevalence, p.asked
        )

    def multiclass_summary(self) -> MulticlassReport | None:
        return self.shown.summary()

    def row_index(self, row_id: str) -> int:
        return self.history.row_index(row_id)

    def find_row(self, row_id: str) -> tuple[int, bool]:
        return self.history.find_row(row_id)

    def default_save_path(self) -> Path:
        return self.history.default_save_path()
