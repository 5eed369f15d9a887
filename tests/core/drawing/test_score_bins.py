"""The score axis bins: the strip's line separates predicted negatives from positives."""

from __future__ import annotations

from typing import cast

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from threshold_lab.core.analysis import analyse
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.drawing.score_bins import ScoreBins, row_columns
from threshold_lab.core.metrics.confusion import predict

from tests.strategies import Example, FloatArray, examples


@given(examples(), st.one_of(st.none(), st.floats(-2e6, 2e6)), st.integers(12, 200))
def test_line_separates_predictions(ex, threshold, usable) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    a = analyse(make_dataset(s, y), threshold)
    cols, line = row_columns(a.data, threshold, usable)
    positive = predict(a.data, threshold)
    assert 0 <= line < usable
    assert ((cols >= 0) & (cols < usable)).all()
    assert (cols[positive] > line).all()
    assert (cols[~positive] < line).all()


def test_scores_sharing_a_column_still_fall_on_their_side() -> None:
    # 0.5 and 0.4999999 round to one column; only 0.5 is predicted positive.
    a = analyse(make_dataset([0.0, 0.4999999, 0.5, 1.0], [0, 1, 0, 1]), 0.5)
    cols, line = row_columns(a.data, 0.5, 40)
    assert cols.tolist()[1] < line < cols.tolist()[2]
    assert np.array_equal(cols > line, [False, False, True, True])


@given(
    examples(),
    st.one_of(st.none(), st.floats(-2e6, 2e6)),
    st.integers(12, 200),
    st.booleans(),
)
def test_binned_lane_counts_equal_the_per_row_columns(
    ex: Example, threshold: float | None, usable: int, weighted: bool
) -> None:
    # The strip draws from counts binned once per dataset; they must equal what
    # placing every row by itself gives, at every threshold and width. Unweighted,
    # the rows admitted come from the sweep; weighted, they are counted.
    s, y = ex
    w = cast(FloatArray, 0.5 + np.arange(len(s)) % 3) if weighted else None
    a = analyse(make_dataset(s, y, weights=w), threshold)
    cols, line = row_columns(a.data, threshold, usable)
    pos, neg, fast_line = ScoreBins(a.data, usable).lane_counts(a)
    assert fast_line == line
    assert pos.tolist() == np.bincount(cols[a.data.labels], minlength=usable).tolist()
    assert neg.tolist() == np.bincount(cols[~a.data.labels], minlength=usable).tolist()
