"""Hand and Till's one-vs-one AUC (``roc_auc_ovo``, macro and weighted) against
scikit-learn's ``roc_auc_score(multi_class="ovo")`` (a test-only oracle) and against a
pairwise Mann-Whitney count in Fractions."""

from __future__ import annotations

import json
from fractions import Fraction
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score
from threshold_lab.core.data.classes import Multiclass
from threshold_lab.core.multiclass import metrics
from threshold_lab.core.multiclass.metrics import multiclass_report
from threshold_lab.tui.cli import main

from tests.strategies import tied_scores


def _ovo(mc: Multiclass, average: str) -> metrics.Average:
    return multiclass_report(mc).averages[average]["roc_auc_ovo"]


@st.composite
def problems(draw, every_class: bool = True, weighted: bool = False):  # type: ignore[no-untyped-def]
    """3 to 5 classes, scores from a few values (ties within and across classes) or
    any in [0, 1], each row divided by its sum (scikit-learn wants probabilities)."""
    k = draw(st.integers(3, 5))
    n = draw(st.integers(k, 40))
    labels = draw(st.lists(st.integers(0, k - 1), min_size=n, max_size=n))
    if every_class:
        labels[:k] = range(k)
    few = st.sampled_from([0.0, 0.25, 0.5, 1.0])
    cell = draw(st.sampled_from([few, tied_scores, st.floats(0, 1), few | st.floats(0, 1)]))
    rows = draw(st.lists(st.lists(cell, min_size=k, max_size=k), min_size=n, max_size=n))
    scores = np.array(rows, dtype=np.float64) + 1e-3
    scores /= scores.sum(axis=1, keepdims=True)
    weights = None
    if weighted:
        weights = np.array(draw(st.lists(st.integers(0, 4), min_size=n, max_size=n)), float)
        weights[:k] = np.maximum(weights[:k], 1)  # every class keeps some weight
    names = tuple(f"c{i}" for i in range(k))
    return Multiclass(names, scores, np.array(labels, dtype=np.int64), weights)


def _mann_whitney(
    scores: np.ndarray, labels: np.ndarray, weights: np.ndarray | None, k: int
) -> tuple[Fraction, Fraction]:
    """Macro and weighted Hand and Till, every (positive, negative) pair of rows
    counted in Fractions: 1 above, 1/2 tied, each pair weighed by both rows' weights."""
    w = np.ones(labels.shape[0]) if weights is None else weights
    support = {c: Fraction(int(w[labels == c].sum())) for c in range(k)}
    present = [c for c in range(k) if support[c] > 0]

    def area(c: int, j: int) -> Fraction:
        count = Fraction(0)
        for p in np.flatnonzero(labels == c):
            for q in np.flatnonzero(labels == j):
                hit = (
                    1
                    if scores[p, c] > scores[q, c]
                    else Fraction(1, 2)
                    if (scores[p, c] == scores[q, c])
                    else 0
                )
                count += Fraction(int(w[p])) * Fraction(int(w[q])) * hit
        return count / (support[c] * support[j])

    pairs = list(combinations(present, 2))
    score = {(i, j): (area(i, j) + area(j, i)) / 2 for i, j in pairs}
    macro = sum(score.values(), Fraction(0)) / len(pairs)
    prevalence = {(i, j): support[i] + support[j] for i, j in pairs}
    weighted = sum((prevalence[p] * score[p] for p in pairs), Fraction(0))
    return macro, weighted / sum(prevalence.values())


@settings(max_examples=150, deadline=None)
@given(problems())
def test_macro_and_weighted_match_sklearn(mc: Multiclass) -> None:
    for average in ("macro", "weighted"):
        theirs = roc_auc_score(mc.labels, mc.scores, multi_class="ovo", average=average)
        got = _ovo(mc, average)
        assert got.metric.value == pytest.approx(theirs, abs=1e-12), average
        assert got.metric.exact is not None and float(got.metric.exact) == got.metric.value
        assert got.used == mc.classes and got.left_out == ()


@settings(max_examples=60, deadline=None)
@given(problems(), st.randoms(use_true_random=False))
def test_row_order_does_not_change_it(mc: Multiclass, rnd) -> None:  # type: ignore[no-untyped-def]
    perm = list(range(mc.n))
    rnd.shuffle(perm)
    other = Multiclass(mc.classes, mc.scores[perm], mc.labels[perm])
    for average in ("macro", "weighted"):
        assert _ovo(mc, average).metric.exact == _ovo(other, average).metric.exact


@settings(max_examples=60, deadline=None)
@given(problems(weighted=True))
def test_whole_weights_are_repeated_rows(mc: Multiclass) -> None:
    assert mc.weights is not None
    rows = np.repeat(np.arange(mc.n), mc.weights.astype(np.int64))
    repeated = Multiclass(mc.classes, mc.scores[rows], mc.labels[rows])
    for average in ("macro", "weighted"):
        got = _ovo(mc, average).metric
        assert got.exact is not None and got.exact == _ovo(repeated, average).metric.exact
        theirs = roc_auc_score(mc.labels[rows], mc.scores[rows], multi_class="ovo", average=average)
        assert got.value == pytest.approx(theirs, abs=1e-12)
    # Weights that are not whole: the same areas (each AUC and each pair's share are
    # ratios of weights), as decimals without a fraction.
    scaled = Multiclass(mc.classes, mc.scores, mc.labels, mc.weights * 0.3)
    for average in ("macro", "weighted"):
        got = _ovo(scaled, average).metric
        assert got.exact is None
        assert got.value == pytest.approx(_ovo(mc, average).metric.value, abs=1e-12)


@settings(max_examples=40, deadline=None)
@given(problems(every_class=False, weighted=True), st.booleans())
def test_the_exact_value_is_the_pairwise_mann_whitney_count(mc: Multiclass, weigh: bool) -> None:
    if not weigh:
        mc = Multiclass(mc.classes, mc.scores, mc.labels)
    present = [c for c in range(mc.k) if mc.weight()[mc.labels == c].sum() > 0]
    if len(present) < 2:
        assert _ovo(mc, "macro").metric.value is None
        return
    macro, weighted = _mann_whitney(mc.scores, mc.labels, mc.weights, mc.k)
    assert _ovo(mc, "macro").metric.exact == macro
    assert _ovo(mc, "weighted").metric.exact == weighted


def test_a_tiny_case_exactly() -> None:
    """Column a on {a, b}: a-row 0.6 against b-rows 0.3 and 0.6: (1 + 1/2)/2 = 3/4;
    column b on {a, b}: b-rows 0.5 and 0.2 against the a-row's 0.2: (1 + 1/2)/2 = 3/4.
    Pair {a, c}: 1 both ways; pair {b, c}: column b 0.5, 0.2 over 0.1, column c 0.8
    over 0.2, 0.2: 1. Macro (3/4 + 1 + 1)/3 = 11/12; weighted by the rows of each
    pair (3, 2, 3 of 8): (3·3/4 + 2 + 3)/8 = 29/32."""
    scores = np.array([[0.6, 0.2, 0.2], [0.3, 0.5, 0.2], [0.6, 0.2, 0.2], [0.1, 0.1, 0.8]])
    labels = np.array([0, 1, 1, 2])
    mc = Multiclass(("a", "b", "c"), scores, labels)
    assert _ovo(mc, "macro").metric.exact == Fraction(11, 12)
    assert _ovo(mc, "weighted").metric.exact == Fraction(29, 32)
    assert _ovo(mc, "macro").metric.value == pytest.approx(
        roc_auc_score(labels, scores, multi_class="ovo")
    )


def test_a_class_without_rows_leaves_its_pairs_out_and_says_why() -> None:
    rng = np.random.default_rng(3)
    labels = np.array([0, 1, 3, 0, 1, 3, 0, 3])  # no row of c2
    scores = rng.random((8, 4))
    scores /= scores.sum(axis=1, keepdims=True)
    mc = Multiclass(("c0", "c1", "c2", "c3"), scores, labels)
    for average in ("macro", "weighted"):
        got = _ovo(mc, average)
        assert got.used == ("c0", "c1", "c3")
        why = "no rows labelled c2: its pairs with the other classes have no AUC"
        assert dict(got.left_out) == {"c2": f"{why} (ROC needs both classes)"}
        # scikit-learn, given every label, averages over the pairs of present classes
        theirs = roc_auc_score(
            labels, scores, multi_class="ovo", average=average, labels=[0, 1, 2, 3]
        )
        assert got.metric.value == pytest.approx(theirs, abs=1e-12)
    # Rows of weight 0 count as none, and say so.
    weights = np.where(labels == 3, 0.0, 1.0)
    got = _ovo(Multiclass(mc.classes, scores, labels, weights), "macro")
    assert got.used == ("c0", "c1")
    assert dict(got.left_out)["c3"].startswith("the rows labelled c3 weigh 0 in all: ")
    # One class with rows: no pair at all.
    one = Multiclass(mc.classes, scores, np.zeros(8, dtype=np.int64))
    got = _ovo(one, "weighted")
    assert got.metric.value is None and got.used == ()
    assert got.metric.reason == (
        "Hand and Till's AUC needs rows of at least two classes; only c0 has any"
    )
    assert {c for c, _ in got.left_out} == {"c1", "c2", "c3"}


def test_scores_that_share_all_but_their_last_bits_and_negative_ones() -> None:
    """The unweighted sort packs each row's label into its score's lowest bits; scores
    that differ only there (1 and the next float up), -0.0 beside 0.0 and scores below
    0 must still rank as the floats do (the exact count, against the argsort path)."""
    up = np.nextafter(1.0, 2.0)
    values = np.array([1.0, up, np.nextafter(up, 2.0), 0.0, -0.0, -1.0, -up, 5e-324, -5e-324])
    rng = np.random.default_rng(8)
    for _ in range(30):
        n, k = int(rng.integers(3, 25)), int(rng.integers(3, 6))
        scores = rng.choice(values, (n, k))
        labels = rng.integers(0, k, n)
        labels[:3] = [0, 1, 2]
        mc = Multiclass(tuple(f"c{i}" for i in range(k)), scores, labels.astype(np.int64))
        macro, weighted = _mann_whitney(scores, labels, None, k)
        assert _ovo(mc, "macro").metric.exact == macro
        assert _ovo(mc, "weighted").metric.exact == weighted
        sorted_by_argsort = metrics._one_vs_one(mc)  # no distinct counts: argsort
        packed = metrics._one_vs_one(
            mc, [len(set((scores[:, c] + 0.0).tolist())) for c in range(k)]
        )
        assert np.array_equal(sorted_by_argsort.twice, packed.twice)


def test_weights_past_int64_pairs_are_decimals() -> None:
    """A pair whose two classes weigh 2^31 or more together is counted as rates (as a
    binary ROC AUC is past that total): the same value, without a fraction."""
    scores = np.array([[0.6, 0.2, 0.2], [0.3, 0.5, 0.2], [0.6, 0.2, 0.2], [0.1, 0.1, 0.8]])
    labels = np.array([0, 1, 1, 2])
    heavy = Multiclass(("a", "b", "c"), scores, labels, np.full(4, float(2**30)))
    for average, exact in (("macro", Fraction(11, 12)), ("weighted", Fraction(29, 32))):
        got = _ovo(heavy, average).metric
        assert got.exact is None and got.value == pytest.approx(float(exact), abs=1e-15)


def test_the_json_report_has_it_for_macro_and_weighted_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "pets.csv"
    path.write_text(
        "label,score_cat,score_dog,score_fish\n"
        "cat,0.7,0.2,0.1\ndog,0.2,0.5,0.3\nfish,0.1,0.3,0.6\ncat,0.4,0.4,0.2\n"
        "dog,0.3,0.3,0.4\nfish,0.3,0.3,0.4\n"
    )
    assert main(["report", str(path), "--json"]) == 0
    averages = json.loads(capsys.readouterr().out)["multiclass"]["averages"]
    scores = np.array(
        [
            [0.7, 0.2, 0.1],
            [0.2, 0.5, 0.3],
            [0.1, 0.3, 0.6],
            [0.4, 0.4, 0.2],
            [0.3, 0.3, 0.4],
            [0.3, 0.3, 0.4],
        ]
    )
    labels = np.array([0, 1, 2, 0, 1, 2])
    for average in ("macro", "weighted"):
        got = averages[average]["roc_auc_ovo"]
        theirs = roc_auc_score(labels, scores, multi_class="ovo", average=average)
        assert got["value"] == pytest.approx(theirs, abs=1e-12)
        assert got["exact"] is not None and got["classes"] == ["cat", "dog", "fish"]
    assert "roc_auc_ovo" not in averages["micro"]
