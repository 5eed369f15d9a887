"""Rows from a Python session: labels and scores as arrays (numpy, lists, pandas or
polars Series), checked by the same rules as the file readers.

Labels are 0/1, booleans or true/false, or two other values with ``positive``
naming the positive one; a third value, a missing label, a NaN or infinite score
and mismatched lengths are refused, naming the array and the index at fault.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from decimal import Decimal
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.data.classes import Multiclass
from threshold_lab.core.data.dataset import Dataset, Model, make_dataset
from threshold_lab.core.data.labels import LabelProblem, label_key, truth_of
from threshold_lab.core.data.sources import Source
from threshold_lab.core.doubles import EXACT, integer_problem, read_double
from threshold_lab.core.errors import InputError, quoted

#: The source a report of arrays names (the ``source`` field of its JSON).
ARRAYS = "arrays"

BoolArray = npt.NDArray[np.bool_]


def _api_words(text: str) -> str:
    """A label rule's words for a Python caller: ``positive=NAME``, not the flag."""
    return text.replace("--positive NAME", "positive=NAME").replace("--positive ", "positive=")


def at(name: str, i: int) -> str:
    """Where a value is in an array, as messages name it: its row counted from 1
    (``y_true row 2``), as a file's rows and a frame's are counted: one numbering."""
    return f"{name} row {i + 1}"


def _flat(values: Any, name: str) -> npt.NDArray[Any]:
    """``values`` as a one-dimensional array (a Series, a list, a column)."""
    if isinstance(values, set | frozenset | Iterator):
        kind = (
            "a set, which has no order"
            if isinstance(values, set | frozenset)
            else ("an iterator, which can be read only once")
        )
        raise InputError(f"{name} is {kind}: give a list or an array, one value per row")
    if np.ma.isMaskedArray(values):
        mask = np.ma.getmaskarray(values)
        if mask.any():
            first = int(np.flatnonzero(mask.reshape(-1))[0])
            raise InputError(
                f"{at(name, first)} is masked ({int(mask.sum())} masked in all): masked "
                "values are not read as missing; fill them (.filled(...)) or leave their "
                "rows out of every array"
            )
        values = np.ma.getdata(values)
    try:
        a = np.asarray(values)
    except (TypeError, ValueError, OverflowError) as exc:
        if "inhomogeneous" in str(exc):
            raise InputError(
                f"{name}: its items are of different lengths (a ragged list): give one "
                "value per row"
            ) from None
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
    threshold_lab.core.errors.InputError: y_true row 3: label '2' is not 0/1 or true/false ...
    """
    y = _flat(y_true, "y_true")
    if y.dtype == np.bool_ and positive is None:
        return y.astype(bool, copy=True)
    wanted = None if positive is None else label_key(positive)
    if y.dtype.kind in "fc" and np.isnan(y).any():
        raise InputError(
            f"{at('y_true', int(np.flatnonzero(np.isnan(y))[0]))}: the label is missing (NaN)"
        )
    if y.dtype.kind == "O":
        values = y.tolist()
        missing = next((i for i, v in enumerate(values) if _missing(v)), None)
        if missing is not None:
            said = "None" if values[missing] is None else quoted(values[missing])
            raise InputError(f"{at('y_true', missing)}: the label is missing ({said})")
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
        raise InputError(f"{at('y_true', int(first[order[problem.at]]))}: {text}") from None
    positive_value = np.zeros(values.shape[0], dtype=bool)
    positive_value[order] = [truth[k] for k in distinct]
    out: BoolArray = positive_value[np.asarray(inverse).reshape(-1)]
    return out


def _missing(v: object) -> bool:
    """Whether a label is a missing value: None, a NaN, pandas' NA or NaT."""
    if v is None or type(v).__name__ in ("NAType", "NaTType"):
        return True
    return isinstance(v, float) and v != v


def scores_of(y_score: Any, name: str = "y_score") -> npt.NDArray[np.float64]:
    """Scores as float64, read by the rules a file's scores are (raises InputError
    naming the first value at fault): real numbers only, and none that a double would
    silently change into another score.

    >>> scores_of(["0.5", 2, 0.25]).tolist()
    [0.5, 2.0, 0.25]
    >>> scores_of(["1e-400", "0.5"])
    Traceback (most recent call last):
    ...
    threshold_lab.core.errors.InputError: y_score row 1 is '1e-400': too small for a ...
    >>> scores_of([9007199254740993, 1])
    Traceback (most recent call last):
    ...
    threshold_lab.core.errors.InputError: y_score row 1 is 9007199254740993: an integer ...
    """
    s = _flat(y_score, name)
    kind = s.dtype.kind
    if kind == "c":
        raise InputError(f"{name} holds complex numbers ({s.dtype}): scores must be real numbers")
    if kind in "mM":
        what = "dates or times" if kind == "M" else "time spans"
        raise InputError(f"{name} holds {what} ({s.dtype}): scores must be numbers")
    if kind in "iu":
        _exact_integers(s, name)
    elif kind == "f" and s.dtype.itemsize > 8:
        _no_ties_made(s, name)
    elif kind not in "bf":
        return _read_each(s, name)
    return np.asarray(s, dtype=np.float64)


def _exact_integers(s: npt.NDArray[Any], name: str) -> None:
    """Integer scores beyond 2^53 refused where a double would round them (two
    different scores could read as one)."""
    big = np.flatnonzero((s > EXACT) | (s < -EXACT))
    for i in big.tolist():
        why = integer_problem(int(s[i]))
        if why is not None:
            raise InputError(f"{at(name, i)} is {int(s[i])}: {why}")


def _no_ties_made(s: npt.NDArray[Any], name: str) -> None:
    """Scores more precise than a double (``np.longdouble``) refused where two
    different ones would read as the same double."""
    doubles = s.astype(np.float64)
    if not np.isfinite(doubles[np.isfinite(s)]).all():
        i = int(np.flatnonzero(np.isfinite(s) & ~np.isfinite(doubles))[0])
        raise InputError(f"{at(name, i)} is {s[i]}: too large for a double")
    order = np.argsort(s, kind="stable")
    a, b = s[order], doubles[order]
    merged = np.flatnonzero((b[1:] == b[:-1]) & (a[1:] != a[:-1]))
    if merged.size:
        i, j = int(order[merged[0]]), int(order[merged[0] + 1])
        a_text, b_text = (np.format_float_scientific(s[k], unique=True) for k in (i, j))
        raise InputError(
            f"{at(name, i)} and {at(name, j)} are different scores ({a_text} and {b_text}) "
            f"but the same double ({float(doubles[i])!r}): scores are compared as doubles"
        )


def _read_each(s: npt.NDArray[Any], name: str) -> npt.NDArray[np.float64]:
    """Scores of mixed kinds (text, Python numbers), each read as a file's cell is."""
    out = np.empty(s.shape[0], dtype=np.float64)
    for i, v in enumerate(s.tolist()):
        try:
            out[i] = _one_score(v)
        except ValueError as exc:
            raise InputError(f"{at(name, i)} is {quoted(v)}: {exc}") from None
    return out


def _one_score(v: object) -> float:
    if isinstance(v, bool | np.bool_):
        return float(v)
    if isinstance(v, int | np.integer):
        why = integer_problem(int(v))
        if why is not None:
            raise ValueError(why)
        return float(v)
    if isinstance(v, float | np.floating):
        return float(v)
    if isinstance(v, str):
        try:
            return read_double(v)
        except ValueError as exc:  # "'x' is not a number": the value is quoted before
            raise ValueError(str(exc).removeprefix(f"{quoted(v)} is ")) from None
    if isinstance(v, Fraction | Decimal):
        try:
            return _finite(float(v))
        except OverflowError:
            raise ValueError("too large for a double") from None
    if v is None:
        raise ValueError("the score is missing")
    raise ValueError(f"not a number (of type {type(v).__name__}); scores must be numbers")


def _finite(value: float) -> float:
    if not np.isfinite(value):
        raise ValueError("too large for a double")
    return value


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
    try:
        shape = np.shape(y_score)
    except ValueError:  # ragged: _flat says so
        shape = ()
    if len(shape) == 2 and min(shape) > 1:
        raise InputError(
            f"y_score has {shape[1]} columns: pass classes=[...] naming them (several "
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
        where = f"y_score[{quoted(name)}]"
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
                f"{at('y_true', i)}: label {quoted(key)} is not one of the classes "
                f"({', '.join(names)})"
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
