"""A pyarrow column's numbers read from its buffers equal pyarrow's own to_numpy."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st
from threshold_lab.core.data.arrow_numbers import mask, numbers

TYPES = [
    pa.int8(),
    pa.int16(),
    pa.int32(),
    pa.int64(),
    pa.uint8(),
    pa.uint16(),
    pa.uint32(),
    pa.uint64(),
    pa.float16(),
    pa.float32(),
    pa.float64(),
    pa.bool_(),
]


@pytest.mark.parametrize("kind", TYPES, ids=str)
@given(
    values=st.lists(st.integers(0, 100), max_size=40),
    cut=st.integers(0, 40),
    start=st.integers(0, 10),
    length=st.integers(0, 40),
)
def test_numbers_equal_pyarrow_in_chunks_and_slices(kind, values, cut, start, length) -> None:  # type: ignore[no-untyped-def]
    if pa.types.is_boolean(kind):
        data: list[object] = [v % 3 == 0 for v in values]
    elif pa.types.is_floating(kind):
        data = [v / 4 - 3 for v in values]
    elif kind in (pa.int8(), pa.int16(), pa.int32(), pa.int64()):
        data = [v - 50 for v in values]
    else:
        data = values
    whole = pa.array(data, type=kind)
    sliced = whole.slice(start, length)  # an offset into the buffers
    chunked = pa.chunked_array([whole.slice(0, cut), whole.slice(cut)], type=kind)
    for column in (whole, sliced, chunked, pa.chunked_array([], type=kind)):
        got = numbers(column)
        want = column.to_numpy(zero_copy_only=False) if len(column) else np.empty(0)
        assert got.tolist() == want.tolist()
        assert len(got) == len(column)
        if len(column):
            assert got.dtype == want.dtype
    # No chunks at all: an empty array of the column's own type.
    empty = pa.array([], type=kind).to_numpy(zero_copy_only=False)
    assert numbers(pa.chunked_array([], type=kind)).dtype == empty.dtype


def test_a_column_with_nulls_goes_through_pyarrow() -> None:
    got = numbers(pa.array([1.5, None, 2.0]))
    assert np.isnan(got[1]) and got[0] == 1.5 and got[2] == 2.0
    assert numbers(pa.array([True, None, False])).tolist() == [True, None, False]
    assert numbers(pa.array(["a", "b"])).tolist() == ["a", "b"]


@given(st.lists(st.lists(st.sampled_from(["a", "b", " c", "é", ""]), max_size=6), max_size=4))
def test_texts_equal_pyarrow(chunks) -> None:  # type: ignore[no-untyped-def]
    from threshold_lab.core.data.arrow_numbers import texts

    column = pa.chunked_array(chunks, type=pa.string())
    got = texts(column)
    assert got.tolist() == column.to_pylist()
    assert got.dtype.kind == "U"
    assert texts(pa.array(["x", "y", "x"])).tolist() == ["x", "y", "x"]


@given(st.lists(st.booleans(), max_size=70))
def test_a_mask_equals_pyarrows_own_conversion(values: list[bool]) -> None:
    got = mask(np.array(values, dtype=bool))
    assert got.type == pa.bool_()
    assert got.to_pylist() == values
    assert got.equals(pa.array(values, type=pa.bool_()))
    # As a filter, it keeps the rows it marks.
    rows = pa.array(list(range(len(values))))
    assert rows.filter(got).to_pylist() == [i for i, v in enumerate(values) if v]
