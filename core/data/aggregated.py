"""Aggregated input: one row per score with the (weighted) count of positives and negatives.

It is a sufficient statistic for every ranking metric: each row becomes a
positive and a negative example at that score, weighted by its counts (a count
of 0 adds no example). CSV/TSV files are read by pyarrow when they are clean,
else by the exact reader's row loop (:func:`threshold_lab.core.data.delimited.read_rows`),
so their messages match those of ordinary files line for line.

Files written by ``threshold-lab aggregate`` may also have

- a group column (``--by``): one table per group, each a model or slice of
  its own. Any one column beside the counts is read so; ``by`` names it when
  there are more.
- ``merged`` and ``quantisation`` columns, when scores were quantised: which
  rows merged several distinct scores, and by what rule. The AUC computed from
  the file is then within :func:`threshold_lab.core.data.quantise.bound` of the true AUC.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.data import arrow_numbers, delimited, fast_csv, progress
from threshold_lab.core.data.cells import Where, fail, find, numbers, optional
from threshold_lab.core.data.dataset import Dataset, make_dataset, weight_problem
from threshold_lab.core.data.quantise import bound, bound_words, parse_rule
from threshold_lab.core.errors import InputError, quoted

AGGREGATED_COLUMNS = ("score", "positives", "negatives")
#: Columns a quantised file adds.
QUANTISED_COLUMNS = ("merged", "quantisation")

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]


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


def count_columns(path: Path, header: Sequence[str], by: str | None = None) -> dict[str, int]:
    """Positions of the counts, and of ``merged``/``quantisation`` and the group
    column (``group``) when there are such columns."""
    wanted = aggregated_columns(path, header)
    taken = set(wanted.values())
    for name in QUANTISED_COLUMNS:
        i = optional(path, header, name, taken)
        if i is not None:
            wanted[name] = i
            taken.add(i)
    if ("merged" in wanted) != ("quantisation" in wanted):
        raise fail(
            path,
            "a quantised file has both a 'merged' and a 'quantisation' column; "
            "this one has only one",
        )
    if by is not None:
        wanted["group"] = find(path, header, by, "--by")
        return wanted
    others = [i for i in range(len(header)) if i not in taken and header[i].strip()]
    if len(others) == 1:
        wanted["group"] = others[0]
    elif len(others) > 1:
        names = ", ".join(repr(header[i]) for i in others)
        raise fail(
            path,
            f"aggregated counts with several other columns ({names}): name the "
            "one that holds groups with --by COLUMN",
        )
    return wanted


@dataclass(frozen=True)
class Quantised:
    """How an aggregated table was quantised, and the bound on its AUC."""

    rule: str
    #: e: the exact AUC of this table is within e of the true AUC (None: one class).
    bound: float | None

    def words(self) -> str:
        """``quantised: true AUC within ± 0.0001235``."""

        if self.bound is None:
            return f"quantised ({self.rule}): no bound, AUC is undefined"
        return f"quantised: true AUC within ± {bound_words(self.bound)}"

    def as_json(self) -> dict[str, Any]:
        return {"rule": self.rule, "bound": self.bound}


@dataclass(frozen=True)
class Counts:
    """An aggregated table's columns, checked."""

    scores: FloatArray
    positives: FloatArray
    negatives: FloatArray
    merged: npt.NDArray[np.bool_] | None = None
    rule: str | None = None
    #: Each row's group, and the group column's name (None without one).
    groups: npt.NDArray[np.str_] | None = None
    by: str | None = None

    def group_names(self) -> list[str]:
        """The groups in the order they first appear."""
        if self.groups is None:
            return []
        _, first = np.unique(self.groups, return_index=True)
        return [str(self.groups[i]) for i in np.sort(first)]

    def part(self, group: str | None) -> Counts:
        """The rows of one group (all rows for None)."""
        if group is None or self.groups is None:
            return self
        at = self.groups == group
        merged = None if self.merged is None else self.merged[at]
        return Counts(self.scores[at], self.positives[at], self.negatives[at], merged, self.rule)

    def pooled_quantised(self) -> Quantised | None:
        """The bound with every group's rows together: a score held by rows of two
        groups counts as merged (their examples' own scores may have differed)."""
        if self.rule is None or self.merged is None:
            return None
        found, inverse = np.unique(self.scores, return_inverse=True)
        m = found.shape[0]
        pos = np.bincount(inverse, weights=self.positives, minlength=m).astype(np.float64)
        neg = np.bincount(inverse, weights=self.negatives, minlength=m).astype(np.float64)
        rows = np.bincount(inverse, minlength=m)
        merged = np.bincount(inverse, weights=self.merged.astype(np.float64), minlength=m) > 0
        return Quantised(self.rule, bound(pos, neg, merged | (rows > 1)))

    def quantised(self) -> Quantised | None:
        if self.rule is None or self.merged is None:
            return None

        return Quantised(self.rule, bound(self.positives, self.negatives, self.merged))


def _check(path: Path, c: Counts, where: Where, *, full: bool = True) -> None:
    """Counts finite and not negative, weights the dataset can count with, finite
    scores: the first problem named by its place and column.

    ``full=False`` only makes sure no count is negative or not a number and no score
    is infinite: :func:`dataset_of` checks the weights it keeps, and on a problem
    comes back here for the message."""
    if (
        not full
        and bool((c.positives >= 0).all() and (c.negatives >= 0).all())
        and bool(np.isfinite(c.scores).all())
    ):
        return
    n = c.scores.shape[0]
    problem = weight_problem(np.concatenate((c.positives, c.negatives)))
    if problem is not None:
        i, why = problem
        if i < 0:
            raise fail(path, why)
        name, row = ("positives", i) if i < n else ("negatives", i - n)
        value = float((c.positives if i < n else c.negatives)[row])
        if value < 0:
            raise fail(path, f"{where(row)}, column {quoted(name)}: {quoted(value)} is negative")
        raise fail(path, f"{where(row)}, column {quoted(name)}: the count {why}")
    bad = np.flatnonzero(~np.isfinite(c.scores))
    if bad.shape[0]:
        i = int(bad[0])
        raise fail(
            path, f"{where(i)}, column 'score': {float(c.scores[i])!r} is not a finite number"
        )


def dataset_of(path: Path, c: Counts, where: Where | None = None) -> Dataset:
    """The examples a table stands for, in the table's order: a positive and then a
    negative at each score, weighted by the counts; a count of 0 adds none.

    Most tables of continuous scores have one class a row: then the examples are the
    rows themselves, with no copy but the weights. A problem with the weights kept is
    named by the table's row (``where``, "row N" by default) and column."""
    rows, labels, weights = _layout(c)
    if rows is None:
        # The scores as read (a view of the table, no copy) unless -0.0 is among them.
        zero = c.scores == 0
        signed = bool(np.signbit(c.scores[zero]).any()) if bool(zero.any()) else False
        scores = c.scores + 0.0 if signed else c.scores
    else:
        scores = c.scores[rows] + 0.0
    try:
        return make_dataset(scores, labels, weights=weights, owned=True)
    except InputError as exc:
        _check(path, c, where or _row)  # the message by the table's row, where it can
        raise fail(path, str(exc)) from None


def _layout(c: Counts) -> tuple[IntArray | None, npt.NDArray[np.bool_], FloatArray]:
    """Each example's table row (None: the rows themselves, one example a row), its
    class (positive) and weight, as :func:`dataset_of` lays them out."""
    pos, neg = c.positives, c.negatives
    keep_p, keep_n = pos > 0, neg > 0
    if not bool((keep_p & keep_n).any()):
        keep = keep_p | keep_n
        if bool(keep.all()):
            return None, keep_p, pos + neg
        rows = np.flatnonzero(keep)
        return rows, keep_p[rows], (pos + neg)[rows]
    rows = np.concatenate((np.flatnonzero(keep_p), np.flatnonzero(keep_n)))
    side = np.concatenate(
        (np.zeros(int(keep_p.sum()), np.int8), np.ones(int(keep_n.sum()), np.int8))
    )
    order = np.lexsort((side, rows))
    rows, side = rows[order], side[order]
    labels = side == 0
    return rows, labels, np.where(labels, pos[rows], neg[rows])


def example_groups(c: Counts) -> npt.NDArray[np.str_]:
    """Each example's group (of :func:`dataset_of`'s examples, in its order)."""
    assert c.groups is not None
    rows, _, _ = _layout(c)
    return c.groups if rows is None else c.groups[rows]


def _from_cells(path: Path, cells: dict[str, list[object]], where: Where, by: str | None) -> Counts:
    """Counts from raw cells (the exact path), naming the first bad cell's place."""
    scores = numbers(path, "score", cells["score"], where)
    pos = numbers(path, "positives", cells["positives"], where)
    neg = numbers(path, "negatives", cells["negatives"], where)
    merged, rule = None, None
    if "merged" in cells:
        merged = np.empty(len(scores), dtype=bool)
        for i, raw in enumerate(cells["merged"]):
            key = str(raw).strip().lower()
            if key not in ("true", "false", "1", "0", "1.0", "0.0"):
                raise fail(path, f"{where(i)}, column 'merged': {quoted(raw)} is not true or false")
            merged[i] = key in ("true", "1", "1.0")
        rule = _rule(path, [str(v).strip() for v in cells["quantisation"]], where)
    groups = None
    if "group" in cells:
        values = cells["group"]
        for i, raw in enumerate(values):
            if raw is None or str(raw).strip() == "":
                raise fail(path, f"{where(i)}, column {quoted(by or 'group')}: the group is empty")
        groups = np.array([str(v).strip() for v in values], dtype=str)
    counts = Counts(scores, pos, neg, merged, rule, groups, by)
    _check(path, counts, where)
    return counts


def _rule(path: Path, values: Sequence[str], where: Where) -> str:

    distinct = list(dict.fromkeys(values))
    try:
        parse_rule(distinct[0])
    except InputError as exc:
        raise fail(path, f"{where(0)}, column 'quantisation': {exc}") from None
    if len(distinct) > 1:
        i = values.index(distinct[1])
        raise fail(
            path,
            f"{where(i)}, column 'quantisation': {quoted(distinct[1])} differs from "
            f"{quoted(distinct[0])} above; a file is quantised one way",
        )
    return distinct[0]


def grouped(path: Path, c: Counts) -> InputError:
    names = c.group_names()
    return fail(
        path,
        f"holds {len(names)} groups by {quoted(c.by)} ({', '.join(names[:4])}"
        f"{', ...' if len(names) > 4 else ''}): open it with threshold-lab to choose "
        "one",
    )


def _from_table(path: Path, table: Any, names: dict[str, str], by: str | None) -> Counts | None:
    """Counts straight from a pyarrow table's numeric columns; None when any is irregular."""
    import pyarrow as pa
    import pyarrow.compute as pc

    arrays = []
    for key in AGGREGATED_COLUMNS:
        col = table.column(names[key])
        if col.null_count or not (pa.types.is_floating(col.type) or pa.types.is_integer(col.type)):
            return None
        arrays.append(np.asarray(arrow_numbers.numbers(col), dtype=np.float64))
    merged, rule = None, None
    if "merged" in names:
        col = table.column(names["merged"])
        if col.null_count or not pa.types.is_boolean(col.type):
            return None
        merged = np.asarray(arrow_numbers.numbers(col), dtype=bool)
        rules = pc.unique(table.column(names["quantisation"]).cast(pa.string())).to_pylist()
        if len(rules) != 1 or rules[0] is None:
            return None
        rule = str(rules[0]).strip()

        try:
            parse_rule(rule)
        except InputError:
            return None
    groups = None
    if "group" in names:
        col = table.column(names["group"])
        if col.null_count:
            return None
        text = pc.utf8_trim_whitespace(col.cast(pa.string()))
        if pc.any(pc.equal(text, "")).as_py():
            return None
        groups = arrow_numbers.texts(text)
    return Counts(arrays[0], arrays[1], arrays[2], merged, rule, groups, by)


def _row(r: int) -> str:
    return f"row {r + 1}"


def read_counts_table(
    path: Path, table: Any, header: Sequence[str], by: str | None, names: dict[str, str]
) -> Counts:
    """Counts from a pyarrow table of a Parquet file: numpy when the columns are
    clean, else the exact path, whose messages name the row. ``names`` maps the
    roles of :func:`count_columns` to the table's column names."""
    by_name = names.get("group")
    fast = _from_table(path, table, names, by_name)
    if fast is not None:
        _check(path, fast, _row, full=fast.groups is not None)  # the rest: dataset_of
        return fast
    cells = {k: table.column(v).to_pylist() for k, v in names.items()}
    return _from_cells(path, cells, _row, by_name)


def _csv_fast(path: Path, header: Sequence[str], by: str | None) -> Counts | None:
    """A clean CSV/TSV through pyarrow, or None (the exact reader then names the problem)."""

    if not fast_csv.available():
        return None
    import pyarrow as pa

    wanted = count_columns(path, header, by)
    names = {k: header[i] for k, i in wanted.items()}
    if len(set(header)) != len(header):
        return None
    types = {names[k]: pa.float64() for k in AGGREGATED_COLUMNS}
    if "merged" in names:
        types[names["merged"]] = pa.bool_()
        types[names["quantisation"]] = pa.string()
    if "group" in names:
        types[names["group"]] = pa.string()
    first = delimited.first_line(path)
    if first is None:
        return None
    held = progress.memory(path)
    if held is not None:
        return _csv_table(path, pa.BufferReader(held), header, first, names, types)
    if progress.current() is None:
        return _csv_table(path, str(path), header, first, names, types)
    with progress.opened(path) as fh:
        return _csv_table(path, fh, header, first, names, types)


def _csv_table(
    path: Path,
    source: Any,
    header: Sequence[str],
    first: str,
    names: dict[str, str],
    types: dict[str, Any],
) -> Counts | None:
    import pyarrow as pa
    import pyarrow.csv as pv

    try:
        table = pv.read_csv(
            source,
            read_options=pv.ReadOptions(column_names=list(header), skip_rows=1),
            parse_options=pv.ParseOptions(delimiter=delimited.delimiter_of(path, first)),
            convert_options=pv.ConvertOptions(
                include_columns=list(names.values()),
                column_types=types,
                strings_can_be_null=False,
                true_values=["true", "True", "TRUE", "1"],
                false_values=["false", "False", "FALSE", "0"],
            ),
        )
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowKeyError, UnicodeDecodeError, OSError):
        return None
    if table.num_rows == 0:
        return None
    progress.step("checking rows")
    counts = _from_table(path, table, names, names.get("group"))
    if counts is None:
        return None
    try:
        _check(path, counts, _row)
    except InputError:
        return None  # the exact reader names the line
    return counts


def load_delimited_counts(path: Path, by: str | None = None) -> Counts:
    """Read an aggregated CSV/TSV file's columns (see the module's notes; Parquet:
    :func:`threshold_lab.core.data.parquet.read_aggregated`, both by
    :func:`threshold_lab.core.data.loaders.load_counts`)."""
    header = delimited.header_of(path)
    if header:
        fast = _csv_fast(path, header, by)
        if fast is not None:
            return fast
    try:
        text = progress.read_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise fail(path, f"not UTF-8 text (byte at offset {exc.start})") from None
    lines = delimited.lines_of(text)
    if not lines or not lines[0].strip():
        raise fail(path, "the file is empty: a header row score,positives,negatives is needed")
    rows = delimited.read_rows(path, lines, lambda header: count_columns(path, header, by))
    if not rows.line_of:
        raise fail(path, "no data rows after the header")
    by_name = None
    if "group" in rows.cells:
        header = delimited.header_of(path) or [""]
        by_name = by or next(
            (
                h
                for h in header
                if h.strip() and h.strip().lower() not in (*AGGREGATED_COLUMNS, *QUANTISED_COLUMNS)
            ),
            None,
        )
    return _from_cells(path, rows.cells, rows.where, by_name)


def load_aggregated(path: Path) -> Dataset:
    """Read a CSV/TSV of ``score, positives, negatives`` (counts or weighted sums)."""
    counts = load_delimited_counts(path)
    if counts.groups is not None:
        raise grouped(path, counts)
    return dataset_of(path, counts)
