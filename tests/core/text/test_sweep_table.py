"""A table of every point of a large sweep is written a block at a time, and reads
exactly as the table made whole does."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import analyse, curves_for
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.data.sources import Source
from threshold_lab.core.report.as_text import report_text, report_text_pieces
from threshold_lab.core.report.options import Options
from threshold_lab.core.report.report import build
from threshold_lab.core.text import sweep_table as module
from threshold_lab.core.text.notable import notable_points
from threshold_lab.core.text.sweep_table import SweepRows, sweep_table


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 400), st.integers(0, 10**6), st.booleans(), st.booleans())
def test_the_streamed_table_is_the_whole_table(
    n: int, seed: int, rounded: bool, weighted: bool
) -> None:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    s = rng.normal(y * 1.0)
    if rounded:
        s = np.round(s, 1)
    w = rng.uniform(0.5, 2.0, n) if weighted else None
    a = analyse(curves_for(make_dataset(s, y, weights=w)), float(np.median(s)))
    marks = notable_points(a)
    whole = "".join(line + "\n" for line in sweep_table(a, limit=None, notable=marks))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(module, "BLOCK", 7)
        assert "".join(SweepRows(a, marks).pieces()) == whole


def test_a_report_listing_every_point_streams_the_same_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    rng = np.random.default_rng(3)
    y = rng.random(3000) < 0.3
    data = make_dataset(rng.normal(y * 1.0), y)
    c = build(Source(data, "rows"), Options()).contents
    whole = report_text(c, None)
    monkeypatch.setattr(module, "STREAMED", 100)
    monkeypatch.setattr(module, "BLOCK", 50)
    pieces = list(report_text_pieces(c, None))
    assert "".join(pieces) == whole
    assert max(len(p) for p in pieces) < 50 * 200  # a block of rows at a time
