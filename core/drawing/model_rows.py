"""A table of models at the threshold: one row per model, its summaries (with DeLong's
interval on AUC) and its headline metrics, as the explorer's model lines and plain
mode's ``models`` show them."""

from __future__ import annotations

from dataclasses import dataclass, field

from threshold_lab.core.analysis import Analysis
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.intervals.closed import Interval, auc_interval
from threshold_lab.core.metrics.metric import Metric, undefined


@dataclass(frozen=True)
class ModelRow:
    """One model at the threshold, for a table of models: its summaries (with DeLong's
    interval on AUC) and its headline metrics there. ``pending``: its sweep is still
    being computed elsewhere (a front end's worker), so only its name and rows are
    known yet."""

    name: str
    shown: bool
    auc: Metric
    auc_interval: Interval | None
    ap: Metric
    metrics: dict[str, Metric]
    #: The model's rows (the shown one's as edited), for a view of them side by side.
    data: Dataset | None = field(default=None, compare=False, repr=False)
    pending: bool = False

    def items(self) -> list[str]:
        """``A* AUC 13/16 (95% CI 0.40 to 1.00)``, ``AP 7/10``, ``P 1/3 R 1/2 F1 2/5``."""
        mark = "*" if self.shown else ""
        if self.pending:
            return [f"{self.name}{mark} AUC, AP and metrics: being computed…"]
        ci = "" if self.auc_interval is None else f" ({self.auc_interval.short()})"
        k = self.metrics
        return [
            f"{self.name}{mark} AUC {self.auc.brief()}{ci}",
            f"AP {self.ap.brief()}",
            f"P {k['precision'].brief()} R {k['recall'].brief()} F1 {k['f1'].brief()}",
        ]

    def compact_items(self) -> list[str]:
        """The items without the interval, and F1 alone at the threshold, for when
        every model must fit a line: ``A* AUC 13/16``, ``AP 7/10``, ``F1 2/5``."""
        mark = "*" if self.shown else ""
        if self.pending:
            return [f"{self.name}{mark} being computed…"]
        return [
            f"{self.name}{mark} AUC {self.auc.brief()}",
            f"AP {self.ap.brief()}",
            f"F1 {self.metrics['f1'].brief()}",
        ]


def model_row(name: str, shown: bool, a: Analysis, confidence: float | None) -> ModelRow:
    """Model ``name``'s row at analysis ``a`` (``confidence`` None: no interval)."""

    sm = a.curves.summaries
    interval = None
    value, se, _ = a.curves.auc_se
    if confidence is not None and value is not None and se is not None:
        interval = auc_interval(value, se, confidence)
    metrics = {n: a.metrics[n] for n in ("precision", "recall", "f1")}
    return ModelRow(name, shown, sm.roc_auc, interval, sm.average_precision, metrics, a.data)


def pending_row(name: str, shown: bool, data: Dataset) -> ModelRow:
    """Model ``name``'s row while its sweep is computed elsewhere."""
    waiting = undefined("being computed")
    return ModelRow(name, shown, waiting, None, waiting, {}, data, pending=True)
