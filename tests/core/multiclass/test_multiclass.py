"""Multiclass metrics in core, against scikit-learn (a test-only oracle), and their
properties: the class order changes no per-class number, two classes equal the
binary problem."""

from __future__ import annotations

import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import (
    average_precision_score,
    balanced_accuracy_score,
    log_loss,
    precision_recall_fscore_support,
    roc_auc_score,
)
from threshold_lab.core.curves.pr import average_precision
from threshold_lab.core.curves.roc import roc_auc
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.classes import Multiclass
from threshold_lab.core.multiclass.metrics import decide, multiclass_report


@st.composite
def problems(draw, min_k: int = 3, max_k: int = 5, probabilities: bool = False):  # type: ignore[no-untyped-def]
    k = draw(st.integers(min_k, max_k))
    n = draw(st.integers(k, 40))
    labels = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    grid = st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 1.0]) | st.floats(0, 1)
    rows = draw(st.lists(st.lists(grid, min_size=k, max_size=k), min_size=n, max_size=n))
    scores = np.array(rows, dtype=np.float64)
    if probabilities:
        scores = scores + 1e-3
        scores = scores / scores.sum(axis=1, keepdims=True)
    names = tuple(f"c{i}" for i in range(k))
    return Multiclass(names, scores, np.array(labels, dtype=np.int64))


@settings(max_examples=120, deadline=None)
@given(problems())
def test_per_class_and_averaged_precision_recall_f1_match_sklearn(mc) -> None:  # type: ignore[no-untyped-def]
    r = multiclass_report(mc)
    pred, _ = decide(mc)
    labels = list(range(mc.k))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        p, rc, f, s = precision_recall_fscore_support(
            mc.labels, pred, labels=labels, average=None, zero_division=np.nan
        )
    for c, per in enumerate(r.per_class):
        assert per.support == s[c]
        for ours, theirs in ((per.precision, p[c]), (per.recall, rc[c]), (per.f1, f[c])):
            if np.isnan(theirs):
                assert ours.value is None and ours.reason  # undefined, with why
            else:
                assert ours.value == pytest.approx(theirs, abs=1e-12)
    # Averages: where every class is defined, sklearn's conventions and ours agree.
    for average in ("macro", "weighted", "micro"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ap, ar, af, _ = precision_recall_fscore_support(
                mc.labels, pred, labels=labels, average=average, zero_division=np.nan
            )
        averaged = r.averages[average]
        for name, theirs in (("precision", ap), ("recall", ar), ("f1", af)):
            got = averaged[name]
            defined_everywhere = all(getattr(x, name).value is not None for x in r.per_class)
            if average == "micro" or defined_everywhere:
                if theirs is None or np.isnan(theirs):
                    assert got.metric.value is None
                else:
                    assert got.metric.value == pytest.approx(theirs, abs=1e-12), (average, name)
            else:  # ours leaves undefined classes out, and says which
                assert got.left_out and set(got.used) | {c for c, _ in got.left_out} == set(
                    mc.classes
                )
    assert r.accuracy.value == pytest.approx(np.mean(pred == mc.labels))
    assert r.averages["micro"]["f1"].metric.value == pytest.approx(r.accuracy.value)


@settings(max_examples=120, deadline=None)
@given(problems())
def test_balanced_accuracy_is_the_macro_recall_of_the_classes_present(mc) -> None:  # type: ignore[no-untyped-def]
    r = multiclass_report(mc)
    pred, _ = decide(mc)
    present = np.unique(mc.labels)
    if not set(np.unique(pred)) <= set(present):
        # sklearn warns and averages over the union; ours leaves the absent classes out
        assert {c for c, _ in r.balanced_accuracy.left_out} == {
            mc.classes[c] for c in range(mc.k) if c not in present
        }
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = balanced_accuracy_score(mc.labels, pred)
    assert r.balanced_accuracy.metric.value == pytest.approx(theirs, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(problems(probabilities=True))
def test_one_vs_rest_auc_ap_and_log_loss_match_sklearn(mc) -> None:  # type: ignore[no-untyped-def]
    r = multiclass_report(mc)
    present = set(np.unique(mc.labels).tolist())
    onehot = (mc.labels[:, None] == np.arange(mc.k)[None, :]).astype(int)
    if present == set(range(mc.k)):
        for average in ("macro", "weighted"):
            theirs = roc_auc_score(mc.labels, mc.scores, multi_class="ovr", average=average)
            assert r.averages[average]["roc_auc"].metric.value == pytest.approx(theirs, abs=1e-9)
        micro = roc_auc_score(onehot, mc.scores, average="micro")
        assert r.averages["micro"]["roc_auc"].metric.value == pytest.approx(micro, abs=1e-9)
        micro_ap = average_precision_score(onehot, mc.scores, average="micro")
        assert r.averages["micro"]["average_precision"].metric.value == pytest.approx(
            micro_ap, abs=1e-9
        )
        for c in range(mc.k):
            if len(set(onehot[:, c])) == 2:
                assert r.per_class[c].roc_auc.value == pytest.approx(
                    roc_auc_score(onehot[:, c], mc.scores[:, c]), abs=1e-12
                )
            assert r.per_class[c].average_precision.value == pytest.approx(
                average_precision_score(onehot[:, c], mc.scores[:, c]), abs=1e-12
            )
    else:
        absent = [mc.classes[c] for c in range(mc.k) if c not in present]
        for name in absent:
            i = mc.classes.index(name)
            assert r.per_class[i].roc_auc.value is None
            assert r.per_class[i].roc_auc.reason.startswith(f"class {name}: ")
    theirs = log_loss(mc.labels, mc.scores, labels=list(range(mc.k)))
    assert r.log_loss.value == pytest.approx(theirs, rel=1e-9)


def test_argmax_ties_go_to_the_first_class_and_are_counted() -> None:
    mc = Multiclass(
        ("a", "b", "c"),
        np.array([[0.4, 0.4, 0.2], [0.1, 0.3, 0.3], [0.2, 0.5, 0.3], [0.3, 0.3, 0.3]]),
        np.array([1, 2, 1, 2]),
    )
    pred, ties = decide(mc)
    assert pred.tolist() == [0, 1, 1, 0] and ties == 3
    r = multiclass_report(mc)
    assert r.argmax_ties == 3
    assert r.confusion.tolist() == [[0, 0, 0], [1, 1, 0], [1, 1, 0]]
    assert r.per_class[2].precision.reason == "No rows predicted c (TP+FP=0)"
    assert r.per_class[0].recall.reason == "No rows labelled a (TP+FN=0)"
    auc_reason = r.per_class[0].roc_auc.reason
    assert auc_reason is not None and auc_reason.startswith("class a: ")
    assert r.averages["macro"]["precision"].used == ("a", "b")
    assert dict(r.averages["macro"]["precision"].left_out) == {"c": "No rows predicted c (TP+FP=0)"}
    assert r.averages["macro"]["precision"].metric.exact == Fraction(0 + Fraction(1, 2), 2)
    # Scores that do not sum to one: no probability metrics, with the row named.
    assert r.log_loss.value is None and "row 1's scores sum to 1.0" not in str(r.log_loss.reason)
    assert "row 2's scores sum to 0.7" in str(r.log_loss.reason)


@settings(max_examples=60, deadline=None)
@given(problems(), st.randoms(use_true_random=False))
def test_class_order_does_not_change_per_class_numbers(mc, rnd) -> None:  # type: ignore[no-untyped-def]
    # Scores on a grid with ties would break argmax ties differently by order: use
    # distinct rows' maxima for the decision part by comparing only the rankings.
    perm = list(range(mc.k))
    rnd.shuffle(perm)
    inv = np.argsort(perm)
    other = Multiclass(tuple(mc.classes[p] for p in perm), mc.scores[:, perm], inv[mc.labels])
    a, b = multiclass_report(mc), multiclass_report(other)
    by_name = {p.name: p for p in b.per_class}
    for p in a.per_class:
        q = by_name[p.name]
        assert p.support == q.support
        assert p.roc_auc.value == q.roc_auc.value
        assert p.average_precision.value == q.average_precision.value
    _, ties = decide(mc)
    if ties == 0:  # no tie for the maximum: the decisions are the same whatever the order
        for p in a.per_class:
            q = by_name[p.name]
            assert (p.precision.value, p.recall.value, p.f1.value) == (
                q.precision.value,
                q.recall.value,
                q.f1.value,
            )


@settings(max_examples=60, deadline=None)
@given(problems(min_k=2, max_k=2, probabilities=True))
def test_two_classes_one_vs_rest_is_the_binary_problem(mc) -> None:  # type: ignore[no-untyped-def]
    r = multiclass_report(mc)
    for c in range(2):
        sweep = build_sweep(mc.one_vs_rest(c))
        assert r.per_class[c].roc_auc.value == roc_auc(sweep).value
        assert r.per_class[c].average_precision.value == average_precision(sweep).value


def test_a_weighted_average_over_classes_without_support_names_them() -> None:
    """Found by hypothesis in CI: every row is c0 and predicted c2, so precision is
    defined only for c2, which has no support: the weighted average is undefined and
    names every class it leaves out, c2 with its reason."""
    mc = Multiclass(("c0", "c1", "c2"), np.array([[0, 0, 0.1]] * 3), np.array([0, 0, 0]))
    avg = multiclass_report(mc).averages["weighted"]["precision"]
    assert avg.metric.value is None and avg.used == ()
    assert dict(avg.left_out) == {
        "c0": "No rows predicted c0 (TP+FP=0)",
        "c1": "No rows predicted c1 (TP+FP=0)",
        "c2": "no actual rows of c2 (support 0)",
    }
