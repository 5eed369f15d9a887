"""Rows split by a group column (a site, an age band, a device): each group's own
rows, as a dataset the binary report reads like any other.

Groups are named by the column's values as text and listed in order: numerically
when every name is a number (2 before 10), else as strings, as Fairlearn's
``MetricFrame.by_group`` lists them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.data.dataset import Dataset, make_dataset
from threshold_lab.core.data.rownames import RowNames
from threshold_lab.core.errors import InputError, quoted

#: More groups than this is almost surely the wrong column (an id, a score).
MAX_GROUPS = 1000


def _order_key(names: Sequence[str]) -> Any:
    """Sort as numbers when every name is one, else as text."""
    try:
        values = [float(x) for x in names]
    except ValueError:
        return lambda x: x
    if not all(math.isfinite(v) for v in values):
        return lambda x: x
    return lambda x: (float(x), x)


def group_codes(
    values: Any, n: int, *, where: str = "groups", part: str = "group"
) -> tuple[list[str], npt.NDArray[np.intp]]:
    """The group names, in order, and each row's index into them. Each distinct value
    is named once (``1`` and ``1.0`` are group "1"; spaces around a name are dropped).
    ``part`` is what the messages call one: "group", or "fold"."""
    arr = values if isinstance(values, np.ndarray) else np.asarray(values, dtype=object)
    if arr.ndim != 1:
        raise InputError(
            f"{where}: one {part} name a row is needed (got an array of shape {arr.shape})"
        )
    if arr.shape[0] != n:
        raise InputError(
            f"{where}: {arr.shape[0]} {part} names for {n} rows: the lengths must match"
        )
    if arr.dtype.kind == "O":
        # Each distinct value numbered as it first appears (a dict: far quicker than
        # sorting 10^6 strings); None, NaN, 1 and "1" are then named once each.
        seen: dict[object, int] = {}
        try:
            codes = [seen.setdefault(v, len(seen)) for v in arr.tolist()]
        except TypeError:  # an unhashable cell (a list): named as text, row by row
            codes = [seen.setdefault(_name(v), len(seen)) for v in arr.tolist()]
        found_list: list[object] = list(seen)
        inverse = np.asarray(codes, dtype=np.intp)
    else:
        found, inverse = np.unique(arr, return_inverse=True)
        found_list = found.tolist()
        inverse = inverse.reshape(-1)
    raw = [_name(v) for v in found_list]
    _no_text_and_number_alike(found_list, raw, where, part)
    for j, x in enumerate(raw):
        if x == "":
            i = int(np.flatnonzero(inverse == j)[0])
            raise InputError(
                f"{where}: row {i + 1} has no {part} (an empty name): every row needs one"
            )
    names = sorted(set(raw), key=_order_key(sorted(set(raw))))
    if len(names) > MAX_GROUPS:
        raise InputError(
            f"{where}: {len(names)} {part}s (at most {MAX_GROUPS}): is this the "
            f"{part} column, or an id?"
        )
    index = {x: i for i, x in enumerate(names)}
    rank = np.array([index[x] for x in raw], dtype=np.intp)
    return names, rank[inverse]


def _no_text_and_number_alike(found: list[object], raw: list[str], where: str, part: str) -> None:
    """Refuse a text and a number that would name one group (``1`` and ``"1"``): they
    are different values, and merging them silently would hide the mix-up. Numbers
    equal as numbers (``1`` and ``1.0``) are one group."""
    first: dict[str, object] = {}
    for v, name in zip(found, raw, strict=True):
        if name in first and isinstance(first[name], str) != isinstance(v, str):
            a, b = first[name], v
            raise InputError(
                f"{where}: {quoted(a)} and {quoted(b)} would both be {part} {quoted(name)}: give "
                f"every {part} name as text, or every one as a number"
            )
        first.setdefault(name, v)


def _name(v: object) -> str:
    if v is None:
        return ""
    if isinstance(v, float) and math.isnan(v):
        return ""
    if isinstance(v, (float, np.floating)) and float(v).is_integer():
        return str(int(v))  # 1.0 from a column of numbers with a gap: group "1"
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return str(v).strip()


def split_groups(
    data: Dataset, names: Sequence[str], codes: npt.NDArray[np.intp], *, named: bool = False
) -> tuple[tuple[str, Dataset], ...]:
    """Each group's rows, in the rows' order. Ids are left out (a group's report
    counts its rows, and names none) unless ``named``: then each row keeps its name
    (its id, or its position in ``data``), as the explorer shows a group's rows."""
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(names) + 1))
    out = []
    for i, name in enumerate(names):
        idx = order[bounds[i] : bounds[i + 1]]
        w = None if data.weights is None else data.weights[idx]
        ids = RowNames(data.ids, idx.astype(np.int64)) if named else None
        try:
            sub = make_dataset(
                data.scores[idx],
                data.labels[idx],
                weights=w,
                ids=ids,
                ids_known_unique=True,
                owned=True,
            )
        except InputError as exc:
            raise InputError(f"group {quoted(name)}: {exc}") from None
        out.append((name, sub))
    return tuple(out)
