"""Edits to the rows, each reversible and cheap on ten million rows.

An :class:`Edit` makes a new Dataset from the old one, changing only what it
must: the one array it touches is copied (a memory copy, milliseconds at 10^7
rows) and the rest are shared, read-only. It also updates the old sweep in
O(m) instead of sorting again (:mod:`threshold_lab.core.curves.sweep`), and it knows its inverse,
so the history keeps small edits rather than whole datasets.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import RowChange
from threshold_lab.core.curves.sweep import Sweep, sweep_flipped, sweep_with, sweep_without
from threshold_lab.core.data.dataset import Dataset, weight_problem
from threshold_lab.core.data.rownames import RowNames
from threshold_lab.core.doubles import read_typed
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.metrics.confusion import predict
from threshold_lab.core.session.rowview import NOTHING_CHANGED, Changed
from threshold_lab.core.threshold import Threshold
from threshold_lab.core.transform import Applied, parse_transform
from threshold_lab.core.transform import apply as apply_transform


def check_score(data: Dataset, text: str) -> float:
    """A typed score: a finite number (a decimal, or one fraction read as the double
    nearest it), and in [0, 1] when the data are probabilities.

    >>> from threshold_lab.core.data.presets import preset
    >>> check_score(preset("canonical").data, "1.5")
    Traceback (most recent call last):
    ...
    threshold_lab.core.errors.InputError: score 1.5 is outside [0, 1], and these scores are ...
    """
    cleaned = text.strip()
    try:
        value = read_typed(cleaned)
    except ValueError as exc:
        raise InputError(f"score {exc}") from None
    if data.are_probabilities and not 0.0 <= value <= 1.0:
        raise InputError(f"score {cleaned} is outside [0, 1], and these scores are probabilities")
    return value


_A = TypeVar("_A", bound="np.ndarray[Any, Any]")


def _frozen(a: _A) -> _A:
    a.flags.writeable = False
    return a


def _weight(data: Dataset, index: int) -> float:
    return 1.0 if data.weights is None else float(data.weights[index])


def _still_scored(data: Dataset, score: float) -> bool:
    """Whether any row of ``data`` still has ``score`` (its sweep point stays)."""
    return bool(np.count_nonzero(data.scores == score))


def _kept(after: Dataset, score: float) -> bool | None:
    """Whether the point at ``score`` stays once a row is gone: weighted rows say by
    their scores (a scan); None lets an unweighted sweep tell from its point's rows."""
    return _still_scored(after, score) if after.weighted else None


class Edit:
    """One change to the rows."""

    def apply(self, data: Dataset) -> Dataset:
        """The rows after the edit."""
        raise NotImplementedError

    def inverse(self, data: Dataset) -> Edit:
        """The edit that takes ``apply(data)`` back to ``data``."""
        raise NotImplementedError

    def update(self, sweep: Sweep, before: Dataset, after: Dataset) -> Sweep | None:
        """``before``'s sweep moved to ``after``'s in O(m); None means build it anew."""
        raise NotImplementedError

    def row_change(self, before: Dataset) -> RowChange | None:
        """What the edit did to ``before`` as one row added, removed or flipped, when
        it is that (a drawing of ``before`` is then moved, not made again)."""
        return None

    def changed(self, before: Dataset, after: Dataset, threshold: Threshold) -> Changed:
        """The rows of ``after`` whose prediction at ``threshold`` the edit changed.

        Most edits change no prediction of a row that stays where it was: a
        flip changes the actual label only, and an added or removed row has no
        "before" to compare with.
        """
        return NOTHING_CHANGED


@dataclass(frozen=True)
class SetScore(Edit):
    index: int
    value: float

    def apply(self, data: Dataset) -> Dataset:
        scores = data.scores.copy()
        scores[self.index] = self.value
        return Dataset(_frozen(scores), data.labels, data.weights, data.ids)

    def inverse(self, data: Dataset) -> Edit:
        return SetScore(self.index, float(data.scores[self.index]))

    def changed(self, before: Dataset, after: Dataset, threshold: Threshold) -> Changed:
        rows = np.array([self.index])
        moved = predict(before, threshold, rows=rows) != predict(after, threshold, rows=rows)
        return Changed.listed(rows) if bool(moved[0]) else NOTHING_CHANGED

    def update(self, sweep: Sweep, before: Dataset, after: Dataset) -> Sweep:
        i = self.index
        label, weight = bool(before.labels[i]), _weight(before, i)
        old = float(before.scores[i])
        gone = sweep_without(sweep, old, label, weight, keep_point=_kept(after, old))
        # The row's class's counts are new arrays of this edit's: changed in place.
        return sweep_with(gone, self.value, label, weight, reuse=True)


@dataclass(frozen=True)
class FlipLabel(Edit):
    index: int

    def apply(self, data: Dataset) -> Dataset:
        labels = data.labels.copy()
        labels[self.index] = not labels[self.index]
        return Dataset(data.scores, _frozen(labels), data.weights, data.ids)

    def inverse(self, data: Dataset) -> Edit:
        return self

    def row_change(self, before: Dataset) -> RowChange:
        i = self.index
        return RowChange(before, "flipped", float(before.scores[i]), bool(before.labels[i]))

    def update(self, sweep: Sweep, before: Dataset, after: Dataset) -> Sweep:
        i = self.index
        score, label, weight = float(before.scores[i]), bool(before.labels[i]), _weight(before, i)
        return sweep_flipped(sweep, score, label, weight)


@dataclass(frozen=True)
class InsertRow(Edit):
    """A row put at ``index``: a new one (``name``), or one removed before (``entry``)."""

    index: int
    score: float
    label: bool
    weight: float = 1.0
    name: str | None = None
    entry: int | None = None

    def apply(self, data: Dataset) -> Dataset:
        i = self.index
        weights = None if data.weights is None else np.insert(data.weights, i, self.weight)
        names = RowNames.of(data.ids, data.n)
        if self.entry is not None:
            names = names.inserted(i, self.entry)
        else:
            assert self.name is not None and i == data.n, "new rows go at the end"
            names = names.plus(self.name)
            if weights is not None and weight_problem(weights) is not None:
                total = float(data.weights.sum()) if data.weights is not None else 0.0
                raise InputError(
                    f"cannot add a row of weight {quoted(self.weight)} beside a total weight of "
                    f"{total:.3g}: a float sum that large would drop it"
                )
        return Dataset(
            _frozen(np.insert(data.scores, i, self.score)),
            _frozen(np.insert(data.labels, i, self.label)),
            None if weights is None else _frozen(weights),
            names,
        )

    def inverse(self, data: Dataset) -> Edit:
        return DeleteRow(self.index)

    def row_change(self, before: Dataset) -> RowChange:
        return RowChange(before, "added", self.score, self.label)

    def update(self, sweep: Sweep, before: Dataset, after: Dataset) -> Sweep:
        return sweep_with(sweep, self.score, self.label, self.weight)


@dataclass(frozen=True)
class DeleteRow(Edit):
    index: int

    def apply(self, data: Dataset) -> Dataset:
        if data.n == 1:
            raise InputError("cannot remove the only row: at least one scored example is needed")
        i = self.index
        weights = None
        if data.weights is not None:
            weights = np.delete(data.weights, i)
            if not (weights > 0).any():
                raise InputError("cannot remove that row: every remaining weight would be zero")
        return Dataset(
            _frozen(np.delete(data.scores, i)),
            _frozen(np.delete(data.labels, i)),
            None if weights is None else _frozen(weights),
            RowNames.of_without(data.ids, data.n, i),
        )

    def inverse(self, data: Dataset) -> Edit:
        i = self.index
        return InsertRow(
            i,
            float(data.scores[i]),
            bool(data.labels[i]),
            _weight(data, i),
            entry=RowNames.entry_of(data.ids, i),
        )

    def row_change(self, before: Dataset) -> RowChange:
        i = self.index
        return RowChange(before, "removed", float(before.scores[i]), bool(before.labels[i]))

    def update(self, sweep: Sweep, before: Dataset, after: Dataset) -> Sweep:
        i = self.index
        score = float(before.scores[i])
        return sweep_without(
            sweep,
            score,
            bool(before.labels[i]),
            _weight(before, i),
            keep_point=_kept(after, score),
        )


@dataclass(frozen=True, eq=False)
class Replace(Edit):
    """Every row at once (a reset to the rows as loaded)."""

    data: Dataset

    def apply(self, data: Dataset) -> Dataset:
        return self.data

    def inverse(self, data: Dataset) -> Edit:
        return Replace(data)

    def update(self, sweep: Sweep, before: Dataset, after: Dataset) -> None:
        return None

    def changed(self, before: Dataset, after: Dataset, threshold: Threshold) -> Changed:
        return changed_between(before, threshold, after, threshold)


@dataclass(frozen=True, eq=False)
class Rescore(Edit):
    """Every score at once by a strictly increasing map that keeps the tie groups and
    their order (a monotone transform): the sweep's counts stay, only its thresholds
    become ``thresholds`` (None: sweep again)."""

    data: Dataset
    thresholds: npt.NDArray[np.float64] | None = None

    def apply(self, data: Dataset) -> Dataset:
        return self.data

    def inverse(self, data: Dataset) -> Edit:
        return Rescore(data)

    def update(self, sweep: Sweep, before: Dataset, after: Dataset) -> Sweep | None:
        if self.thresholds is None or self.thresholds.shape != sweep.thresholds.shape:
            return None
        return dataclasses.replace(sweep, thresholds=_frozen(self.thresholds.copy()))

    def changed(self, before: Dataset, after: Dataset, threshold: Threshold) -> Changed:
        return changed_between(before, threshold, after, threshold)


def changed_between(before: Dataset, old: Threshold, after: Dataset, new: Threshold) -> Changed:
    """The rows whose prediction differs between two states of the same rows.

    A threshold move is a band of scores, found without a pass over the rows;
    other changes compare predictions row by row when the rows line up (the same
    count), and report none when they do not (another dataset altogether).

    >>> from threshold_lab.core.data.presets import preset
    >>> d = preset("canonical").data
    >>> changed_between(d, 0.5, d, 0.85).among(d.scores).tolist()
    [1, 2]
    """
    if before is after:
        return Changed.band(old, new)
    if before.n != after.n:
        return NOTHING_CHANGED
    moved = np.flatnonzero(predict(before, old) != predict(after, new))
    return Changed.listed(moved) if moved.shape[0] else NOTHING_CHANGED


def new_row(data: Dataset, score: float, label: bool) -> InsertRow:
    """A row for the end, with a fresh name ``new<k>`` (and weight 1 when weighted)."""
    k = data.n + 1
    while data.position_of(f"new{k}") is not None:
        k += 1
    return InsertRow(data.n, score, label, 1.0, name=f"new{k}")


def parse_new_row(data: Dataset, text: str) -> tuple[float, bool]:
    """A typed new row, ``SCORE LABEL`` (a comma may separate them): its score and label.

    >>> from threshold_lab.core.data.presets import preset
    >>> parse_new_row(preset("canonical").data, "0.3, 1")
    (0.3, True)
    >>> parse_new_row(preset("canonical").data, "0.3")
    Traceback (most recent call last):
    ...
    threshold_lab.core.errors.InputError: type a score and a label 0 or 1, such as: 0.3 1
    """
    parts = text.replace(",", " ").split()
    if len(parts) != 2 or parts[1] not in ("0", "1"):
        raise InputError("type a score and a label 0 or 1, such as: 0.3 1")
    return check_score(data, parts[0]), parts[1] == "1"


def to_csv(data: Dataset) -> str:
    """The rows as CSV text with a header (id, score, label[, weight]).

    The text can always be written as UTF-8: an id holding a lone surrogate (which
    JSON such as ``"\\ud800"`` can carry) is written with that character as a
    backslash escape, ``\\ud800``, as UTF-8 has no way to store it.
    """
    head = "id,score,label" + (",weight" if data.weights is not None else "")
    lines = [head]
    for i in range(data.n):
        row = f"{_quote(data.row_id(i))},{float(data.scores[i])!r},{int(data.labels[i])}"
        if data.weights is not None:
            row += f",{float(data.weights[i])!r}"
        lines.append(row)
    return "\n".join(lines) + "\n"


def _quote(text: str) -> str:
    """``text`` as one CSV field: quoted when needed, lone surrogates escaped."""
    if not text.isascii():
        text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    if any(c in text for c in ',"\n\r'):
        return '"' + text.replace('"', '""') + '"'
    return text


def score_edit(data: Dataset, index: int, text: str) -> tuple[Edit, str]:
    """Row ``index``'s score as typed (raises InputError), and the sentence saying so."""
    value = check_score(data, text)
    old = float(data.scores[index])
    return SetScore(
        index, value
    ), f"Row {data.shown_id(index)}: score from {quoted(old)} to {quoted(value)}."


def flip_edit(data: Dataset, index: int) -> tuple[Edit, str]:
    """Row ``index``'s actual label flipped, and the sentence saying so."""
    now = int(not data.labels[index])
    return FlipLabel(index), f"Row {data.shown_id(index)}: actual label flipped to {now}."


def insert_edit(data: Dataset, score: float, label: bool) -> tuple[Edit, str]:
    """A row added at the end (see :func:`parse_new_row`), and the sentence."""
    edit = new_row(data, score, label)
    return edit, f"Added row {edit.name}: score {quoted(score)}, label {int(label)}."


def delete_edit(data: Dataset, index: int) -> tuple[Edit, str]:
    """Row ``index`` removed, and the sentence (undo brings it back)."""
    return DeleteRow(index), f"Removed row {data.shown_id(index)}."


def rescore(text: str, data: Dataset, sweep: Sweep) -> tuple[Applied, Edit]:
    """Transform ``text`` (``square``, ``log``, ``rank``, ...) applied to every score:
    what it did, and the edit (which maps the sweep's thresholds, keeping its counts;
    ranks come from the whole column, so their rows are swept again)."""
    applied = apply_transform(parse_transform(text), data)
    thresholds = None
    if applied.transform.name != "rank":
        with np.errstate(all="ignore"):
            thresholds = applied.transform.f(sweep.thresholds.copy())
    return applied, Rescore(data.with_scores(applied.scores), thresholds)
