"""A rate over a count is shown as its counts, so its denominator is named:
8/14, not the 4/7 it reduces to, in the status line, the sweep table, calibration bins,
per-class tables and the report's metric lines; the formula line adds the reduced form.
The JSON's exact fields stay reduced."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import Analysis, analyse
from threshold_lab.core.calibration.reliability import calibration
from threshold_lab.core.data.classes import Multiclass
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.metrics.metric import Metric, ratio
from threshold_lab.core.metrics.threshold_metrics import threshold_metrics
from threshold_lab.core.multiclass.metrics import multiclass_report
from threshold_lab.core.report.as_text import metrics_section
from threshold_lab.core.text.calibration import calibration_lines, calibration_words
from threshold_lab.core.text.multiclass import multiclass_lines, multiclass_words
from threshold_lab.core.text.sentences import status_sentence
from threshold_lab.core.text.sweep_table import sweep_table

import threshold_lab

SCORES = [0.9] * 8 + [0.2] * 6 + [0.8] * 2 + [0.1] * 8
LABELS = [1] * 14 + [0] * 10


def reducing() -> Analysis:
    """TP 8, FP 2, TN 8, FN 6 at 0.5: recall 8/14 and precision 8/10 both reduce."""
    return analyse(make_dataset(SCORES, LABELS), 0.5)


def test_status_line_shows_the_counts() -> None:
    assert status_sentence(reducing()).endswith("; precision 8/10, recall 8/14.")


def test_the_json_status_and_formulas_read_as_the_text_report_does() -> None:
    # The JSON's text fields are the text report's sentences; its exact fields stay
    # the reduced fractions (a contract).
    out = threshold_lab.report(LABELS, SCORES).to_dict()
    assert out["status"].endswith("; precision 8/10, recall 8/14.")
    assert out["formulas"]["recall"] == "recall = TP/(TP+FN) = 8/(8+6) = 8/14 = 4/7 ≈ 0.5714"
    assert out["metrics"]["recall"]["exact"] == "4/7"


def test_report_metric_line_adds_the_reduced_form_after_the_counts() -> None:
    lines = threshold_lab.report(LABELS, SCORES).text().splitlines()
    assert lines[4].endswith("; precision 8/10, recall 8/14.")
    # Each line, its interval (Wilson's) after it where it has one.
    shown = {line.split(" (95% CI")[0] for line in lines}
    assert "  recall = TP/(TP+FN) = 8/(8+6) = 8/14 = 4/7 ≈ 0.5714" in shown
    assert "  precision = TP/(TP+FP) = 8/(8+2) = 8/10 = 4/5 = 0.8" in shown
    assert "  F1 = 2TP/(2TP+FP+FN) = 2·8/(2·8+2+6) = 16/24 = 2/3 ≈ 0.6667" in shown
    recall = "recall = TP/(TP+FN) = 8/(8+6) = 8/14 = 4/7 ≈ 0.5714"
    assert metrics_section(reducing(), None)[1] == recall


def test_sweep_table_rows_show_the_counts() -> None:
    rows = sweep_table(reducing())
    assert rows[2].split() == [
        "0.9",
        "8",
        "0",
        "10",
        "6",
        "8/14",
        "≈",
        "0.5714",
        "0/10",
        "=",
        "0",
        "8/8",
        "=",
        "1",
        "8/14",
        "≈",
        "0.5714",
        "*",
        "corner",  # 8 positives rose into it; the next point adds a negative
    ]
    assert rows[3].split()[:11] == [
        ">",
        "0.8",
        "8",
        "2",
        "8",
        "6",
        "8/14",
        "≈",
        "0.5714",
        "2/10",
        "=",
    ]


def test_calibration_bins_show_positives_over_rows() -> None:
    c = calibration(reducing().sweep, bins=2)
    assert [(b.n, b.positive_rate.short()) for b in c.bins] == [(14, "6/14"), (10, "8/10")]
    assert "observed positive rate 6/14 ≈ 0.4286" in calibration_words(c)[1]
    assert calibration_lines(c)[2].split()[:4] == ["1", "14", "0.1429", "6/14"]


def four_classes() -> Multiclass:
    """Class a: 14 rows, 8 of them decided a and 6 decided b (recall 8/14)."""
    hit, miss = [0.7, 0.1, 0.1, 0.1], [0.1, 0.7, 0.1, 0.1]
    rows = [hit] * 8 + [miss] * 6 + [miss] * 4 + [[0.1, 0.1, 0.7, 0.1]] * 4
    rows += [[0.1, 0.1, 0.1, 0.7]] * 4
    labels = [0] * 14 + [1] * 4 + [2] * 4 + [3] * 4
    return Multiclass(("a", "b", "c", "d"), np.array(rows), np.array(labels, dtype=np.int64))


def test_per_class_recall_is_over_the_support() -> None:
    r = multiclass_report(four_classes())
    assert r.per_class[0].recall.counts == (8, 14) and r.per_class[0].recall.exact == Fraction(4, 7)
    table = multiclass_lines(r)
    assert table[table.index("Per class (one against the rest)") + 2].split()[:5] == [
        "a",
        "8/8",
        "8/14",
        "16/22",
        "14",
    ]
    assert "a: precision 8/8, recall 8/14, F1 16/22, support 14" in "\n".join(multiclass_words(r))
    # Micro averages pool the counts; macro ones are means, kept reduced.
    assert r.averages["micro"]["recall"].metric.short() == "20/26"
    assert r.averages["macro"]["recall"].metric.short() == "25/28"
    assert r.as_json()["per_class"]["a"]["recall"]["exact"] == "4/7"


def test_whole_values_keep_their_denominator() -> None:
    assert ratio(0, 3153, reason="").value_text() == "0/3153 = 0"
    assert ratio(0, 3153, reason="").short() == "0/3153"
    assert ratio(11, 11, reason="").value_text() == "11/11 = 1"
    m = ratio(0, 3153, reason="", name="FPR", formula="FP/(FP+TN)", filled="0/(0+3153)")
    assert m.describe() == "FPR = FP/(FP+TN) = 0/(0+3153) = 0/3153 = 0"


def test_readable_limits_apply_to_the_counts_denominator() -> None:
    # 500/1000 reduces to 1/2, but a reader sees a four-digit denominator: brief's decimal.
    assert ratio(500, 1000, reason="").brief() == "≈ 0.5000"
    assert ratio(500, 10**6, reason="").value_text() == "≈ 0.0005"
    assert ratio(2, 4, reason="").brief() == "2/4"


def test_json_exact_stays_reduced() -> None:
    assert ratio(8, 14, reason="").as_json() == {"value": 4 / 7, "reason": None, "exact": "4/7"}


def test_summaries_that_are_no_count_over_a_count_keep_reduced_fractions() -> None:
    m = threshold_metrics(Counts(tp=8, fp=2, tn=8, fn=6))
    for name in ("mcc", "lr_plus", "lr_minus", "balanced_accuracy", "lift"):
        assert m[name].counts is None, name
    # Its value is reduced; the rates inside it are their counts, naming each denominator.
    assert m["lr_plus"].describe() == "LR+ = TPR/FPR = (8/14)/(2/10) = 20/7 ≈ 2.8571"
    a = reducing()
    assert a.curves.summaries.roc_auc.counts is None


def test_weighted_counts_that_are_not_whole_have_none() -> None:
    m = threshold_metrics(Counts(tp=1.5, fp=0.5, tn=1, fn=1))
    assert all(v.counts is None for v in m.values())
    assert m["precision"].short() == "≈ 0.75"


def test_f_beta_with_a_fractional_beta_squared_keeps_its_reduced_fraction() -> None:
    # β = 0.5: the formula's (1+β²)·TP is 5/4·TP, no whole count to show.
    m = threshold_metrics(Counts(tp=8, fp=2, tn=8, fn=6), beta=0.5)["fbeta"]
    assert m.counts is None and m.short() == "20/27"


_EXPRESSION = re.compile(r"[0-9+*()]+")


def _evaluate(side: str) -> int:
    """A side of a filled-in formula (``2·8`` or ``(8+6)``) as the number it says."""
    text = side.replace("·", "*")
    assert _EXPRESSION.fullmatch(text), side
    return int(eval(text))  # digits, +, * and parentheses only (checked above)


def _filled_parts(filled: str) -> tuple[int, int]:
    """The numerator and denominator a filled-in formula shows, split at its one ``/``
    outside parentheses."""
    depth = 0
    for i, ch in enumerate(filled):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "/" and depth == 0:
            return _evaluate(filled[:i]), _evaluate(filled[i + 1 :])
    raise AssertionError(f"no top-level division in {filled!r}")


counts = st.integers(min_value=0, max_value=10**4)


@settings(max_examples=300, deadline=None)
@given(counts, counts, counts, counts, st.sampled_from([1.0, 2.0, 3.0]))
def test_counts_are_what_the_formula_line_shows(
    tp: int, fp: int, tn: int, fn: int, beta: float
) -> None:
    metrics = threshold_metrics(Counts(tp, fp, tn, fn), beta=beta)
    with_counts = {n for n, m in metrics.items() if m.counts is not None}
    defined = {n for n, m in metrics.items() if m.value is not None}
    rates = {
        "precision",
        "recall",
        "f1",
        "fbeta",
        "accuracy",
        "specificity",
        "fpr",
        "fnr",
        "npv",
        "prevalence",
        "queue_rate",
        "jaccard",
    }
    assert with_counts == rates & defined
    for name in with_counts:
        m: Metric = metrics[name]
        assert m.counts is not None
        assert m.counts == _filled_parts(m.filled), name
        assert Fraction(*m.counts) == m.exact
        shown = f"{m.counts[0]}/{m.counts[1]}"
        assert f"= {shown}" in m.describe()
        if m.counts[1] < 10**6:
            assert m.short() == shown


@pytest.mark.parametrize("key", ["precision", "recall", "fpr"])
def test_reduced_drops_only_the_counts(key: str) -> None:
    m = threshold_metrics(Counts(tp=8, fp=2, tn=8, fn=6))[key]
    r = m.reduced()
    assert r.counts is None and (r.value, r.exact, r.filled) == (m.value, m.exact, m.filled)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**7), st.integers(0, 10**7))
def test_a_rate_of_counts_reads_as_its_metric_does(num: int, extra: int) -> None:
    from threshold_lab.core.metrics.metric import ratio
    from threshold_lab.core.text.sweep_table import rate_text

    den = num + extra
    assert rate_text(num, den) == ratio(num, den, reason="none").value_text()
