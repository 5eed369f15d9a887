"""The stratified bootstrap over tie groups, the published and library oracles,
and the intervals in the report, plain mode and session."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pytest
import threshold_lab.core.intervals.bootstrap as bs
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.curves.pr import average_precision, pr_trapezoid_area
from threshold_lab.core.curves.sweep import Sweep, build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.data.presets import preset
from threshold_lab.core.decide.goal import parse_goal
from threshold_lab.core.decide.solve import Setting, threshold_statistic
from threshold_lab.core.errors import InputError
from threshold_lab.core.intervals.closed import NOT_WHOLE, delong_se, wilson
from threshold_lab.core.metrics.threshold_metrics import threshold_metrics
from threshold_lab.core.session.session import Session
from threshold_lab.tui.plain import run_plain

from tests.paths import ROOT
from tests.strategies import examples


def _sweep(
    scores: Sequence[float] | npt.NDArray[np.generic],
    labels: Sequence[int] | npt.NDArray[np.generic],
) -> Sweep:
    return build_sweep(make_dataset(np.asarray(scores, dtype=float), np.asarray(labels)))


def _replicate(sweep: Sweep, rng: np.random.Generator) -> tuple[bs.Groups, bs.Replicate, Sweep]:
    g = bs.groups_of(sweep)
    r = bs.Replicate(bs.draw(rng, g.pos, g.positives), bs.draw(rng, g.neg, g.negatives))
    return g, r, bs.replicate_sweep(sweep, g, r)


# --- one replicate's statistics are core's on the replicate's rows ----------------------


@settings(max_examples=150, deadline=None)
@given(examples(min_size=2, max_size=40), st.integers(0, 2**32 - 1))
def test_a_replicates_statistics_are_cores_on_its_counts(ex, seed) -> None:  # type: ignore[no-untyped-def]
    scores, labels = ex
    sweep = _sweep(scores, labels)
    if sweep.positives == 0 or sweep.negatives == 0:
        return
    g, r, rs = _replicate(sweep, np.random.default_rng(seed))
    assert rs.tp[-1] == sweep.positives and rs.fp[-1] == sweep.negatives  # totals kept
    ap, area = bs.replicate_summaries(g, r)
    assert ap == pytest.approx(average_precision(rs).value, abs=1e-12)
    assert area == pytest.approx(pr_trapezoid_area(rs).value, abs=1e-12)
    point = int(np.random.default_rng(seed).integers(0, sweep.size))
    tp, fp = int(rs.tp[point]), int(rs.fp[point])
    want = threshold_metrics(rs.counts_at(point), beta=2.0)
    got = bs.at_counts(tp, fp, g.positives, g.negatives, 2.0)
    for name, value in got.items():
        expected = want[name].value
        if expected is None:
            assert np.isnan(value), name
        else:
            assert value == pytest.approx(expected, abs=1e-12), name


@settings(max_examples=150, deadline=None)
@given(examples(min_size=2, max_size=40), st.integers(0, 2**32 - 1))
def test_the_row_draw_path_reads_the_same_replicate(ex, seed) -> None:  # type: ignore[no-untyped-def]
    """The fast path (drawn rows binned by positive group) gives what the per-group
    counts of the same draws give, the counts at the active point included."""
    scores, labels = ex
    sweep = _sweep(scores, labels)
    if sweep.positives == 0 or sweep.negatives == 0:
        return
    rng = np.random.default_rng(seed)
    point = int(rng.integers(0, sweep.size))
    g = bs.groups_of(sweep)
    rows = bs.RowMaps.of(g, point)
    drawn_pos = rng.integers(0, g.positives, g.positives)
    drawn_neg = rng.integers(0, g.negatives, g.negatives)
    r = bs.Replicate(rows.pos_counts(drawn_pos), rows.neg_counts(drawn_neg))
    assert rows.summaries(r.pos, drawn_neg) == pytest.approx(
        bs.replicate_summaries(g, r), abs=1e-12
    )
    rs = bs.replicate_sweep(sweep, g, r)
    assert np.count_nonzero(drawn_pos < rows.pos_cut) == rs.tp[point]
    assert np.count_nonzero(drawn_neg < rows.neg_cut) == rs.fp[point]


@settings(max_examples=80, deadline=None)
@given(examples(min_size=2, max_size=30), st.integers(0, 2**32 - 1))
def test_the_bands_read_each_replicates_curve_at_the_grid(ex, seed) -> None:  # type: ignore[no-untyped-def]
    scores, labels = ex
    sweep = _sweep(scores, labels)
    if sweep.positives == 0 or sweep.negatives == 0:
        return
    g, r, rs = _replicate(sweep, np.random.default_rng(seed))
    tpr, precision = bs._curves(g, r)
    fpr_pts, tpr_pts = rs.fp / rs.negatives, rs.tp / rs.positives
    for f, got in zip(bs.GRID, tpr, strict=True):
        # The highest TPR at exactly f (a vertical run), else along the segment.
        at = np.isclose(fpr_pts, f, rtol=0, atol=1e-12)
        if at.any():
            want = tpr_pts[at].max()
        else:
            j = int(np.flatnonzero(fpr_pts < f).max())
            want = tpr_pts[j] + (f - fpr_pts[j]) / (fpr_pts[j + 1] - fpr_pts[j]) * (
                tpr_pts[j + 1] - tpr_pts[j]
            )
        assert got == pytest.approx(want, abs=1e-9)
    recall = rs.tp / rs.positives
    for x, got in zip(bs.PR_GRID, precision, strict=True):
        k = int(np.flatnonzero(recall >= x - 1e-12)[0])  # the first point reaching it
        assert got == pytest.approx(rs.tp[k] / (rs.tp[k] + rs.fp[k]), abs=1e-12)


# --- the distribution: tie groups are rows ------------------------------------------------


def _ap_by_rows(scores: np.ndarray, labels: np.ndarray, b: int, seed: int) -> np.ndarray:
    """The naive stratified bootstrap: resample each class's rows, rebuild, compute AP."""
    rng = np.random.default_rng(seed)
    pos, neg = scores[labels == 1], scores[labels == 0]
    out = np.empty(b)
    for i in range(b):
        s = np.concatenate([rng.choice(pos, pos.size), rng.choice(neg, neg.size)])
        y = np.concatenate([np.ones(pos.size, int), np.zeros(neg.size, int)])
        out[i] = average_precision(_sweep(s, y)).value
    return out


def _ap_by_groups(sweep, b: int, seed: int) -> np.ndarray:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    g = bs.groups_of(sweep)
    out = np.empty(b)
    for i in range(b):
        r = bs.Replicate(bs.draw(rng, g.pos, g.positives), bs.draw(rng, g.neg, g.negatives))
        out[i] = bs.replicate_summaries(g, r)[0]
    return out


@pytest.mark.parametrize("multinomial", [False, True])
def test_tie_group_resampling_matches_row_resampling_in_distribution(
    multinomial: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Seeded: 3000 replicates each way on 60 rows in 7 tie groups. The two AP
    distributions agree (two-sample Kolmogorov-Smirnov p > 0.001, means within
    0.01, spreads within 10%): a loose check that one law is drawn two ways,
    through row positions and (forced) through the multinomial."""
    from scipy.stats import ks_2samp

    if multinomial:
        monkeypatch.setattr(bs, "ROW_DRAW_LIMIT", 0)
    rng = np.random.default_rng(7)
    scores = rng.integers(0, 7, 60) / 7
    labels = (rng.random(60) < 0.2 + 0.6 * scores).astype(int)
    rows = _ap_by_rows(scores, labels, 3000, 1)
    groups = _ap_by_groups(_sweep(scores, labels), 3000, 2)
    assert ks_2samp(rows, groups).pvalue > 0.001
    assert abs(rows.mean() - groups.mean()) < 0.01
    assert groups.std() == pytest.approx(rows.std(), rel=0.1)


def test_the_draw_keeps_each_group_count_and_the_total() -> None:
    rng = np.random.default_rng(0)
    counts = np.array([3, 1, 5, 1], dtype=np.int64)
    for limit in (bs.ROW_DRAW_LIMIT, 0):
        bs_limit = bs.ROW_DRAW_LIMIT
        try:
            bs.ROW_DRAW_LIMIT = limit
            drawn = np.array([bs.draw(rng, counts, 10) for _ in range(4000)])
        finally:
            bs.ROW_DRAW_LIMIT = bs_limit
        assert (drawn.sum(axis=1) == 10).all()
        # Each group's count is Binomial(10, c/10): mean c, variance c(1 - c/10).
        assert drawn.mean(axis=0) == pytest.approx(counts, abs=0.1)
        assert drawn.var(axis=0) == pytest.approx(counts * (1 - counts / 10), rel=0.1)


# --- the bootstrap as a whole ---------------------------------------------------------


def test_a_seed_reproduces_and_another_seed_differs() -> None:
    s = build_sweep(preset("good").data)
    one = bs.bootstrap(s, s.size // 2, replicates=300, seed=5)
    again = bs.bootstrap(s, s.size // 2, replicates=300, seed=5)
    other = bs.bootstrap(s, s.size // 2, replicates=300, seed=6)
    a, b, c = (x.estimates["average_precision"].interval for x in (one, again, other))
    assert a == b and a != c
    assert a is not None and a.method == "bootstrap" and a.replicates == 300 and a.seed == 5
    assert a.as_json()["replicates"] == 300 and a.as_json()["seed"] == 5


def test_intervals_shrink_as_n_grows_and_hold_the_estimate() -> None:
    widths = []
    for n in (200, 2000, 20000):
        rng = np.random.default_rng(n)
        y = (rng.random(n) < 0.3).astype(int)
        s = rng.random(n) + 0.8 * y
        sweep = _sweep(s, y)
        b = bs.bootstrap(sweep, sweep.size // 2, replicates=200, seed=1)
        ap = b.estimates["average_precision"].interval
        assert ap is not None
        value = average_precision(sweep).value
        assert value is not None
        assert ap.low <= value <= ap.high
        widths.append(ap.high - ap.low)
    assert widths[0] > widths[1] > widths[2]
    assert widths[0] / widths[2] == pytest.approx(10, rel=0.5)  # about sqrt(100)


def test_a_statistic_undefined_in_too_many_replicates_has_no_interval() -> None:
    s = build_sweep(preset("canonical").data)
    b = bs.bootstrap(s, 2, replicates=400, seed=1)
    mcc = b.estimates["mcc"]
    assert mcc.interval is None and "MCC was undefined in" in str(mcc.reason)
    f1 = b.estimates["f1"]
    assert f1.interval is not None and f1.undefined == 0


def test_no_bootstrap_without_whole_counts_or_both_classes() -> None:
    data = make_dataset([0.9, 0.4, 0.2], [1, 0, 1], weights=[0.5, 1.0, 2.0])
    b = bs.bootstrap(build_sweep(data), 1, replicates=10)
    assert all(e.reason == NOT_WHOLE for e in b.estimates.values())
    one_class = bs.bootstrap(_sweep([0.9, 0.4], [1, 1]), 1, replicates=10)
    assert "no actual negatives" in str(one_class.estimates["average_precision"].reason)


def test_progress_is_told_and_false_cancels() -> None:
    """Told by the clock (tests/core/intervals/test_bootstrap_pace.py): here a clock
    a second on at every reading reports after every piece of work."""
    s = build_sweep(preset("good").data)
    seen: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> bool:
        seen.append((done, total))
        return True

    ticks = iter(range(10**9))
    bs.bootstrap(s, 1, replicates=400, progress=progress, clock=lambda: float(next(ticks)))
    assert seen[-1] == (400, 400) and len(seen) >= 400
    with pytest.raises(bs.Cancelled):
        bs.bootstrap(
            s, 1, replicates=400, progress=lambda d, t: d < 50, clock=lambda: float(next(ticks))
        )


def test_a_threshold_move_counts_the_same_replicates_at_the_new_point() -> None:
    """With a finished run as the base, only the point is counted again: the result
    is the full run's at that point, the bands and summaries kept as they were."""
    s = build_sweep(preset("good").data)
    first = bs.bootstrap(s, 3, replicates=300, seed=2, bands=True)
    full = bs.bootstrap(s, 9, replicates=300, seed=2, bands=True)
    moved = bs.bootstrap(s, 9, replicates=300, seed=2, base=first)
    assert moved.estimates == full.estimates and moved.point == 9
    assert moved.bands is first.bands


def test_narrow_intervals_get_the_decimals_that_tell_their_ends_apart() -> None:
    from threshold_lab.core.intervals.closed import Interval

    assert Interval(0.2, 0.9, "wilson", 0.95, 3).text() == "95% CI 0.20 to 0.90, Wilson, n = 3"
    narrow = Interval(0.7612, 0.7672, "delong", 0.95)
    assert narrow.short() == "95% CI 0.7612 to 0.7672"
    assert Interval(0.5, 0.5, "delong", 0.95).short() == "95% CI 0.50 to 0.50"
    # n is written as the counts beside it are (1178 of 5000), not 193,391
    assert Interval(0.1, 0.2, "wilson", 0.95, 193391).short().endswith("n = 193391")


def test_a_bootstrap_interval_of_no_width_says_why() -> None:
    from threshold_lab.core.intervals.closed import Interval

    # Separable rows: every replicate ranks every positive above every negative, so AP
    # is 1 in each; the interval 1.00 to 1.00 is said with that reason.
    s = build_sweep(make_dataset([0.9, 0.8, 0.7, 0.3, 0.2, 0.1], [1, 1, 1, 0, 0, 0]))
    b = bs.bootstrap(s, 3, replicates=200, seed=1)
    ap = b.estimate("average_precision")
    assert ap is not None and ap.interval is not None
    assert ap.interval.low == ap.interval.high == 1.0
    why = "; every replicate gave the same value"
    assert ap.interval.text() == f"95% CI 1.00 to 1.00, bootstrap, B = 200{why}"
    assert ap.interval.short() == f"95% CI 1.00 to 1.00, bootstrap{why}"
    # Equal ends with some replicates apart: only the middle ones agreed.
    some = Interval(0.83, 0.83, "bootstrap", 0.95, replicates=1000, seed=1)
    assert some.short().endswith("; the middle 95% of replicates gave the same value")
    # An interval with width, or a closed-form one, is said as before.
    assert ";" not in Interval(0.5, 0.6, "bootstrap", 0.95, replicates=200, seed=1).short()
    assert Interval(0.5, 0.5, "delong", 0.95).short() == "95% CI 0.50 to 0.50"


def test_a_goals_threshold_gets_an_interval_among_the_scores() -> None:
    s = build_sweep(preset("good").data)
    goal = parse_goal("max f1")
    b = bs.bootstrap(s, 1, replicates=200, goal=threshold_statistic(goal, Setting(s, 2.0)))
    e = b.estimates["goal_threshold"]
    assert e.interval is not None
    assert set((e.interval.low, e.interval.high)) <= set(s.thresholds.tolist()) or (
        s.thresholds.min() <= e.interval.low <= e.interval.high <= s.thresholds.max()
    )


def test_replicates_and_seeds_are_checked() -> None:
    assert bs.parse_replicates("1000") == 1000
    for bad in ("1", "2", "99", "0", "x", "100001", "1e3"):
        with pytest.raises(ValueError):
            bs.parse_replicates(bad)
    assert bs.parse_seed("0") == 0
    for bad in ("-1", "x", str(2**63)):
        with pytest.raises(ValueError):
            bs.parse_seed(bad)


# --- published and library oracles ----------------------------------------------------


def test_wilson_matches_statsmodels() -> None:
    proportion = pytest.importorskip("statsmodels.stats.proportion")
    for k, n in [(0, 1), (1, 1), (2, 3), (7, 10), (0, 50), (50, 50), (13, 977), (5000, 9999)]:
        for c in (0.8, 0.95, 0.99):
            want = proportion.proportion_confint(k, n, alpha=1 - c, method="wilson")
            assert wilson(k, n, c) == pytest.approx(want, abs=1e-12)


def _asah(column: str) -> tuple[np.ndarray, list[bool]]:
    import csv

    with open(ROOT / "tests" / "data" / "asah.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    return np.array([float(r[column]) for r in rows]), [r["outcome"] == "Poor" for r in rows]


def test_delong_matches_procs_published_asah_intervals() -> None:
    """pROC's aSAH example (tests/data/README.md): ``ci.auc(roc(outcome, ndka))`` is
    0.501244999271703, 0.611957994579946, 0.722670989888189 in pROC's test suite
    (tests/testthat/test-ci.auc.R), and its documentation prints s100b's as
    "Area under the curve: 0.7314, 95% CI: 0.6301-0.8326 (DeLong)"."""
    from threshold_lab.core.intervals.closed import delong

    scores, labels = _asah("ndka")
    interval, se, _ = delong(_sweep(scores, labels))
    auc = delong_se(_sweep(scores, labels))[0]
    assert interval is not None and se is not None
    assert (interval.low, auc, interval.high) == pytest.approx(
        (0.501244999271703, 0.611957994579946, 0.722670989888189), abs=1e-12
    )
    scores, labels = _asah("s100b")
    interval, _, _ = delong(_sweep(scores, labels))
    auc = delong_se(_sweep(scores, labels))[0]
    assert interval is not None and auc is not None
    assert (round(auc, 4), round(interval.low, 4), round(interval.high, 4)) == (
        0.7314,
        0.6301,
        0.8326,
    )


def test_hanley_and_mcneil_1982_rating_data() -> None:
    """Hanley & McNeil (Radiology 143:29-36, 1982), table 1: 109 CT images rated 1-5;
    58 normal (33, 6, 6, 11, 2) and 51 abnormal (3, 2, 2, 11, 33). The paper's area is
    0.893 and its standard error 0.032 (their exponential approximation, not DeLong's,
    so DeLong's is checked near it, within 0.002)."""
    neg, pos = [33, 6, 6, 11, 2], [3, 2, 2, 11, 33]
    scores = (
        np.repeat(np.arange(1.0, 6.0), neg).tolist() + np.repeat(np.arange(1.0, 6.0), pos).tolist()
    )
    labels = [0] * 58 + [1] * 51
    auc, se, _ = delong_se(_sweep(scores, labels))
    assert auc is not None and se is not None
    assert round(auc, 3) == 0.893
    assert se == pytest.approx(0.032, abs=0.002)
    # Aggregated counts (score, positives, negatives) are the same examples.
    agg = make_dataset([1.0, 2, 3, 4, 5] * 2, [1] * 5 + [0] * 5, weights=pos + neg)
    assert delong_se(build_sweep(agg))[1] == pytest.approx(se, rel=1e-12)


# --- the report, plain mode and the session -------------------------------------------


def _report(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "threshold_lab", "report", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )


def test_report_json_carries_bootstrap_intervals_bands_and_the_goals_threshold() -> None:
    out = _report("delivery-a", "--json", "--bootstrap", "200", "--seed", "3", "--goal", "max f1")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["intervals"] == {"confidence": 0.95, "bootstrap": {"replicates": 200, "seed": 3}}
    ap = doc["pr"]["average_precision"]["interval"]
    assert ap["method"] == "bootstrap" and ap["replicates"] == 200 and ap["seed"] == 3
    assert 0 <= ap["low"] <= 0.7 <= ap["high"] <= 1
    assert doc["metrics"]["f1"]["interval"]["method"] == "bootstrap"
    assert doc["metrics"]["precision"]["interval"]["method"] == "wilson"
    assert doc["roc"]["auc"]["interval"]["method"] == "delong"
    assert len(doc["bands"]["roc"]["fpr"]) == 101 and len(doc["bands"]["pr"]["recall"]) == 100
    roc = doc["bands"]["roc"]
    assert all(lo <= hi for lo, hi in zip(roc["tpr_low"], roc["tpr_high"], strict=True))
    assert doc["goal"]["threshold_interval"]["method"] == "bootstrap"
    # Reproducible: the same seed, the same numbers.
    again = json.loads(_report("delivery-a", "--json", "--bootstrap", "200", "--seed", "3").stdout)
    assert again["pr"]["average_precision"]["interval"] == ap


def test_report_without_bootstrap_says_why_the_rest_has_no_interval() -> None:
    doc = json.loads(_report("delivery-a", "--json", "--confidence", "0.9").stdout)
    assert doc["intervals"] == {"confidence": 0.9, "bootstrap": None}
    assert doc["metrics"]["precision"]["interval"]["confidence"] == 0.9
    assert doc["pr"]["average_precision"]["interval"] is None
    assert "bootstrap" in doc["pr"]["average_precision"]["interval_reason"]
    assert doc["metrics"]["f1"]["interval"] is None


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--bootstrap", "1"], "out of range"),
        (["--bootstrap", "many"], "give --bootstrap after SOURCE"),
        (["--confidence", "95%"], "not a percentage"),
        (["--confidence", "1"], "strictly between 0 and 1"),
        (["--seed", "4"], "--seed needs --bootstrap"),
        (["--bootstrap", "100", "--seed", "-1"], "seed -1 is out of range"),
    ],
)
def test_bad_interval_options_are_one_clear_line(args: list[str], words: str) -> None:
    out = _report("canonical", *args)
    assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_plain_mode_intervals_and_bootstrap() -> None:
    s = Session(preset("delivery-a").data, 0.7, source="preset delivery-a")
    out = io.StringIO()
    script = (
        "metrics\nbootstrap 200 seed 4\npr\nintervals off\nmetrics\nintervals 0.8\nroc\n"
        "bootstrap nope\n"
    )
    run_plain(s, io.StringIO(script), out, prompt=False)
    text = out.getvalue()
    assert (
        "precision = TP/(TP+FP) = 1/(1+2) = 1/3 ≈ 0.3333 (95% CI 0.06 to 0.79, Wilson, n = 3)"
        in text
    )
    assert "Bootstrap: 200 replicates, seed 4" in text
    assert "Average precision 7/10: 95% CI" in text and "bootstrap, B = 200" in text
    assert "pointwise band (bootstrap, B = 200): precision at recall 0.1" in text
    off = text.split("Intervals off.")[1].split("Intervals on")[0]
    assert "CI" not in off
    assert "ROC AUC 80% CI" in text and "TPR at FPR 0.1 is" in text
    assert "error: bootstrap replicates 'nope' is not a whole number" in text


def test_a_session_keeps_a_bootstrap_for_its_rows_only() -> None:
    s = Session(preset("delivery-a").data, 0.7, source="x")
    assert s.boot_job() is None  # none asked for
    s.set_bootstrap("100")
    job = s.boot_job()
    assert job is not None
    result = job.run()
    s.set_threshold(0.5)  # moved before it finished: AP stands, F1 is for 0.7's point
    assert s.boot_done(job, result)
    sure = s.current().sure
    assert sure is not None and sure.estimate("average_precision").interval is not None
    assert sure.estimate("f1", s.analysis.point).reason == "the bootstrap ran at another threshold"
    assert s.boot_job() is not None  # the new point's run is wanted
    s.flip_label(0)  # other rows: the old run no longer belongs
    sure = s.current().sure
    assert sure is not None and sure.boot is None
    late = s.boot_job()
    assert late is not None
    s.flip_label(0)
    assert not s.boot_done(late, late.run())  # finished for rows that changed since
    with pytest.raises(InputError, match="give on, off or a confidence"):
        s.set_intervals("maybe")
    assert s.set_intervals("off").sure is None
