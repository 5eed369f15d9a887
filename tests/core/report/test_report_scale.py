"""The report at scale: a bounded, shape-keeping sweep listing, a streamed JSON
writer identical to the whole-object one, and summaries computed block by block."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core import blocks
from threshold_lab.core.analysis import Analysis, analyse, curves_for
from threshold_lab.core.curves import pr, reduce, roc
from threshold_lab.core.data.dataset import Dataset, make_dataset
from threshold_lab.core.intervals import IntervalsShown
from threshold_lab.core.metrics import probability
from threshold_lab.core.metrics.metric import Metric
from threshold_lab.core.report.as_json import (
    MIN_POINTS,
    listed_points,
    report_dict,
    report_pieces,
    sweep_row,
)
from threshold_lab.core.report.options import Options
from threshold_lab.core.report.parts import Contents, ModelPart
from threshold_lab.tui.cli import main

from tests.strategies import examples


def contents(a: Analysis) -> Contents:
    return Contents(
        "s", Options(threshold=a.threshold), (ModelPart("", a, None, IntervalsShown()),)
    )


def streamed(a: Analysis, points: int | None, chunk: int = 3) -> str:
    return "".join(report_pieces(contents(a), points, chunk=chunk))


@st.composite
def datasets(draw: st.DrawFn) -> Dataset:
    s, y = draw(examples(max_size=30))
    kind = draw(st.sampled_from(["plain", "whole weights", "fractional weights"]))
    weights = None
    if kind != "plain":
        # Weights a float sum cannot count (subnormal, or below total / 2**53) are
        # refused on loading (tests/test_extreme_weights.py): they become 0 here.
        fractional = st.floats(0, 3).map(lambda v: v if v >= 1e-12 else 0.0)
        values = st.integers(0, 4) if kind == "whole weights" else fractional
        weights = np.array(draw(st.lists(values, min_size=len(s), max_size=len(s))), float)
        if not (weights > 0).any():
            weights[0] = 1.0
    return make_dataset(s, y, weights=weights)


@settings(max_examples=150, deadline=None)
@given(datasets(), st.sampled_from([None, 0.5, 0.0]), st.sampled_from([None, 0, 10]))
def test_streamed_json_is_the_whole_object_text(data, threshold, points) -> None:  # type: ignore[no-untyped-def]
    a = analyse(data, threshold)
    whole = json.dumps(report_dict(contents(a), points), allow_nan=False)
    assert streamed(a, points) == whole


def long_sweep(n: int = 5000, seed: int = 7):  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    return make_dataset(rng.normal(y * 1.0, 1.0), y)


@pytest.mark.parametrize("threshold", [None, 0.3, 2.5])
def test_a_reduced_listing_is_bounded_exact_and_keeps_the_ends_and_active_point(
    threshold: float | None,
) -> None:
    a = analyse(long_sweep(), threshold)
    doc = json.loads(streamed(a, 100, chunk=17))
    rows = doc["sweep"]
    assert doc["sweep_points"]["total"] == a.sweep.size == 5001
    assert doc["sweep_points"]["listed"] == len(rows) <= 100
    indices = [r["index"] for r in rows]
    assert indices == sorted(set(indices))
    assert {0, a.sweep.size - 1, a.point} <= set(indices)
    for r in rows[::7]:
        assert r == json.loads(json.dumps(sweep_row(a, r["index"])))


def test_the_reduced_listing_keeps_every_roc_corner_it_can() -> None:
    # A staircase with 40 corners fits in 100 points: every corner is listed, and
    # the points between them (on straight runs) are not.
    labels = np.repeat(np.tile([1, 0], 20), 50)
    data = make_dataset(-np.arange(labels.shape[0], dtype=float), labels)
    a = analyse(data, None)
    picked = listed_points(a, 100)
    s = a.sweep
    fp, tp = s.fp.astype(float), s.tp.astype(float)
    corners = np.flatnonzero(~reduce.collinear_interior(fp, tp))
    assert set(corners.tolist()) <= set(picked.tolist())
    assert picked.shape[0] <= 100


@pytest.mark.parametrize("points", [10, 50, 100, 1000, 5000])
@pytest.mark.parametrize("shape", ["continuous", "straight runs"])
def test_points_n_lists_near_n_of_a_long_curve(points: int, shape: str) -> None:
    # --points N lists at most N points, and where the curve has that many corners,
    # near N (a rising curve keeps about two points a bucket, and a straight run none
    # inside it: the buckets are narrowed until the listing nears N).
    rng = np.random.default_rng(points)
    y = rng.random(200_000) < 0.3
    scores = rng.normal(size=y.shape[0]) + y
    if shape == "straight runs":  # above 0.6 only positives, below 0.3 only negatives
        scores = rng.random(y.shape[0]) * 0.6 + 0.3 * y
    a = analyse(make_dataset(scores.astype(np.float64), y), 0.5)
    picked = listed_points(a, points)
    assert picked.shape[0] <= points
    assert picked.shape[0] >= 0.8 * points if points > 10 else picked.shape[0] >= 4
    assert {0, a.sweep.size - 1, a.point} <= set(picked.tolist())


def test_points_below_the_minimum_are_refused() -> None:
    a = analyse(long_sweep(), 0.5)
    with pytest.raises(ValueError, match=f"at least {MIN_POINTS}"):
        listed_points(a, MIN_POINTS - 1)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_points_option_in_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = long_sweep(300)
    p = tmp_path / "d.csv"
    p.write_text(
        "score,label\n"
        + "".join(f"{float(s)!r},{int(y)}\n" for s, y in zip(data.scores, data.labels, strict=True))
    )
    code, out, _ = run(capsys, "report", str(p), "--json", "--points", "all")
    assert code == 0 and len(json.loads(out)["sweep"]) == 301
    code, out, _ = run(capsys, "report", str(p), "--json", "--points", "0")
    doc = json.loads(out)
    assert doc["sweep"] == [] and doc["sweep_points"]["listed"] == 0
    code, out, _ = run(capsys, "report", str(p), "--json", "--points", "50")
    doc = json.loads(out)
    assert len(doc["sweep"]) <= 50 and doc["sweep_points"]["total"] == 301
    assert "--points all lists every one" in doc["sweep_points"]["selection"]
    code, out, _ = run(capsys, "report", str(p), "--json")
    assert json.loads(out)["sweep_points"]["selection"] == "every operating point"


@pytest.mark.parametrize("bad", ["3", "-1", "many", "1.5"])
def test_bad_points_are_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], bad: str) -> None:
    code = main(["report", "canonical", "--json", "--points", bad])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert f"--points: {bad!r} is not a number of points" in err
    assert "Traceback" not in err and err.count("\n") == 1


def test_points_option_in_text(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "report", "good", "--points", "0")
    assert code == 0 and "points, not listed ..." in out
    code, out, _ = run(capsys, "report", "good", "--points", "all")
    assert code == 0 and "more points" not in out


@settings(max_examples=80, deadline=None)
@given(datasets())
def test_summaries_are_the_same_block_by_block(data) -> None:  # type: ignore[no-untyped-def]
    sweep = curves_for(data).sweep

    def summaries() -> list[tuple[float | None, str | None, Fraction | None]]:
        out: list[Metric] = [
            roc.roc_auc(sweep),
            pr.average_precision(sweep),
            pr.pr_trapezoid_area(sweep),
            probability.log_loss(data),
            probability.brier_score(data),
        ]
        return [(m.value, m.reason, m.exact) for m in out]

    whole = summaries()
    with pytest.MonkeyPatch.context() as m:
        m.setattr(blocks, "BLOCK", 2)
        small = summaries()
    for (v1, r1, e1), (v2, r2, e2) in zip(whole, small, strict=True):
        assert (r1, e1) == (r2, e2)
        assert (v1 is None) == (v2 is None)
        if v1 is not None:
            assert v2 == pytest.approx(v1, rel=1e-12, abs=1e-15)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=0, max_size=30))
def test_collinear_test_is_the_same_block_by_block(steps) -> None:  # type: ignore[no-untyped-def]
    x = np.cumsum([0, *(a for a, _ in steps)])
    y = np.cumsum([0, *(b for _, b in steps)])
    whole = reduce.collinear_interior(x, y)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(blocks, "BLOCK", 2)
        assert reduce.collinear_interior(x, y).tolist() == whole.tolist()
