"""Frames of every kind (pandas, polars, pyarrow, DuckDB, and the interchange
protocol) give the report their columns give as arrays."""

from __future__ import annotations

from typing import Any

import duckdb
import pandas as pd  # type: ignore[import-untyped]  # no pandas-stubs installed
import polars as pl
import pyarrow as pa
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.svm import LinearSVC

import threshold_lab as tl

COLUMNS: dict[str, Any] = {
    "id": ["s1", "s2", "s3", "s4", "s5"],
    "p": [0.9, 0.8, 0.8, 0.4, 0.1],
    "q": [0.6, 0.7, 0.2, 0.1, 0.9],
    "y": [1, 0, 1, 0, 1],
    "w": [1.0, 2.0, 1.0, 1.0, 1.0],
}


def _frames() -> dict[str, Any]:
    df = pd.DataFrame(COLUMNS)
    return {
        "pandas": df,
        "polars": pl.DataFrame(COLUMNS),
        "pyarrow": pa.table(COLUMNS),
        "duckdb": duckdb.from_df(df),
        "interchange": _Interchange(df),
    }


class _Interchange:
    """A frame that offers only the dataframe interchange protocol."""

    def __init__(self, df: pd.DataFrame) -> None:
        self._df = df

    def __dataframe__(self, nan_as_null: bool = False, allow_copy: bool = True) -> Any:
        return self._df.__dataframe__(nan_as_null=nan_as_null, allow_copy=allow_copy)


@pytest.mark.filterwarnings("ignore:The Dataframe Interchange Protocol is deprecated")
@pytest.mark.parametrize("kind", list(_frames()))
def test_a_frame_is_its_columns(kind: str) -> None:
    frame = _frames()[kind]
    r = tl.from_frame(frame, score="p", label="y", weight="w", id="id", threshold=0.5)
    direct = tl.report(
        COLUMNS["y"],
        COLUMNS["p"],
        sample_weight=COLUMNS["w"],
        ids=COLUMNS["id"],
        threshold=0.5,
        source=r.source,
    )
    assert r.to_dict() == direct.to_dict()
    assert r.source == f"p ({type(frame).__name__})"  # named after its score column


@pytest.mark.parametrize("kind", ["pandas", "polars", "pyarrow", "duckdb"])
def test_several_score_columns_are_models(kind: str) -> None:
    r = tl.from_frame(_frames()[kind], score=["p", "q"], label="y")
    assert list(r.models) == ["p", "q"]
    direct = tl.report(COLUMNS["y"], {"p": COLUMNS["p"], "q": COLUMNS["q"]}, source=r.source)
    assert r.to_dict() == direct.to_dict()


def test_series_of_pandas_and_polars_are_arrays() -> None:
    df = pd.DataFrame(COLUMNS)
    named = tl.report(df["y"], df["p"])
    assert named.source == "p"  # named after the Series
    assert named.to_dict() == tl.report(COLUMNS["y"], COLUMNS["p"], source="p").to_dict()
    pf = pl.DataFrame(COLUMNS)
    assert tl.report(pf["y"], pf["p"]).counts == tl.report(df["y"], df["p"]).counts


@pytest.mark.parametrize(
    ("frame", "kwargs", "message"),
    [
        (pd.DataFrame(COLUMNS), {"score": "nope", "label": "y"}, "no column 'nope'"),
        (pd.DataFrame(COLUMNS), {"score": "id", "label": "y"}, "column 'id' holds"),
        (
            pd.DataFrame({"p": [0.5, None], "y": [1, 0]}),
            {"score": "p", "label": "y"},
            "column 'p' is missing a value (null) at row 2",  # from 1, as a file's
        ),
        (
            pd.DataFrame({"p": [0.5, 0.2], "y": ["a", "b"]}),
            {"score": "p", "label": "y"},
            "positive=NAME",
        ),
    ],
)
def test_a_frame_that_cannot_be_read(frame: Any, kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(tl.InputError) as caught:
        tl.from_frame(frame, **kwargs)
    assert message in str(caught.value)


def test_from_estimator_takes_predict_proba_then_decision_function() -> None:
    X, y = make_classification(n_samples=300, random_state=26)
    lr = LogisticRegression().fit(X, y)
    r = tl.Report.from_estimator(lr, X, y)
    proba = tl.report(y, lr.predict_proba(X)[:, 1], source="LogisticRegression predict_proba")
    assert r.to_dict() == proba.to_dict()
    svm = LinearSVC().fit(X, y)
    r = tl.Report.from_estimator(svm, X, y, threshold=0.0)
    margins = tl.report(
        y, svm.decision_function(X), threshold=0.0, source="LinearSVC decision_function"
    )
    assert r.to_dict() == margins.to_dict()


def test_from_estimator_with_named_and_several_classes() -> None:
    X, y = make_classification(n_samples=300, random_state=3)
    names = pd.Series(y).map({0: "ham", 1: "spam"})
    lr = LogisticRegression().fit(X, names)
    r = tl.Report.from_estimator(lr, X, names)
    assert r.positives == int((names == "spam").sum())
    X3, y3 = make_classification(n_samples=300, n_classes=3, n_informative=4, random_state=3)
    lr3 = LogisticRegression().fit(X3, y3)
    r3 = tl.Report.from_estimator(lr3, X3, y3, positive=2)
    assert r3.multiclass is not None and r3.multiclass.classes == ("0", "1", "2")
    assert r3.positives == int((y3 == 2).sum())
