"""Log loss and the Brier score summed over the sweep's tie groups: the
same values as over the rows, and scikit-learn's, with ties, whole weights (zero among
them), scores of exactly 0 and 1, groups split across blocks; a certain wrong
prediction still names its row, and weights that are not whole are summed by row."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import brier_score_loss
from sklearn.metrics import log_loss as sk_log_loss
from threshold_lab.core.curves import probabilities
from threshold_lab.core.curves.probabilities import probability_summaries
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.metrics.probability import brier_score, log_loss

SCORES = st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.7, 0.9, 1.0]) | st.floats(0.0, 1.0)


@given(
    st.lists(st.tuples(SCORES, st.booleans(), st.integers(0, 4)), min_size=1, max_size=60),
    st.booleans(),
    st.sampled_from([1, 2, 3, 8192]),
)
def test_by_groups_is_by_rows(
    rows: list[tuple[float, bool, int]], weighted: bool, block: int
) -> None:
    p = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows])
    w = np.array([float(r[2]) for r in rows]) if weighted else None
    if w is not None and w.sum() == 0:
        w[0] = 1.0
    data = make_dataset(p, y, weights=w)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(probabilities, "DOT_BLOCK", block)
        ll, br = probability_summaries(data, build_sweep(data))
    rows_ll, rows_br = log_loss(data), brier_score(data)
    assert br.value is not None and rows_br.value is not None
    assert math.isclose(br.value, rows_br.value, rel_tol=1e-12, abs_tol=1e-15)
    assert math.isclose(
        br.value, brier_score_loss(y, p, sample_weight=w), rel_tol=1e-12, abs_tol=1e-15
    )
    if rows_ll.value is None:  # a certain wrong prediction of some weight
        assert ll.value is None and ll.reason == rows_ll.reason
        assert ll.reason is not None and "certain wrong prediction" in ll.reason
        return
    assert ll.value is not None
    assert math.isclose(ll.value, rows_ll.value, rel_tol=1e-12, abs_tol=1e-15)
    keep = np.ones(len(rows), bool) if w is None else w > 0
    if p[keep].min() > 1e-12 and p[keep].max() < 1 - 1e-12:  # scikit-learn clips near 0, 1
        want = sk_log_loss(y, p, sample_weight=w, labels=[False, True])
        assert math.isclose(ll.value, want, rel_tol=1e-9, abs_tol=1e-15)


def test_the_certain_wrong_row_is_named() -> None:
    data = make_dataset([0.2, 0.0, 0.9, 0.0], [0, 0, 1, 1], ids=["a", "b", "c", "d"])
    ll, br = probability_summaries(data, build_sweep(data))
    assert ll.value is None and ll.reason is not None and "Row d" in ll.reason
    assert br.value == pytest.approx((0.04 + 0 + 0.01 + 1) / 4, rel=1e-15)


def test_weights_not_whole_and_scores_outside_are_summed_as_before() -> None:
    d = make_dataset([0.2, 0.8, 0.8], [0, 1, 0], weights=[0.5, 1.25, 2.0])
    ll, br = probability_summaries(d, build_sweep(d))
    assert ll == log_loss(d) and br == brier_score(d)
    logits = make_dataset([-2.0, 3.0], [0, 1])
    ll, br = probability_summaries(logits, build_sweep(logits))
    assert ll.value is None and ll.reason is not None and "not probabilities" in ll.reason
    assert br.reason == brier_score(logits).reason


def test_a_zero_weight_positive_at_score_0_counts_for_nothing() -> None:
    d = make_dataset([0.0, 0.3, 1.0, 0.9], [1, 0, 0, 1], weights=[0, 1, 0, 2])
    ll, _ = probability_summaries(d, build_sweep(d))
    want = -(math.log(0.7) + 2 * math.log(0.9)) / 3
    assert ll.value == pytest.approx(want, rel=1e-15)
