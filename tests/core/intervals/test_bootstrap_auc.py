"""The ROC AUC's bootstrap interval (pROC's ci.auc(method = "bootstrap")): a stratified
resampling of each class's rows, the AUC of each replicate, the percentile interval.
Checked against an independent bootstrap of rows scored by scikit-learn, within
Monte-Carlo error, on data with ties."""

from __future__ import annotations

import json

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from threshold_lab import report


def _rows_bootstrap(y: np.ndarray, s: np.ndarray, b: int, seed: int) -> tuple[float, float]:
    rng = np.random.default_rng(seed)
    pos, neg = s[y == 1], s[y == 0]
    aucs = np.empty(b)
    labels = np.r_[np.ones(len(pos)), np.zeros(len(neg))]
    for i in range(b):
        drawn = np.r_[rng.choice(pos, len(pos)), rng.choice(neg, len(neg))]
        aucs[i] = roc_auc_score(labels, drawn)
    low, high = np.quantile(aucs, [0.025, 0.975])  # R's quantile type 7, as pROC
    return float(low), float(high)


@pytest.mark.parametrize("seed", [1, 2])
def test_the_auc_interval_is_the_rows_bootstrap_within_monte_carlo_error(seed: int) -> None:
    rng = np.random.default_rng(seed)
    y = (rng.random(300) < 0.35).astype(int)
    s = np.round(rng.normal(0, 1, 300) + 1.2 * y, 1)  # ties across classes
    r = report(y, s, bootstrap=4000, seed=seed)
    interval = json.loads(r.to_json())["roc"]["auc_bootstrap"]["interval"]
    assert interval["method"] == "bootstrap" and interval["replicates"] == 4000
    low, high = _rows_bootstrap(y, s, 4000, seed + 100)
    # The 2.5% and 97.5% quantiles of 4000 replicates move by about 0.005 from run to
    # run here (the AUC's SE is about 0.03): 0.015 is three times that.
    assert abs(interval["low"] - low) < 0.015
    assert abs(interval["high"] - high) < 0.015
    delong = json.loads(r.to_json())["roc"]["auc"]["interval"]
    assert abs(interval["low"] - delong["low"]) < 0.03  # and near DeLong's, as expected


def test_without_a_bootstrap_the_auc_says_why() -> None:
    j = json.loads(report([1, 0, 1, 0], [0.9, 0.2, 0.7, 0.4]).to_json())["roc"]["auc_bootstrap"]
    assert j["interval"] is None and j["interval_reason"].startswith("no bootstrap ran")
