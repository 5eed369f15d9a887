"""Scores as shown: the search that finds a score among the sweep's thresholds
gives numpy's searchsorted answer on every descending array, ±0 and ties included."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from threshold_lab.core.curves.sweep import first_not_above
from threshold_lab.core.text.scores import shown_score

values = st.one_of(
    st.sampled_from([0.0, -0.0, 0.5, 1.0, 0.30000000000000004, 0.3]),
    st.floats(-1e300, 1e300, allow_nan=False),
)


@given(st.lists(values, max_size=60), values)
def test_the_search_is_numpys_search_of_the_negated_array(xs: list[float], value: float) -> None:
    t = np.unique(np.array(xs, dtype=np.float64))[::-1].copy()  # distinct, descending
    assert first_not_above(t, value) == int(np.searchsorted(-t, -value, side="left"))


@given(st.lists(st.floats(0, 1), min_size=1, max_size=40))
def test_shown_scores_read_back_between_their_neighbours(xs: list[float]) -> None:
    t = np.unique(np.array(xs) ** 2)[::-1].copy()
    for k, v in enumerate(t.tolist()):
        back = float(shown_score(v, t))
        if k > 0:
            assert back < (v + t[k - 1]) / 2 or back == v
        if k + 1 < t.shape[0]:
            assert back > (v + t[k + 1]) / 2 or back == v
