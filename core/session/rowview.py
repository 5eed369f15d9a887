"""Which rows a table shows, in which order, without building anything per row.

A :class:`RowView` is the list of row indices a table scrolls through: the
file order, or by score (high to low, or low to high), optionally only the
rows in one cell of the confusion matrix at the current threshold. The file
order of every row is never materialised; sorted orders are argsorted once
per dataset (:class:`RowOrder`) and a cell of a sorted order is a slice of
it, so moving the threshold costs a binary search, not a pass over the rows.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal, get_args

import numpy as np
import numpy.typing as npt
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.errors import quoted
from threshold_lab.core.metrics.confusion import predict, row_cells
from threshold_lab.core.text.scores import shown_score
from threshold_lab.core.threshold import Threshold

IndexArray = npt.NDArray[np.intp]

#: Row orders, in the order a key cycles through them.
#: A row order: as in the file, by score high to low, or low to high.
Order = Literal["file", "score-desc", "score-asc"]
ORDERS: tuple[Order, ...] = get_args(Order)
ORDER_NAMES = {
    "file": "file order",
    "score-desc": "score, high to low",
    "score-asc": "score, low to high",
}
#: Cell filters, in the order a key cycles through them (None shows every row).
CELLS: tuple[str | None, ...] = (None, "TP", "FP", "TN", "FN")
#: The filter, with several models, of the rows they decide differently at the threshold.
DIFFER = "differ"


def decided_apart(models: Sequence[Dataset], threshold: Threshold) -> npt.NDArray[np.bool_] | None:
    """Each row predicted positive by some model and negative by another at
    ``threshold``; None when the models no longer have the same rows (one was edited
    by adding or deleting rows)."""
    if len(models) < 2 or any(m.n != models[0].n for m in models):
        return None
    first = predict(models[0], threshold)
    apart = np.zeros(models[0].n, dtype=bool)
    for m in models[1:]:
        apart |= predict(m, threshold) != first
    return apart


class RowOrder:
    """Score orders of one dataset, computed on first use and kept.

    Ties keep file order (a stable sort), so a view never shuffles equal scores.
    """

    def __init__(self, data: Dataset, previous: RowOrder | None = None) -> None:
        self.data = data
        # A label flip keeps the scores: the score order stays, only classes change.
        if (
            previous is not None
            and previous.data.scores is data.scores
            and "desc" in previous.__dict__
        ):
            self.__dict__["desc"] = previous.desc

    @cached_property
    def desc(self) -> IndexArray:
        """Every row, highest score first."""
        # Stable on the negated scores: ties stay in file order.
        return np.argsort(-self.data.scores, kind="stable")

    @cached_property
    def by_class(self) -> dict[bool, tuple[IndexArray, npt.NDArray[np.float64]]]:
        """Per class: its rows highest score first, and their scores ascending."""
        labels = self.data.labels[self.desc]
        out = {}
        for cls in (True, False):
            rows = self.desc[labels == cls]
            out[cls] = (rows, self.data.scores[rows][::-1])
        return out

    def predicted_in_class(self, cls: bool, threshold: Threshold) -> int:
        """How many rows of class ``cls`` have ``score >= threshold``."""
        if threshold is None:
            return 0
        rows, ascending = self.by_class[cls]
        return int(rows.shape[0] - np.searchsorted(ascending, threshold, side="left"))


def _cell_class(cell: str) -> tuple[bool, bool]:
    """(actual class, predicted positive) of a cell name."""
    return {"TP": (True, True), "FP": (False, True), "TN": (False, False), "FN": (True, False)}[
        cell
    ]


@dataclass(frozen=True, eq=False)
class RowView:
    """The rows a table shows: ``rows`` (None means every row in file order).

    >>> from threshold_lab.core.data.presets import preset
    >>> data = preset("canonical").data
    >>> v = make_view(data, 0.5, "score-desc", None, RowOrder(data))
    >>> v.indices(0, 5).tolist()
    [0, 1, 2, 3, 4]
    >>> make_view(data, 0.5, "file", "FN", RowOrder(data)).indices(0, 5).tolist()
    [4]
    """

    length: int
    rows: IndexArray | None = field(default=None)

    def __len__(self) -> int:
        return self.length

    def indices(self, start: int, stop: int) -> IndexArray:
        """Data row indices at view positions ``start`` to ``stop`` (clipped)."""
        start, stop = max(start, 0), min(stop, self.length)
        if stop <= start:
            return np.empty(0, dtype=np.intp)
        if self.rows is None:
            return np.arange(start, stop, dtype=np.intp)
        return np.asarray(self.rows[start:stop], dtype=np.intp)

    def row_at(self, position: int) -> int | None:
        if not 0 <= position < self.length:
            return None
        return position if self.rows is None else int(self.rows[position])

    def position_of(self, row: int) -> int | None:
        """Where data row ``row`` is in the view, or None when it is not shown."""
        if self.rows is None:
            return row if 0 <= row < self.length else None
        hits = np.flatnonzero(self.rows == row)
        return int(hits[0]) if hits.shape[0] else None


def make_view(
    data: Dataset,
    threshold: Threshold,
    order: str,
    cell: str | None,
    cache: RowOrder,
    models: Sequence[Dataset] = (),
) -> RowView:
    """The rows of ``data`` in ``order`` (see :data:`ORDERS`), only ``cell`` when given.

    In a score order a cell is a slice of its class's sorted rows: predicted
    positives are a prefix. In file order a cell is found with one pass. ``cell``
    :data:`DIFFER` keeps the rows ``models`` decide differently (none when they cannot
    be lined up), in ``data``'s score order when a score order is asked for.
    """
    if order not in ORDERS:
        raise ValueError(f"unknown order {quoted(order)}")
    if cell == DIFFER:
        apart = decided_apart(models, threshold)
        if apart is None or apart.shape[0] != data.n:
            return RowView(0, np.empty(0, dtype=np.intp))
        if order == "file":
            rows = np.flatnonzero(apart)
        else:
            desc = cache.desc
            rows = desc[apart[desc]]
            rows = rows if order == "score-desc" else rows[::-1]
        return RowView(int(rows.shape[0]), rows)
    if cell is None:
        if order == "file":
            return RowView(data.n)
        desc = cache.desc
        return RowView(data.n, desc if order == "score-desc" else desc[::-1])
    actual, predicted = _cell_class(cell)
    if order == "file":
        pred = predict(data, threshold)
        mask = (data.labels == actual) & (pred == predicted)
        rows = np.flatnonzero(mask)
        return RowView(int(rows.shape[0]), rows)
    class_rows, _ = cache.by_class[actual]
    k = cache.predicted_in_class(actual, threshold)
    part = class_rows[:k] if predicted else class_rows[k:]
    return RowView(int(part.shape[0]), part if order == "score-desc" else part[::-1])


def boundary_scores(data: Dataset, threshold: Threshold) -> tuple[float, ...]:
    """The scores either side of the threshold: the lowest score still predicted
    positive and the highest predicted negative (one of them when the other
    side is empty).

    >>> from threshold_lab.core.data.presets import preset
    >>> boundary_scores(preset("canonical").data, 0.5)
    (0.8, 0.4)
    >>> boundary_scores(preset("canonical").data, None)
    (0.9,)
    """
    return _either_side(data.scores, threshold)


def _either_side(s: npt.NDArray[np.float64], threshold: Threshold) -> tuple[float, ...]:
    out: list[float] = []
    if threshold is not None:
        above = s[s >= threshold]
        if above.shape[0]:
            out.append(float(above.min()))
    below = s if threshold is None else s[s < threshold]
    if below.shape[0]:
        out.append(float(below.max()))
    return tuple(out)


def next_boundary_position(
    view: RowView, data: Dataset, threshold: Threshold, after: int
) -> int | None:
    """The first view position after ``after`` (wrapping round) whose row lies at
    the threshold boundary of the rows shown: the lowest shown score at or above
    the threshold, or the highest shown below it. None when nothing is shown.

    In a view of one cell (FP, say) these are that cell's rows nearest the threshold.
    """
    if view.length == 0:
        return None
    shown = data.scores if view.rows is None else data.scores[view.rows]
    hits = np.flatnonzero(np.isin(shown, np.asarray(_either_side(shown, threshold))))
    later = hits[hits > after]
    return int(later[0] if later.shape[0] else hits[0])


@dataclass(frozen=True)
class RowText:
    """One row as both front ends show it: id, score, actual, predicted and cell."""

    id: str
    score: str
    actual: str
    predicted: str
    cell: str


def row_texts(
    data: Dataset,
    threshold: Threshold,
    rows: npt.NDArray[np.intp],
    thresholds: npt.NDArray[np.float64] | None = None,
) -> list[RowText]:
    """The rows ``rows`` of ``data`` at ``threshold``, as text (scores as
    :func:`~threshold_lab.core.text.scores.shown_score` shows them among
    ``thresholds``, the distinct scores, when given).

    >>> from threshold_lab.core.data.presets import preset
    >>> row_texts(preset("canonical").data, 0.5, np.array([1]))
    [RowText(id='s2', score='0.8', actual='0', predicted='1', cell='FP')]
    """
    pred = predict(data, threshold, rows=rows)
    cells = row_cells(data, threshold, rows=rows)
    return [
        RowText(
            id=data.shown_id(i),
            score=shown_score(float(data.scores[i]), thresholds),
            actual="1" if data.labels[i] else "0",
            predicted="1" if pred[j] else "0",
            cell=str(cells[j]),
        )
        for j, i in enumerate(rows.tolist())
    ]


@dataclass(frozen=True)
class SideBySide:
    """One row as several models decide it: its id and actual class, and per model
    (name, score, cell)."""

    id: str
    actual: str
    models: tuple[tuple[str, str, str], ...]


def side_by_side(
    models: Sequence[tuple[str, Dataset]], threshold: Threshold, rows: npt.NDArray[np.intp]
) -> list[SideBySide]:
    """Rows ``rows`` of every model of the same examples at ``threshold``: each model's
    score and cell side by side (the first model's id and actual class).

    >>> from threshold_lab.core.data.presets import preset
    >>> ms = [(m.name, m.data) for m in preset("deliveries").models]
    >>> np.flatnonzero(decided_apart([d for _, d in ms], 0.7)).tolist()
    [2, 4]
    >>> side_by_side(ms, 0.7, np.array([2]))[0]
    SideBySide(id='3', actual='0', models=(('A', '0.75', 'FP'), ('B', '0.66', 'TN')))
    """
    first = models[0][1]
    cells = [row_cells(d, threshold, rows=rows) for _, d in models]
    return [
        SideBySide(
            first.shown_id(i),
            "1" if first.labels[i] else "0",
            tuple(
                (name, repr(float(d.scores[i])), str(cells[k][j]))
                for k, (name, d) in enumerate(models)
            ),
        )
        for j, i in enumerate(rows.tolist())
    ]


@dataclass(frozen=True, eq=False)
class Changed:
    """Rows whose prediction just changed.

    A threshold move changes exactly the rows with a score in ``[lo, hi)``
    (the band between the old and new thresholds), so it is kept as that band;
    an edit lists its rows.

    >>> import numpy as np
    >>> c = Changed.band(0.85, 0.5)
    >>> c.mask(np.array([0.9, 0.8, 0.5, 0.4]), np.arange(4)).tolist()
    [False, True, True, False]
    """

    lo: float = math.inf
    hi: float = -math.inf
    rows: IndexArray | None = None

    @classmethod
    def band(cls, old: Threshold, new: Threshold) -> Changed:
        a = math.inf if old is None else float(old)
        b = math.inf if new is None else float(new)
        return cls(lo=min(a, b), hi=max(a, b))

    @classmethod
    def listed(cls, rows: IndexArray) -> Changed:
        return cls(rows=np.sort(rows))

    def mask(
        self, scores: npt.NDArray[np.float64], rows: npt.NDArray[Any]
    ) -> npt.NDArray[np.bool_]:
        """For data rows ``rows`` (whose scores are ``scores``): did the prediction change?"""
        out = (scores >= self.lo) & (scores < self.hi)
        if self.rows is not None and self.rows.shape[0]:
            out |= np.isin(rows, self.rows)
        return out

    def among(self, scores: npt.NDArray[np.float64]) -> IndexArray:
        """Every changed row of a dataset with these scores (a pass over all of them).

        >>> Changed.band(None, 0.8).among(np.array([0.9, 0.8, 0.4])).tolist()
        [0, 1]
        """
        return np.flatnonzero(self.mask(scores, np.arange(scores.shape[0])))


NOTHING_CHANGED = Changed()
