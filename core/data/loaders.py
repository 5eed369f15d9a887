"""Read scored examples from a file: :func:`load_file` picks the reader by extension.

Each format has its module: :mod:`~threshold_lab.core.data.delimited` (CSV/TSV),
:mod:`~threshold_lab.core.data.aggregated` (score, positives, negatives),
:mod:`~threshold_lab.core.data.json_file` and :mod:`~threshold_lab.core.data.parquet`.
Every problem in a file becomes one :class:`~threshold_lab.core.errors.InputError` whose
message names the file, the line (or row, or item) and the column, and what is wrong.
"""

from __future__ import annotations

import stat
import sys
from pathlib import Path

from threshold_lab.core.data import fast_csv, progress
from threshold_lab.core.data.aggregated import (
    Counts,
    is_aggregated,
    load_aggregated,
    load_delimited_counts,
)
from threshold_lab.core.data.cells import Columns
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.data.delimited import header_of, load_delimited
from threshold_lab.core.data.json_file import load_json
from threshold_lab.core.data.parquet import load_parquet, read_aggregated
from threshold_lab.core.errors import InputError

# Columns is defined with the code that reads by it, and offered here, where callers look.
__all__ = [
    "DEFAULT_COLUMNS",
    "SLOW_NOTE_BYTES",
    "SPECIAL_LIMIT_BYTES",
    "Columns",
    "load_file",
    "slow_reader_note",
]

#: The columns read when none are named: score and label, weight and id if present.
#: (A constant, not a ``Columns()`` default: pyproject tells ruff that calls of
#: ``core.data.loaders.Columns`` are immutable, and here the class is ``cells``'.)
DEFAULT_COLUMNS = Columns()


def load_file(
    path: str | Path, cols: Columns = DEFAULT_COLUMNS, *, aggregated: bool | None = None
) -> Dataset:
    """Read scored examples from ``path``, choosing the reader by its extension.

    Parameters
    ----------
    path : str or Path
        A ``.csv``/``.tsv`` (or other delimited text), ``.json`` or ``.parquet`` file.
    cols : Columns
        Which columns hold what, and the ``--positive`` name.
    aggregated : bool or None
        Whether the file is ``score, positives, negatives``; None decides by its header.

    Raises
    ------
    InputError
        The first problem, naming the file and where in it.
    """
    p = Path(path)
    try:
        mode = p.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        raise InputError(f"{p}: no such file") from None
    except OSError as exc:
        raise _unreadable(p, exc) from None
    if stat.S_ISDIR(mode):
        raise InputError(f"{p}: is a folder, not a file")
    if stat.S_ISREG(mode):
        return _load(p, cols, aggregated)
    # A pipe, /dev/stdin, <(...), a device: it can be read only once, so read it
    # whole, within a limit (/dev/zero never ends), and parse those bytes.
    try:
        data = progress.read_once(p, SPECIAL_LIMIT_BYTES)
    except progress.TooLarge:
        raise InputError(
            f"{p} is not a regular file and is larger than {_size(SPECIAL_LIMIT_BYTES)}; "
            "save it to a file first"
        ) from None
    except OSError as exc:
        raise _unreadable(p, exc) from None
    with progress.in_memory(p, data):
        return _load(p, cols, aggregated)


def load_counts(path: Path, by: str | None = None) -> Counts:
    """An aggregated file's columns, checked: CSV/TSV or Parquet by the extension
    (``by`` names the group column when there are several other columns)."""
    try:
        if path.suffix.lower() in (".parquet", ".pq"):
            return read_aggregated(path, by)
        return load_delimited_counts(path, by)
    finally:
        _release_reader_memory()


#: The most read from a file that is not a regular file (a pipe, a device).
SPECIAL_LIMIT_BYTES = 2**30


def _size(n: int) -> str:
    """A byte count in words: ``1 GiB``, ``512 MiB``, ``1,000 bytes``."""
    for unit, scale in (("GiB", 2**30), ("MiB", 2**20), ("KiB", 2**10)):
        if n >= scale and n % scale == 0:
            return f"{n // scale:,} {unit}"
    return f"{n:,} bytes"


def _unreadable(p: Path, exc: OSError) -> InputError:
    """The one error for a file the system will not let us read."""
    if isinstance(exc, PermissionError):
        return InputError(f"cannot read {p}: permission denied")
    return InputError(f"cannot read {p}: {(exc.strerror or str(exc)).lower()}")


def _load(p: Path, cols: Columns, aggregated: bool | None) -> Dataset:
    """Read ``p`` (known to be there and not a folder) by its extension."""
    suffix = p.suffix.lower()
    try:
        if suffix == ".json":
            return load_json(p, cols)
        if suffix in (".parquet", ".pq"):
            return load_parquet(p, cols, aggregated=aggregated)
        if aggregated is None:
            aggregated = is_aggregated(header_of(p))
        if aggregated:
            return load_aggregated(p)
        return load_delimited(p, cols)
    except PermissionError as exc:
        raise _unreadable(p, exc) from None
    except OSError as exc:
        raise InputError(f"{p}: cannot be read ({exc.strerror or exc})") from None
    finally:
        _release_reader_memory()


#: CSV/TSV files at least this large get a note when pyarrow is missing.
SLOW_NOTE_BYTES = 8 * 2**20


def slow_reader_note(path: str | Path) -> str | None:
    """What to tell a user about to wait: a large CSV/TSV and no pyarrow, so the
    exact reader (pure Python, several times slower) reads it. None otherwise."""
    p = Path(path)
    try:
        if p.suffix.lower() not in (".csv", ".tsv", ".txt") or not p.is_file():
            return None
        if p.stat().st_size < SLOW_NOTE_BYTES or fast_csv.available():
            return None
    except OSError:
        return None  # unreadable: the load says so, as an InputError
    return (
        f"{p.name} is read without pyarrow, by the exact reader: several times slower. "
        "pip install 'threshold-lab[parquet]' for the fast path."
    )


def _release_reader_memory() -> None:
    """Hand pyarrow's freed read buffers back to the system.

    Its allocator keeps them for reuse; after a 10^7-row read that is a few
    hundred MB nobody will use again.
    """
    pyarrow = sys.modules.get("pyarrow")
    if pyarrow is not None:
        pyarrow.default_memory_pool().release_unused()
