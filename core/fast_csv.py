"""A fast path for clean CSV/TSV files, through pyarrow when it is installed.

It returns a Dataset only when the file is clean: numeric finite scores, labels
that are 0/1 or true/false (or two names with ``positive``), no empty cells.
Anything else returns None, and the exact reader in :mod:`core.loaders` then
reads the file and names the first problem by line and column. So speed never
costs a worse message.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

import numpy as np

from core import progress
from core.dataset import Dataset, make_dataset
from core.errors import InputError


def available() -> bool:
    """True when pyarrow is installed (the ``[parquet]`` extra)."""
    try:
        import pyarrow.csv  # noqa: F401
    except ImportError:
        return False
    return True


def _labels(column: Any, positive: str | None) -> np.ndarray | None:
    import pyarrow as pa
    import pyarrow.compute as pc

    if column.null_count:
        return None
    kind = column.type
    if pa.types.is_boolean(kind) and positive is None:
        return np.asarray(column.to_numpy(zero_copy_only=False), dtype=bool)
    if pa.types.is_integer(kind) and positive is None:
        values = column.to_numpy()
        return values == 1 if np.isin(values, (0, 1)).all() else None
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        distinct = [str(v) for v in pc.unique(pc.utf8_trim_whitespace(column)).to_pylist()]
        if len(distinct) > 2:
            return None
        if positive is not None:
            if positive not in distinct and len(distinct) == 2:
                return None
            truth = {v: v == positive for v in distinct}
        else:
            words = {"1": True, "true": True, "0": False, "false": False}
            if any(v.lower() not in words for v in distinct):
                return None
            truth = {v: words[v.lower()] for v in distinct}
        trimmed = pc.utf8_trim_whitespace(column)
        return np.asarray(
            pc.is_in(trimmed, value_set=pa.array([k for k, t in truth.items() if t])).to_numpy(
                zero_copy_only=False
            ),
            dtype=bool,
        )
    return None


class ArrowIds(Sequence[str]):
    """A pyarrow string column read as a sequence of ids, one at a time on demand."""

    def __init__(self, column: Any) -> None:
        self._column = column.combine_chunks() if hasattr(column, "combine_chunks") else column

    def __len__(self) -> int:
        return len(self._column)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        if isinstance(index, slice):
            return [str(v) for v in self._column[index].to_pylist()]
        if index < 0:
            index += len(self._column)
        if not 0 <= index < len(self._column):
            raise IndexError(index)
        return str(self._column[index].as_py())

    def __iter__(self) -> Iterator[str]:
        # In blocks: to_pylist per block is far faster than as_py per item.
        for start in range(0, len(self._column), 65536):
            yield from self._column[start : start + 65536].to_pylist()


def load_clean(
    source: Any,
    delimiter: str,
    names: dict[str, str],
    positive: str | None,
) -> Dataset | None:
    """Read ``source`` (a path or binary file) with pyarrow; ``names`` maps
    score/label/weight/id to header names.

    Returns None (use the exact reader) on any irregularity or without pyarrow.
    """
    if not available():
        return None
    import pyarrow as pa
    import pyarrow.csv as pv

    numeric = {names[k]: pa.float64() for k in ("score", "weight") if k in names}
    text = {names["id"]: pa.string()} if "id" in names else {}
    try:
        table = pv.read_csv(
            source,
            parse_options=pv.ParseOptions(delimiter=delimiter),
            convert_options=pv.ConvertOptions(
                include_columns=list(names.values()),
                column_types={**numeric, **text},
                strings_can_be_null=False,
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeDecodeError, OSError):
        return None
    progress.step("checking rows")
    return from_table(table, names, positive)


def from_table(table: Any, names: dict[str, str], positive: str | None) -> Dataset | None:
    """A Dataset straight from a pyarrow table's columns, or None if any is irregular
    (nulls, non-numbers, non-finite scores, labels that are not two classes)."""
    import pyarrow as pa

    if table.num_rows == 0:
        return None
    scores_col = table.column(names["score"])
    if scores_col.null_count or not (
        pa.types.is_floating(scores_col.type) or pa.types.is_integer(scores_col.type)
    ):
        return None
    scores = np.asarray(scores_col.to_numpy(), dtype=np.float64)
    if not np.isfinite(scores).all():
        return None
    labels = _labels(table.column(names["label"]), positive)
    if labels is None:
        return None
    weights = None
    if "weight" in names:
        w = table.column(names["weight"])
        if w.null_count or not (pa.types.is_floating(w.type) or pa.types.is_integer(w.type)):
            return None
        weights = np.asarray(w.to_numpy(), dtype=np.float64)
        if not (np.isfinite(weights).all() and (weights >= 0).all()):
            return None
    ids = None
    if "id" in names:
        import pyarrow.compute as pc

        id_col = table.column(names["id"])
        if id_col.null_count:
            return None
        if not (pa.types.is_string(id_col.type) or pa.types.is_large_string(id_col.type)):
            id_col = pc.cast(id_col, pa.string())
        if pc.count_distinct(id_col).as_py() != table.num_rows:
            return None  # repeated ids: the exact reader names the lines
        ids = ArrowIds(id_col)
    try:
        return make_dataset(
            scores, labels, weights=weights, ids=ids, ids_known_unique=ids is not None
        )
    except InputError:
        return None  # e.g. repeated ids: the exact reader names the lines
