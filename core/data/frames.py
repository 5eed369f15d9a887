"""Columns of a data frame, read through pyarrow: any frame that offers the Arrow
PyCapsule stream (``__arrow_c_stream__``: pandas, polars, pyarrow, DuckDB) or
the dataframe interchange protocol (``__dataframe__``). Neither pandas nor polars
is needed to read one; pyarrow is (the ``parquet`` extra).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from threshold_lab.core.data import arrow_numbers
from threshold_lab.core.errors import InputError, MissingDependency, quoted

NEEDS_PYARROW = (
    "reading a data frame needs pyarrow (pip install 'threshold-lab[parquet]'); or pass "
    "the columns as arrays: threshold_lab.report(df['label'], df['score'])"
)


def _table(frame: Any) -> Any:
    """``frame`` as a ``pyarrow.Table`` (raises InputError when it is not a frame)."""
    try:
        import pyarrow as pa
        import pyarrow.interchange
    except ImportError:
        raise MissingDependency(NEEDS_PYARROW) from None
    if isinstance(frame, pa.Table):
        return frame
    if isinstance(frame, pa.RecordBatch):
        return pa.Table.from_batches([frame])
    try:
        if hasattr(frame, "__arrow_c_stream__"):
            table = pa.table(frame)
            # pandas hands its index over as a column of its own: not one of the frame's.
            index = [n for n in table.column_names if n.startswith("__index_level_")]
            return table.drop_columns(index) if index else table
        if hasattr(frame, "__dataframe__"):
            return pyarrow.interchange.from_dataframe(frame)
    except (pa.ArrowException, TypeError, ValueError) as exc:
        raise InputError(
            f"the {type(frame).__name__} could not be read as a table ({exc})"
        ) from None
    raise InputError(
        f"a {type(frame).__name__} is not a data frame: from_frame reads any frame that "
        "offers the Arrow PyCapsule stream or the dataframe interchange protocol (pandas, "
        "polars, pyarrow, DuckDB)"
    )


def _column(table: Any, name: str) -> Any:
    if name not in table.column_names:
        shown = ", ".join(repr(c) for c in table.column_names[:20])
        raise InputError(f"no column {quoted(name)} in the frame; its columns are: {shown}")
    column = table.column(name)
    if column.null_count:
        import pyarrow.compute as pc

        at = int(pc.index(pc.is_null(column), True).as_py())
        raise InputError(f"column {quoted(name)} is missing a value (null) at row {at + 1}")
    return column


def _numbers(table: Any, name: str) -> np.ndarray:
    """A numeric column as float64 (decimals and integers converted)."""
    import pyarrow as pa

    column = _column(table, name)
    t = column.type
    if not (
        pa.types.is_integer(t)
        or pa.types.is_floating(t)
        or pa.types.is_decimal(t)
        or pa.types.is_boolean(t)
    ):
        raise InputError(f"column {quoted(name)} holds {t}, not numbers")
    return np.asarray(arrow_numbers.numbers(column.cast(pa.float64())), dtype=np.float64)


def frame_columns(
    frame: Any,
    *,
    scores: Sequence[str],
    label: str,
    weight: str | None,
    id: str | None,
) -> tuple[Any, list[np.ndarray], np.ndarray | None, list[str] | None]:
    """The label column (as its values), each score column (float64), the weights
    and the ids of ``frame``: what :func:`threshold_lab.core.data.arrays.arrays_source`
    reads."""
    table = _table(frame)
    import pyarrow as pa

    labels = _column(table, label)
    if pa.types.is_boolean(labels.type) or pa.types.is_integer(labels.type):
        y: Any = arrow_numbers.numbers(labels)
    elif pa.types.is_floating(labels.type) or pa.types.is_decimal(labels.type):
        y = arrow_numbers.numbers(labels.cast(pa.float64()))
    else:
        y = np.asarray(labels.to_pylist(), dtype=object)
    score_arrays = [_numbers(table, s) for s in scores]
    w = None if weight is None else _numbers(table, weight)
    ids = None if id is None else [str(v) for v in _column(table, id).to_pylist()]
    return y, score_arrays, w, ids


def frame_values(frame: Any, name: str) -> list[Any]:
    """Column ``name`` of ``frame`` as its values (a group column: text, numbers or
    categories), refused naming the column when it is not there."""
    return list(_column(_table(frame), name).to_pylist())
