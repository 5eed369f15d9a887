"""Differential tests: scikit-learn (a test-only dependency) as an independent oracle."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm
from threshold_lab.core.analysis import analyse
from threshold_lab.core.curves.pr import average_precision, pr_trapezoid_area
from threshold_lab.core.curves.roc import roc_auc, roc_points
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.metrics.probability import brier_score, log_loss

from tests.strategies import examples, tied_scores

weights_st = st.lists(st.floats(0.05, 10.0), min_size=40, max_size=40)


@settings(max_examples=150, deadline=None)
@given(examples(both_classes=True), st.one_of(st.none(), weights_st))
def test_roc_curve_and_auc(ex, weights) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    w = None if weights is None else np.array(weights[: len(s)])
    sweep = build_sweep(make_dataset(s, y, weights=w))
    fpr, tpr, thr = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    ours = roc_points(sweep)
    assert ours is not None
    np.testing.assert_allclose(ours[0], fpr, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(ours[1], tpr, rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(sweep.thresholds, thr[1:])
    auc = roc_auc(sweep).value
    assert auc == pytest.approx(skm.roc_auc_score(y, s, sample_weight=w), rel=1e-10, abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(examples(scores=tied_scores), st.one_of(st.none(), weights_st))
def test_average_precision_and_pr_trapezoid(ex, weights) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    if not y.any():
        return
    w = None if weights is None else np.array(weights[: len(s)])
    sweep = build_sweep(make_dataset(s, y, weights=w))
    ap = average_precision(sweep).value
    assert ap == pytest.approx(skm.average_precision_score(y, s, sample_weight=w), abs=1e-12)
    precision, recall, _ = skm.precision_recall_curve(y, s, sample_weight=w)
    trap = pr_trapezoid_area(sweep).value
    assert trap == pytest.approx(skm.auc(recall, precision), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(examples(both_classes=True), st.floats(-1e6, 1e6, allow_nan=False))
def test_threshold_metrics(ex, t) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    a = analyse(make_dataset(s, y), t)
    pred = (s >= t).astype(int)
    tn, fp, fn, tp = skm.confusion_matrix(y, pred, labels=[0, 1]).ravel()
    assert a.counts.cells() == (tp, fp, tn, fn)
    m = a.metrics
    assert m["accuracy"].value == pytest.approx(skm.accuracy_score(y, pred))
    assert m["recall"].value == pytest.approx(skm.recall_score(y, pred, zero_division=np.nan))
    assert m["balanced_accuracy"].value == pytest.approx(skm.balanced_accuracy_score(y, pred))
    if m["precision"].value is not None:
        assert m["precision"].value == pytest.approx(skm.precision_score(y, pred))
    if m["f1"].value is not None:
        assert m["f1"].value == pytest.approx(skm.f1_score(y, pred))
        assert m["fbeta"].value == pytest.approx(skm.fbeta_score(y, pred, beta=2))
    if m["mcc"].value is not None:
        assert m["mcc"].value == pytest.approx(skm.matthews_corrcoef(y, pred))
    else:
        assert skm.matthews_corrcoef(y, pred) == 0  # sklearn's silent 0; ours says why


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0.001, 0.999), st.integers(0, 1)), min_size=2, max_size=30),
    st.one_of(st.none(), weights_st),
)
def test_probability_metrics(rows, weights) -> None:  # type: ignore[no-untyped-def]
    p = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows])
    y[0], y[1] = 0, 1
    w = None if weights is None else np.array(weights[: len(p)])
    data = make_dataset(p, y, weights=w)
    assert log_loss(data).value == pytest.approx(
        skm.log_loss(y, p, sample_weight=w, labels=[0, 1]), rel=1e-9
    )
    assert brier_score(data).value == pytest.approx(
        skm.brier_score_loss(y, p, sample_weight=w), rel=1e-9
    )


@settings(max_examples=150, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 30), st.booleans(), st.floats(0.05, 10.0)),
        min_size=2,
        max_size=300,
    ),
    st.booleans(),
    st.integers(1, 7),
)
def test_ap_and_pr_area_in_one_pass_are_the_two_functions_and_sklearns(
    rows: list[tuple[int, bool, float]], weighted: bool, block: int
) -> None:
    # The report sums AP and the PR trapezoid area in one pass; past the exact
    # path's step limit they are decimals: the same as each function's own, and as
    # scikit-learn's, whatever the block size. The limit is lowered so the decimal
    # path runs on small data.
    from threshold_lab.core import blocks as blocks_module
    from threshold_lab.core.curves import pr

    s = np.array([r[0] for r in rows], dtype=float) / 30
    y = np.array([r[1] for r in rows])
    if not y.any():
        return
    w = np.array([r[2] for r in rows]) if weighted else None
    sweep = build_sweep(make_dataset(s, y, weights=w))
    # Whole counts under the limit: the very fractions the two functions give.
    if sweep.whole_counts():
        both = pr.pr_summaries(sweep)
        assert [(m.value, m.exact) for m in both] == [
            (m.value, m.exact) for m in (average_precision(sweep), pr_trapezoid_area(sweep))
        ]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(pr, "EXACT_STEP_LIMIT", 0)
        mp.setattr(blocks_module, "BLOCK", block)
        ap, area = pr.pr_summaries(sweep)
        want_ap, want_area = average_precision(sweep).value, pr_trapezoid_area(sweep).value
    assert ap.value == pytest.approx(want_ap, rel=1e-12, abs=1e-15)
    assert area.value == pytest.approx(want_area, rel=1e-12, abs=1e-15)
    assert ap.value == pytest.approx(skm.average_precision_score(y, s, sample_weight=w), abs=1e-12)
    precision, recall, _ = skm.precision_recall_curve(y, s, sample_weight=w)
    assert area.value == pytest.approx(skm.auc(recall, precision), abs=1e-12)
