"""Curves on scaled axes: the DET line's points are scikit-learn's, placed by the probit;
the log-FPR ROC line's, its segments straight in linear FPR (bowed on the log axis);
thinning keeps every fine cell the curve passes through."""

from __future__ import annotations

import itertools
import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import special
from threshold_lab.core.curves.det import det_points
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.data.presets import preset
from threshold_lab.core.drawing.scaled import (
    FINE,
    LOG_GAP,
    PROBIT_TICKS,
    Scale,
    ScaledLine,
    _thin,
    det_line,
    log_roc_line,
)

from tests.strategies import Example, examples


def _unit_probit(rate: float, edge: float) -> float:
    lo = float(special.ndtri(edge))
    z = float(special.ndtri(min(max(rate, edge), 1 - edge)))
    return (z - lo) / (-2 * lo)


@settings(max_examples=120, deadline=None)
@given(examples(both_classes=True), st.booleans())
def test_the_det_line_places_each_point_by_its_rates(ex: Example, weighted: bool) -> None:
    s, y = ex
    w = np.arange(1, s.shape[0] + 1) * 0.375 if weighted else None
    sweep = build_sweep(make_dataset(s, y, weights=w))
    line = det_line(sweep, columns=12)
    points = det_points(sweep)
    assert line is not None and points is not None
    fpr, fnr, _ = points
    inside = (fpr > 0) & (fpr < 1) & (fnr > 0) & (fnr < 1)
    assert line.points == fpr.shape[0]
    assert line.left_out == int((~inside).sum())
    edge = line.xscale.edge
    for k in range(sweep.size):
        a, b = sweep.fp[k] / sweep.negatives, 1 - sweep.tp[k] / sweep.positives
        at = line.at(k)
        if 0 < a < 1 and 0 < b < 1:
            assert at is not None
            assert math.isclose(at[0], _unit_probit(a, edge), abs_tol=1e-12)
            assert math.isclose(at[1], _unit_probit(b, edge), abs_tol=1e-12)
        else:
            assert at is None
    # The axis reaches 0.01% exactly when a point needs it.
    rates = np.concatenate((fpr[inside], fnr[inside]))
    need = bool(((rates < 0.001) | (rates > 0.999)).any())
    assert edge == (0.0001 if need else 0.001)
    outside = int(
        (
            ((fpr[inside] < edge) | (fpr[inside] > 1 - edge))
            | ((fnr[inside] < edge) | (fnr[inside] > 1 - edge))
        ).sum()
    )
    assert line.beyond == outside


@settings(max_examples=120, deadline=None)
@given(examples(both_classes=True))
def test_the_log_roc_line_puts_fpr_0_on_the_axis(ex: Example) -> None:
    s, y = ex
    sweep = build_sweep(make_dataset(s, y))
    line = log_roc_line(sweep, columns=12)
    assert line is not None
    fpr, tpr = sweep.fp / sweep.negatives, sweep.tp / sweep.positives
    smallest = float(fpr[fpr > 0].min())
    d = line.xscale.decades
    assert 2 <= d <= 6 and (10.0**-d <= smallest + 1e-15 or d == 6)
    assert line.on_axis == int((fpr == 0).sum()) and line.points == sweep.size
    for k in range(sweep.size):
        at = line.at(k)
        assert at is not None and at[1] == tpr[k]
        if fpr[k] == 0:
            assert at[0] == 0.0
        else:
            want = LOG_GAP + (1 - LOG_GAP) * (math.log10(max(fpr[k], 10.0**-d)) + d) / d
            assert math.isclose(at[0], want, abs_tol=1e-12)


def _read(line: ScaledLine, fpr: float) -> float:
    """The TPR the drawn log-FPR line reads at ``fpr`` (its polyline on the unit square)."""
    xs, ys = line.path()
    return float(np.interp(float(line.xscale.unit(fpr)), xs, ys))


def test_the_log_roc_line_reads_the_roc_polyline_between_two_points() -> None:
    # The canonical rows: the point at FPR 0, TPR 1/3 and the next at FPR 1/2, TPR 2/3.
    # Between them the ROC polyline is TPR = 1/3 + 2/3 FPR, so at FPR 0.01 it reads
    # 17/50 = 0.34, the report's interpolated readout. A line straight on the log axis
    # from the axis's 0 read about 0.36 there (and 0.54 at FPR 0.1, where it is 0.4).
    sweep = build_sweep(preset("canonical").data)
    rows = 40  # half a braille dot of a chart this tall: the most a reading may be off
    half_dot = 1 / (2 * 4 * rows)
    for columns in (12, 40, 200):
        line = log_roc_line(sweep, columns=columns)
        assert line is not None and line.xscale.decades == 2
        for fpr in (0.01, 0.02, 0.05, 0.1, 0.2, 0.35, 0.49):
            assert abs(_read(line, fpr) - (1 / 3 + 2 / 3 * fpr)) <= half_dot, (columns, fpr)
        assert abs(_read(line, 0.01) - 17 / 50) <= half_dot


@settings(max_examples=120, deadline=None)
@given(examples(both_classes=True))
def test_the_log_roc_line_is_the_roc_polyline_in_linear_fpr(ex: Example) -> None:
    # Wide enough that no point is thinned away: the drawn line, read anywhere on the
    # log axis between two sweep points, is the ROC polyline there (linear in FPR).
    s, y = ex
    sweep = build_sweep(make_dataset(s, y))
    line = log_roc_line(sweep, columns=400)
    assert line is not None
    fpr = np.asarray(sweep.fp / sweep.negatives, dtype=np.float64)
    tpr = np.asarray(sweep.tp / sweep.positives, dtype=np.float64)
    lowest = 10.0**-line.xscale.decades
    distinct = np.unique(fpr)
    between = np.concatenate(
        ((distinct[:-1] + distinct[1:]) / 2, np.sqrt(distinct[:-1] * distinct[1:]))
    )
    for f in between[between > lowest]:
        want = float(np.interp(f, fpr, tpr))
        assert abs(_read(line, float(f)) - want) <= 1e-3, (f, want)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.sampled_from(["det", "log"]), st.integers(4, 30))
def test_thinning_keeps_every_fine_cell(seed: int, kind: str, columns: int) -> None:
    # Every point dropped lies in the same fine cell, on both axes, as the last point
    # kept before it: the drawing loses nothing a cell finer than a column shows.
    rng = np.random.default_rng(seed)
    n = 3_000
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(y * 1.5, 1.0), int(rng.integers(1, 4)))
    sweep = build_sweep(make_dataset(s, y.astype(np.int64)))
    line = (
        det_line(sweep, columns=columns) if kind == "det" else log_roc_line(sweep, columns=columns)
    )
    assert line is not None
    fnr = kind == "det"
    lo, hi = (line.rank.start, line.rank.stop)  # type: ignore[union-attr]
    keep = _thin(sweep, line.xscale, line.yscale, lo, hi, columns, fnr=fnr)
    # A point's fine cell on each axis: how many of the fine boundaries (places evenly
    # apart on the drawn axis, read back as counts) its FP and TP have reached.
    fine = np.linspace(0.0, 1.0, FINE * columns + 1)[1:-1]
    fp_edges = line.xscale.rate(fine) * sweep.negatives
    rates = line.yscale.rate(fine)
    tp_edges = np.sort((1 - rates) * sweep.positives if fnr else rates * sweep.positives)
    bx = np.searchsorted(fp_edges, sweep.fp[lo:hi], side="right")
    by = np.searchsorted(tp_edges, sweep.tp[lo:hi], side="right")
    byl = np.searchsorted(tp_edges, sweep.tp[lo:hi], side="left")
    kept = set((keep - lo).tolist())
    last = 0
    assert 0 in kept and hi - lo - 1 in kept
    for k in range(hi - lo):
        if k in kept:
            last = k
            continue
        assert bx[k] == bx[last] and by[k] == by[last] and byl[k] == byl[last], (k, last)
    assert set(line.drawn.tolist()) <= set(keep.tolist())


def test_probit_ticks_keep_apart_and_most_wanted_first() -> None:
    scale = Scale("probit", edge=0.001)
    every = scale.ticks(200, 1)
    assert [t for _, t in every] == ["0.1%", "1%", "5%", "20%", "50%", "80%", "95%", "99%", "99.9%"]
    few = scale.ticks(9, 2)
    assert "50%" in dict((t, u) for u, t in few)
    cells = [math.floor(0.5 + 8 * u) for u, _ in few]
    assert all(b - a >= 2 for a, b in itertools.pairwise(cells))
    wide = Scale("probit", edge=0.0001).ticks(400, 1, across=True)
    labels = [t for _, t in wide]
    assert labels[0] == "0.01%" and labels[-1] == "99.99%"
    assert {t for _, t in PROBIT_TICKS[:7]} == {"0.1%", "1%", "5%", "20%", "50%", "80%", "95%"}


def test_log_ticks_are_decades_with_0_at_the_axis() -> None:
    ticks = Scale("log", decades=4).ticks(100, 1, across=True)
    assert [t for _, t in ticks] == ["0", "1e-4", "0.001", "0.01", "0.1", "1"]
    assert ticks[0][0] == 0.0 and ticks[1][0] == LOG_GAP and ticks[-1][0] == 1.0


def test_one_class_has_no_scaled_lines() -> None:
    sweep = build_sweep(make_dataset(np.array([0.1, 0.3]), np.array([0, 0])))
    assert det_line(sweep, columns=10) is None and log_roc_line(sweep, columns=10) is None


def test_a_ten_million_point_sweep_is_never_transformed_whole() -> None:
    # Thinning looks only at a few points per fine cell: a long sweep keeps O(columns).
    n = 10**6
    rng = np.random.default_rng(1)
    y = (rng.random(n) < 0.1).astype(np.int64)
    sweep = build_sweep(make_dataset(rng.normal(y, 1.0), y))
    line = det_line(sweep, columns=60)
    assert line is not None and line.drawn.shape[0] <= 4 * 60 + 2
    keep = _thin(sweep, line.xscale, line.yscale, line.rank.start, line.rank.stop, 60, fnr=True)  # type: ignore[union-attr]
    assert keep.shape[0] <= 6 * FINE * 60 + 2


def test_a_point_past_both_axes_ends_is_counted_once() -> None:
    # 20,000 of each class: the first point past the top score has FPR 1/20000 and FNR
    # 19999/20000, past 0.01% on the x axis and past 99.99% on the y axis at once.
    n = 20_000
    scores = np.concatenate(([2.0, 1.9], np.linspace(0.0, 1.0, 2 * n - 2)))
    labels = np.concatenate(([0, 1], np.tile([1, 0], n - 1)))
    sweep = build_sweep(make_dataset(scores, labels))
    line = det_line(sweep, columns=40)
    assert line is not None and line.xscale.edge == 0.0001
    fpr = sweep.fp / sweep.negatives
    fnr = 1 - sweep.tp / sweep.positives
    inside = (fpr > 0) & (fpr < 1) & (fnr > 0) & (fnr < 1)
    edge = line.xscale.edge
    past = inside & ((fpr < edge) | (fpr > 1 - edge) | (fnr < edge) | (fnr > 1 - edge))
    both = inside & (fpr < edge) & (fnr > 1 - edge)
    assert both.sum() >= 1 and line.beyond == int(past.sum())
    assert line.xscale.ends == "0.01% and 99.99%"
