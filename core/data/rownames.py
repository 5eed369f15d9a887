"""Row names that survive edits without copying ten million strings.

A row is named by its id, or by its position from 1 when the file has no
ids. Once rows are added or removed, those names must stay with their rows,
so :class:`RowNames` keeps the original names (``base``) and, per row, an
index into them; a name added by an edit is kept in ``extras`` and indexed
from -1 down. Removing or adding a row is one numpy operation on the index.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import overload

import numpy as np
import numpy.typing as npt
from threshold_lab.core.errors import printable

IndexArray = npt.NDArray[np.int64]


def shown(name: str) -> str:
    """A name as it can be shown on one line: every character that is not printable
    (newlines, tabs, escape sequences, bidi overrides, lone surrogates) spelled as
    Python spells it in a string, so a file's ids cannot move the cursor, colour
    the terminal or hide text.

    >>> shown("a"), shown("b\\nnew"), shown("\\x1b[31mred"), shown("x\\u202ey")
    ('a', 'b\\\\nnew', '\\\\x1b[31mred', 'x\\\\u202ey')
    """
    return printable(name)


def positional_index(name: str) -> int | None:
    """The 0-based position a positional name (``"3"``) stands for, or None (a name of
    more digits than any count of rows has is none, and is not turned into an integer).

    >>> positional_index("3"), positional_index("03"), positional_index("r3")
    (2, None, None)
    """
    if len(name) > 19:  # past 10^19 rows; Python refuses 4300 digits with a ValueError
        return None
    if name.isascii() and name.isdigit() and name == str(int(name)) and int(name) >= 1:
        return int(name) - 1
    return None


def find_in(base: Sequence[str], name: str) -> int | None:
    """The position of ``name`` in a sequence of distinct ids, or None.

    A sequence may offer a faster ``position`` (pyarrow's column does)."""
    position = getattr(base, "position", None)
    if position is not None:
        found: int | None = position(name)
        return found
    try:
        return base.index(name)
    except ValueError:
        return None


class RowNames(Sequence[str]):
    """The names of edited rows: each an original name (an id, or a position
    when ``base`` is None) or one added by an edit.

    >>> names = RowNames.of(None, 3).without(0).plus("new4")
    >>> list(names), names.position("3"), names.position("1")
    (['2', '3', 'new4'], 1, None)
    """

    def __init__(
        self, base: Sequence[str] | None, entries: IndexArray, extras: tuple[str, ...] = ()
    ) -> None:
        self.base = base
        self.entries = entries
        self.entries.flags.writeable = False
        self.extras = extras

    @classmethod
    def of(cls, ids: Sequence[str] | None, n: int) -> RowNames:
        """The names of ``n`` rows with ``ids`` (None: positional), ready to edit."""
        if isinstance(ids, RowNames):
            return ids
        return cls(ids, np.arange(n, dtype=np.int64))

    def _name(self, j: int) -> str:
        if j < 0:
            return self.extras[-j - 1]
        return self.base[j] if self.base is not None else str(j + 1)

    def __len__(self) -> int:
        return int(self.entries.shape[0])

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[str]: ...
    def __getitem__(self, i: int | slice) -> str | Sequence[str]:
        if isinstance(i, slice):
            return [self._name(int(j)) for j in self.entries[i]]
        return self._name(int(self.entries[i]))

    def __iter__(self) -> Iterator[str]:
        for j in self.entries.tolist():
            yield self._name(j)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.position(name) is not None

    def position(self, name: str) -> int | None:
        """The row (0-based) called ``name``, or None; O(n) in numpy, not Python."""
        if name in self.extras:
            j = -self.extras.index(name) - 1
        else:
            found = positional_index(name) if self.base is None else find_in(self.base, name)
            if found is None:
                return None
            j = found
        hits = np.flatnonzero(self.entries == j)
        return int(hits[0]) if hits.shape[0] else None

    def without(self, i: int) -> RowNames:
        """The names with row ``i`` removed."""
        return RowNames(self.base, np.delete(self.entries, i), self.extras)

    def entry(self, i: int) -> int:
        """Row ``i``'s index entry, to put it back with :meth:`inserted`."""
        return int(self.entries[i])

    @staticmethod
    def entry_of(ids: Sequence[str] | None, i: int) -> int:
        """Row ``i``'s entry in the names of rows with ``ids``, without building them."""
        return ids.entry(i) if isinstance(ids, RowNames) else i

    @classmethod
    def of_without(cls, ids: Sequence[str] | None, n: int, i: int) -> RowNames:
        """The names of ``n`` rows with ``ids``, row ``i`` removed (one allocation)."""
        if isinstance(ids, RowNames):
            return ids.without(i)
        kept = np.arange(n - 1, dtype=np.int64)  # one array: 80 MB at 10^7 rows, not three
        kept[i:] += 1
        return cls(ids, kept)

    def inserted(self, i: int, entry: int) -> RowNames:
        """The names with a row put back at ``i`` under its old ``entry``."""
        return RowNames(self.base, np.insert(self.entries, i, entry), self.extras)

    def plus(self, name: str) -> RowNames:
        """The names with a new row called ``name`` at the end (the caller checks it
        is not taken)."""
        if name in self.extras:  # added before and removed since: its slot is free
            return RowNames(
                self.base, np.append(self.entries, -self.extras.index(name) - 1), self.extras
            )
        extras = (*self.extras, name)
        return RowNames(self.base, np.append(self.entries, -len(extras)), extras)
