"""Cumulative gains, lift and the KS statistic, over the exact sweep.

- **Cumulative gains**: at each operating point, the share of all positives captured
  (TP / P) against the share of examples predicted positive ((TP + FP) / n), with the
  random line (y = x) and the perfect line (every positive first: up to (P/n, 1)).
- **Lift** at a threshold = precision / prevalence.
- **KS statistic** = max over the sweep of TPR − FPR (the maximum Youden index), at the
  threshold attaining it with the fewest predicted positives.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import blocks
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.metrics.metric import Metric, from_fraction, undefined
from threshold_lab.core.metrics.threshold_metrics import NO_ACTUAL_NEG, NO_ACTUAL_POS, lift

__all__ = ["KS", "Gains", "gains", "ks_statistic", "lift"]
from threshold_lab.core.threshold import Threshold

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class KS:
    """The KS statistic and the threshold attaining it (None: above all scores)."""

    value: Metric
    threshold: Threshold
    point: int | None

    def as_json(self) -> dict[str, object]:
        return {"value": self.value.as_json(), "threshold": self.threshold}


#: Weighted gaps (floats) this close to the largest count as ties with it.
NEAR = 1e-12


def ks_statistic(sweep: Sweep) -> KS:
    """max over the sweep of TPR − FPR; among ties, the point with the fewest predicted
    positives (the highest threshold).

    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> from threshold_lab.core.data.presets import preset
    >>> k = ks_statistic(build_sweep(preset("delivery-a").data))
    >>> k.value.short(), k.threshold
    ('5/8', 0.55)
    """
    name, formula = "KS", "max (TPR − FPR)"
    if sweep.positives == 0:
        return KS(
            undefined(f"{NO_ACTUAL_POS}: TPR is undefined", name=name, formula=formula), None, None
        )
    if sweep.negatives == 0:
        return KS(
            undefined(f"{NO_ACTUAL_NEG}: FPR is undefined", name=name, formula=formula), None, None
        )
    whole = sweep.whole_counts()
    p, n = (int(sweep.positives), int(sweep.negatives)) if whole else (0, 0)
    best_k: int = 0
    best: Any = None  # the first largest gap so far (an integer or a float), at best_k
    for b in blocks(0, sweep.size):  # no whole-array temporaries at 10^7 points
        if whole:
            # TPR − FPR = (tp·N − fp·P) / (P·N), compared in integers (exact).
            score: npt.NDArray[Any] = sweep.tp[b].astype(np.int64, copy=False) * n
            score -= sweep.fp[b].astype(np.int64, copy=False) * p
        else:
            score = sweep.tp[b] / float(sweep.positives) - sweep.fp[b] / float(sweep.negatives)
        k = int(np.argmax(score))  # the first maximum: fewest predicted positives
        if best is None or score[k] > best:
            best_k, best = b.start + k, score[k]
    k = best_k
    if not whole and best_k > 0:
        # Weights that are not whole: a gap within rounding of the largest is a tie, and
        # a tie goes to the highest threshold (a pass to the first such point).
        near = float(best) - NEAR
        for b in blocks(0, best_k + 1):
            score = sweep.tp[b] / float(sweep.positives) - sweep.fp[b] / float(sweep.negatives)
            hits = np.flatnonzero(score >= near)
            if hits.size:
                k = b.start + int(hits[0])
                best = score[hits[0]]  # the gap at the point chosen, said with it
                break
    if whole:
        exact = Fraction(int(best), p * n)
        value = from_fraction(exact, float(exact), name=name, formula=formula)
    else:
        value = Metric(float(best), None, None, name, formula)
    return KS(value, sweep.threshold_at(k), k)


def ks_from_gap(sweep: Sweep, point: int, gap: int) -> KS:
    """:func:`ks_statistic` of ``sweep`` (whole counts, both classes) from the first
    point of largest TP·N − FP·P and that gap, found elsewhere."""
    exact = Fraction(gap, int(sweep.positives) * int(sweep.negatives))
    value = from_fraction(exact, float(exact), name="KS", formula="max (TPR − FPR)")
    return KS(value, sweep.threshold_at(point), point)


@dataclass(frozen=True, eq=False)
class Share:
    """A share per sweep point, ``(a + b) / total`` (``b`` None: ``a / total``), read at
    the points asked for: the same values as dividing the whole arrays (each point's
    own float division), without making them (72 MB a curve axis at 9·10^6 points).
    ``np.asarray(share)`` makes the whole array where one is wanted."""

    a: Any
    b: Any
    total: float

    def __getitem__(self, index: Any) -> Any:
        v = self.a[index] if self.b is None else self.a[index] + self.b[index]
        out = np.asarray(v / self.total, dtype=np.float64)
        return float(out) if out.ndim == 0 else out

    def __len__(self) -> int:
        return int(self.a.shape[0])

    def __array__(self, dtype: Any = None, copy: Any = None) -> FloatArray:
        return np.asarray(self[np.arange(len(self))], dtype=dtype or np.float64)

    def tolist(self) -> list[float]:
        return np.asarray(self).tolist()  # type: ignore[no-any-return]

    def last_at_most(self, q: float) -> int:
        """The last point whose share is at most ``q`` (shares never fall), or 0."""
        lo, hi = 0, len(self) - 1
        while lo < hi:
            mid = (lo + hi + 1) // 2
            if self[mid] <= q:
                lo = mid
            else:
                hi = mid - 1
        return lo


@dataclass(frozen=True, eq=False)
class Gains:
    """The cumulative gains curve: x (share predicted positive) and y (share of the
    positives captured) per sweep point, each read where asked (:class:`Share`), and
    the prevalence (the perfect line's knee)."""

    x: Share
    y: Share
    prevalence: float


def gains(sweep: Sweep) -> Gains | None:
    """The gains curve over the exact sweep; None without actual positives (or rows).

    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> from threshold_lab.core.data.presets import preset
    >>> g = gains(build_sweep(preset("canonical").data))
    >>> g.x.tolist(), [round(y, 4) for y in g.y.tolist()]
    ([0.0, 0.2, 0.6, 0.8, 1.0], [0.0, 0.3333, 0.6667, 0.6667, 1.0])
    """
    total = float(sweep.positives + sweep.negatives)
    if sweep.positives == 0 or total == 0:
        return None
    return Gains(
        Share(sweep.tp, sweep.fp, total),
        Share(sweep.tp, None, float(sweep.positives)),
        float(sweep.positives) / total,
    )
