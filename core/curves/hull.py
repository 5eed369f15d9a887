"""The ROC convex hull, and the cost curves whose lower envelope it is.

Each operating point, with FNR and FPR its error rates, costs NEC(PC) = FNR·PC +
FPR·(1 − PC) at a probability-cost PC(+) in [0, 1] (Drummond and Holte's cost
curves: PC is the share of the expected cost that a positive's misclassification
carries). At each PC the cheapest point is on the lower envelope of those lines, and
the points that are ever on it are exactly the vertices of the ROC curve's upper
convex hull: a point strictly inside the hull is never the cheapest, and a point on a
hull edge between two vertices only ties them at one PC. Between two vertices ``i``
and ``j`` (in sweep order) the cheaper one changes at PC = ΔFPR/(ΔFPR + ΔTPR).
:func:`standing` says which of the three a point is, deciding "on an edge" exactly
by a cross product of whole counts (where weights are not whole, of their sums in
doubles, a point within rounding of an edge taken as on it).

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
from typing import Any, Literal

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import BLOCK
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.metrics.metric import Metric, format_decimal, from_fraction, undefined
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


def pc_text(exact: Fraction | None, value: float) -> str:
    """A probability-cost as the text writes it: a decimal where it is the exact value
    (``0.6``), else the fraction and its rounding (``2/3 ≈ 0.6667``), or ``≈ 0.1234``
    for weights that are not whole or a denominator too long to read."""
    if exact is None:
        return f"≈ {format_decimal(value)}"
    text = from_fraction(exact, 0.0).value_text()  # '3/5 = 0.6', '2/3 ≈ 0.6667', '0'
    return text.split(" = ")[-1]


@dataclass(frozen=True)
class Standing:
    """Where one sweep point stands among the cost curves. ``vertex``: a vertex of the
    hull (or at a vertex's (FPR, TPR): a row of weight 0 repeats it), the cheapest for
    PC(+) from ``pc_low`` to ``pc_high`` (tied with a neighbour at each end; where the
    two meet, cheapest only there, tied). ``edge``: on a hull edge between two
    vertices, not a corner: cheapest, tied with both, only at the PC(+) where they tie
    (``pc_low`` = ``pc_high``). ``inside``: strictly under the hull, never the cheapest
    (no PC). The ``*_exact`` fractions are there with whole counts."""

    point: int
    kind: Literal["vertex", "edge", "inside"]
    pc_low: float | None = None
    pc_high: float | None = None
    pc_low_exact: Fraction | None = None
    pc_high_exact: Fraction | None = None

    def words(self) -> str:
        """``cheapest for PC(+) from 0 to 0.6``, ``cheapest (tied) only at PC(+) = 0``,
        ``on the hull, not a vertex: cheapest (tied) only at PC(+) = 0.6`` or ``never
        the cheapest (strictly inside the hull)``."""
        if self.kind == "inside" or self.pc_low is None or self.pc_high is None:
            return "never the cheapest (strictly inside the hull)"
        low = pc_text(self.pc_low_exact, self.pc_low)
        if self.kind == "edge":
            return f"on the hull, not a vertex: cheapest (tied) only at PC(+) = {low}"
        if self.pc_low_exact is not None and self.pc_low_exact == self.pc_high_exact:
            return f"cheapest (tied) only at PC(+) = {low}"
        if self.pc_low_exact is None and not self.pc_low < self.pc_high:
            return f"cheapest (tied) only at PC(+) = {low}"
        return f"cheapest for PC(+) from {low} to {pc_text(self.pc_high_exact, self.pc_high)}"


@dataclass(frozen=True)
class StandingCounts:
    """How many sweep points are at a vertex (the vertices, and any point a row of
    weight 0 repeats at one), on an edge between two, and strictly inside the hull."""

    vertex: int
    edge: int
    inside: int


def _edges(sweep: Sweep, at: IndexArray, ks: IndexArray) -> tuple[IndexArray, Any, Any]:
    """For each of ``ks`` (none a vertex; ``at`` the vertices' points): the hull edge
    whose vertices it lies between in sweep order (the edge's first vertex's place in
    the hull), whether it is on that
    edge rather than strictly under it, and whether it is at one of its vertices' (FP,
    TP). Exact: int64 cross products of whole counts (each term at most P·N, under
    2^62). Weights that are not whole are summed in doubles, which put a point on an
    edge a hair above or below it: there a cross product within rounding of 0 (1e-9 of
    its terms) is taken as 0, on the edge."""
    a = np.searchsorted(at, ks, side="right") - 1
    i, j = at[a], at[a + 1]
    whole = sweep.whole_counts(limit=2**62)
    kind = np.int64 if whole else np.float64
    x, y = sweep.fp, sweep.tp
    xk, yk = x[ks].astype(kind), y[ks].astype(kind)
    xi, yi, xj, yj = x[i].astype(kind), y[i].astype(kind), x[j].astype(kind), y[j].astype(kind)
    cross = (xj - xi) * (yk - yi) - (yj - yi) * (xk - xi)
    if not whole:
        scale = np.abs((xj - xi) * (yk - yi)) + np.abs((yj - yi) * (xk - xi))
        cross = np.where(np.abs(cross) <= 1e-9 * scale, 0.0, cross)
    # Above the chord (> 0) only where doubles put a corner a hair above an edge and
    # cost_curve left it out (its PC range was empty): on the edge, as far as it can tell.
    on = cross >= 0
    same = ((xk == xi) & (yk == yi)) | ((xk == xj) & (yk == yj))
    return a, on, same


def standing(sweep: Sweep, curve: CostCurve, k: int) -> Standing | None:
    """Where sweep point ``k`` stands among the cost curves (see :class:`Standing`);
    None where there is no hull (a class missing).

    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> from threshold_lab.core.data.presets import preset
    >>> s = build_sweep(preset("canonical").data)
    >>> standing(s, cost_curve(s), 2).words()  # 0.8's (1/2, 2/3), on (0, 1/3)-(1, 1)
    'on the hull, not a vertex: cheapest (tied) only at PC(+) = 0.6'
    """
    hull = curve.hull
    if not hull:
        return None
    mine = next((v for v in hull if v.point == k), None)
    if mine is None:
        at = np.asarray([v.point for v in hull], dtype=np.intp)
        a, on, same = (t[0] for t in _edges(sweep, at, np.asarray([k], dtype=np.intp)))
        if not on:
            return Standing(k, "inside")
        v, w = hull[int(a)], hull[int(a) + 1]
        if not same:
            return Standing(k, "edge", v.pc_high, v.pc_high, v.pc_high_exact, v.pc_high_exact)
        f = sweep.fp[k], sweep.tp[k]
        mine = v if (sweep.fp[v.point], sweep.tp[v.point]) == f else w
    return Standing(k, "vertex", mine.pc_low, mine.pc_high, mine.pc_low_exact, mine.pc_high_exact)


def standing_counts(sweep: Sweep, curve: CostCurve) -> StandingCounts:
    """How many of the sweep's points stand where (see :class:`StandingCounts`), a
    block of points at a time; all zero where there is no hull."""
    if not curve.hull:
        return StandingCounts(0, 0, 0)
    vertices = np.asarray([v.point for v in curve.hull], dtype=np.intp)
    at, edge, inside = vertices.shape[0], 0, 0
    for lo in range(0, sweep.size, BLOCK):
        ks = np.arange(lo, min(sweep.size, lo + BLOCK), dtype=np.intp)
        ks = ks[~np.isin(ks, vertices)]
        if ks.shape[0] == 0:
            continue
        _, on, same = _edges(sweep, vertices, ks)
        at += int(np.count_nonzero(on & same))
        edge += int(np.count_nonzero(on & ~same))
        inside += int(np.count_nonzero(~on))
    return StandingCounts(at, edge, inside)
