"""Edits to the rows: each returns a new Dataset or raises InputError, losing nothing."""

from __future__ import annotations

import numpy as np

from core.dataset import Dataset, make_dataset
from core.errors import InputError


def _ids(data: Dataset) -> list[str]:
    return [data.row_id(i) for i in range(data.n)]


def check_score(data: Dataset, text: str) -> float:
    """A typed score: a finite number, and in [0, 1] when the data are probabilities.

    >>> from core.presets import preset
    >>> check_score(preset("canonical").data, "1.5")
    Traceback (most recent call last):
    ...
    core.errors.InputError: score 1.5 is outside [0, 1], and these scores are probabilities
    """
    cleaned = text.strip()
    try:
        value = float(cleaned)
    except ValueError:
        raise InputError(f"score {cleaned!r} is not a number") from None
    if not np.isfinite(value):
        raise InputError(f"score {cleaned!r} is not a finite number")
    if data.are_probabilities and not 0.0 <= value <= 1.0:
        raise InputError(f"score {cleaned} is outside [0, 1], and these scores are probabilities")
    return value


def set_score(data: Dataset, index: int, value: float) -> Dataset:
    """Row ``index`` with a new score."""
    scores = data.scores.copy()
    scores[index] = value
    return make_dataset(scores, data.labels, weights=data.weights, ids=_ids(data))


def flip_label(data: Dataset, index: int) -> Dataset:
    """Row ``index`` with its actual label flipped."""
    labels = data.labels.copy()
    labels[index] = not labels[index]
    return make_dataset(data.scores, labels, weights=data.weights, ids=_ids(data))


def add_row(data: Dataset, score: float, label: bool) -> Dataset:
    """A new row at the end, with a fresh id (and weight 1 when weighted)."""
    ids = _ids(data)
    taken = set(ids)
    k = data.n + 1
    while f"new{k}" in taken:
        k += 1
    weights = None if data.weights is None else np.append(data.weights, 1.0)
    return make_dataset(
        np.append(data.scores, score),
        np.append(data.labels, label),
        weights=weights,
        ids=[*ids, f"new{k}"],
    )


def delete_row(data: Dataset, index: int) -> Dataset:
    """Every row but ``index``; the last remaining row cannot be removed."""
    if data.n == 1:
        raise InputError("cannot remove the only row: at least one scored example is needed")
    keep = np.ones(data.n, dtype=bool)
    keep[index] = False
    ids = [i for j, i in enumerate(_ids(data)) if keep[j]]
    weights = None if data.weights is None else data.weights[keep]
    if weights is not None and not (weights > 0).any():
        raise InputError("cannot remove that row: every remaining weight would be zero")
    return make_dataset(data.scores[keep], data.labels[keep], weights=weights, ids=ids)


def to_csv(data: Dataset) -> str:
    """The rows as CSV text with a header (id, score, label[, weight])."""
    head = "id,score,label" + (",weight" if data.weights is not None else "")
    lines = [head]
    for i in range(data.n):
        row = f"{_quote(data.row_id(i))},{float(data.scores[i])!r},{int(data.labels[i])}"
        if data.weights is not None:
            row += f",{float(data.weights[i])!r}"
        lines.append(row)
    return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    if any(c in text for c in ',"\n\r'):
        return '"' + text.replace('"', '""') + '"'
    return text
