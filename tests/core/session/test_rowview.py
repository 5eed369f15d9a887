"""Row views (order, cell filter, boundary) against a plain per-row computation."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from hypothesis import given
from hypothesis import strategies as st
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.metrics.confusion import row_cells
from threshold_lab.core.session.rowview import (
    CELLS,
    ORDERS,
    Changed,
    RowOrder,
    boundary_scores,
    make_view,
    next_boundary_position,
)
from threshold_lab.core.threshold import Threshold

from tests.strategies import examples

thresholds = st.one_of(st.none(), st.floats(-2e6, 2e6))


def reference(
    scores: list[float],
    labels: npt.NDArray[np.bool_],
    threshold: Threshold,
    order: str,
    cell: str | None,
) -> list[int]:
    """The rows a view must show, computed one row at a time."""
    data = make_dataset(scores, labels)
    cells = row_cells(data, threshold).tolist()
    rows = [i for i in range(data.n) if cell is None or cells[i] == cell]
    if order == "score-desc":
        rows.sort(key=lambda i: (-scores[i], i))
    elif order == "score-asc":
        rows.sort(key=lambda i: (scores[i], -i))
    return rows


@given(examples(), thresholds, st.sampled_from(ORDERS), st.sampled_from(CELLS))
def test_view_is_the_filtered_sorted_rows(ex, threshold, order, cell) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    data = make_dataset(s, y)
    view = make_view(data, threshold, order, cell, RowOrder(data))
    got = view.indices(0, len(view)).tolist()
    assert got == reference(list(map(float, data.scores)), data.labels, threshold, order, cell)
    for position, row in enumerate(got):
        assert view.row_at(position) == row
        assert view.position_of(row) == position


@given(examples(), thresholds)
def test_boundary_rows_are_the_nearest_scores_either_side(ex, threshold) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    data = make_dataset(s, y)
    scores = data.scores
    above = [v for v in scores if threshold is not None and v >= threshold]
    below = [v for v in scores if threshold is None or v < threshold]
    expected = tuple(
        x for x in (min(above, default=None), max(below, default=None)) if x is not None
    )
    assert boundary_scores(data, threshold) == expected
    view = make_view(data, threshold, "file", None, RowOrder(data))
    hits = [i for i in range(data.n) if float(scores[i]) in expected]
    walk = []
    position = -1
    for _ in range(len(hits)):
        found = next_boundary_position(view, data, threshold, position)
        assert found is not None
        position = found
        walk.append(position)
    assert walk == hits


@given(examples(), thresholds, thresholds)
def test_changed_band_is_exactly_the_rows_whose_prediction_flipped(ex, old, new) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    data = make_dataset(s, y)
    before = row_cells(data, old)
    after = row_cells(data, new)
    assert (
        Changed.band(old, new).among(data.scores).tolist()
        == np.flatnonzero(before != after).tolist()
    )


def test_a_cell_of_a_score_order_is_a_slice_not_a_copy() -> None:
    data = make_dataset(np.linspace(0, 1, 1000), np.arange(1000) % 3 == 0)
    cache = RowOrder(data)
    view = make_view(data, 0.5, "score-desc", "TP", cache)
    assert view.rows is not None and view.rows.base is not None  # a view into the sort
    assert len(view) == int(np.count_nonzero((data.scores >= 0.5) & data.labels))


def test_boundary_in_a_one_cell_view_is_that_cells_rows_nearest_the_threshold() -> None:
    # At 0.5 the boundary of all rows is 0.6 (a TP) and 0.3; in the FP view it is 0.7.
    data = make_dataset([0.9, 0.7, 0.6, 0.3, 0.2], [0, 0, 1, 0, 0])
    fp = make_view(data, 0.5, "file", "FP", RowOrder(data))
    assert fp.indices(0, len(fp)).tolist() == [0, 1]
    assert next_boundary_position(fp, data, 0.5, -1) == 1
    assert next_boundary_position(fp, data, 0.5, 1) == 1  # round again
    tn = make_view(data, 0.5, "score-desc", "TN", RowOrder(data))
    assert next_boundary_position(tn, data, 0.5, -1) == 0  # 0.3, the highest TN
    empty = make_view(data, 0.5, "file", "FN", RowOrder(data))
    assert next_boundary_position(empty, data, 0.5, -1) is None


def test_a_flip_keeps_the_score_order_without_sorting_again() -> None:
    from threshold_lab.core.data.presets import preset
    from threshold_lab.core.session.edits import FlipLabel

    data = preset("canonical").data
    first = RowOrder(data)
    desc = first.desc
    flipped = FlipLabel(0).apply(data)
    again = RowOrder(flipped, first)
    assert again.desc is desc
    assert again.by_class[True][0].tolist() == [2, 4]  # s1 is now a negative
    moved = RowOrder(make_dataset([0.1, 0.9], [1, 0]), first)
    assert moved.desc.tolist() == [1, 0]  # other scores: sorted afresh
