"""Generated presets: each spec read back as written, the rows reproducible from the
seed, each class drawn from its model (AUC, calibration and Beta shapes against scipy),
and overlap and balance changing only what they name."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from scipy import integrate, stats
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.data.generated import adjust, generate, model_auc, parse_spec
from threshold_lab.core.data.presets import preset
from threshold_lab.core.errors import InputError
from threshold_lab.core.session.session import Session


def _auc(spec_text: str) -> float:
    value = curves_for(generate(parse_spec(spec_text))).summaries.roc_auc.value
    assert value is not None
    return value


def test_a_spec_reads_back_as_written() -> None:
    spec = parse_spec("binormal:d=1.5,prevalence=0.1,n=200,seed=3")
    assert (spec.d, spec.prevalence, spec.n, spec.seed) == (1.5, Fraction(1, 10), 200, 3)
    assert parse_spec(spec.text()) == spec
    beta = parse_spec("beta:pos=5/1.5,neg=1/3,n=40")
    assert beta.pos == (5.0, 1.5) and beta.neg == (1.0, 3.0) and parse_spec(beta.text()) == beta


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("binormal:d=-1", "d is from 0 to 8"),
        ("binormal:d=inf", "not a finite number"),
        ("binormal:n=1", "n is from 2 to 100000"),
        ("binormal:n=1e3", "not a whole number"),
        ("binormal:prevalence=1", "strictly between 0 and 1"),
        ("binormal:prevalence=1/0", "not a number such as 0.1"),
        ("binormal:pos=4/2", "'pos=4/2' is not one of d=, prevalence=, n=, seed="),
        ("beta:pos=4", "give the Beta shapes as A/B"),
        ("beta:neg=0/2", "give the Beta shapes as A/B"),
        ("beta:d", "'d' is not one of pos=, neg=, prevalence="),
        ("gamma:n=3", "no preset named 'gamma:n=3'"),
        ("binormal:d=1,d=2", "d= is given twice"),
        ("binormal:seed=-1", "not a whole number from 0"),
    ],
)
def test_a_bad_spec_is_refused_naming_the_part(text: str, said: str) -> None:
    with pytest.raises(InputError) as refused:
        preset(text)
    assert said in str(refused.value)


def test_the_rows_are_the_seeds() -> None:
    a = generate(parse_spec("binormal:n=300,prevalence=0.2,seed=5"))
    b = generate(parse_spec("binormal:n=300,prevalence=0.2,seed=5"))
    c = generate(parse_spec("binormal:n=300,prevalence=0.2,seed=6"))
    assert a.scores.tolist() == b.scores.tolist() and a.scores.tolist() != c.scores.tolist()
    assert int(a.labels.sum()) == 60 and a.n == 300
    assert a.ids is not None and list(a.ids[:2]) == ["p1", "p2"] and a.ids[60] == "n1"
    tiny = generate(parse_spec("binormal:n=3,prevalence=1/100"))
    assert int(tiny.labels.sum()) == 1  # at least one of each class


@pytest.mark.parametrize("d", [0.0, 0.5, 1.5, 3.0])
def test_binormal_rows_follow_their_model(d: float) -> None:
    """The sample's AUC near Φ(d/√2) (scipy), and each score the posterior probability
    at the prevalence, so the mean score is near the prevalence (calibrated)."""
    text = f"binormal:d={d},prevalence=0.3,n=20000,seed=2"
    spec = parse_spec(text)
    expected = stats.norm.cdf(d / math.sqrt(2))
    assert model_auc(spec) == pytest.approx(expected, abs=1e-12)
    assert abs(_auc(text) - expected) < 0.015
    data = generate(spec)
    assert abs(float(data.scores.mean()) - 0.3) < 0.01
    if d == 0:  # no separation: every score is the prevalence, one tie group
        assert set(data.scores.tolist()) == {0.3}


def test_beta_rows_follow_their_model() -> None:
    a, b = stats.beta(4, 2), stats.beta(2, 4)
    # P(X > Y) = ∫ f_X(x) F_Y(x) dx
    expected, _ = integrate.quad(lambda x: a.pdf(x) * b.cdf(x), 0, 1)
    assert abs(_auc("beta:pos=4/2,neg=2/4,n=20000,seed=4") - expected) < 0.015
    data = generate(parse_spec("beta:pos=4/2,neg=2/4,n=20000,prevalence=0.5,seed=4"))
    positives = data.scores[data.labels]
    assert abs(float(positives.mean()) - 4 / 6) < 0.01  # the Beta(4, 2) mean


def test_overlap_changes_only_the_separation() -> None:
    """Same seed: each class's rows keep their order (the same draws, moved)."""
    base = generate(parse_spec("binormal:d=1,n=500,prevalence=0.2,seed=9"))
    more = generate(adjust(parse_spec("binormal:d=1,n=500,prevalence=0.2,seed=9"), "overlap", 1))
    for rows in (base.labels, ~base.labels):
        # one monotone map of the same latent draws: a score higher before is not lower after
        b, m = base.scores[rows], more.scores[rows]
        order = np.argsort(b, kind="stable")
        b, m = b[order], m[order]
        assert not np.any((np.diff(b) > 0) & (np.diff(m) < 0))
    assert _auc("binormal:d=0.75,n=2000,seed=9") < _auc("binormal:d=1,n=2000,seed=9")


def test_balance_steps_through_the_prevalences() -> None:
    spec = parse_spec("binormal:prevalence=0.1")
    assert adjust(spec, "balance", 1).prevalence == Fraction(1, 5)
    assert adjust(spec, "balance", -1).prevalence == Fraction(1, 20)
    assert adjust(parse_spec("binormal:prevalence=1/100"), "balance", -1).prevalence == Fraction(
        1, 100
    )
    assert adjust(parse_spec("binormal:d=8"), "overlap", -1).d == 8  # at its end


def test_a_session_makes_generated_rows_again_keeping_the_threshold(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    p = preset("binormal:d=1.5,prevalence=0.2,n=200,seed=3")
    s = Session(p.data, 0.4, source=f"preset {p.name}")
    u = s.regenerate("overlap", 1)
    assert s.source == "preset binormal:d=1.25,prevalence=1/5,n=200,seed=3"
    assert s.threshold == 0.4 and u.message.startswith("Made again (overlap up)")
    assert "the model's own ≈ 0.8116" in u.message
    s.regenerate("balance", -1)
    assert int(s.data.labels.sum()) == 20
    s.flip_label(0)
    with pytest.raises(InputError, match="the rows have unsaved edits"):
        s.regenerate("balance", 1)
    s.save(Path("generated.csv"))  # saved: nothing is lost by making them again
    s.regenerate("balance", 1)
    beta = Session(preset("beta:n=20").data, 0.5, source="preset beta:n=20")
    with pytest.raises(InputError, match="overlap steps a binormal preset's d"):
        beta.regenerate("overlap", 1)
    canon = Session(preset("canonical").data, 0.5, source="preset canonical")
    with pytest.raises(InputError, match="open a generated preset first"):
        canon.regenerate("overlap", 1)
    end = Session(preset("binormal:d=0").data, 0.5, source="preset binormal:d=0")
    with pytest.raises(InputError, match="the overlap is at the most"):
        end.regenerate("overlap", 1)
