"""A fast path for clean CSV/TSV files, through pyarrow when it is installed.

It returns a Dataset only when the file is clean: numeric finite scores, labels
that keep the rules of :mod:`threshold_lab.core.data.labels`, no empty cells. Anything else
returns None, and the exact reader (:mod:`threshold_lab.core.data.delimited`, or the Parquet
one in :mod:`threshold_lab.core.data.parquet`) then reads the file and names the first
problem by line and column. So speed never costs a worse message.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, overload

import numpy as np
from threshold_lab.core.data import arrow_numbers, progress
from threshold_lab.core.data.dataset import Dataset, make_dataset
from threshold_lab.core.data.labels import LabelProblem, label_key, truth_of
from threshold_lab.core.doubles import EXACT
from threshold_lab.core.errors import InputError


def available() -> bool:
    """True when pyarrow is installed (the ``[parquet]`` extra)."""
    try:
        import pyarrow.csv  # noqa: F401
    except ImportError:
        return False
    return True


def _labels(column: Any, positive: str | None) -> np.ndarray | None:
    """Booleans from a label column, by the label rules, or None when they are broken.

    Text labels are dictionary-encoded (CSV reads them so), so the rules run on
    the few distinct values and each row is one lookup.
    """
    import pyarrow as pa

    if column.null_count:
        return None
    kind = column.type
    if pa.types.is_boolean(kind) and positive is None:
        return arrow_numbers.numbers(column)
    if pa.types.is_integer(kind) and positive is None:
        values = arrow_numbers.numbers(column)
        low, high = values.min(), values.max()
        if high > 1 or low < -1 or (low == -1 and (values == 0).any()):
            return None  # the exact reader names the row at fault
        return np.asarray(values == 1, dtype=bool)  # 0/1, or scikit-learn's -1/1
    if pa.types.is_string(kind) and positive is None:
        digits = _digit_labels(column)
        if digits is not None:
            return digits
    if pa.types.is_string(kind) or pa.types.is_large_string(kind):
        column = column.dictionary_encode()
        kind = column.type
    if not (pa.types.is_dictionary(kind) and pa.types.is_string(kind.value_type)):
        return None
    chunks = pa.chunked_array([column]) if isinstance(column, pa.Array) else column
    chunks = chunks.unify_dictionaries().chunks
    if not chunks:
        return None
    # Distinct values as the exact reader sees them (several may strip alike).
    keys = [label_key(v) for v in chunks[0].dictionary.to_pylist()]
    try:
        truth = truth_of(list(dict.fromkeys(keys)), positive)
    except LabelProblem:
        return None  # the exact reader names the row
    lookup = np.array([truth[k] for k in keys], dtype=bool)
    out = np.empty(sum(len(c) for c in chunks), dtype=bool)
    start = 0
    for c in chunks:
        out[start : start + len(c)] = lookup[arrow_numbers.numbers(c.indices)]
        start += len(c)
    return out


def _digit_labels(column: Any) -> np.ndarray | None:
    """Labels that are each the one character 0 or 1, read straight from the
    column's bytes (the common case, and faster than any conversion); else None.

    The label rules read ``"1"`` as positive and ``"0"`` as negative, and two
    values can break no other rule, so no further check is needed."""
    import pyarrow as pa

    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    out = np.empty(len(column), dtype=bool)
    start = 0
    for c in chunks:
        if len(c) == 0:
            continue
        _, offsets_buf, data_buf = c.buffers()
        offsets = np.frombuffer(offsets_buf, dtype=np.int32)[c.offset : c.offset + len(c) + 1]
        if not (np.diff(offsets) == 1).all():
            return None
        data = np.frombuffer(data_buf, dtype=np.uint8)[offsets[0] : offsets[-1]]
        ones = data == ord("1")
        if np.count_nonzero(ones) + np.count_nonzero(data == ord("0")) != len(c):
            return None
        out[start : start + len(c)] = ones
        start += len(c)
    return out


class ArrowIds(Sequence[str]):
    """A pyarrow string column read as a sequence of ids, one at a time on demand."""

    def __init__(self, column: Any) -> None:
        self._column = column  # an Array or ChunkedArray: both index and slice in place

    def __len__(self) -> int:
        return len(self._column)

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[str]: ...
    def __getitem__(self, index: int | slice) -> str | Sequence[str]:
        if isinstance(index, slice):
            return [str(v) for v in self._column[index].to_pylist()]
        if index < 0:
            index += len(self._column)
        if not 0 <= index < len(self._column):
            raise IndexError(index)
        return str(self._column[index].as_py())

    def __iter__(self) -> Iterator[str]:
        # In blocks: to_pylist per block is far faster than as_py per item.
        for start in range(0, len(self._column), 65536):
            yield from self._column[start : start + 65536].to_pylist()

    def position(self, name: str) -> int | None:
        """The position of id ``name``, found in C; None when absent."""
        import pyarrow.compute as pc

        if not name.isascii():
            try:
                name.encode("utf-8")
            except UnicodeEncodeError:  # a lone surrogate, as typed bytes that are not
                return None  # UTF-8 arrive: Arrow holds only valid UTF-8, so no id is it
        found = pc.index(self._column, name).as_py()
        return None if found is None or found < 0 else int(found)


# Bytes an id can begin or end with when it has whitespace to strip there: ASCII
# whitespace (as str.strip() reads it, 0x1c to 0x1f included) and any byte of a
# multi-byte character, some of which are whitespace (no-break space, ideographic space).
_EDGE_SPACE = np.zeros(256, dtype=bool)
_EDGE_SPACE[[0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1C, 0x1D, 0x1E, 0x1F, 0x20]] = True
_EDGE_SPACE[0x80:] = True


def _edges_plain(column: Any) -> bool:
    """True when no id in a pyarrow string column can have whitespace at either end
    (each one's first and last byte read straight from the column's buffers): such a
    column needs no stripping, so no stripped copy is made."""
    import pyarrow as pa

    for c in column.chunks if isinstance(column, pa.ChunkedArray) else [column]:
        if len(c) == 0:
            continue
        kind = np.dtype(np.int64 if pa.types.is_large_string(c.type) else np.int32)
        _, offsets_buf, data_buf = c.buffers()
        offsets: np.ndarray = np.frombuffer(offsets_buf, dtype=kind)
        offsets = offsets[c.offset : c.offset + len(c) + 1]
        if data_buf is None or offsets[-1] == offsets[0]:
            continue  # every id empty: nothing to strip
        data = np.frombuffer(data_buf, dtype=np.uint8)
        starts, ends = offsets[:-1], offsets[1:]
        full = ends > starts
        if not full.all():
            starts, ends = starts[full], ends[full]
        if _EDGE_SPACE[data[starts]].any() or _EDGE_SPACE[data[ends - 1]].any():
            return False
    return True


def _id_numbers(ids: Any) -> np.ndarray | None:
    """Each id as an int64 when all are one shared ASCII prefix then an integer
    (``7``, ``row-12``), else None.

    Reading an id as a number is a function of the string, so ids whose
    numbers all differ are distinct strings. The converse need not hold (arrow
    reads ``05`` and ``5`` alike), so equal numbers prove nothing.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    first = str(ids[0].as_py())
    # Everything before the first digit (the whole id when it has none).
    prefix = re.sub(r"[0-9].*", "", first, flags=re.S)
    if not prefix.isascii():
        return None
    chunks = ids.chunks if isinstance(ids, pa.ChunkedArray) else [ids]
    out = np.empty(len(ids), dtype=np.int64)
    start = 0
    for chunk in chunks:  # a chunk at a time: the copies stay small
        body = chunk
        if prefix:
            if len(chunk) and not pc.all(pc.starts_with(chunk, prefix)).as_py():
                return None
            body = pc.utf8_slice_codeunits(chunk, len(prefix))
        try:
            out[start : start + len(chunk)] = arrow_numbers.numbers(pc.cast(body, pa.int64()))
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return None
        start += len(chunk)
    return out


def _numbers_distinct(values: np.ndarray) -> bool:
    n = len(values)
    lo, hi = int(values.min()), int(values.max())
    if hi - lo < 4 * n:  # dense ids (row numbers): one mark per id
        seen = np.zeros(hi - lo + 1, dtype=np.bool_)
        seen[values - lo] = True
        return int(np.count_nonzero(seen)) == n
    ordered = np.sort(values)
    return not bool((ordered[1:] == ordered[:-1]).any())


def ids_distinct(ids: Any) -> bool:
    """True when no two ids in a pyarrow string array (or chunked array) are equal."""
    import pyarrow.compute as pc

    n = len(ids)
    if n < 2:
        return True
    values = _id_numbers(ids)
    if values is not None and _numbers_distinct(values):
        return True
    ordered = ids.take(pc.sort_indices(ids))
    return not pc.any(pc.equal(ordered.slice(1), ordered.slice(0, n - 1))).as_py()


def load_clean(
    source: Any,
    delimiter: str,
    names: dict[str, str],
    positive: str | None,
) -> Dataset | None:
    """Read ``source`` (a path, binary file or bytes) with pyarrow; ``names`` maps
    score/label/weight/id to header names.

    Returns None (use the exact reader) on any irregularity or without pyarrow.
    """
    if not available():
        return None
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pv

    types = {names[k]: pa.float64() for k in ("score", "weight") if k in names}
    if "id" in names:
        types[names["id"]] = pa.string()

    # Labels are read as text: one read serves 0/1, true/false and named classes.
    # 0/1 are then read from the bytes; other words by their distinct values.
    types[names["label"]] = pa.string()
    start = source.tell() if hasattr(source, "seekable") and source.seekable() else None

    def read(columns: list[str], kinds: dict[str, Any]) -> Any:
        return pv.read_csv(
            pa.BufferReader(source) if isinstance(source, bytes) else source,
            parse_options=pv.ParseOptions(delimiter=delimiter),
            convert_options=pv.ConvertOptions(
                include_columns=columns, column_types=kinds, strings_can_be_null=False
            ),
        )

    try:
        table = read(list(names.values()), types)
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowKeyError, UnicodeDecodeError, OSError):
        return None
    progress.step("checking rows")
    data = from_table(table, names, positive)
    if data is None:
        return None
    # Past 2^53 a double rounds some integers onto their neighbours, which arrow does
    # without a word: such a column goes to the exact reader, which names the cell.
    if data.scores.max() >= EXACT or data.scores.min() <= -EXACT:
        return None
    # A zero may be a number too small for a double (1e-400), which arrow reads as 0
    # without a word: such a column is read again as text and its zeros looked at.
    for role in ("score", "weight"):
        if role not in names:
            continue
        zero = arrow_numbers.numbers(table.column(names[role])) == 0
        if not zero.any():
            continue
        if not isinstance(source, bytes | str | Path):
            if start is None:
                return None  # a stream cannot be read again: the exact reader looks
            source.seek(start)
        text = read([names[role]], {names[role]: pa.string()}).column(0)
        zeros = text.filter(arrow_numbers.mask(zero))
        if bool(pc.any(pc.match_substring_regex(zeros, r"^[^eE]*[1-9]")).as_py()):
            return None  # the exact reader names the row
    return data


def from_table(table: Any, names: dict[str, str], positive: str | None) -> Dataset | None:
    """A Dataset straight from a pyarrow table's columns, or None if any is irregular
    (nulls, non-numbers, non-finite scores, labels that are not two classes)."""
    import pyarrow as pa

    if table.num_rows == 0:
        return None
    # Ids first: their check needs a temporary as large as the scores, so it is
    # done and freed before the scores are copied out of the table.
    ids = None
    if "id" in names:
        import pyarrow.compute as pc

        id_col = table.column(names["id"])
        if id_col.null_count:
            return None
        if not (pa.types.is_string(id_col.type) or pa.types.is_large_string(id_col.type)):
            id_col = pc.cast(id_col, pa.string())
        # Stripped as the exact reader strips them (arrow trims the same characters
        # as Python's str.strip(), a test checks every one).
        # Checked first, from the bytes: ids rarely need it, and the stripped copy
        # would sit beside the table's own (10^7 ids: about 200 MB).
        if not _edges_plain(id_col):
            id_col = pc.utf8_trim_whitespace(id_col)
        if not ids_distinct(id_col):
            return None  # repeated ids: the exact reader names the lines
        ids = ArrowIds(id_col)
    labels = _labels(table.column(names["label"]), positive)
    if labels is None:
        return None
    scores_col = table.column(names["score"])
    if scores_col.null_count or not (
        pa.types.is_floating(scores_col.type) or pa.types.is_integer(scores_col.type)
    ):
        return None
    if pa.types.is_integer(scores_col.type):
        import pyarrow.compute as pc

        bounds = pc.min_max(scores_col).as_py()
        if max(abs(bounds["min"]), abs(bounds["max"])) > EXACT:
            return None  # the exact reader names an integer a double would round
    # make_dataset checks the scores are finite, and the weights' values.
    scores = np.asarray(arrow_numbers.numbers(scores_col), dtype=np.float64)
    weights = None
    if "weight" in names:
        w = table.column(names["weight"])
        if w.null_count or not (pa.types.is_floating(w.type) or pa.types.is_integer(w.type)):
            return None
        weights = np.asarray(arrow_numbers.numbers(w), dtype=np.float64)
    try:
        return make_dataset(
            scores, labels, weights=weights, ids=ids, ids_known_unique=ids is not None, owned=True
        )
    except InputError:
        return None  # a non-finite score, a negative weight: the exact reader names the line
