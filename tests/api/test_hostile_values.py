"""Values from a Python session that a double, an array or the API would silently
change are refused in one InputError naming the value and its row (counted from 1,
beside its Python index): complex numbers, masked values, integers past 2^53, long
doubles that would tie, text that is not a number by the files' rule, dates, numbers
too large for a double, ragged lists, sets and iterators, unfitted estimators, and
keywords no function takes."""

from __future__ import annotations

import decimal
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd  # type: ignore[import-untyped]  # no pandas-stubs installed
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.doubles import EXACT, read_double
from threshold_lab.tui.cli import main

import threshold_lab as tl

Y = [1, 0, 1, 0, 1]
S = [0.9, 0.8, 0.8, 0.4, 0.1]
BIG = 2**53 + 1  # a double reads it as 2**53


def _refused(call: Callable[[], object], said: str) -> str:
    with pytest.raises(tl.InputError) as caught:
        call()
    message = str(caught.value)
    assert said in message, message
    assert "\n" not in message and len(message) < 400
    return message


@pytest.mark.parametrize(
    ("scores", "said"),
    [
        ([0.9, 0.8 + 1j, 0.8, 0.4, 0.1], "y_score holds complex numbers (complex128)"),
        (np.array([1, 2, 3, 4, 5], dtype="datetime64[D]"), "y_score holds dates or times"),
        (np.array([1, 2, 3, 4, 5], dtype="timedelta64[s]"), "y_score holds time spans"),
        ([0.9, "1e-400", 0.8, 0.4, 0.1], "y_score row 2 is '1e-400': too small for a double"),
        ([0.9, "1_0", 0.8, 0.4, 0.1], "y_score row 2 is '1_0': not a number"),
        ([0.9, "\u0663", 0.8, 0.4, 0.1], "is '\u0663': not a number"),
        ([0.9, "inf", 0.8, 0.4, 0.1], "is 'inf': not a finite number"),
        ([0.9, 10**400, 0.8, 0.4, 0.1], "y_score row 2 is 1000000"),
        ([0.9, 10**5000, 0.8, 0.4, 0.1], "is an integer of 16610 bits: too large for a double"),
        ([0.9, None, 0.8, 0.4, 0.1], "y_score row 2 is None: the score is missing"),
        ([BIG, 2**53, 1, 0, 2], f"y_score row 1 is {BIG}: an integer a double cannot hold"),
        (np.array([BIG, 2**53, 1, 0, 2]), f"is {BIG}: an integer a double cannot hold"),
        (np.array([2**64 - 1, 0, 1, 2, 3], dtype=np.uint64), "an integer a double cannot hold"),
        ([[0.9], [0.8, 0.1], [0.8], [0.4], [0.1]], "y_score: its items are of different lengths"),
    ],
)
def test_a_score_a_double_would_change_is_refused(scores: Any, said: str) -> None:
    message = _refused(lambda: tl.report(Y, scores), said)
    assert len(message) < 250


def test_a_long_double_is_refused_only_where_two_scores_would_tie() -> None:
    one = np.longdouble(1)
    tiny = np.longdouble(2) ** -60  # far under a double's precision at 1
    if one + tiny == one:
        pytest.skip("this machine's long double is a double")
    tied = np.array([one, one + tiny, 0.5, 0.4, 0.1], dtype=np.longdouble)
    _refused(lambda: tl.report(Y, tied), "y_score row 1 and y_score row 2")
    apart = np.array([0.9, 0.8, 0.8, 0.4, 0.1], dtype=np.longdouble)
    assert tl.report(Y, apart).roc_auc.exact == tl.report(Y, S).roc_auc.exact


def test_integers_a_double_holds_are_scores_past_2_53_too() -> None:
    exact = [2**53 + 2, 2**53, 4, 2, 0]  # even: each a double
    r = tl.report(Y, exact)
    assert r.roc_auc.exact == tl.report(Y, [5, 4, 3, 2, 1]).roc_auc.exact


def test_masked_values_are_refused_and_an_unmasked_array_is_read() -> None:
    masked = np.ma.masked_array(np.asarray(S), mask=np.asarray([0, 0, 1, 0, 1], dtype=bool))
    _refused(lambda: tl.report(Y, masked), "y_score row 3 is masked (2 masked in all)")
    _refused(
        lambda: tl.report(
            np.ma.masked_array(np.asarray(Y), mask=np.asarray([1, 0, 0, 0, 0], dtype=bool)), S
        ),
        "y_true row 1",
    )
    plain = np.ma.masked_array(np.asarray(S), mask=False)
    assert tl.report(Y, plain).roc_auc.exact == tl.report(Y, S).roc_auc.exact


@pytest.mark.parametrize(
    ("labels", "said"),
    [
        ({1, 0}, "y_true is a set, which has no order"),
        ((v for v in Y), "y_true is an iterator, which can be read only once"),
    ],
)
def test_labels_without_an_order_are_refused(labels: Any, said: str) -> None:
    _refused(lambda: tl.report(labels, S), said)


def test_decimal_and_fraction_scores_are_numbers() -> None:
    from fractions import Fraction

    given_: Any = [decimal.Decimal("0.9"), Fraction(4, 5), "0.8", np.float32(0.4), 0.1]
    assert tl.report(Y, given_).roc_auc.exact == tl.report(Y, S).roc_auc.exact


def test_rows_are_counted_from_1_in_every_front_door(tmp_path: Path) -> None:
    second = "row 2"
    _refused(lambda: tl.report([1, float("nan"), 1, 0, 1], S), f"y_true {second}")
    _refused(lambda: tl.report(Y, [0.9, float("nan"), 0.8, 0.4, 0.1]), second)
    frame = pd.DataFrame({"label": Y, "score": [0.9, None, 0.8, 0.4, 0.1]})
    _refused(lambda: tl.from_frame(frame), f"at {second}")
    base = tl.report(Y, S)
    path = tmp_path / "base.json"
    path.write_text(base.to_json(), encoding="utf-8")
    _refused(
        lambda: tl.report(Y, S, baseline=path, baseline_scores=[0.9, float("nan"), 0.8, 0.4, 0.1]),
        f"baseline_scores {second} is nan",
    )


@pytest.mark.parametrize("groups", [1, "abcde", {1, 2}, (g for g in "abcde")])
def test_groups_that_are_not_one_name_a_row_are_refused(groups: Any) -> None:
    _refused(lambda: tl.report(Y, S, groups=groups), "groups: give")


def test_an_estimator_that_cannot_score_x_is_one_input_error() -> None:
    sklearn = pytest.importorskip("sklearn.linear_model")
    dummy = pytest.importorskip("sklearn.dummy")
    rng = np.random.default_rng(0)
    X = rng.normal(size=(30, 3))
    y = (X[:, 0] > 0).astype(int)
    model = sklearn.LogisticRegression()
    _refused(lambda: tl.Report.from_estimator(model, X, y), "LogisticRegression is not fitted")
    model.fit(X, y)
    _refused(lambda: tl.Report.from_estimator(model, X[:, :2], y), "refused X: X has 2 features")
    one = dummy.DummyClassifier().fit(X, np.ones(30))
    _refused(lambda: tl.Report.from_estimator(one, X, y), "fitted on one class")
    three = sklearn.LogisticRegression().fit(X, np.arange(30) % 3)
    # Never one class against the rest unasked: refused, naming positive=.
    _refused(lambda: tl.Report.from_estimator(three, X, np.arange(30) % 3), "positive=CLASS")
    r = tl.Report.from_estimator(three, X, np.arange(30) % 3, positive=1)
    assert r.to_dict()["multiclass"]["classes"] == ["0", "1", "2"]


def test_csv_and_parquet_integers_past_2_53_are_refused_naming_the_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    csv = tmp_path / "big.csv"
    csv.write_text(f"score,label\n{BIG},1\n{2**53},0\n", encoding="utf-8")
    parquet = tmp_path / "big.parquet"
    pq.write_table(
        pa.table({"score": pa.array([BIG, 2**53], pa.int64()), "label": [1, 0]}), parquet
    )
    for path, where in [(csv, "line 2"), (parquet, "row 1")]:
        assert main(["report", str(path), "--json"]) == 2
        err = capsys.readouterr().err
        assert f"{where}, column 'score'" in err and "an integer a double cannot hold" in err


@settings(max_examples=200, deadline=None)
@given(st.integers(-(2**70), 2**70))
def test_a_written_integer_is_read_as_itself_or_refused(value: int) -> None:
    try:
        double = read_double(str(value))
    except ValueError as exc:
        assert abs(value) > EXACT and "cannot hold" in str(exc)
        return
    assert int(double) == value


def test_a_long_value_is_quoted_short() -> None:
    long: Any = [0.9, "9" * 5000 + "x", 0.8, 0.4, 0.1]
    message = _refused(lambda: tl.report(Y, long), "row 2")
    assert len(message) < 200 and "(5003 characters)" in message
    assert re.search(r"'9{50,}", message)


def test_a_pandas_missing_label_is_called_missing() -> None:
    labels = pd.array([True, None, False, True, False], dtype="boolean")
    _refused(lambda: tl.report(labels, S), "y_true row 2: the label is missing (<NA>)")


def test_a_pandas_index_is_not_a_column_of_the_frame() -> None:
    frame = pd.DataFrame({"label": Y, "score": S}, index=[10, 11, 12, 13, 14])
    message = _refused(lambda: tl.from_frame(frame, score="nope"), "its columns are")
    assert message.endswith("its columns are: 'label', 'score'")
    assert tl.from_frame(frame).counts == tl.report(Y, S).counts


def test_a_threshold_is_read_by_the_scores_rule(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "canonical", "--threshold", "1e-400"]) == 2
    assert "'1e-400' is too small for a double: it would read as 0" in capsys.readouterr().err
    _refused(lambda: tl.report(Y, S, threshold="1_0"), "threshold '1_0' is not a number")
    _refused(lambda: tl.report(Y, S, threshold=10**5000), "beyond a double's range")
    half = decimal.Decimal("0.5")
    assert tl.report(Y, S, threshold=half).threshold == 0.5  # type: ignore[arg-type]


def test_a_text_and_a_number_never_share_a_group() -> None:
    _refused(
        lambda: tl.report(Y, S, groups=np.asarray([1, "1", 2, 2, 1], dtype=object)),
        "groups: 1 and '1' would both be group '1': give every group name as text",
    )
    r = tl.report(Y, S, groups=[1, 1.0, 2, 2, 1])  # one number, written two ways
    assert [g.name for g in r.contents.groups] == ["1", "2"]
