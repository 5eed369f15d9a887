"""The pyarrow fast path reads clean files exactly like the exact reader, and hands
every irregular file back to it so messages still name the line and column."""

from __future__ import annotations

import ast
from collections.abc import Callable
from graphlib import TopologicalSorter
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from threshold_lab.core.data import delimited, fast_csv
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.data.loaders import Columns, load_file
from threshold_lab.core.errors import InputError


def exact(
    path: Path, cols: Columns = Columns(), monkeypatch: pytest.MonkeyPatch | None = None
) -> Dataset:
    assert monkeypatch is not None
    with monkeypatch.context() as m:
        m.setattr(fast_csv, "available", lambda: False)
        return load_file(path, cols)


def same(a: Dataset, b: Dataset) -> None:
    assert a.scores.tolist() == b.scores.tolist()
    assert a.labels.tolist() == b.labels.tolist()
    assert (a.weights is None) == (b.weights is None)
    if a.weights is not None:
        assert b.weights is not None
        assert a.weights.tolist() == b.weights.tolist()
    assert (a.ids is None) == (b.ids is None) and list(a.ids or ()) == list(b.ids or ())


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    st.lists(
        st.tuples(
            st.floats(-1e6, 1e6, allow_nan=False).map(lambda v: round(v, 6)),
            st.sampled_from(["0", "1"]),
            st.floats(0, 100, allow_nan=False).map(lambda v: round(v, 3)),
        ),
        min_size=1,
        max_size=60,
    ),
    st.sampled_from(["csv", "tsv"]),
    st.booleans(),
)
def test_clean_files_read_the_same_both_ways(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    rows: list[tuple[float, str, float]],
    kind: str,
    with_extras: bool,
) -> None:
    sep = "," if kind == "csv" else "\t"
    head = ["id", "score", "label", "weight"] if with_extras else ["score", "label"]
    lines = [sep.join(head)]
    for i, (score, label, weight) in enumerate(rows):
        cells = [f"r{i}", repr(score), label, repr(weight)] if with_extras else [repr(score), label]
        lines.append(sep.join(cells))
    if with_extras and not any(w > 0 for _, _, w in rows):
        return  # all-zero weights are an error, covered below
    p = tmp_path / f"f.{kind}"
    p.write_text("\n".join(lines) + "\n")
    fast = load_file(p)
    assert fast_csv.load_clean is not None
    same(fast, exact(p, monkeypatch=monkeypatch))


def test_fast_path_is_taken_for_clean_files(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = tmp_path / "d.csv"
    p.write_text("score,label\n0.9,1\n0.2,0\n")

    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("the exact reader ran")

    monkeypatch.setattr(delimited, "_read_exact", boom)
    assert load_file(p).scores.tolist() == [0.9, 0.2]


def test_named_labels_and_true_false(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = tmp_path / "n.csv"
    p.write_text("prob,truth\n0.7, spam\n0.2,ham\n0.6,ham\n")
    cols = Columns(score="prob", label="truth", positive="spam")
    same(load_file(p, cols), exact(p, cols, monkeypatch=monkeypatch))
    q = tmp_path / "b.csv"
    q.write_text("score,label\n0.7,true\n0.2,False\n")
    assert load_file(q).labels.tolist() == [True, False]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("score,label\n0.5,1\nabc,0\n", "line 3, column 'score': 'abc' is not a number"),
        ("score,label\n0.5,1\nnan,0\n", "line 3, column 'score': 'nan' is not a finite"),
        ("score,label\n0.5,1\n,0\n", "line 3, column 'score': the cell is empty"),
        ("score,label\n0.5,1\n0.4,2\n", "line 3, column 'label': label '2'"),
        ("score,label\n0.5,1\n0.4,0,9\n", "line 3: 3 fields, but the header has 2"),
        ("id,score,label\na,0.5,1\na,0.4,0\n", "line 3, column 'id': id 'a' repeats line 2"),
        ("score,label,weight\n0.5,1,0\n0.4,0,0\n", "every weight is zero"),
        ("score,label,weight\n0.5,1,1\n0.4,0,-1\n", "line 3, column 'weight': weight -1.0"),
    ],
)
def test_irregular_files_still_get_the_exact_message(
    tmp_path: Path, text: str, message: str
) -> None:
    p = tmp_path / "bad.csv"
    p.write_text(text)
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        load_file(p)


def test_large_clean_file_is_fast_enough_to_matter(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    n = 200_000
    p = tmp_path / "big.csv"
    with p.open("w") as fh:
        fh.write("score,label\n")
        np.savetxt(fh, np.c_[rng.random(n), rng.random(n) < 0.3], fmt=["%.6f", "%d"], delimiter=",")
    d = load_file(p)
    assert d.n == n and d.positives + d.negatives == n


@pytest.mark.parametrize(
    ("ids", "distinct"),
    [
        (["0", "1", "2"], True),
        (["2", "0", "2"], False),
        (["row-1", "row-2", "row-10"], True),
        (["row-1", "row-2", "row-1"], False),
        (["5", "05"], True),  # the same number, different strings
        (["0x5", "5"], True),  # arrow reads both as 5; the strings still differ
        (["a", "b", "a"], False),
        (["é1", "é2"], True),
        (["x1", "y1"], True),  # no shared prefix
        (["1", "1000000000000"], True),  # sparse numbers: sorted, not marked
        (["1", "1000000000000", "1"], False),
        (["abc-1", "abc-2", "abc-"], True),  # "abc-" has no number: compared as strings
        (["7"], True),
    ],
)
def test_ids_distinct_agrees_with_a_set(ids: list[str], distinct: bool) -> None:
    import pyarrow as pa

    assert distinct == (len(set(ids)) == len(ids))
    assert fast_csv.ids_distinct(pa.array(ids)) is distinct
    halves = pa.chunked_array([ids[:1], ids[1:]], type=pa.string())
    assert fast_csv.ids_distinct(halves) is distinct


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.integers(0, 50).map(str),
            st.integers(0, 50).map(lambda v: f"r{v}"),
            st.integers(0, 5).map(lambda v: f"0{v}"),
            st.text("ab0", max_size=3),
        ),
        min_size=1,
        max_size=30,
    )
)
def test_ids_distinct_matches_python_sets(ids: list[str]) -> None:
    import pyarrow as pa

    assert fast_csv.ids_distinct(pa.array(ids)) is (len(set(ids)) == len(ids))


def test_repeated_integer_ids_are_named_by_the_exact_reader(tmp_path: Path) -> None:
    p = tmp_path / "d.csv"
    p.write_text("id,score,label\n1,0.9,1\n2,0.2,0\n1,0.4,0\n")
    with pytest.raises(InputError, match="'1'"):
        load_file(p)


@pytest.mark.parametrize(
    "labels",
    [
        ["1", "0", "1"],
        ["true", "FALSE", "true"],
        ["true", "True", "true"],
        ["true", "True", "0"],  # three values
        ["1", "true", "1"],
        [" 1", "0", "0"],
        ["1.0", "0.0", "1.0"],
        ["yes", "no", "yes"],
        ["1", "2", "1"],
    ],
)
def test_labels_are_read_alike_by_both_readers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, labels: list[str]
) -> None:
    p = tmp_path / "d.csv"
    p.write_text("score,label\n" + "".join(f"0.{i + 1},{v}\n" for i, v in enumerate(labels)))

    def outcome(read: Callable[[], Dataset]) -> object:
        try:
            return read().labels.tolist()
        except InputError as exc:
            return str(exc)

    fast = outcome(lambda: load_file(p))
    assert fast == outcome(lambda: exact(p, monkeypatch=monkeypatch))


def _data_imports() -> dict[str, set[str]]:
    """Each core.data module to the core.data modules it imports."""
    folder = Path(fast_csv.__file__).parent
    graph: dict[str, set[str]] = {}
    for f in folder.glob("*.py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "threshold_lab.core.data":
                found.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                "threshold_lab.core.data."
            ):
                found.add(str(node.module).removeprefix("threshold_lab.core.data."))
        graph[f.stem] = found
    return graph


def test_readers_import_one_way() -> None:
    # loaders may call the fast path; the fast path never reaches back into a reader.
    graph = _data_imports()
    order = list(TopologicalSorter(graph).static_order())  # raises on a cycle
    assert order.index("labels") < order.index("fast_csv") < order.index("loaders")
    reached: set[str] = set()
    todo = ["fast_csv"]
    while todo:
        for m in graph.get(todo.pop(), set()) - reached:
            reached.add(m)
            todo.append(m)
    assert reached.isdisjoint({"loaders", "delimited", "cells", "parquet", "aggregated"})


def test_an_id_that_is_no_utf8_is_simply_absent(tmp_path: Path) -> None:
    # The plain soak at a new seed typed `label '\ud800' 1` (a lone surrogate, as bytes
    # that are not UTF-8 arrive) on a file with ids: pyarrow raised UnicodeEncodeError
    # looking it up. Arrow holds only valid UTF-8, so no id is that name.
    p = tmp_path / "ids.csv"
    p.write_text("id,score,label\nr1,0.9,1\nr2,0.2,0\ncafé,0.4,1\n")
    data = load_file(p)
    assert data.position_of("\ud800") is None and data.position_of("a\udcff") is None
    assert data.position_of("r2") == 1 and data.position_of("café") == 2


def test_a_small_file_is_read_exactly(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(delimited, "SMALL_BYTES", 64 * 1024)  # the rule, not the fixture's

    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("the fast reader ran")

    monkeypatch.setattr(delimited, "_try_fast", boom)
    p = tmp_path / "d.csv"
    p.write_text("score,label\n" + "0.9,1\n0.2,0\n" * 100)
    assert load_file(p).scores.tolist() == [0.9, 0.2] * 100
    rows = (64 * 1024) // len("0.9,1\n0.2,0\n") + 1
    p.write_text("score,label\n" + "0.9,1\n0.2,0\n" * rows)  # over 64 KiB
    with pytest.raises(AssertionError, match="the fast reader ran"):
        load_file(p)
