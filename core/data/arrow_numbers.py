"""A pyarrow column of numbers or booleans as a numpy array, read from its buffers.

pyarrow's own ``to_numpy`` imports pandas wherever pandas is installed (to look for
its extension types), which costs a report of any file a quarter to half a second
and some 45 MiB. A column without nulls of a fixed-width number type is its data
buffer as it stands, and a boolean column is its bits; anything else goes through
pyarrow.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def numbers(column: Any) -> np.ndarray:
    """The values of a pyarrow Array or ChunkedArray as one numpy array.

    Integers and floats without nulls are read from the data buffer (no copy for one
    chunk; the array is then read-only, as pyarrow's zero-copy reading is); booleans
    without nulls become numpy booleans."""
    import pyarrow as pa

    chunks = column.chunks if isinstance(column, pa.ChunkedArray) else [column]
    if not chunks:  # a column of no chunks: an empty array of its type
        chunks = [pa.nulls(0, type=column.type)]
    parts = [_chunk(c) for c in chunks]
    if len(parts) == 1:
        return parts[0]
    return np.concatenate(parts)


def mask(values: np.ndarray) -> Any:
    """A numpy boolean array as a pyarrow boolean array (a filter), made from its
    packed bits: ``pa.array`` of a numpy array imports pandas too."""
    import pyarrow as pa

    bits = np.packbits(np.asarray(values, dtype=bool), bitorder="little")
    return pa.Array.from_buffers(pa.bool_(), len(values), [None, pa.py_buffer(bits)])


def texts(column: Any) -> np.ndarray:
    """A pyarrow string column without nulls as a numpy array of ``str``: its distinct
    values through Python, each row an index into them."""
    import pyarrow as pa

    chunks = pa.chunked_array([column]) if isinstance(column, pa.Array) else column
    encoded = chunks.dictionary_encode().unify_dictionaries()
    if encoded.num_chunks == 0:
        return np.empty(0, dtype=str)
    values: np.ndarray = np.asarray(encoded.chunk(0).dictionary.to_pylist(), dtype=str)
    out: np.ndarray = values[numbers(pa.chunked_array([c.indices for c in encoded.chunks]))]
    return out


def _chunk(array: Any) -> np.ndarray:
    import pyarrow as pa

    kind = array.type
    n = len(array)
    if array.null_count == 0 and (pa.types.is_integer(kind) or pa.types.is_floating(kind)):
        code = (
            "f"
            if pa.types.is_floating(kind)
            else ("i" if pa.types.is_signed_integer(kind) else "u")
        )
        dtype = np.dtype(f"{code}{kind.bit_width // 8}")
        data = array.buffers()[1]
        if n == 0 or data is None:
            return np.empty(0, dtype=dtype)
        return np.frombuffer(data, dtype=dtype, count=n, offset=array.offset * dtype.itemsize)
    if array.null_count == 0 and pa.types.is_boolean(kind):
        data = array.buffers()[1]
        if n == 0 or data is None:
            return np.empty(0, dtype=bool)
        bits = np.frombuffer(data, dtype=np.uint8)
        start = array.offset
        return np.unpackbits(bits, count=start + n, bitorder="little")[start:].view(bool)
    return np.asarray(array.to_numpy(zero_copy_only=False))
