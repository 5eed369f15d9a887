"""Long arrays a block at a time, so that temporaries stay small.

A whole-array expression over a 10^7-point sweep makes one 80 MB temporary per
step; a summary with five steps needs 400 MB at once. Summed block by block the
same work needs a few MB, which keeps ``report`` on 10^7 rows under 1 GiB.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy as np
import numpy.typing as npt

#: Elements per block: large enough that numpy's per-call cost is negligible (a
#: few microseconds a call, 153 blocks at 10^7), small enough that a block's
#: temporaries (512 KiB each) stay in the cache between one step and the next; at
#: 2^20 each step went out to memory, and the ROC area took twice as long.
BLOCK = 1 << 16


def blocks(start: int, stop: int, size: int | None = None) -> Iterator[slice]:
    """Consecutive slices covering ``start:stop``, each at most ``size`` (default
    :data:`BLOCK`, read at each call so tests can shrink it) long.

    >>> [(s.start, s.stop) for s in blocks(1, 8, size=3)]
    [(1, 4), (4, 7), (7, 8)]
    >>> list(blocks(5, 5))
    []
    """
    step = size or BLOCK
    for lo in range(start, stop, step):
        yield slice(lo, min(lo + step, stop))


def shifted(s: slice, by: int) -> slice:
    """``s`` moved ``by`` places: the previous elements of a block are ``shifted(b, -1)``.

    >>> shifted(slice(3, 7), -1)
    slice(2, 6, None)
    """
    return slice(s.start + by, s.stop + by)


#: Values per BLAS call in :func:`dot`: under the size from which BLAS splits a dot
#: product across its threads (OpenBLAS: above 10^4 values).
DOT_BLOCK = 1 << 13


def dot(a: npt.NDArray[Any], b: npt.NDArray[Any]) -> float:
    """The sum of ``a * b``, as ``np.dot`` gives it, but never on BLAS's threads.

    Above 10^4 values OpenBLAS splits a dot product across its threads, and wakes
    them for it at every call: core sums products a block at a time (DeLong's
    variance, the curve areas, each bootstrap replicate), and on a machine with
    other work that waking cost many times more than the arithmetic. Split into calls under that
    size, each product runs on this thread, and the sum no longer depends on how
    many threads BLAS has (split across threads, it did in its last digits). Up
    to :data:`DOT_BLOCK` values it is one ``np.dot``, bit for bit; the blocks'
    sums are added exactly (``math.fsum``).

    >>> dot(np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0]))
    32.0
    >>> dot(np.ones(3 * DOT_BLOCK + 5), np.full(3 * DOT_BLOCK + 5, 2.0))
    49162.0
    """
    n = a.shape[0]
    if n <= DOT_BLOCK:
        return float(np.dot(a, b))
    return math.fsum(float(np.dot(a[s], b[s])) for s in blocks(0, n, DOT_BLOCK))


def int_dot(a: npt.NDArray[np.int64], b: npt.NDArray[np.int64]) -> int:
    """The sum of ``a * b`` of two int64 arrays, exactly (numpy's integer dot product
    is its own loop, never BLAS); the caller keeps every partial sum within int64.

    >>> int_dot(np.array([1, 2, 3]), np.array([4, 5, 6]))
    32
    """
    return int(np.dot(a, b))
