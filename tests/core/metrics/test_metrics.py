"""Single-threshold metrics: formulas, exact fractions and every undefined case."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.metrics.threshold_metrics import METRIC_NAMES, threshold_metrics


def test_every_metric_is_present_in_order() -> None:
    assert tuple(threshold_metrics(Counts(2, 1, 1, 1))) == METRIC_NAMES


def test_formula_with_counts_filled_in() -> None:
    m = threshold_metrics(Counts(tp=2, fp=1, tn=1, fn=1))
    assert m["precision"].describe() == "precision = TP/(TP+FP) = 2/(2+1) = 2/3 ≈ 0.6667"
    assert m["accuracy"].describe() == "accuracy = (TP+TN)/n = (2+1)/5 = 3/5 = 0.6"
    assert m["f1"].describe() == "F1 = 2TP/(2TP+FP+FN) = 2·2/(2·2+1+1) = 4/6 = 2/3 ≈ 0.6667"


@pytest.mark.parametrize(
    ("counts", "undefined"),
    [
        # no predicted positives, positives exist: precision undefined, recall and F1 0
        (
            Counts(0, 0, 2, 3),
            {
                "precision",
                "lr_plus",
                "mcc",
                "lift",
                "markedness",
                "diagnostic_odds_ratio",
                "fowlkes_mallows",
            },
        ),
        # no actual positives, predictions exist: recall undefined, precision and F1 0
        (
            Counts(0, 3, 2, 0),
            {
                "recall",
                "fnr",
                "balanced_accuracy",
                "lr_plus",
                "lr_minus",
                "mcc",
                "lift",
                "informedness",
                "diagnostic_odds_ratio",
                "fowlkes_mallows",
            },
        ),
        # neither
        (
            Counts(0, 0, 5, 0),
            {
                "precision",
                "recall",
                "f1",
                "fbeta",
                "fnr",
                "balanced_accuracy",
                "mcc",
                "lr_plus",
                "lr_minus",
                "lift",
                "cohen_kappa",
                "informedness",
                "markedness",
                "diagnostic_odds_ratio",
                "fowlkes_mallows",
                "jaccard",
            },
        ),
        # no actual negatives
        (
            Counts(2, 0, 0, 1),
            {
                "specificity",
                "fpr",
                "balanced_accuracy",
                "mcc",
                "lr_plus",
                "lr_minus",
                "informedness",
                "diagnostic_odds_ratio",
            },
        ),
        # everything predicted positive: NPV has no predicted negatives
        (Counts(3, 2, 0, 0), {"npv", "mcc", "lr_minus", "markedness", "diagnostic_odds_ratio"}),
    ],
)
def test_undefined_exactly_when_a_denominator_is_empty(counts: Counts, undefined: set[str]) -> None:
    m = threshold_metrics(counts)
    got = {name for name, v in m.items() if v.value is None}
    assert got == undefined
    for name in undefined:
        assert m[name].reason, name
        assert m[name].exact is None
        reason = m[name].reason
        assert reason is not None
        assert m[name].describe().lower().endswith(f"is undefined: {reason.lower()}")
    for name in set(m) - undefined:
        assert m[name].reason is None
        value = m[name].value
        assert value is not None and math.isfinite(value)


def test_reasons_name_the_empty_denominator() -> None:
    m = threshold_metrics(Counts(0, 0, 2, 3))
    assert m["precision"].reason == "No predicted positives (TP+FP=0)"
    assert "TP+FP=0" in str(m["mcc"].reason)
    assert "FPR is 0" in str(m["lr_plus"].reason)
    m = threshold_metrics(Counts(0, 3, 2, 0))
    assert m["recall"].reason == "No actual positives (TP+FN=0)"


def test_mcc_exact_when_the_root_is_whole() -> None:
    m = threshold_metrics(Counts(tp=2, fp=1, tn=1, fn=1))
    assert m["mcc"].exact == F(1, 6)
    m = threshold_metrics(Counts(tp=3, fp=1, tn=2, fn=1))
    assert m["mcc"].exact == F(5, 12)  # √(4·4·3·3) = 12
    m = threshold_metrics(Counts(tp=3, fp=1, tn=2, fn=2))
    assert m["mcc"].exact is None  # √240 is irrational
    assert m["mcc"].value == pytest.approx((6 - 2) / math.sqrt(4 * 5 * 3 * 4))


def test_likelihood_ratios() -> None:
    m = threshold_metrics(Counts(tp=2, fp=1, tn=1, fn=1))
    assert m["lr_plus"].exact == F(4, 3)
    assert m["lr_minus"].exact == F(2, 3)
    assert m["queue_rate"].exact == F(3, 5)
    assert m["npv"].exact == F(1, 2)


def test_weighted_counts_give_decimals_not_fake_fractions() -> None:
    m = threshold_metrics(Counts(tp=1.5, fp=0.5, tn=2.0, fn=1.0))
    assert m["precision"].value == pytest.approx(0.75)
    assert m["precision"].exact is None
    assert m["precision"].describe() == "precision = TP/(TP+FP) = 1.5/(1.5+0.5) ≈ 0.75"
    whole = threshold_metrics(Counts(tp=2.0, fp=1.0, tn=1.0, fn=1.0))
    assert whole["precision"].exact == F(2, 3)


def test_fbeta_rejects_a_bad_beta() -> None:
    with pytest.raises(ValueError, match="beta"):
        threshold_metrics(Counts(1, 1, 1, 1), beta=0)


def test_json_shape() -> None:
    m = threshold_metrics(Counts(0, 0, 2, 3))
    assert m["precision"].as_json() == {
        "value": None,
        "reason": "No predicted positives (TP+FP=0)",
        "exact": None,
    }
    assert m["recall"].as_json() == {"value": 0.0, "reason": None, "exact": "0/1"}


def test_long_fractions_read_as_decimals_but_stay_exact_in_json() -> None:
    from fractions import Fraction

    from threshold_lab.core.metrics.metric import Metric

    m = Metric(88266613 / 145495350, exact=Fraction(88266613, 145495350), name="AP")
    assert m.value_text() == "≈ 0.6067"
    assert m.short() == "≈ 0.6067"
    assert m.as_json()["exact"] == "88266613/145495350"
    assert Metric(1 / 3, exact=Fraction(1, 3)).short() == "1/3"
