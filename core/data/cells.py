"""What every exact reader shares: which columns to read, and cells to a Dataset.

A reader finds its columns in a header (:func:`columns_wanted`), collects
their raw cells, and :func:`assemble` checks them into a Dataset. Every
problem becomes one :class:`~threshold_lab.core.errors.InputError` whose message names the
file, the place (``line 3``, ``row 3``, ``item 2``: the reader's ``where``)
and the column, and says what is wrong.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from threshold_lab.core.data.dataset import Dataset, make_dataset, weight_problem
from threshold_lab.core.data.labels import LabelProblem, first_missing, read_labels
from threshold_lab.core.doubles import integer_problem, read_double
from threshold_lab.core.errors import InputError, quoted


@dataclass(frozen=True)
class Columns:
    """Which columns hold what. ``None`` for weight/id means: use it if present."""

    score: str = "score"
    label: str = "label"
    weight: str | None = None
    id: str | None = None
    positive: str | None = None


#: A data row's index to its place in the file, for messages: ``lambda i: f"line {i + 2}"``.
Where = Callable[[int], str]


def fail(path: Path, message: str) -> InputError:
    """The error for a problem in ``path``: the message, prefixed by the file."""
    return InputError(f"{path}: {message}")


def matching(header: Sequence[str], name: str) -> list[int]:
    """The positions in ``header`` naming column ``name``: exactly, else ignoring case.

    Spaces round a name never count (``score, label``); case counts only to choose
    between names that differ in nothing else."""
    found = [i for i, h in enumerate(header) if h.strip() == name.strip()]
    if not found:
        key = name.strip().lower()
        found = [i for i, h in enumerate(header) if h.strip().lower() == key]
    return found


def find(path: Path, header: Sequence[str], name: str, flag: str) -> int:
    """Where column ``name`` is in ``header``: exactly, else ignoring case and spaces.

    A missing column is an error listing the columns there are and ``flag``,
    the way to choose another.
    """
    found = matching(header, name)
    if len(found) == 1:
        return found[0]
    if found:
        spellings = list(dict.fromkeys(header[i] for i in found))
        what = (
            f"{len(found)} columns named {quoted(spellings[0])}"
            if len(spellings) == 1
            else f"{len(found)} columns that match {quoted(name)} ("
            + ", ".join(repr(h) for h in spellings)
            + ")"
        )
        raise fail(path, f"the header has {what}: rename the copies so it is clear which to read")
    columns = ", ".join(repr(h) for h in header)
    raise fail(
        path, f"no column {quoted(name)} in the header (columns: {columns}); choose one with {flag}"
    )


def optional(path: Path, header: Sequence[str], name: str, taken: set[int]) -> int | None:
    """Where the column ``name`` (lower case) is in ``header``, ignoring case; None if
    absent or if it is a column already chosen (``--score-column weight``)."""
    lowered = [h.strip().lower() for h in header]
    if name not in lowered:
        return None
    i = find(path, header, name, "")
    return None if i in taken else i


def columns_wanted(path: Path, header: Sequence[str], cols: Columns) -> dict[str, int]:
    """Header positions of score and label, and of weight and id when present.

    Keyed ``"score"``, ``"label"``, ``"weight"`` and ``"id"`` whatever the
    columns are called, as :func:`assemble` takes its cells.
    """
    wanted: dict[str, int] = {
        "score": find(path, header, cols.score, "--score-column"),
        "label": find(path, header, cols.label, "--label-column"),
    }
    if cols.weight:
        wanted["weight"] = find(path, header, cols.weight, "--weight-column")
    if cols.id:
        wanted["id"] = find(path, header, cols.id, "--id-column")
    roles = list(wanted.items())
    for n, (role, i) in enumerate(roles):
        for other, j in roles[:n]:
            if i == j:
                raise fail(
                    path,
                    f"column {quoted(header[i])} is asked to be both the {other} and the {role}: "
                    "choose different columns",
                )
    taken = set(wanted.values())
    for role in ("weight", "id"):
        if role not in wanted:
            found = optional(path, header, role, taken)
            if found is not None:
                wanted[role] = found
    return wanted


def names_wanted(path: Path, header: Sequence[str], cols: Columns) -> dict[str, str]:
    """``score``, ``label`` and (when present) ``weight`` and ``id`` to the header
    name of the column holding it, as the pyarrow readers take them."""
    wanted = columns_wanted(path, header, cols)
    return {k: header[i] for k, i in wanted.items()}


def numbers(path: Path, column: str, values: Sequence[object], where: Where) -> np.ndarray:
    """Parse a column of numbers, naming the first bad cell's place."""
    out = np.empty(len(values), dtype=np.float64)
    for i, raw in enumerate(values):
        if isinstance(raw, bool) or raw is None:
            raise fail(path, f"{where(i)}, column {quoted(column)}: {quoted(raw)} is not a number")
        if isinstance(raw, list | dict):  # from JSON: named by kind, not spelled out
            kind = "a list" if isinstance(raw, list) else "an object"
            raise fail(path, f"{where(i)}, column {quoted(column)}: {kind} is not a number")
        text = raw.strip() if isinstance(raw, str) else raw
        if text == "":
            raise fail(path, f"{where(i)}, column {quoted(column)}: the cell is empty")
        if isinstance(text, int):
            problem = integer_problem(text)
            if problem is not None:
                raise fail(path, f"{where(i)}, column {quoted(column)}: {quoted(raw)} is {problem}")
            value = float(text)
        elif isinstance(text, float):
            value = text
        else:
            written = text if isinstance(text, str) else str(text)
            try:
                value = read_double(written)
            except ValueError as exc:
                raise fail(path, f"{where(i)}, column {quoted(column)}: {exc}") from None
        if not math.isfinite(value):
            raise fail(
                path, f"{where(i)}, column {quoted(column)}: {quoted(raw)} is not a finite number"
            )
        out[i] = value
    return out


def _labels(
    path: Path, column: str, values: Sequence[object], where: Where, positive: str | None
) -> np.ndarray:
    """The label rules of :mod:`threshold_lab.core.data.labels`, a broken one named by place."""
    try:
        return read_labels(values, positive)
    except LabelProblem as problem:
        if problem.at is None:
            raise fail(path, problem.text) from None
        raise fail(path, f"{where(problem.at)}, column {quoted(column)}: {problem.text}") from None


def _weights(path: Path, values: Sequence[object], where: Where, cols: Columns) -> np.ndarray:
    column = cols.weight or "weight"
    weights = numbers(path, column, values, where)
    bad = np.flatnonzero(weights < 0)
    if bad.shape[0]:
        i = int(bad[0])
        raise fail(
            path,
            f"{where(i)}, column {quoted(column)}: weight {float(weights[i])!r} "
            "is negative; weights must be 0 or more",
        )
    problem = weight_problem(weights)
    if problem is not None and problem[0] >= 0:
        i, why = problem
        raise fail(path, f"{where(i)}, column {quoted(column)}: weight {why}")
    return weights


def _ids(path: Path, values: Sequence[object], where: Where, cols: Columns) -> list[str]:
    column = cols.id or "id"
    missing = first_missing(values)
    if missing is not None:
        raise fail(path, f"{where(missing)}, column {quoted(column)}: the id is missing (null)")
    ids = [str(v).strip() for v in values]
    first: dict[str, int] = {}
    for i, v in enumerate(ids):
        if v in first:
            raise fail(
                path,
                f"{where(i)}, column {quoted(column)}: id {quoted(v)} repeats "
                f"{where(first[v])}; ids must be unique",
            )
        first[v] = i
    return ids


def assemble(path: Path, cells: dict[str, list[object]], where: Where, cols: Columns) -> Dataset:
    """Check the raw cells of each column into a Dataset.

    Parameters
    ----------
    path : Path
        The file, for messages.
    cells : dict
        Raw cells by column, keyed as :func:`columns_wanted` keys them.
    where : Where
        A row's index to its place in the file, for messages.
    cols : Columns
        The column names (for messages) and the ``--positive`` name.

    Raises
    ------
    InputError
        The first problem, naming file, place and column.
    """
    if not cells["score"]:
        raise fail(path, "no data rows after the header")
    scores = numbers(path, cols.score, cells["score"], where)
    labels = _labels(path, cols.label, cells["label"], where, cols.positive)
    weights = _weights(path, cells["weight"], where, cols) if "weight" in cells else None
    ids = _ids(path, cells["id"], where, cols) if "id" in cells else None
    try:
        return make_dataset(scores, labels, weights=weights, ids=ids)
    except InputError as exc:
        raise fail(path, str(exc)) from None
