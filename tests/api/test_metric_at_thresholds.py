"""``tl.metric_at_thresholds``: scikit-learn 1.9's name, arguments and return, equal to
its ``metric_at_thresholds`` at every distinct score (ties and weights included), with
the above-all point first; a metric named by text is read off the counts, equal to the
callable where defined and NaN (not 0) where its denominator is 0."""

from __future__ import annotations

from fractions import Fraction
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import (
    accuracy_score,
    balanced_accuracy_score,
    f1_score,
    matthews_corrcoef,
    precision_score,
)
from sklearn.metrics import metric_at_thresholds as sk_metric_at_thresholds

import threshold_lab as tl

FUNCTIONS = [
    accuracy_score,
    f1_score,
    partial(precision_score, zero_division=0),
    balanced_accuracy_score,
    matthews_corrcoef,
]


@settings(max_examples=40, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 1), st.sampled_from([0.1, 0.2, 0.5, 0.5, 0.7, 0.9]), st.integers(1, 3)
        ),
        min_size=2,
        max_size=20,
    ).filter(lambda rows: len({r[0] for r in rows}) == 2),
    st.sampled_from(range(len(FUNCTIONS))),
    st.booleans(),
)
def test_equal_to_scikit_learn_s_at_every_distinct_score(rows, which: int, weighted: bool) -> None:  # type: ignore[no-untyped-def]
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows])
    w = np.array([float(r[2]) for r in rows]) if weighted else None
    f = FUNCTIONS[which]
    ours, t = tl.metric_at_thresholds(y, s, f, sample_weight=w)
    theirs, t2 = sk_metric_at_thresholds(y, s, f, sample_weight=w)
    assert t[0] == np.inf and np.array_equal(t[1:], t2)
    assert np.allclose(ours[1:], theirs, rtol=0, atol=1e-12)
    nothing = f(y, np.zeros_like(y), **({} if w is None else {"sample_weight": w}))
    assert ours[0] == pytest.approx(nothing)  # the above-all point: nothing predicted positive


def test_a_named_metric_is_read_off_the_counts_and_undefined_is_nan() -> None:
    y, s = [1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1]
    values, t = tl.metric_at_thresholds(y, s, "precision")
    assert t.tolist() == [np.inf, 0.9, 0.8, 0.4, 0.1]
    assert np.isnan(values[0])  # nothing predicted positive: no precision, not 0
    want = [Fraction(1, 1), Fraction(2, 3), Fraction(2, 4), Fraction(3, 5)]
    assert values[1:].tolist() == [float(x) for x in want]
    called, _ = tl.metric_at_thresholds(y, s, partial(precision_score, zero_division=0))
    assert called[0] == 0.0 and np.array_equal(called[1:], values[1:])
    r = tl.report(y, s, beta=0.5)
    got, t2 = r.metric_at_thresholds("fbeta")
    assert np.array_equal(t2, t)
    # F-beta = (1 + b²)TP / ((1 + b²)TP + b²FN + FP) with TP 2, FN 1, FP 1, b² 1/4
    assert got[2] == pytest.approx(
        float(Fraction(5, 4) * 2 / (Fraction(5, 4) * 2 + Fraction(1, 4) + 1))
    )


def test_the_report_s_method_is_the_function_on_its_rows() -> None:
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 300)
    s = np.round(rng.random(300), 2)
    a, ta = tl.report(y, s).metric_at_thresholds(f1_score)
    b, tb = tl.metric_at_thresholds(y, s, f1_score)
    assert np.array_equal(a, b) and np.array_equal(ta, tb)


@pytest.mark.parametrize(
    ("metric", "params", "said"),
    [
        ("f2", None, "not a metric's name"),
        ("f1", {"average": "binary"}, "takes none"),
        (42, None, "neither a function"),
    ],
)
def test_bad_metrics_are_refused(metric: object, params: object, said: str) -> None:
    with pytest.raises(tl.InputError, match=said):
        tl.metric_at_thresholds([1, 0], [0.9, 0.1], metric, metric_params=params)  # type: ignore[arg-type]
