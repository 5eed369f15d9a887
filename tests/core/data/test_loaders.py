"""Reading files: every format, and one clear message for every kind of bad file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from threshold_lab.core.data.loaders import Columns, load_file
from threshold_lab.core.data.sources import open_source
from threshold_lab.core.errors import InputError


def write(tmp_path: Path, name: str, text: str) -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def test_csv_with_ids_and_weights(tmp_path: Path) -> None:
    p = write(tmp_path, "d.csv", "id,score,label,weight\na,0.9,1,2\nb,0.8,0,1\n\nc,0.4,1,0.5\n")
    d = load_file(p)
    assert d.scores.tolist() == [0.9, 0.8, 0.4]
    assert d.labels.tolist() == [True, False, True]
    assert d.weights is not None and d.weights.tolist() == [2.0, 1.0, 0.5]
    assert d.ids is not None and tuple(d.ids) == ("a", "b", "c")
    assert d.positives == 2.5


def test_tsv_and_true_false_labels(tmp_path: Path) -> None:
    p = write(tmp_path, "d.tsv", "score\tlabel\n0.9\tTrue\n0.1\tfalse\n")
    d = load_file(p)
    assert d.labels.tolist() == [True, False]
    assert d.ids is None and d.row_id(1) == "2"


def test_named_columns_and_positive_name(tmp_path: Path) -> None:
    p = write(tmp_path, "d.csv", "prob,truth\n0.7,spam\n0.2,ham\n0.6,ham\n")
    d = load_file(p, Columns(score="prob", label="truth", positive="spam"))
    assert d.labels.tolist() == [True, False, False]


def test_json_fixture(tmp_path: Path) -> None:
    p = write(tmp_path, "f.json", json.dumps({"scores": [0.9, 0.8], "labels": [1, 0]}))
    assert load_file(p).scores.tolist() == [0.9, 0.8]


def test_parquet(tmp_path: Path) -> None:
    p = tmp_path / "d.parquet"
    pq.write_table(pa.table({"score": [0.3, 0.6], "label": [0, 1], "id": ["x", "y"]}), p)
    d = load_file(p)
    assert d.ids is not None
    assert d.scores.tolist() == [0.3, 0.6] and tuple(d.ids) == ("x", "y")


def test_logit_scores_are_valid(tmp_path: Path) -> None:
    p = write(tmp_path, "d.csv", "score,label\n-3.5,0\n2.25,1\n")
    assert load_file(p).are_probabilities is False


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("e.csv", "", "the file is empty"),
        ("h.csv", "score,label\n", "no data rows"),
        (
            "c.csv",
            "prob,label\n0.5,1\n",
            "no column 'score' in the header (columns: 'prob', 'label')",
        ),
        ("n.csv", "score,label\n0.5,1\nabc,0\n", "line 3, column 'score': 'abc' is not a number"),
        ("f.csv", "score,label\n0.5,1\nnan,0\n", "line 3, column 'score': 'nan' is not a finite"),
        ("i.csv", "score,label\ninf,1\n", "line 2, column 'score': 'inf' is not a finite"),
        ("b.csv", "score,label\n,1\n", "line 2, column 'score': the cell is empty"),
        ("l.csv", "score,label\n0.5,1\n0.4,2\n0.3,0\n", "line 3, column 'label': label '2'"),
        ("t.csv", "score,label\n0.5,a\n0.4,b\n0.3,c\n", "line 4, column 'label': a third label"),
        ("s.csv", "score,label\n0.5,cat\n0.4,dog\n", "--positive NAME"),
        (
            "w.csv",
            "score,label,weight\n0.5,1,1\n0.4,0,-2\n",
            "line 3, column 'weight': weight -2.0",
        ),
        ("x.csv", "score,label,weight\n0.5,1,1\n0.4,0,inf\n", "line 3, column 'weight': 'inf'"),
        ("z.csv", "score,label,weight\n0.5,1,0\n0.4,0,0\n", "every weight is zero"),
        ("r.csv", "score,label\n0.5,1,7\n", "line 2: 3 fields, but the header has 2"),
        (
            "d.csv",
            "id,score,label\na,0.5,1\na,0.4,0\n",
            "line 3, column 'id': id 'a' repeats line 2",
        ),
        (
            "j.json",
            '{"scores": [0.1], "labels": [1, 0]}',
            '"labels" has 2 items but "scores" has 1',
        ),
        ("k.json", '{"scores": [0.1,}', "line 1, column 17: not valid JSON"),
        ("m.json", '{"scores": [0.1]}', 'no "labels" key'),
        (
            "o.json",
            '{"scores": ["x"], "labels": [1]}',
            "item 0, column 'scores': 'x' is not a number",
        ),
        ("q.parquet", "not parquet", "not a readable Parquet file"),
    ],
)
def test_bad_files_name_file_place_and_problem(
    tmp_path: Path, name: str, text: str, message: str
) -> None:
    p = write(tmp_path, name, text)
    with pytest.raises(InputError) as info:
        load_file(p)
    assert str(info.value).startswith(str(p) + ": ")
    assert message in str(info.value)


def test_positive_name_must_exist(tmp_path: Path) -> None:
    p = write(tmp_path, "d.csv", "score,label\n0.5,cat\n0.4,dog\n")
    with pytest.raises(InputError, match="--positive 'cow' is not one of the labels"):
        load_file(p, Columns(positive="cow"))


def test_not_utf8(tmp_path: Path) -> None:
    p = tmp_path / "bin.csv"
    p.write_bytes(b"score,label\n\xff\xfe,1\n")
    with pytest.raises(InputError, match="not UTF-8 text"):
        load_file(p)


def test_missing_file_and_folder(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load_file(tmp_path / "nope.csv")
    with pytest.raises(InputError, match="is a folder"):
        load_file(tmp_path)


def test_unknown_source_lists_presets() -> None:
    with pytest.raises(InputError, match=r"no such file, and no preset has that name .*canonical"):
        open_source("canonicl")


def test_validation_of_arrays() -> None:
    from threshold_lab.core.data.dataset import make_dataset

    cases: list[tuple[dict[str, Any], str]] = [
        ({"scores": [], "labels": []}, "no rows"),
        ({"scores": [0.1, 0.2], "labels": [1]}, "2 scores but 1 labels"),
        ({"scores": [0.1], "labels": [3]}, "label at row 1 is"),
        ({"scores": [0.1, np.inf], "labels": [1, 0]}, "score at row 2 is inf"),
        ({"scores": [0.1], "labels": [1], "weights": [-1.0]}, "weight at row 1 is -1.0"),
        ({"scores": [0.1], "labels": [1], "weights": [np.nan]}, "weight at row 1 is nan"),
        ({"scores": [0.1, 0.2], "labels": [1, 0], "ids": ["a", "a"]}, "id 'a' appears more"),
    ]
    for kwargs, message in cases:
        with pytest.raises(InputError, match=message):
            make_dataset(**kwargs)
