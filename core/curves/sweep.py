"""The exact threshold sweep: one operating point per distinct score.

Point 0 is the above-all sentinel (nothing predicted positive). Point k
(k >= 1) is the threshold equal to the k-th largest distinct score: with the
``score >= threshold`` rule every row tied at that score enters at once.
Row order never changes any result.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import BLOCK, blocks
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.metrics.formulas import RATES, Cells
from threshold_lab.core.metrics.metric import Metric, ratio
from threshold_lab.core.threshold import Threshold, check_threshold

CountArray = npt.NDArray[np.number[Any]]

_ONE = Fraction(1)


_A = TypeVar("_A", bound="np.ndarray[Any, Any]")


def _readonly(a: _A) -> _A:
    a.flags.writeable = False
    return a


@dataclass(frozen=True, eq=False)
class Sweep:
    """Cumulative counts at every operating point, descending thresholds.

    Attributes
    ----------
    thresholds : (m,) float64
        The distinct scores, strictly descending.
    tp, fp : (m + 1,) int64 (float64 when weighted)
        Counts predicted positive at each point; index 0 is above all scores.
    positives, negatives : int or float
        Actual class totals (the ROC denominators).

    >>> from threshold_lab.core.data.presets import preset
    >>> s = build_sweep(preset("canonical").data)
    >>> s.thresholds.tolist(), s.tp.tolist(), s.fp.tolist()
    ([0.9, 0.8, 0.4, 0.1], [0, 1, 2, 2, 3], [0, 0, 1, 2, 2])
    """

    thresholds: npt.NDArray[np.float64]
    tp: CountArray
    fp: CountArray
    positives: int | float
    negatives: int | float
    #: What was worked out of these counts once and is read again (the ROC AUC's
    #: running sums, :mod:`threshold_lab.core.curves.roc`): held by the sweep itself,
    #: not in a weak dictionary, whose callbacks at each sweep's end can swallow a
    #: Ctrl-C that lands in them (Python prints it and carries on).
    memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)

    @property
    def size(self) -> int:
        """Number of operating points, the above-all point included."""
        return int(self.tp.shape[0])

    @property
    def weighted(self) -> bool:
        return bool(self.tp.dtype.kind == "f")

    def whole_counts(self, limit: float = 2**53) -> bool:
        """True when every count is a whole number held exactly and the total is
        below ``limit``: unweighted rows, or whole weights (multiplicities, as
        aggregated counts are) that add up without rounding."""
        if not self.weighted:
            return True
        if not float(self.positives) + float(self.negatives) < limit:
            return False
        return all(
            bool(np.all(self.tp[b] == np.floor(self.tp[b])))
            and bool(np.all(self.fp[b] == np.floor(self.fp[b])))
            for b in blocks(0, self.size)
        )

    def threshold_at(self, index: int) -> Threshold:
        """The threshold of point ``index``: None (above all) for 0."""
        return None if index == 0 else float(self.thresholds[index - 1])

    def index_of(self, threshold: Threshold) -> int:
        """The operating point a threshold selects: how many distinct scores are >= it.

        >>> from threshold_lab.core.data.presets import preset
        >>> s = build_sweep(preset("canonical").data)
        >>> [s.index_of(t) for t in (None, 0.95, 0.9, 0.85, 0.8, 0.5, 0.0)]
        [0, 0, 1, 1, 2, 2, 4]
        """
        t = check_threshold(threshold)
        if t is None:
            return 0
        # thresholds descend; count those >= t via the ascending view.
        ascending = self.thresholds[::-1]
        return int(ascending.shape[0] - np.searchsorted(ascending, t, side="left"))

    def counts_at(self, index: int) -> Counts:
        """The confusion counts of point ``index``."""
        tp = self.tp[index].item()
        fp = self.fp[index].item()
        return Counts(tp=tp, fp=fp, tn=self.negatives - fp, fn=self.positives - tp)

    def point_metrics(self, index: int) -> dict[str, Metric]:
        """TPR, FPR, precision and recall of point ``index``, undefined with reasons.

        >>> from threshold_lab.core.data.presets import preset
        >>> m = build_sweep(preset("canonical").data).point_metrics(0)
        >>> m["precision"].reason, m["tpr"].short()
        ('No predicted positives (TP+FP=0)', '0/3')
        """
        tp, fp = self.tp[index].item(), self.fp[index].item()
        return {
            name: ratio(num, den, reason=reason)
            for name, (num, den, reason) in self.rate_parts(tp, fp).items()
        }

    def rate_parts(self, tp: Any, fp: Any) -> dict[str, tuple[Any, Any, str]]:
        """Numerator, denominator and the reason a zero denominator gives, of each
        point rate (the formula table's); ``tp`` and ``fp`` are counts of one point,
        or arrays of many."""
        cells = Cells(tp, fp, pos=self.positives, neg=self.negatives)
        out = {}
        for name in ("tpr", "fpr", "precision", "recall"):
            rate = RATES["recall" if name == "tpr" else name]
            num, den = rate.parts(cells, _ONE)
            out[name] = (num, den, rate.why(cells))
        return out

    def entering(self, index: int) -> tuple[int | float, int | float]:
        """(positives, negatives) that enter together at point ``index``; (0, 0) at 0.

        >>> from threshold_lab.core.data.presets import preset
        >>> build_sweep(preset("canonical").data).entering(2)
        (1, 1)
        """
        if index == 0:
            return 0, 0
        return (
            (self.tp[index] - self.tp[index - 1]).item(),
            (self.fp[index] - self.fp[index - 1]).item(),
        )


_BIT = np.uint64(1)
#: XOR with it maps unsigned keys, descending, onto int64 keys ascending (the sign
#: bit flipped turns the unsigned order into the signed one; the rest inverted, the
#: order reversed): numpy's int64 value sort is SIMD and faster than its uint64 one.
_DESCENDING = np.uint64((1 << 63) - 1)
#: A double's bits less its sign: its magnitude's order.
_MAGNITUDE = np.uint64((1 << 63) - 1)
_SIGN = np.uint64(1 << 63)
#: The centre of the 63-bit scale of a mixed-sign key (see :func:`_centred`).
_CENTRE = np.uint64(1 << 62)


def _keyed(
    scores: npt.NDArray[np.float64], labels: npt.NDArray[np.bool_]
) -> tuple[Any, int, _Decoder]:
    """Each row as one 64-bit key, sorted by score descending: a score's order in the
    top 63 bits, its label in the lowest, every bit but the top one inverted (keys
    ascending as int64 are descending as unsigned, :data:`_DESCENDING`); with where
    the keys of the scores below 0 start, and how value bits read back as scores.
    Two codings:

    - split (the decoder's offset None): the score's bits less the sign bit; the rows
      from ``top`` on are the scores below 0, sorted apart after the rest, their
      bits (label too) inverted (larger bits, lower score);
    - centred (an offset): every row on one scale centred at 2^62, above it by the
      magnitude's bits less the offset for a score >= 0, below it by as much for a
      score below 0 (:func:`_centred`); ``top`` is the row count.

    A float's sign bit is what makes room for the label: the bits of a score >= 0
    ascend with it (-0.0 loses its sign and is 0.0), and the inverted bits of a
    score below 0 do, so apart from the sign each fits in 63 bits. Scores of both
    signs are put on one centred scale where their magnitudes span under 2^62 (some
    1,023 binary orders of magnitude: logits, margins, anything but a mix of
    denormals and numbers of 2 and more), so that one sort orders them; otherwise
    the scores below 0 are sorted apart from the rest, after them. A value sort of
    the keys is far faster than an argsort carrying the labels."""
    n = scores.shape[0]
    lowest, highest = float(scores.min()), float(scores.max())
    if lowest < 0 <= highest:
        offset = max(0, int(np.float64(max(highest, -lowest)).view(np.uint64)) - _SPAN)
        centred = _centred(scores, labels, offset)
        if centred is not None:
            key, zero = centred
            key.view(np.int64).sort()
            return key, n, _Decoder(offset, n, zero)
        # Too wide a span for one scale: the scores >= 0 first, then those below,
        # each in row order (np.extract copies a masked part faster than np.compress).
        mask = scores < 0
        top = n - int(np.count_nonzero(mask))
        key = np.left_shift(scores.view(np.uint64), _BIT)  # the sign bit drops off
        np.bitwise_or(key, labels, out=key, casting="unsafe")
        key = np.concatenate((np.extract(~mask, key), np.extract(mask, key)))
        del mask
        key[:top] ^= _DESCENDING
        key[top:] ^= _SIGN  # below 0 inverted (larger bits, lower score), then flipped
    else:
        top = 0 if highest < 0 else n
        # Inverted where every score is below 0, and flipped: one XOR.
        flip = _SIGN if top == 0 else _DESCENDING
        bits = scores.view(np.uint64)
        key = np.empty(n, dtype=np.uint64)
        for b in blocks(0, n):
            k = key[b]
            np.left_shift(bits[b], _BIT, out=k)  # the sign bit drops off
            np.bitwise_or(k, labels[b], out=k, casting="unsafe")
            k ^= flip
    key[:top].view(np.int64).sort()
    key[top:].view(np.int64).sort()
    return key, top, _Decoder(None, top, False)


#: The magnitudes a centred key holds: 2^62 values either side of its centre.
_SPAN = (1 << 62) - 1


def _centred(
    scores: npt.NDArray[np.float64], labels: npt.NDArray[np.bool_], offset: int
) -> tuple[Any, bool] | None:
    """Keys on one scale for scores of both signs, ready for the int64 sort, and
    whether a score is 0; None where a magnitude other than 0 is ``offset`` or less
    (the span is too wide for 63 bits).

    On the scale a score >= 0 is 2^62 plus its magnitude's bits less ``offset`` (0
    and -0.0 at 2^62 itself), and a score below 0 is 2^62 − 1 less them (their bits
    inverted), so the scale ascends with the score within 63 bits; the key is that
    shifted up past the label's bit, the label, flipped for the descending sort
    (:data:`_DESCENDING`). A block at a time, without branches: the sign bit spread
    over a word inverts with one XOR."""
    n = scores.shape[0]
    bits = scores.view(np.uint64)
    off = np.uint64(offset)
    key = np.empty(n, dtype=np.uint64)
    sign = np.empty(min(BLOCK, n), dtype=np.int64)
    zero = False
    for b in blocks(0, n):
        k, s = key[b], sign[: b.stop - b.start]
        spread = s.view(np.uint64)
        np.bitwise_and(bits[b], _MAGNITUDE, out=k)
        np.right_shift(bits[b].view(np.int64), 63, out=s)  # -1 below 0 (and for -0.0)
        if int(k.min()) == 0:  # a 0: the least other magnitude, 0 wrapped out of the way
            zero = True
            k -= _BIT
            least = int(k.min()) + 1
            k += _BIT
            np.putmask(spread, k == 0, 0)  # -0.0 is 0
            np.maximum(k, off, out=k)  # 0 stays 0
        else:
            least = int(k.min())
        if least <= offset:
            return None
        k -= off
        k ^= spread  # inverted below 0: 2^64 − 1 less it, below the centre once added
        k += _CENTRE
        k <<= _BIT
        np.bitwise_or(k, labels[b], out=k, casting="unsafe")
        k ^= _DESCENDING
    return key, zero


class _Decoder:
    """Value bits (keys less their label bit) back to scores, in place, a block at
    a time: a split key's part below 0 inverted, a centred key's scale read back
    (with two reused buffers)."""

    def __init__(self, offset: int | None, top: int, zero: bool) -> None:
        self.offset, self.top, self.zero = offset, top, zero
        if offset is not None:
            self.off = np.uint64(offset)
            size = min(BLOCK, top)  # a centred key's ``top`` is its row count
            self.spread = np.empty(size, dtype=np.uint64)
            self.nonzero = np.empty(size if zero else 0, dtype=np.uint64)

    def __call__(self, v: Any, start: int) -> None:
        """Decode ``v``, the values from ``start`` on (from ``top`` on they are the
        part below 0 of a split key)."""
        if self.offset is None:
            if start + v.shape[0] > self.top:
                part = v[max(self.top - start, 0) :]
                np.invert(part, out=part)  # below 0: the sign again
            return
        s = self.spread[: v.shape[0]]
        v -= _CENTRE  # below 0: 2^64 − 1 less the magnitude, the top bit set
        np.right_shift(v.view(np.int64), 63, out=s.view(np.int64))
        v ^= s  # the magnitude's bits less the offset
        if self.zero:
            nz = self.nonzero[: v.shape[0]]
            np.minimum(v, _BIT, out=nz)
            np.negative(nz, out=nz)  # all ones but for 0
            v += self.off
            v &= nz  # 0 stays 0
        else:
            v += self.off
        s &= _SIGN
        v |= s


def _unweighted(
    scores: npt.NDArray[np.float64], labels: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    """Thresholds descending and TP, FP at each point, of unweighted rows: one value
    sort of packed keys (:func:`_keyed`) and a few passes, no argsort.

    In descending key order a tie group ends where the value bits change (and where
    the scores below 0 start), and the positives up to there are a running count of
    the label bits. With every score distinct the sorted keys are the thresholds."""
    n = scores.shape[0]
    key, top, decode = _keyed(scores, labels)
    runs = _label_runs(key, top)
    if runs is not None:
        value, tp, fp, first_below = runs
        del key
        for b in blocks(0, value.shape[0]):
            decode(value[b], b.start - first_below + top)
        return value.view(np.float64), tp, fp
    tp = np.empty(n + 1, dtype=np.int64)
    fp = np.empty(n + 1, dtype=np.int64)
    tp[0] = fp[0] = 0
    m = _rows(key, top, decode, tp[1:], fp[1:])
    if m == n:  # every score its own group: the keys became the thresholds
        return key.view(np.float64), tp, fp
    # Runs are many here (over a quarter of the rows, or of those sampled), so groups
    # usually are too: a copy only where the rows dropped are most of the arrays.
    value, tp, fp = key[:m], tp[: m + 1], fp[: m + 1]
    if 2 * m < n:
        value, tp, fp = value.copy(), tp.copy(), fp.copy()
    return value.view(np.float64), tp, fp


def _rows(
    key: Any,
    top: int,
    decode: _Decoder,
    tp: npt.NDArray[np.int64],
    fp: npt.NDArray[np.int64],
) -> int:
    """One pass over sorted keys, a block at a time (each step in the cache), that
    leaves each tie group's score and counts at its place: the running count of
    positives (the label bits, inverted from ``top`` on, summed) and of negatives at
    each group's last row, kept where the value changes to the next row's (or the
    part below 0 of a split key starts, or the rows end), moved down to the front of
    ``key``, ``tp`` and ``fp``; each key turned into its score. Returns the number of
    groups. A block whose rows are all kept, with none dropped before it, is written
    where it is."""
    n = key.shape[0]
    size = min(BLOCK, n)
    rows = np.arange(1, size + 1, dtype=np.int64)
    change = np.empty(size, dtype=bool)
    t_buf, f_buf = np.empty(size, dtype=np.int64), np.empty(size, dtype=np.int64)
    carry, m = 0, 0
    for b in blocks(0, n):
        length = b.stop - b.start
        k, ch = key[b], change[:length]
        # The next block's first key, still flipped: the last row's value changes
        # unless the two differ in the label bit alone.
        last = b.stop == n or b.stop == top or bool((key[b.stop] ^ key[b.stop - 1]) > 1)
        in_place = m == b.start
        t, f = (tp[b], fp[b]) if in_place else (t_buf[:length], f_buf[:length])
        k ^= _DESCENDING  # unflipped
        np.bitwise_and(k.view(np.int64), 1, out=t)
        if b.stop > top:
            t[max(top, b.start) - b.start :] ^= 1  # inverted with the rest of those keys
        t[0] += carry
        np.cumsum(t, out=t)
        carry = int(t[-1])
        k >>= _BIT
        np.not_equal(k[:-1], k[1:], out=ch[:-1])
        ch[-1] = last
        if b.start < top < b.stop:
            ch[top - 1 - b.start] = True
        decode(k, b.start)
        kept = int(np.count_nonzero(ch))
        if kept == length:
            np.subtract(rows[:length], t, out=f)  # FP: the rows so far less the TP
            if b.start:
                f += b.start
            if not in_place:
                key[m : m + length] = k
                tp[m : m + length] = t
                fp[m : m + length] = f
        else:
            keep = np.flatnonzero(ch)
            for out, part, inside in ((key, k, True), (tp, t, in_place)):
                if inside and m + kept > b.start:  # overlapping: gathered apart first
                    out[m : m + kept] = part[keep]
                else:  # "clip" writes straight to ``out`` (every index is in range)
                    np.take(part, keep, out=out[m : m + kept], mode="clip")
            # FP only at the rows kept: the rows up to each, less its TP (written above).
            at = fp[m : m + kept]
            np.add(keep, b.start + 1, out=at)
            at -= tp[m : m + kept]
        m += kept
    return m


#: Rows in each stretch :func:`_label_runs` samples.
_SAMPLE = 1024


def _label_runs(
    key: Any, top: int
) -> tuple[Any, npt.NDArray[np.int64], npt.NDArray[np.int64], int] | None:
    """The sweep's value bits, TP and FP, and the first group below 0 of a split key
    (:class:`_Decoder` reads the values), from sorted flipped keys read by runs of
    equal keys, where scores are tied: a run is rows of one score and one label (a
    tie group's positives and its negatives are each one run), so its length is that
    label's count in the group, and only the runs, not the rows, are summed. None
    where runs are many (nearly every score distinct), which reads faster row by row."""
    n = key.shape[0]
    if n > 64 * _SAMPLE:  # runs counted in 64 stretches first: most sweeps stop here
        starts = range(0, n - _SAMPLE, (n - _SAMPLE) // 63)
        changes = sum(
            int(np.count_nonzero(key[s + 1 : s + _SAMPLE] != key[s : s + _SAMPLE - 1]))
            for s in starts
        )
        if changes * 4 > len(starts) * (_SAMPLE - 1):
            return None
    change = np.empty(n, dtype=bool)
    np.not_equal(key[1:], key[:-1], out=change[:-1])
    change[-1] = True
    if 0 < top < n:
        change[top - 1] = True
    if int(np.count_nonzero(change)) * 4 > n:  # counted before the runs are listed
        return None
    ends = np.flatnonzero(change)
    del change
    r = ends.shape[0]
    at = key[ends]
    at ^= _DESCENDING  # unflipped
    label = (at & _BIT).astype(np.int64)
    below = ends >= top
    label[below] ^= 1  # inverted with the rest of those keys
    value = at >> _BIT
    lengths = np.diff(ends, prepend=-1)
    # A tie group's last run: where the next run's score differs (or the part below 0
    # starts), and the last run.
    last = np.empty(r, dtype=bool)
    np.not_equal(value[1:], value[:-1], out=last[:-1])
    last[-1] = True
    if 0 < top < n:
        last[int(np.searchsorted(ends, top)) - 1] = True
    group = np.flatnonzero(last)
    m = group.shape[0]
    tp = np.empty(m + 1, dtype=np.int64)
    tp[1:] = np.cumsum(lengths * label)[group]
    fp = np.empty(m + 1, dtype=np.int64)
    np.add(ends[group], 1, out=fp[1:])
    fp[1:] -= tp[1:]
    tp[0] = fp[0] = 0
    return value[group], tp, fp, int(np.searchsorted(ends[group], top))


def _run_ends(desc: npt.NDArray[np.float64]) -> npt.NDArray[np.intp]:
    """Index of the last row of each run of equal scores in a descending array.

    Counts taken there include the whole tie group, so tied rows enter together.
    """
    return np.flatnonzero(np.append(desc[1:] != desc[:-1], True))


def build_sweep(data: Dataset) -> Sweep:
    """Build the exact sweep in O(n log n) with no Python loop over rows.

    Ties: rows are sorted once, the ends of each run of equal scores are
    found, and counts are taken at those ends, so tied rows are one point.
    """
    scores, labels, weights = data.scores, data.labels, data.weights
    if weights is None:
        if scores.shape[0] == 0:
            thresholds = np.empty(0, dtype=np.float64)
            tp, fp = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
        else:
            thresholds, tp, fp = _unweighted(scores, labels)
    else:
        order = np.argsort(scores, kind="stable")[::-1]
        desc = scores[order]
        w = weights[order]
        pos = labels[order]
        ends = _run_ends(desc)
        thresholds = desc[ends]
        tp = np.concatenate(([0.0], np.cumsum(np.where(pos, w, 0.0))[ends]))
        fp = np.concatenate(([0.0], np.cumsum(np.where(pos, 0.0, w))[ends]))
    return _sweep_of(thresholds, tp, fp)


def first_not_above(thresholds: npt.NDArray[np.float64], score: float) -> int:
    """How many of the descending ``thresholds`` lie above ``score``: the index of the
    first one at most ``score``. A search of the reversed view: no copy, where negating
    the thresholds to search them would copy every one."""
    ascending = thresholds[::-1]
    return int(ascending.shape[0] - np.searchsorted(ascending, score, side="right"))


def _point_of(sweep: Sweep, score: float) -> tuple[int, bool]:
    """(k, found): the point whose threshold is ``score`` (found), or the index
    where a point for it would go (thresholds are descending)."""
    above = first_not_above(sweep.thresholds, score)
    found = above < sweep.thresholds.shape[0] and sweep.thresholds[above] == score
    return above + 1, bool(found)


def _sweep_of(thresholds: Any, tp: CountArray, fp: CountArray) -> Sweep:
    """A Sweep of these arrays (made read-only). The class totals are the running
    sums' last values, not sums of their own: with weights, separately rounded
    totals let TN = N - FP dip below zero, and MCC took the root of that."""
    return Sweep(
        thresholds=_readonly(thresholds),
        tp=_readonly(tp),
        fp=_readonly(fp),
        positives=tp[-1].item(),
        negatives=fp[-1].item(),
    )


def _counted(sweep: Sweep, weight: float) -> Any:
    """One row's count in the sweep's own type: its weight, or 1 unweighted."""
    return weight if sweep.weighted else int(weight)


def _shifted_copy(
    counts: CountArray, k: int, by: Any, *, drop: int | None = None, insert: bool = False
) -> CountArray:
    """``counts`` with ``by`` added from point ``k`` on, in one pass over a new array:
    point ``drop`` left out first, or point ``k`` inserted first (a copy of point
    k − 1), where asked. (A copy and then an add over the suffix read and wrote the
    suffix twice: 72 MB each at 9·10^6 points, on every edit.)"""
    m = counts.shape[0]
    size = m - (drop is not None) + insert
    out = np.empty(size, dtype=counts.dtype)
    if insert:
        out[:k] = counts[:k]
        out[k] = counts[k - 1] + by
        np.add(counts[k:], by, out=out[k + 1 :])
    elif drop is not None:  # drop == k: the points after it move up one
        out[:k] = counts[:k]
        np.add(counts[k + 1 :], by, out=out[k:])
    else:
        out[:k] = counts[:k]
        np.add(counts[k:], by, out=out[k:])
    return out


def sweep_with(
    sweep: Sweep, score: float, label: bool, weight: float = 1.0, *, reuse: bool = False
) -> Sweep:
    """The sweep after adding one row, in O(m): no sort.

    A new distinct score inserts a point; a score already present joins its tie group.
    ``reuse`` lets it change ``sweep``'s counts of the row's class in place instead
    of copying them: only where :func:`sweep_without` made them a moment ago for a
    row of the same class, in the same edit, and nothing else holds them.

    >>> from threshold_lab.core.data.presets import preset
    >>> s = sweep_with(build_sweep(preset("canonical").data), 0.5, True)
    >>> s.thresholds.tolist(), s.tp.tolist(), s.fp.tolist()
    ([0.9, 0.8, 0.5, 0.4, 0.1], [0, 1, 2, 3, 3, 4], [0, 0, 1, 1, 2, 2])
    """
    k, found = _point_of(sweep, score)
    tp, fp = sweep.tp, sweep.fp
    thresholds = sweep.thresholds
    w = _counted(sweep, weight)
    zero = tp.dtype.type(0)
    if not found:  # a new point k, its counts those of the point above it, then the row
        thresholds = np.insert(thresholds, k - 1, score)
        tp = _shifted_copy(tp, k, w if label else zero, insert=True)
        fp = _shifted_copy(fp, k, zero if label else w, insert=True)
        return _sweep_of(thresholds, tp, fp)
    if reuse:  # 80 MB per array at 10^7 points: not copied twice in one edit
        counts = tp if label else fp
        counts.flags.writeable = True
        counts[k:] += w
    elif label:
        tp, fp = _shifted_copy(tp, k, w), fp  # fp is unchanged: shared, read-only
    else:
        tp, fp = tp, _shifted_copy(fp, k, w)
    return _sweep_of(thresholds, tp, fp)


def sweep_flipped(sweep: Sweep, score: float, label: bool, weight: float = 1.0) -> Sweep:
    """The sweep after the row at ``score`` changes class from ``label``, in one pass
    over each count array (the point stays: the row is still there).

    >>> from threshold_lab.core.data.presets import preset
    >>> s = sweep_flipped(build_sweep(preset("canonical").data), 0.8, False)
    >>> s.tp.tolist(), s.fp.tolist()
    ([0, 1, 3, 3, 4], [0, 0, 0, 1, 1])
    """
    k, found = _point_of(sweep, score)
    if not found:
        raise ValueError(f"no sweep point at score {score!r}")
    w = _counted(sweep, weight)
    tp = _shifted_copy(sweep.tp, k, -w if label else w)
    fp = _shifted_copy(sweep.fp, k, w if label else -w)
    return _sweep_of(sweep.thresholds, tp, fp)


def sweep_without(
    sweep: Sweep, score: float, label: bool, weight: float = 1.0, *, keep_point: bool | None
) -> Sweep:
    """The sweep after removing one row at ``score``, in O(m).

    ``keep_point`` says whether another row still has that score; if none does,
    the point goes too. None: unweighted rows, whose sweep knows (the point's group
    has more rows than this one).

    >>> from threshold_lab.core.data.presets import preset
    >>> s = sweep_without(build_sweep(preset("canonical").data), 0.9, True, keep_point=False)
    >>> s.thresholds.tolist(), s.tp.tolist(), s.fp.tolist()
    ([0.8, 0.4, 0.1], [0, 1, 1, 2], [0, 1, 2, 2])
    """
    k, found = _point_of(sweep, score)
    if not found:
        raise ValueError(f"no sweep point at score {score!r}")
    if keep_point is None:
        if sweep.weighted:
            raise ValueError("weighted rows: say whether another row keeps the point")
        keep_point = sum(sweep.entering(k)) > 1
    thresholds = sweep.thresholds
    w = -_counted(sweep, weight)
    zero = sweep.tp.dtype.type(0)
    if keep_point:  # the unchanged class's counts are shared (read-only)
        tp = _shifted_copy(sweep.tp, k, w) if label else sweep.tp
        fp = sweep.fp if label else _shifted_copy(sweep.fp, k, w)
    else:  # drop point k, and lower the points after it
        thresholds = np.delete(thresholds, k - 1)
        tp = _shifted_copy(sweep.tp, k, w if label else zero, drop=k)
        fp = _shifted_copy(sweep.fp, k, zero if label else w, drop=k)
    return _sweep_of(thresholds, tp, fp)
