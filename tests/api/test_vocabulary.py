"""One vocabulary with scikit-learn: ``pos_label=`` is ``positive=``, and labels
{-1, 1} are read as negative and positive by every reader (arrays, pandas and polars
frames, CSV by the fast and the exact reader, Parquet, JSON), with counts equal to
scikit-learn's own; -1 beside 0 is refused naming the row."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd  # type: ignore[import-untyped]  # no pandas-stubs installed
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from sklearn.metrics import confusion_matrix
from threshold_lab.core.data import fast_csv
from threshold_lab.core.data.loaders import load_file
from threshold_lab.tui.cli import main

import threshold_lab as tl

Y = [1, -1, 1, -1, -1, 1, 1, -1, -1, -1]
S = [0.9, 0.8, 0.7, 0.6, 0.55, 0.5, 0.3, 0.2, 0.2, 0.1]


def _sklearn(threshold: float) -> tuple[int, int, int, int]:
    pred = [1 if s >= threshold else -1 for s in S]
    tn, fp, fn, tp = confusion_matrix(Y, pred, labels=[-1, 1]).ravel()
    return int(tp), int(fp), int(tn), int(fn)


def _cells(r: tl.Report) -> tuple[int, int, int, int]:
    k = r.counts
    return int(k.tp), int(k.fp), int(k.tn), int(k.fn)


@pytest.mark.parametrize(
    "labels",
    [Y, np.array(Y), np.array(Y, dtype=np.int8), np.array(Y, dtype=float), [str(v) for v in Y]],
    ids=["list", "int64", "int8", "float", "text"],
)
def test_minus_one_and_one_from_arrays_are_negative_and_positive(labels: Any) -> None:
    assert _cells(tl.report(labels, S, threshold=0.5)) == _sklearn(0.5)


def test_minus_one_and_one_from_frames() -> None:
    want = _sklearn(0.5)
    for frame in (pd.DataFrame({"label": Y, "score": S}), pl.DataFrame({"label": Y, "score": S})):
        assert _cells(tl.from_frame(frame, threshold=0.5)) == want


def test_minus_one_and_one_from_every_file_reader(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    want = _sklearn(0.5)
    csv = tmp_path / "rows.csv"
    csv.write_text("score,label\n" + "".join(f"{s},{y}\n" for s, y in zip(S, Y, strict=True)))
    parquet = tmp_path / "rows.parquet"
    pq.write_table(pa.table({"score": S, "label": Y}), parquet)
    js = tmp_path / "rows.json"
    js.write_text(json.dumps({"scores": S, "labels": Y}))
    for path in (csv, parquet, js):
        assert main(["report", str(path), "--json", "--points", "0"]) == 0
        c = json.loads(capsys.readouterr().out)["counts"]
        assert (c["tp"], c["fp"], c["tn"], c["fn"]) == want, path
    out = tmp_path / "counts.csv"
    assert main(["aggregate", str(csv), "--out", str(out)]) == 0  # DuckDB's reading
    capsys.readouterr()
    rows = [line.split(",") for line in out.read_text().splitlines()[1:]]
    assert sum(int(r[1]) for r in rows) == Y.count(1)
    assert sum(int(r[2]) for r in rows) == Y.count(-1)
    fast = load_file(csv)
    monkeypatch.setattr(fast_csv, "available", lambda: False)  # the exact reader
    exact = load_file(csv)
    assert np.array_equal(fast.labels, exact.labels)
    assert fast.labels.tolist() == [y == 1 for y in Y]


def test_minus_one_beside_zero_is_refused_naming_the_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(tl.InputError, match=r"y_true row 3: label '-1' beside '0'"):
        tl.report([1, 0, -1], [0.3, 0.2, 0.1])
    csv = tmp_path / "rows.csv"
    csv.write_text("score,label\n0.9,1\n0.2,-1\n0.6,0\n")
    assert main(["report", str(csv)]) == 2
    err = capsys.readouterr().err
    assert "line 4, column 'label': label '0' beside '-1'" in err


def test_pos_label_is_positive_s_other_name() -> None:
    y = ["spam", "ham", "spam", "ham"]
    s = [0.9, 0.8, 0.4, 0.1]
    one = tl.report(y, s, pos_label="spam")
    assert _cells(one) == _cells(tl.report(y, s, positive="spam")) == (1, 1, 1, 1)
    assert _cells(tl.from_frame(pd.DataFrame({"label": y, "score": s}), pos_label="ham")) == (
        1,
        1,
        1,
        1,
    )
    with pytest.raises(tl.InputError, match="positive= and pos_label= are one option"):
        tl.report(y, s, positive="spam", pos_label="spam")
