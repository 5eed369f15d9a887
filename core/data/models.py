"""Several models' scores of the same examples, in one file.

A file holds several models when ``--score-column`` is given more than once (the
column names are the model names), when it has no ``score`` column but has
``score_<name>`` columns (the model is ``<name>``), or, for a JSON fixture, when
``"scores"`` is an object of lists by model name. One label column (and weight and
id) is shared by all. The first model's rows are read as any file's are; each other
model's scores are read from the same rows and checked the same way (finite
numbers, one per row).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt
from threshold_lab.core.data.cells import Columns, fail, numbers
from threshold_lab.core.data.dataset import Dataset, Model
from threshold_lab.core.data.delimited import header_of
from threshold_lab.core.data.extra import numeric_column
from threshold_lab.core.data.json_file import model_lists, read_doc
from threshold_lab.core.data.loaders import load_file
from threshold_lab.core.errors import quoted

#: A header's columns named ``score_<model>`` hold model ``<model>``'s scores.
SCORE_PREFIX = "score_"


def _header(path: Path) -> list[str]:
    suffix = path.suffix.lower()
    if suffix in (".parquet", ".pq"):
        try:
            import pyarrow.parquet as pq

            return list(pq.read_schema(str(path)).names)
        except Exception:  # the reader says what is wrong with the file
            return []
    return header_of(path)


def _regular(path: Path) -> bool:
    """A regular file (one that can be read twice); False for a pipe, a device, or
    one that cannot be looked at (the loader then says why)."""
    try:
        return path.is_file() and not path.is_fifo()
    except OSError:
        return False


def score_columns(path: Path, given: Sequence[str]) -> list[tuple[str, str]]:
    """The (model name, column) pairs ``path`` holds, or [] for one model.

    ``given`` are the ``--score-column`` names (empty: none given)."""
    if len(given) >= 2:
        if len(set(given)) != len(given):
            dup = next(g for g in given if given.count(g) > 1)
            raise fail(path, f"--score-column {quoted(dup)} is given twice")
        return [(g, g) for g in given]
    if given or path.suffix.lower() == ".json" or not _regular(path):
        return []  # a pipe or device is read once, by the loader: no header to peek at
    header = _header(path)
    if any(h.lower() == "score" for h in header):
        return []
    found = [(h[len(SCORE_PREFIX) :], h) for h in header if h.lower().startswith(SCORE_PREFIX)]
    found = [(name, h) for name, h in found if name]
    return found if len(found) >= 2 else []


def load_models(
    path: Path, cols: Columns, given: Sequence[str], aggregated: bool | None
) -> tuple[Model, ...]:
    """Every model of ``path`` when it holds several (else ``()``)."""
    if path.suffix.lower() == ".json":
        if not _regular(path):
            return ()  # read once, by the loader (one model)
        lists = model_lists(path, read_doc(path))
        if lists is None:
            return ()
        first = load_file(path, cols, aggregated=False)
        out = [Model(next(iter(lists)), first)]
        for name, values in list(lists.items())[1:]:
            if len(values) != first.n:
                raise fail(
                    path,
                    f'"scores" of model {quoted(name)} has {len(values)} items for {first.n} rows',
                )
            scores = numbers(path, f"scores.{name}", values, lambda i: f"item {i}")
            out.append(Model(name, first.with_scores(scores, name=name)))
        return tuple(out) if len(out) >= 2 else ()
    pairs = score_columns(path, given)
    if not pairs:
        return ()
    if not _regular(path):
        raise fail(
            path,
            "several models are read from a regular file (each model's "
            "column is read in turn); this is a pipe or device",
        )
    if aggregated:
        raise fail(
            path,
            "aggregated counts (score, positives, negatives) hold one model; "
            "several models need one row per example",
        )
    first_name, first_column = pairs[0]
    first = load_file(path, dataclasses.replace(cols, score=first_column), aggregated=False)
    out = [Model(first_name, first)]
    for name, column in pairs[1:]:
        column_scores = numeric_column(path, column, first.n, purpose=f"model {name}'s scores")
        out.append(Model(name, first.with_scores(column_scores, name=name)))
    return tuple(out)


def _ids(data: Dataset) -> npt.NDArray[np.str_]:
    """Every row's id as a numpy string array (rows without ids: their numbers)."""
    if data.ids is None:
        return np.arange(1, data.n + 1).astype(str)
    return np.asarray(list(data.ids), dtype=str)


def _such(n: int) -> str:
    return "1 such row" if n == 1 else f"{n:,} such rows"


def model_name(path: Path, other: Path) -> str:
    """A model named after its file: the file's stem; when two different files share
    a stem, its folder and stem (``runs/model``), or the whole path if that is shared
    too."""
    if path.stem != other.stem or path.resolve() == other.resolve():
        return path.stem
    here, there = f"{path.parent.name}/{path.stem}", f"{other.parent.name}/{other.stem}"
    return here if here != there else str(path)


def join_models(
    path: Path, first: Dataset, other_path: Path, cols: Columns, flag: str = "--compare"
) -> tuple[Model, ...]:
    """Two files of the same examples, each one model, joined on id (the first file's
    row order): a row in one file and not the other, or an example labelled (or
    weighted) differently in the two, is an error naming the id. Rows without an id
    column are joined by their position."""
    other = load_file(other_path, cols, aggregated=False)
    if (first.ids is None) != (other.ids is None):
        has, lacks = (path, other_path) if other.ids is None else (other_path, path)
        raise fail(
            lacks,
            f"{flag} joins the two files on their id column; {has} has one and this "
            "file has none (name it with --id-column)",
        )
    ia, ib = _ids(first), _ids(other)
    sa, sb = np.argsort(ia, kind="stable"), np.argsort(ib, kind="stable")
    if ia.shape != ib.shape or not np.array_equal(ia[sa], ib[sb]):
        missing = np.flatnonzero(~np.isin(ia, ib))
        if missing.size:
            raise fail(
                other_path,
                f"has no row with id {quoted(first.shown_id(int(missing[0])))}, which {path} has "
                f"({_such(missing.size)}); {flag} needs the same examples in both",
            )
        extra = int(np.flatnonzero(~np.isin(ib, ia))[0])
        raise fail(
            other_path,
            f"has a row with id {quoted(other.shown_id(extra))} that {path} has not; {flag} "
            "needs the same examples in both",
        )
    at = np.empty(first.n, dtype=np.intp)  # each first-file row's row in the other file
    at[sa] = sb
    apart = np.flatnonzero(first.labels != other.labels[at])
    if apart.size:
        i = int(apart[0])
        said = {True: "positive", False: "negative"}
        raise fail(
            other_path,
            f"row id {quoted(first.shown_id(i))} is labelled {said[bool(other.labels[at[i]])]} "
            f"here and {said[bool(first.labels[i])]} in {path} ({_such(apart.size)}); "
            f"{flag} needs the same labels in both",
        )
    wa = np.ones(first.n) if first.weights is None else first.weights
    wb = np.ones(other.n) if other.weights is None else other.weights[at]
    apart = np.flatnonzero(wa != wb)
    if apart.size:
        i = int(apart[0])
        raise fail(
            other_path,
            f"row id {quoted(first.shown_id(i))} has weight {wb[i]:g} here and {wa[i]:g} in "
            f"{path}; {flag} needs the same weights in both",
        )
    a, b = model_name(path, other_path), model_name(other_path, path)
    b = f"{b} (2)" if a == b else b  # a file compared with itself
    return (Model(a, first), Model(b, first.with_scores(other.scores[at], name=b)))
