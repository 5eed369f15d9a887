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

from core.data.cells import Columns, fail, numbers
from core.data.dataset import Model
from core.data.delimited import header_of
from core.data.extra import numeric_column
from core.data.json_file import model_lists, read_doc
from core.data.loaders import load_file

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
            raise fail(path, f"--score-column {dup!r} is given twice")
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
                raise fail(path, f'"scores" of model {name!r} has {len(values)} items for '
                           f"{first.n} rows")  # fmt: skip
            scores = numbers(path, f"scores.{name}", values, lambda i: f"item {i}")
            out.append(Model(name, first.with_scores(scores, name=name)))
        return tuple(out) if len(out) >= 2 else ()
    pairs = score_columns(path, given)
    if not pairs:
        return ()
    if not _regular(path):
        raise fail(path, "several models are read from a regular file (each model's "
                   "column is read in turn); this is a pipe or device")  # fmt: skip
    if aggregated:
        raise fail(path, "aggregated counts (score, positives, negatives) hold one model; "
                   "several models need one row per example")  # fmt: skip
    first_name, first_column = pairs[0]
    first = load_file(path, dataclasses.replace(cols, score=first_column), aggregated=False)
    out = [Model(first_name, first)]
    for name, column in pairs[1:]:
        column_scores = numeric_column(path, column, first.n, purpose=f"model {name}'s scores")
        out.append(Model(name, first.with_scores(column_scores, name=name)))
    return tuple(out)
