"""The prepared ROC line: rates read where drawn, the same values as the whole arrays."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.curves.roc import roc_points
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.drawing.prepared import roc_line

from tests.strategies import Example, examples


@given(examples(), st.booleans())
def test_the_roc_line_reads_the_rates_roc_points_gives(ex: Example, weighted: bool) -> None:
    # The ROC line divides only where it is read; every point equals the whole arrays'.
    scores, labels = ex
    weights = np.arange(1, scores.shape[0] + 1) * 0.375 if weighted else None
    data = make_dataset(scores, labels, weights=weights)
    curves = curves_for(data)
    line, points = roc_line(curves, columns=8), roc_points(curves.sweep)
    assert (line is None) == (points is None)
    if line is None or points is None:
        return
    fpr, tpr = points
    assert line.x[line.drawn].tolist() == fpr[line.drawn].tolist()
    assert line.y[line.drawn].tolist() == tpr[line.drawn].tolist()
    for k in range(curves.sweep.size):
        assert line.at(k) == (float(fpr[k]), float(tpr[k]))
    assert len(line.rank) == curves.sweep.size
