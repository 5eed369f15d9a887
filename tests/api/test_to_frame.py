"""Tidy tables out: ``r.to_frame(kind)`` is pandas when installed, else polars, else an
ImportError naming both; ``r.to_arrow(kind)`` a pyarrow Table. The sweep's columns equal
scikit-learn's ROC curve (every distinct score) and a brute force in fractions; an
undefined number is null with its reason, never 0 or 1."""

from __future__ import annotations

import sys
from fractions import Fraction

import numpy as np
import pandas as pd  # type: ignore[import-untyped]  # no pandas-stubs installed
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_curve

import threshold_lab as tl

Y = [1, 0, 1, 0, 1]
S = [0.9, 0.8, 0.8, 0.4, 0.1]


def test_the_sweep_is_scikit_learn_s_roc_curve_at_every_distinct_score() -> None:
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 400)
    s = np.round(rng.random(400) + 0.4 * y, 2)  # ties
    f = tl.report(y, s).to_frame("sweep")
    assert list(f.columns) == [
        "threshold",
        "tp",
        "fp",
        "tn",
        "fn",
        "tpr",
        "fpr",
        "precision",
        "recall",
    ]
    fpr, tpr, thresholds = roc_curve(y, s, drop_intermediate=False)
    assert np.array_equal(f["threshold"].to_numpy(), thresholds)
    assert np.array_equal(f["fpr"].to_numpy(), fpr) and np.array_equal(f["tpr"].to_numpy(), tpr)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 1), st.sampled_from([0.1, 0.4, 0.5, 0.9])), min_size=1, max_size=12
    )
)
def test_each_sweep_row_is_its_brute_force_in_fractions(rows: list[tuple[int, float]]) -> None:
    y, s = [r[0] for r in rows], [r[1] for r in rows]
    f = tl.report(y, s).to_frame("sweep", exact=True)
    for row in f.itertuples(index=False):
        t = row.threshold
        tp = sum(1 for a, b in zip(y, s, strict=True) if a and b >= t)
        fp = sum(1 for a, b in zip(y, s, strict=True) if not a and b >= t)
        assert (row.tp, row.fp) == (tp, fp)
        p = sum(y)
        assert row.tpr_exact == str(Fraction(tp, p)) if p else pd.isna(row.tpr_exact)
        if tp + fp == 0:
            assert np.isnan(row.precision) and pd.isna(row.precision_exact)  # undefined: null
        else:
            assert row.precision_exact == str(Fraction(tp, tp + fp))
            assert row.precision == pytest.approx(tp / (tp + fp))


def test_the_metrics_table_names_each_number_with_its_interval_or_reason() -> None:
    r = tl.report(Y, S, threshold=0.95)  # nothing predicted positive: precision undefined
    f = r.to_frame("metrics")
    assert list(f.columns) == ["name", "value", "exact", "low", "high", "method", "reason"]
    row = f.set_index("name").loc["precision"]
    assert pd.isna(row["value"]) and pd.isna(row["exact"]) and "TP+FP=0" in row["reason"]
    recall = f.set_index("name").loc["recall"]
    assert recall["exact"] == "0" and recall["method"] == "wilson" and recall["low"] == 0
    auc = f.set_index("name").loc["roc_auc"]
    assert auc["exact"] == "7/12"


def test_groups_folds_and_readouts_are_tables_too() -> None:
    r = tl.report(Y, S, groups=["a", "a", "b", "b", "b"])
    g = r.to_frame("groups", exact=True)
    assert g["group"].tolist() == ["a", "b"] and g["tp"].tolist() == [1, 1]
    assert g["selection_rate_exact"].tolist() == ["1", "1/3"]
    folded = tl.report(
        [1, 0, 1, 0, 1, 0, 1, 0], [0.9, 0.1, 0.8, 0.3, 0.6, 0.7, 0.4, 0.2], folds=list("aaaabbbb")
    )
    f = folded.to_frame("folds", exact=True)
    assert f["roc_auc_exact"].tolist() == ["1", "1/2"]
    ro = r.to_frame("readouts")
    assert ro["kind"].tolist()[0] == "tpr_at_fpr" and ro["tpr"].tolist()[0] == pytest.approx(1 / 3)
    with pytest.raises(tl.InputError, match="no groups"):
        tl.report(Y, S).to_frame("groups")
    with pytest.raises(tl.InputError, match="not one of sweep, metrics"):
        r.to_frame("curves")


def test_polars_without_pandas_and_an_import_error_naming_both_without_either(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    r = tl.report(Y, S)
    assert isinstance(r.to_frame(), pd.DataFrame)
    arrow = r.to_arrow("metrics")
    assert isinstance(arrow, pa.Table) and arrow.column("exact")[0].as_py() == "2/3"
    monkeypatch.setitem(sys.modules, "pandas", None)
    f = r.to_frame("sweep")
    assert isinstance(f, pl.DataFrame) and f["tp"].to_list() == [0, 1, 2, 2, 3]
    monkeypatch.setitem(sys.modules, "polars", None)
    with pytest.raises(ImportError, match="pandas or polars"):
        r.to_frame()


def test_weights_that_are_not_whole_have_no_exact_fractions() -> None:
    f = tl.report(Y, S, sample_weight=[0.5, 1, 1, 1, 1]).to_frame("sweep", exact=True)
    assert f["tpr_exact"].isna().all() and f["tp"].tolist()[1] == 0.5
