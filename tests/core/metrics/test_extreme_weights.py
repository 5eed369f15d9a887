"""Weights near the ends of the float range give the right numbers, or one refusal.

The failures it guards against: weights of 1e308 made JSON fail and printed inf/nan, 5e-324 or
1e-90 raised ZeroDivisionError in MCC and AUC, and equal weights of 1e100 gave
an MCC of 0 where the unweighted rows give -1/6. Equal weights must not change
any rate, and a weight no float can add up is refused, naming its line.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
import warnings
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import analyse
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.data.loaders import load_file
from threshold_lab.core.data.presets import preset
from threshold_lab.core.drawing.score_bins import ScoreBins
from threshold_lab.core.errors import InputError
from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.metrics.threshold_metrics import threshold_metrics
from threshold_lab.core.report.as_json import report_json

CANON = preset("canonical").data


def _values(data: Any, threshold: float | None) -> dict[str, float | None]:
    """Every rate and summary (not the counts, which scale with the weights)."""
    a = analyse(data, threshold)
    out: dict[str, float | None] = {k: m.value for k, m in a.metrics.items()}
    s = a.curves.summaries
    for name in ("roc_auc", "average_precision", "pr_trapezoid_area", "log_loss", "brier"):
        out[name] = getattr(s, name).value
    return out


def _weighted(data: Any, weights: list[float]) -> Any:
    return make_dataset(data.scores, data.labels, weights=weights, ids=data.ids)


@pytest.mark.parametrize("w", [2.5e-308, 1e-300, 1e-90, 1e-3, 1.0, 1e100, 3e307])
@pytest.mark.parametrize("threshold", [None, 0.9, 0.8, 0.5, 0.4, 0.1])
def test_equal_weights_give_the_unweighted_rates(w: float, threshold: float | None) -> None:
    want = _values(CANON, threshold)
    got = _values(_weighted(CANON, [w] * CANON.n), threshold)
    assert got.keys() == want.keys()
    for name, value in want.items():
        if value is None:
            assert got[name] is None, name
        else:
            assert got[name] == pytest.approx(value, rel=1e-12, abs=1e-15), name


def test_mcc_of_huge_equal_weights_is_the_unweighted_mcc() -> None:
    # Unweighted canonical at 0.5: TP 2, FP 1, TN 1, FN 1, MCC (2-1)/sqrt(3*3*2*2) = 1/6.
    assert threshold_metrics(Counts(2, 1, 1, 1))["mcc"].exact == Fraction(1, 6)
    for w in (1e100, 1e150, 3e307, 1e-90, 1e-300):
        got = threshold_metrics(Counts(2 * w, w, w, w))["mcc"].value
        assert got == pytest.approx(1 / 6, rel=1e-14), w


def test_mcc_from_very_unequal_cells_is_right() -> None:
    # The four margins multiply to 1e-1200 or 1e1200: no float holds that.
    tiny = threshold_metrics(Counts(1e-300, 0.0, 1.0, 0.0))["mcc"]
    assert tiny.value == 1.0
    mixed = Counts(1e300, 1e-300, 1e300, 1e-300)
    assert threshold_metrics(mixed)["mcc"].value == pytest.approx(1.0, rel=1e-15)
    lopsided = Counts(1e-200, 1.0, 1.0, 0.0)
    # (tp·tn − fp·fn)/sqrt((tp+fp)(tp+fn)(tn+fp)(tn+fn)) = 1e-200/sqrt(1·1e-200·2·1)
    assert threshold_metrics(lopsided)["mcc"].value == pytest.approx(
        1e-100 / math.sqrt(2), rel=1e-14
    )


def test_a_likelihood_ratio_is_right_when_its_rate_rounds_to_zero() -> None:
    # FPR = 1e-300 / 1e20 is below every float, yet FP > 0: LR+ is a number,
    # TPR/FPR = 0.5 / 1e-320 = 5e319... past every float too, so it says so.
    m = threshold_metrics(Counts(tp=1.0, fp=1e-300, tn=1e20, fn=1.0))
    assert m["fpr"].value is not None and m["fpr"].value < 1e-300
    lr = m["lr_plus"]
    assert lr.value is None and lr.reason is not None
    assert "5e+319" in lr.reason and "largest float" in lr.reason
    # One that fits: FPR = 1e-300 / 1e0 gives TPR/FPR = 0.5e300.
    m = threshold_metrics(Counts(tp=1.0, fp=1e-300, tn=1.0, fn=1.0))
    assert m["lr_plus"].value == pytest.approx(0.5e300, rel=1e-14)


@settings(max_examples=60, deadline=None)
@given(
    weights=st.lists(
        st.floats(min_value=0.001, max_value=1000.0), min_size=CANON.n, max_size=CANON.n
    ),
    power=st.integers(min_value=-1000, max_value=1000),
    threshold=st.sampled_from([None, 0.9, 0.8, 0.5, 0.4, 0.1]),
)
def test_scaling_weights_by_a_power_of_two_changes_no_rate(
    weights: list[float], power: int, threshold: float | None
) -> None:
    # A power of two scales every float exactly, so every rate is the same number.
    scale = math.ldexp(1.0, power)
    want = _values(_weighted(CANON, weights), threshold)
    got = _values(_weighted(CANON, [w * scale for w in weights]), threshold)
    for name, value in want.items():
        if value is None:
            assert got[name] is None, name
        else:
            assert got[name] == pytest.approx(value, rel=1e-13, abs=1e-300), name


def test_exact_fractions_need_a_total_that_adds_up_exactly() -> None:
    # Whole weights past 2**53 in total: a count found by subtraction may be
    # rounded, so no metric claims an exact fraction (the decimal stays).
    big = float(2**53)
    m = threshold_metrics(Counts(tp=2.0, fp=big, tn=10.0, fn=1.0))
    assert all(v.exact is None for v in m.values()), [k for k, v in m.items() if v.exact]
    assert m["precision"].value == pytest.approx(2 / (2 + big))
    small = threshold_metrics(Counts(tp=2.0, fp=1.0, tn=1.0, fn=1.0))
    assert small["precision"].exact == Fraction(2, 3)


def test_huge_weights_give_valid_json(tmp_path: Path) -> None:
    p = tmp_path / "w.csv"
    p.write_text("score,label,weight\n0.9,1,8e307\n0.8,0,8e307\n0.1,1,1e300\n")
    doc = report_json(analyse(load_file(p), 0.5), source=str(p))

    def refuse(name: str) -> None:
        raise AssertionError(f"{name} in JSON")

    text = json.dumps(doc, allow_nan=False)
    json.loads(text, parse_constant=refuse)
    # TP 8e307, FP 8e307, TN 0, FN 1e300, in exact fractions of those floats.
    tp, fp, fn = Fraction(8e307), Fraction(8e307), Fraction(1e300)
    mcc_squared = (fp * fn) ** 2 / ((tp + fp) * (tp + fn) * fp * fn)
    want = -math.sqrt(float(mcc_squared))
    assert doc["metrics"]["mcc"]["value"] == pytest.approx(want, rel=1e-14)
    assert doc["metrics"]["recall"]["value"] == pytest.approx(float(tp / (tp + fn)), rel=1e-15)


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ("0.9,1,1e308\n0.1,0,1e308\n", "line 3, column 'weight': weight takes the total weight"),
        ("0.9,1,5e-324\n0.1,0,1\n", "line 2, column 'weight': weight is 5e-324"),
        ("0.9,1,1\n0.1,0,1e-310\n", "line 3, column 'weight': weight is 1e-310"),
        (
            "0.9,1,8e307\n0.8,0,8e307\n0.1,1,1\n",
            "line 4, column 'weight': weight is 1.0, too small to count beside",
        ),
    ],
)
def test_weights_no_float_can_count_are_refused_by_line(
    tmp_path: Path, body: str, where: str
) -> None:
    p = tmp_path / "w.csv"
    p.write_text("score,label,weight\n" + body)
    with pytest.raises(InputError, match=r"^[^\n]*$") as err:
        load_file(p)
    assert where in str(err.value)


@pytest.mark.parametrize(
    ("body", "where"),
    [
        ("0.9,1e308,0\n0.5,1e308,1\n", "line 3, column 'positives'"),
        ("0.9,1,0\n0.5,0,1e-320\n", "line 3, column 'negatives': the count is 1e-320"),
    ],
)
def test_aggregated_counts_no_float_can_count_are_refused_by_line(
    tmp_path: Path, body: str, where: str
) -> None:
    p = tmp_path / "agg.csv"
    p.write_text("score,positives,negatives\n" + body)
    with pytest.raises(InputError) as err:
        load_file(p)
    assert where in str(err.value)


def test_report_refuses_an_overflowing_total_in_one_line(tmp_path: Path) -> None:
    p = tmp_path / "w.csv"
    p.write_text("score,label,weight\n0.9,1,1e308\n0.1,0,1e308\n")
    done = subprocess.run(
        [sys.executable, "-m", "threshold_lab", "report", str(p), "--json"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "largest float" in done.stderr


def test_scores_spanning_the_float_range_bin_without_warnings() -> None:
    data = make_dataset([1e308, -1e308, 0.5, 0.2], [1, 0, 1, 0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bins = ScoreBins(data, 40)
        pos, neg, _line = bins.lane_counts(analyse(data, 0.3))
    assert int(pos.sum()) == 2 and int(neg.sum()) == 2
    # The lowest score sits in the first column, the highest in the last.
    assert bins.base(np.array([-1e308, 1e308])).tolist() == [1, 1 + bins.inner]


def test_scores_a_subnormal_apart_bin_without_warnings() -> None:
    data = make_dataset([5e-324, 0.0], [1, 0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        bins = ScoreBins(data, 20)
    assert bins.base(np.array([0.0, 5e-324])).tolist() == [1, 1 + bins.inner]


def test_adding_a_row_a_huge_total_would_drop_is_refused_and_changes_nothing() -> None:
    from threshold_lab.core.session.session import Session

    data = make_dataset([0.9, 0.1], [1, 0], weights=[1e300, 1e300])
    session = Session(data, 0.5, source="huge")
    with pytest.raises(InputError, match=r"cannot add a row of weight 1\.0 beside a total"):
        session.add_row("0.5", "1")
    assert session.data.n == 2
    assert session.undo().message == "Nothing to undo."


def test_scores_of_1e308_run_every_front_end_without_warnings(tmp_path: Path) -> None:
    p = tmp_path / "big.csv"
    p.write_text("score,label\n1e308,1\n-1e308,0\n0.5,1\n0.2,0\n")
    runs = [
        ["report", str(p), "--json"],
        ["screenshot", str(p), str(tmp_path / "s.svg"), "--press", "right,c,c,o"],
    ]
    for args in runs:
        done = subprocess.run(
            [sys.executable, "-W", "error", "-m", "threshold_lab", *args],
            capture_output=True,
            text=True,
            check=False,
        )
        assert done.returncode == 0 and done.stderr == "", (args, done.stderr)
    plain = subprocess.run(
        [sys.executable, "-W", "error", "-m", "threshold_lab", str(p), "--plain"],
        input="rows\nsweep\nroc\npr\nmetrics\nthreshold 0\nstep 5\nplay\nquit\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert plain.returncode == 0 and plain.stderr == "", plain.stderr
