"""The ROC curve's corners: the points pROC calls "local maximas".

Walking the sweep from above all scores down, a point is a corner where the step into
it rose (some positives entered: TPR went up) and the step out of it goes right (some
negatives enter: FPR goes up): the upper-left corners of the staircase, the only points
that can be best for a criterion rising in TPR and falling in FPR. At the ends, the
above-all point is one where the first step goes right, and the last point (everything
predicted positive) one where the last step rose. A point whose TPR is 0 counts as a
corner where the step out of it goes right (pROC's rule for sensitivity 0). Of points
repeating each other (a tie group of weight 0) only the lowest threshold is looked
at, as pROC drops repeated (specificity, sensitivity) pairs; a curve of one point is
its own corner.

Decided on the counts, exactly: a tie group of both classes (a diagonal step) both
rises and goes right.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.metrics.metric import format_count
from threshold_lab.core.threshold import format_threshold

IndexArray = npt.NDArray[np.intp]


def local_maxima(sweep: Sweep) -> IndexArray:
    """The corners' point indices, ascending (0 is above all scores); none without
    both classes.

    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> from threshold_lab.core.data.presets import preset
    >>> local_maxima(build_sweep(preset("canonical").data)).tolist()
    [1, 2, 4]
    """
    tp, fp = sweep.tp, sweep.fp
    m = tp.shape[0]
    if m == 0 or not (sweep.positives > 0 and sweep.negatives > 0):
        return np.zeros(0, dtype=np.intp)  # no ROC curve without both classes (pROC refuses)
    # Of points repeating each other, the last (the lowest threshold, as pROC keeps
    # the first in its order of thresholds rising).
    kept = np.ones(m, dtype=np.bool_)
    kept[:-1] = (tp[1:] != tp[:-1]) | (fp[1:] != fp[:-1])
    if kept.all():  # no point repeats another (every tie group has rows): read in place
        idx, t, f = None, tp, fp
    else:
        idx = np.flatnonzero(kept)
        if idx.shape[0] == 1:
            return idx.astype(np.intp)
        t, f = tp[idx], fp[idx]
    del kept
    if t.shape[0] == 1:
        return np.zeros(1, dtype=np.intp)
    rose = np.zeros(t.shape[0], dtype=np.bool_)
    rose[1:] = t[1:] > t[:-1]
    right = np.zeros(t.shape[0], dtype=np.bool_)
    right[:-1] = f[1:] > f[:-1]
    np.logical_or(rose, t == 0, out=rose)
    corner = np.logical_and(right, rose, out=right)
    corner[-1] = t.shape[0] > 1 and bool(t[-1] > t[-2])  # the last point: the last step rose
    corner[0] = bool(f[1] > f[0])  # above all scores: the first step goes right
    where = np.flatnonzero(corner)
    out: IndexArray = where if idx is None else idx[where].astype(np.intp)
    return out


def corner_lines(sweep: Sweep, corners: IndexArray, most: int = 20) -> list[str]:
    """The corners in lines: each one's threshold and counts (TPR and FPR as counts),
    the first and last ``most // 2`` where there are more."""
    if sweep.positives == 0 or sweep.negatives == 0:
        return ["ROC corners: undefined: the ROC curve needs both actual classes"]
    n = corners.shape[0]
    out = [
        f"ROC corners (pROC's local maxima): {n} of {sweep.size} points, each where the "
        "curve rose into it and goes right out of it"
    ]
    shown = corners.tolist()
    cut = n > most
    if cut:
        shown = shown[: most // 2] + shown[-(most // 2) :]
    pos, neg = format_count(sweep.positives), format_count(sweep.negatives)
    for i, k in enumerate(shown):
        if cut and i == most // 2:
            out.append(
                f"  ... {n - most} more (every one in the JSON's roc.local_maxima, up to "
                "--points of them; --points all lists every one)"
            )
        t = format_threshold(None if k == 0 else float(sweep.thresholds[k - 1]))
        out.append(
            f"  threshold {t}: TPR {format_count(sweep.tp[k].item())}/{pos}, "
            f"FPR {format_count(sweep.fp[k].item())}/{neg}"
        )
    return out
