"""The sweep's packed keys on every kind of score: one centred scale for scores of
both signs where their magnitudes fit it, the part below 0 sorted apart where they do
not, and scores of one sign as they are; each equal, bit for bit, to a sweep counted
directly from the rows, at any block size, with ties, zeros of both signs, denormals
and the largest doubles."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core import blocks as blocks_module
from threshold_lab.core.curves import sweep as sweep_module
from threshold_lab.core.data.dataset import make_dataset

DENORMAL = 5e-324
MAX = float(np.finfo(np.float64).max)

special = st.sampled_from([0.0, -0.0, DENORMAL, -DENORMAL, 1.0, -1.0, 2.0, -2.0, MAX, -MAX])
anything = st.floats(allow_nan=False, allow_infinity=False)


def counted(s: np.ndarray, y: np.ndarray) -> tuple[list[int], list[int], list[int]]:
    """Thresholds (as bits, 0.0 for both zeros) and TP, FP counted row by row."""
    distinct = sorted({float(v) + 0.0 for v in s}, reverse=True)  # -0.0 + 0.0 is 0.0
    tp = [0] + [int(np.sum(y & (s >= t))) for t in distinct]
    fp = [0] + [int(np.sum(~y & (s >= t))) for t in distinct]
    return [int(np.float64(t).view(np.uint64)) for t in distinct], tp, fp


@contextmanager
def blocks_of(size: int) -> Iterator[pytest.MonkeyPatch]:
    """Every block loop at ``size``: small, blocks end inside tie groups."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(blocks_module, "BLOCK", size)
        mp.setattr(sweep_module, "BLOCK", size)
        yield mp


rows_of_any_score = st.lists(
    st.tuples(st.one_of(special, anything, st.floats(-30, 30)), st.booleans()),
    min_size=1,
    max_size=120,
)


@settings(max_examples=300, deadline=None)
@given(rows=rows_of_any_score, size=st.sampled_from([2, 5, 64, 1 << 16]), runs=st.booleans())
def test_every_coding_counts_like_the_rows(
    rows: list[tuple[float, bool]], size: int, runs: bool
) -> None:
    s = np.array([v for v, _ in rows], dtype=np.float64)
    y = np.array([b for _, b in rows], dtype=bool)
    with blocks_of(size) as mp:
        if not runs:  # row by row even where runs are few
            mp.setattr(sweep_module, "_label_runs", lambda key, top: None)
        sweep = sweep_module.build_sweep(make_dataset(s, y))
    got = sweep.thresholds.view(np.uint64).tolist(), sweep.tp.tolist(), sweep.fp.tolist()
    assert got == counted(s, y)


def coding(s: np.ndarray) -> str:
    _, top, decode = sweep_module._keyed(s, np.zeros(s.shape[0], dtype=bool))
    if decode.offset is not None:
        return "centred"
    return "split" if 0 < top < s.shape[0] else "one sign"


def test_scores_of_both_signs_share_one_scale_where_their_span_fits() -> None:
    rng = np.random.default_rng(7)
    logits = rng.logistic(size=1000) * 8
    assert coding(logits) == "centred"
    assert coding(np.array([-1e150, 1e150, -1e-150, 1e-150])) == "centred"  # 997 binades
    assert coding(np.array([-MAX, MAX, -1e-300, 1e-300])) == "split"  # 2,020 binades
    assert coding(np.array([-1.5, 0.0, -0.0, 1.5])) == "centred"
    # A denormal beside a magnitude of 2 or more does not fit 63 bits: split.
    assert coding(np.array([-DENORMAL, 3.0])) == "split"
    assert coding(np.array([-MAX, DENORMAL, 1.0])) == "split"
    assert coding(rng.random(10)) == "one sign"
    assert coding(-rng.random(10)) == "one sign"


@pytest.mark.parametrize("size", [2, 3, 7])
def test_a_wide_span_found_after_the_first_block_starts_again_split(size: int) -> None:
    """The span is checked a block at a time: a denormal in the last block, after
    others were keyed on the centred scale, still gives the exact sweep."""
    s = np.array([-3.0, 2.5, 1.0, -1.0, 0.5, 0.25, -0.125, 7.0, 0.0] * 3 + [DENORMAL])
    y = np.arange(s.shape[0]) % 3 == 0
    with blocks_of(size):
        sweep = sweep_module.build_sweep(make_dataset(s, y))
    got = sweep.thresholds.view(np.uint64).tolist(), sweep.tp.tolist(), sweep.fp.tolist()
    assert got == counted(s, y)
    assert coding(s) == "split"
