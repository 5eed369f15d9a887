"""The metric chart's data: a round score axis covering the scores,
step functions that stay exact beyond the scores' range, and F1's largest value,
each against a brute force."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.curves.peaks import f1_peak
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.drawing.series import ROUND_STEPS, metric_series, score_axis

finite = st.floats(-1e6, 1e6, allow_nan=False, allow_subnormal=False)


@settings(max_examples=300, deadline=None)
@given(a=finite, b=finite, parts=st.integers(1, 4))
def test_the_score_axis_covers_the_scores_in_round_steps(a: float, b: float, parts: int) -> None:
    lo, hi = min(a, b), max(a, b)
    axis = score_axis(lo, hi, parts)
    assert 1 <= axis.parts <= max(parts, 2)  # two where one step cannot span zero
    tol = 1e-9 * max(abs(lo), abs(hi), hi - lo)  # a double's noise, not a cell
    assert axis.lo <= lo + tol and axis.hi >= hi - tol
    assert axis.hi > axis.lo
    mantissa = axis.step / 10.0 ** math.floor(math.log10(axis.step))
    assert any(math.isclose(mantissa, m) for m in (*ROUND_STEPS, 10.0)), axis
    # Every tick is a whole number of steps: a round score, written alike.
    for i in range(axis.parts + 1):
        assert math.isclose(float(axis.label(i)), axis.lo + i * axis.step, abs_tol=1e-9 * axis.step)
        assert round((axis.lo + i * axis.step) / axis.step) == round(axis.lo / axis.step) + i
    assert len({len(axis.label(i)) for i in range(axis.parts + 1)} - {0}) >= 1
    # Not much room to spare: a step more than the scores' range needs is the most.
    if hi > lo:
        assert axis.hi - axis.lo <= (hi - lo) * 2.5 + 2 * axis.step


def test_round_axes_for_the_cases_people_see() -> None:
    def ticks(lo: float, hi: float, parts: int) -> list[str]:
        axis = score_axis(lo, hi, parts)
        return [axis.label(i) for i in range(axis.parts + 1)]

    assert ticks(0.0002, 0.998, 4) == ["0.00", "0.25", "0.50", "0.75", "1.00"]  # not 0.0002
    assert ticks(0.1, 0.9, 2) == ["0.0", "0.5", "1.0"]
    assert ticks(-3.2, 5.7, 4) == ["-5", "0", "5", "10"]  # three steps waste least
    assert ticks(-3.2, 5.7, 5) == ["-4", "-2", "0", "2", "4", "6"]
    assert ticks(0.5, 0.5, 4)[0] != ticks(0.5, 0.5, 4)[-1]  # one score: a span around it
    assert ticks(120.0, 870.0, 4) == ["0", "250", "500", "750", "1000"]


def _data(scores: list[float], labels: list[int]) -> Dataset:
    return Dataset(np.array(scores, dtype=np.float64), np.array(labels, dtype=bool))


@settings(max_examples=200, deadline=None)
@given(
    rows=st.lists(
        st.tuples(st.integers(0, 8).map(lambda k: k / 8), st.integers(0, 1)),
        min_size=1,
        max_size=30,
    )
)
def test_the_largest_f1_is_the_brute_force_one_at_the_highest_tied_threshold(
    rows: list[tuple[float, int]],
) -> None:
    scores, labels = [s for s, _ in rows], [y for _, y in rows]
    sweep = build_sweep(_data(scores, labels))
    peak = f1_peak(sweep)
    pos = sum(labels)
    if pos == 0:
        assert peak is None
        return
    best: tuple[Fraction, float] | None = None
    for t in sorted(set(scores), reverse=True):  # highest first: ties keep the first
        tp = sum(1 for s, y in rows if s >= t and y == 1)
        fp = sum(1 for s, y in rows if s >= t and y == 0)
        f1 = Fraction(2 * tp, tp + pos + fp)
        if best is None or f1 > best[0]:
            best = (f1, t)
    assert peak is not None and best is not None
    k, largest = peak
    assert largest.exact == best[0] and float(sweep.thresholds[k - 1]) == best[1]


def test_beyond_the_highest_score_the_series_are_above_all() -> None:
    # Scores 0.2 to 0.6 on an axis from 0 to 1: above 0.6 nothing is predicted
    # positive (recall 0, precision undefined), below 0.2 everything is.
    sweep = build_sweep(_data([0.6, 0.4, 0.2], [1, 0, 1]))
    for cols in (2, 40):  # the exact steps, and the sampled ones
        xs, series = metric_series(sweep, 1.0, ("recall", "precision"), cols, (0.0, 1.0))
        above = xs > 0.6 + 1e-9
        assert above.any() and (series["recall"][above] == 0).all()
        assert np.isnan(series["precision"][above]).all()
        below = xs < 0.2 - 1e-9
        assert below.any() and (series["recall"][below] == 1).all()
        assert np.allclose(series["precision"][below], 2 / 3)
