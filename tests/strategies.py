"""Hypothesis strategies for scored examples, with plenty of ties."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from hypothesis import strategies as st

# Scores drawn from a small grid so ties across classes are common.
tied_scores = st.integers(min_value=0, max_value=8).map(lambda k: k / 8)
any_scores = st.floats(min_value=-1e6, max_value=1e6, allow_nan=False, allow_infinity=False)


FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]
Example = tuple[FloatArray, IntArray]
"""Scores and 0/1 labels, one of each per row."""


@st.composite
def examples(
    draw: st.DrawFn,
    *,
    min_size: int = 1,
    max_size: int = 40,
    scores: st.SearchStrategy[float] | None = None,
    both_classes: bool = False,
) -> Example:
    n = draw(st.integers(min_value=max(min_size, 2 if both_classes else 1), max_value=max_size))
    score_strategy = scores if scores is not None else st.one_of(tied_scores, any_scores)
    s = draw(st.lists(score_strategy, min_size=n, max_size=n))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    if both_classes:
        y[0], y[1] = 1, 0
    return np.array(s, dtype=np.float64), np.array(y, dtype=np.int64)
