"""Where two ROC curves of the same rows cross, exactly.

Each curve is the line through its sweep's points (a tie group of positives and
negatives is a diagonal segment; a group of one class a vertical or horizontal one).
Two models of the same rows share P and N, so both curves live on FP counts 0..N: on
the union of their points' FP counts each curve is a straight line between
neighbouring values, and may jump up at one (a vertical step). Curve A minus curve B
is then known at every such value from the left (before the jumps there) and from the
right (after them), and is linear in between. A **crossing** is where that difference,
once strictly positive (A above B), next becomes strictly negative, or back: it is
placed where the difference first reaches zero on the way (inside a segment, where
two lines meet; at an FP count where a jump carries one curve past the other, that
count; where the curves meet and run together before parting the other way, where
they meet). Touching and parting on the same side is no crossing.

Signs are decided exactly: in floating point where the difference is clearly away
from zero, and in integers (fractions) for the few values near it; crossing FPRs are
fractions.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt
from threshold_lab.core.curves.sweep import Sweep

IntArray = npt.NDArray[np.int64]
FloatArray = npt.NDArray[np.float64]
#: A difference (in true positives) this close to zero in floating point is decided in
#: integers.
NEAR = 1e-6


@dataclass(frozen=True)
class Crossing:
    """One crossing: its FPR (exact), and whether A goes from above B to below it."""

    fpr: Fraction
    a_goes_below: bool


@dataclass(frozen=True)
class Compared:
    """How curve A lies against curve B: its crossings in FPR order, and the sign of
    A − B wherever they differ when they never cross (1: A never below B, -1: never
    above, 0: the same curve)."""

    crossings: tuple[Crossing, ...]
    side: int


def _values(fp: IntArray, tp: IntArray, grid: IntArray) -> tuple[IntArray, IntArray, IntArray]:
    """The curve at each FP count of ``grid``: its TP from the left and from the right
    (numerators) over a common denominator (1 at the curve's own points; the FP width
    of the segment that passes through the value otherwise)."""
    first = np.searchsorted(fp, grid, side="left")
    last = np.searchsorted(fp, grid, side="right") - 1
    own = (first < fp.shape[0]) & (fp[np.minimum(first, fp.shape[0] - 1)] == grid)
    # Between points i (FP below) and i+1 (FP above): TP_i + ΔTP·(u − FP_i)/ΔFP.
    i = np.clip(last, 0, fp.shape[0] - 2)
    width = np.where(own, 1, fp[i + 1] - fp[i])
    through = tp[i] * width + (tp[i + 1] - tp[i]) * (grid - fp[i])
    safe_first = np.minimum(first, fp.shape[0] - 1)
    left = np.where(own, tp[safe_first], through)
    right = np.where(own, tp[np.maximum(last, 0)], through)
    return left, right, width


def _signs(
    a: tuple[IntArray, IntArray], b: tuple[IntArray, IntArray]
) -> tuple[npt.NDArray[np.int8], list[Fraction | None]]:
    """The sign of a − b for values given as (numerators, denominators); the exact
    difference is kept (else None) where it was decided in integers."""
    an, ad = a
    bn, bd = b
    approx: FloatArray = an / ad - bn / bd
    signs = np.sign(approx).astype(np.int8)
    exact: list[Fraction | None] = [None] * approx.shape[0]
    for j in np.flatnonzero(np.abs(approx) < NEAR).tolist():
        d = Fraction(int(an[j]), int(ad[j])) - Fraction(int(bn[j]), int(bd[j]))
        exact[j] = d
        signs[j] = (d > 0) - (d < 0)
    return signs, exact


def compare_curves(a: Sweep, b: Sweep) -> Compared | None:
    """Where ROC curve ``a`` crosses ``b`` (see the module's text); None where they are
    not curves of the same class counts (P and N differ, or are not whole, or a class
    is missing)."""
    if not (a.whole_counts() and b.whole_counts()):
        return None
    p, n = float(a.positives), float(a.negatives)
    if p <= 0 or n <= 0 or p != float(b.positives) or n != float(b.negatives):
        return None
    fa, ta = np.asarray(a.fp, dtype=np.int64), np.asarray(a.tp, dtype=np.int64)
    fb, tb = np.asarray(b.fp, dtype=np.int64), np.asarray(b.tp, dtype=np.int64)
    grid = np.union1d(fa, fb)
    la, ra, wa = _values(fa, ta, grid)
    lb, rb, wb = _values(fb, tb, grid)
    # In order along the curve: at each grid value, from the left, then from the right.
    num_a = np.stack([la, ra], axis=1).ravel()
    num_b = np.stack([lb, rb], axis=1).ravel()
    den_a, den_b = np.repeat(wa, 2), np.repeat(wb, 2)
    signs, exact = _signs((num_a, den_a), (num_b, den_b))
    at = np.flatnonzero(signs != 0)
    if at.size == 0:
        return Compared((), 0)
    changes = np.flatnonzero(signs[at][1:] != signs[at][:-1])
    if changes.size == 0:
        return Compared((), int(signs[at[0]]))

    def diff(j: int) -> Fraction:
        known = exact[j]
        if known is not None:
            return known
        return Fraction(int(num_a[j]), int(den_a[j])) - Fraction(int(num_b[j]), int(den_b[j]))

    out = []
    for c in changes.tolist():
        j1, j2 = int(at[c]), int(at[c + 1])
        if j2 == j1 + 1 and j1 % 2 == 1:
            # From the right of one value to the left of the next: two lines meet.
            u0, u1 = int(grid[j1 // 2]), int(grid[j2 // 2])
            d1, d2 = diff(j1), diff(j2)
            x = u0 + (u1 - u0) * d1 / (d1 - d2)
        else:
            # A jump at one value carries one past the other, or they meet first.
            x = Fraction(int(grid[(j1 + 1) // 2]))
        out.append(Crossing(x / round(n), bool(signs[j1] > 0)))
    return Compared(tuple(out), 0)
