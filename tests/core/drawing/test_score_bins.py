"""The score axis bins: the strip's line separates predicted negatives from positives."""

from __future__ import annotations

from typing import cast

import numpy as np
import pytest
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


@given(
    st.lists(
        st.tuples(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), st.booleans()),
        min_size=2,
        max_size=30,
    ),
    st.lists(
        st.tuples(
            st.sampled_from(["delete", "flip", "insert", "undo"]),
            st.integers(0, 40),
            st.sampled_from([0.0, 0.3, 0.5, 1.0, 1.5]),
            st.booleans(),
        ),
        max_size=12,
    ),
    st.integers(12, 90),
)
def test_bins_moved_by_edits_equal_the_rows_binned_afresh(rows, steps, usable) -> None:  # type: ignore[no-untyped-def]
    # A chain of one-row edits, each drawing moved from the one before (as the
    # explorer's preparer does), holds the counts of binning its rows anew.
    from threshold_lab.core.drawing.prepared import prepare
    from threshold_lab.core.session.session import Session

    scores, labels = zip(*rows, strict=True)
    s = Session(make_dataset(np.array(scores), np.array(labels)), 0.5, source="rows")
    last = prepare(s.curves, chart_columns=30, strip_columns=usable)
    for kind, index, score, label in steps:
        i = index % s.data.n
        if kind == "delete" and s.data.n > 1:
            s.delete_row(i)
        elif kind == "flip":
            s.flip_label(i)
        elif kind == "insert":
            s.insert_row(score, label)
        elif kind == "undo":
            s.undo()
        now = prepare(s.curves, chart_columns=30, strip_columns=usable, last=last)
        fresh = ScoreBins(s.data, usable)
        assert (now.bins.lo, now.bins.hi) == (fresh.lo, fresh.hi)
        for cls in (True, False):
            assert now.bins.hist[cls].tolist() == fresh.hist[cls].tolist()
            assert now.bins.above[cls].tolist() == fresh.above[cls].tolist()
        last = now


def test_a_removed_row_inside_the_range_moves_the_bins(monkeypatch: pytest.MonkeyPatch) -> None:
    from threshold_lab.core.drawing.prepared import prepare
    from threshold_lab.core.session.session import Session

    s = Session(make_dataset(np.array([0.1, 0.5, 0.9]), np.array([1, 0, 1])), 0.5, source="r")
    last = prepare(s.curves, chart_columns=30, strip_columns=20)
    fresh_after = ScoreBins(make_dataset(np.array([0.1, 0.9]), np.array([1, 1])), 20)

    def no_binning(*args: object) -> None:
        raise AssertionError("the rows were binned again")

    s.delete_row(1)
    assert s.curves.origin is not None and s.curves.origin.kind == "removed"
    monkeypatch.setattr(ScoreBins, "__init__", no_binning)
    now = prepare(s.curves, chart_columns=30, strip_columns=20, last=last)
    assert now.bins.hist[True].tolist() == fresh_after.hist[True].tolist()
    assert now.bins.hist[False].sum() == 0


@given(
    examples(),
    st.floats(0, 1),
    st.floats(0, 1),
    st.integers(12, 200),
    st.booleans(),
)
def test_a_review_band_s_reject_column_parts_rejected_from_reviewed_rows(
    ex: Example, one: float, two: float, usable: int, weighted: bool
) -> None:
    """Left of the reject column only rows scored below t_low; from it to the accept
    line only rows between; right of the line only rows at or above t_high, each row
    placed by itself (the reference) and counted."""
    from threshold_lab.core.drawing.score_bins import reject_split

    s, y = ex
    lo_s, hi_s = float(np.min(s)), float(np.max(s))
    t_low, t_high = sorted(lo_s + (hi_s - lo_s) * v for v in (one, two))
    w = cast(FloatArray, 0.5 + np.arange(len(s)) % 3) if weighted else None
    a = analyse(make_dataset(s, y, weights=w), t_high)
    bins = ScoreBins(a.data, usable)
    pos, neg, line = bins.lane_counts(a)
    if not predict(a.data, t_high).any():
        return  # nothing accepted: no line splits a column (the band's low is not drawn)
    kept = None
    if not weighted:
        at_low = np.asarray(a.data.scores) >= t_low
        kept = (int((at_low & a.data.labels).sum()), int((at_low & ~a.data.labels).sum()))
    low = reject_split(bins, (pos, neg), line, t_low, kept)
    if low is None:  # t_low in the line's own column: nothing to part at this width
        assert bins.column_of(t_low) >= line
        return
    scores, labels = np.asarray(a.data.scores), a.data.labels
    for lane, cls in ((pos, True), (neg, False)):
        rows = scores[labels == cls]
        assert int(lane[:low].sum()) == int((rows < t_low).sum())
        assert int(lane[low : line + 1].sum()) == int(((rows >= t_low) & (rows < t_high)).sum())
        assert int(lane[line + 1 :].sum()) == int((rows >= t_high).sum())
