"""The Python API on the canonical fixture (scores .9 .8 .8 .4 .1, labels 1 0 1 0 1)
and on large arrays: every call of the contract, checked against exact fractions
and scikit-learn."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest
from sklearn.metrics import average_precision_score, roc_auc_score

import threshold_lab as tl
from tests.paths import ROOT

Y = [1, 0, 1, 0, 1]
S = [0.9, 0.8, 0.8, 0.4, 0.1]


def test_the_canonical_fixture_in_exact_fractions() -> None:
    r = tl.report(Y, S, threshold=0.5)
    assert r.counts.as_json() == {"tp": 2, "fp": 1, "tn": 1, "fn": 1}
    p = r.metrics["precision"]
    assert (p.value, p.exact, p.reason) == (2 / 3, Fraction(2, 3), None)
    assert p.formula == "precision = TP/(TP+FP) = 2/(2+1) = 2/3 ≈ 0.6667"
    assert p.interval is not None and p.interval.method == "wilson"
    assert r.roc_auc.exact == Fraction(7, 12)
    assert r.roc_auc.value == pytest.approx(roc_auc_score(Y, S))
    assert r.average_precision.value == pytest.approx(average_precision_score(Y, S))
    # The two PR summaries are different numbers, each named.
    assert r.pr_trapezoid_area.value != r.average_precision.value


def test_undefined_is_a_reason_never_a_number() -> None:
    r = tl.report(Y, S, threshold=None)  # above all scores: nothing predicted positive
    p = r.metrics["precision"]
    assert p.value is None and p.exact is None
    assert p.reason is not None and "TP+FP" in p.reason
    with pytest.raises(ValueError, match="undefined"):
        float(p)
    assert float(r.metrics["recall"]) == 0.0


def test_at_moves_the_threshold_without_sweeping_again() -> None:
    r = tl.report(Y, S, threshold=0.5)
    s = r.at(0.85)
    assert s.counts.as_json() == {"tp": 1, "fp": 0, "tn": 2, "fn": 2}
    assert s.analysis.curves is r.analysis.curves  # the same sweep, not a new one
    assert r.counts.tp == 2  # the first report is unchanged
    assert r.at(None).threshold is None
    assert r.at(0.5).to_dict() == r.to_dict()


def test_at_keeps_the_bootstrap_and_counts_the_new_point() -> None:
    r = tl.report(Y, S, threshold=0.5, bootstrap=200, seed=1)
    moved = r.at(0.85)
    direct = tl.report(Y, S, threshold=0.85, bootstrap=200, seed=1)
    assert moved.to_dict() == direct.to_dict()


def test_at_with_a_goal_reports_the_goal_but_stays_at_the_threshold() -> None:
    r = tl.report(Y, S, goal="max f1")
    assert r.goal is not None and r.threshold == r.goal.threshold
    moved = r.at(0.85)
    assert moved.threshold == 0.85 and moved.goal is not None
    assert moved.to_dict()["goal"] == r.to_dict()["goal"]


def test_the_sweep_is_read_only_arrays_above_all_first() -> None:
    sw = tl.report(Y, S).sweep
    assert sw.threshold.tolist() == [np.inf, 0.9, 0.8, 0.4, 0.1]
    assert sw.tp.tolist() == [0, 1, 2, 2, 3] and sw.fp.tolist() == [0, 0, 1, 2, 2]
    assert sw.tn.tolist() == [2, 2, 1, 0, 0] and sw.fn.tolist() == [3, 2, 1, 1, 0]
    assert len(sw) == 5
    for a in (sw.threshold, sw.tp, sw.fp, sw.tn, sw.fn):
        with pytest.raises(ValueError):
            a[0] = 0


def test_a_report_is_immutable() -> None:
    r = tl.report(Y, S)
    with pytest.raises(dataclasses.FrozenInstanceError):
        r.contents = r.contents  # type: ignore[misc]
    with pytest.raises(TypeError):
        r.metrics["precision"] = r.metrics["recall"]  # type: ignore[index]


def test_repr_is_one_short_paragraph_and_html_a_small_table() -> None:
    r = tl.report(Y, S)
    text = repr(r)
    assert "\n" not in text and len(text) < 240
    for part in (
        "5 rows",
        "prevalence 3/5",
        "threshold 0.5",
        "TP 2",
        "FP 1",
        "TN 1",
        "FN 1",
        "precision 2/3",
        "recall 2/3",
        "ROC AUC 7/12",
        "AP",
    ):
        assert part in text
    html = r._repr_html_()
    assert html.count("<table>") == 2 and "TP 2" in html and "FN 1" in html
    assert "ROC AUC" in html and "&gt;=" in html
    assert "<script" not in tl.report(Y, S, source="<script>")._repr_html_()


def test_options_of_the_contract() -> None:
    w = [1, 2, 1, 1, 1]
    ids = ["a", "b", "c", "d", "e"]
    r = tl.report(
        ["yes", "no", "yes", "no", "yes"],
        S,
        threshold=0.7,
        sample_weight=w,
        ids=ids,
        positive="yes",
        goal="max precision where recall >= 0.5",
        prevalence=0.05,
        confidence=0.9,
        bootstrap=200,
        seed=1,
        bins=3,
        binning="width",
    )
    d = r.to_dict()
    assert d["weighted"] is True and d["negatives"] == 3
    assert d["goal"]["text"] == "max precision where recall >= 0.5"
    assert d["at_prevalence"]["prevalence"] == "1/20"
    assert d["intervals"] == {"confidence": 0.9, "bootstrap": {"replicates": 200, "seed": 1}}
    assert len(d["calibration"]["bins"]) <= 3 and d["calibration"]["binning"] == "width"


def test_several_models_on_the_same_rows() -> None:
    r = tl.report(
        [1, 0, 0, 0, 1, 0, 0, 0, 0, 0],
        {
            "A": [0.95, 0.85, 0.75, 0.65, 0.55, 0.45, 0.35, 0.25, 0.15, 0.05],
            "B": [0.86, 0.96, 0.66, 0.56, 0.76, 0.46, 0.36, 0.26, 0.16, 0.06],
        },
        threshold=0.7,
    )
    assert list(r.models) == ["A", "B"]
    # The lesson's deliveries: AUC 13/16 vs 7/8, AP 7/10 vs 7/12.
    assert r.models["A"].roc_auc.exact == Fraction(13, 16)
    assert r.models["B"].roc_auc.exact == Fraction(7, 8)
    assert r.models["A"].average_precision.exact == Fraction(7, 10)
    assert r.models["B"].average_precision.exact == Fraction(7, 12)
    assert len(r.comparisons) == 1 and r.comparisons[0].summaries_disagree is True


def test_several_classes() -> None:
    y = ["cat", "dog", "eel", "cat", "eel", "dog"]
    proba = np.array(
        [
            [0.7, 0.2, 0.1],
            [0.3, 0.6, 0.1],
            [0.2, 0.2, 0.6],
            [0.4, 0.5, 0.1],
            [0.5, 0.1, 0.4],
            [0.2, 0.7, 0.1],
        ]
    )
    r = tl.report(y, proba, classes=["cat", "dog", "eel"])
    assert r.multiclass is not None and r.multiclass.classes == ("cat", "dog", "eel")
    assert r.to_dict()["class"] == "cat"
    dog = tl.report(y, proba, classes=["cat", "dog", "eel"], positive="dog")
    assert dog.to_dict()["class"] == "dog" and dog.positives == 2


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: tl.report([1, 0, 1], [0.1, 0.2]), "2 values but y_true has 3"),
        (lambda: tl.report([1, 0], [0.1, float("nan")]), "score at row 2 is nan"),
        (lambda: tl.report([1, 0], [0.1, float("inf")]), "score at row 2 is inf"),
        (lambda: tl.report([1, 0, 2], [0.1, 0.2, 0.3]), "y_true row 3: label '2'"),
        (lambda: tl.report(["a", "b", "c"], [0.1, 0.2, 0.3], positive="a"), "a third label"),
        (lambda: tl.report(["a", "b"], [0.1, 0.2]), "positive=NAME"),
        (lambda: tl.report([1, None], [0.1, 0.2]), "y_true row 2: the label is missing"),  # type: ignore[arg-type]
        (lambda: tl.report(Y, S, goal="max bogus"), '"bogus" is not a metric'),
        (lambda: tl.report(Y, S, threshold="x"), "threshold 'x' is not a number"),
        (lambda: tl.report(Y, S, confidence=1), "confidence 1.0 is not strictly between"),
        (lambda: tl.report(Y, S, bootstrap=1), "out of range"),
        (lambda: tl.report(Y, S, prevalence=2), "not strictly between 0 and 1"),
        (
            lambda: tl.report(Y, ["a", "b", "c", "d", "e"]),
            "y_score row 1 is 'a': not a number",
        ),
        (lambda: tl.report(Y, np.ones((5, 3))), "pass classes=[...]"),
        (lambda: tl.report(Y, S, sample_weight=[1, 1]), "sample_weight has 2 values"),
        (lambda: tl.report(Y, S, sample_weight=[1, 1, -1, 1, 1]), "weight at row 3"),
        (lambda: tl.report(Y, S, goal="min cost fp=1 fn=@amount"), "cost column"),
        (lambda: tl.from_frame(object()), "a object is not a data frame"),
        (lambda: tl.explore(Y, S), "explore needs a terminal"),
    ],
)
def test_bad_input_is_one_input_error(call, message: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(tl.InputError, match=None) as caught:
        call()
    assert isinstance(caught.value, ValueError)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_million_rows_of_numpy() -> None:
    rng = np.random.default_rng(26)
    y = rng.random(10**6) < 0.2
    s = rng.random(10**6) + 0.4 * y
    r = tl.report(y, s, threshold=0.7)
    assert r.roc_auc.value == pytest.approx(roc_auc_score(y, s), abs=1e-12)
    assert r.counts.tp == int(np.count_nonzero(y & (s >= 0.7)))
    assert r.at(0.9).counts.fp == int(np.count_nonzero(~y & (s >= 0.9)))


def test_importing_the_package_never_imports_textual() -> None:
    code = (
        "import sys, threshold_lab as tl\n"
        "tl.report([1, 0], [0.9, 0.1]).text()\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich')\n"
        "             or m.startswith('threshold_lab.tui')))\n"
        "try:\n"
        "    tl.explore([1, 0], [0.9, 0.1])\n"
        "except tl.InputError:\n"
        "    pass\n"
        "print('textual' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
    )
    assert out.stdout.splitlines() == ["[]", "False"]
