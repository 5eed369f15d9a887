"""Read scored examples from CSV, TSV, JSON fixture and Parquet files.

Every problem in a file becomes one :class:`~core.errors.InputError` whose
message names the file, the line (or item) and the column, and what is wrong.
"""

from __future__ import annotations

import csv
import json
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from core.data import fast_csv, progress
from core.data.dataset import Dataset, make_dataset
from core.errors import InputError

TRUE_WORDS = frozenset({"1", "1.0", "true"})
FALSE_WORDS = frozenset({"0", "0.0", "false"})
BOOL_WORDS = TRUE_WORDS | FALSE_WORDS


def _is_number_like(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Columns:
    """Which columns hold what. ``None`` for weight/id means: use it if present."""

    score: str = "score"
    label: str = "label"
    weight: str | None = None
    id: str | None = None
    positive: str | None = None


Where = Callable[[int], str]


def _fail(path: Path, message: str) -> InputError:
    return InputError(f"{path}: {message}")


def _numbers(path: Path, column: str, values: Sequence[object], where: Where) -> np.ndarray:
    """Parse a column of numbers, naming the first bad cell's place."""
    out = np.empty(len(values), dtype=np.float64)
    for i, raw in enumerate(values):
        if isinstance(raw, bool) or raw is None:
            raise _fail(path, f"{where(i)}, column {column!r}: {raw!r} is not a number")
        text = raw.strip() if isinstance(raw, str) else raw
        if text == "":
            raise _fail(path, f"{where(i)}, column {column!r}: the cell is empty")
        try:
            value = float(text)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise _fail(path, f"{where(i)}, column {column!r}: {raw!r} is not a number") from None
        if not math.isfinite(value):
            raise _fail(path, f"{where(i)}, column {column!r}: {raw!r} is not a finite number")
        out[i] = value
    return out


def _label_key(raw: object) -> str:
    if isinstance(raw, bool):
        return "true" if raw else "false"
    if isinstance(raw, int | float) and not isinstance(raw, bool):
        return repr(float(raw)).removesuffix(".0") if float(raw).is_integer() else repr(raw)
    return str(raw).strip()


def _labels(
    path: Path, column: str, values: Sequence[object], where: Where, positive: str | None
) -> np.ndarray:
    """Map raw labels to booleans: 0/1, true/false, or two names with ``--positive``."""
    keys = [_label_key(v) for v in values]
    seen: dict[str, int] = {}
    for i, k in enumerate(keys):
        if k == "":
            raise _fail(path, f"{where(i)}, column {column!r}: the label is empty")
        if k not in seen:
            seen[k] = i
            if positive is None:
                is_bool = k.lower() in BOOL_WORDS
                others_bool = [s.lower() in BOOL_WORDS for s in seen if s != k]
                if (not is_bool and (_is_number_like(k) or any(others_bool))) or (
                    is_bool and others_bool and not all(others_bool)
                ):
                    raise _fail(
                        path,
                        f"{where(i)}, column {column!r}: label {k!r} is not 0/1 or true/false "
                        "like the labels before it (1 is positive, 0 is negative; for named "
                        "classes use --positive NAME)",
                    )
            if len(seen) > 2:
                names = ", ".join(repr(s) for s in seen)
                raise _fail(
                    path,
                    f"{where(i)}, column {column!r}: a third label value {k!r} "
                    f"(values so far: {names}); a binary classifier needs exactly two classes",
                )
    if positive is not None:
        if positive not in seen and len(seen) == 2:
            names = " and ".join(repr(s) for s in seen)
            raise _fail(path, f"--positive {positive!r} is not one of the labels ({names})")
        return np.fromiter((k == positive for k in keys), dtype=bool, count=len(keys))
    folded = {k: k.lower() for k in seen}
    unknown = [k for k, low in folded.items() if low not in BOOL_WORDS]
    if unknown:
        names = " and ".join(repr(s) for s in seen)
        raise _fail(
            path,
            f"{where(seen[unknown[0]])}, column {column!r}: label {unknown[0]!r} is not 0/1 or "
            f"true/false; the labels are {names}: name the positive one with --positive NAME",
        )
    truth = {k: folded[k] in TRUE_WORDS for k in seen}
    return np.fromiter((truth[k] for k in keys), dtype=bool, count=len(keys))


def _find(path: Path, header: Sequence[str], name: str, flag: str) -> int:
    if name in header:
        return header.index(name)
    lowered = [h.strip().lower() for h in header]
    if name.strip().lower() in lowered:
        return lowered.index(name.strip().lower())
    columns = ", ".join(repr(h) for h in header)
    raise _fail(
        path, f"no column {name!r} in the header (columns: {columns}); choose one with {flag}"
    )


def _optional(header: Sequence[str], name: str) -> int | None:
    lowered = [h.strip().lower() for h in header]
    return lowered.index(name) if name in lowered else None


def _assemble(
    path: Path,
    header: Sequence[str],
    cells: dict[str, list[object]],
    where: Where,
    cols: Columns,
) -> Dataset:
    score_name, label_name = cols.score, cols.label
    if not cells[score_name]:
        raise _fail(path, "no data rows after the header")
    scores = _numbers(path, score_name, cells[score_name], where)
    labels = _labels(path, label_name, cells[label_name], where, cols.positive)
    weights = None
    if "weight" in cells:
        weights = _numbers(path, str(cols.weight or "weight"), cells["weight"], where)
        bad = np.flatnonzero(weights < 0)
        if bad.shape[0]:
            i = int(bad[0])
            raise _fail(
                path,
                f"{where(i)}, column {cols.weight or 'weight'!r}: weight {float(weights[i])!r} "
                "is negative; weights must be 0 or more",
            )
    ids = None
    if "id" in cells:
        ids = [str(v).strip() for v in cells["id"]]
        first: dict[str, int] = {}
        for i, v in enumerate(ids):
            if v in first:
                raise _fail(
                    path,
                    f"{where(i)}, column {cols.id or 'id'!r}: id {v!r} repeats "
                    f"{where(first[v])}; ids must be unique",
                )
            first[v] = i
    try:
        return make_dataset(scores, labels, weights=weights, ids=ids)
    except InputError as exc:
        raise _fail(path, str(exc)) from None


def _delimiter(path: Path, first_line: str) -> str:
    suffix = path.suffix.lower()
    if suffix in (".tsv", ".tab"):
        return "\t"
    if suffix == ".csv":
        return ","
    return "\t" if "\t" in first_line and "," not in first_line else ","


def _columns_wanted(path: Path, header: list[str], cols: Columns) -> dict[str, int]:
    """Header positions of score and label, and of weight and id when present."""
    wanted: dict[str, int] = {
        cols.score: _find(path, header, cols.score, "--score-column"),
        cols.label: _find(path, header, cols.label, "--label-column"),
    }
    extra: dict[str, int | None] = {
        "weight": _find(path, header, cols.weight, "--weight-column")
        if cols.weight
        else _optional(header, "weight"),
        "id": _find(path, header, cols.id, "--id-column") if cols.id else _optional(header, "id"),
    }
    wanted.update({k: v for k, v in extra.items() if v is not None})
    return wanted


def _header_of(path: Path) -> list[str]:
    """The header row's names, or [] when it cannot be read (the reader then says why)."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as fh:
            first = fh.readline()
        return [h.strip() for h in next(csv.reader([first], delimiter=_delimiter(path, first)))]
    except (UnicodeDecodeError, csv.Error, StopIteration):
        return []


def _try_fast(path: Path, cols: Columns) -> Dataset | None:
    """The pyarrow reader on a clean file; None sends the file to the exact reader."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as fh:
            first = fh.readline()
        header = [h.strip() for h in next(csv.reader([first], delimiter=_delimiter(path, first)))]
    except (UnicodeDecodeError, csv.Error, StopIteration):
        return None
    if not first.strip() or len(set(header)) != len(header):
        return None
    wanted = _columns_wanted(path, header, cols)
    names = {"score": header[wanted[cols.score]], "label": header[wanted[cols.label]]}
    names.update({k: header[wanted[k]] for k in ("weight", "id") if k in wanted})
    delimiter = _delimiter(path, first)
    if progress.current() is None:
        # Untracked, arrow reads the file itself: faster than through a Python file.
        return fast_csv.load_clean(str(path), delimiter, names, cols.positive)
    with progress.opened(path) as fh:
        return fast_csv.load_clean(fh, delimiter, names, cols.positive)


def load_delimited(path: Path, cols: Columns = Columns()) -> Dataset:
    """Read a CSV or TSV file with a header row: fast when clean, exact messages when not."""
    fast = _try_fast(path, cols)
    if fast is not None:
        return fast
    try:
        text = progress.read_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _fail(
            path, f"not UTF-8 text (byte {exc.object[exc.start]:#04x} at offset {exc.start})"
        ) from None
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise _fail(path, "the file is empty: a header row (score,label) and data rows are needed")
    reader = csv.reader(text.splitlines(keepends=True), delimiter=_delimiter(path, lines[0]))
    try:
        header = [h.strip() for h in next(reader)]
    except csv.Error as exc:
        raise _fail(path, f"line 1: {exc}") from None
    wanted = _columns_wanted(path, header, cols)
    cells: dict[str, list[object]] = {k: [] for k in wanted}
    line_of: list[int] = []
    try:
        for row in reader:
            if not row or all(not c.strip() for c in row):
                continue  # blank lines are not rows
            if len(row) != len(header):
                raise _fail(
                    path,
                    f"line {reader.line_num}: {len(row)} fields, but the header has {len(header)}",
                )
            for key, idx in wanted.items():
                cells[key].append(row[idx])
            line_of.append(reader.line_num)
    except csv.Error as exc:
        raise _fail(path, f"line {reader.line_num}: {exc}") from None
    return _assemble(path, header, cells, lambda i: f"line {line_of[i]}", cols)


def load_json(path: Path, cols: Columns = Columns()) -> Dataset:
    """Read a fixture ``{"scores": [...], "labels": [...]}`` (optional weights, ids)."""
    try:
        doc = json.loads(progress.read_bytes(path).decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise _fail(path, "not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise _fail(
            path, f"line {exc.lineno}, column {exc.colno}: not valid JSON ({exc.msg})"
        ) from None
    if not isinstance(doc, dict):
        raise _fail(path, 'expected an object like {"scores": [...], "labels": [...]}')
    for key in ("scores", "labels"):
        if key not in doc:
            raise _fail(path, f'no "{key}" key: expected {{"scores": [...], "labels": [...]}}')
    cells: dict[str, list[object]] = {}
    for key, name in (
        ("scores", "scores"),
        ("labels", "labels"),
        ("weights", "weight"),
        ("ids", "id"),
    ):
        if key in doc:
            if not isinstance(doc[key], list):
                raise _fail(path, f'"{key}" must be a list')
            cells[name] = doc[key]
    n = len(cells["scores"])
    for name, values in cells.items():
        if len(values) != n:
            raise _fail(path, f'"{name}" has {len(values)} items but "scores" has {n}')
    jcols = Columns(
        score="scores", label="labels", weight="weights", id="ids", positive=cols.positive
    )
    return _assemble(path, list(cells), cells, lambda i: f"item {i}", jcols)


def _parquet_names(path: Path, header: list[str], cols: Columns) -> dict[str, str]:
    """score/label/weight/id -> the Parquet column holding it."""
    wanted = _columns_wanted(path, header, cols)
    names = {"score": header[wanted[cols.score]], "label": header[wanted[cols.label]]}
    names.update({k: header[wanted[k]] for k in ("weight", "id") if k in wanted})
    return names


def load_parquet(
    path: Path, cols: Columns = Columns(), *, aggregated: bool | None = None
) -> Dataset:
    """Read a Parquet file (needs the ``[parquet]`` extra, pyarrow).

    Clean columns go straight to numpy; anything irregular takes the exact
    path, whose messages name the row. A ``score, positives, negatives``
    table is aggregated input, as in CSV.
    """
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise _fail(
            path, "reading Parquet needs pyarrow: pip install 'threshold-lab[parquet]'"
        ) from None
    with progress.opened(path) as fh:
        try:
            header = list(pq.read_schema(fh).names)
        except Exception as exc:  # pyarrow raises many types for a bad file
            raise _fail(path, f"not a readable Parquet file ({exc})") from None
        if aggregated is None:
            aggregated = is_aggregated(header)
        if aggregated:
            names = {n: header[_find(path, header, n, "the header")] for n in AGGREGATED_COLUMNS}
        else:
            names = _parquet_names(path, header, cols)
        try:
            # Only the columns used: a file of features besides its scores stays cheap.
            fh.seek(0)
            table = pq.read_table(fh, columns=list(dict.fromkeys(names.values())))
        except progress.Cancelled:
            raise
        except Exception as exc:
            raise _fail(path, f"not a readable Parquet file ({exc})") from None
    header = list(table.column_names)
    progress.step("checking rows")
    if aggregated:
        agg: dict[str, list[object]] = {
            name: table.column(names[name]).to_pylist() for name in AGGREGATED_COLUMNS
        }
        return from_aggregated(path, header, agg, lambda r: f"row {r + 1}")
    fast = fast_csv.from_table(table, names, cols.positive)
    if fast is not None:
        return fast
    cells: dict[str, list[object]] = {
        cols.score: table.column(_find(path, header, cols.score, "--score-column")).to_pylist(),
        cols.label: table.column(_find(path, header, cols.label, "--label-column")).to_pylist(),
    }
    w = (
        _find(path, header, cols.weight, "--weight-column")
        if cols.weight
        else _optional(header, "weight")
    )
    if w is not None:
        cells["weight"] = table.column(w).to_pylist()
    i = _find(path, header, cols.id, "--id-column") if cols.id else _optional(header, "id")
    if i is not None:
        cells["id"] = table.column(i).to_pylist()
    return _assemble(path, header, cells, lambda r: f"row {r + 1}", cols)


AGGREGATED_COLUMNS = ("score", "positives", "negatives")


def is_aggregated(header: Sequence[str]) -> bool:
    """A header with score, positives and negatives columns is aggregated input."""
    lowered = {h.strip().lower() for h in header}
    return set(AGGREGATED_COLUMNS) <= lowered


def from_aggregated(
    path: Path, header: Sequence[str], cells: dict[str, list[object]], where: Where
) -> Dataset:
    """One score per row with the (weighted) count of positives and negatives at it.

    It is a sufficient statistic for every ranking metric: each row becomes a
    positive and a negative example at that score, weighted by its counts.
    """
    scores = _numbers(path, "score", cells["score"], where)
    pos = _numbers(path, "positives", cells["positives"], where)
    neg = _numbers(path, "negatives", cells["negatives"], where)
    for name, values in (("positives", pos), ("negatives", neg)):
        bad = np.flatnonzero(values < 0)
        if bad.shape[0]:
            i = int(bad[0])
            raise _fail(path, f"{where(i)}, column {name!r}: {float(values[i])!r} is negative")
    n = scores.shape[0]
    try:
        return make_dataset(
            np.concatenate((scores, scores)),
            np.concatenate((np.ones(n, dtype=bool), np.zeros(n, dtype=bool))),
            weights=np.concatenate((pos, neg)),
        )
    except InputError as exc:
        raise _fail(path, str(exc)) from None


def load_aggregated(path: Path) -> Dataset:
    """Read a CSV/TSV of ``score, positives, negatives`` (counts or weighted sums)."""
    try:
        text = progress.read_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _fail(path, f"not UTF-8 text (byte at offset {exc.start})") from None
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise _fail(path, "the file is empty: a header row score,positives,negatives is needed")
    reader = csv.reader(text.splitlines(keepends=True), delimiter=_delimiter(path, lines[0]))
    header = [h.strip() for h in next(reader)]
    index = {
        name: _find(path, header, name, "the header")
        for name in ("score", "positives", "negatives")
    }
    cells: dict[str, list[object]] = {name: [] for name in index}
    line_of: list[int] = []
    for row in reader:
        if not row or all(not c.strip() for c in row):
            continue
        if len(row) != len(header):
            raise _fail(
                path, f"line {reader.line_num}: {len(row)} fields, but the header has {len(header)}"
            )
        for name, i in index.items():
            cells[name].append(row[i])
        line_of.append(reader.line_num)
    if not line_of:
        raise _fail(path, "no data rows after the header")
    return from_aggregated(path, header, cells, lambda i: f"line {line_of[i]}")


def load_file(
    path: str | Path, cols: Columns = Columns(), *, aggregated: bool | None = None
) -> Dataset:
    """Read scored examples from ``path``, choosing the reader by its extension."""
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such file")
    if p.is_dir():
        raise InputError(f"{p}: is a folder, not a file")
    suffix = p.suffix.lower()
    try:
        if suffix == ".json":
            return load_json(p, cols)
        if suffix in (".parquet", ".pq"):
            return load_parquet(p, cols, aggregated=aggregated)
        if aggregated is None:
            aggregated = is_aggregated(_header_of(p))
        if aggregated:
            return load_aggregated(p)
        return load_delimited(p, cols)
    except OSError as exc:
        raise InputError(f"{p}: cannot be read ({exc.strerror or exc})") from None
    finally:
        _release_reader_memory()


#: CSV/TSV files at least this large get a note when pyarrow is missing.
SLOW_NOTE_BYTES = 8 * 2**20


def slow_reader_note(path: str | Path) -> str | None:
    """What to tell a user about to wait: a large CSV/TSV and no pyarrow, so the
    exact reader (pure Python, several times slower) reads it. None otherwise."""
    p = Path(path)
    if p.suffix.lower() not in (".csv", ".tsv", ".txt") or not p.is_file():
        return None
    if p.stat().st_size < SLOW_NOTE_BYTES or fast_csv.available():
        return None
    return (
        f"{p.name} is read without pyarrow, by the exact reader: several times slower. "
        "pip install 'threshold-lab[parquet]' for the fast path."
    )


def _release_reader_memory() -> None:
    """Hand pyarrow's freed read buffers back to the system.

    Its allocator keeps them for reuse; after a 10^7-row read that is a few
    hundred MB nobody will use again.
    """
    pyarrow = sys.modules.get("pyarrow")
    if pyarrow is not None:
        pyarrow.default_memory_pool().release_unused()
