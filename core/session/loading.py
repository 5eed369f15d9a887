"""Other rows altogether: a preset, a lesson's own rows, and generated rows made again
with more or less overlap or another balance. Each starts the history afresh."""

from __future__ import annotations

import dataclasses

from threshold_lab.core.data.classes import Multiclass
from threshold_lab.core.data.dataset import Dataset, Model
from threshold_lab.core.data.generated import adjust, is_generated, model_auc, parse_spec
from threshold_lab.core.data.presets import preset
from threshold_lab.core.errors import InputError
from threshold_lab.core.session.editing import Editing
from threshold_lab.core.session.shown import ShownRows
from threshold_lab.core.session.update import Update
from threshold_lab.core.threshold import Threshold


class Loading(Editing):
    """Loading other rows into the session (a layer under :class:`Session`)."""

    def load_preset(self, name: str) -> Update:
        """Load a built-in fixture; the history starts afresh."""
        p = preset(name)
        said = f"Loaded preset {name}: {p.description}"
        return self.load_rows(p.data, p.threshold, f"preset {name}", said, p.models, p.multiclass)

    def load_rows(
        self,
        data: Dataset,
        threshold: Threshold,
        source: str,
        said: str,
        models: tuple[Model, ...] = (),
        multiclass: Multiclass | None = None,
    ) -> Update:
        """Load other rows altogether (a preset, a lesson's own): the history starts
        afresh, at ``threshold``; ``said`` says what they are."""
        self.row_groups = None  # other rows: the groups were the file's
        self.history.start(data, threshold, source, fresh=True)
        self.shown = ShownRows(models, multiclass)
        self.policy.threshold = threshold
        if self.goal is not None and self.goal.columns():
            self.policy.goal = None  # the new rows have no cost columns: the goal goes
        if self.policy.band is not None:  # its thresholds were the other rows' scores
            self.policy.band = self.policy.band_goal = None
            said += " The review band is off (a band goal sets one on these rows)."
        if models:
            names = ", ".join(m.name for m in models)
            said += f" Models {names}; {models[0].name}'s scores shown."
        # Other rows altogether: nothing is marked changed against the rows before.
        return self._update(message=said, fresh=True)

    def regenerate(self, what: str, step: int) -> Update:
        """Generated rows made again with more (+1) or less (-1) ``overlap`` of the
        classes, or a ``balance`` step up (more positives) or down, with the same seed;
        the threshold stays. Refused on rows that are not a generated preset's, or that
        have edits (made again, they would be lost)."""
        source = self.history.source
        name = source.removeprefix("preset ")
        if not source.startswith("preset ") or not is_generated(name):
            raise InputError(
                f"{what} makes generated rows again: open a generated preset first, named "
                "by its model (binormal:d=1.5,prevalence=0.1,n=200,seed=3, or beta:...)"
            )
        if self.history.dirty:
            raise InputError(
                f"the rows have unsaved edits, which making them again would lose: save "
                f"them or undo them first, then change the {what}"
            )
        spec = parse_spec(name)
        new = adjust(spec, what, step)
        if new == spec:
            end = "the most" if step > 0 else "the least"
            raise InputError(f"the {what} is at {end} this preset takes ({spec.text()})")
        threshold = self.threshold
        self.load_preset(new.text())
        update = self.set_threshold(threshold)
        s = self.curves.summaries
        auc = model_auc(new)
        model = "" if auc is None else f" (the model's own ≈ {auc:.4f})"
        said = (
            f"Made again ({what} {'up' if step > 0 else 'down'}): {new.text()}. "
            f"ROC AUC {s.roc_auc.value_text()}{model}, AP {s.average_precision.value_text()}."
        )
        return dataclasses.replace(update, message=said, fresh=True)
