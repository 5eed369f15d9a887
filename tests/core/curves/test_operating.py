"""Readouts at fixed rates and partial AUC: pROC's published aSAH values, scikit-learn's
``roc_auc_score(max_fpr=)``, and a brute force over the ROC polyline in exact fractions,
under hypothesis with ties, weights and row order."""

from __future__ import annotations

import csv
import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score
from threshold_lab.core import blocks as blocks_module
from threshold_lab.core.curves.operating import (
    parse_partial_auc,
    parse_readouts,
    partial_auc,
    readout,
)
from threshold_lab.core.curves.roc import roc_auc
from threshold_lab.core.curves.sweep import Sweep, build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.errors import InputError

from tests.paths import ROOT


def _asah(column: str):  # type: ignore[no-untyped-def]
    with (ROOT / "tests" / "data" / "asah.csv").open() as f:
        rows = list(csv.DictReader(f))
    y = np.array([r["outcome"] == "Poor" for r in rows])
    return build_sweep(make_dataset(np.array([float(r[column]) for r in rows]), y))


# pROC's tests/testthat/test-auc.R: auc(roc(outcome, wfns|ndka), partial.auc=c(a, b),
# partial.auc.focus=, partial.auc.correct=). Specificity (a, b) is FPR [1 − a, 1 − b];
# sensitivity (a, b) is TPR [b, a]. None: pROC gives NA (below the chance line).
PROC = [
    ("wfns", "fpr", 0.0, 0.1, 0.0334417344173442, 0.649693339038653),
    ("wfns", "fpr", 0.1, 0.2, 0.0598373983739837, 0.763749402199904),
    ("wfns", "fpr", 0.5, 1.0, 0.488134475939354, 0.952537903757416),
    ("wfns", "fpr", 0.0, 1.0, 0.823678861788618, 0.823678861788618),
    ("wfns", "tpr", 0.9, 1.0, 0.0400999322493225, 0.68473648552275),
    ("wfns", "tpr", 0.8, 0.9, 0.0609953703703703, 0.770561002178649),
    ("wfns", "tpr", 0.0, 0.5, 0.483358739837398, 0.933434959349593),
    ("wfns", "tpr", 0.0, 1.0, 0.823678861788618, 0.823678861788618),
    ("ndka", "fpr", 0.0, 0.1, 0.0107046070460705, 0.530024247610897),
    ("ndka", "fpr", 0.1, 0.2, 0.0277777777777778, 0.575163398692811),
    ("ndka", "fpr", 0.5, 1.0, 0.416836043360434, 0.667344173441734),
    ("ndka", "tpr", 0.9, 1.0, 0.0037940379403794, None),
    ("ndka", "tpr", 0.8, 0.9, 0.0242547425474255, 0.554439662043679),
    ("ndka", "tpr", 0.0, 0.5, 0.428523035230352, 0.714092140921409),
]


@pytest.mark.parametrize(("column", "focus", "low", "high", "area", "standardised"), PROC)
def test_partial_auc_is_procs_on_asah(
    column: str, focus: str, low: float, high: float, area: float, standardised: float | None
) -> None:
    p = partial_auc(_asah(column), focus, low, high)  # type: ignore[arg-type]
    assert p.area.value == pytest.approx(area, abs=1e-13)
    assert p.area.exact is not None
    if standardised is None:
        assert p.standardised.value is None
        assert (
            p.standardised.reason is not None and "below the chance line" in p.standardised.reason
        )
    else:
        assert p.standardised.value == pytest.approx(standardised, abs=1e-13)


def _polyline(s: Sweep) -> list[tuple[Fraction, Fraction]]:
    """Every sweep point's (FPR, TPR) as fractions (whole counts)."""
    P, N = int(s.positives), int(s.negatives)
    return [(Fraction(int(f), N), Fraction(int(t), P)) for t, f in zip(s.tp, s.fp, strict=True)]


def _brute_area(points, focus: str, low: Fraction, high: Fraction) -> Fraction:  # type: ignore[no-untyped-def]
    """Each segment clipped to [low, high] along the focus, its trapezoid summed."""
    total = Fraction(0)
    for (f0, t0), (f1, t1) in itertools.pairwise(points):
        a0, a1, o0, o1 = (f0, f1, t0, t1) if focus == "fpr" else (t0, t1, 1 - f0, 1 - f1)
        if a1 == a0:
            continue
        lo, hi = max(a0, low), min(a1, high)
        if lo >= hi:
            continue
        o_lo = o0 + (o1 - o0) * (lo - a0) / (a1 - a0)
        o_hi = o0 + (o1 - o0) * (hi - a0) / (a1 - a0)
        total += (hi - lo) * (o_lo + o_hi) / 2
    return total


def _brute_readout(points, kind: str, limit: Fraction):  # type: ignore[no-untyped-def]
    """The rule as docs/computing.md states it: the best point, the highest threshold."""
    idx = range(len(points))
    if kind == "tpr_at_fpr":
        ok = [k for k in idx if points[k][0] <= limit]
        best = max(points[k][1] for k in ok)
        k = min(k for k in ok if points[k][1] == best)
    else:
        ok = [k for k in idx if points[k][1] >= limit]
        best = min(points[k][0] for k in ok)
        k = min(k for k in ok if points[k][0] == best)
    return k


cases = st.integers(2, 40).flatmap(
    lambda n: st.tuples(
        st.lists(st.integers(0, 6), min_size=n, max_size=n),
        st.lists(st.booleans(), min_size=n, max_size=n),
    )
)
rates = st.sampled_from([0, 0.001, 0.01, 0.05, 0.1, 0.2, 0.25, 0.3, 0.5, 0.75, 0.9, 0.95, 0.99, 1])


@settings(max_examples=200, deadline=None)
@given(cases, rates, rates, st.sampled_from(["fpr", "tpr"]))
def test_partial_auc_is_the_clipped_trapezoids(case, a, b, focus) -> None:  # type: ignore[no-untyped-def]
    scores, labels = case
    if a == b or len(set(labels)) < 2:
        return
    low, high = min(a, b), max(a, b)
    s = build_sweep(make_dataset(np.array(scores, dtype=float) / 6, np.array(labels)))
    p = partial_auc(s, focus, low, high)
    want = _brute_area(_polyline(s), focus, Fraction(repr(low)), Fraction(repr(high)))
    assert p.area.exact == want
    # Row order changes nothing.
    order = np.random.default_rng(len(scores)).permutation(len(scores))
    s2 = build_sweep(
        make_dataset(np.array(scores, dtype=float)[order] / 6, np.array(labels)[order])
    )
    assert partial_auc(s2, focus, low, high).area.exact == want


@settings(max_examples=200, deadline=None)
@given(cases, rates, rates, st.sampled_from(["fpr", "tpr"]), st.integers(1, 5))
def test_partial_auc_read_from_the_aucs_running_sums_is_the_same(  # type: ignore[no-untyped-def]
    case, a, b, focus, block
) -> None:
    # Once the AUC has been summed, a partial AUC reads its running sums at each block's
    # start and only the blocks its ends fall in: the same exact area as summing every
    # segment in the region, whatever the block size.
    scores, labels = case
    if a == b or len(set(labels)) < 2:
        return
    low, high = min(a, b), max(a, b)
    data = make_dataset(np.array(scores, dtype=float) / 6, np.array(labels))
    direct = partial_auc(build_sweep(data), focus, low, high)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(blocks_module, "BLOCK", block)
        s = build_sweep(data)
        roc_auc(s)  # keeps its running sums, a block of `block` segments at a time
        via = partial_auc(s, focus, low, high)
    assert via.area.exact == direct.area.exact
    assert via.standardised.exact == direct.standardised.exact
    assert via.area.exact == _brute_area(
        _polyline(s), focus, Fraction(repr(low)), Fraction(repr(high))
    )


@settings(max_examples=200, deadline=None)
@given(cases, rates, st.sampled_from(["tpr_at_fpr", "fpr_at_tpr"]))
def test_each_readout_is_the_rules_point(case, limit, kind) -> None:  # type: ignore[no-untyped-def]
    scores, labels = case
    if len(set(labels)) < 2:
        return
    s = build_sweep(make_dataset(np.array(scores, dtype=float) / 6, np.array(labels)))
    r = readout(s, kind, limit)
    points = _polyline(s)
    k = _brute_readout(points, kind, Fraction(repr(limit)))
    assert r.point == k
    assert r.threshold == s.threshold_at(k)
    assert (r.fpr.exact, r.tpr.exact) == points[k]
    # The interpolated value lies on the polyline at exactly the limit.
    x = Fraction(repr(limit))
    if kind == "tpr_at_fpr":
        on = [t for (f, t) in points if f == x]
        if on:
            assert r.interpolated.exact == max(on)
        else:
            j = max(i for i, (f, _) in enumerate(points) if f < x)
            (f0, t0), (f1, t1) = points[j], points[j + 1]
            assert r.interpolated.exact == t0 + (t1 - t0) * (x - f0) / (f1 - f0)
    else:
        on = [f for (f, t) in points if t == x]
        if on:
            assert r.interpolated.exact == min(on)
        else:
            j = min(i for i, (_, t) in enumerate(points) if t > x)
            (f0, t0), (f1, t1) = points[j - 1], points[j]
            assert r.interpolated.exact == f0 + (f1 - f0) * (x - t0) / (t1 - t0)


@settings(max_examples=100, deadline=None)
@given(cases, st.sampled_from([0.01, 0.05, 0.1, 0.3, 0.5, 0.8, 1.0]))
def test_the_standardised_fpr_area_from_0_is_scikit_learns_max_fpr(case, max_fpr) -> None:  # type: ignore[no-untyped-def]
    scores, labels = case
    if len(set(labels)) < 2:
        return
    x = np.array(scores, dtype=float) / 6
    p = partial_auc(build_sweep(make_dataset(x, np.array(labels))), "fpr", 0.0, max_fpr)
    if p.standardised.value is None:  # below chance: scikit-learn reports it anyway
        return
    want = roc_auc_score(np.array(labels), x, max_fpr=None if max_fpr == 1.0 else max_fpr)
    assert p.standardised.value == pytest.approx(want, abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(cases, rates, st.sampled_from(["tpr_at_fpr", "fpr_at_tpr"]))
def test_whole_weights_read_out_as_repeated_rows(case, limit, kind) -> None:  # type: ignore[no-untyped-def]
    """A weight of 3 is three rows: the same point and the same rates (the weighted
    path runs through floats, the repeated rows through integers)."""
    scores, labels = case
    if len(set(labels)) < 2:
        return
    x, y = np.array(scores, dtype=float) / 6, np.array(labels)
    w = (np.arange(len(x)) % 3 + 1).astype(float) + 0.0
    heavy = build_sweep(make_dataset(x, y, weights=w * 1.0000001 / 1.0000001))
    rows = build_sweep(make_dataset(np.repeat(x, w.astype(int)), np.repeat(y, w.astype(int))))
    a, b = readout(heavy, kind, limit), readout(rows, kind, limit)
    assert a.threshold == b.threshold
    assert a.tpr.value == pytest.approx(b.tpr.value) and a.fpr.value == pytest.approx(b.fpr.value)


def test_weighted_counts_that_are_not_whole_give_decimals() -> None:
    s = build_sweep(
        make_dataset(
            np.array([0.9, 0.8, 0.7, 0.2]),
            np.array([1, 0, 1, 0]) == 1,
            weights=np.array([0.5, 1.5, 1.0, 2.0]),
        )
    )
    r = readout(s, "tpr_at_fpr", 0.5)
    assert r.tpr.exact is None and r.tpr.value == pytest.approx(1.0)
    assert r.threshold == 0.7 and r.fpr.value == pytest.approx(1.5 / 3.5)
    p = partial_auc(s, "fpr", 0.0, 0.5)
    # Brute force in floats: TPR 1/3 to FPR 0 ... (0.5/1.5) then rises.
    points = [
        (Fraction(0), Fraction(0)),
        (Fraction(0), Fraction(1, 3)),
        (Fraction(3, 7), Fraction(1, 3)),
        (Fraction(3, 7), Fraction(1)),
        (Fraction(1), Fraction(1)),
    ]
    want = _brute_area(points, "fpr", Fraction(0), Fraction(1, 2))
    assert p.area.exact is None and p.area.value == pytest.approx(float(want))


def test_one_class_is_undefined_with_its_reason() -> None:
    s = build_sweep(make_dataset(np.array([0.9, 0.2]), np.array([True, True])))
    r = readout(s, "tpr_at_fpr", 0.01)
    assert r.point is None and r.threshold is None and r.counts is None
    assert r.tpr.value is None and r.reason is not None and "No actual negatives" in r.reason
    p = partial_auc(s, "fpr", 0.0, 0.1)
    assert p.area.value is None and p.area.reason is not None


def test_the_sentinel_is_the_readout_when_no_point_is_low_enough() -> None:
    s = build_sweep(make_dataset(np.array([0.9, 0.8, 0.1]), np.array([False, True, True])))
    r = readout(s, "tpr_at_fpr", 0.001)
    assert r.point == 0 and r.threshold is None and r.tpr.short() == "0/2"


@pytest.mark.parametrize(
    "text", ["", "fpr", "fpr 0.1,", "fpr 1.5", "fpr nan", "auc 0.1", "fpr a,b", "tpr -0.1"]
)
def test_a_bad_readout_names_what_is_wrong(text: str) -> None:
    with pytest.raises(InputError, match="readout"):
        parse_readouts(text)


@pytest.mark.parametrize(
    "text", ["fpr", "fpr:0.1", "fpr:0.1-0.1", "fpr:0.2-0.1", "fpr:0-2", "auc:0-0.1", "fpr:x-1"]
)
def test_a_bad_partial_auc_names_what_is_wrong(text: str) -> None:
    with pytest.raises(InputError, match="partial AUC"):
        parse_partial_auc(text)


def test_a_bootstrap_reads_each_readout_off_each_replicates_own_curve() -> None:
    """The report's intervals on a readout's TPR and FPR and on a partial AUC are the
    percentiles of the rule applied (by the brute force above) to each replicate's own
    sweep: the replicates recorded as the bootstrap draws them."""
    import threshold_lab.core.intervals.bootstrap as bs

    import threshold_lab as tl

    rng = np.random.default_rng(3)
    y = rng.random(400) < 0.4
    x = np.round(rng.normal(y * 1.0, 1.0), 1)  # ties
    seen: list[tuple[np.ndarray, np.ndarray]] = []

    def keep(s: Sweep) -> tuple[float, ...]:
        seen.append((s.tp.copy(), s.fp.copy()))
        return (0.0,)

    record = bs.CurveStatistic(keep, ("seen",), ("seen",))
    s = build_sweep(make_dataset(x, y))
    bs.bootstrap(s, 1, replicates=120, seed=11, curves=(record,))
    r = tl.report(y, x, bootstrap=120, seed=11, readout="fpr 0.1", partial_auc="fpr:0-0.2")
    brute_tpr, brute_area = [], []
    for tp, fp in seen:
        P, N = int(tp[-1]), int(fp[-1])
        pts = [(Fraction(int(f), N), Fraction(int(t), P)) for t, f in zip(tp, fp, strict=True)]
        brute_tpr.append(float(pts[_brute_readout(pts, "tpr_at_fpr", Fraction(1, 10))][1]))
        brute_area.append(float(_brute_area(pts, "fpr", Fraction(0), Fraction(1, 5))))
    d = r.to_dict()
    tpr = d["readouts"][0]["tpr"]["interval"]
    area = d["partial_auc"][0]["area"]["interval"]
    assert (tpr["low"], tpr["high"]) == pytest.approx(tuple(np.quantile(brute_tpr, [0.025, 0.975])))
    assert (area["low"], area["high"]) == pytest.approx(
        tuple(np.quantile(brute_area, [0.025, 0.975]))
    )
