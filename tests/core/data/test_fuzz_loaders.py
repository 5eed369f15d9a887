"""Loader fuzzing: mutated CSV, TSV, JSON, Parquet and aggregated files through every reader.

Each outcome is either one clean InputError (one line, naming the file) or a
dataset that an independent computation agrees with:

- the pyarrow reader and the exact reader give the same rows, or both refuse;
- when a deliberately narrow reference parser (Python's csv and json, floats,
  0/1 labels) accepts the file, the loader gives exactly its rows;
- the confusion counts and ROC AUC of what was loaded equal the slow oracle's.

``FUZZ_EXAMPLES`` sets the number of examples per test (CI: a few dozen each;
``make fuzz`` runs thousands with a seed).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import tempfile
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import analyse
from threshold_lab.core.data import fast_csv
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.data.loaders import Columns, load_file
from threshold_lab.core.errors import InputError

from tests import oracle

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Bytes that break readers: separators, quotes, line ends, bad UTF-8, numbers
# floats cannot hold, spellings of classes, Unicode digits and line separators.
TOKENS = [
    b"",
    b",",
    b"\t",
    b"\n",
    b"\r\n",
    b"\r",
    b'"',
    b'""',
    b" ",
    b"\x00",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\xc3",
    b"nan",
    b"inf",
    b"-inf",
    b"1e400",
    b"1e-400",
    b"5e-324",
    b"-0",
    b"0x1p3",
    b"1_0",
    "\u0661".encode(),
    "\u00b2".encode(),
    b"true",
    b"TRUE",
    b"1.0",
    b"0.0",
    b"yes",
    b"null",
    b"None",
    b"{",
    b"[",
    b"]",
    b"}",
    b":",
    b"\\",
    b"2",
    "\u2029".encode(),
    "\x85".encode(),
    "\u00e9".encode(),
    b"9" * 400,
    b"1e308",
    b"-1e308",
    b"score",
    b"label",
    b"weight",
    b"id",
]

SCORES = st.one_of(
    st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.5, 0.75, 0.9, 1.0]),
    st.floats(-1e9, 1e9, allow_nan=False, allow_infinity=False),
)


@st.composite
def tables(draw: Any) -> dict[str, list[Any]]:
    """A valid table: scores, 0/1 labels, sometimes weights and ids."""
    n = draw(st.integers(1, 8))
    table: dict[str, list[Any]] = {
        "score": draw(st.lists(SCORES, min_size=n, max_size=n)),
        "label": draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)),
    }
    if draw(st.booleans()):
        table["weight"] = draw(
            st.lists(st.sampled_from([0, 0.5, 1, 2, 3.25]), min_size=n, max_size=n)
        )
    if draw(st.booleans()):
        table["id"] = [f"r{i}" for i in range(n)]
    return table


def delimited_text(table: dict[str, list[Any]], sep: str) -> bytes:
    names = list(table)
    rows = zip(*(table[k] for k in names), strict=True)
    lines = [sep.join(names)] + [
        sep.join(repr(v) if isinstance(v, float) else str(v) for v in r) for r in rows
    ]
    return ("\n".join(lines) + "\n").encode()


@st.composite
def mutated(draw: Any, raw: bytes, least: int = 0) -> bytes:
    """``raw`` after ``least`` to four random edits (none a third of the time when
    ``least`` is 0): insert, delete, replace, repeat or cut."""
    data = bytearray(raw)
    for _ in range(draw(st.sampled_from([least, least, 1, 2, 3, 4]))):
        kind = draw(st.sampled_from(["insert", "delete", "replace", "repeat", "cut"]))
        at = draw(st.integers(0, len(data)))
        if kind == "insert":
            data[at:at] = draw(st.sampled_from(TOKENS))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 6))]
        elif kind == "replace":
            data[at : at + draw(st.integers(1, 4))] = draw(st.sampled_from(TOKENS))
        elif kind == "repeat":
            lines = bytes(data).split(b"\n")
            i = draw(st.integers(0, len(lines) - 1))
            lines.insert(i, lines[i])
            data = bytearray(b"\n".join(lines))
        else:
            del data[at:]
    return bytes(data)


# --- independent references -------------------------------------------------------------

_ZERO_ONE = {"0": False, "1": True}


def narrow_delimited(
    raw: bytes, sep: str
) -> tuple[list[float], list[bool], list[float] | None] | None:
    """Rows by a reader that accepts only the plainest files, or None.

    The header is exactly ``score<sep>label`` (optionally ``<sep>weight``), every
    row has those fields, scores are finite decimals, labels 0/1, weights plain
    non-negative decimals; at least one row."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return None
    if any(c in text for c in '\r"\x00\ufeff\u2029\x85') or not text.endswith("\n"):
        return None
    rows = list(csv.reader(io.StringIO(text), delimiter=sep))
    if not rows or rows[0] not in (["score", "label"], ["score", "label", "weight"]):
        return None
    width = len(rows[0])
    scores, labels, weights = [], [], []
    for row in rows[1:]:
        if len(row) != width or not all(_plain_decimal(c) for c in (row[0], *row[2:])):
            return None
        if row[1] not in _ZERO_ONE:
            return None
        if any(_underflows(c) for c in (row[0], *row[2:])):
            return None  # a nonzero decimal a double reads as 0: the loaders refuse it
        scores.append(float(row[0]))
        labels.append(_ZERO_ONE[row[1]])
        if width == 3:
            weights.append(float(row[2]))
    if not scores or not all(math.isfinite(s) and abs(s) < 1e300 for s in scores):
        return None
    if width == 3 and (min(weights) < 0 or max(weights) == 0):
        return None
    if width == 3 and any(0 < w < sum(weights) / 2**53 for w in weights):
        return None
    return scores, labels, (weights if width == 3 else None)


def _underflows(cell: str) -> bool:
    """``0.1e-4000``: a decimal with a nonzero digit that a double reads as 0."""
    mantissa = cell.split("e")[0]
    return float(cell) == 0 and any(ch in "123456789" for ch in mantissa)


def _plain_decimal(cell: str) -> bool:
    body = cell[1:] if cell.startswith("-") else cell
    whole, _, frac = body.partition(".")
    if "e" in frac:
        frac, _, exp = frac.partition("e")
        if not (exp.lstrip("-").isascii() and exp.lstrip("-").isdigit()):
            return False
    digits = whole + frac
    return bool(digits) and digits.isascii() and digits.isdigit() and len(digits) < 40


def check_clean_error(exc: InputError, path: Path) -> None:
    text = str(exc)
    assert "\n" not in text, text
    assert text.startswith(str(path)), text


def check_against_oracle(data: Dataset) -> None:
    """Counts at every distinct score and above all, and the AUC, by the slow oracle."""
    s = data.scores.tolist()
    y = [int(v) for v in data.labels.tolist()]
    w = None if data.weights is None else data.weights.tolist()
    for t in oracle.thresholds(s)[:6]:
        got = analyse(data, t).counts.cells()
        if w is None:
            want: tuple[Any, ...] = oracle.counts(s, y, t)
            assert tuple(got) == want
        else:
            cells = [Fraction(0)] * 4
            for si, yi, wi in zip(s, y, w, strict=True):
                pred = t is not None and si >= t
                cells[(0 if yi else 1) if pred else (3 if yi else 2)] += Fraction(wi)
            for g, c in zip(got, cells, strict=True):
                assert float(g) == pytest.approx(float(c), rel=1e-9, abs=1e-9)
    if w is None and 0 < sum(y) < len(y):
        auc = analyse(data, None).curves.summaries.roc_auc
        assert auc.exact == oracle.pairwise_auc(s, y)


def same_rows(a: Dataset, b: Dataset) -> None:
    assert a.scores.tolist() == b.scores.tolist()
    assert a.labels.tolist() == b.labels.tolist()
    assert (a.weights is None) == (b.weights is None)
    if a.weights is not None and b.weights is not None:
        assert a.weights.tolist() == b.weights.tolist()
    assert (None if a.ids is None else list(a.ids)) == (None if b.ids is None else list(b.ids))


def load(path: Path, cols: Columns = Columns(), *, exact: bool = False) -> Dataset | InputError:
    """The loader's outcome: a dataset, or its InputError; any other exception fails."""
    saved = fast_csv.available
    try:
        if exact:
            fast_csv.available = lambda: False
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            return load_file(path, cols)
    except InputError as exc:
        check_clean_error(exc, path)
        return exc
    finally:
        fast_csv.available = saved


# --- the tests -------------------------------------------------------------------------


@pytest.mark.parametrize(("suffix", "sep"), [(".csv", ","), (".tsv", "\t")])
@FUZZ
@given(data=st.data())
def test_mutated_delimited_files(tmp_path: Path, suffix: str, sep: str, data: Any) -> None:
    raw = data.draw(mutated(delimited_text(data.draw(tables()), sep)))
    path = tmp_path / f"f{suffix}"
    path.write_bytes(raw)
    fast, exact = load(path), load(path, exact=True)
    event("loaded" if isinstance(fast, Dataset) else "refused")
    assert isinstance(fast, InputError) == isinstance(exact, InputError), (fast, exact)
    if isinstance(fast, Dataset) and isinstance(exact, Dataset):
        same_rows(fast, exact)
        check_against_oracle(fast)
    narrow = narrow_delimited(raw, sep)
    if narrow is not None:
        event("the narrow reference accepts it")
        assert isinstance(fast, Dataset), (raw, fast)
        scores, labels, weights = narrow
        assert fast.scores.tolist() == scores and fast.labels.tolist() == labels
        assert (None if fast.weights is None else fast.weights.tolist()) == weights


@FUZZ
@given(data=st.data())
def test_mutated_aggregated_files(tmp_path: Path, data: Any) -> None:
    n = data.draw(st.integers(1, 6))
    counts = st.lists(st.integers(0, 5), min_size=n, max_size=n)
    scores, pos, neg = (
        data.draw(st.lists(SCORES, min_size=n, max_size=n)),
        data.draw(counts),
        data.draw(counts),
    )
    text = "score,positives,negatives\n" + "".join(
        f"{s!r},{p},{q}\n" for s, p, q in zip(scores, pos, neg, strict=True)
    )
    raw = data.draw(mutated(text.encode()))
    path = tmp_path / "agg.csv"
    path.write_bytes(raw)
    got = load(path)
    event("loaded" if isinstance(got, Dataset) else "refused")
    if isinstance(got, Dataset):
        # Each row stands for its positives and negatives: the same counts as the rows.
        assert got.weights is not None
        check_against_oracle(got)


JSON_VALUES = st.recursive(
    st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(10**30), 10**30),
        st.floats(allow_nan=False),
        st.sampled_from(["1", "0", "true", "x", "", " 1", "1e5", "\u0661"]),
    ),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=2)
    ),
    max_leaves=6,
)


@FUZZ
@given(data=st.data())
def test_mutated_json_files(tmp_path: Path, data: Any) -> None:
    table = data.draw(tables())
    doc: dict[str, Any] = {"scores": table["score"], "labels": table["label"]}
    if "weight" in table:
        doc["weights"] = table["weight"]
    if "id" in table:
        doc["ids"] = table["id"]
    # Structural edits: a value replaced by any JSON value, a key dropped or added.
    for _ in range(data.draw(st.integers(0, 3))):
        key = data.draw(st.sampled_from(sorted(doc)))
        kind = data.draw(st.sampled_from(["value", "drop", "add", "whole"]))
        if kind == "value" and isinstance(doc[key], list) and doc[key]:
            i = data.draw(st.integers(0, len(doc[key]) - 1))
            doc[key][i] = data.draw(JSON_VALUES)
        elif kind == "drop":
            del doc[key]
        elif kind == "add":
            doc[data.draw(st.sampled_from(["weights", "ids", "extra"]))] = data.draw(JSON_VALUES)
        elif kind == "whole":
            doc[key] = data.draw(JSON_VALUES)
        if not doc:
            break
    raw = json.dumps(doc).encode()
    if data.draw(st.booleans()):
        raw = data.draw(mutated(raw))
    path = tmp_path / "f.json"
    path.write_bytes(raw)
    got = load(path)
    event("loaded" if isinstance(got, Dataset) else "refused")
    if isinstance(got, Dataset):
        check_against_oracle(got)
        plain = {"scores", "labels"} == set(doc) and all(
            type(v) in (int, float) for v in doc["scores"] + doc["labels"]
        )
        if plain and set(doc["labels"]) <= {0, 1} and raw == json.dumps(doc).encode():
            assert got.scores.tolist() == [float(v) for v in doc["scores"]]
            assert got.labels.tolist() == [v == 1 for v in doc["labels"]]


PARQUET_COLUMNS = st.sampled_from(
    [
        [0.9, 0.1, 0.5],
        [1, 0, 1],
        [True, False, True],
        ["1", "0", "1"],
        [" a", "b ", "c"],
        ["yes", "no", "yes"],
        [None, 1, 0],
        [0.5, None, 0.5],
        [float("nan"), 0.1, 0.2],
        [float("inf"), 0.1, 0.2],
        [1e308, -1e308, 0.0],
        [2, 0, 5e-324],
        [1, 2, 3],
        ["a", "a", "b"],
    ]
)


@FUZZ
@given(data=st.data())
def test_random_and_corrupt_parquet_files(tmp_path: Path, data: Any) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    extra = data.draw(
        st.lists(
            st.sampled_from(["score", "label", "weight", "id", "Score", " label", "x"]),
            max_size=2,
        )
    )
    names = data.draw(st.permutations(["score", "label", *extra]))
    columns = [pa.array(data.draw(PARQUET_COLUMNS)) for _ in names]
    path = tmp_path / "f.parquet"
    pq.write_table(pa.table(columns, names=names), path)
    if data.draw(st.booleans()):
        path.write_bytes(data.draw(mutated(path.read_bytes(), least=1)))
    got = load(path)
    event("loaded" if isinstance(got, Dataset) else "refused")
    if isinstance(got, Dataset):
        check_against_oracle(got)
        assert all(math.isfinite(v) for v in got.scores.tolist())
    cols = Columns(positive=data.draw(st.sampled_from([None, "yes", "1", "a"])))
    got = load(path, cols)
    if isinstance(got, Dataset):
        check_against_oracle(got)


def test_the_narrow_reference_is_not_vacuous() -> None:
    # The reference accepts the plain files the fuzzing starts from.
    text = delimited_text({"score": [0.9, 0.1], "label": [1, 0], "weight": [1, 2]}, ",")
    assert narrow_delimited(text, ",") == ([0.9, 0.1], [True, False], [1.0, 2.0])
    assert narrow_delimited(text.replace(b"0.9", b"nan"), ",") is None
    assert np.isfinite(0.0)


@FUZZ
@given(data=st.data())
def test_mutated_grouped_and_quantised_files(tmp_path: Path, data: Any) -> None:
    """What ``aggregate`` writes, mutated: a clean refusal, or groups that add up."""
    from threshold_lab.core.data.sources import open_source

    n = data.draw(st.integers(1, 6))
    rows = [
        (
            data.draw(SCORES),
            data.draw(st.integers(0, 5)),
            data.draw(st.integers(0, 5)),
            data.draw(st.sampled_from(["a", "b", "c d"])),
            data.draw(st.booleans()),
        )
        for _ in range(n)
    ]
    text = "score,positives,negatives,model,merged,quantisation\n" + "".join(
        f"{s!r},{p},{q},{g},{str(m).lower()},round:2\n" for s, p, q, g, m in rows
    )
    path = tmp_path / "agg.csv"
    path.write_bytes(data.draw(mutated(text.encode())))
    try:
        src = open_source(str(path))
    except InputError as exc:
        check_clean_error(exc, path)
        event("refused")
        return
    event("loaded")
    for model in src.models or ():
        check_against_oracle(model.data)
    for q in src.quantised.values():
        assert q.bound is None or 0 <= q.bound <= 0.5


@FUZZ
@given(data=st.data())
def test_mutated_rows_through_the_duckdb_engine(
    tmp_path: Path, data: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    """``aggregate`` on a mutated file: exit 0 or one clean line and exit 2, nothing
    left behind; where the loader reads the file too, both count alike."""
    from threshold_lab.tui.cli import main

    table = data.draw(tables())
    table.pop("id", None)
    raw = data.draw(mutated(delimited_text(table, ",")))
    folder = Path(tempfile.mkdtemp(dir=tmp_path))
    path = folder / "rows.csv"
    path.write_bytes(raw)
    out = folder / "out.csv"
    code = main(["aggregate", str(path), "-o", str(out)])
    _said, err = capsys.readouterr()
    assert code in (0, 2), err
    if code == 2:
        assert err.startswith("threshold-lab: error: ") and err.count("\n") == 1, err
        assert "Traceback" not in err
        assert sorted(p.name for p in folder.iterdir()) == ["rows.csv"]
        event("engine refused, loader read" if isinstance(load(path), Dataset) else "both refused")
        return
    loaded = load(path)
    if isinstance(loaded, InputError):
        event("engine read, loader refused")
        return
    event("both read")
    engine = load_file(out)
    a, b = analyse(engine, None), analyse(loaded, None)
    assert (a.data.positives, a.data.negatives) == pytest.approx(
        (b.data.positives, b.data.negatives)
    )
    # The same operating points, but for scores whose rows all weigh 0 (a row file keeps
    # them as rows; counts of 0 add no example).
    weighed = (
        np.unique(loaded.scores[loaded.weights > 0] + 0.0)
        if loaded.weights is not None
        else np.unique(loaded.scores + 0.0)
    )
    assert np.unique(engine.scores + 0.0).tolist() == weighed.tolist()
    assert a.curves.summaries.roc_auc.value == pytest.approx(b.curves.summaries.roc_auc.value)
