"""Reduce a long curve to what a terminal can draw, keeping its shape and one exact point.

Charts of a 10^7-row sweep cannot plot 10^7 points. Interior points on a
straight segment are dropped first (exactly, from integer counts where
given), then each of ``columns`` x-buckets keeps its first, last, lowest
and highest point, so every step and spike that a column can show survives.
The endpoints and the requested points (the active operating point and its
neighbours) are always kept.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import blocks, shifted

IntArray = npt.NDArray[np.intp]


def collinear_interior(
    x: npt.NDArray[np.number], y: npt.NDArray[np.number]
) -> npt.NDArray[np.bool_]:
    """True for each interior point lying on the line through its two neighbours.

    Exact when ``x`` and ``y`` are integer counts (the sweep's FP and TP).

    >>> collinear_interior(np.array([0, 1, 2, 2]), np.array([0, 1, 2, 3])).tolist()
    [False, True, False, False]
    """
    out = np.zeros(x.shape[0], dtype=bool)
    for b in blocks(1, x.shape[0] - 1):  # interior points, small temporaries
        before, after = shifted(b, -1), shifted(b, 1)
        dx1, dy1 = x[b] - x[before], y[b] - y[before]
        dx2, dy2 = x[after] - x[before], y[after] - y[before]
        out[b] = dx1 * dy2 == dy1 * dx2
    return out


class _Readable(Protocol):
    """Values read by a slice: an array, or an axis read lazily (counts over a total)."""

    def __getitem__(self, index: Any) -> Any: ...

    def __len__(self) -> int: ...


#: Points per block of the reduction: its temporaries stay small at 10^7 points.
BLOCK = 1 << 16


def reduce_curve(
    x: _Readable,
    y: _Readable,
    *,
    columns: int,
    keep: Iterable[int] = (),
    rising: bool = False,
) -> IntArray:
    """Indices of the points to draw, ascending; all of them when there are few.

    Parameters
    ----------
    x, y : (m,) arrays in drawing order (x non-decreasing, as the sweep is), or axes
        read a slice at a time (``Rates``): a block at a time, never whole
    columns : int
        Terminal columns available; at most about four points per column remain.
    keep : indices that must survive (the active point, its tie-group neighbours)
    rising : y never falls either (ROC, gains): then each bucket's points are found by
        bisection, and the reduction reads O(columns · log m) points, not all of them

    Interior points on a straight segment (:func:`collinear_interior`) are dropped;
    if more than ``4 * columns`` remain, the survivors are put in ``columns`` buckets
    of x, and each keeps its first and last survivor and the first with its lowest
    and highest y. One pass of small blocks: at 10^7 points no whole-array temporary.

    >>> x = np.arange(10_000); y = np.minimum(x, 5_000)
    >>> reduce_curve(x, y, columns=20, keep=[4_321]).tolist()
    [0, 4321, 5000, 9999]
    >>> reduce_curve(x, y, columns=20, keep=[4_321], rising=True).tolist()
    [0, 4321, 5000, 9999]
    """
    m = len(x)
    must = {0, m - 1, *(k for k in keep if 0 <= k < m)}
    if m <= 4 * columns:
        return np.arange(m, dtype=np.intp)
    limit = 4 * columns
    x0 = np.asarray(x[0:1]).astype(np.float64)[0]
    span = float(np.asarray(x[m - 1 : m]).astype(np.float64)[0] - x0) or 1.0
    buckets = _Buckets(columns)
    few: list[IntArray] = []  # every survivor, while there are at most ``limit``
    count = 0
    for lo in range(0, m, BLOCK):
        hi = min(m, lo + BLOCK)
        local, xa, ya, a = _survivors(x, y, lo, hi, m)
        survivors = local + lo
        count += survivors.shape[0]
        if count <= limit:
            few.append(survivors)
        elif rising:  # more than ``limit``: each bucket by bisection from here
            return np.unique(
                np.concatenate((_rising(x, y, m, buckets, x0, span), np.fromiter(must, np.intp)))
            )
        if survivors.shape[0]:
            at = local + (lo - a)
            buckets.add(survivors, xa[at], ya[at], x0, span)
    chosen = np.concatenate(few) if count <= limit else buckets.picked()
    return np.unique(np.concatenate((chosen, np.fromiter(must, dtype=np.intp))))


def _survivors(
    x: _Readable, y: _Readable, lo: int, hi: int, m: int
) -> tuple[IntArray, npt.NDArray[Any], npt.NDArray[Any], int]:
    """The points of ``lo .. hi - 1`` not on a straight segment, as offsets from
    ``lo``; and x, y read from ``a`` (one point before ``lo``) to one after ``hi``."""
    a, b = max(0, lo - 1), min(m, hi + 1)
    xa, ya = np.asarray(x[a:b]), np.asarray(y[a:b])
    straight = np.zeros(hi - lo, dtype=bool)
    first, last = max(lo, 1), min(hi, m - 1)  # the interior points of lo .. hi - 1
    if first < last:
        i = slice(first - a, last - a)
        before, after = slice(first - a - 1, last - a - 1), slice(first - a + 1, last - a + 1)
        dx1, dy1 = xa[i] - xa[before], ya[i] - ya[before]
        dx2, dy2 = xa[after] - xa[before], ya[after] - ya[before]
        straight[first - lo : last - lo] = dx1 * dy2 == dy1 * dx2
    return np.flatnonzero(~straight), xa, ya, a


#: Points a corner search reads as Python numbers before it reads windows of arrays.
NEAR = 8


class _Corners:
    """The points not on a straight segment, found on demand where x and y rise.

    A straight run of the curve (a long run of negatives or of positives alone, a
    segment from end to end) may span many buckets: it is read once, by galloping
    from where a search starts, and remembered (no corner in ``[start, corner)``), so
    every later search that starts inside it is answered without reading it again.
    Searches run bucket by bucket, left to right, so every point is read a bounded
    number of times: O(m) at worst, and near each bucket's ends otherwise.
    """

    def __init__(self, x: _Readable, y: _Readable, m: int) -> None:
        self.x, self.y, self.m = x, y, m
        self._ahead = (0, -1)  # no corner in [start, corner); corner is one (or m - 1)
        self._behind = (0, -1)  # no corner in (corner, end]; corner is one (or 0)

    def _near(self, lo: int, hi: int, forward: bool) -> int | None:
        """The first (or last) corner among points ``lo .. hi - 1``, read as Python
        numbers: most searches end within a few points of where they start, and this
        answers them without a window's arrays. None where there is none."""
        lo, hi = max(lo, 0), min(hi, self.m)
        a, b = max(0, lo - 1), min(self.m, hi + 1)
        xs = np.asarray(self.x[a:b]).tolist()
        ys = np.asarray(self.y[a:b]).tolist()
        order = range(lo, hi) if forward else range(hi - 1, lo - 1, -1)
        for i in order:
            if i <= 0 or i >= self.m - 1:
                return i  # the ends are corners
            k = i - a
            dx1, dy1 = xs[k] - xs[k - 1], ys[k] - ys[k - 1]
            dx2, dy2 = xs[k + 1] - xs[k - 1], ys[k + 1] - ys[k - 1]
            if dx1 * dy2 != dy1 * dx2:
                return i
        return None

    def next(self, i: int) -> int:
        """The first corner from ``i`` on (the last point is one)."""
        start, corner = self._ahead
        if start <= i <= corner:
            return corner
        near = self._near(i, i + NEAR, forward=True)
        if near is not None:
            self._ahead = (i, near)
            return near
        begin, width = i, 64
        found = self.m - 1
        while i < self.m:
            hi = min(self.m, i + width)
            local = _survivors(self.x, self.y, i, hi, self.m)[0]
            if local.shape[0]:
                found = i + int(local[0])
                break
            i, width = hi, width * 2
        self._ahead = (begin, found)
        return found

    def last(self, j: int) -> int:
        """The last corner before ``j`` (the first point is one)."""
        corner, end = self._behind
        if corner < j <= end + 1:
            return corner
        start, ahead = self._ahead
        if j == ahead + 1:
            return ahead
        if 0 < start < j <= ahead:
            # No corner in [start, j): the last is before the forward search's start.
            return self.last(start)
        near = self._near(j - NEAR, j, forward=False) if j > 0 else None
        if near is not None:
            self._behind = (near, j - 1)
            return near
        stop, width = j, 64
        found = 0
        while j > 0:
            lo = max(0, j - width)
            local = _survivors(self.x, self.y, lo, j, self.m)[0]
            if local.shape[0]:
                found = lo + int(local[-1])
                break
            j, width = lo, width * 2
        self._behind = (found, stop - 1)
        return found


def _rising(
    x: _Readable, y: _Readable, m: int, buckets: _Buckets, x0: Any, span: float
) -> IntArray:
    """:func:`reduce_curve`'s picks where x and y never fall: the first point of each
    bucket by bisection of the bucket (the same arithmetic as bucketing each point);
    there, a bucket's first survivor has its lowest y, and the first with its highest
    is the first survivor from where y first reaches its last survivor's y."""
    columns = buckets.columns
    targets = np.arange(1, columns, dtype=np.intp)
    lo, hi = np.zeros(columns - 1, dtype=np.intp), np.full(columns - 1, m, dtype=np.intp)
    while (lo < hi).any():  # the first point whose bucket is at least each target
        mid = (lo + hi) // 2
        at = np.minimum(mid, m - 1)
        reached = (buckets.bucket(np.asarray(x[at]), x0, span) >= targets) | (mid >= m)
        lo, hi = np.where(reached, lo, mid + 1), np.where(reached, mid, hi)
    starts = [0, *lo.tolist(), m]
    picked: list[int] = []
    corners = _Corners(x, y, m)
    for begin, stop in itertools.pairwise(starts):
        if begin >= stop:
            continue
        first = corners.next(begin)
        if first >= stop:
            continue  # no survivor in this bucket
        last = corners.last(stop)
        top = _first_at_least(y, float(np.asarray(y[last : last + 1])[0]), first, last)
        picked += [first, last, corners.next(top)]
    return np.asarray(picked, dtype=np.intp)


def _first_at_least(y: _Readable, value: float, lo: int, hi: int) -> int:
    """The first index in ``lo .. hi`` whose y is at least ``value`` (y never falls,
    and y at ``hi`` is ``value``)."""
    while lo < hi:
        mid = (lo + hi) // 2
        if float(np.asarray(y[mid : mid + 1])[0]) >= value:
            hi = mid
        else:
            lo = mid + 1
    return lo


class _Buckets:
    """Per x-bucket: its first and last survivor, and the first survivor with its
    lowest and highest y, gathered a block at a time. Buckets never fall along the
    curve, so a block holds a run of each of a few buckets, and only its first can
    carry on from the block before."""

    def __init__(self, columns: int) -> None:
        self.columns = columns
        self.first = np.full(columns, -1, dtype=np.intp)
        self.last = np.full(columns, -1, dtype=np.intp)
        self.low_at = np.full(columns, -1, dtype=np.intp)
        self.high_at = np.full(columns, -1, dtype=np.intp)
        self.low: list[Any] = [None] * columns
        self.high: list[Any] = [None] * columns

    def bucket(self, x: npt.NDArray[Any], x0: Any, span: float) -> IntArray:
        """Each x's bucket: the same float arithmetic, point by point, as ever."""
        scaled = (x.astype(np.float64) - x0) / span * self.columns
        out: IntArray = np.minimum(scaled.astype(np.intp), self.columns - 1)
        return out

    def add(
        self, index: IntArray, x: npt.NDArray[Any], y: npt.NDArray[Any], x0: Any, span: float
    ) -> None:
        """The survivors ``index`` (ascending), at ``x`` and ``y``."""
        ends = self.bucket(x[[0, -1]], x0, span)
        if ends[0] == ends[1]:  # the whole block in one bucket (most blocks)
            runs = [(int(ends[0]), 0, index.shape[0])]
        else:
            bucket = self.bucket(x, x0, span)
            cut = np.searchsorted(bucket, np.arange(ends[0] + 1, ends[1] + 1)).tolist()
            edges = [0, *cut, index.shape[0]]
            runs = [(int(bucket[lo]), lo, hi) for lo, hi in itertools.pairwise(edges) if lo < hi]
        for c, lo, hi in runs:
            part = y[lo:hi]
            low, high = lo + int(np.argmin(part)), lo + int(np.argmax(part))  # first hits
            if self.first[c] < 0:
                self.first[c] = index[lo]
                self.low[c], self.low_at[c] = y[low], index[low]
                self.high[c], self.high_at[c] = y[high], index[high]
            else:  # carried on from the block before: the earlier hit wins a tie
                if y[low] < self.low[c]:
                    self.low[c], self.low_at[c] = y[low], index[low]
                if y[high] > self.high[c]:
                    self.high[c], self.high_at[c] = y[high], index[high]
            self.last[c] = index[hi - 1]

    def picked(self) -> IntArray:
        seen = self.first >= 0
        return np.concatenate(
            (self.first[seen], self.last[seen], self.low_at[seen], self.high_at[seen])
        )
