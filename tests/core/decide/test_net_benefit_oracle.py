"""Decision curves held to dcurves 1.1.7's published numbers (its example
data, with a harm, and case-control rows at a given prevalence) to rounding, and to a
brute force in fractions over the rows themselves exactly: net benefit, acting on
everyone, net interventions avoided and the standardised net benefit at each pt (rows
with ``score >= float(pt)`` acted on, pt as written), with ties and whole weights (zero
among them); the useful range held to the same brute force at many pt; scores that are
not probabilities refused with a reason."""

from __future__ import annotations

import csv
import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.curves.sweep import Sweep, build_sweep
from threshold_lab.core.data.dataset import Dataset, make_dataset
from threshold_lab.core.decide.net_benefit import (
    DecisionCurve,
    decision_curve,
    parse_harm,
    parse_pt,
)
from threshold_lab.core.decide.net_benefit import (
    written as written_pt,
)
from threshold_lab.core.errors import InputError
from threshold_lab.core.metrics.metric import Metric

from tests.paths import ROOT

DCURVES = ROOT / "tests" / "data" / "dcurves"
GRID = parse_pt("0.01:0.99:0.01")

Row = tuple[float, bool, int]

SCORES = (
    st.integers(0, 8).map(lambda k: k / 8)
    | st.sampled_from([0.1, 0.3, 0.7, 0.9, 1e-300, 1 - 1e-12])
    | st.floats(0.0, 1.0)
)
ROWS = st.lists(st.tuples(SCORES, st.booleans(), st.integers(0, 3)), min_size=1, max_size=24)
PTS = st.lists(
    st.sampled_from([Fraction(k, 8) for k in range(1, 8)] + [Fraction(k, 10) for k in range(1, 10)])
    | st.fractions(Fraction(1, 1000), Fraction(999, 1000), max_denominator=1000),
    min_size=1,
    max_size=6,
).map(lambda ps: tuple(sorted(set(ps))))
HARMS = st.sampled_from([Fraction(0), Fraction(1, 100), Fraction(333, 10000), Fraction(1, 5)])
PREVALENCES = st.sampled_from([Fraction(1, 5), Fraction(1, 2), Fraction(1, 100), Fraction(9, 10)])


# dcurves' files ------------------------------------------------------------------------


def _table(name: str) -> list[dict[str, str]]:
    with (DCURVES / name).open(newline="") as f:
        return list(csv.DictReader(f))


def _published(name: str) -> dict[str, dict[Fraction, dict[str, str]]]:
    """dcurves' rows by model and threshold (as written: 0.01 is one hundredth)."""
    out: dict[str, dict[Fraction, dict[str, str]]] = {}
    for row in _table(name):
        out.setdefault(row["model"], {})[Fraction(row["threshold"])] = row
    return out


def _curve(
    data: str, outcome: str, model: str, harm: Fraction, prevalence: Fraction | None
) -> tuple[DecisionCurve, Sweep]:
    table = _table(data)
    scores = [float(r[model]) for r in table]
    labels = [r[outcome] in ("TRUE", "1") for r in table]
    sweep = build_sweep(make_dataset(scores, labels))
    return decision_curve(sweep, GRID, harm=harm, prevalence=prevalence), sweep


def _near(ours: float | None, theirs: str | float) -> bool:
    # dcurves works in doubles; at pt = 0.99 acting on everyone is about −85, so the
    # tolerance is relative as well as absolute (both 1e-12).
    assert ours is not None
    return math.isclose(ours, float(theirs), rel_tol=1e-12, abs_tol=1e-12)


CASES = [
    ("dca_binary.csv", "df_binary.csv", "cancer", "cancerpredmarker", "0", None),
    ("dca_binary.csv", "df_binary.csv", "cancer", "famhistory", "0", None),
    ("dca_binary_harm.csv", "df_binary.csv", "cancer", "cancerpredmarker", "0.0333", None),
    ("dca_case_control.csv", "df_case_control.csv", "casecontrol", "cancerpredmarker", "0", "0.2"),
]


@pytest.mark.parametrize(("published", "data", "outcome", "model", "harm", "prevalence"), CASES)
def test_net_benefit_is_dcurves_at_every_published_threshold(
    published: str, data: str, outcome: str, model: str, harm: str, prevalence: str | None
) -> None:
    theirs = _published(published)
    given_prevalence = None if prevalence is None else Fraction(prevalence)
    d, sweep = _curve(data, outcome, model, parse_harm(harm), given_prevalence)
    assert d.reason is None and d.prevalence is not None
    n, pos, neg = sweep.positives + sweep.negatives, sweep.positives, sweep.negatives
    assert (
        [r.pt for r in d.grid] == sorted(theirs[model]) == [Fraction(k, 100) for k in range(1, 100)]
    )
    for row in d.grid:
        mine, everyone, none = theirs[model][row.pt], theirs["all"][row.pt], theirs["none"][row.pt]
        assert d.prevalence == float(mine["prevalence"])
        assert _near(row.net_benefit.value, mine["net_benefit"]), (row.pt, row.net_benefit)
        # Acting on everyone carries no harm, in dcurves as here.
        assert _near(row.treat_all.value, everyone["net_benefit"]), (row.pt, row.treat_all)
        assert float(none["net_benefit"]) == 0.0
        # dcurves' avoided interventions are per case; ours per 100 cases.
        theirs_avoided = 100 * float(mine["net_intervention_avoided"])
        assert _near(row.interventions_avoided_per_100.value, theirs_avoided), (
            row.pt,
            row.interventions_avoided_per_100,
        )
        # The rows acted on are dcurves' (risk >= threshold): its share of test
        # positives, and its TPR and FPR weighted by the prevalence.
        tp, fp = sweep.tp[row.point].item(), sweep.fp[row.point].item()
        assert _near((tp + fp) / n, mine["test_pos_rate"])
        assert _near(tp / pos * d.prevalence, mine["tp_rate"])
        assert _near(fp / neg * (1 - d.prevalence), mine["fp_rate"])
        assert row.net_benefit.exact is not None and row.net_benefit.value is not None
        assert _near(row.standardised.value, row.net_benefit.value / d.prevalence)


def test_the_json_carries_dcurves_numbers() -> None:
    theirs = _published("dca_binary.csv")
    d, _ = _curve("df_binary.csv", "cancer", "cancerpredmarker", Fraction(0), None)
    j = d.as_json()
    assert j["reason"] is None and j["harm"] == 0.0 and j["prevalence"] == 0.14
    assert len(j["grid"]) == 99
    for row in j["grid"]:
        mine = theirs["cancerpredmarker"][Fraction(row["pt"]).limit_denominator(100)]
        assert _near(row["net_benefit"], mine["net_benefit"])
        assert _near(row["treat_all"], theirs["all"][Fraction(mine["threshold"])]["net_benefit"])
    assert j["useful_range"] == [list(r) for r in d.useful_range]


# The brute force in fractions ----------------------------------------------------------


def _data(rows: list[Row], weighted: bool) -> tuple[Dataset, list[Fraction]]:
    s = np.array([r[0] for r in rows])
    y = np.array([r[1] for r in rows])
    weights = [Fraction(r[2]) if weighted else Fraction(1) for r in rows]
    if sum(weights) == 0:
        weights[0] = Fraction(1)
    w = np.array([float(x) for x in weights]) if weighted else None
    return make_dataset(s, y, weights=w), weights


class Brute:
    """Net benefit computed from the rows directly, in fractions."""

    def __init__(
        self, rows: list[Row], weights: list[Fraction], harm: Fraction, prevalence: Fraction | None
    ) -> None:
        self.rows, self.weights, self.harm, self.given = rows, weights, harm, prevalence
        self.n = sum(weights, Fraction(0))
        self.pos = sum((w for r, w in zip(rows, weights, strict=True) if r[1]), Fraction(0))
        self.neg = self.n - self.pos
        self.prevalence = self.pos / self.n if prevalence is None else prevalence

    def counts(self, pt: Fraction) -> tuple[Fraction, Fraction]:
        """TP and FP of acting on the rows with ``score >= float(pt)``."""
        return self.counts_at(float(pt))

    def counts_at(self, threshold: float) -> tuple[Fraction, Fraction]:
        pairs = zip(self.rows, self.weights, strict=True)
        acted = [(r, w) for r, w in pairs if r[0] >= threshold]
        tp = sum((w for r, w in acted if r[1]), Fraction(0))
        fp = sum((w for r, w in acted if not r[1]), Fraction(0))
        return tp, fp

    def net_benefit(self, pt: Fraction) -> Fraction:
        tp, fp = self.counts(pt)
        odds = pt / (1 - pt)
        if self.given is None:
            return tp / self.n - fp / self.n * odds - self.harm
        p = self.given
        return tp / self.pos * p - fp / self.neg * (1 - p) * odds - self.harm

    def treat_all(self, pt: Fraction) -> Fraction:
        return self.prevalence - (1 - self.prevalence) * pt / (1 - pt)

    def avoided(self, pt: Fraction) -> Fraction:
        return 100 * (self.net_benefit(pt) - self.treat_all(pt)) * (1 - pt) / pt

    def useful(self, pt: Fraction) -> bool:
        return self.net_benefit(pt) > max(self.treat_all(pt), Fraction(0))


def _exact(m: Metric) -> Fraction:
    assert m.exact is not None and m.value == float(m.exact), m
    return m.exact


@settings(max_examples=150, deadline=None)
@given(ROWS, st.booleans(), PTS, HARMS, st.none() | PREVALENCES)
def test_each_pt_is_the_brute_force_over_the_rows_in_fractions(
    rows: list[Row],
    weighted: bool,
    pts: tuple[Fraction, ...],
    harm: Fraction,
    prevalence: Fraction | None,
) -> None:
    data, weights = _data(rows, weighted)
    d = decision_curve(build_sweep(data), pts, harm=harm, prevalence=prevalence)
    brute = Brute(rows, weights, harm, prevalence)
    if prevalence is not None and not (brute.pos > 0 and brute.neg > 0):
        assert d.reason is not None and "positives and negatives" in d.reason
        assert d.grid == () and d.useful_range == ()
        return
    assert d.reason is None and d.harm == harm
    assert d.prevalence == float(brute.prevalence)
    assert [r.pt for r in d.grid] == list(pts)
    for row in d.grid:
        pt = row.pt
        acted = [r[0] for r in rows if r[0] >= float(pt)]
        assert row.threshold == (min(acted) if acted else None)
        assert _exact(row.net_benefit) == brute.net_benefit(pt)
        assert _exact(row.treat_all) == brute.treat_all(pt)
        assert _exact(row.interventions_avoided_per_100) == brute.avoided(pt)
        if brute.prevalence > 0:
            assert _exact(row.standardised) == brute.net_benefit(pt) / brute.prevalence
        else:
            assert row.standardised.value is None and row.standardised.reason is not None


@settings(max_examples=60, deadline=None)
@given(ROWS, st.booleans(), PTS, HARMS, st.none() | PREVALENCES, st.data())
def test_the_order_of_the_rows_changes_nothing(
    rows: list[Row],
    weighted: bool,
    pts: tuple[Fraction, ...],
    harm: Fraction,
    prevalence: Fraction | None,
    draw: st.DataObject,
) -> None:
    if weighted and sum(r[2] for r in rows) == 0:
        rows = [(rows[0][0], rows[0][1], 1), *rows[1:]]
    shuffled = draw.draw(st.permutations(rows))
    a = decision_curve(build_sweep(_data(rows, weighted)[0]), pts, harm=harm, prevalence=prevalence)
    b = decision_curve(
        build_sweep(_data(shuffled, weighted)[0]), pts, harm=harm, prevalence=prevalence
    )
    assert a.as_json() == b.as_json()
    assert [r.net_benefit.exact for r in a.grid] == [r.net_benefit.exact for r in b.grid]


@settings(max_examples=60, deadline=None)
@given(ROWS, st.booleans(), PTS, st.data())
def test_a_monotone_transform_of_the_scores_moves_only_which_rows_are_acted_on(
    rows: list[Row], weighted: bool, pts: tuple[Fraction, ...], draw: st.DataObject
) -> None:
    distinct = sorted({r[0] for r in rows})
    image = draw.draw(
        st.lists(st.integers(0, 1000), min_size=len(distinct), max_size=len(distinct), unique=True)
    )
    to = dict(zip(distinct, (k / 1000 for k in sorted(image)), strict=True))
    moved = [(to[s], y, w) for s, y, w in rows]
    data, weights = _data(rows, weighted)
    sweep, sweep_moved = build_sweep(data), build_sweep(_data(moved, weighted)[0])
    # The sweep holds only the scores' order: its counts do not move.
    assert sweep_moved.tp.tolist() == sweep.tp.tolist()
    assert sweep_moved.fp.tolist() == sweep.fp.tolist()
    brute = Brute(rows, weights, Fraction(0), None)
    for row in decision_curve(sweep_moved, pts).grid:
        # The point is how many of the moved scores are acted on; the net benefit is
        # the original rows' at that point (the same rows acted on), at this pt.
        k = row.point
        assert k == sum(1 for s in to.values() if s >= float(row.pt))
        tp, fp = Fraction(sweep.tp[k].item()), Fraction(sweep.fp[k].item())
        assert brute.counts_at(distinct[-k] if k else 2.0) == (tp, fp)
        odds = row.pt / (1 - row.pt)
        assert _exact(row.net_benefit) == tp / brute.n - fp / brute.n * odds


# The useful range ----------------------------------------------------------------------


def _crossings(brute: Brute) -> list[Fraction]:
    """Every pt where a set of rows acted on (those at or above a score, or none) has a
    net benefit meeting 0 or meeting acting on everyone's (linear in the odds
    pt/(1 − pt)): with the scores, every pt where the brute force's answer can change."""
    out = set()
    for t in [2.0, *{r[0] for r in brute.rows}]:  # 2: no row acted on
        for c, d in _lines(brute, *brute.counts_at(t)):
            if d != 0 and c / d > 0:
                out.add(c / d / (1 + c / d))
    return sorted(p for p in out if 0 < p < 1)


def _lines(brute: Brute, tp: Fraction, fp: Fraction) -> list[tuple[Fraction, Fraction]]:
    """(c, d) with the sign of NB − 0 and of NB − NB_all that of c − d·odds."""
    if brute.given is None:
        a = b = 1 / brute.n
    else:
        a, b = brute.given / brute.pos, (1 - brute.given) / brute.neg
    fn, tn = brute.pos - tp, brute.neg - fp
    return [(a * tp - brute.harm, b * fp), (-(a * fn + brute.harm), -(b * tn))]


@settings(max_examples=120, deadline=None)
@given(ROWS, st.booleans(), HARMS, st.none() | PREVALENCES)
def test_the_useful_range_is_where_the_brute_force_beats_everyone_and_no_one(
    rows: list[Row], weighted: bool, harm: Fraction, prevalence: Fraction | None
) -> None:
    data, weights = _data(rows, weighted)
    brute = Brute(rows, weights, harm, prevalence)
    d = decision_curve(build_sweep(data), (Fraction(1, 2),), harm=harm, prevalence=prevalence)
    if d.reason is not None:
        assert prevalence is not None
        return
    ranges = [(Fraction(lo), Fraction(hi)) for lo, hi in d.useful_range]
    assert all(0 <= lo < hi <= 1 for lo, hi in ranges)
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(ranges)), "merged, ascending"
    # Ranges touch only at a pt where the model merely ties treating none or everyone
    # (a score weighed as the pt it is written as: 0.7, not the double a hair below).
    for a, b in itertools.pairwise(ranges):
        if a[1] == b[0]:
            assert not brute.useful(written_pt(float(a[1]))), (a, b)
    scores = sorted({Fraction(r[0]) for r in rows if 0 < r[0] < 1})
    crossings = _crossings(brute)
    cuts = sorted({*scores, *crossings})
    trial = {Fraction(k, 97) for k in range(1, 97)} | {Fraction(k, 64) for k in range(1, 64)}
    ends = [Fraction(0), *cuts, Fraction(1)]
    trial |= {(x + y) / 2 for x, y in itertools.pairwise(ends)}
    near = Fraction(1, 10**9)
    for pt in sorted(trial):
        # The range's ends are doubles: a pt within rounding of a change is not judged.
        if any(abs(pt - c) < near for c in cuts):
            continue
        inside = any(lo < pt < hi for lo, hi in ranges)
        assert inside == brute.useful(pt), (pt, ranges, brute.net_benefit(pt), brute.treat_all(pt))
    # Each end is in its range (closed) exactly where the model is useful there: an end
    # at a score by the point acted on from it, at the pt the score is written as (0.7,
    # not the double below it: what "net benefit 0.7" weighs); any other end (where the
    # model ties treating all or none, or pt reaches 0 or 1) never.
    assert len(d.useful_closed) == len(ranges)
    written = {Fraction(r[0]): Fraction(repr(r[0])) for r in rows}
    for (lo, hi), (lo_in, hi_in) in zip(ranges, d.useful_closed, strict=True):
        for end, closed in ((lo, lo_in), (hi, hi_in)):
            if end in scores:
                assert closed == brute.useful(written[end]), (end, ranges, d.useful_closed)
            elif any(abs(end - c) < near for c in crossings) or end in (0, 1):
                assert not closed, (end, ranges, d.useful_closed)  # a tie, or 0 or 1
            else:
                raise AssertionError(f"an end neither a score nor a tie: {end}")
    for pt in scores:
        # At a score itself (as written) the range holds it exactly where the model is
        # useful there (a tie within rounding of it, an end of doubles, is not judged).
        if any(abs(pt - c) < near and pt != c for c in crossings):
            continue
        inside = any(
            lo < pt < hi or (pt == lo and lo_in) or (pt == hi and hi_in)
            for (lo, hi), (lo_in, hi_in) in zip(ranges, d.useful_closed, strict=True)
        )
        assert inside == brute.useful(written[pt]), (pt, ranges, d.useful_closed)


def test_a_pt_where_the_net_benefit_only_ties_splits_the_useful_range() -> None:
    # Point 1 (the positive at 0.75) beats both for pt in (1/2, 3/4); point 2 (and the
    # negative at 0.5) for pt in (1/4, 1/2), point 3 in (0, 1/4]. At pt = 1/2 exactly the
    # rows scored >= 0.5 are acted on: TP = FP = 1, net benefit 1/4 − 1/4·1 = 0, which
    # does not exceed acting on no one. The useful range is (0, 1/2) and (1/2, 3/4).
    rows: list[Row] = [(0.75, True, 1), (0.5, False, 1), (0.25, False, 1), (0.0, False, 1)]
    data, weights = _data(rows, False)
    brute = Brute(rows, weights, Fraction(0), None)
    d = decision_curve(build_sweep(data), (Fraction(1, 2),))
    assert d.grid[0].net_benefit.exact == brute.net_benefit(Fraction(1, 2)) == 0
    assert not brute.useful(Fraction(1, 2))
    assert brute.useful(Fraction(1, 4)) and brute.useful(Fraction(51, 100))
    assert d.useful_range == ((0.0, 0.5), (0.5, 0.75))
    # 3/4 is the positive's own score: acted on there (score >= pt), NB 1/4 − 0 beats
    # both, so that end is closed; 0 and 1/2 (a tie with treating none) are open.
    assert brute.useful(Fraction(3, 4))
    assert d.useful_closed == ((False, False), (False, True))
    assert d.as_json()["useful_range_closed"] == [[False, False], [False, True]]


def test_an_end_within_rounding_of_a_bound_is_judged_in_fractions() -> None:
    """Three rows at the double nearest 1/3 (one positive), five negatives at 0.1: from
    that score the precision is 1/3 exactly, which doubles cannot tell from the score.
    The score, written 0.3333333333333333, is a hair below 1/3, where the model still
    beats treating none: the end is in the range, though 1/3 itself is not."""
    third = 1 / 3
    rows: list[Row] = [(third, True, 1), (third, False, 1), (third, False, 1)]
    rows += [(0.1, False, 1)] * 5
    data, weights = _data(rows, False)
    brute = Brute(rows, weights, Fraction(0), None)
    assert third == 1.0 / (1.0 + 2.0)  # the precision in doubles is the score itself
    as_written = Fraction(repr(third))  # 0.3333333333333333, a hair below 1/3
    assert float(as_written) == third and as_written < Fraction(1, 3)
    assert brute.useful(as_written) and not brute.useful(Fraction(1, 3))
    d = decision_curve(build_sweep(data), (Fraction(1, 2),))
    assert d.useful_range == ((0.1, third),)
    assert d.useful_closed == ((False, True),)


def test_a_score_s_end_is_weighed_at_the_pt_it_is_written_as() -> None:
    """Rows scored >= 0.7 (14 delays, 6 on time of 60) tie treating none at pt = 7/10:
    14/60 − 6/60·7/3 = 0. The double 0.7 is a hair below 7/10, where they would not;
    the range splits at 0.7, as "net benefit 0.7" (NB 0, not useful) says."""
    rows: list[Row] = [(0.9, True, 6), (0.8, True, 2), (0.8, False, 1), (0.7, True, 6)]
    rows += [(0.7, False, 5), (0.6, True, 3), (0.6, False, 2), (0.5, True, 6)]
    rows += [(0.5, False, 6), (0.4, True, 1), (0.4, False, 4), (0.1, False, 22)]
    data, weights = _data(rows, True)
    brute = Brute(rows, weights, Fraction(0), None)
    assert brute.net_benefit(Fraction(7, 10)) == 0 and brute.useful(Fraction(0.7))
    d = decision_curve(build_sweep(data), (Fraction(7, 10),))
    assert d.grid[0].net_benefit.exact == 0
    assert d.useful_range == ((0.1, 0.7), (0.7, 0.9))
    assert d.useful_closed == ((False, False), (False, True))


def test_the_canonical_fixture_is_useful_up_to_and_at_0_9() -> None:
    """At pt = 0.9 the rows scored >= 0.9 are acted on (one positive): net benefit 1/5
    beats treating all (−3) and none, so 0.9 closes its range; at 0.8 the three rows
    from 0.8 are acted on, 2/5 − 1/5·4 < 0, so 0.8 is outside; 2/3 is where those three
    tie treating none, and 0.5 where they tie treating all."""
    from threshold_lab.core.data.presets import preset

    data = preset("canonical").data
    rows: list[Row] = [(0.9, True, 1), (0.8, False, 1), (0.8, True, 1), (0.4, False, 1)]
    rows.append((0.1, True, 1))
    brute = Brute(rows, [Fraction(1)] * 5, Fraction(0), None)
    d = decision_curve(build_sweep(data), (Fraction(9, 10),))
    assert brute.useful(Fraction(9, 10)) and not brute.useful(Fraction(4, 5))
    assert not brute.useful(Fraction(2, 3)) and not brute.useful(Fraction(1, 2))
    assert d.useful_range == ((0.5, 2 / 3), (0.8, 0.9))
    assert d.useful_closed == ((False, False), (False, True))


# Refusals ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scores", "end"), [([0.2, 1.5, 0.3], "highest"), ([-0.1, 0.4, 0.9], "lowest")]
)
def test_scores_outside_0_1_leave_the_curve_undefined_with_a_reason(
    scores: list[float], end: str
) -> None:
    sweep = build_sweep(make_dataset(scores, [1, 0, 1]))
    for prevalence in (None, Fraction(1, 5)):
        d = decision_curve(sweep, GRID, prevalence=prevalence)
        assert isinstance(d.reason, str) and end in d.reason and "[0, 1]" in d.reason
        assert d.grid == () and d.useful_range == ()
        assert d.as_json()["grid"] == [] and d.as_json()["reason"] == d.reason


def test_scores_of_exactly_0_and_1_are_probabilities() -> None:
    d = decision_curve(build_sweep(make_dataset([0.0, 1.0, 1.0], [0, 1, 0])), GRID)
    assert d.reason is None and len(d.grid) == 99
    assert all(
        r.net_benefit.exact == Fraction(1, 3) - Fraction(1, 3) * r.pt / (1 - r.pt) for r in d.grid
    )


def test_a_given_prevalence_without_both_classes_is_undefined() -> None:
    sweep = build_sweep(make_dataset([0.2, 0.7], [1, 1]))
    d = decision_curve(sweep, GRID, prevalence=Fraction(1, 5))
    assert d.reason is not None and d.grid == ()
    own = decision_curve(sweep, GRID)
    assert own.reason is None and own.prevalence == 1.0


def test_no_positives_leave_only_the_standardised_net_benefit_undefined() -> None:
    d = decision_curve(build_sweep(make_dataset([0.2, 0.7], [0, 0])), parse_pt("0.5"))
    row = d.grid[0]
    assert row.net_benefit.exact == Fraction(-1, 2) and row.treat_all.exact == -1
    assert row.standardised.value is None and row.standardised.reason is not None


def test_parse_pt_reads_ranges_and_lists_as_written() -> None:
    assert parse_pt("0.1:0.3:0.1") == (Fraction(1, 10), Fraction(1, 5), Fraction(3, 10))
    assert parse_pt("0.3, 1/4,0.05,0.3") == (Fraction(1, 20), Fraction(1, 4), Fraction(3, 10))
    assert tuple(Fraction(k, 100) for k in range(1, 100)) == GRID
    assert parse_pt("0.5:0.5:0.1") == (Fraction(1, 2),)


@pytest.mark.parametrize(
    "text",
    [
        "0",
        "1",
        "0.5:0.1:0.1",
        "abc",
        "0.1:0.2",
        "0.1:0.2:0",
        "0.1:0.2:-0.1",
        "",
        "0.5,1.5",
        "-0.1",
        "0.1:0.9:1e-6",
        "0.1,,0.2",
        "1/0",
    ],
)
def test_parse_pt_refuses(text: str) -> None:
    with pytest.raises(InputError):
        parse_pt(text)


@pytest.mark.parametrize("text", ["-0.01", "1", "2", "x", ""])
def test_parse_harm_refuses(text: str) -> None:
    with pytest.raises(InputError):
        parse_harm(text)


def test_parse_harm_reads_as_written() -> None:
    assert parse_harm("0.0333") == Fraction(333, 10000)
    assert parse_harm(" 0 ") == 0
