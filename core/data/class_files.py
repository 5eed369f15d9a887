"""Reading several classes: a label column of class names and one score column a class.

A file is multiclass when ``--class-score CLASS=COLUMN`` is given (repeatable), or
when its header has ``score_<class>`` columns (and no ``score`` column) and its labels
are class names from those columns or take three or more values (or ``--multiclass``
says so). Otherwise, with two-valued labels (0/1, true/false), such a header is read as
several models of one binary problem (see :mod:`threshold_lab.core.data.models`). A JSON
fixture is multiclass when it has ``"classes"``: ``{"classes": [...], "scores": [[...],
...], "labels": [...]}``. Parquet is read like CSV.

The class order is the order of the score columns (or of ``"classes"``), which breaks
argmax ties. A class with a score column but no rows is allowed; a label with no score
column is an error naming it and its line.
"""

from __future__ import annotations

import csv
import itertools
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from threshold_lab.core.data import progress
from threshold_lab.core.data.cells import Columns, fail, find, matching, numbers, optional
from threshold_lab.core.data.classes import Multiclass
from threshold_lab.core.data.delimited import delimiter_of, header_of, lines_of, read_rows
from threshold_lab.core.data.json_file import read_doc
from threshold_lab.core.errors import InputError, MissingDependency, quoted

SCORE_PREFIX = "score_"


def parse_class_scores(given: Sequence[str]) -> list[tuple[str, str]]:
    """``--class-score CLASS=COLUMN`` pairs, in order (InputError for a malformed one)."""

    out: list[tuple[str, str]] = []
    for g in given:
        cls, sep, column = g.partition("=")
        if not sep or not cls.strip() or not column.strip():
            raise InputError(
                f"--class-score takes CLASS=COLUMN, such as cat=p_cat; not {quoted(g)}"
            )
        out.append((cls.strip(), column.strip()))
    names = [c for c, _ in out]
    dup = next((c for c in names if names.count(c) > 1), None)
    if dup is not None:
        raise InputError(f"--class-score names class {quoted(dup)} twice")
    return out


def _pairs_from_header(header: Sequence[str]) -> list[tuple[str, str]]:
    if any(h.lower() == "score" for h in header):
        return []
    found = [(h[len(SCORE_PREFIX) :], h) for h in header if h.lower().startswith(SCORE_PREFIX)]
    return [(c, h) for c, h in found if c]


def _regular(path: Path) -> bool:
    """A regular file that can be looked at (else the loader says why)."""
    try:
        return path.is_file() and not path.is_fifo()
    except OSError:
        return False


#: Rows read to tell class names from 0/1 labels before reading a whole file.
SAMPLE_ROWS = 2000


def _sample_labels(path: Path, label: str) -> set[str] | None:
    """The distinct labels of the first :data:`SAMPLE_ROWS` rows, or None when they
    cannot be read cheaply (the full read then says what is wrong)."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as fh:
            first = fh.readline()
            delimiter = delimiter_of(path, first)
            header = [h.strip() for h in next(csv.reader([first], delimiter=delimiter))]
            hits = matching(header, label)
            if len(hits) != 1:
                return None
            reader = csv.reader(fh, delimiter=delimiter)
            return {
                row[hits[0]].strip()
                for row in itertools.islice(reader, SAMPLE_ROWS)
                if len(row) > hits[0]
            }
    except (OSError, UnicodeDecodeError, csv.Error, StopIteration):
        return None


def _header(path: Path) -> list[str]:
    if path.suffix.lower() in (".parquet", ".pq"):
        try:
            import pyarrow.parquet as pq

            return list(pq.read_schema(str(path)).names)
        except Exception:  # the reader says what is wrong
            return []
    return header_of(path)


def load_multiclass(
    path: Path, cols: Columns, class_scores: Sequence[str] = (), *, force: bool = False
) -> Multiclass | None:
    """``path`` as a multiclass problem, or None when it is not one (see the module)."""
    given = parse_class_scores(class_scores)
    suffix = path.suffix.lower()
    if not _regular(path):  # a pipe, or a file that cannot be looked at
        if given:
            raise fail(
                path,
                "several classes are read from a regular file that can be read "
                "(this is a pipe or device, or cannot be opened)",
            )
        return None  # the loader reads it once, and says what is wrong
    if suffix == ".json":
        return _from_json(path, cols) if not given else _refuse_json(path)
    pairs = given or _pairs_from_header(_header(path))
    if not given and len(pairs) < 2:
        return None
    if len(pairs) < 2 and not force:
        raise fail(path, "several classes need a score column each (--class-score given once)")
    if not given and not force and suffix not in (".parquet", ".pq"):
        sample = _sample_labels(path, cols.label)
        if sample is not None and not sample <= {c for c, _ in pairs} and len(sample) <= 2:
            return None  # two-valued labels so far: models; not worth reading it all here
    if suffix in (".parquet", ".pq"):
        table = _parquet(path, cols, pairs)
    else:
        table = _delimited(path, cols, pairs)
    labels_raw, score_columns, where, ids, weights = table
    distinct = {str(x).strip() for x in labels_raw}
    names = {c for c, _ in pairs}
    if not given and not force and not distinct <= names and len(distinct) <= 2:
        return None  # two-valued labels (0/1 ...): several models of one binary problem
    return _assemble(path, pairs, labels_raw, score_columns, where, ids, weights)


def _refuse_json(path: Path) -> Multiclass:
    raise fail(
        path,
        '--class-score is for CSV, TSV and Parquet; a JSON fixture names its classes in "classes"',
    )


def _assemble(
    path: Path,
    pairs: Sequence[tuple[str, str]],
    labels_raw: Sequence[object],
    scores: Sequence[np.ndarray],
    where: object,
    ids: Sequence[str] | None,
    weights: np.ndarray | None,
) -> Multiclass:
    classes = tuple(c for c, _ in pairs)
    index = {c: i for i, c in enumerate(classes)}
    labels = np.empty(len(labels_raw), dtype=np.int64)
    for i, raw in enumerate(labels_raw):
        key = str(raw).strip()
        if key not in index:
            place = where(i) if callable(where) else f"row {i + 1}"
            raise fail(
                path,
                f"{place}: label {quoted(key)} has no score column; the classes are "
                f"{', '.join(classes)}",
            )
        labels[i] = index[key]
    if labels.shape[0] == 0:
        raise fail(path, "no rows")
    matrix = np.column_stack(scores).astype(np.float64)
    if weights is not None and (np.any(weights < 0) or not np.all(np.isfinite(weights))):
        raise fail(path, "weights must be finite and not negative")
    return Multiclass(classes, matrix, labels, weights, ids)


def _wanted(
    path: Path, header: Sequence[str], cols: Columns, pairs: Sequence[tuple[str, str]]
) -> dict[str, int]:
    """Header positions: ``label``, each class's scores (``s0``, ``s1``, ...), and the
    weight and id columns when named or present, found as every reader finds them."""
    out = {"label": find(path, header, cols.label, "--label-column")}
    for k, (_, column) in enumerate(pairs):
        out[f"s{k}"] = find(path, header, column, "--class-score CLASS=COLUMN")
    taken = set(out.values())
    for key, named, flag in (
        ("weight", cols.weight, "--weight-column"),
        ("id", cols.id, "--id-column"),
    ):
        i = find(path, header, named, flag) if named else optional(path, header, key, taken)
        if i is not None:
            out[key] = i
            taken.add(i)
    return out


def _delimited(
    path: Path, cols: Columns, pairs: Sequence[tuple[str, str]]
) -> tuple[list[object], list[np.ndarray], object, list[str] | None, np.ndarray | None]:
    try:
        text = progress.read_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise fail(path, "not UTF-8 text") from None
    lines = lines_of(text)
    if not lines:
        raise fail(path, "empty file")
    named: dict[str, str] = {}

    def columns_of(header: list[str]) -> dict[str, int]:
        out = _wanted(path, header, cols, pairs)
        for key in ("id", "weight"):
            if key in out:
                named[key] = header[out[key]].strip()
        return out

    rows = read_rows(path, lines, columns_of)
    scores = [
        numbers(path, column, rows.cells[f"s{k}"], rows.where)
        for k, (_, column) in enumerate(pairs)
    ]
    ids = [str(x).strip() for x in rows.cells["id"]] if "id" in named else None
    weights = (
        numbers(path, named["weight"], rows.cells["weight"], rows.where)
        if "weight" in named
        else None
    )
    return rows.cells["label"], scores, rows.where, ids, weights


def _parquet(
    path: Path, cols: Columns, pairs: Sequence[tuple[str, str]]
) -> tuple[list[object], list[np.ndarray], object, list[str] | None, np.ndarray | None]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingDependency(
            f"{path}: reading Parquet needs pyarrow: pip install 'threshold-lab[parquet]'"
        ) from None
    try:
        table = pq.ParquetFile(str(path)).read()
    except Exception as exc:
        raise fail(path, f"not a readable Parquet file ({exc})") from None
    names = list(table.column_names)
    at = _wanted(path, names, cols, pairs)

    def column(key: str) -> list[object]:
        values: list[object] = table.column(at[key]).to_pylist()
        return values

    def where(i: int) -> str:
        return f"row {i + 1}"

    scores = [numbers(path, c, column(f"s{k}"), where) for k, (_, c) in enumerate(pairs)]
    ids = [str(x) for x in column("id")] if "id" in at else None
    weights = (
        numbers(path, names[at["weight"]], column("weight"), where) if ("weight" in at) else None
    )
    return column("label"), scores, where, ids, weights


def _from_json(path: Path, cols: Columns) -> Multiclass | None:
    try:
        doc = read_doc(path)  # the JSON loader's own parse (deep nesting, long integers)
    except InputError:
        return None  # the loader reads it again and says what is wrong
    if not isinstance(doc, dict) or "classes" not in doc:
        return None
    classes = doc["classes"]
    if (
        not isinstance(classes, list)
        or len(classes) < 2
        or not all(isinstance(c, str) and c.strip() for c in classes)
    ):
        raise fail(path, '"classes" must be a list of at least two class names')
    if len(set(classes)) != len(classes):
        raise fail(path, '"classes" names a class twice')
    labels, scores = doc.get("labels"), doc.get("scores")
    if not isinstance(labels, list) or not isinstance(scores, list):
        raise fail(path, 'a multiclass fixture needs "labels" and "scores" lists')
    if len(labels) != len(scores):
        raise fail(path, f'"scores" has {len(scores)} rows for {len(labels)} labels')
    k = len(classes)
    flat: list[object] = []
    for i, row in enumerate(scores):
        if not isinstance(row, list) or len(row) != k:
            raise fail(path, f'"scores" item {i + 1} must be a list of {k} numbers, one a class')
        flat.extend(row)
    values = numbers(path, "scores", flat, lambda j: f"item {j // k + 1}")
    matrix = values.reshape(len(scores), k)
    columns = [matrix[:, c] for c in range(k)]
    weights = doc.get("weights")
    w = None
    if weights is not None:
        if not isinstance(weights, list) or len(weights) != len(labels):
            raise fail(path, '"weights" must be a list, one a row')
        w = numbers(path, "weights", weights, lambda j: f"item {j + 1}")
    ids = doc.get("ids")
    if ids is not None and (not isinstance(ids, list) or len(ids) != len(labels)):
        raise fail(path, '"ids" must be a list, one a row')
    return _assemble(
        path,
        [(str(c), str(c)) for c in classes],
        labels,
        columns,
        lambda j: f"item {j + 1}",
        None if ids is None else [str(x) for x in ids],
        w,
    )
