"""One pass over the tie groups gives every curve-wide summary the report
reads: the same numbers as each summary's own function (the oracle here, itself held
to scikit-learn, pROC and exact fractions elsewhere), exactly where those are exact
(ROC AUC, KS, the bins' counts) and to rounding elsewhere, whatever the block and
chunk sizes, with ties, whole weights (zero among them), scores of exactly 0 and 1 and
scores outside [0, 1]."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import Curves
from threshold_lab.core.calibration.gains import ks_statistic
from threshold_lab.core.calibration.reliability import calibration
from threshold_lab.core.curves import tie_pass
from threshold_lab.core.curves.pr import pr_summaries
from threshold_lab.core.curves.probabilities import probability_summaries
from threshold_lab.core.curves.roc import roc_auc, segment_sum, segment_terms
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import Dataset, make_dataset
from threshold_lab.core.intervals.closed import delong_se
from threshold_lab.core.metrics.metric import Metric

SCORES = (
    st.sampled_from([0.0, 1e-300, 1e-9, 0.1, 0.25, 0.5, 0.7, 0.9, 1 - 1e-12, 1.0])
    | st.floats(0.0, 1.0)
    | st.floats(-3.0, 3.0)
)
ROWS = st.lists(st.tuples(SCORES, st.booleans(), st.integers(0, 3)), min_size=2, max_size=80)


def _data(rows: list[tuple[float, bool, int]], weighted: bool) -> Dataset:
    s = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows])
    w = np.array([float(r[2]) for r in rows]) if weighted else None
    if w is not None and w.sum() == 0:
        w[0] = 1.0
    return make_dataset(s, y, weights=w)


def _close(a: Metric, b: Metric, rel: float = 1e-12) -> None:
    assert a.reason == b.reason
    if a.value is None or b.value is None:
        assert a.value is b.value
        return
    assert math.isclose(a.value, b.value, rel_tol=rel, abs_tol=1e-15), (a, b)


def _same_json(a: Any, b: Any, where: str = "") -> None:
    if isinstance(a, dict):
        assert a.keys() == b.keys(), where
        for k in a:
            _same_json(a[k], b[k], f"{where}.{k}")
    elif isinstance(a, list | tuple):
        assert len(a) == len(b), where
        for i, (x, y) in enumerate(zip(a, b, strict=True)):
            _same_json(x, y, f"{where}[{i}]")
    elif isinstance(a, float) and isinstance(b, float):
        assert math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12), (where, a, b)
    else:
        assert a == b, (where, a, b)


@settings(max_examples=300)
@given(ROWS, st.booleans(), st.sampled_from([1, 2, 3, 7, 1 << 15]), st.sampled_from([1, 2, 64]))
def test_the_one_pass_gives_each_summary_as_its_own_function_does(
    rows: list[tuple[float, bool, int]], weighted: bool, block: int, chunk: int
) -> None:
    data = _data(rows, weighted)
    sweep = build_sweep(data)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tie_pass, "BLOCK", block)
        mp.setattr(tie_pass, "CHUNK", chunk)
        curves = Curves(data, sweep)
        summaries = curves.summaries
        auc_se, ks, cal = curves.auc_se, curves.ks, curves.calibration()
    if curves.tie_sums is None:
        assert not tie_pass.usable(sweep)
        return
    auc = roc_auc(sweep)
    assert summaries.roc_auc == auc  # exact: the same fraction
    ap, area = pr_summaries(sweep)
    _close(summaries.average_precision, ap)
    _close(summaries.pr_trapezoid_area, area)
    log_loss, brier = probability_summaries(data, sweep)
    _close(summaries.log_loss, log_loss)
    _close(summaries.brier, brier)
    want_auc, want_se, want_reason = delong_se(sweep)
    assert auc_se[0] == want_auc and auc_se[2] == want_reason
    if want_se is not None:
        assert auc_se[1] is not None
        assert math.isclose(auc_se[1], want_se, rel_tol=1e-9, abs_tol=1e-15)
    want_ks = ks_statistic(sweep)
    assert (ks.value, ks.threshold, ks.point) == (want_ks.value, want_ks.threshold, want_ks.point)
    _same_json(cal.as_json(), calibration(sweep).as_json())


@given(ROWS, st.booleans(), st.sampled_from([1, 2, 5, 1 << 15]))
def test_partial_sums_read_the_pass_s_running_sums(
    rows: list[tuple[float, bool, int]], weighted: bool, block: int
) -> None:
    data = _data(rows, weighted)
    sweep = build_sweep(data)
    if not tie_pass.usable(sweep):
        return
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tie_pass, "BLOCK", block)
        Curves(data, sweep).summaries  # noqa: B018 - keeps the running sums
    m = sweep.size - 1
    for first in range(1, m + 1):
        for last in range(first, m + 1):
            assert segment_sum(sweep, first, last) == segment_terms(sweep.fp, sweep.tp, first, last)


@given(st.lists(st.integers(0, 30), min_size=1, max_size=200), st.data())
def test_multi_row_points_are_the_groups_of_other_than_one_row(
    scores: list[int], draw: st.DataObject
) -> None:
    labels = draw.draw(st.lists(st.booleans(), min_size=len(scores), max_size=len(scores)))
    sweep = build_sweep(make_dataset(np.array(scores, float), np.array(labels)))
    sizes = np.diff(sweep.tp + sweep.fp)
    want = np.flatnonzero(sizes != 1) + 1
    assert tie_pass.multi_row_points(sweep).tolist() == want.tolist()


def test_confident_scores_keep_the_log_loss_s_digits() -> None:
    # Near-certain right answers: each logarithm is about −1e-9, and a product of 64 of
    # them is within 1e-7 of 1, so they are summed one by one (log1p for negatives).
    rng = np.random.default_rng(7)
    n = 5000
    y = rng.random(n) < 0.4
    eps = rng.uniform(1e-10, 1e-8, n)
    s = np.where(y, 1 - eps, eps)
    data = make_dataset(s, y)
    got = Curves(data, build_sweep(data)).summaries.log_loss.value
    want = -math.fsum(math.log(p) if t else math.log1p(-p) for p, t in zip(s, y, strict=True))
    assert got is not None
    assert math.isclose(got, want / n, rel_tol=1e-12)


def test_a_certain_wrong_prediction_is_still_named() -> None:
    data = make_dataset([0.2, 0.0, 0.9, 0.0, 0.4], [0, 0, 1, 1, 0], ids=list("abcde"))
    log_loss = Curves(data, build_sweep(data)).summaries.log_loss
    assert log_loss.value is None and log_loss.reason is not None and "Row d" in log_loss.reason


def test_large_continuous_scores_against_exact_sums() -> None:
    # Several blocks, chunks of products and a few ties: the AUC and KS exact, the rest
    # to rounding, against sums in fractions and math.fsum.
    rng = np.random.default_rng(29)
    n = 200_000
    y = rng.random(n) < 0.3
    s = 1 / (1 + np.exp(-rng.normal(y * 1.2 - 0.6)))
    s[:2000] = np.round(s[:2000], 2)
    data = make_dataset(s, y)
    sweep = build_sweep(data)
    summaries = Curves(data, sweep).summaries
    pos, neg = int(y.sum()), int((~y).sum())
    order = np.argsort(s)
    ranks = np.empty(n)
    ranks[order] = np.arange(1, n + 1)
    # Mid-ranks for ties: the pairwise AUC with ties one half (Mann-Whitney).
    _, inverse, counts = np.unique(s, return_inverse=True, return_counts=True)
    ends = np.cumsum(counts)
    mid = (ends - (counts - 1) / 2)[inverse]
    u = Fraction(round(2 * mid[y].sum()), 2) - Fraction(pos * (pos + 1), 2)
    assert summaries.roc_auc.exact == u / (pos * neg)
    want = -math.fsum(np.where(y, np.log(s), np.log1p(-s))) / n
    assert summaries.log_loss.value is not None
    assert math.isclose(summaries.log_loss.value, want, rel_tol=1e-13)
    brier = math.fsum((s - y) ** 2) / n
    assert summaries.brier.value is not None
    assert math.isclose(summaries.brier.value, brier, rel_tol=1e-13)
