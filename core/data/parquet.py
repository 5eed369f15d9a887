"""Parquet files (the ``[parquet]`` extra, pyarrow), of rows or aggregated.

Clean columns go straight to numpy (:func:`threshold_lab.core.data.fast_csv.from_table`);
anything irregular takes the exact path, whose messages name the row.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from threshold_lab.core.data import fast_csv, progress
from threshold_lab.core.data.aggregated import (
    Counts,
    count_columns,
    dataset_of,
    grouped,
    is_aggregated,
    read_counts_table,
)
from threshold_lab.core.data.cells import Columns, assemble, columns_wanted, fail, names_wanted
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.errors import MissingDependency


def _row(r: int) -> str:
    return f"row {r + 1}"


def _read(
    path: Path, cols: Columns, aggregated: bool | None, by: str | None = None
) -> tuple[Any, dict[str, str], bool]:
    """The table of just the columns used, those columns by role, and whether it is
    aggregated (found from the schema when ``aggregated`` is None)."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingDependency(
            f"{path}: reading Parquet needs pyarrow: pip install 'threshold-lab[parquet]'"
        ) from None
    import pyarrow as pa

    tracked = progress.current()
    if tracked is not None:
        tracked.check()
    held = progress.memory(path)
    # pyarrow reads a file of its own, never a Python file object: handed one,
    # it sometimes aborts the interpreter at exit ("terminate called ...").
    with pa.BufferReader(held) if held is not None else pa.OSFile(str(path), "rb") as fh:
        try:
            header = list(pq.read_schema(fh).names)
        except Exception as exc:  # pyarrow raises many types for a bad file
            raise fail(path, f"not a readable Parquet file ({exc})") from None
        if aggregated is None:
            aggregated = is_aggregated(header)
        if aggregated:
            names = {n: header[i] for n, i in count_columns(path, header, by).items()}
        else:
            names = names_wanted(path, header, cols)
        try:
            # Only the columns used: a file of features besides its scores stays cheap.
            fh.seek(0)
            # ParquetFile, not read_table: read_table imports pyarrow.dataset and, with
            # it, pandas (a quarter of a second of every report of a Parquet file).
            table = pq.ParquetFile(fh).read(columns=list(dict.fromkeys(names.values())))
        except Exception as exc:
            raise fail(path, f"not a readable Parquet file ({exc})") from None
        if tracked is not None:
            # Progress at the grain pyarrow allows: the whole file, once read.
            tracked.total = tracked.done = max(tracked.total, fh.size())
            tracked.check()
    return table, names, aggregated


def _read_exact(path: Path, table: Any, cols: Columns) -> Dataset:
    """The table's cells through Python: the first problem is named by row."""
    wanted = columns_wanted(path, list(table.column_names), cols)
    cells: dict[str, list[object]] = {
        key: table.column(idx).to_pylist() for key, idx in wanted.items()
    }
    return assemble(path, cells, _row, cols)


def load_parquet(path: Path, cols: Columns, *, aggregated: bool | None = None) -> Dataset:
    """Read a Parquet file; a ``score, positives, negatives`` table is aggregated input,
    as in CSV."""
    table, names, aggregated = _read(path, cols, aggregated)
    progress.step("checking rows")
    if aggregated:
        counts = read_counts_table(path, table, list(table.column_names), None, names)
        if counts.groups is not None:
            raise grouped(path, counts)
        return dataset_of(path, counts)
    fast = fast_csv.from_table(table, names, cols.positive)
    if fast is not None:
        return fast
    return _read_exact(path, table, cols)


def read_aggregated(path: Path, by: str | None = None) -> Counts:
    """An aggregated Parquet file's columns (see :mod:`threshold_lab.core.data.aggregated`)."""
    table, names, _aggregated = _read(path, Columns(), True, by)
    progress.step("checking rows")
    return read_counts_table(path, table, list(table.column_names), by, names)
