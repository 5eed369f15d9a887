"""Groups: each group's numbers are the binary report of its rows alone;
the gaps equal Fairlearn's (``MetricFrame``, ``demographic_parity_difference``,
``equalized_odds_difference`` and their ratios) on the same rows; Newcombe's
interval equals statsmodels'."""

from __future__ import annotations

import warnings
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from threshold_lab.core.errors import InputError
from threshold_lab.core.groups.gaps import GAPS, newcombe

import threshold_lab as tl

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fairlearn.metrics import (
        MetricFrame,
        demographic_parity_difference,
        demographic_parity_ratio,
        equalized_odds_difference,
        equalized_odds_ratio,
        false_positive_rate,
        selection_rate,
        true_positive_rate,
    )
    from sklearn.metrics import accuracy_score, precision_score

from statsmodels.stats.proportion import confint_proportions_2indep


@st.composite
def grouped(draw: st.DrawFn, weighted: bool = False):  # type: ignore[no-untyped-def]
    """Rows in 2 to 4 groups, scores on a grid of ninths (many ties), a threshold
    on the grid; each group has both classes and a predicted positive and negative."""
    k = draw(st.integers(2, 4))
    names = draw(
        st.lists(
            st.sampled_from(["a", "b", "c", "d", "10", "x y"]), min_size=k, max_size=k, unique=True
        )
    )
    rows = []
    t = draw(st.integers(1, 8)) / 9
    for name in names:
        m = draw(st.integers(4, 12))
        y = draw(st.lists(st.integers(0, 1), min_size=m, max_size=m))
        s = draw(st.lists(st.integers(0, 9), min_size=m, max_size=m))
        y[0], y[1], y[2], y[3] = 1, 0, 1, 0
        s[0], s[1], s[2], s[3] = 9, 9, 0, 0  # a predicted positive and negative
        w = draw(st.lists(st.integers(1, 3), min_size=m, max_size=m)) if weighted else [1] * m
        rows += [(name, yi, si / 9, wi) for yi, si, wi in zip(y, s, w, strict=True)]
    order = draw(st.permutations(range(len(rows))))
    rows = [rows[i] for i in order]
    return (
        np.array([r[0] for r in rows], dtype=object),
        np.array([r[1] for r in rows]),
        np.array([r[2] for r in rows]),
        np.array([r[3] for r in rows], dtype=np.float64),
        t,
    )


def _fairlearn(g: Any, y: Any, s: Any, w: Any, t: float) -> Any:
    pred = (s >= t).astype(int)
    sw = {"sample_weight": w}
    fns = {
        "selection_rate": selection_rate,
        "tpr": true_positive_rate,
        "fpr": false_positive_rate,
        "accuracy": accuracy_score,
    }
    mf = MetricFrame(
        metrics={**fns, "precision": precision_score},
        y_true=y,
        y_pred=pred,
        sensitive_features=g,
        sample_params={name: sw for name in [*fns, "precision"]},
    )
    return pred, mf


@settings(max_examples=60, deadline=None)
@given(grouped(), st.booleans())
def test_every_group_is_the_binary_report_of_its_rows(case, weighted: bool) -> None:  # type: ignore[no-untyped-def]
    g, y, s, w, t = case
    weights = w if weighted else None
    r = tl.report(y, s, threshold=t, groups=g, sample_weight=weights)
    assert [x.name for x in r.groups] == sorted(set(g), key=_order)
    for x in r.groups:
        rows = g == x.name
        alone = tl.report(
            y[rows], s[rows], threshold=t, sample_weight=None if weights is None else weights[rows]
        )
        assert x.counts == alone.counts
        assert x.n == alone.n and x.positives == alone.positives
        for name, m in alone.metrics.items():
            assert x.metrics[name].metric == m.metric, name
            assert x.metrics[name].interval == m.interval, name
        assert x.roc_auc.metric == alone.roc_auc.metric
        assert x.roc_auc.interval == alone.roc_auc.interval
        assert x.average_precision.metric == alone.average_precision.metric
        k = x.counts
        assert x.selection_rate.value == pytest.approx((k.tp + k.fp) / (k.tp + k.fp + k.tn + k.fn))


def _order(name: str):  # type: ignore[no-untyped-def]
    try:
        return (0, float(name), name)
    except ValueError:
        return (1, 0.0, name)


@settings(max_examples=40, deadline=None)
@given(grouped(), st.booleans())
def test_gaps_equal_fairlearns(case, weighted: bool) -> None:  # type: ignore[no-untyped-def]
    g, y, s, w, t = case
    if not weighted:
        w = np.ones_like(w)
    pred, mf = _fairlearn(g, y, s, w, t)
    by = mf.by_group
    assume(all(by["selection_rate"] > 0) and all(by["tpr"] > 0) and all(by["fpr"] > 0))
    r = tl.report(y, s, threshold=t, groups=g, sample_weight=w if weighted else None)
    gaps = r.gaps
    assert gaps is not None
    expected = {
        "demographic_parity_difference": demographic_parity_difference(
            y, pred, sensitive_features=g, sample_weight=w
        ),
        "demographic_parity_ratio": demographic_parity_ratio(
            y, pred, sensitive_features=g, sample_weight=w
        ),
        "equalized_odds_difference": equalized_odds_difference(
            y, pred, sensitive_features=g, sample_weight=w
        ),
        "equalized_odds_ratio": equalized_odds_ratio(
            y, pred, sensitive_features=g, sample_weight=w
        ),
        "equal_opportunity_difference": mf.difference()["tpr"],
        "equal_opportunity_ratio": mf.ratio()["tpr"],
        "false_positive_rate_difference": mf.difference()["fpr"],
        "false_positive_rate_ratio": mf.ratio()["fpr"],
        "predictive_parity_difference": mf.difference()["precision"],
        "predictive_parity_ratio": mf.ratio()["precision"],
        "accuracy_difference": mf.difference()["accuracy"],
        "accuracy_ratio": mf.ratio()["accuracy"],
    }
    assert set(expected) == set(GAPS) == set(gaps)
    for name, value in expected.items():
        assert gaps[name].value.value == pytest.approx(float(value), abs=1e-12), name
    # The two groups named hold the highest and the lowest rate (exact fractions).
    for name, gap in gaps.items():
        assert gap.rate is not None and gap.groups is not None
        column = by[gap.rate]
        hi, lo = gap.groups
        assert column[hi] == pytest.approx(column.max()) and column[lo] == pytest.approx(
            column.min()
        ), name
        if not weighted:
            assert gap.value.exact is not None
            want = (
                (
                    Fraction(column[hi]).limit_denominator(1000)
                    - Fraction(column[lo]).limit_denominator(1000)
                )
                if gap.kind == "difference"
                else (
                    Fraction(column[lo]).limit_denominator(1000)
                    / Fraction(column[hi]).limit_denominator(1000)
                )
            )
            assert gap.value.exact == want, name


def _count_of() -> st.SearchStrategy[tuple[int, int]]:
    """(k, n) with 0 <= k <= n, n from 1 to 40."""
    return st.integers(1, 40).flatmap(lambda n: st.tuples(st.integers(0, n), st.just(n)))


@settings(max_examples=60, deadline=None)
@given(_count_of(), _count_of())
def test_newcombe_equals_statsmodels(one: tuple[int, int], two: tuple[int, int]) -> None:
    (k1, n1), (k2, n2) = one, two
    low, high = newcombe(k1, n1, k2, n2, 0.95)
    want = confint_proportions_2indep(k1, n1, k2, n2, method="newcomb", compare="diff", alpha=0.05)
    assert (low, high) == pytest.approx((float(want[0]), float(want[1])), abs=1e-9)


def test_the_difference_interval_is_newcombes_of_the_two_groups_named() -> None:
    g = [*"a" * 10, *"b" * 10]
    y = [1, 1, 1, 1, 0, 0, 0, 0, 0, 0] * 2
    s = [
        *(0.9, 0.8, 0.7, 0.2, 0.6, 0.1, 0.1, 0.1, 0.1, 0.1),
        *(0.9, 0.2, 0.2, 0.2, 0.6, 0.6, 0.6, 0.1, 0.1, 0.1),
    ]
    r = tl.report(y, s, threshold=0.5, groups=g)
    gap = r.gaps["equal_opportunity_difference"]  # type: ignore[index]
    assert gap.groups == ("a", "b") and gap.value.exact == Fraction(3, 4) - Fraction(1, 4)
    want = confint_proportions_2indep(3, 4, 1, 4, method="newcomb", compare="diff")
    assert gap.interval is not None and gap.interval.method == "newcombe"
    assert (gap.interval.low, gap.interval.high) == pytest.approx(tuple(map(float, want)))
    eo = r.gaps["equalized_odds_difference"]  # type: ignore[index]
    # FPR: a 1/6, b 3/6: a gap of 1/3, smaller than TPR's 1/2, so TPR's stands.
    assert eo.rate == "tpr" and eo.value.exact == Fraction(1, 2)
    assert r.gaps["demographic_parity_ratio"].value.exact == Fraction(4, 4)  # type: ignore[index]


def test_a_group_with_one_class_is_left_out_of_its_rates_gaps_and_named() -> None:
    g = [*"aaaa", *"bbbb", *"ccc"]
    y = [*(1, 0, 1, 0), *(1, 1, 0, 0), *(0, 0, 0)]
    s = [*(0.9, 0.8, 0.2, 0.1), *(0.9, 0.2, 0.3, 0.1), *(0.9, 0.2, 0.1)]
    r = tl.report(y, s, threshold=0.5, groups=g)
    gaps = r.gaps
    assert gaps is not None
    tpr = gaps["equal_opportunity_difference"]
    assert tpr.left_out == (("c", "no actual positives in the group (TP+FN=0)"),)
    assert tpr.value.exact == 0  # a and b both 1/2
    c = r.groups[2]
    assert c.metrics["recall"].value is None and c.metrics["recall"].reason
    # Selection rate is defined everywhere: a 2/4, b 1/4, c 1/3.
    dp = gaps["demographic_parity_difference"]
    assert dp.left_out == () and dp.value.exact == Fraction(1, 4) and dp.groups == ("a", "b")


def test_a_rate_defined_in_one_group_only_gives_an_undefined_gap_with_its_reason() -> None:
    r = tl.report([1, 0, 0, 0], [0.9, 0.8, 0.1, 0.2], threshold=0.5, groups=["a", "a", "b", "b"])
    gap = r.gaps["equal_opportunity_difference"]  # type: ignore[index]
    assert gap.value.value is None
    assert gap.value.reason == "the TPR is defined in 1 group, and a gap needs two"
    assert gap.as_json()["value"] is None


def test_ratio_is_undefined_when_every_group_rate_is_zero() -> None:
    r = tl.report([1, 0, 1, 0], [0.1, 0.2, 0.3, 0.1], threshold=0.9, groups=["a", "a", "b", "b"])
    gap = r.gaps["demographic_parity_ratio"]  # type: ignore[index]
    assert gap.value.value is None and "is 0 in every group" in str(gap.value.reason)
    assert r.gaps["demographic_parity_difference"].value.exact == 0  # type: ignore[index]


def test_weights_that_are_not_whole_give_gaps_without_a_wilson_interval() -> None:
    r = tl.report(
        [1, 0, 1, 0],
        [0.9, 0.8, 0.3, 0.1],
        threshold=0.5,
        groups=["a", "a", "b", "b"],
        sample_weight=[0.5, 1, 1, 1],
    )
    gap = r.gaps["demographic_parity_difference"]  # type: ignore[index]
    assert gap.value.value == pytest.approx(1.0 - 0.0) and gap.value.exact is None
    assert gap.interval is None and "whole" in str(gap.interval_reason)


def test_bootstrap_interval_is_seeded_and_near_newcombes_on_large_groups() -> None:
    rng = np.random.default_rng(5)
    n = 4000
    g = rng.choice(["a", "b"], n)
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n) * 0.6 + 0.3 * y + 0.1 * (g == "a"), 2)
    closed = tl.report(y, s, groups=g).gaps["demographic_parity_difference"]  # type: ignore[index]
    r1 = tl.report(y, s, groups=g, bootstrap=400, seed=3)
    r2 = tl.report(y, s, groups=g, bootstrap=400, seed=3)
    b1 = r1.gaps["demographic_parity_difference"]  # type: ignore[index]
    b2 = r2.gaps["demographic_parity_difference"]  # type: ignore[index]
    assert b1.interval == b2.interval and b1.interval is not None
    assert b1.interval.method == "bootstrap" and b1.interval.replicates == 400
    assert closed.interval is not None
    assert b1.interval.low == pytest.approx(closed.interval.low, abs=0.02)
    assert b1.interval.high == pytest.approx(closed.interval.high, abs=0.02)
    eo = r1.gaps["equalized_odds_difference"]  # type: ignore[index]
    assert eo.interval is not None and eo.interval.method == "bootstrap"


@settings(max_examples=30, deadline=None)
@given(grouped(), st.randoms(use_true_random=False))
def test_row_order_and_group_order_change_nothing(case, rnd) -> None:  # type: ignore[no-untyped-def]
    g, y, s, _, t = case
    order = list(range(len(y)))
    rnd.shuffle(order)
    a = tl.report(y, s, threshold=t, groups=g).to_dict(points=0)
    b = tl.report(y[order], s[order], threshold=t, groups=g[order]).to_dict(points=0)
    assert a["groups"] == b["groups"] and a["gaps"] == b["gaps"]


def test_group_names_sort_as_numbers_when_they_are_numbers() -> None:
    r = tl.report([1, 0] * 6, [0.9, 0.1] * 6, groups=[10, 10, 2, 2, 1.0, 1.0] * 2)
    assert [x.name for x in r.groups] == ["1", "2", "10"]


@pytest.mark.parametrize(
    ("groups", "said"),
    [
        (["a", "a", "a", "a"], "every row is in group 'a'; groups need at least two"),
        (["a", "", "b", "b"], "groups: row 2 has no group (an empty name)"),
        (["a", None, "b", "b"], "groups: row 2 has no group"),
        (["a", "b"], "groups: 2 group names for 4 rows"),
        ("ab", "not one string"),
    ],
)
def test_bad_groups_are_refused_naming_what_is_wrong(groups, said: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError, match=said.replace("(", r"\(").replace(")", r"\)")):
        tl.report([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.1], groups=groups)


def test_groups_with_several_classes_are_refused() -> None:
    with pytest.raises(InputError, match="groups are for two classes"):
        tl.report(["a", "b", "c"], np.eye(3), classes=["a", "b", "c"], groups=["x", "y", "x"])


def test_a_group_of_zero_weight_is_named() -> None:
    with pytest.raises(InputError, match="group 'b'"):
        tl.report(
            [1, 0, 1, 0],
            [0.9, 0.8, 0.3, 0.1],
            groups=["a", "a", "b", "b"],
            sample_weight=[1, 1, 0, 0],
        )
