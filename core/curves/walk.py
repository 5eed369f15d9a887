"""Walking a curve point by point, each step said in words: its coordinates as the
sweep's counts, the step's direction and slope, its threshold and the rows it admits.

A step at point K of M says, in this order: ``Point K of M: FPR a/b, TPR c/d`` (PR:
recall and precision; DET: FPR and FNR; counts as in the sweep table, never reduced);
the direction from the previous point (``up``: only positives entered, ``right``: only
negatives, ``diagonal``: both); the slope as a likelihood ratio with its counts
(``slope 3/1 (3 positives, 1 negative entered)``, ``vertical`` or ``flat`` where one
side is 0); the threshold; and the rows that entered (their ids when at most 5, else
how many).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import numpy as np
from threshold_lab.core.curves.export import curve_kind
from threshold_lab.core.curves.hull import hull_vertices
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.metrics.metric import format_count
from threshold_lab.core.threshold import format_threshold

KINDS = ("roc", "pr", "det")
#: The most row ids a step names; more are counted.
IDS_SAID = 5


def parse_kind(text: object) -> str:
    return curve_kind("walk", text, KINDS)


def _n(x: Any) -> str:
    return format_count(x)


def _entered(n: Any, noun: str) -> str:
    return f"{_n(n)} {noun}{'' if n == 1 else 's'}"


def step_words(
    sweep: Sweep, kind: str, k: int, rows: Sequence[str] = (), count: int | None = None
) -> str:
    """The sentence for point ``k`` of ``sweep``'s ``kind`` curve; ``rows``: the ids of
    the rows that entered at it (its tie group), and ``count`` how many rows they are
    (:func:`entered_rows` gives both; without ``count``, the counts that entered)."""
    m = int(sweep.tp.shape[0])
    tp, fp = sweep.tp[k], sweep.fp[k]
    pos, neg = sweep.positives, sweep.negatives
    where = f"Point {k + 1} of {m}: "
    if kind == "pr":
        precision = (
            f"precision {_n(tp)}/{_n(tp + fp)}"
            if tp + fp > 0
            else "precision undefined (nothing predicted positive)"
        )
        where += f"recall {_n(tp)}/{_n(pos)}, {precision}"
    elif kind == "det":
        where += f"FPR {_n(fp)}/{_n(neg)}, FNR {_n(pos - tp)}/{_n(pos)}"
    else:
        where += f"FPR {_n(fp)}/{_n(neg)}, TPR {_n(tp)}/{_n(pos)}"
    parts = [where]
    if k == 0:
        parts.append("the start: above all scores, nothing predicted positive")
        return "; ".join(parts) + "."
    dtp, dfp = sweep.entering(k)
    counts = f"{_entered(dtp, 'positive')}, {_entered(dfp, 'negative')} entered"
    way = _direction(sweep, kind, k)
    if dfp == 0:
        parts += [way, f"slope vertical ({counts})"]
    elif dtp == 0:
        parts += [way, f"slope flat ({counts})"]
    else:
        ratio = _ratio(dtp, dfp, pos, neg)
        parts += [way, f"slope {ratio} ({counts})"]
    parts.append(f"threshold {format_threshold(float(sweep.thresholds[k - 1]))}")
    if count is None:
        count = round(float(dtp + dfp)) if sweep.whole_counts() else len(rows)
    if rows and count <= IDS_SAID:
        parts.append(f"rows entered: {', '.join(rows)}")
    else:
        parts.append(f"{count:,} row{'' if count == 1 else 's'} entered")
    return "; ".join(parts) + "."


def _direction(sweep: Sweep, kind: str, k: int) -> str:
    """Which way point ``k`` lies from point ``k - 1`` on the ``kind`` curve's axes. ROC
    (FPR, TPR): ``up`` (only positives entered), ``right`` (only negatives),
    ``diagonal`` (both). DET (FPR, FNR): ``down``, ``right``, ``diagonal, down and
    right``. PR (recall, precision): recall moves right when a positive enters, and
    precision up, down or not at all, compared exactly on the counts."""
    dtp, dfp = sweep.entering(k)
    if kind == "det":
        return "down" if dfp == 0 else "right" if dtp == 0 else "diagonal, down and right"
    if kind != "pr":
        return "up" if dfp == 0 else "right" if dtp == 0 else "diagonal"
    tp0, fp0, tp1, fp1 = (
        float(v) for v in (sweep.tp[k - 1], sweep.fp[k - 1], sweep.tp[k], sweep.fp[k])
    )
    if tp0 + fp0 == 0:
        return "right, from no precision" if dtp else "no move: precision still undefined"
    rises = tp1 * (tp0 + fp0) - tp0 * (tp1 + fp1)  # precision now minus before, scaled
    vertical = "up" if rises > 0 else "down" if rises < 0 else ""
    if dtp == 0:
        return vertical or "no move"
    return f"right and {vertical}" if vertical else "right"


def entered_rows(data: Dataset, sweep: Sweep, k: int) -> tuple[list[str], int]:
    """The rows that entered at point ``k`` (its tie group): their ids as shown when
    there are at most :data:`IDS_SAID` (else none: the step says how many), and how
    many rows they are (not their weight). Rows without ids are named by position, as
    ``row 4``, so a name is never read as a count."""
    if k == 0:
        return [], 0
    found = np.flatnonzero(data.scores == sweep.thresholds[k - 1])
    count = int(found.shape[0])
    if count > IDS_SAID:
        return [], count
    if data.ids is None:
        return [f"row {int(i) + 1}" for i in found], count
    return [data.shown_id(int(i)) for i in found], count


def _ratio(dtp: Any, dfp: Any, pos: Any, neg: Any) -> str:
    """ΔTPR / ΔFPR = (ΔTP·N) / (ΔFP·P): a fraction of counts (``3/1``), or ≈ a decimal
    where the weights are not whole."""
    values = [float(v) for v in (dtp, dfp, pos, neg)]
    if all(v == int(v) for v in values):
        whole = [int(v) for v in values]
        f = Fraction(whole[0] * whole[3], whole[1] * whole[2])
        return f"{f.numerator}/{f.denominator}"
    return f"≈ {values[0] * values[3] / (values[1] * values[2]):.4g}"


def next_hull(sweep: Sweep, k: int) -> int | None:
    """The next convex-hull vertex after point ``k`` (None: none)."""
    later = [int(v) for v in hull_vertices(sweep).tolist() if v > k]
    return later[0] if later else None


def next_chance(sweep: Sweep, k: int) -> int | None:
    """The next point after ``k`` on or below the chance diagonal (TPR <= FPR)."""
    pos, neg = float(sweep.positives), float(sweep.negatives)
    if pos <= 0 or neg <= 0:
        return None
    tp = np.asarray(sweep.tp[k + 1 :], dtype=np.float64)
    fp = np.asarray(sweep.fp[k + 1 :], dtype=np.float64)
    on = np.flatnonzero(tp * neg <= fp * pos)
    return None if on.size == 0 else k + 1 + int(on[0])
