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
from threshold_lab.core.errors import InputError

#: More groups than this is almost surely the wrong column (an id, a score).
MAX_GROUPS = 1000


def _order_key(names: Sequence[str]) -> Any:
    try:
        values = [float(x) for x in names]
    except ValueError:
        return lambda i: names[i]
    if not all(math.isfinite(v) for v in values):
        return lambda i: names[i]
    return lambda i: (values[i], names[i])


def group_codes(
    values: Any, n: int, *, where: str = "groups"
) -> tuple[list[str], npt.NDArray[np.intp]]:
    """The group names, in order, and each row's index into them."""
    if isinstance(values, np.ndarray) and values.ndim != 1:
        raise InputError(f"{where}: one group name a row is needed (got an array of shape "
                         f"{values.shape})")  # fmt: skip
    labels = [_name(v) for v in values]
    if len(labels) != n:
        raise InputError(f"{where}: {len(labels)} group names for {n} rows: the lengths must "
                         "match")  # fmt: skip
    for i, x in enumerate(labels):
        if x == "":
            raise InputError(f"{where}: row {i + 1} has no group (an empty name): every row "
                             "needs one")  # fmt: skip
    found, codes_of = np.unique(np.asarray(labels, dtype=object).astype(str), return_inverse=True)
    names = [str(x) for x in found]
    if len(names) > MAX_GROUPS:
        raise InputError(f"{where}: {len(names)} groups (at most {MAX_GROUPS}): is this the "
                         "group column, or an id?")  # fmt: skip
    key = _order_key(names)
    order = sorted(range(len(names)), key=key)
    rank = np.empty(len(names), dtype=np.intp)
    rank[order] = np.arange(len(names))
    return [names[i] for i in order], rank[codes_of.reshape(-1)]


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
    data: Dataset, names: Sequence[str], codes: npt.NDArray[np.intp]
) -> tuple[tuple[str, Dataset], ...]:
    """Each group's rows, in the rows' order (ids are left out: a group's report
    counts its rows, and names none)."""
    order = np.argsort(codes, kind="stable")
    bounds = np.searchsorted(codes[order], np.arange(len(names) + 1))
    out = []
    for i, name in enumerate(names):
        idx = order[bounds[i] : bounds[i + 1]]
        w = None if data.weights is None else data.weights[idx]
        try:
            sub = make_dataset(data.scores[idx], data.labels[idx], weights=w, owned=True)
        except InputError as exc:
            raise InputError(f"group {name!r}: {exc}") from None
        out.append((name, sub))
    return tuple(out)
