"""CSV and TSV files with a header row.

A clean file goes through the pyarrow fast path (:mod:`threshold_lab.core.data.fast_csv`);
any other file, or any file without pyarrow, goes through the exact reader
here, whose messages name the line. :func:`read_rows` is the exact reader's
row loop, shared with aggregated files (:mod:`threshold_lab.core.data.aggregated`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from threshold_lab.core.data import fast_csv, progress
from threshold_lab.core.data.cells import Columns, assemble, columns_wanted, fail, names_wanted
from threshold_lab.core.data.dataset import Dataset


def delimiter_of(path: Path, first_line: str) -> str:
    """Tab or comma: by the extension, else tab when the first line has tabs and no commas."""
    suffix = path.suffix.lower()
    if suffix in (".tsv", ".tab"):
        return "\t"
    if suffix == ".csv":
        return ","
    return "\t" if "\t" in first_line and "," not in first_line else ","


def _first_line(path: Path) -> tuple[str, list[str]] | None:
    """The first line and its header names as written (not stripped), or None
    when it cannot be read."""
    held = progress.memory(path)
    try:
        if held is not None:
            text = io.TextIOWrapper(io.BytesIO(held), encoding="utf-8-sig", newline="")
            first = text.readline()
        else:
            with path.open(encoding="utf-8-sig", newline="") as fh:
                first = fh.readline()
        return first, next(csv.reader([first], delimiter=delimiter_of(path, first)))
    except (UnicodeDecodeError, csv.Error, StopIteration):
        return None


def first_line(path: Path) -> str | None:
    """The header line as written, or None when it cannot be read."""
    read = _first_line(path)
    return None if read is None else read[0]


def lines_of(text: str) -> list[str]:
    r"""The lines of a delimited file, ends kept: split at \n, \r\n and \r only,
    as CSV readers (pyarrow's too) split them. ``str.splitlines`` would also
    split inside a cell at U+2029, U+0085 or \x1c.

    >>> lines_of("a\u2029b,1\r\nc\x85,0\n")
    ['a\u2029b,1\r\n', 'c\x85,0\n']
    """
    return io.StringIO(text, newline="").readlines()


def header_of(path: Path) -> list[str]:
    """The header row's names, stripped, or [] when it cannot be read (the reader
    then says why)."""
    read = _first_line(path)
    return [] if read is None else [h.strip() for h in read[1]]


@dataclass(frozen=True)
class Rows:
    """The wanted columns' raw cells of a delimited file, and each row's line number."""

    cells: dict[str, list[object]]
    line_of: list[int]

    def where(self, i: int) -> str:
        """Row ``i``'s place, for messages."""
        return f"line {self.line_of[i]}"


def read_rows(
    path: Path, lines: list[str], columns_of: Callable[[list[str]], dict[str, int]]
) -> Rows:
    """The exact reader's row loop: the cells of the columns wanted, row by row.

    Parameters
    ----------
    path : Path
        The file, for its extension and for messages.
    lines : list of str
        The file's lines with their endings; the first, the header, not blank.
    columns_of : callable
        The header's names to the positions of the columns wanted, by key
        (raising the message for a missing column).

    Returns
    -------
    Rows
        Blank lines are skipped: they are not rows.

    Raises
    ------
    InputError
        Naming the line: one that is not valid CSV/TSV (the csv module's own
        words, such as a field larger than its limit), or a row with a
        different number of fields than the header.
    """
    reader = csv.reader(lines, delimiter=delimiter_of(path, lines[0]))
    try:
        header = [h.strip() for h in next(reader)]
    except csv.Error as exc:
        raise fail(path, f"line 1: {exc}") from None
    wanted = columns_of(header)
    cells: dict[str, list[object]] = {k: [] for k in wanted}
    line_of: list[int] = []
    try:
        for row in reader:
            if not row or all(not c.strip() for c in row):
                continue  # blank lines are not rows
            if len(row) != len(header):
                raise fail(
                    path,
                    f"line {reader.line_num}: {len(row)} fields, but the header has {len(header)}",
                )
            for key, idx in wanted.items():
                cells[key].append(row[idx])
            line_of.append(reader.line_num)
    except csv.Error as exc:
        raise fail(path, f"line {reader.line_num}: {exc}") from None
    return Rows(cells, line_of)


def _try_fast(path: Path, cols: Columns) -> Dataset | None:
    """The pyarrow reader on a clean file; None sends the file to the exact reader."""
    read = _first_line(path)
    if read is None:
        return None
    first, raw = read
    header = [h.strip() for h in raw]
    if not first.strip() or len(set(header)) != len(header):
        return None
    # Columns are found by their stripped names, as the exact reader finds them,
    # but pyarrow knows them by the names as written (``score, label``).
    stripped = names_wanted(path, header, cols)
    names = {k: raw[header.index(v)] for k, v in stripped.items()}
    delimiter = delimiter_of(path, first)
    held = progress.memory(path)
    if held is not None:
        # Read once into memory (a pipe): arrow reads those bytes.
        return fast_csv.load_clean(held, delimiter, names, cols.positive)
    if progress.current() is None:
        # Untracked, arrow reads the file itself: faster than through a Python file.
        return fast_csv.load_clean(str(path), delimiter, names, cols.positive)
    with progress.opened(path) as fh:
        return fast_csv.load_clean(fh, delimiter, names, cols.positive)


def _read_exact(path: Path, cols: Columns) -> Dataset:
    """Every row through Python: slower, and the first problem is named by line."""
    try:
        text = progress.read_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise fail(
            path, f"not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start})"
        ) from None
    lines = lines_of(text)
    if not lines or not lines[0].strip():
        raise fail(path, "the file is empty: a header row (score,label) and data rows are needed")
    rows = read_rows(path, lines, lambda header: columns_wanted(path, header, cols))
    return assemble(path, rows.cells, rows.where, cols)


#: Up to this size a file goes straight to the exact reader: at some 2 µs a row,
#: 64 KiB (about 3,000 rows) reads in under 10 ms, where importing pyarrow alone
#: costs some 50 ms.
SMALL_BYTES = 64 * 1024


def _small(path: Path) -> bool:
    held = progress.memory(path)
    if held is not None:
        return len(held) <= SMALL_BYTES
    try:
        return path.is_file() and path.stat().st_size <= SMALL_BYTES
    except OSError:
        return False  # the readers say what is wrong


def load_delimited(path: Path, cols: Columns) -> Dataset:
    """Read a CSV or TSV file with a header row: fast when clean, exact messages when not.

    A small file is read by the exact reader alone (the same rows, without pyarrow's
    import)."""
    if _small(path):
        return _read_exact(path, cols)
    fast = _try_fast(path, cols)
    if fast is not None:
        return fast
    return _read_exact(path, cols)
