"""Log loss a block of rows at a time, one logarithm a row: the same value
whatever the blocks (against scikit-learn's), and the first certain wrong prediction
named even when it sits in a later block."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from sklearn.metrics import log_loss as sk_log_loss
from threshold_lab.core import blocks
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.metrics.probability import log_loss


@given(
    st.lists(
        st.tuples(st.floats(0.001, 0.999), st.booleans(), st.floats(0.1, 3.0)),
        min_size=2,
        max_size=40,
    ),
    st.integers(1, 5),
    st.booleans(),
)
def test_any_block_size_gives_sklearns_log_loss(
    rows: list[tuple[float, bool, float]], block: int, weighted: bool
) -> None:
    p = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows])
    w = np.array([r[2] for r in rows]) if weighted else None
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(blocks, "BLOCK", block)
        ours = log_loss(make_dataset(p, y, weights=w)).value
    want = sk_log_loss(y, p, sample_weight=w, labels=[False, True])
    assert ours is not None and math.isclose(ours, want, rel_tol=1e-9)


def test_the_first_certain_wrong_row_is_named_from_a_later_block(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(blocks, "BLOCK", 2)
    p = np.array([0.2, 0.7, 0.4, 1.0, 0.0, 1.0])
    y = np.array([False, True, True, False, True, False])
    m = log_loss(make_dataset(p, y))
    assert m.value is None
    assert m.reason == (
        "Row 4 is a certain wrong prediction (score 1.0 for an actual negative): "
        "log loss is infinite"
    )
    # A zero weight makes that row count for nothing: the next one is named.
    w = np.array([1.0, 1.0, 1.0, 0.0, 1.0, 1.0])
    m = log_loss(make_dataset(p, y, weights=w))
    assert m.reason is not None and m.reason.startswith("Row 5 is a certain wrong prediction")
