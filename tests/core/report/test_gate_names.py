"""Every number a report has is a gate name: the fairness gaps (Fairlearn's names),
partial AUCs with their range, the net benefit at a threshold probability, ECE and
MCE, beside the summaries and metrics; each read exactly from the report and checked
against an oracle (Fairlearn, scikit-learn, a brute force); a partial AUC or a net
benefit a requirement reads is computed for it."""

from __future__ import annotations

from fractions import Fraction

import pytest
from fairlearn.metrics import demographic_parity_difference, equalized_odds_difference
from sklearn.metrics import roc_auc_score

import threshold_lab as tl
from tests.paths import clinics_rows

ROWS = clinics_rows()
SITE = [r[1] for r in ROWS]
S = [r[2] for r in ROWS]
Y = [r[3] for r in ROWS]


def _value(expr: str, **kw: object) -> Fraction | float | None:
    r = tl.report(Y, S, require=[expr], **kw)  # type: ignore[arg-type]
    (outcome,) = r.requirements
    return outcome.value


def test_the_fairness_gaps_are_gate_names_equal_to_fairlearn_s() -> None:
    pred = [int(s >= 0.5) for s in S]
    dp = _value("demographic_parity_difference <= 1", groups=SITE)
    eo = _value("equalized_odds_difference <= 1", groups=SITE)
    assert isinstance(dp, Fraction) and isinstance(eo, Fraction)
    assert float(dp) == pytest.approx(
        demographic_parity_difference(Y, pred, sensitive_features=SITE)
    )
    assert float(eo) == pytest.approx(equalized_odds_difference(Y, pred, sensitive_features=SITE))
    r = tl.report(Y, S, groups=SITE, require=["demographic_parity_ratio >= 0.5"])
    gaps = r.gaps
    assert gaps is not None
    assert r.requirements[0].value == gaps["demographic_parity_ratio"].value.exact
    with pytest.raises(tl.InputError, match="made without groups"):
        tl.report(Y, S, require=["accuracy_difference <= 0.1"])


def test_a_partial_auc_named_with_its_range_is_computed_for_the_requirement() -> None:
    area = _value("partial_auc fpr 0 0.2 >= 0")
    std = _value("standardised_partial_auc fpr 0 0.2 >= 0")
    assert area == Fraction(131, 1360) and std == Fraction(581, 816)
    assert float(std) == pytest.approx(roc_auc_score(Y, S, max_fpr=0.2))  # McClish's
    r = tl.report(Y, S, partial_auc="fpr 0 0.2", require=["partial_auc fpr 0 0.2 >= 0.05"])
    assert len(r.partial_auc) == 1 and r.passed  # asked for once, not twice


def test_the_net_benefit_at_a_threshold_probability_is_its_brute_force() -> None:
    n = len(Y)
    for pt in (Fraction(15, 100), Fraction(155, 1000)):  # on the default grid, and off it
        got = _value(f"net_benefit at pt {float(pt)!r} > -1")
        tp = sum(1 for s, y in zip(S, Y, strict=True) if s >= pt and y)
        fp = sum(1 for s, y in zip(S, Y, strict=True) if s >= pt and not y)
        assert got == pytest.approx(float(Fraction(tp, n) - Fraction(fp, n) * pt / (1 - pt)))


def test_ece_and_mce_are_the_report_s() -> None:
    r = tl.report(Y, S, require=["ece <= 1", "mce <= 1", "roc_auc >= 0.5"])
    d = r.to_dict(points=0)
    assert r.requirements[0].value == pytest.approx(d["calibration"]["ece"]["value"])
    assert r.requirements[1].value == pytest.approx(d["calibration"]["mce"]["value"])
    assert r.requirements[2].value == r.roc_auc.exact


@pytest.mark.parametrize(
    ("expr", "said"),
    [
        ("partial_auc fpr 0.2 0.1 >= 0", "high end is not above its low end"),
        ("partial_auc 0 0.1 >= 0", "expected fpr or tpr"),
        ("partial_auc fpr 0 1.5 >= 0", "1.5 is not from 0 to 1"),
        ("net_benefit at pt 1 > 0", "strictly between 0 and 1"),
        ("net_benefit at 0.2 > 0", "expected 'pt'"),
    ],
)
def test_a_malformed_name_is_refused_saying_how_to_write_it(expr: str, said: str) -> None:
    with pytest.raises(tl.InputError, match=said):
        tl.report(Y, S, require=[expr])


def test_a_net_benefit_of_scores_that_are_not_probabilities_says_why_it_is_missing() -> None:
    """Scores outside [0, 1] have no decision curve: a requirement on its net benefit
    is refused with that reason, not with advice to give --pt."""
    scores = [s + 1 for s in S]
    for call in (
        lambda: tl.report(Y, scores, require="net_benefit at pt 0.2 > 0"),
        lambda: tl.gate(tl.report(Y, scores), None, "net_benefit at pt 0.155 > 0"),
    ):
        with pytest.raises(tl.InputError, match="its decision curve is undefined: decision "):
            call()
