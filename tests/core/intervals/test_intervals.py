"""Wilson intervals for the proportions and DeLong's interval for
ROC AUC, checked against hand computation and an O(n²) placement-value oracle."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from threshold_lab.core.analysis import analyse
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.data.presets import preset
from threshold_lab.core.intervals.closed import (
    NOT_WHOLE,
    delong,
    proportion_interval,
    wilson,
    z_for,
)
from threshold_lab.core.metrics.confusion import Counts

from tests.paths import ROOT
from tests.strategies import examples


def test_z_is_the_normal_quantile() -> None:
    assert z_for(0.95) == pytest.approx(1.959963984540054, abs=1e-12)
    assert z_for(0.99) == pytest.approx(2.5758293035489, abs=1e-9)


def test_wilson_by_hand() -> None:
    # 2 of 3 at 95%: centre (2/3 + z²/6)/(1 + z²/3), half z·sqrt(2/27 + z²/36)/(1 + z²/3).
    z = 1.959963984540054
    centre = (2 / 3 + z * z / 6) / (1 + z * z / 3)
    half = z * math.sqrt(2 / 27 + z * z / 36) / (1 + z * z / 3)
    low, high = wilson(2, 3)
    assert (low, high) == pytest.approx((centre - half, centre + half), abs=1e-15)
    assert (round(low, 4), round(high, 4)) == (0.2077, 0.9385)
    # The ends: 0 of n starts at 0, n of n ends at 1, never past them.
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
    assert wilson(0, 10)[1] == pytest.approx(z * z / 10 / (1 + z * z / 10), abs=1e-12)


def test_a_proportion_interval_names_n_and_says_why_when_it_has_none() -> None:
    k = Counts(tp=2, fp=1, tn=1, fn=1)
    interval, reason = proportion_interval("precision", k, whole=True)
    assert interval is not None and reason is None
    assert interval.text() == "95% CI 0.21 to 0.94, Wilson, n = 3"
    assert proportion_interval("f1", k, whole=True) == (None, None)  # not a proportion
    none, why = proportion_interval("precision", Counts(0, 0, 2, 3), whole=True)
    assert none is None and "undefined" in str(why)
    none, why = proportion_interval("precision", k, whole=False)
    assert none is None and why == NOT_WHOLE


def _placement_oracle(scores: np.ndarray, labels: np.ndarray) -> tuple[float, float]:
    """AUC and DeLong's SE from placement values, pair by pair (O(n²)), ties one half."""
    pos = [s for s, y in zip(scores, labels, strict=True) if y]
    neg = [s for s, y in zip(scores, labels, strict=True) if not y]

    def psi(x: float, y: float) -> Fraction:
        return Fraction(1) if x > y else Fraction(1, 2) if x == y else Fraction(0)

    v10 = [sum(psi(x, y) for y in neg) / len(neg) for x in pos]
    v01 = [sum(psi(x, y) for x in pos) / len(pos) for y in neg]
    auc = sum(v10) / len(pos)
    s10 = sum((v - auc) ** 2 for v in v10) / (len(pos) - 1)
    s01 = sum((v - auc) ** 2 for v in v01) / (len(neg) - 1)
    return float(auc), math.sqrt(float(s10 / len(pos) + s01 / len(neg)))


@settings(max_examples=150, deadline=None)
@given(examples(max_size=30))
def test_delong_matches_the_placement_oracle(ex) -> None:  # type: ignore[no-untyped-def]
    scores, labels = ex
    if labels.sum() < 2 or (1 - labels).sum() < 2:
        interval, se, reason = delong(build_sweep(make_dataset(scores, labels)))
        assert interval is None and se is None and "at least two" in str(reason)
        return
    auc, se_oracle = _placement_oracle(scores, labels)
    interval, se, reason = delong(build_sweep(make_dataset(scores, labels)))
    assert reason is None and interval is not None and se is not None
    assert se == pytest.approx(se_oracle, rel=1e-9, abs=1e-12)
    z = z_for(0.95)
    assert interval.low == pytest.approx(max(0.0, auc - z * se_oracle), abs=1e-9)
    assert interval.high == pytest.approx(min(1.0, auc + z * se_oracle), abs=1e-9)


def test_whole_weights_are_multiplicities_for_delong_and_wilson() -> None:
    scores = [0.9, 0.8, 0.8, 0.4, 0.1, 0.3]
    labels = [1, 0, 1, 0, 1, 0]
    weights = [2.0, 1.0, 3.0, 2.0, 1.0, 1.0]
    expanded_s = [s for s, w in zip(scores, weights, strict=True) for _ in range(int(w))]
    expanded_y = [y for y, w in zip(labels, weights, strict=True) for _ in range(int(w))]
    weighted = build_sweep(make_dataset(scores, labels, weights=weights))
    rows = build_sweep(make_dataset(expanded_s, expanded_y))
    assert delong(weighted)[1] == pytest.approx(delong(rows)[1], rel=1e-12)
    a, b = (
        analyse(make_dataset(scores, labels, weights=weights), 0.5),
        analyse(make_dataset(expanded_s, expanded_y), 0.5),
    )
    i, _ = proportion_interval("precision", a.counts, whole=True)
    j, _ = proportion_interval("precision", b.counts, whole=True)
    assert i == j
    fractional = build_sweep(make_dataset(scores, labels, weights=[0.5] * 6))
    assert delong(fractional)[2] == NOT_WHOLE


def test_intervals_shrink_as_n_grows() -> None:
    rng = np.random.default_rng(7)
    widths = []
    for n in (100, 1000, 10000):
        y = rng.random(n) < 0.3
        s = rng.normal(y * 1.0, 1.0)
        interval, _, _ = delong(build_sweep(make_dataset(s, y)))
        assert interval is not None
        widths.append(interval.high - interval.low)
    assert widths[0] > widths[1] > widths[2]


def test_report_json_carries_intervals_and_the_auc_se() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "threshold_lab", "report", "good", "--json"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    out = json.loads(r.stdout)
    precision = out["metrics"]["precision"]
    assert precision["interval"]["method"] == "wilson"
    assert precision["interval"]["confidence"] == 0.95
    assert precision["interval"]["low"] == pytest.approx(wilson(8, 10)[0])
    assert out["metrics"]["mcc"].get("interval") is None  # not a proportion: no field
    auc = out["roc"]["auc"]
    assert auc["interval"]["method"] == "delong"
    assert out["roc"]["auc_se"] == pytest.approx(delong(build_sweep(preset("good").data))[1])
    assert auc["interval"]["low"] <= auc["value"] <= auc["interval"]["high"]


def test_the_text_report_writes_the_interval_beside_the_metric() -> None:
    r = subprocess.run(
        [sys.executable, "-m", "threshold_lab", "report", "canonical"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=True,
    )
    assert (
        "precision = TP/(TP+FP) = 2/(2+1) = 2/3 ≈ 0.6667 (95% CI 0.21 to 0.94, Wilson, n = 3)"
        in r.stdout
    )
    assert "DeLong; SE 0.3118" in r.stdout
