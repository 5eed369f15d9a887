"""A fast path for clean CSV/TSV files, through pyarrow when it is installed.

It returns a Dataset only when the file is clean: numeric finite scores, labels
that are 0/1 or true/false (or two names with ``positive``), no empty cells.
Anything else returns None, and the exact reader in :mod:`core.loaders` then
reads the file and names the first problem by line and column. So speed never
costs a worse message.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

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


def load_clean(
    path: Path,
    delimiter: str,
    names: dict[str, str],
    positive: str | None,
) -> Dataset | None:
    """Read ``path`` with pyarrow; ``names`` maps score/label/weight/id to header names.

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
            path,
            parse_options=pv.ParseOptions(delimiter=delimiter),
            convert_options=pv.ConvertOptions(
                include_columns=list(names.values()),
                column_types={**numeric, **text},
                strings_can_be_null=False,
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeDecodeError, OSError):
        return None
    if table.num_rows == 0:
        return None
    scores_col = table.column(names["score"])
    if scores_col.null_count:
        return None
    scores = scores_col.to_numpy()
    if not np.isfinite(scores).all():
        return None
    labels = _labels(table.column(names["label"]), positive)
    if labels is None:
        return None
    weights = None
    if "weight" in names:
        w = table.column(names["weight"])
        if w.null_count:
            return None
        weights = w.to_numpy()
        if not (np.isfinite(weights).all() and (weights >= 0).all()):
            return None
    ids = table.column(names["id"]).to_pylist() if "id" in names else None
    try:
        return make_dataset(scores, labels, weights=weights, ids=ids)
    except InputError:
        return None  # e.g. repeated ids: the exact reader names the lines
