"""Aggregated input: one row per score with the (weighted) count of positives and negatives.

It is a sufficient statistic for every ranking metric: each row becomes a
positive and a negative example at that score, weighted by its counts. CSV/TSV
files are read by the exact reader's row loop (:func:`core.data.delimited.read_rows`),
so their messages match those of ordinary files line for line.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from core.data import delimited, progress
from core.data.cells import Where, fail, find, numbers
from core.data.dataset import Dataset, make_dataset, weight_problem
from core.errors import InputError

AGGREGATED_COLUMNS = ("score", "positives", "negatives")


def is_aggregated(header: Sequence[str]) -> bool:
    """A header with score, positives and negatives columns is aggregated input.

    >>> is_aggregated(["Score", "positives", "negatives"]), is_aggregated(["score", "label"])
    (True, False)
    """
    lowered = {h.strip().lower() for h in header}
    return set(AGGREGATED_COLUMNS) <= lowered


def aggregated_columns(path: Path, header: Sequence[str]) -> dict[str, int]:
    """Header positions of score, positives and negatives, each required."""
    return {name: find(path, header, name, "the header") for name in AGGREGATED_COLUMNS}


def from_aggregated(path: Path, cells: dict[str, list[object]], where: Where) -> Dataset:
    """The examples that the raw ``score``, ``positives`` and ``negatives`` cells stand for.

    Parameters
    ----------
    path : Path
        The file, for messages.
    cells : dict
        Raw cells keyed by the names in :data:`AGGREGATED_COLUMNS`.
    where : Where
        A row's index to its place in the file, for messages.

    Raises
    ------
    InputError
        The first problem, naming file, place and column.
    """
    scores = numbers(path, "score", cells["score"], where)
    pos = numbers(path, "positives", cells["positives"], where)
    neg = numbers(path, "negatives", cells["negatives"], where)
    for name, values in (("positives", pos), ("negatives", neg)):
        bad = np.flatnonzero(values < 0)
        if bad.shape[0]:
            i = int(bad[0])
            raise fail(path, f"{where(i)}, column {name!r}: {float(values[i])!r} is negative")
    n = scores.shape[0]
    problem = weight_problem(np.concatenate((pos, neg)))
    if problem is not None:
        i, why = problem
        if i < 0:
            raise fail(path, why)
        name, row = ("positives", i) if i < n else ("negatives", i - n)
        raise fail(path, f"{where(row)}, column {name!r}: the count {why}")
    try:
        return make_dataset(
            np.concatenate((scores, scores)),
            np.concatenate((np.ones(n, dtype=bool), np.zeros(n, dtype=bool))),
            weights=np.concatenate((pos, neg)),
        )
    except InputError as exc:
        raise fail(path, str(exc)) from None


def load_aggregated(path: Path) -> Dataset:
    """Read a CSV/TSV of ``score, positives, negatives`` (counts or weighted sums)."""
    try:
        text = progress.read_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise fail(path, f"not UTF-8 text (byte at offset {exc.start})") from None
    lines = delimited.lines_of(text)
    if not lines or not lines[0].strip():
        raise fail(path, "the file is empty: a header row score,positives,negatives is needed")
    rows = delimited.read_rows(path, lines, lambda header: aggregated_columns(path, header))
    if not rows.line_of:
        raise fail(path, "no data rows after the header")
    return from_aggregated(path, rows.cells, rows.where)
