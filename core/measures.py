"""A number as a report gives it: the metric (value, exact fraction, or undefined with
its reason, and its formula) with its interval, or why it has none.

Each is made here once, from an analysis and the intervals in force, so every front
end (the report, plain mode, the explorer, the Python API) says the same.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from threshold_lab.core.analysis import Analysis
from threshold_lab.core.intervals import IntervalsShown
from threshold_lab.core.intervals.bootstrap import AT_THRESHOLD as BOOT_AT_THRESHOLD
from threshold_lab.core.intervals.closed import Interval, auc_interval, proportion_interval
from threshold_lab.core.metrics.metric import Metric
from threshold_lab.core.metrics.threshold_metrics import METRIC_NAMES


@dataclass(frozen=True)
class Measure:
    """One number of a report: ``value`` (None exactly when undefined, and then
    ``reason`` says why), ``exact`` (the fraction, when the counts are whole), its
    ``interval`` or ``interval_reason``, and ``formula`` with the counts filled in.

    ``interval_from`` is ``"wilson"``, ``"delong"`` or ``"bootstrap"`` for where
    the interval (or the reason it has none) came from, or None when the number
    has no kind of interval at all.
    """

    metric: Metric
    interval: Interval | None = None
    interval_reason: str | None = None
    interval_from: str | None = None
    #: Bootstrap replicates where the number was undefined (left out of the percentiles).
    undefined_replicates: int = 0

    @property
    def value(self) -> float | None:
        return self.metric.value

    @property
    def exact(self) -> Fraction | None:
        return self.metric.exact

    @property
    def reason(self) -> str | None:
        return self.metric.reason

    @property
    def formula(self) -> str:
        """``precision = TP/(TP+FP) = 2/(2+1) = 2/3 ≈ 0.6667``."""
        return self.metric.describe()

    def __float__(self) -> float:
        if self.metric.value is None:
            raise ValueError(f"{self.metric.name or 'the value'} is {self.metric.undefined_text()}")
        return self.metric.value

    def __repr__(self) -> str:
        shown = self.metric.value_or_reason()
        if self.interval is not None:
            shown += f" ({self.interval.text()})"
        return f"<{self.metric.name or 'Measure'}: {shown}>"

    def as_json(self) -> dict[str, Any]:
        """The metric's ``{"value", "reason", "exact"}`` with ``"interval"`` (or null
        and ``"interval_reason"``) where the number has an interval of some kind."""
        out: dict[str, Any] = self.metric.as_json()
        if self.interval is not None:
            out["interval"] = self.interval.as_json()
            if self.undefined_replicates:
                out["interval"]["undefined_replicates"] = self.undefined_replicates
        elif self.interval_reason is not None:
            out["interval"], out["interval_reason"] = None, self.interval_reason
        return out


def metric_measure(name: str, a: Analysis, sure: IntervalsShown) -> Measure:
    """Threshold metric ``name`` at ``a``, with Wilson's interval where it is a
    proportion and the bootstrap's for the rest (when one ran)."""
    m = a.metrics[name]
    if m.value is not None and name in BOOT_AT_THRESHOLD:
        e = sure.estimate(name, a.point)
        return Measure(
            m, e.interval, e.reason if e.interval is None else None, "bootstrap", e.undefined
        )
    interval, reason = proportion_interval(
        name, a.counts, whole=a.sweep.whole_counts(), confidence=sure.confidence
    )
    kind = "wilson" if interval is not None or reason is not None else None
    return Measure(m, interval, reason, kind)


def metric_measures(a: Analysis, sure: IntervalsShown) -> dict[str, Measure]:
    """Every threshold metric of ``a``, in the report's order."""
    return {name: metric_measure(name, a, sure) for name in METRIC_NAMES}


def auc_measure(a: Analysis, sure: IntervalsShown) -> tuple[Measure, float | None]:
    """ROC AUC with DeLong's interval, and its standard error (None without one)."""
    m = a.curves.summaries.roc_auc
    if m.value is None:
        return Measure(m), None
    value, se, reason = a.curves.auc_se
    if value is not None and se is not None:
        return Measure(m, auc_interval(value, se, sure.confidence), None, "delong"), se
    return Measure(m, None, reason, "delong"), None


def boot_measure(m: Metric, sure: IntervalsShown, name: str) -> Measure:
    """A threshold-free summary (AP, the PR area) with its bootstrap interval, when
    defined (without a bootstrap: null and why)."""
    if m.value is None:
        return Measure(m)
    e = sure.estimate(name)
    return Measure(
        m, e.interval, e.reason if e.interval is None else None, "bootstrap", e.undefined
    )


def auc_interval_text(a: Analysis, sure: IntervalsShown) -> str | None:
    """``95% CI 0.62 to 0.84, DeLong; SE 0.0558``, or None."""
    m, se = auc_measure(a, sure)
    if m.interval is None or se is None:
        return None
    return f"{m.interval.text()}; SE {se:.4f}"
