"""Numeric columns a goal asks for besides the score, label, weight and id: a cost
per example (``fn=@amount``: a missed fraud costs its amount).

They are read from the same file, in the same row order as the loaders read it
(a loader refuses a bad row rather than dropping it, so row i is row i), and
each value must be a finite number, refused naming its line or row.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.data import progress
from threshold_lab.core.data.cells import fail, matching, numbers
from threshold_lab.core.data.delimited import lines_of, read_rows
from threshold_lab.core.errors import MissingDependency, quoted

FloatArray = npt.NDArray[np.float64]


def numeric_column(
    path: Path, name: str, n: int, *, purpose: str = "the goal's cost"
) -> FloatArray:
    """Column ``name`` of ``path`` as floats, one per row of its ``n`` rows (``purpose``
    says what it is for, in messages)."""
    values, where = _raw_column(path, name, purpose)
    out = values if isinstance(values, np.ndarray) else numbers(path, name, values, where)
    if out.shape[0] != n:
        raise fail(path, f"column {quoted(name)} has {out.shape[0]} values for {n} rows")
    return out


def text_column(path: Path, name: str, n: int, *, purpose: str) -> list[object]:
    """Column ``name`` of ``path`` as its cells (text from CSV/TSV; JSON's and
    Parquet's own values), one per row of its ``n`` rows."""
    values, _ = _raw_column(path, name, purpose, text=True)
    if len(values) != n:
        raise fail(path, f"column {quoted(name)} has {len(values)} values for {n} rows")
    return list(values)


def _raw_column(
    path: Path, name: str, purpose: str, *, text: bool = False
) -> tuple[Any, Callable[[int], str]]:
    """Column ``name``'s cells as the file holds them, and how to name cell i."""
    suffix = path.suffix.lower()
    if suffix == ".json":
        return _json_column(path, name, purpose), lambda i: f"item {i + 1}"
    if suffix in (".parquet", ".pq"):
        return _parquet_column(path, name, purpose, text=text), lambda i: f"row {i + 1}"
    try:
        data = progress.read_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise fail(path, "not UTF-8 text") from None
    lines = lines_of(data)
    if not lines:
        raise fail(path, "empty file")

    def column_of(header: list[str]) -> dict[str, int]:
        found = matching(header, name)
        if len(found) != 1:
            what = "no column" if not found else "more than one column"
            raise fail(
                path, f"{what} named {quoted(name)} for {purpose} (columns: {', '.join(header)})"
            )
        return {"extra": found[0]}

    rows = read_rows(path, lines, column_of)
    return rows.cells["extra"], rows.where


def _json_column(path: Path, name: str, purpose: str) -> list[object]:
    try:
        doc = json.loads(progress.read_bytes(path).decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise fail(path, "not valid JSON") from None
    if not isinstance(doc, dict) or not isinstance(doc.get(name), list):
        raise fail(path, f'no "{name}" list for {purpose}')
    values: list[object] = doc[name]
    return values


def _parquet_column(path: Path, name: str, purpose: str, *, text: bool = False) -> Any:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingDependency(
            f"{path}: reading Parquet needs pyarrow: pip install 'threshold-lab[parquet]'"
        ) from None
    try:
        schema = list(pq.read_schema(str(path)).names)
    except Exception as exc:  # pyarrow raises many types for a bad file
        raise fail(path, f"not a readable Parquet file ({exc})") from None
    if name not in schema:
        raise fail(
            path, f"no column named {quoted(name)} for {purpose} (columns: {', '.join(schema)})"
        )
    values = pq.ParquetFile(str(path)).read(columns=[name]).column(0).to_pylist()
    return values if text else numbers(path, name, values, lambda i: f"row {i + 1}")
