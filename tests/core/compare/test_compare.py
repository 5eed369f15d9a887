"""Several models on the same examples, compared in core and the report: the two
delivery models of the deliveries preset exactly, DeLong's paired test against an
O(n²) placement oracle and pROC's published aSAH tests, McNemar's exact test by hand."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import analyse
from threshold_lab.core.compare.models import Comparison, compare
from threshold_lab.core.compare.paired import mcnemar, paired_delong
from threshold_lab.core.data.dataset import Model, make_dataset
from threshold_lab.core.data.presets import preset
from threshold_lab.core.intervals.pvalues import binomial_two_sided

from tests.paths import ROOT
from tests.strategies import examples


def _deliveries() -> Comparison:
    a, b = preset("deliveries").models
    return compare(a, analyse(a.data, 0.7), b, analyse(b.data, 0.7))


def test_seed_004_two_models_rank_in_opposite_orders() -> None:
    c = _deliveries()
    (auc_a, auc_b), (ap_a, ap_b) = c.auc, c.ap
    assert (auc_a.exact, auc_b.exact) == (Fraction(13, 16), Fraction(7, 8))
    assert (ap_a.exact, ap_b.exact) == (Fraction(7, 10), Fraction(7, 12))
    assert c.auc_difference.exact == Fraction(-1, 16)
    assert c.ap_difference.exact == Fraction(7, 60)
    assert c.summaries_disagree is True
    # At 0.7 model A flags deliveries 1, 2, 3 (precision 1/3, recall 1/2) and model B
    # 1, 2, 5 (precision 2/3, recall 1): they differ on 3 and 5, both of which only B
    # gets right. McNemar: b = 0, c = 2, p = 2 · (1/2)² = 1/2.
    assert c.mcnemar is not None
    assert (c.mcnemar.b, c.mcnemar.c, c.mcnemar.decided_differently) == (0, 2, 2)
    assert c.mcnemar.p_value == 0.5
    assert c.sentence() == (
        "B ranks better by AUC (7/8 vs 13/16, difference 1/16, p = 0.775), A by average "
        "precision (7/10 vs 7/12): the two summaries disagree."
    )


def _placement_oracle(
    a: Sequence[float], b: Sequence[float], labels: Sequence[bool]
) -> tuple[float, float]:
    """The paired DeLong variance, pair by pair (O(n²)), ties one half."""
    pos = [i for i, y in enumerate(labels) if y]
    neg = [i for i, y in enumerate(labels) if not y]

    def psi(x: float, y: float) -> float:
        return 1.0 if x > y else 0.5 if x == y else 0.0

    def comps(s: Sequence[float]) -> tuple[list[float], list[float]]:
        v10 = [sum(psi(s[i], s[j]) for j in neg) / len(neg) for i in pos]
        v01 = [sum(psi(s[i], s[j]) for i in pos) / len(pos) for j in neg]
        return v10, v01

    (a10, a01), (b10, b01) = comps(a), comps(b)
    auc_a, auc_b = sum(a10) / len(pos), sum(b10) / len(pos)

    def cov(x: Sequence[float], y: Sequence[float], mx: float, my: float) -> float:
        return sum((p - mx) * (q - my) for p, q in zip(x, y, strict=True)) / (len(x) - 1)

    var = (
        cov(a10, a10, auc_a, auc_a) + cov(b10, b10, auc_b, auc_b) - 2 * cov(a10, b10, auc_a, auc_b)
    ) / len(pos) + (
        cov(a01, a01, auc_a, auc_a) + cov(b01, b01, auc_b, auc_b) - 2 * cov(a01, b01, auc_a, auc_b)
    ) / len(neg)
    return auc_a - auc_b, math.sqrt(max(var, 0.0))


@settings(max_examples=120, deadline=None)
@given(examples(min_size=4, max_size=30), st.integers(0, 2**32 - 1))
def test_paired_delong_matches_the_placement_oracle(ex, seed) -> None:  # type: ignore[no-untyped-def]
    scores, labels = ex
    labels = np.asarray(labels, dtype=bool)
    if labels.sum() < 2 or (~labels).sum() < 2:
        return
    rng = np.random.default_rng(seed)
    other = np.round(scores + rng.normal(0, 0.3, scores.shape[0]), 1)  # ties too
    got, why = paired_delong(scores, other, labels)
    assert got is not None, why
    diff, se = _placement_oracle(scores.tolist(), other.tolist(), labels.tolist())
    assert got.difference == pytest.approx(diff, abs=1e-12)
    assert got.se == pytest.approx(se, abs=1e-12)


def test_paired_delong_matches_procs_published_roc_tests() -> None:
    """pROC's test suite (tests/testthat/test-roc.test.R) on its aSAH data:
    roc.test(wfns, s100b), (wfns, ndka), (ndka, s100b): Z, p and the 95% interval."""
    import csv

    with open(ROOT / "tests" / "data" / "asah.csv", newline="") as f:
        rows = list(csv.DictReader(f))
    labels = np.array([r["outcome"] == "Poor" for r in rows])

    def col(name: str) -> np.ndarray:
        return np.array([float(r[name]) for r in rows])

    published = {
        ("wfns", "s100b"): (
            2.20898359144091,
            0.0271757822291882,
            0.0104061769564846,
            0.174214419249478,
        ),
        ("wfns", "ndka"): (
            2.79777591868904,
            0.00514557970691098,
            0.0634011709339876,
            0.3600405634833566,
        ),
        ("ndka", "s100b"): (
            -1.39077002573558,
            0.164295175223054,
            -0.2876917446341914,
            0.0488706064228094,
        ),
    }
    for (a, b), (z, p, low, high) in published.items():
        got, _ = paired_delong(col(a), col(b), labels)
        assert got is not None and got.z is not None
        assert (got.z, got.p_value, got.interval.low, got.interval.high) == pytest.approx(
            (z, p, low, high), abs=1e-10
        )


def test_mcnemar_exact_by_hand() -> None:
    # b = 1, c = 5: twice P(X <= 1) for X ~ Binomial(6, 1/2) = 2 · (1 + 6)/64 = 7/32.
    assert binomial_two_sided(1, 5).value == 7 / 32
    assert binomial_two_sided(3, 3).value == 1.0 and binomial_two_sided(0, 0).value == 1.0
    assert binomial_two_sided(0, 10).value == 2 / 1024
    from scipy.stats import binomtest

    for b, c in [(900, 1100), (1500, 1600), (40_000, 41_000)]:
        want = binomtest(min(b, c), b + c, 0.5).pvalue
        assert binomial_two_sided(b, c).value == pytest.approx(want, rel=1e-6)
    labels = np.array([1, 1, 0, 0, 1], dtype=bool)
    pa = np.array([1, 0, 0, 1, 1], dtype=bool)  # right on 0, 2, 4
    pb = np.array([1, 1, 1, 0, 0], dtype=bool)  # right on 0, 1, 3
    test, _ = mcnemar(pa, pb, labels, np.array([1.0, 1, 2, 1, 3]))
    assert test is not None
    assert (test.b, test.c, test.decided_differently) == (5, 2, 7)  # weights count


@settings(max_examples=80, deadline=None)
@given(examples(min_size=2, max_size=40), st.floats(0, 1))
def test_a_model_compared_with_itself_differs_in_nothing(ex, t) -> None:  # type: ignore[no-untyped-def]
    scores, labels = ex
    data = make_dataset(scores, labels)
    m = Model("A", data)
    c = compare(m, analyse(data, t), Model("A2", data), analyse(data, t))
    if c.auc_difference.value is not None:
        assert c.auc_difference.value == 0
        assert c.summaries_disagree in (False, None)
        if c.delong is not None:
            assert c.delong.p_value == 1.0 and c.delong.se == 0.0
    assert c.mcnemar is not None
    assert (c.mcnemar.b, c.mcnemar.c, c.mcnemar.decided_differently) == (0, 0, 0)
    assert c.mcnemar.p_value == 1.0


def test_whole_weights_are_the_expanded_rows_for_the_paired_test() -> None:
    rng = np.random.default_rng(4)
    a, b = rng.random(30), rng.random(30)
    y = rng.random(30) < 0.4
    w = rng.integers(1, 4, 30).astype(float)
    weighted, _ = paired_delong(a, b, y, w)
    rows, _ = paired_delong(
        np.repeat(a, w.astype(int)), np.repeat(b, w.astype(int)), np.repeat(y, w.astype(int))
    )
    assert weighted is not None and rows is not None
    assert weighted.se == pytest.approx(rows.se, rel=1e-12)
    assert paired_delong(a, b, y, w + 0.5)[1] is not None  # not whole: refused, said why


# --- input and the report -------------------------------------------------------------


def _report(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "threshold_lab", "report", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=120,
    )


DELIVERIES_CSV = (
    "id,label,score_A,score_B\n1,1,0.95,0.86\n2,0,0.85,0.96\n3,0,0.75,0.66\n4,0,0.65,0.56\n"
    "5,1,0.55,0.76\n6,0,0.45,0.46\n7,0,0.35,0.36\n8,0,0.25,0.26\n9,0,0.15,0.16\n10,0,0.05,0.06\n"
)


def test_the_report_of_two_models_keeps_the_first_at_the_top(tmp_path: Path) -> None:
    f = tmp_path / "two.csv"
    f.write_text(DELIVERIES_CSV)
    out = _report(str(f), "--json", "--threshold", "0.7")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    alone = json.loads(_report("delivery-a", "--json").stdout)
    for key in ("n", "positives", "negatives", "counts", "metrics", "roc", "pr", "threshold"):
        assert doc[key] == alone[key], key  # old consumers read model A as before
    assert [m["name"] for m in doc["models"]] == ["A", "B"]
    assert doc["models"][1]["roc"]["auc"]["exact"] == "7/8"
    (c,) = doc["comparison"]
    assert (c["a"], c["b"], c["summaries_disagree"]) == ("A", "B", True)
    assert c["auc_difference"]["exact"] == "-1/16" and 0 < c["auc_difference"]["p_value"] < 1
    assert set(c["auc_difference"]) >= {"se", "interval", "p_value"}
    assert c["ap_difference"]["exact"] == "7/60"
    assert c["at_threshold"]["mcnemar"] == {
        "b": 0,
        "c": 2,
        "p_value": 0.5,
        "p_value_log10": pytest.approx(-0.30103, abs=1e-5),
        "alternative": "two-sided",
    }
    assert c["at_threshold"]["decided_differently"] == 2
    # The same from the preset, from --score-column twice, and from a JSON fixture.
    same = json.loads(_report("deliveries", "--json").stdout)["comparison"]
    assert same == doc["comparison"]
    named = json.loads(
        _report(
            str(f),
            "--json",
            "--threshold",
            "0.7",
            "--score-column",
            "score_A",
            "--score-column",
            "score_B",
        ).stdout
    )["comparison"][0]
    assert (named["a"], named["b"], named["summaries_disagree"]) == ("score_A", "score_B", True)
    j = tmp_path / "two.json"
    j.write_text(
        json.dumps(
            {
                "scores": {"A": [0.9, 0.2, 0.7, 0.4], "B": [0.1, 0.8, 0.6, 0.3]},
                "labels": [1, 0, 1, 0],
            }
        )
    )
    assert [m["name"] for m in json.loads(_report(str(j), "--json").stdout)["models"]] == ["A", "B"]


def test_each_model_is_compared_at_its_own_goal_point(tmp_path: Path) -> None:
    doc = json.loads(_report("deliveries", "--json", "--goal", "max f1").stdout)
    goals = [m["goal"]["threshold"] for m in doc["models"]]
    assert goals == [doc["goal"]["threshold"], goals[1]] and goals[0] != goals[1]
    at = doc["comparison"][0]["at_threshold"]["thresholds"]
    assert at == {"A": goals[0], "B": goals[1]}


@pytest.mark.parametrize(
    ("content", "args", "words"),
    [
        (
            "label,m1,m2\n1,0.9,0.1\n0,0.2,nan\n",
            ["--score-column", "m1", "--score-column", "m2"],
            "line 3, column 'm2'",
        ),
        (
            DELIVERIES_CSV,
            ["--score-column", "score_A", "--score-column", "nope"],
            "no column named 'nope' for model nope's scores",
        ),
        (DELIVERIES_CSV, ["--score-column", "score_A", "--score-column", "score_A"], "given twice"),
    ],
)
def test_bad_model_columns_are_one_clear_line(
    tmp_path: Path, content: str, args: list[str], words: str
) -> None:
    f = tmp_path / "m.csv"
    f.write_text(content)
    out = _report(str(f), *args)
    assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr


def test_a_json_fixtures_models_must_be_lists_of_numbers_as_long_as_the_labels(
    tmp_path: Path,
) -> None:
    for scores, words in [
        ({"A": [0.9, 0.2], "B": [0.1, "x"]}, "item 1, column 'scores.B'"),
        ({"A": [0.9, 0.2], "B": [0.1]}, "\"scores\" of model 'B' has 1 items for 2 rows"),
        ({"A": [0.9, 0.2], "B": 3}, "of model 'B' must be a list"),
        ({}, "names no model"),
    ]:
        f = tmp_path / "m.json"
        f.write_text(json.dumps({"scores": scores, "labels": [1, 0]}))
        out = _report(str(f))
        assert out.returncode == 2 and words in out.stderr, (scores, out.stderr)


def test_plain_mode_lists_switches_and_compares_models() -> None:
    import io

    from threshold_lab.core.session.session import Session
    from threshold_lab.tui.plain import run_plain

    p = preset("deliveries")
    s = Session(p.data, 0.7, source="preset deliveries", models=p.models)
    out = io.StringIO()
    run_plain(
        s, io.StringIO("models\ncompare\nmodel B\nlabel 1 0\nmodel A\nmodel C\n"), out, prompt=False
    )
    text = out.getvalue()
    assert (
        "A (shown): ROC AUC 13/16, average precision 7/10; at threshold 0.7, precision 1/3" in text
    )
    assert "B: ROC AUC 7/8, average precision 7/12" in text
    assert "the two summaries disagree." in text
    assert "McNemar's exact test, p = 0.5" in text
    assert "Model B: its scores of the same rows." in text
    assert "edits apply to the model shown only" in text  # after the label edit
    assert "no model 'C'; the models are: A, B" in text
    one = io.StringIO()
    run_plain(
        Session(preset("canonical").data, 0.5, source="x"),
        io.StringIO("models\n"),
        one,
        prompt=False,
    )
    assert "One model" in one.getvalue()


async def test_the_explorer_lists_the_models_and_M_shows_the_next() -> None:
    from threshold_lab.core.session.session import Session
    from threshold_lab.tui.app import ThresholdLab
    from threshold_lab.tui.widgets.model_line import ModelLine

    from tests.tui.helpers import SIZE

    p = preset("deliveries")
    app = ThresholdLab(
        Session(p.data, 0.7, source="preset deliveries", models=p.models), theme="textual-dark"
    )
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        line = app.main.query_one(ModelLine)
        text = str(line.render())
        assert line.display
        assert "A* AUC 13/16 (95% CI 0.40 to 1.00) · AP 7/10 · P 1/3 R 1/2 F1 2/5" in text
        assert "B AUC 7/8" in text and "M shows the next model" in text
        await pilot.press("M")
        await pilot.pause()
        assert app.main.message == "Model B: its scores of the same rows."
        assert app.main.session.analysis.metrics["precision"].short() == "2/3"
        assert "B* AUC 7/8" in str(line.render())
        await pilot.press("down", "space", "M")  # an edit: M is refused, nothing lost
        await pilot.pause()
        assert app.main.message.startswith("Refused: edits apply to the model shown only")
        assert app.main.session.models[app.main.session.model].name == "B"


async def test_one_model_has_no_model_line() -> None:
    from threshold_lab.tui.widgets.model_line import ModelLine

    from tests.tui.helpers import SIZE, make_app

    app = make_app("canonical")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not app.main.query_one(ModelLine).display
        await pilot.press("M")
        await pilot.pause()
        assert app.main.message.startswith("Refused: these rows have one model")


# --- the fast sort behind the paired test ----------------------------------------------

hard_scores = st.one_of(
    st.integers(-4, 4).map(lambda k: k / 4),  # heavy ties
    st.sampled_from([0.0, -0.0]),
    st.integers(0, 40).map(lambda k: 0.5 + k * 2.0**-52),  # distinct, 2^-52 apart
    st.integers(0, 40).map(lambda k: -(0.5 + k * 2.0**-52)),
    st.integers(0, 40).map(lambda k: 1e300 * (1 + k * 2.0**-52)),
    st.sampled_from([5e-324, -5e-324, 1e-300, -1e-300, 1e300, -1e300, 2.0**-1022]),
    st.floats(allow_nan=False, allow_infinity=False),
)


@settings(max_examples=300, deadline=None)
@given(st.lists(hard_scores, min_size=0, max_size=300))
def test_stable_argsort_is_numpys_stable_argsort(values) -> None:  # type: ignore[no-untyped-def]
    from threshold_lab.core.compare.paired import _sort_order, stable_argsort

    x = np.array(values, dtype=np.float64)
    want = np.argsort(x, kind="stable")
    assert np.array_equal(stable_argsort(x), want)
    order, tied = _sort_order(x)
    s = x[want]
    assert np.array_equal(order, want)
    if tied is None:
        assert not np.any(s[1:] == s[:-1])
    else:
        assert np.array_equal(tied, s[1:] == s[:-1])


def test_stable_argsort_at_scale_with_near_neighbours() -> None:
    """Large enough that the row index takes many low bits: runs sharing their top
    bits are re-sorted, and past a share of the rows the whole falls back."""
    from threshold_lab.core.compare.paired import stable_argsort

    rng = np.random.default_rng(15)
    n = 300_000
    clustered = 0.5 + rng.integers(0, 1000, n) * 2.0**-52
    cases = [
        rng.normal(size=n),  # some neighbours share top bits: runs re-sorted
        np.where(rng.random(n) < 0.02, clustered, rng.normal(size=n)),
        0.5 + rng.permutation(n) * 2.0**-52,  # all share top bits: falls back
        np.round(rng.normal(size=n), 2) * rng.choice([-1.0, 1.0], n),
        rng.choice([-0.0, 0.0], n),  # -0.0 and 0.0 only
    ]
    for x in cases:
        assert np.array_equal(stable_argsort(x), np.argsort(x, kind="stable"))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(hard_scores, hard_scores, st.booleans(), st.integers(0, 3)), max_size=30))
def test_paired_delong_on_hard_scores_matches_the_oracle(rows) -> None:  # type: ignore[no-untyped-def]
    from threshold_lab.core.compare.paired import placements

    a = np.array([r[0] for r in rows], dtype=np.float64)
    b = np.array([r[1] for r in rows], dtype=np.float64)
    y = np.array([r[2] for r in rows], dtype=bool)
    w = np.array([r[3] for r in rows], dtype=np.float64)
    if y.sum() < 2 or (~y).sum() < 2:
        return
    got, why = paired_delong(a, b, y)
    assert got is not None, why
    diff, se = _placement_oracle(a.tolist(), b.tolist(), y.tolist())
    assert got.difference == pytest.approx(diff, abs=1e-12)
    assert got.se == pytest.approx(se, abs=1e-12)
    # Whole weights are repeated rows, placements included.
    reps = w.astype(int)
    ra, rb, ry = np.repeat(a, reps), np.repeat(b, reps), np.repeat(y, reps)
    weighted, _ = paired_delong(a, b, y, w)
    expanded, _ = paired_delong(ra, rb, ry)
    assert (weighted is None) == (expanded is None)
    if weighted is not None and expanded is not None:
        assert weighted.difference == pytest.approx(expanded.difference, abs=1e-12)
        assert weighted.se == pytest.approx(expanded.se, abs=1e-12)
    wp, wn = placements(a, y, w)
    ep, en = placements(ra, ry, None)
    assert np.allclose(np.repeat(wp, reps[y]), ep, rtol=0, atol=1e-12)
    assert np.allclose(np.repeat(wn, reps[~y]), en, rtol=0, atol=1e-12)
