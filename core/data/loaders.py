"""Read scored examples from a file: :func:`load_file` picks the reader by extension.

Each format has its module: :mod:`~core.data.delimited` (CSV/TSV),
:mod:`~core.data.aggregated` (score, positives, negatives),
:mod:`~core.data.json_file` and :mod:`~core.data.parquet`. Every problem in a
file becomes one :class:`~core.errors.InputError` whose message names the
file, the line (or row, or item) and the column, and what is wrong.
"""

from __future__ import annotations

import sys
from pathlib import Path

from core.data import fast_csv
from core.data.aggregated import is_aggregated, load_aggregated
from core.data.cells import Columns
from core.data.dataset import Dataset
from core.data.delimited import header_of, load_delimited
from core.data.json_file import load_json
from core.data.parquet import load_parquet
from core.errors import InputError

# Columns is defined with the code that reads by it, and offered here, where callers look.
__all__ = ["DEFAULT_COLUMNS", "SLOW_NOTE_BYTES", "Columns", "load_file", "slow_reader_note"]

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
    if not p.exists():
        raise InputError(f"{p}: no such file")
    if p.is_dir():
        raise InputError(f"{p}: is a folder, not a file")
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
    if p.suffix.lower() not in (".csv", ".tsv", ".txt") or not p.is_file():
        return None
    if p.stat().st_size < SLOW_NOTE_BYTES or fast_csv.available():
        return None
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
