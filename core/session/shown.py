"""Which rows are shown: one model of several scoring the same rows (or one of an
aggregated file's groups), or one class of several against the rest."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from fractions import Fraction

from threshold_lab.core.analysis import Curves, analyse, curves_for
from threshold_lab.core.compare.models import Comparison, compare, pairs
from threshold_lab.core.data.aggregated import Quantised
from threshold_lab.core.data.classes import Multiclass
from threshold_lab.core.data.dataset import Dataset, Model
from threshold_lab.core.decide.goal import Goal
from threshold_lab.core.decide.text import solved_at
from threshold_lab.core.drawing.model_rows import ModelRow, model_row, pending_row
from threshold_lab.core.drawing.prepared import BACKGROUND_ROWS
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.multiclass.metrics import MulticlassReport, multiclass_report
from threshold_lab.core.report.options import Options
from threshold_lab.core.threshold import Threshold

EDITS_FIRST = "undo or reset them (r) before showing another {}"


class ShownRows:
    """Several models of the same rows (``models``, the one shown ``model``), or several
    classes (``multiclass``, the one shown against the rest ``klass``); edits apply to
    the rows shown only, so another is shown only while there are none."""

    def __init__(
        self,
        models: Sequence[Model] = (),
        multiclass: Multiclass | None = None,
        klass: int = 0,
        quantised: Mapping[str, Quantised] | None = None,
        group_by: str | None = None,
        pooled: bool = False,
    ) -> None:
        self.models: tuple[Model, ...] = tuple(models)
        self.model = 0
        self._curves: dict[int, Curves] = {}
        self.multiclass = multiclass
        self.klass = klass
        self._summary: MulticlassReport | None = None
        #: Quantised aggregated counts: rule and AUC bound by model name ("" for one).
        self.quantised: Mapping[str, Quantised] = quantised or {}
        #: The column whose groups the models are (different examples), or None when
        #: the models score the same rows.
        self.group_by = group_by
        #: Groups of a file's rows (``--group COL``): the first "model" is every row
        #: pooled, the others each group's own rows; the pooled is never compared.
        self.pooled = pooled
        #: Each group's own threshold (groups only), or None: one threshold for all.
        self.own: dict[str, Threshold] | None = None
        #: What each of the pooled rows' parts is called: "group", or "fold" for
        #: cross-validation folds (``--fold COL``).
        self.part = "group"

    @property
    def showing_group(self) -> str | None:
        """The group shown alone (its own rows), or None for every row pooled."""
        return self.models[self.model].name if self.pooled and self.model > 0 else None

    @property
    def paired(self) -> bool:
        """Whether the models score the same rows (not groups of different examples)."""
        return self.group_by is None

    @property
    def class_name(self) -> str | None:
        return None if self.multiclass is None else self.multiclass.classes[self.klass]

    def quantisation(self, edited: bool) -> Quantised | None:
        """The rows shown as quantised counts (rule and AUC bound), while unedited."""
        key = self.models[self.model].name if self.models else ""
        q = self.quantised.get(key)
        return None if q is None or edited else q

    def kept_curves(self, data: Dataset) -> Curves | None:
        """A model's curves already swept for exactly these rows (shown again)."""
        return next((c for c in list(self._curves.values()) if c.data is data), None)

    def curves(self, i: int, current: Curves) -> Curves:
        """Model ``i``'s curves as loaded (the shown one's as they are now, ``current``),
        swept once, with their summaries and DeLong's SE computed. Safe to call from
        one worker thread while the session goes on: it only fills a cache."""
        data = self.models[i].data
        if i == self.model and current.data is not data:  # the shown model, edited
            curves = current
        elif i in self._curves:
            curves = self._curves[i]
        else:
            curves = current if current.data is data else curves_for(data)
        curves.summaries  # noqa: B018 - computed now, where the caller chose to wait
        curves.auc_se  # noqa: B018
        if i != self.model or current.data is data:
            # Kept only once ready, and the first kept stays: two workers (one cancelled,
            # still running) may sweep the same model, and a row that waits for curves
            # another worker has just replaced would wait for a frame that never comes.
            curves = self._curves.setdefault(i, curves)
        return curves

    def waits(self, i: int, current: Curves) -> bool:
        """Whether model ``i`` is large and its curves are not computed yet (its row
        then waits for a worker's :meth:`curves`)."""
        data = current.data if i == self.model else self.models[i].data
        kept = current if i == self.model else self._curves.get(i)
        return data.n > BACKGROUND_ROWS and (kept is None or not kept.ready)

    def rows(
        self,
        current: Curves,
        threshold: Threshold,
        beta: float,
        confidence: float | None,
        *,
        wait: bool,
    ) -> tuple[ModelRow, ...]:
        """Every model at the threshold (the one shown with its current rows), or ().
        Without ``wait``, a large model whose curves are not ready gets a pending row
        rather than holding the caller (a front end sweeps it in a worker)."""
        if len(self.models) < 2:
            return ()
        out = []
        own = self.own or {}
        for i, m in enumerate(self.models):
            shown = i == self.model
            if not wait and self.waits(i, current):
                out.append(pending_row(m.name, shown, current.data if shown else m.data))
                continue
            at = own.get(m.name, threshold) if not shown else threshold
            a = analyse(self.curves(i, current), at, beta=beta)
            out.append(model_row(m.name, shown, a, confidence))
        return tuple(out)

    def pick_model(self, name: str, edited: bool) -> tuple[Dataset, str]:
        """Model ``name``'s rows and the sentence saying so (raises InputError)."""
        names = [m.name for m in self.models]
        if not self.models:
            raise InputError(
                "these rows have one model; open a file with several score "
                "columns (score_A, score_B), or two with --compare, to compare "
                "models"
            )
        if name not in names:
            raise InputError(f"no model {quoted(name)}; the models are: {', '.join(names)}")
        what = self.part if self.group_by is not None else "model"
        if edited:
            raise InputError(f"edits apply to the {what} shown only: " + EDITS_FIRST.format(what))
        self.model = names.index(name)
        if self.pooled and self.model == 0:
            return self.models[0].data, (
                f"All rows, pooled across the {len(names) - 1} {self.part}s by {self.group_by}."
            )
        if not self.paired:
            return self.models[
                self.model
            ].data, f"{self.part.capitalize()} {name} ({self.group_by} = {name}): its own rows."
        return self.models[self.model].data, f"Model {name}: its scores of the same rows."

    def next_model_name(self) -> str:
        if len(self.models) < 2:
            raise InputError(
                "these rows have one model (open a file with score_A, score_B, "
                "..., --score-column twice, or --compare OTHER_FILE to compare "
                "models)"
            )
        return self.models[(self.model + 1) % len(self.models)].name

    def pick_class(self, name: str, edited: bool) -> tuple[Dataset, str]:
        """Class ``name`` against the rest, and the sentence saying so."""
        mc = self.multiclass
        if mc is None:
            raise InputError(
                "these rows have two classes; open a file with a label column "
                "of class names and score_<class> columns for several"
            )
        if name not in mc.classes:
            raise InputError(f"no class {quoted(name)}; the classes are: {', '.join(mc.classes)}")
        if edited:
            raise InputError("edits apply to the class shown only: " + EDITS_FIRST.format("class"))
        self.klass = mc.classes.index(name)
        return (
            mc.one_vs_rest(self.klass),
            f"Class {name} against the rest: its scores, and label == {name}.",
        )

    def next_class_name(self) -> str:
        mc = self.multiclass
        return "" if mc is None else mc.classes[(self.klass + 1) % mc.k]

    def summary(self) -> MulticlassReport | None:
        """The multiclass summary of the rows as loaded (computed once), or None."""
        if self.multiclass is None:
            return None
        if self._summary is None:
            self._summary = multiclass_report(self.multiclass)
        return self._summary

    def comparisons(
        self,
        current: Curves,
        threshold: Threshold,
        beta: float,
        confidence: float,
        goal: Goal | None,
        prevalence: Fraction | None,
        asked: Options | None = None,
    ) -> list[Comparison]:
        """Every pair of models compared, each at the threshold (or at its own goal's
        point), as loaded."""
        runs = []
        for i, m in enumerate(self.models):
            a = analyse(self.curves(i, current), threshold, beta=beta)
            if goal is not None and not goal.columns():
                # A goal this model's rows cannot be solved for: it stays at the threshold.
                with contextlib.suppress(InputError):
                    a = solved_at(a, goal, prevalence, m.data)[0]
            runs.append(a)
        return [
            compare(
                self.models[i],
                runs[i],
                self.models[j],
                runs[j],
                confidence,
                paired=self.paired and not (asked and asked.unpaired),
                alternative="two-sided" if asked is None else asked.alternative,
            )
            for i, j in pairs(self.models)
            if not (self.pooled and i == 0)  # every row against one group: not independent
        ]
