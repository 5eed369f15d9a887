"""The sweep read by runs of equal packed keys (tied scores) equals the sweep read row
by row, with scores of both signs, zeros of both signs and one-class runs."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.curves import sweep as sweep_module
from threshold_lab.core.data.dataset import make_dataset

levels = st.sampled_from([-2.5, -1.0, -0.0, 0.0, 0.25, 1.0, 3.0, 1e-300, -1e300])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(levels, st.booleans()), min_size=8, max_size=200))
def test_runs_of_tied_keys_give_the_row_by_row_sweep(rows: list[tuple[float, bool]]) -> None:
    scores = np.array([s for s, _ in rows])
    labels = np.array([y for _, y in rows])
    data = make_dataset(scores, labels)
    by_runs = sweep_module.build_sweep(data)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(sweep_module, "_label_runs", lambda key, top: None)
        by_rows = sweep_module.build_sweep(data)
    assert np.array_equal(by_runs.thresholds, by_rows.thresholds)
    assert np.array_equal(by_runs.tp, by_rows.tp) and np.array_equal(by_runs.fp, by_rows.fp)
    key, top, _ = sweep_module._keyed(scores, labels)
    # Nine levels of two labels make at most 18 runs: from 72 rows they are read by runs.
    assert len(rows) < 72 or sweep_module._label_runs(key, top) is not None


def test_the_runs_are_sampled_before_they_are_counted() -> None:
    """Above 64 stretches of rows the reader samples them first: tied scores still go
    by runs, distinct ones stop there; either way the sweep is the row-by-row one."""
    rng = np.random.default_rng(3)
    n = 70_000
    labels = rng.random(n) < 0.4
    for scores, by_runs in ((rng.integers(0, 9, n) / 8.0, True), (rng.random(n), False)):
        key, top, _ = sweep_module._keyed(scores, labels)
        assert (sweep_module._label_runs(key.copy(), top) is not None) is by_runs
        sweep = sweep_module.build_sweep(make_dataset(scores, labels))
        distinct = np.unique(scores)[::-1]
        assert np.array_equal(sweep.thresholds, distinct)
        for cls, counts in ((labels, sweep.tp), (~labels, sweep.fp)):
            own = np.sort(scores[cls])  # the class's rows at or above each threshold
            at_or_above = own.shape[0] - np.searchsorted(own, distinct, side="left")
            assert counts[1:].tolist() == at_or_above.tolist()
