"""Rows from a Python session: labels and scores as arrays (numpy, lists, pandas or
polars Series), checked by the same rules as the file readers.

Labels are 0/1, booleans or true/false, or two other values with ``positive``
naming the positive one; a third value, a missing label, a NaN or infinite score
and mismatched lengths are refused, naming the array and the index at fault.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.data.classes import Multiclass
from threshold_lab.core.data.dataset import Dataset, Model, make_dataset
from threshold_lab.core.data.labels import LabelProblem, label_key, truth_of
from threshold_lab.core.data.sources import Source
from threshold_lab.core.errors import InputError

#: The source a report of arrays names (the ``source`` field of its JSON).
ARRAYS = "arrays"

BoolArray = npt.NDArray[np.bool_]


def _api_words(text: str) -> str:
    """A label rule's words for a Python caller: ``positive=NAME``, not the flag."""
    return text.replace("--positive NAME", "positive=NAME").replace("--positive ", "positive=")


def _flat(values: Any, name: str) -> npt.NDArray[Any]:
    """``values`` as a one-dimensional array (a Series, a list, a column)."""
    try:
        a = np.asarray(values)
    except (TypeError, ValueError) as exc:
        raise InputError(f"{name}: cannot be read as an array ({exc})") from None
    if a.ndim == 2 and 1 in a.shape:
        a = a.reshape(-1)
    if a.ndim != 1:
        raise InputError(f"{name} has shape {a.shape}: give one value per row (one dimension)")
    return a


def labels_of(y_true: Any, positive: Any = None) -> BoolArray:
    """Each row positive or not, by the label rules (raises InputError naming the
    index of the first label at fault).

    >>> labels_of([1, 0, True]).tolist(), labels_of(["no", "yes"], "yes").tolist()
    ([True, False, True], [False, True])
    >>> labels_of([1, 0, 2])
    Traceback (most recent call last):
    ...
    threshold_lab.core.errors.InputError: y_true[2]: label '2' is not 0/1 or true/false ...
    """
    y = _flat(y_true, "y_true")
    if y.dtype == np.bool_ and positive is None:
        return y.astype(bool, copy=True)
    wanted = None if positive is None else label_key(positive)
    if y.dtype.kind in "fc" and np.isnan(y).any():
        raise InputError(
            f"y_true[{int(np.flatnonzero(np.isnan(y))[0])}]: the label is missing (NaN)"
        )
    if y.dtype.kind == "O":
        missing = next((i for i, v in enumerate(y.tolist()) if v is None), None)
        if missing is not None:
            raise InputError(f"y_true[{missing}]: the label is missing (None)")
    try:
        values, first, inverse = np.unique(y, return_index=True, return_inverse=True)
    except TypeError:  # values of kinds that do not sort together (1 and "a")
        keys = [label_key(v) for v in y.tolist()]
        values = np.asarray(list(dict.fromkeys(keys)), dtype=object)
        first = np.asarray([keys.index(k) for k in values.tolist()])
        inverse = np.asarray([values.tolist().index(k) for k in keys])
    # The rules are judged in the order the values first appear, as a file's are.
    order = np.argsort(first, kind="stable")
    distinct = [label_key(v) for v in values[order].tolist()]
    try:
        truth = truth_of(distinct, wanted)
    except LabelProblem as problem:
        text = _api_words(problem.text)
        if problem.at is None:
            raise InputError(f"y_true: {text}") from None
        raise InputError(f"y_true[{int(first[order[problem.at]])}]: {text}") from None
    positive_value = np.zeros(values.shape[0], dtype=bool)
    positive_value[order] = [truth[k] for k in distinct]
    out: BoolArray = positive_value[np.asarray(inverse).reshape(-1)]
    return out


def scores_of(y_score: Any, name: str = "y_score") -> npt.NDArray[np.float64]:
    """Scores as float64 (raises InputError for values that are not numbers)."""
    s = _flat(y_score, name)
    if s.dtype.kind not in "biuf":
        try:
            s = s.astype(np.float64)
        except (TypeError, ValueError):
            bad = next((i for i, v in enumerate(s.tolist()) if not _number(v)), 0)
            raise InputError(
                f"{name}[{bad}] is {s.tolist()[bad]!r}: scores must be numbers"
            ) from None
    return np.asarray(s, dtype=np.float64)


def _number(v: object) -> bool:
    try:
        float(v)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return False
    return True


def _dataset(
    scores: npt.NDArray[np.float64],
    labels: BoolArray,
    weights: npt.NDArray[np.float64] | None,
    ids: Sequence[str] | None,
    name: str,
) -> Dataset:
    if scores.shape[0] != labels.shape[0]:
        raise InputError(
            f"{name} has {scores.shape[0]} values but y_true has "
            f"{labels.shape[0]}: the lengths must match"
        )
    try:
        return make_dataset(scores, labels, weights=weights, ids=ids, owned=True)
    except InputError as exc:
        raise InputError(f"{name}: {exc}" if name != "y_score" else str(exc)) from None


def _weights(sample_weight: Any, n: int) -> npt.NDArray[np.float64] | None:
    if sample_weight is None:
        return None
    w = scores_of(sample_weight, "sample_weight")
    if w.shape[0] != n:
        raise InputError(
            f"sample_weight has {w.shape[0]} values but y_true has {n}: the lengths must match"
        )
    return w


def _ids(ids: Any, n: int) -> tuple[str, ...] | None:
    if ids is None:
        return None
    out = tuple(str(i) for i in _flat(ids, "ids").tolist())
    if len(out) != n:
        raise InputError(f"ids has {len(out)} values but y_true has {n}: the lengths must match")
    return out


def arrays_source(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    ids: Any = None,
    positive: Any = None,
    classes: Sequence[object] | None = None,
    source: str = ARRAYS,
) -> Source:
    """What :func:`threshold_lab.report` reads: one model's scores, several models'
    (a mapping of name to scores, the same rows), or several classes (a 2-D array
    of one column a class, with ``classes`` naming the columns).

    >>> s = arrays_source([1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1])
    >>> s.data.n, s.data.positives, s.label
    (5, 3, 'arrays')
    """
    if classes is not None:
        return _classes_source(y_true, y_score, classes, sample_weight, ids, source)
    if isinstance(y_score, Mapping):
        return _models_source(y_true, y_score, sample_weight, ids, positive, source)
    if np.ndim(y_score) == 2 and min(np.shape(y_score)) > 1:
        raise InputError(
            f"y_score has {np.shape(y_score)[1]} columns: pass classes=[...] naming them (several "
            "classes), or one column of the positive class's scores"
        )
    labels = labels_of(y_true, positive)
    n = labels.shape[0]
    data = _dataset(scores_of(y_score), labels, _weights(sample_weight, n), _ids(ids, n), "y_score")
    return Source(data=data, label=source)


def _models_source(
    y_true: Any,
    y_score: Mapping[Any, Any],
    sample_weight: Any,
    ids: Any,
    positive: Any,
    source: str,
) -> Source:
    if not y_score:
        raise InputError("y_score is an empty mapping: give each model's scores by name")
    labels = labels_of(y_true, positive)
    n = labels.shape[0]
    w, row_ids = _weights(sample_weight, n), _ids(ids, n)
    models = []
    for name, scores in y_score.items():
        where = f"y_score[{name!r}]"
        models.append(
            Model(str(name), _dataset(scores_of(scores, where), labels, w, row_ids, where))
        )
    if len({m.name for m in models}) != len(models):
        raise InputError("y_score: two models have the same name")
    if len(models) == 1:
        return Source(data=models[0].data, label=source)
    return Source(data=models[0].data, label=source, models=tuple(models))


def _classes_source(
    y_true: Any,
    y_score: Any,
    classes: Sequence[object],
    sample_weight: Any,
    ids: Any,
    source: str,
) -> Source:
    names = tuple(str(c) for c in classes)
    if len(names) < 2 or len(set(names)) != len(names):
        raise InputError(f"classes {list(names)!r}: name at least two classes, each once")
    try:
        matrix = np.asarray(y_score, dtype=np.float64)
    except (TypeError, ValueError):
        raise InputError("y_score: several classes need a 2-D array of numbers") from None
    if matrix.ndim != 2 or matrix.shape[1] != len(names):
        raise InputError(
            f"y_score has shape {matrix.shape}: several classes need one column a class "
            f"({len(names)} for {', '.join(names)})"
        )
    raw = _flat(y_true, "y_true")
    index = {c: i for i, c in enumerate(names)}
    keys = [str(v).strip() for v in raw.tolist()]
    labels = np.empty(len(keys), dtype=np.int64)
    for i, key in enumerate(keys):
        if key not in index:
            raise InputError(
                f"y_true[{i}]: label {key!r} is not one of the classes ({', '.join(names)})"
            )
        labels[i] = index[key]
    if labels.shape[0] != matrix.shape[0]:
        raise InputError(
            f"y_score has {matrix.shape[0]} rows but y_true has "
            f"{labels.shape[0]}: the lengths must match"
        )
    if not np.all(np.isfinite(matrix)):
        i, j = (int(x[0]) for x in np.nonzero(~np.isfinite(matrix)))
        raise InputError(f"y_score[{i}, {j}] is {matrix[i, j]}: scores must be finite numbers")
    n = labels.shape[0]
    w, row_ids = _weights(sample_weight, n), _ids(ids, n)
    mc = Multiclass(names, matrix, labels, w, row_ids)
    return Source(data=mc.one_vs_rest(0), label=source, multiclass=mc, klass=0)
