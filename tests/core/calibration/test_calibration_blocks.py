"""Calibration works a block of tie groups at a time (no whole-array
temporaries over 9·10^6 groups): any block size gives the same bins and counts, and
the same decimals up to rounding (whole counts exactly); within one block, the same
bytes (the golden outputs hold that)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from threshold_lab.core import blocks
from threshold_lab.core.calibration import reliability
from threshold_lab.core.calibration.gains import ks_statistic
from threshold_lab.core.calibration.reliability import calibration
from threshold_lab.core.curves.sweep import Sweep, build_sweep
from threshold_lab.core.data.dataset import make_dataset

rows = st.lists(
    st.tuples(
        st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 1.0]) | st.floats(0, 1),
        st.booleans(),
        st.sampled_from([0.0, 1.0, 1.0, 2.0, 0.3]),
    ),
    min_size=1,
    max_size=50,
)


def _close(a: Any, b: Any, where: str = "") -> None:
    if isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            _close(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _close(x, y, f"{where}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), (where, a, b)
    else:
        assert a == b, (where, a, b)


def _sweep(data: list[tuple[float, bool, float]], weighted: bool) -> Sweep:
    """The sweep of the drawn rows (weighted or not; never every weight zero)."""
    s = np.array([r[0] for r in data])
    y = np.array([r[1] for r in data])
    w = np.array([r[2] for r in data]) if weighted else None
    if w is not None and w.sum() == 0:
        w[0] = 1.0
    return build_sweep(make_dataset(s, y, weights=w))


@given(
    rows,
    st.integers(1, 6),
    st.sampled_from([1, 2, 10]),
    st.sampled_from(["mass", "width"]),
    st.booleans(),
)
def test_any_block_size_gives_the_same_calibration(
    data: list[tuple[float, bool, float]], block: int, bins: int, binning: str, weighted: bool
) -> None:
    sweep = _sweep(data, weighted)
    whole = calibration(sweep, bins=bins, binning=binning).as_json()
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reliability, "GROUP_BLOCK", block)
        blocked = calibration(sweep, bins=bins, binning=binning).as_json()
    _close(whole, blocked)
    if not sweep.whole_counts():
        return
    # Whole counts are exact whatever the blocks.
    assert [(b["n"], b["positives"]) for b in whole["bins"]] == [
        (b["n"], b["positives"]) for b in blocked["bins"]
    ]


@given(rows, st.integers(1, 6), st.booleans())
def test_ks_in_blocks_is_the_first_largest_gap(
    data: list[tuple[float, bool, float]], block: int, weighted: bool
) -> None:
    sweep = _sweep(data, weighted)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(blocks, "BLOCK", block)
        ks = ks_statistic(sweep)
    if sweep.positives == 0 or sweep.negatives == 0:
        assert ks.value.value is None
        return
    gap = [
        t / sweep.positives - f / sweep.negatives for t, f in zip(sweep.tp, sweep.fp, strict=True)
    ]
    top = max(gap)
    first = next(k for k, g in enumerate(gap) if math.isclose(g, top, abs_tol=1e-12))
    assert ks.point == first
    assert math.isclose(float(ks.value.value or 0.0), top, abs_tol=1e-12)


@given(
    rows,
    st.integers(1, 6),
    st.sampled_from([1, 2, 3, 10, 17]),
    st.sampled_from(["mass", "width"]),
    st.booleans(),
)
def test_whole_counts_binned_by_runs_equal_binning_every_group(
    data: list[tuple[float, bool, float]], block: int, bins: int, binning: str, weighted: bool
) -> None:
    # Whole counts find each bin's run of groups by binary search on the sweep's counts;
    # binning each group on its own (the rule itself) gives the same bins, rows and
    # positives exactly, and the same decimals up to rounding.
    sweep = _sweep(data, weighted)
    if not sweep.whole_counts():
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(reliability, "GROUP_BLOCK", block)
        runs = calibration(sweep, bins=bins, binning=binning).as_json()
        mp.setattr(reliability, "FAST", False)
        each = calibration(sweep, bins=bins, binning=binning).as_json()
    _close(runs, each)
