"""Which sweep points a listing of a long sweep shows: the notable ones first.

A listing of the first and last points of a long sweep shows the least informative
ones (everything predicted negative, everything positive). A long sweep's excerpt
instead lists

- the **notable** points: the active one, each readout's (TPR at FPR <= x, FPR at
  TPR >= y), the goal's, the one with the largest F1 and the one with the largest
  informedness (TPR − FPR, the KS point), each marked with why it is listed;
- the two ends (above all scores, and everything predicted positive);
- and, while the budget of rows lasts, points evenly apart by rank between them,

with the points not listed counted between the rows. Ties among the largest F1 or
informedness go to the highest threshold (the fewest predicted positive).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.curves.operating import Readout
from threshold_lab.core.curves.peaks import f1_peak

#: What each notable point is called in a listing.
ACTIVE, GOAL, MAX_F1, MAX_INFORMEDNESS = "active", "goal", "max F1", "max informedness"


def notable_points(
    a: Analysis, readouts: Iterable[Readout] = (), goal_point: int | None = None
) -> dict[int, list[str]]:
    """Each notable sweep point of ``a`` and why it is notable, in the order the
    reasons are said: active, each readout, goal, max F1, max informedness.

    >>> from threshold_lab.core.analysis import analyse
    >>> from threshold_lab.core.data.presets import preset
    >>> notable_points(analyse(preset("canonical").data, 0.5))
    {2: ['active'], 4: ['max F1'], 1: ['max informedness']}
    """
    marks: dict[int, list[str]] = {}

    def add(point: int | None, why: str) -> None:
        if point is not None and why not in marks.get(point, []):
            marks.setdefault(point, []).append(why)

    add(a.point, ACTIVE)
    for r in readouts:
        add(r.point, r.asked)
    add(goal_point, GOAL)
    peak = f1_peak(a.sweep)
    if peak is not None and peak[1].value is not None:
        add(peak[0], MAX_F1)
    ks = a.curves.ks
    if ks.value.value is not None:
        add(ks.point, MAX_INFORMEDNESS)
    return marks


def excerpt(size: int, notable: Iterable[int], limit: int | None) -> list[int]:
    """The sweep points (of ``size``) a listing of at most ``limit`` rows shows, in
    sweep order: every point when they fit (or ``limit`` is None); else the notable
    ones, the two ends, and points evenly apart by rank while rows are left (the
    notable points are listed even past the limit; ``limit`` 0 lists none).

    >>> excerpt(10, [4], 20)
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    >>> excerpt(1000, [400, 401], 6)
    [0, 333, 400, 401, 666, 999]
    """
    if limit is None or size <= limit:
        return list(range(size))
    if limit == 0:
        return []
    chosen = {p for p in notable if 0 <= p < size} | {0, size - 1}
    room = limit - len(chosen)
    if room > 0:
        even = np.linspace(0, size - 1, room + 2).round().astype(np.int64)[1:-1]
        for p in even.tolist():
            if len(chosen) >= limit:
                break
            chosen.add(int(p))
    return sorted(chosen)


#: The words readouts of one kind share.
READOUT_WORDS = ("TPR at FPR <= ", "FPR at TPR >= ")


def reasons_text(reasons: Iterable[str], said: set[str] | None = None) -> str:
    """Why a point is listed, in one short phrase: readouts of one kind share their
    words (``TPR at FPR <= 0.001, 0.01; max F1``). A listing of several points passes
    one ``said``: a kind's words are then said once, where its first readout is, and
    later readouts of that kind say only what is their own (``at FPR <= 0.1``).

    >>> reasons_text(["TPR at FPR <= 0.001", "TPR at FPR <= 0.01", "max F1"])
    'TPR at FPR <= 0.001, 0.01; max F1'
    >>> said: set[str] = set()
    >>> reasons_text(["TPR at FPR <= 0.01"], said), reasons_text(["TPR at FPR <= 0.1"], said)
    ('TPR at FPR <= 0.01', 'at FPR <= 0.1')
    """
    parts: list[str] = []
    last = ""
    for why in reasons:
        for prefix in READOUT_WORDS:
            if why.startswith(prefix) and last == prefix:
                parts[-1] += ", " + why.removeprefix(prefix)
                break
        else:
            last = next((p for p in READOUT_WORDS if why.startswith(p)), "")
            if last and said is not None:
                if last in said:
                    why = why.split(" ", 1)[1]  # "at FPR <= 0.1": the metric was said
                said.add(last)
            parts.append(why)
    return "; ".join(parts)
