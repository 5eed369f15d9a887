"""What the decision and cost charts draw: net benefit against the threshold
probability, and each point's normalised expected cost against the probability-cost,
sampled for a chart's columns (the numbers come from core's own definitions)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Curves
from threshold_lab.core.curves.hull import normalised_costs
from threshold_lab.core.decide.net_benefit import (
    DecisionCurve,
    Weights,
    decision_curve,
    net_benefits,
    weights_of,
)

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]

#: Samples a column: the curve jumps at each distinct score and bends between them.
PER_COLUMN = 4


def decision_curve_of(
    curves: Curves, pt: tuple[Fraction, ...], harm: Fraction, prevalence: Fraction | None
) -> DecisionCurve:
    """``curves``' decision curve on the grid ``pt`` (computed once per rows and asking,
    kept with the rows' curves: its useful range is a pass over the sweep)."""
    key = (pt, harm, prevalence)
    kept = curves.__dict__.setdefault("_decision_curves", {})
    if key not in kept:
        kept.clear()
        kept[key] = decision_curve(curves.sweep, pt, harm=harm, prevalence=prevalence)
    found: DecisionCurve = kept[key]
    return found


@dataclass(frozen=True, eq=False)
class DecisionSeries:
    """Net benefit sampled along pt: the model's, treating all's, and the prevalence
    (the chart's top); ``weights`` None: undefined (``reason``)."""

    pt: FloatArray
    model: FloatArray
    treat_all: FloatArray
    prevalence: float
    weights: Weights | None
    reason: str | None = None

    def at(self, curves: Curves, pt: float) -> float:
        """The model's net benefit at one ``pt`` (the active threshold's)."""
        assert self.weights is not None
        return float(net_benefits(curves.sweep, self.weights, np.array([pt]))[0][0])


def decision_series(
    curves: Curves, harm: Fraction, prevalence: Fraction | None, columns: int
) -> DecisionSeries:
    """Net benefit of ``curves``' rows at ``columns · PER_COLUMN`` pt across (0, 1)."""
    w = weights_of(curves.sweep, prevalence, harm)
    n = max(columns, 1) * PER_COLUMN
    pt = (np.arange(n) + 0.5) / n
    if isinstance(w, str):
        empty = np.zeros(0)
        return DecisionSeries(empty, empty, empty, 0.0, None, w)
    model, everyone = net_benefits(curves.sweep, w, pt)
    return DecisionSeries(pt, model, everyone, float(w.prevalence), w)


@dataclass(frozen=True, eq=False)
class CostSeries:
    """Cost lines sampled along PC(+): the envelope (the cheapest at each PC), the
    lines of ``faint`` points (a few of the sweep's, those a ROC chart draws), and the
    active point's line."""

    pc: FloatArray
    envelope: FloatArray
    faint: FloatArray
    active: FloatArray | None


def cost_series(curves: Curves, faint: IndexArray, active: int, columns: int) -> CostSeries:
    """The cost chart's lines over ``columns · PER_COLUMN`` PC(+) from 0 to 1 (both
    classes needed: see :attr:`Curves.cost_curve`)."""
    n = max(columns, 1) * PER_COLUMN
    pc = np.linspace(0.0, 1.0, n)
    vertices = np.asarray(sorted(curves.cost_curve.points()), dtype=np.intp)
    envelope = normalised_costs(curves.sweep, vertices, pc).min(axis=0)
    lines = normalised_costs(curves.sweep, faint, pc)
    mine = normalised_costs(curves.sweep, np.array([active]), pc)[0]
    return CostSeries(pc, envelope, lines, mine)
