"""Every number the source lessons give for what core computes."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from threshold_lab.core.analysis import analyse, curves_for
from threshold_lab.core.curves.pr import average_precision, pr_trapezoid_area
from threshold_lab.core.curves.roc import roc_auc
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.data.presets import preset
from threshold_lab.core.metrics.confusion import Counts, confusion_counts, row_cells
from threshold_lab.core.metrics.metric import Metric
from threshold_lab.core.metrics.probability import log_loss
from threshold_lab.core.metrics.threshold_metrics import (
    NO_ACTUAL_POS,
    NO_PRED_POS,
    threshold_metrics,
)

from tests import oracle

CANON = preset("canonical").data


def exact(metric: Metric) -> F:
    assert metric.value is not None, metric.reason
    assert metric.exact is not None
    assert metric.value == float(metric.exact)
    return metric.exact


# --- III-15: the canonical fixture -------------------------------------------------


def test_canonical_at_half_is_two_thirds_everywhere() -> None:
    a = analyse(CANON, 0.5)
    assert a.counts == Counts(tp=2, fp=1, tn=1, fn=1)
    assert exact(a.metrics["precision"]) == F(2, 3)
    assert exact(a.metrics["recall"]) == F(2, 3)
    assert exact(a.metrics["f1"]) == F(2, 3)
    assert exact(a.metrics["accuracy"]) == F(3, 5)
    assert row_cells(CANON, 0.5).tolist() == ["TP", "FP", "TP", "TN", "FN"]


def test_canonical_at_081_trades_recall_for_precision() -> None:
    a = analyse(CANON, 0.81)
    assert a.counts == Counts(tp=1, fp=0, tn=2, fn=2)
    assert exact(a.metrics["precision"]) == 1
    assert exact(a.metrics["recall"]) == F(1, 3)
    assert exact(a.metrics["f1"]) == F(1, 2)


def test_equality_joins_the_positive_class() -> None:
    assert confusion_counts(CANON, 0.8) == Counts(tp=2, fp=1, tn=1, fn=1)
    assert confusion_counts(CANON, 0.8000000001) == Counts(tp=1, fp=0, tn=2, fn=2)


def test_canonical_sweep_table() -> None:
    s = build_sweep(CANON)
    assert [s.threshold_at(k) for k in range(s.size)] == [None, 0.9, 0.8, 0.4, 0.1]
    table = [s.counts_at(k).cells() for k in range(s.size)]
    assert table == [(0, 0, 2, 3), (1, 0, 2, 2), (2, 1, 1, 1), (2, 2, 0, 1), (3, 2, 0, 0)]
    tpr = [F(int(tp), 3) for tp in s.tp]
    fpr = [F(int(fp), 2) for fp in s.fp]
    assert tpr == [0, F(1, 3), F(2, 3), F(2, 3), 1]
    assert fpr == [0, 0, F(1, 2), 1, 1]


def test_canonical_auc_by_trapezoid_and_by_pairs() -> None:
    assert exact(roc_auc(build_sweep(CANON))) == F(7, 12)
    assert oracle.pairwise_auc(CANON.scores.tolist(), CANON.labels.tolist()) == F(7, 12)


def test_predict_no_positives_preset() -> None:
    p = preset("predict-no-positives")
    a = analyse(p.data, p.threshold)
    assert p.threshold is None
    assert a.counts == Counts(tp=0, fp=0, tn=2, fn=3)
    assert a.metrics["precision"].value is None
    assert a.metrics["precision"].reason == NO_PRED_POS
    assert exact(a.metrics["recall"]) == 0
    assert exact(a.metrics["f1"]) == 0


def test_no_actual_positives_preset() -> None:
    p = preset("no-actual-positives")
    a = analyse(p.data, p.threshold)
    assert a.metrics["recall"].value is None
    assert a.metrics["recall"].reason == NO_ACTUAL_POS
    assert exact(a.metrics["precision"]) == 0
    assert exact(a.metrics["f1"]) == 0
    auc = a.curves.summaries.roc_auc
    assert auc.value is None and "no actual positives" in str(auc.reason)
    assert a.curves.summaries.average_precision.value is None


def test_neither_actual_nor_predicted_positives_makes_all_three_undefined() -> None:
    a = analyse(preset("no-actual-positives").data, None)
    for name in ("precision", "recall", "f1"):
        assert a.metrics[name].value is None, name
    assert "2TP+FP+FN=0" in str(a.metrics["f1"].reason)


def test_one_actual_positive_shows_the_accuracy_trap() -> None:
    p = preset("one-actual-positive")
    at_half = analyse(p.data, p.threshold)
    never = analyse(p.data, None)
    assert exact(at_half.metrics["accuracy"]) == F(3, 5)
    assert exact(never.metrics["accuracy"]) == F(4, 5)
    assert exact(never.metrics["recall"]) == 0
    assert never.metrics["precision"].value is None


def test_all_tied_is_one_diagonal_segment() -> None:
    s = build_sweep(preset("all-tied").data)
    assert s.size == 2
    assert exact(roc_auc(s)) == F(1, 2)
    assert exact(average_precision(s)) == F(3, 5)  # the prevalence


# --- Average precision is not the trapezoidal PR area -----------------------------


def test_ap_versus_trapezoid() -> None:
    s = build_sweep(preset("ap-vs-trapezoid").data)
    assert exact(average_precision(s)) == F(5, 6)
    assert exact(pr_trapezoid_area(s)) == F(19, 24)
    assert [F(int(t), 2) for t in s.tp] == [0, F(1, 2), F(1, 2), 1, 1]
    # precision after the above-all point
    assert [F(int(t), int(t + f)) for t, f in zip(s.tp[1:], s.fp[1:], strict=True)] == [
        1,
        F(1, 2),
        F(2, 3),
        F(1, 2),
    ]


@pytest.mark.parametrize("labels", [[1, 0], [0, 1]])
def test_tied_rows_enter_together_in_either_order(labels: list[int]) -> None:
    s = build_sweep(make_dataset([0.8, 0.8], labels))
    assert exact(average_precision(s)) == F(1, 2)
    assert exact(roc_auc(s)) == F(1, 2)


def test_all_positive_average_precision_is_one() -> None:
    s = build_sweep(make_dataset([0.8, 0.2], [1, 1]))
    assert exact(average_precision(s)) == 1
    assert roc_auc(s).value is None


# --- good / weak / imbalanced ------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "auc", "precision", "recall"),
    [
        ("good", F(92, 100), F(4, 5), F(4, 5)),
        ("weak", F(55, 100), F(5, 9), F(1, 2)),
        ("imbalanced", F(7, 8), F(1, 2), F(3, 4)),
    ],
)
def test_lesson_datasets(name: str, auc: F, precision: F, recall: F) -> None:
    data = preset(name).data
    a = analyse(data, 0.5)
    assert exact(a.curves.summaries.roc_auc) == auc
    assert exact(a.metrics["precision"]) == precision
    assert exact(a.metrics["recall"]) == recall
    assert oracle.pairwise_auc(data.scores.tolist(), data.labels.tolist()) == auc


def test_lesson_counts_and_f1() -> None:
    assert analyse(preset("weak").data, 0.5).counts == Counts(tp=5, fp=4, tn=6, fn=5)
    assert exact(analyse(preset("weak").data, 0.5).metrics["f1"]) == F(10, 19)  # ≈ 0.526
    imb = analyse(preset("imbalanced").data, 0.5)
    assert imb.counts == Counts(tp=3, fp=3, tn=13, fn=1)
    assert exact(imb.metrics["f1"]) == F(3, 5)
    assert exact(imb.metrics["fpr"]) == F(3, 16)  # 0.1875, printed as 0.188
    assert exact(imb.metrics["accuracy"]) == F(4, 5)


@pytest.mark.parametrize(
    ("t", "cells", "precision", "recall", "f1", "accuracy"),
    [
        (0.3, (10, 5, 5, 0), F(2, 3), 1, F(4, 5), F(3, 4)),
        (0.5, (8, 2, 8, 2), F(4, 5), F(4, 5), F(4, 5), F(4, 5)),
        (0.7, (6, 0, 10, 4), 1, F(3, 5), F(3, 4), F(4, 5)),
        (0.85, (3, 0, 10, 7), 1, F(3, 10), F(6, 13), F(13, 20)),
    ],
)
def test_good_model_threshold_table(
    t: float, cells: tuple[int, ...], precision: F, recall: F, f1: F, accuracy: F
) -> None:
    a = analyse(preset("good").data, t)
    assert a.counts.cells() == cells
    assert exact(a.metrics["precision"]) == precision
    assert exact(a.metrics["recall"]) == recall
    assert exact(a.metrics["f1"]) == f1  # 6/13 ≈ 0.462
    assert exact(a.metrics["accuracy"]) == accuracy


def test_always_negative_on_imbalanced_keeps_precision_undefined() -> None:
    a = analyse(preset("imbalanced").data, 1.01)
    assert exact(a.metrics["accuracy"]) == F(4, 5)
    assert exact(a.metrics["recall"]) == 0
    assert a.metrics["precision"].value is None  # the lesson prints 0.0; we never do
    assert exact(a.metrics["fpr"]) == 0


# --- metrics reference: F-beta, log loss, the 14-row AUC ----------------------------


def test_f_beta_on_the_reference_example() -> None:
    data = make_dataset([0, 1, 0, 0], [0, 1, 0, 1])
    k = confusion_counts(data, 0.5)
    assert exact(threshold_metrics(k)["precision"]) == 1
    assert exact(threshold_metrics(k)["recall"]) == F(1, 2)
    assert exact(threshold_metrics(k)["f1"]) == F(2, 3)
    assert exact(threshold_metrics(k, beta=0.5)["fbeta"]) == F(5, 6)  # 0.83
    assert exact(threshold_metrics(k, beta=2)["fbeta"]) == F(5, 9)  # 0.55


def test_log_loss_reference_example() -> None:
    m = log_loss(make_dataset([0.1, 0.2, 0.7, 0.99], [0, 0, 1, 1]))
    assert m.value == pytest.approx(0.1738, abs=5e-5)
    assert m.exact is None


FOURTEEN_POS = [0.95, 0.87, 0.82, 0.71, 0.52, 0.31]
FOURTEEN_NEG = [0.78, 0.66, 0.58, 0.45, 0.38, 0.25, 0.15, 0.05]


def test_fourteen_row_auc_is_39_of_48_not_the_printed_0786() -> None:
    data = make_dataset(FOURTEEN_POS + FOURTEEN_NEG, [1] * 6 + [0] * 8)
    auc = exact(roc_auc(build_sweep(data)))
    assert auc == F(39, 48) == F(13, 16)
    assert auc != pytest.approx(0.786, abs=1e-3)


def test_balanced_accuracy_is_mean_of_class_recalls() -> None:
    a = analyse(preset("imbalanced").data, 0.5)
    assert exact(a.metrics["balanced_accuracy"]) == (F(3, 4) + F(13, 16)) / 2


# --- lesson: deliveries, monotone transforms, exercises ---------------------------


def test_delivery_models_rank_differently_by_auc_and_ap() -> None:
    a, b = curves_for(preset("delivery-a").data), curves_for(preset("delivery-b").data)
    assert exact(a.summaries.roc_auc) == F(13, 16)
    assert exact(b.summaries.roc_auc) == F(7, 8)
    assert exact(a.summaries.average_precision) == F(7, 10)
    assert exact(b.summaries.average_precision) == F(7, 12)


def test_delivery_decisions_at_07() -> None:
    a = analyse(preset("delivery-a").data, 0.7)
    assert a.counts == Counts(tp=1, fp=2, tn=6, fn=1)
    assert exact(a.metrics["accuracy"]) == F(7, 10)
    assert exact(a.metrics["precision"]) == F(1, 3)
    assert exact(a.metrics["recall"]) == F(1, 2)
    assert exact(a.metrics["f1"]) == F(2, 5)
    b = analyse(preset("delivery-b").data, 0.7)
    assert exact(b.metrics["precision"]) == F(2, 3)
    assert exact(b.metrics["recall"]) == 1
    assert exact(b.metrics["f1"]) == F(4, 5)
    always_on_time = analyse(preset("delivery-a").data, None)
    assert exact(always_on_time.metrics["accuracy"]) == F(4, 5)
    assert exact(always_on_time.metrics["f1"]) == 0


def test_squaring_keeps_auc_and_ap_but_changes_decisions() -> None:
    d = preset("delivery-a").data
    squared = make_dataset(d.scores**2, d.labels)
    c = curves_for(squared)
    assert exact(c.summaries.roc_auc) == F(13, 16)
    assert exact(c.summaries.average_precision) == F(7, 10)
    at = analyse(c, 0.7)
    assert exact(at.metrics["precision"]) == F(1, 2)
    assert exact(at.metrics["recall"]) == F(1, 2)
    assert analyse(c, 0.49).counts == analyse(d, 0.7).counts


def test_constant_score_ap_is_the_prevalence() -> None:
    d = preset("delivery-a").data
    assert exact(average_precision(build_sweep(make_dataset([0.3] * 10, d.labels)))) == F(1, 5)


def test_exercise_auc_and_ap() -> None:
    data = make_dataset([0.9, 0.6, 0.4, 0.7, 0.4, 0.2, 0.1], [1, 1, 1, 0, 0, 0, 0])
    c = curves_for(data)
    assert exact(c.summaries.roc_auc) == F(19, 24)
    assert exact(c.summaries.average_precision) == F(34, 45)


def test_forty_case_exercise() -> None:
    m = threshold_metrics(Counts(tp=4, fp=6, tn=28, fn=2))
    assert exact(m["accuracy"]) == F(4, 5)
    assert exact(m["precision"]) == F(2, 5)
    assert exact(m["recall"]) == F(2, 3)
    assert exact(m["specificity"]) == F(14, 17)
    assert exact(m["f1"]) == F(1, 2)
    assert exact(m["prevalence"]) == F(3, 20)
    never = threshold_metrics(Counts(tp=0, fp=0, tn=34, fn=6))
    assert exact(never["accuracy"]) == F(17, 20)
