"""Long arrays a block at a time, so that temporaries stay small.

A whole-array expression over a 10^7-point sweep makes one 80 MB temporary per
step; a summary with five steps needs 400 MB at once. Summed block by block the
same work needs a few MB, which keeps ``report`` on 10^7 rows under 1 GiB.
"""

from __future__ import annotations

from collections.abc import Iterator

#: Elements per block: large enough that numpy's per-call cost is negligible.
BLOCK = 1 << 20


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
