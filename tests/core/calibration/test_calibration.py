"""Calibration in core (bins, ECE, MCE, the Brier decomposition), gains, lift,
KS, and monotone transforms, each against a direct oracle."""

from __future__ import annotations

import math
import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import analyse
from threshold_lab.core.calibration.gains import gains, ks_statistic, lift
from threshold_lab.core.calibration.reliability import calibration, parse_binning, parse_bins
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.data.presets import preset
from threshold_lab.core.errors import InputError
from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.metrics.probability import brier_score
from threshold_lab.core.transform import apply, average_ranks, parse_transform

from tests.strategies import examples

probabilities = st.lists(
    st.tuples(
        st.sampled_from([0.0, 0.05, 0.1, 0.25, 0.3, 0.5, 0.7, 0.75, 0.9, 1.0]) | st.floats(0, 1),
        st.booleans(),
        st.sampled_from([1, 1, 1, 2, 3]),
    ),
    min_size=1,
    max_size=40,
)


def _oracle_bins(
    scores: list[float], labels: list[bool], weights: list[int], bins: int, binning: str
) -> list[int]:
    """Each row's bin by the rule in docs/score-meaning.md, row by row, in fractions."""
    n = sum(Fraction(w) for w in weights)
    out: list[int] = []
    for s in scores:
        if binning == "width":
            out.append(min(math.floor(s * bins), bins - 1))
        else:
            below = sum(Fraction(w) for t, w in zip(scores, weights, strict=True) if t < s)
            out.append(math.floor(bins * below / n))
    return out


@settings(max_examples=150, deadline=None)
@given(probabilities, st.integers(1, 12), st.sampled_from(["mass", "width"]))
def test_bins_ece_and_mce_match_a_row_by_row_oracle(rows, bins, binning) -> None:  # type: ignore[no-untyped-def]
    scores = [r[0] for r in rows]
    labels = [r[1] for r in rows]
    weights = [r[2] for r in rows]
    data = make_dataset(scores, labels, weights=weights)
    got = calibration(build_sweep(data), bins=bins, binning=binning)
    assert got.reason is None
    which = _oracle_bins(scores, labels, weights, bins, binning)
    n = sum(weights)
    expect = []
    for k in sorted(set(which)):
        members = [i for i in range(len(rows)) if which[i] == k]
        nb = sum(weights[i] for i in members)
        pos = sum(weights[i] for i in members if labels[i])
        mean = sum(weights[i] * scores[i] for i in members) / nb
        expect.append(
            (k, nb, pos, mean, min(scores[i] for i in members), max(scores[i] for i in members))
        )
    assert [(b.n, b.positives) for b in got.bins] == [(e[1], e[2]) for e in expect]
    for b, e in zip(got.bins, expect, strict=True):
        assert b.positive_rate.exact == Fraction(e[2], e[1])
        assert math.isclose(b.mean_score, e[3], rel_tol=1e-12, abs_tol=1e-15)
        assert (b.low_score, b.high_score) == (e[4], e[5])
        assert b.interval is not None and b.interval.low <= float(b.positive_rate.exact) <= (
            b.interval.high
        )
    gaps = [abs(e[2] / e[1] - e[3]) for e in expect]
    ece = sum(e[1] / n * g for e, g in zip(expect, gaps, strict=True))
    assert math.isclose(got.ece.value or 0.0, ece, rel_tol=1e-12, abs_tol=1e-15)
    assert math.isclose(got.mce.value or 0.0, max(gaps), rel_tol=1e-12, abs_tol=1e-15)
    # A tie group never straddles two bins.
    for s in set(scores):
        assert len({which[i] for i in range(len(rows)) if scores[i] == s}) == 1


def test_a_tie_group_straddling_a_quantile_stays_in_one_bin() -> None:
    # canonical: 0.1, 0.4, 0.8, 0.8, 0.9 (ascending). Two bins: the 0.8 pair has 2 of 5
    # rows below it, floor(2 * 2 / 5) = 0, so both join the lower bin.
    c = calibration(build_sweep(preset("canonical").data), bins=2)
    assert [(b.n, b.positive_rate.short(), b.low_score, b.high_score) for b in c.bins] == [
        (4, "2/4", 0.1, 0.8),
        (1, "1/1", 0.9, 0.9),
    ]
    assert math.isclose(c.ece.value or 0, 4 / 5 * abs(0.5 - 0.525) + 1 / 5 * abs(1 - 0.9))
    # Width: 0.1 -> 1, 0.4 -> 4, 0.8 -> 8, 0.9 -> 9, and 1.0 goes to the last bin.
    w = calibration(
        build_sweep(make_dataset([0.1, 0.4, 0.8, 1.0], [0, 0, 1, 1])), bins=10, binning="width"
    )
    assert [(b.low_score, b.n) for b in w.bins] == [(0.1, 1), (0.4, 1), (0.8, 1), (1.0, 1)]
    assert (
        calibration(build_sweep(make_dataset([0.7], [1])), bins=10, binning="width")
        .bins[0]
        .low_score
        == 0.7
    )  # in bin 7 (0.7 * 10 in double precision is 7.0)


@settings(max_examples=150, deadline=None)
@given(probabilities)
def test_the_brier_decomposition_is_an_identity(rows) -> None:  # type: ignore[no-untyped-def]
    data = make_dataset([r[0] for r in rows], [r[1] for r in rows], weights=[r[2] for r in rows])
    c = calibration(build_sweep(data))
    brier = brier_score(data).value
    rel, res, unc = c.reliability.value, c.resolution.value, c.uncertainty.value
    assert brier is not None and rel is not None and res is not None and unc is not None
    assert abs((rel - res + unc) - brier) <= 1e-12
    assert rel >= 0 and res >= 0 and 0 <= unc <= 0.25


def test_scores_outside_0_1_have_no_calibration_and_say_which() -> None:
    c = calibration(build_sweep(make_dataset([-0.5, 0.3, 0.9], [0, 1, 1])))
    assert c.bins == () and c.ece.value is None
    assert c.reason == (
        "calibration needs scores in [0, 1] (probabilities); the lowest score is -0.5"
    )
    high = calibration(build_sweep(make_dataset([0.2, 3.5], [0, 1])))
    assert high.reason is not None and high.reason.endswith("the highest score is 3.5")
    assert high.reliability.reason == high.reason


def test_bins_and_binning_are_parsed_with_clear_refusals() -> None:
    assert parse_bins("12") == 12 and parse_binning("Width") == "width"
    for bad in ("0", "x", "1001", "2.5"):
        with pytest.raises(InputError, match="bins must be"):
            parse_bins(bad)
    with pytest.raises(InputError, match="binning is mass"):
        parse_binning("quantile")


# --- gains, lift, KS -----------------------------------------------------------------


@settings(max_examples=150, deadline=None)
@given(examples())
def test_ks_is_the_brute_force_max_of_tpr_minus_fpr(ex) -> None:  # type: ignore[no-untyped-def]
    scores, labels = ex[0].tolist(), [bool(y) for y in ex[1]]
    data = make_dataset(scores, labels)
    sweep = build_sweep(data)
    k = ks_statistic(sweep)
    p, n = sum(labels), len(labels) - sum(labels)
    if p == 0 or n == 0:
        assert k.value.value is None and k.threshold is None
        return
    best, at = Fraction(-2), None
    for t in [None, *sorted(set(scores), reverse=True)]:  # fewest predicted first
        tp = sum(1 for s, y in zip(scores, labels, strict=True) if y and t is not None and s >= t)
        fp = sum(
            1 for s, y in zip(scores, labels, strict=True) if not y and t is not None and s >= t
        )
        d = Fraction(tp, p) - Fraction(fp, n)
        if d > best:
            best, at = d, t
    assert k.value.exact == best and k.threshold == at
    youden = analyse(data, at).metrics["recall"].exact - analyse(data, at).metrics["fpr"].exact  # type: ignore[operator]
    assert youden == best


def test_lift_is_precision_over_prevalence_with_its_reasons() -> None:
    m = lift(Counts(tp=1, fp=2, tn=6, fn=1))  # delivery-a at 0.7
    assert m.exact == Fraction(1, 3) / Fraction(2, 10) == Fraction(5, 3)
    assert m.describe() == "lift = precision/prevalence = (1/(1+2))/((1+1)/10) = 5/3 ≈ 1.6667"
    assert lift(Counts(tp=0, fp=0, tn=3, fn=2)).reason == (
        "No predicted positives (TP+FP=0): precision is undefined"
    )
    assert lift(Counts(tp=0, fp=2, tn=3, fn=0)).reason == (
        "No actual positives (TP+FN=0): the prevalence is 0"
    )


def test_gains_run_from_0_0_to_1_1_over_the_exact_sweep() -> None:
    g = gains(build_sweep(preset("delivery-a").data))
    assert g is not None and g.prevalence == 0.2
    assert (g.x[0], g.y[0], g.x[-1], g.y[-1]) == (0.0, 0.0, 1.0, 1.0)
    assert g.x.tolist()[:3] == [0.0, 0.1, 0.2] and g.y.tolist()[:3] == [0.0, 0.5, 0.5]
    assert gains(build_sweep(preset("no-actual-positives").data)) is None


# --- transforms ------------------------------------------------------------------------


def test_seed_004_squaring_keeps_the_ranking_and_moves_the_decisions() -> None:
    data = preset("delivery-a").data
    applied = apply(parse_transform("square"), data)
    squared = data.with_scores(applied.scores)
    before, after = analyse(data, 0.7), analyse(squared, 0.7)
    assert after.curves.summaries.roc_auc.exact == before.curves.summaries.roc_auc.exact
    assert after.curves.summaries.roc_auc.exact == Fraction(13, 16)
    assert after.curves.summaries.average_precision.value == pytest.approx(0.7)
    c = after.counts
    assert (c.tp, c.fp) == (1, 1)
    assert after.metrics["precision"].exact == Fraction(1, 2)
    assert after.metrics["recall"].exact == Fraction(1, 2)
    t = applied.equivalent_threshold(0.7)
    assert t == 0.49
    assert analyse(squared, t).metrics["precision"].exact == Fraction(1, 3)
    assert applied.equivalent_threshold(None) is None


TRANSFORMS = ["square", "sqrt", "log", "logit", "expit", "rank", "affine:2.5,-1", "affine:0.001,3"]


@settings(max_examples=200, deadline=None)
@given(examples(), st.sampled_from(TRANSFORMS), st.floats(0, 1.2) | st.none())
def test_an_allowed_transform_keeps_the_sweep_and_maps_each_point(ex, name, t) -> None:  # type: ignore[no-untyped-def]
    data = make_dataset(*ex)
    try:
        applied = apply(parse_transform(name), data)
    except InputError as err:  # a score outside its domain: refused naming the row
        assert "row" in str(err)
        return
    new = data.with_scores(applied.scores)
    a, b = build_sweep(data), build_sweep(new)
    assert a.tp.tolist() == b.tp.tolist() and a.fp.tolist() == b.fp.tolist()
    sa, sb = analyse(data, None).curves.summaries, analyse(new, None).curves.summaries
    assert sa.roc_auc.exact == sb.roc_auc.exact
    assert sa.average_precision.value == sb.average_precision.value
    # Each operating point's threshold maps to the transformed one, deciding alike.
    for k in range(1, a.size):
        tk = a.threshold_at(k)
        eq = applied.equivalent_threshold(tk)
        assert b.index_of(eq) == k
    if t is not None:
        eq = applied.equivalent_threshold(t)
        assert (np.asarray(data.scores) >= t).tolist() == (
            [False] * data.n if eq is None else (np.asarray(new.scores) >= eq).tolist()
        )


def test_transforms_refuse_naming_the_row() -> None:
    zero = make_dataset([0.0, 0.5, 0.9], [0, 1, 1], ids=["a", "b", "c"])
    with pytest.raises(
        InputError,
        match=re.escape("log is defined and increasing on scores > 0 only; row a has score 0.0"),
    ):
        apply(parse_transform("log"), zero)
    one = make_dataset([0.2, 1.0], [0, 1], ids=["x", "y"])
    with pytest.raises(InputError, match=re.escape("row y has score 1.0")):
        apply(parse_transform("logit"), one)
    neg = make_dataset([-0.2, 0.3], [0, 1])
    with pytest.raises(InputError, match="square is defined and increasing on scores >= 0"):
        apply(parse_transform("square"), neg)
    tiny = make_dataset([1e-200, 2e-200, 0.5], [0, 1, 1])
    with pytest.raises(InputError, match="would merge two distinct scores"):
        apply(parse_transform("square"), tiny)
    with pytest.raises(InputError, match="not a finite number"):
        apply(parse_transform("affine:1e308,1e308"), make_dataset([0.5, 2.0], [0, 1]))
    for bad, words in [
        ("cube", "no transform 'cube'; the transforms are: square"),
        ("affine:0,1", "A > 0"),
        ("affine:1", "two numbers"),
        ("affine:x,1", "two numbers"),
    ]:
        with pytest.raises(InputError, match=words):
            parse_transform(bad)


def test_rank_is_the_average_rank_scaled_to_0_1() -> None:
    assert average_ranks(np.array([0.9, 0.1, 0.4, 0.4])).tolist() == [1.0, 0.25, 0.625, 0.625]
    applied = apply(parse_transform("rank"), preset("canonical").data)
    # canonical 0.9, 0.8, 0.8, 0.4, 0.1: ranks 5, 3.5, 3.5, 2, 1 over 5.
    assert applied.scores.tolist() == [1.0, 0.7, 0.7, 0.4, 0.2]
    assert applied.equivalent_threshold(0.5) == 0.7


@settings(max_examples=100, deadline=None)
@given(examples(), st.sampled_from(TRANSFORMS), st.floats(0, 1) | st.none())
def test_a_sessions_transform_keeps_a_sweep_equal_to_a_fresh_one(ex, name, t) -> None:  # type: ignore[no-untyped-def]
    from threshold_lab.core.session.session import Session

    s = Session(make_dataset(*ex), t, source="x")
    try:
        update = s.transform(name)
    except InputError:
        return
    fresh = build_sweep(s.data)
    kept_sweep = s.analysis.sweep
    assert kept_sweep.thresholds.tolist() == fresh.thresholds.tolist()
    assert kept_sweep.tp.tolist() == fresh.tp.tolist()
    assert s.threshold == t and update.message.startswith(f"Scores transformed by {name}")
    s.undo()
    assert s.data.scores.tolist() == ex[0].tolist()
