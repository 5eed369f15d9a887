"""Invariants of the sweep and its summaries, checked against the Fraction oracle."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import analyse
from threshold_lab.core.curves.pr import average_precision, pr_trapezoid_area
from threshold_lab.core.curves.roc import roc_auc
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset, weight_problem
from threshold_lab.core.errors import InputError
from threshold_lab.core.metrics.confusion import confusion_counts

from tests import oracle
from tests.strategies import Example, FloatArray, examples, tied_scores


@given(examples())
def test_sweep_matches_row_by_row_counts_at_every_threshold(ex) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    data = make_dataset(s, y)
    sweep = build_sweep(data)
    expected = oracle.thresholds(s.tolist())
    assert [sweep.threshold_at(k) for k in range(sweep.size)] == expected
    for k, t in enumerate(expected):
        assert sweep.counts_at(k).cells() == oracle.counts(s.tolist(), y.tolist(), t)
        assert confusion_counts(data, t) == sweep.counts_at(k)
        assert sweep.index_of(t) == k


@given(examples(), st.floats(-2e6, 2e6, allow_nan=False))
def test_any_threshold_counts_like_the_rows(ex, t) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    data = make_dataset(s, y)
    sweep = build_sweep(data)
    assert sweep.counts_at(sweep.index_of(t)).cells() == oracle.counts(s.tolist(), y.tolist(), t)


@given(examples(both_classes=True))
def test_auc_equals_pairwise_ranking(ex) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    auc = roc_auc(build_sweep(make_dataset(s, y)))
    assert auc.exact == oracle.pairwise_auc(s.tolist(), y.tolist())


@given(examples(scores=tied_scores))
def test_ap_and_trapezoid_match_the_oracle(ex) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    sweep = build_sweep(make_dataset(s, y))
    ap, trap = average_precision(sweep), pr_trapezoid_area(sweep)
    if not y.any():
        assert ap.value is None and trap.value is None
        return
    assert ap.exact == oracle.average_precision(s.tolist(), y.tolist())
    assert trap.exact == oracle.pr_trapezoid(s.tolist(), y.tolist())


@given(examples(), st.randoms(use_true_random=False))
def test_row_order_never_matters(ex, rnd) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    perm = list(range(len(s)))
    rnd.shuffle(perm)
    a, b = build_sweep(make_dataset(s, y)), build_sweep(make_dataset(s[perm], y[perm]))
    assert a.thresholds.tolist() == b.thresholds.tolist()
    assert a.tp.tolist() == b.tp.tolist() and a.fp.tolist() == b.fp.tolist()
    for f in (roc_auc, average_precision, pr_trapezoid_area):
        assert f(a) == f(b)


@given(examples(scores=tied_scores), st.sampled_from(["cube", "exp", "affine", "logit"]))
def test_strictly_increasing_transforms_keep_auc_and_ap(ex: Example, kind: str) -> None:
    s, y = ex
    transforms: dict[str, Callable[[FloatArray], FloatArray]] = {
        "cube": lambda v: v**3,
        "exp": np.exp,
        "affine": lambda v: 3 * v - 7,
        "logit": lambda v: np.log((v + 0.01) / (1.01 - v)),
    }
    transform = transforms[kind]
    a, b = build_sweep(make_dataset(s, y)), build_sweep(make_dataset(transform(s), y))
    assert a.tp.tolist() == b.tp.tolist() and a.fp.tolist() == b.fp.tolist()
    for f in (roc_auc, average_precision, pr_trapezoid_area):
        assert f(a).exact == f(b).exact and f(a).value == f(b).value


@given(examples(scores=tied_scores))
def test_ties_never_split(ex) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    sweep = build_sweep(make_dataset(s, y))
    # every point admits all rows of exactly one distinct score
    entered = np.diff(sweep.tp + sweep.fp)
    for t, count in zip(sweep.thresholds, entered, strict=True):
        assert count == np.count_nonzero(s == t)


@settings(max_examples=50)
@given(examples(both_classes=True), st.lists(st.integers(1, 5), min_size=40, max_size=40))
def test_integer_weights_equal_repeated_rows(ex, reps) -> None:  # type: ignore[no-untyped-def]
    s, y = ex
    w = np.array(reps[: len(s)], dtype=float)
    weighted = build_sweep(make_dataset(s, y, weights=w))
    repeated = build_sweep(make_dataset(np.repeat(s, reps[: len(s)]), np.repeat(y, reps[: len(s)])))
    assert weighted.tp.tolist() == repeated.tp.tolist()
    assert weighted.fp.tolist() == repeated.fp.tolist()
    exact_auc = roc_auc(repeated).exact
    assert exact_auc is not None
    assert roc_auc(weighted).value == float(exact_auc)
    ap_w, ap_r = average_precision(weighted), average_precision(repeated)
    assert ap_w.value is not None and ap_r.value is not None
    assert abs(ap_w.value - ap_r.value) < 1e-12


def test_sweep_arrays_are_read_only() -> None:
    sweep = build_sweep(make_dataset([0.2, 0.4], [0, 1]))
    for arr in (sweep.thresholds, sweep.tp, sweep.fp):
        assert not arr.flags.writeable


@settings(max_examples=150, deadline=None)
@given(
    examples(max_size=25),
    st.lists(st.floats(0, 3, allow_nan=False), min_size=25, max_size=25),
)
def test_fractional_weights_never_give_negative_counts(example, raw_weights) -> None:  # type: ignore[no-untyped-def]
    # Regression: the class totals were summed apart from the running sums, so
    # TN = N - FP could come out as -2e-16 and MCC took the root of a negative.
    s, y = example
    w = np.array(raw_weights[: len(s)])
    if not (w > 0).any():
        w[0] = 1.0
    if weight_problem(w) is not None:
        # A subnormal weight, or one a float sum of the total drops, is refused.
        with pytest.raises(InputError, match="at least"):
            make_dataset(s, y, weights=w)
        return
    data = make_dataset(s, y, weights=w)
    sweep = build_sweep(data)
    for k in range(sweep.size):
        c = sweep.counts_at(k)
        assert min(c.tn, c.fn, c.tp, c.fp) >= 0
    for t in (None, float(np.min(s))):
        analyse(data, t).metrics  # noqa: B018 -- every metric computes without error
    assert sweep.positives == pytest.approx(data.positives)
