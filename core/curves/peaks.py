"""Where a threshold metric peaks over the sweep: the point with the largest F1.

Exact where the counts are whole: floats narrow the sweep down to the points within a
part in 10^12 of the largest value, and those few are compared as fractions. The pass
is a block at a time (no whole-array temporaries at 10^7 points). A tie goes to the
highest threshold (the fewest predicted positive).
"""

from __future__ import annotations

import numpy as np
from threshold_lab.core.blocks import blocks
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.metrics.metric import Metric, ratio

#: Points within this part of the largest float F1 are compared exactly.
NEAR = 1e-12


def f1_peak(sweep: Sweep) -> tuple[int, Metric] | None:
    """The sweep point with the largest F1 = 2TP/(2TP+FP+FN), and F1 there; on a tie
    the highest threshold (the fewest predicted positive). None without positives.

    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> from threshold_lab.core.data.presets import preset
    >>> k, f1 = f1_peak(build_sweep(preset("canonical").data))
    >>> k, f1.short()
    (4, '6/8')
    """
    if sweep.size < 2 or not float(sweep.positives):
        return None
    pos = float(sweep.positives)
    top = -1.0
    near: list[int] = []
    for b in blocks(1, sweep.size):
        tp = sweep.tp[b]
        f1 = 2 * tp.astype(np.float64) / (tp + pos + sweep.fp[b])
        high = float(np.max(f1))
        if high < top * (1 - NEAR):
            continue
        if high > top:
            top = high
            near = [i for i in near if _f1(sweep, i) >= top * (1 - NEAR)]
        near.extend((np.flatnonzero(f1 >= top * (1 - NEAR)) + b.start).tolist())
    best_k, best = 0, None
    for k in near:
        num, den = 2 * sweep.tp[k].item(), sweep.tp[k].item() + sweep.positives + sweep.fp[k].item()
        m = ratio(num, den, reason="", name="F1", formula="2TP/(2TP+FP+FN)")
        if best is None or _larger(m, best):
            best_k, best = k, m
    assert best is not None
    return best_k, best


def _f1(sweep: Sweep, k: int) -> float:
    tp = float(sweep.tp[k])
    return 2 * tp / (tp + float(sweep.positives) + float(sweep.fp[k]))


def _larger(a: Metric, b: Metric) -> bool:
    if a.exact is not None and b.exact is not None:
        return a.exact > b.exact
    return (a.value or 0.0) > (b.value or 0.0)
