"""The score axis in columns: how many rows of each class fall in each column.

The explorer's score strip draws every example on a horizontal score axis,
positives and negatives in two lanes, with the threshold as a line between
the predicted negatives and the predicted positives. The rows are binned once
per dataset and width; a threshold move only finds the line's column and
splits that one column, in O(columns).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Analysis, RowChange
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.metrics.confusion import predict
from threshold_lab.core.threshold import Threshold

IntArray = npt.NDArray[np.int64]


class ScoreBins:
    """One dataset's rows binned into ``usable`` score columns, per class.

    Scores take columns 1 .. usable-2 (linearly from the lowest to the highest
    score). The line stands in the threshold's own column, so its value can be
    read off the axis; the rows in that column are split around it: predicted
    positives move one column right, predicted negatives one left, so no glyph
    ever sits on the wrong side of it. ``hist[c][b]`` counts
    class ``c``'s rows in column ``b`` and ``above[c][b]`` those in columns
    ``b`` and higher.

    >>> from threshold_lab.core.analysis import analyse
    >>> from threshold_lab.core.data.presets import preset
    >>> a = analyse(preset("canonical").data, 0.5)
    >>> pos, neg, line = ScoreBins(a.data, 20).lane_counts(a)
    >>> line, pos.tolist()
    (9, [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1])
    >>> neg.tolist()
    [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0]
    """

    def __init__(self, data: Dataset, usable: int) -> None:
        scores = data.scores
        self.lo, self.hi = float(scores.min()), float(scores.max())
        self.usable = usable
        self.inner = usable - 3
        self.hist: dict[bool, IntArray] = {}
        self.above: dict[bool, IntArray] = {}
        self.sorted: dict[bool, npt.NDArray[np.float64]] = {}
        for cls in (True, False):
            s = scores[data.labels == cls]
            h = np.bincount(self.base(s), minlength=usable + 1)[: usable + 1]
            self.hist[cls] = h
            self.above[cls] = _at_or_above(h)
            if data.weighted:  # the sweep counts weights, not rows: count rows here
                self.sorted[cls] = np.sort(s)

    def moved(self, change: RowChange, data: Dataset) -> ScoreBins | None:
        """These bins (of ``change.before``) moved by one row to ``data``'s, in
        O(columns) and the same counts as binning ``data`` afresh; None where they
        cannot be (weighted rows, or the lowest or highest score changes)."""
        s, kind = change.score, change.kind
        if data.weighted or change.before.weighted or data.n == 0:
            return None
        if not (self.lo < s < self.hi if kind == "removed" else self.lo <= s <= self.hi):
            return None
        bins = object.__new__(ScoreBins)
        bins.lo, bins.hi, bins.usable, bins.inner = self.lo, self.hi, self.usable, self.inner
        bins.hist = {cls: h.copy() for cls, h in self.hist.items()}
        bins.sorted = {}
        column = self.column_of(s)
        if kind == "added":
            bins.hist[change.label][column] += 1
        else:
            bins.hist[change.label][column] -= 1
            if kind == "flipped":
                bins.hist[not change.label][column] += 1
        bins.above = {cls: _at_or_above(h) for cls, h in bins.hist.items()}
        return bins

    def base(self, s: npt.NDArray[np.float64]) -> npt.NDArray[np.intp]:
        """The column of each score before the threshold moves anything."""
        if self.hi > self.lo:
            with np.errstate(over="ignore"):
                span = self.hi - self.lo
            if np.isfinite(span):
                where = (s - self.lo) / span
            else:  # scores from -1e308 to 1e308 span more than a float holds: halves
                where = (s / 2 - self.lo / 2) / (self.hi / 2 - self.lo / 2)
            return 1 + np.round(where * self.inner).astype(np.intp)
        return np.full(s.shape[0], 1 + self.inner // 2, dtype=np.intp)

    def column_of(self, threshold: float) -> int:
        """The threshold's own column on the score axis: where its value falls
        between the lowest and highest score (clamped to them)."""
        t = min(max(float(threshold), self.lo), self.hi)
        return int(self.base(np.array([t]))[0])

    def at(
        self,
        threshold: Threshold,
        lowest_in: Threshold,
        predicted: tuple[int, int] | None = None,
    ) -> tuple[IntArray, IntArray, int]:
        """Lane counts and line column at ``threshold``; ``lowest_in`` is the lowest
        score predicted positive (None when nothing is). ``predicted`` is the rows of
        each class predicted positive (TP, FP) when the caller knows them, as the
        unweighted sweep does; otherwise they are counted here."""
        usable = self.usable
        if threshold is None or lowest_in is None:
            return (
                self.hist[True][:usable].copy(),
                self.hist[False][:usable].copy(),
                usable - 1,
            )
        line = self.column_of(threshold)
        out = []
        for cls in (True, False):
            h, above = self.hist[cls], self.above[cls]
            counts = np.zeros(usable, dtype=np.int64)
            if predicted is not None:
                admitted = predicted[0] if cls else predicted[1]
            else:
                srt = self.sorted[cls]
                admitted = int(srt.shape[0] - np.searchsorted(srt, threshold, side="left"))
            in_line_pos = admitted - int(above[line + 1])
            # Below the line: every row in columns < line, plus the line column's negatives.
            counts[:line] = h[:line]
            counts[line - 1] += int(h[line]) - in_line_pos
            # Predicted positives move one column right.
            counts[line + 1 : usable] = h[line : usable - 1]
            counts[line + 1] = in_line_pos
            out.append(counts)
        return out[0], out[1], line

    def lane_counts(self, a: Analysis) -> tuple[IntArray, IntArray, int]:
        """Glyphs per column in the positive and negative lanes at ``a``'s threshold,
        and the line's column (``a`` must analyse the rows these bins were made of)."""
        known = None if a.data.weighted else (int(a.counts.tp), int(a.counts.fp))
        return self.at(a.threshold, a.sweep.threshold_at(a.point), known)


def reject_split(
    bins: ScoreBins,
    counts: tuple[IntArray, IntArray],
    line: int,
    t_low: float,
    kept: tuple[int, int] | None = None,
) -> int | None:
    """A review band's reject column in lane counts already split at the accept line
    (``line``): the column of ``t_low``, its rows below ``t_low`` moved one column left
    (in place), so every row left of the column is rejected and every row from it to
    the line reviewed. ``kept`` is each class's rows scored at or above ``t_low`` (TP,
    FP) where the caller knows them (unweighted rows), else they are counted here.
    Returns the column, or None where ``t_low`` falls in the line's own column (at
    this width the band's rows share it with the line: nothing is moved)."""
    low = bins.column_of(t_low)
    if low >= line or low < 1:
        return None
    for i, cls in enumerate((True, False)):
        if kept is not None:
            at_or_above = kept[i]
        else:
            srt = bins.sorted[cls]
            at_or_above = int(srt.shape[0] - np.searchsorted(srt, t_low, side="left"))
        # The low column's rows at or above t_low: those of every column from it up,
        # less those of the columns above it (as binned, before the line moved any).
        in_low = at_or_above - int(bins.above[cls][low + 1])
        below = int(bins.hist[cls][low]) - in_low
        counts[i][low] -= below
        counts[i][low - 1] += below
    return low


def _at_or_above(hist: IntArray) -> IntArray:
    """Rows in each column and every column after it (and 0 past the last)."""
    return np.append(np.cumsum(hist[::-1])[::-1], 0)


def row_columns(
    data: Dataset, threshold: Threshold, usable: int
) -> tuple[npt.NDArray[np.intp], int]:
    """Each row's column and the line's column, placing every row by itself.

    The slow reference for :meth:`ScoreBins.lane_counts`, which gives the same
    counts without a pass over the rows (a property test holds them equal).
    """
    bins = ScoreBins(data, usable)
    base = bins.base(data.scores)
    positive = predict(data, threshold)
    if threshold is None or not positive.any():
        return np.minimum(base, usable - 2), usable - 1
    line = bins.column_of(threshold)
    return np.where(positive, base + 1, np.minimum(base, line - 1)), line


def axis_ticks(lo: float, hi: float) -> list[float]:
    """Round score values to label an axis from ``lo`` to ``hi``: multiples of 1, 2
    or 5 times a power of ten, four to seven of them, inside the range.

    >>> axis_ticks(0.1, 0.9)
    [0.2, 0.4, 0.6, 0.8]
    >>> axis_ticks(0.0, 1.0)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    >>> axis_ticks(-3.0, 12.0)
    [0.0, 5.0, 10.0]
    >>> axis_ticks(0.5, 0.5)
    [0.5]
    """
    if not hi > lo:
        return [lo]
    with np.errstate(over="ignore"):
        span = hi - lo
    if not np.isfinite(span):  # scores from -1e308 to 1e308: the ends alone
        return [lo, hi]
    best: list[float] = []
    for exponent in range(int(np.floor(np.log10(span))) - 1, int(np.ceil(np.log10(span))) + 1):
        for mantissa in (1, 2, 5):
            step = mantissa * 10.0**exponent
            first = np.ceil(lo / step - 1e-9)
            values = [float(round((first + k) * step, 12)) for k in range(int(span / step) + 2)]
            values = [v for v in values if lo - 1e-12 <= v <= hi + 1e-12]
            if 3 <= len(values) <= 7 and (not best or len(values) > len(best)):
                best = values
    return best or [lo, hi]
