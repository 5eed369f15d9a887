"""Scored examples: validated, immutable arrays of score, label, weight and id."""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
from threshold_lab.core.data.rownames import find_in, positional_index, shown
from threshold_lab.core.errors import InputError, quoted

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]


_A = TypeVar("_A", bound="np.ndarray[Any, Any]")


def _readonly(a: _A) -> _A:
    a.flags.writeable = False
    return a


def _first(mask: npt.NDArray[np.bool_]) -> int:
    return int(np.flatnonzero(mask)[0])


@dataclass(frozen=True, eq=False)
class Dataset:
    """Validated scored examples.

    Attributes
    ----------
    scores : (n,) float64, finite, read-only
    labels : (n,) bool, True for the positive class, read-only
    weights : (n,) float64 non-negative, or None for unweighted rows
    ids : (n,) sequence of str, or None (then rows are named by position, from 1).
        A tuple, or a reader's own column (pyarrow's) that is read one id at a time.

    Build one with :func:`make_dataset`, which validates.

    >>> d = make_dataset([0.9, 0.8, 0.8, 0.4, 0.1], [1, 0, 1, 0, 1])
    >>> d.n, d.positives, d.negatives
    (5, 3, 2)
    """

    scores: FloatArray
    labels: BoolArray
    weights: FloatArray | None = None
    ids: Sequence[str] | None = None

    @property
    def n(self) -> int:
        return int(self.scores.shape[0])

    @property
    def weighted(self) -> bool:
        return self.weights is not None

    @cached_property
    def positives(self) -> int | float:
        """Actual positives (a weighted sum when weighted)."""
        if self.weights is None:
            return int(np.count_nonzero(self.labels))
        return float(self.weights[self.labels].sum())

    @cached_property
    def negatives(self) -> int | float:
        """Actual negatives (a weighted sum when weighted)."""
        if self.weights is None:
            return self.n - int(np.count_nonzero(self.labels))
        return float(self.weights[~self.labels].sum())

    @cached_property
    def are_probabilities(self) -> bool:
        """True when every score lies in [0, 1]."""
        return bool(self.scores.min() >= 0.0 and self.scores.max() <= 1.0)

    def with_scores(self, scores: Sequence[float] | FloatArray, *, name: str = "") -> Dataset:
        """The same examples (labels, weights, ids) scored by another model.

        >>> d = make_dataset([0.9, 0.1], [1, 0], ids=["a", "b"])
        >>> d.with_scores([0.2, 0.7]).scores.tolist(), d.with_scores([0.2, 0.7]).ids
        ([0.2, 0.7], ('a', 'b'))
        """
        s = np.array(_as_scores(scores), dtype=np.float64)
        whose = f" of model {name}" if name else ""
        if s.shape[0] != self.n:
            raise InputError(
                f"{s.shape[0]} scores{whose} for {self.n} rows: the lengths must match"
            )
        finite = np.isfinite(s)
        if not finite.all():
            i = int(np.flatnonzero(~finite)[0])
            raise InputError(
                f"score{whose} at row {self.row_id(i)} is {s[i]}: scores must be finite numbers"
            )
        s.flags.writeable = False
        return dataclasses.replace(self, scores=s)

    def row_id(self, index: int) -> str:
        """The name of row ``index`` (0-based): its id, or its position from 1."""
        return self.ids[index] if self.ids is not None else str(index + 1)

    def shown_id(self, index: int) -> str:
        """:meth:`row_id` as it may be shown: non-printable characters escaped.

        >>> make_dataset([0.9], [1], ids=["a\\nb"]).shown_id(0)
        'a\\\\nb'
        """
        return shown(self.row_id(index))

    def position_of(self, name: str) -> int | None:
        """The row (0-based) called ``name``, or None; no list of every name is made.

        >>> d = make_dataset([0.9, 0.1], [1, 0], ids=["a", "b"])
        >>> d.position_of("b"), d.position_of("2")
        (1, None)
        >>> make_dataset([0.9, 0.1], [1, 0]).position_of("2")
        1
        """
        if self.ids is None:
            j = positional_index(name)
            return j if j is not None and j < self.n else None
        return find_in(self.ids, name)


def _as_scores(scores: Sequence[float] | FloatArray) -> FloatArray:
    try:
        arr = np.asarray(scores, dtype=np.float64)
    except (TypeError, ValueError) as exc:
        raise InputError(f"scores must be numbers: {exc}") from None
    if arr.ndim != 1:
        raise InputError(f"scores must be one column, got shape {arr.shape}")
    return arr


def _as_labels(labels: Sequence[object] | npt.NDArray[np.generic]) -> BoolArray:
    arr = np.asarray(labels)
    if arr.ndim != 1:
        raise InputError(f"labels must be one column, got shape {arr.shape}")
    if arr.dtype == np.bool_:
        return arr.astype(np.bool_, copy=False)
    if arr.dtype.kind in "iuf":
        bad = ~((arr == 0) | (arr == 1))
        if bad.any():
            i = _first(bad)
            raise InputError(
                f"label at row {i + 1} is {quoted(arr[i])}: labels must be 0 or 1 "
                "(two classes: 1 is positive, 0 is negative)"
            )
        return np.asarray(arr == 1, dtype=np.bool_)
    raise InputError(f"labels must be 0/1 or true/false, got values of type {arr.dtype}")


def _first_repeat(ids: Sequence[str]) -> str:
    """The first id that appeared before it (the caller knows there is one)."""
    seen: set[str] = set()
    for i in ids:
        if i in seen:
            return i
        seen.add(i)
    raise AssertionError("no repeated id")


#: The smallest weight above zero: a subnormal float has lost precision already
#: (``3e-324`` and ``7e-324`` both read as ``5e-324``), so it is refused.
SMALLEST_WEIGHT = sys.float_info.min


def weight_problem(w: FloatArray) -> tuple[int, str] | None:
    """The first weight that cannot be counted with, as (row index, what is wrong).

    The index is -1 for a problem of the weights as a whole. Weights must be
    finite and not negative, at least one above zero, none so small that its
    float has lost precision or that adding it to the total changes nothing, and
    their total must itself be a finite float, so that every count, rate and
    curve computed from them is a number.

    >>> weight_problem(np.array([1e308, 1e308]))
    (1, 'takes the total weight past the largest float (about 1.8e308): scale the weights down')
    >>> weight_problem(np.array([1e300, 1.0]))[1][:50]
    'is 1.0, too small to count beside the total weight'
    >>> weight_problem(np.array([1.0, 5e-324]))[1]
    'is 5e-324: a weight must be 0 or at least 2.2250738585072014e-308 (scale the weights up)'
    """
    bad = ~np.isfinite(w) | (w < 0)
    if bad.any():
        i = _first(bad)
        return i, f"is {float(w[i])!r}: weights must be finite and not negative"
    tiny = (w > 0) & (w < SMALLEST_WEIGHT)
    if tiny.any():
        i = _first(tiny)
        return i, (
            f"is {float(w[i])!r}: a weight must be 0 or at least {quoted(SMALLEST_WEIGHT)} "
            "(scale the weights up)"
        )
    if not (w > 0).any():
        return -1, "every weight is zero: at least one row must count"
    with np.errstate(over="ignore"):
        total = float(w.sum())
    if not np.isfinite(total):
        with np.errstate(over="ignore"):
            over = np.flatnonzero(~np.isfinite(np.cumsum(w)))
        i = int(over[0]) if over.shape[0] else w.shape[0] - 1
        return i, (
            "takes the total weight past the largest float (about 1.8e308): scale the weights down"
        )
    # A weight below the total's last bit can vanish from a sum, and a count of it
    # alone (FN at the top threshold, say) would then read 0.
    floor = total / 2**53
    lost = (w > 0) & (w < floor)
    if lost.any():
        i = _first(lost)
        return i, (
            f"is {float(w[i])!r}, too small to count beside the total weight {total:.3g}: "
            f"a float sum that large can drop it (weights must be 0 or at least "
            f"the total / 2**53, here {floor:.3g})"
        )
    return None


def make_dataset(
    scores: Sequence[float] | FloatArray,
    labels: Sequence[object] | npt.NDArray[np.generic],
    *,
    weights: Sequence[float] | FloatArray | None = None,
    ids: Sequence[str] | None = None,
    ids_known_unique: bool = False,
    owned: bool = False,
) -> Dataset:
    """Validate scored examples and return an immutable :class:`Dataset`.

    ``ids_known_unique`` is for readers that have already checked the ids are
    distinct strings (the pyarrow path checks them in C); it skips that check.
    ``owned`` says the caller made the arrays for this Dataset alone and keeps no
    writeable reference, so they are marked read-only in place, not copied.

    Raises
    ------
    InputError
        Empty input, mismatched lengths, a non-finite score, a label that is
        not 0/1, a negative, non-finite or subnormal weight, all weights zero,
        weights whose total is not a finite float, or
        repeated ids. The message names the first offending row.

    >>> make_dataset([0.5, float("nan")], [1, 0])
    Traceback (most recent call last):
    ...
    threshold_lab.core.errors.InputError: score at row 2 is nan: scores must be finite numbers
    """
    s = _as_scores(scores)
    y = _as_labels(labels)
    if s.shape[0] == 0:
        raise InputError("no rows: at least one scored example is needed")
    if y.shape[0] != s.shape[0]:
        raise InputError(f"{s.shape[0]} scores but {y.shape[0]} labels: the lengths must match")
    finite = np.isfinite(s)
    if not finite.all():
        i = _first(~finite)
        raise InputError(f"score at row {i + 1} is {s[i]}: scores must be finite numbers")
    w = None
    if weights is not None:
        w = np.asarray(weights, dtype=np.float64)
        if w.shape != s.shape:
            raise InputError(
                f"{s.shape[0]} scores but {w.shape[0]} weights: the lengths must match"
            )
        problem = weight_problem(w)
        if problem is not None:
            i, why = problem
            raise InputError(f"weight at row {i + 1} {why}" if i >= 0 else why)
        w = _readonly(w if owned else w.copy())
    id_tuple = None
    if ids is not None:
        # A reader's column is kept as it is: ten million Python strings cost seconds.
        id_tuple = ids if ids_known_unique else tuple(str(i) for i in ids)
        if len(id_tuple) != s.shape[0]:
            raise InputError(f"{s.shape[0]} scores but {len(id_tuple)} ids: the lengths must match")
        # A reader that has counted distinct ids itself (pyarrow, in C) says so.
        if not ids_known_unique and len(set(id_tuple)) != len(id_tuple):
            raise InputError(
                f"id {quoted(_first_repeat(id_tuple))} appears more than once: ids must be unique"
            )
    return Dataset(
        scores=_readonly(s if owned else s.copy()),
        labels=_readonly(y if owned else y.copy()),
        weights=w,
        ids=id_tuple,
    )


@dataclass(frozen=True)
class Model:
    """One model of several on the same examples: its name and its scores (a Dataset
    sharing its labels, weights and ids with the other models')."""

    name: str
    data: Dataset
