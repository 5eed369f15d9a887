"""Regression tests: files that once crashed a reader, or were refused wrongly.

Each user error must be one InputError naming the file; never another exception.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from threshold_lab.core.data import fast_csv
from threshold_lab.core.data.labels import truth_of
from threshold_lab.core.data.loaders import Columns, load_file
from threshold_lab.core.errors import InputError


def _exact(path: Path, monkeypatch: pytest.MonkeyPatch, cols: Columns = Columns()):  # type: ignore[no-untyped-def]
    with monkeypatch.context() as m:
        m.setattr(fast_csv, "available", lambda: False)
        return load_file(path, cols)


# 1. A header with spaces after the delimiter.


@pytest.mark.parametrize("spaced_cells", [False, True])
def test_header_with_spaces_loads_like_one_without(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spaced_cells: bool
) -> None:
    sep = ", " if spaced_cells else ","
    spaced = tmp_path / "sp.csv"
    spaced.write_text(f"score, label, weight\n0.9{sep}1{sep}2\n0.1{sep}0{sep}1\n0.4{sep}1{sep}1\n")
    plain = tmp_path / "plain.csv"
    plain.write_text("score,label,weight\n0.9,1,2\n0.1,0,1\n0.4,1,1\n")
    want = _exact(plain, monkeypatch)
    for got in (load_file(spaced), _exact(spaced, monkeypatch)):
        assert got.scores.tolist() == want.scores.tolist()
        assert got.labels.tolist() == want.labels.tolist()
        assert got.weights is not None and want.weights is not None
        assert got.weights.tolist() == want.weights.tolist()


def test_fast_path_reads_a_header_with_spaces(tmp_path: Path) -> None:
    # Not just "falls back to the exact reader": the fast path itself reads it.
    from threshold_lab.core.data import delimited

    p = tmp_path / "sp.csv"
    p.write_text("score, label\n0.9,1\n0.1,0\n")
    got = delimited._try_fast(p, Columns())
    assert got is not None and got.labels.tolist() == [True, False]


# 2. JSON that broke Python's own limits.


def _json_error(tmp_path: Path, text: str) -> str:
    p = tmp_path / "d.json"
    p.write_text(text)
    with pytest.raises(InputError) as info:
        load_file(p)
    message = str(info.value)
    assert str(p) in message and "\n" not in message
    return message


@pytest.mark.parametrize(
    "text",
    [
        "[" * 10_000 + "]" * 10_000,
        '{"scores": ' + "[" * 10_000 + "]" * 10_000 + ', "labels": [1]}',
        '{"x": ' + '{"a": ' * 10_000 + "1" + "}" * 10_000 + "}",
    ],
    ids=["top-level", "scores", "objects"],
)
def test_json_nested_too_deep_is_an_input_error(tmp_path: Path, text: str) -> None:
    assert "nested" in _json_error(tmp_path, text)


@pytest.mark.parametrize("digits", [400, 5000])
@pytest.mark.parametrize(("key", "column"), [("scores", 0), ("labels", 1), ("weights", 2)])
def test_json_huge_integer_is_an_input_error(
    tmp_path: Path, digits: int, key: str, column: int
) -> None:
    cols: list[list[float]] = [[0.5, 0.25], [1, 0], [1, 1]]
    huge = "9" * digits
    body = ", ".join(
        f'"{k}": [{huge if i == column else json.dumps(v[0])}, {json.dumps(v[1])}]'
        for i, (k, v) in enumerate(zip(("scores", "labels", "weights"), cols, strict=True))
    )
    message = _json_error(tmp_path, "{" + body + "}")
    assert "item 0" in message and repr(key) in message
    assert len(message) < 600  # the number is not spelled out in full


def test_json_huge_integer_id_is_kept_as_text(tmp_path: Path) -> None:
    p = tmp_path / "d.json"
    huge = "7" * 5000
    p.write_text(f'{{"scores": [0.5, 0.2], "labels": [1, 0], "ids": [{huge}, 2]}}')
    assert list(load_file(p).ids or ()) == [huge, "2"]


# 3. One class spelled two ways.


@pytest.mark.parametrize(
    ("labels", "want"),
    [
        (["1", "1.0", "0"], [True, True, False]),
        (["True", "false", "TRUE"], [True, False, True]),
        (["true", "1", "0"], [True, True, False]),
        (["0.0", "FALSE", "0", "1"], [False, False, False, True]),
    ],
)
def test_one_class_spelled_two_ways_is_one_class(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, labels: list[str], want: list[bool]
) -> None:
    p = tmp_path / "d.csv"
    p.write_text("score,label\n" + "".join(f"0.{i + 1},{v}\n" for i, v in enumerate(labels)))
    names = {"score": "score", "label": "label"}
    fast = fast_csv.load_clean(str(p), ",", names, None)
    assert fast is not None and fast.labels.tolist() == want
    assert _exact(p, monkeypatch).labels.tolist() == want


def test_json_true_and_one_are_one_class(tmp_path: Path) -> None:
    p = tmp_path / "d.json"
    p.write_text('{"scores": [0.9, 0.1, 0.8], "labels": [true, 0, 1]}')
    assert load_file(p).labels.tolist() == [True, False, True]


def test_spellings_of_one_class_with_positive(tmp_path: Path) -> None:
    assert truth_of(["1", "1.0", "0"], "0") == {"1": False, "1.0": False, "0": True}
    assert truth_of(["yes", "TRUE", "true"], "yes") == {"yes": True, "TRUE": False, "true": False}


def test_two_different_names_still_need_positive() -> None:
    with pytest.raises(Exception, match="--positive NAME"):
        truth_of(["cat", "dog"], None)
    with pytest.raises(Exception, match="a third label value 'cow'"):
        truth_of(["true", "1", "cat", "cow"], "cat")


# Lows: nulls, spaces round ids, repeated column names.


def _parquet(path: Path, columns: dict[str, list[object]], names: list[str] | None = None) -> Path:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    table = pa.table(list(map(pa.array, columns.values())), names=names or list(columns))
    pq.write_table(table, path)
    return path


@pytest.mark.parametrize("row", [0, 1, 2])
def test_a_null_label_is_named_at_its_own_row(tmp_path: Path, row: int) -> None:
    labels: list[object] = [1, 0, 1]
    labels[row] = None
    p = _parquet(tmp_path / "d.parquet", {"score": [0.9, 0.1, 0.5], "label": labels})
    with pytest.raises(InputError) as err:
        load_file(p)
    assert f"row {row + 1}, column 'label': the label is missing (null)" in str(err.value)
    j = tmp_path / "d.json"
    j.write_text(json.dumps({"scores": [0.9, 0.1, 0.5], "labels": labels}))
    with pytest.raises(InputError) as err:
        load_file(j)
    assert f"item {row}, column 'labels': the label is missing (null)" in str(err.value)


def test_a_null_id_is_refused_not_called_none(tmp_path: Path) -> None:
    p = _parquet(tmp_path / "d.parquet", {"score": [0.9, 0.1], "label": [1, 0], "id": ["a", None]})
    with pytest.raises(InputError, match="row 2, column 'id': the id is missing"):
        load_file(p)
    j = tmp_path / "d.json"
    j.write_text('{"scores": [0.9, 0.1], "labels": [1, 0], "ids": [null, "b"]}')
    with pytest.raises(InputError, match="item 0, column 'ids': the id is missing"):
        load_file(j)


def test_ids_are_stripped_alike_by_both_readers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    p = tmp_path / "d.csv"
    p.write_text("id,score,label\n a,0.9,1\nb\u00a0,0.1,0\n\u3000c\u2029,0.5,1\n")
    names = {"id": "id", "score": "score", "label": "label"}
    fast = fast_csv.load_clean(str(p), ",", names, None)
    assert fast is not None and fast.ids is not None
    assert list(fast.ids) == list(_exact(p, monkeypatch).ids or []) == ["a", "b", "c"]


def test_arrow_trims_exactly_what_python_strips() -> None:
    import sys

    pa = pytest.importorskip("pyarrow")
    pc = pytest.importorskip("pyarrow.compute")
    chars = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000]
    padded = pa.array([f"{c}x{c}" for c in chars])
    trimmed = pc.utf8_trim_whitespace(padded).to_pylist()
    assert trimmed == [f"{c}x{c}".strip() for c in chars]


def test_ids_are_left_unstripped_only_when_no_end_can_be_whitespace() -> None:
    import sys

    pa = pytest.importorskip("pyarrow")
    chars = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c < 0xE000]
    for text in ("{}x", "x{}", "{}"):
        for c in chars:
            one = text.format(c)
            if one != one.strip():
                assert not fast_csv._edges_plain(pa.array(["a", one]))
    plain = ["row-1", "", "b", "é-not-at-the-end-é".strip("é")]
    assert fast_csv._edges_plain(pa.array(plain))
    assert fast_csv._edges_plain(pa.array(plain, type=pa.large_string()))
    assert fast_csv._edges_plain(
        pa.chunked_array([pa.array(plain), pa.array([], type=pa.string())])
    )
    # A slice reads its own ids, not those beside it in the buffer.
    assert fast_csv._edges_plain(pa.array([" a", "b", "c "]).slice(1, 1))
    assert not fast_csv._edges_plain(pa.array([" a", "b", "c "]).slice(1, 2))
    assert not fast_csv._edges_plain(pa.chunked_array([pa.array(["a"]), pa.array(["b\t"])]))


@pytest.mark.parametrize(
    ("header", "args", "message"),
    [
        ("score,label,label", Columns(), "2 columns named 'label'"),
        ("score,label,score", Columns(), "2 columns named 'score'"),
        ("Score,score,label", Columns(score="SCORE"), "columns that match 'SCORE'"),
        ("score,label", Columns(label="score"), "both the score and the label"),
        ("score,label,w", Columns(weight="label"), "both the label and the weight"),
    ],
)
def test_an_ambiguous_column_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, header: str, args: Columns, message: str
) -> None:
    p = tmp_path / "d.csv"
    cells = ",".join(["1"] * len(header.split(",")))
    p.write_text(f"{header}\n{cells}\n{cells.replace('1', '0')}\n")
    for load in (lambda: load_file(p, args), lambda: _exact(p, monkeypatch, args)):
        with pytest.raises(InputError, match=r"^[^\n]*$") as err:
            load()
        assert message in str(err.value)


def test_repeated_parquet_column_names_are_one_line(tmp_path: Path) -> None:
    p = _parquet(
        tmp_path / "d.parquet",
        {"a": [0.9, 0.1], "b": [1, 0], "c": [1, 0]},
        names=["score", "label", "label"],
    )
    with pytest.raises(InputError, match=r"^[^\n]*2 columns named 'label'[^\n]*$"):
        load_file(p)


def test_a_weight_column_named_as_the_score_is_not_also_the_weights(tmp_path: Path) -> None:
    # --score-column weight: the column is the scores, and there are no weights.
    p = tmp_path / "d.csv"
    p.write_text("weight,label\n2,1\n3,0\n")
    data = load_file(p, Columns(score="weight"))
    assert data.scores.tolist() == [2.0, 3.0] and data.weights is None
