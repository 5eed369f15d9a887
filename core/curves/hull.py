"""The ROC convex hull, and the cost curves whose lower envelope it is.

Each operating point, with FNR and FPR its error rates, costs NEC(PC) = FNR·PC +
FPR·(1 − PC) at a probability-cost PC(+) in [0, 1] (Drummond and Holte's cost
curves: PC is the share of the expected cost that a positive's misclassification
carries). At each PC the cheapest point is on the lower envelope of those lines, and
the points that are ever on it are exactly the vertices of the ROC curve's upper
convex hull: a point strictly inside the hull is never the cheapest, and a point on a
hull edge between two vertices only ties them at one PC. Between two vertices ``i``
and ``j`` (in sweep order) the cheaper one changes at PC = ΔFPR/(ΔFPR + ΔTPR).

The hull is found on the counts (FP, TP), an affine image of the ROC points: with
whole counts every cross product is a whole number, so which points are vertices is
decided exactly, and each range's edge and area are exact fractions. The search is
quickhull over index ranges: the sweep's points are in order along the curve, so the
points between two hull vertices are the indices between them; each step finds the
point farthest above a chord by one pass (in blocks) over the indices between its
ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import BLOCK
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.metrics.metric import Metric, from_fraction, undefined
from threshold_lab.core.threshold import Threshold

IndexArray = npt.NDArray[np.intp]

NO_HULL = "the ROC convex hull needs both actual classes: {missing}"


@dataclass(frozen=True)
class HullVertex:
    """A vertex of the ROC convex hull: sweep point ``point`` (its ``threshold``; None
    above all scores), its rates, and the probability-costs PC(+) from ``pc_low`` to
    ``pc_high`` over which it is the cheapest point (exact fractions with whole counts,
    as ``*_exact``)."""

    point: int
    threshold: Threshold
    fpr: float
    tpr: float
    pc_low: float
    pc_high: float
    fpr_exact: Fraction | None = None
    tpr_exact: Fraction | None = None
    pc_low_exact: Fraction | None = None
    pc_high_exact: Fraction | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "threshold": self.threshold,
            "point": self.point,
            "fpr": self.fpr,
            "tpr": self.tpr,
            "pc_low": self.pc_low,
            "pc_high": self.pc_high,
        }


@dataclass(frozen=True)
class CostCurve:
    """The cost curves' lower envelope: the hull's vertices in sweep order (the
    above-all point first, every row predicted positive last), each with the range of
    PC(+) it is cheapest over, and the area under the hull (ROCCH AUC). ``reason``
    says why there is none (a class missing)."""

    hull: tuple[HullVertex, ...]
    hull_auc: Metric
    reason: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "hull": [v.as_json() for v in self.hull],
            "hull_auc": self.hull_auc.as_json(),
            "reason": self.reason,
        }

    def points(self) -> frozenset[int]:
        """The sweep points that are hull vertices."""
        return frozenset(v.point for v in self.hull)

    def cheapest(self, pc: float) -> HullVertex | None:
        """The vertex cheapest at probability-cost ``pc`` (at a change, the one after)."""
        for v in self.hull:
            if v.pc_low <= pc <= v.pc_high and (pc < v.pc_high or v is self.hull[-1]):
                return v
        return self.hull[-1] if self.hull else None


def _missing(sweep: Sweep) -> str | None:
    missing = []
    if not sweep.positives > 0:
        missing.append("no actual positives (TP+FN=0)")
    if not sweep.negatives > 0:
        missing.append("no actual negatives (FP+TN=0)")
    return " and ".join(missing) if missing else None


def _counts(sweep: Sweep) -> tuple[npt.NDArray[Any], npt.NDArray[Any], bool]:
    """FP and TP in a type whose cross products are exact where the counts are whole
    (int64: products up to P·N, far inside it), else the rates as doubles."""
    if sweep.whole_counts(limit=2**62):
        return sweep.fp, sweep.tp, True
    return sweep.fp / float(sweep.negatives), sweep.tp / float(sweep.positives), False


def _farthest(x: npt.NDArray[Any], y: npt.NDArray[Any], i: int, j: int) -> int | None:
    """The point strictly between ``i`` and ``j`` farthest above the chord from ``i`` to
    ``j`` (the first, among equals), or None when none is strictly above it."""
    dx, dy = x[j] - x[i], y[j] - y[i]
    best, at = None, None
    for lo in range(i + 1, j, BLOCK):
        hi = min(j, lo + BLOCK)
        cross = dx * (y[lo:hi] - y[i]) - dy * (x[lo:hi] - x[i])
        k = int(np.argmax(cross))
        if cross[k] > 0 and (best is None or cross[k] > best):
            best, at = cross[k], lo + k
    return at


def hull_vertices(sweep: Sweep) -> IndexArray:
    """The sweep points that are vertices of the ROC curve's upper convex hull, in
    sweep order, from the above-all point (0, 0) to the last (1, 1); points on a hull
    edge but not at a corner are not vertices. Empty without both classes.

    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> from threshold_lab.core.data.presets import preset
    >>> hull_vertices(build_sweep(preset("canonical").data)).tolist()  # 2 is on an edge
    [0, 1, 4]
    """
    if _missing(sweep) is not None:
        return np.zeros(0, dtype=np.intp)
    x, y, _ = _counts(sweep)
    # Only a corner of the staircase can be a vertex: a point reached by a step up (some
    # positives enter) and left by a step right (some negatives). Reached by a step right
    # alone, the point before it is as high and further left; left by a step up alone,
    # the point after it is straight above. The search runs on those corners alone.
    # (Weights of 0 repeat a point, whose neighbours are then no guide: all are searched.)
    points = np.arange(sweep.size, dtype=np.intp) if sweep.weighted else _corners(x, y)
    cx, cy = x[points], y[points]
    m = points.shape[0] - 1
    found = {0, m}
    ranges = [(0, m)]
    while ranges:
        i, j = ranges.pop()
        if j - i < 2:
            continue
        k = _farthest(cx, cy, i, j)
        if k is not None:
            found.add(k)
            ranges += [(i, k), (k, j)]
    return points[np.asarray(sorted(found), dtype=np.intp)]


def _corners(x: npt.NDArray[Any], y: npt.NDArray[Any]) -> IndexArray:
    """The first and last points, and every point between reached by a rise in y and
    left by a rise in x, ascending."""
    m = x.shape[0] - 1
    found = [np.zeros(1, dtype=np.intp)]
    for lo in range(1, m, BLOCK):
        hi = min(m, lo + BLOCK)  # points lo .. hi - 1, each with the one after it
        up = y[lo:hi] > y[lo - 1 : hi - 1]
        right = x[lo + 1 : hi + 1] > x[lo:hi]
        found.append(np.flatnonzero(up & right) + lo)
    found.append(np.full(1, m, dtype=np.intp))
    return np.concatenate(found).astype(np.intp)


def cost_curve(sweep: Sweep) -> CostCurve:
    """The hull's vertices with the PC(+) range each is cheapest over, and ROCCH AUC.

    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> from threshold_lab.core.data.presets import preset
    >>> c = cost_curve(build_sweep(preset("canonical").data))
    >>> [(v.point, v.pc_low_exact, v.pc_high_exact) for v in c.hull]
    [(0, Fraction(0, 1), Fraction(0, 1)), (1, Fraction(0, 1), Fraction(3, 5)), \
(4, Fraction(3, 5), Fraction(1, 1))]
    >>> c.hull_auc.value_text()
    '2/3 ≈ 0.6667'
    """
    name, formula = "ROCCH AUC", "Σ ΔFPR·(TPR+TPR′)/2 over the hull"
    missing = _missing(sweep)
    if missing is not None:
        reason = NO_HULL.format(missing=missing)
        return CostCurve((), undefined(reason, name=name, formula=formula), reason)
    points = hull_vertices(sweep).tolist()
    whole = sweep.whole_counts(limit=2**62)
    if not whole:
        points = _without_rounding_corners(sweep, points)
    pos, neg = sweep.positives, sweep.negatives
    tp = [sweep.tp[k].item() for k in points]
    fp = [sweep.fp[k].item() for k in points]
    # Where each neighbouring pair's costs cross: ΔFPR/(ΔFPR + ΔTPR).
    changes: list[Fraction | float] = []
    for a in range(len(points) - 1):
        d_fp, d_tp = fp[a + 1] - fp[a], tp[a + 1] - tp[a]
        if whole:
            changes.append(
                Fraction(int(d_fp) * int(pos), int(d_fp) * int(pos) + int(d_tp) * int(neg))
            )
        else:
            rate_fp, rate_tp = d_fp / float(neg), d_tp / float(pos)
            changes.append(rate_fp / (rate_fp + rate_tp))
    bounds: list[Fraction | float] = [
        Fraction(0) if whole else 0.0,
        *changes,
        Fraction(1) if whole else 1.0,
    ]
    vertices = []
    for a, k in enumerate(points):
        low, high = bounds[a], bounds[a + 1]
        fpr = Fraction(int(fp[a]), int(neg)) if whole else fp[a] / float(neg)
        tpr = Fraction(int(tp[a]), int(pos)) if whole else tp[a] / float(pos)
        exact = [x if isinstance(x, Fraction) else None for x in (fpr, tpr, low, high)]
        vertices.append(
            HullVertex(
                k, sweep.threshold_at(k), float(fpr), float(tpr), float(low), float(high), *exact
            )
        )
    if whole:
        twice = sum(
            (int(fp[a + 1]) - int(fp[a])) * (int(tp[a + 1]) + int(tp[a]))
            for a in range(len(points) - 1)
        )
        area = from_fraction(
            Fraction(twice, 2 * int(pos) * int(neg)), 0.0, name=name, formula=formula
        )
    else:
        value = sum(
            (fp[a + 1] - fp[a]) / float(neg) * (tp[a + 1] + tp[a]) / float(pos) / 2
            for a in range(len(points) - 1)
        )
        area = Metric(float(value), None, None, name, formula)
    return CostCurve(tuple(vertices), area)


def _crossing(sweep: Sweep, i: int, j: int) -> float:
    """Where the costs of points ``i`` and ``j`` cross: ΔFPR/(ΔFPR + ΔTPR), in doubles."""
    d_fpr = (sweep.fp[j] - sweep.fp[i]) / float(sweep.negatives)
    d_tpr = (sweep.tp[j] - sweep.tp[i]) / float(sweep.positives)
    total = float(d_fpr + d_tpr)
    return float(d_fpr) / total if total else 0.0


def _without_rounding_corners(sweep: Sweep, points: list[int]) -> list[int]:
    """Weights that are not whole are summed in doubles, where a point on a hull edge
    can come out a hair above it: such a vertex is the cheapest over no range of PC
    (its range ends before it starts). Left out, one at a time, until none is."""
    points = list(points)
    changed = True
    while changed and len(points) > 2:
        changed = False
        for a in range(1, len(points) - 1):
            low = _crossing(sweep, points[a - 1], points[a])
            high = _crossing(sweep, points[a], points[a + 1])
            if not low < high:
                del points[a]
                changed = True
                break
    return points


def normalised_costs(sweep: Sweep, points: IndexArray, pc: npt.NDArray[np.float64]) -> Any:
    """NEC(PC) = FNR·PC + FPR·(1 − PC) of each of ``points`` (rows) at each ``pc``
    (columns): the cost lines the cost chart draws."""
    fnr = 1.0 - sweep.tp[points] / float(sweep.positives)
    fpr = sweep.fp[points] / float(sweep.negatives)
    return fnr[:, None] * pc[None, :] + fpr[:, None] * (1.0 - pc[None, :])
