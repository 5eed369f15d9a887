"""The curve's description against an oracle written from the issue's definitions
alone (lists and fractions over every threshold), under hypothesis with ties; made
curves say what they must (a perfect ranking rises all the way, a hooked one lies below
chance, tied scores have no steepest step) and nothing that does not hold."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core import blocks as blocks_module
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.curves.describe import describe
from threshold_lab.core.data.dataset import make_dataset

import threshold_lab as tl


def _points(rows: list[tuple[float, int]]) -> tuple[list[int], list[int], list[float]]:
    ts = sorted({s for s, _ in rows}, reverse=True)
    tp = [0] + [sum(1 for s, y in rows if y and s >= t) for t in ts]
    fp = [0] + [sum(1 for s, y in rows if not y and s >= t) for t in ts]
    return tp, fp, ts


def _oracle(rows: list[tuple[float, int]]) -> dict[str, Any]:
    """Each ROC claim's arguments, from the definitions."""
    return roc_claims_of(*_points(rows))


def roc_claims_of(tp: list[int], fp: list[int], ts: list[float]) -> dict[str, Any]:
    """Each ROC claim's arguments from the curve's points (above all first) and the
    distinct scores, highest first."""
    p, n = tp[-1], fp[-1]
    m = len(tp)
    out: dict[str, Any] = {}
    before = max(tp[k] for k in range(m) if fp[k] == 0)
    if before:
        out["rises_before_first_fp"] = [{"tpr": str(Fraction(before, p))}]
    reaches = []
    for limit, least in ((Fraction(1, 100), 100), (Fraction(1, 10), 10)):
        if n >= least:
            best = max(tp[k] for k in range(m) if Fraction(fp[k], n) <= limit)
            reaches.append({"fpr": str(limit), "tpr": str(Fraction(best, p))})
    if reaches:
        out["reaches"] = reaches
    below, k = [], 0
    while k < m:
        if Fraction(tp[k], p) < Fraction(fp[k], n):
            j = k
            while j + 1 < m and Fraction(tp[j + 1], p) < Fraction(fp[j + 1], n):
                j += 1
            below.append({"fpr_from": str(Fraction(fp[k], n)), "fpr_to": str(Fraction(fp[j], n))})
            k = j + 1
        else:
            k += 1
    if below:
        out["below_chance"] = below[:2]
    # The steepest step after the first: the largest ΔTPR/ΔFPR, vertical the steepest.
    steps = []
    for k in range(2, m):
        dtp, dfp = tp[k] - tp[k - 1], fp[k] - fp[k - 1]
        if dtp > 0:
            steps.append((math.inf if dfp == 0 else Fraction(dtp * n, dfp * p), -k, k))
    if steps:
        k = max(steps)[2]
        out["steepest"] = [
            {"threshold": ts[k - 1], "positives": tp[k] - tp[k - 1], "negatives": fp[k] - fp[k - 1]}
        ]
    runs, k = [], 0
    while k < m:
        j = k
        while j + 1 < m and tp[j + 1] == tp[k]:
            j += 1
        if fp[j] > fp[k]:
            runs.append((fp[j] - fp[k], -k, k, j))
        k = j + 1
    if runs:
        _, _, a, b = max(runs)
        out["flat_run"] = [{"fpr_from": str(Fraction(fp[a], n)), "fpr_to": str(Fraction(fp[b], n))}]
    if m == 2:
        out["one_step"] = [{}]
    # The trapezoids under the points, in fractions.
    area = sum(
        (Fraction(fp[k] - fp[k - 1], n) * Fraction(tp[k] + tp[k - 1], 2 * p) for k in range(1, m)),
        Fraction(0),
    )
    out["area"] = [{"auc": str(area)}]
    return out


def _claims(rows: list[tuple[float, int]], kind: str = "roc") -> dict[str, list[dict[str, Any]]]:
    data = make_dataset([s for s, _ in rows], [bool(y) for _, y in rows])
    curves = curves_for(data)
    d = describe(curves.sweep, kind)
    # The hull the cost curve found already gives the same claims as finding it again.
    assert describe(curves.sweep, kind, sorted(curves.cost_curve.points())) == d
    out: dict[str, list[dict[str, Any]]] = {}
    for c in d.claims:
        args = {k: v for k, v in c.items() if k not in ("kind", "text")}
        out.setdefault(c["kind"], []).append(args)
    return out


rows_strategy = st.lists(
    st.tuples(st.sampled_from([0.1, 0.2, 0.3, 0.5, 0.6, 0.8, 0.9]), st.integers(0, 1)),
    min_size=2,
    max_size=130,
).filter(lambda r: len({y for _, y in r}) == 2)


#: Block sizes the passes are cut into (None: the default): a run, a dip or a steepest
#: step across blocks is found as within one.
block_strategy = st.sampled_from([None, 1, 2, 3, 5])


def _claims_in_blocks(
    rows: list[tuple[float, int]], kind: str, block: int | None
) -> dict[str, list[dict[str, Any]]]:
    with pytest.MonkeyPatch.context() as mp:
        if block is not None:
            mp.setattr(blocks_module, "BLOCK", block)
        return _claims(rows, kind)


@settings(max_examples=200, deadline=None)
@given(rows_strategy, block_strategy)
def test_every_roc_claim_re_derives(rows: list[tuple[float, int]], block: int | None) -> None:
    got = _claims_in_blocks(rows, "roc", block)
    want = _oracle(rows)
    hull = got.pop("hull")
    assert len(hull) == 1 and hull[0]["vertices"] >= 2
    # Only what holds is claimed, and everything the oracle finds is (the cap of 7 can
    # leave the last out: flat_run first).
    for kind, args in want.items():
        if kind in got:
            assert got[kind] == args, kind
    missing = set(want) - set(got)
    assert missing <= {"flat_run", "steepest", "area"} and (
        not missing or sum(map(len, got.values())) + 1 >= 7
    )
    assert set(got) <= set(want)
    assert 3 <= sum(map(len, got.values())) + 1 <= 7  # the hull's sentence too


def test_made_curves_say_what_they_must() -> None:
    perfect = [(0.9, 1), (0.8, 1), (0.3, 0), (0.2, 0)]
    c = _claims(perfect)
    assert c["rises_before_first_fp"] == [{"tpr": "1"}] and "below_chance" not in c
    hooked = [(0.9, 0), (0.8, 0), (0.5, 1), (0.4, 1), (0.3, 0), (0.2, 1)]
    assert _claims(hooked)["below_chance"][0]["fpr_from"] == "1/3"
    tied = [(0.5, 1), (0.5, 0), (0.5, 1)]
    c = _claims(tied)
    assert set(c) == {"hull", "one_step", "area"} and c["hull"][0]["vertices"] == 2
    assert c["area"] == [{"auc": "1/2"}]
    one_class = tl.report([1, 1], [0.2, 0.4]).describe("roc")
    assert one_class.claims == () and "no actual negatives" in str(one_class.reason)


def test_pr_claims_re_derive_on_a_curve_that_dips() -> None:
    rows = [(0.9, 1), (0.8, 1), (0.7, 0), (0.6, 0), (0.5, 1), (0.4, 1), (0.3, 0)]
    c = _claims(rows, "pr")
    assert c["precision_at_first"] == [{"threshold": 0.9, "precision": "1"}]
    # precision 1, 1, 2/3, 2/4, 3/5, 4/6, 4/7: at 0.7 it falls from 1 and never
    # recovers to 1; at 0.6 it falls from 2/3 to 2/4 and recovers to 2/3 at 0.4.
    assert c["dips"] == [{"threshold": 0.6, "precision_before": "2/3", "precision_at": "1/2"}]
    dipping = [(0.9, 1), (0.8, 0), (0.7, 1), (0.6, 1), (0.5, 1), (0.4, 0)]
    c = _claims(dipping, "pr")
    # precision 1, 1/2 (a dip of 1/2), 2/3, 3/4, 4/5, then 4/6: 1/2 never recovers to 1.
    assert "dips" not in c
    recovering = [(0.9, 1), (0.8, 0), (0.7, 0), (0.6, 1), (0.5, 1), (0.4, 1)]
    c = _claims(recovering, "pr")
    # precision 1, 1/2, 1/3 (from 1/2: a fall of 1/6), then 2/4: back to 1/2 at 0.6.
    assert c["dips"] == [{"threshold": 0.7, "precision_before": "1/2", "precision_at": "1/3"}]
    assert c["baseline"] == [{"prevalence": "2/3"}]


def test_the_sentences_are_the_claims_texts_and_the_api_is_plain_mode_s() -> None:
    r = tl.report([1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1])
    d = r.describe("roc")
    assert d.sentences == [c["text"] for c in d.claims] and 3 <= len(d.sentences) <= 7
    assert d.sentences[0] == (
        "Before the first false positive the curve rises to TPR 1/3 ≈ 0.333: the "
        "highest-scored positive comes before any negative."
    )
    with pytest.raises(tl.InputError, match="give roc or pr"):
        r.describe("det")


def test_report_describe_gives_the_same_claims_in_text_and_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import json

    from threshold_lab.tui.cli import main

    want = tl.report([1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1]).describe("roc")
    assert main(["report", "canonical", "--describe", "roc", "--json", "--points", "0"]) == 0
    got = json.loads(capsys.readouterr().out)["description"]
    assert list(got) == ["roc"] and got["roc"] == want.as_json()
    assert main(["report", "canonical", "--describe", "roc", "--points", "0"]) == 0
    text = capsys.readouterr().out.splitlines()
    at = text.index("Shape of the ROC curve (each sentence a claim over the exact sweep)")
    assert text[at + 1 : at + 1 + len(want.sentences)] == [f"  {x}" for x in want.sentences]
    assert main(["report", "canonical", "--points", "0"]) == 0  # roc and pr by default
    whole = capsys.readouterr().out
    assert "Shape of the ROC curve" in whole and "Shape of the PR curve" in whole
    assert main(["report", "canonical", "--points", "0", "--describe", "none"]) == 0
    assert "Shape of the" not in capsys.readouterr().out
    assert main(["report", "canonical", "--json", "--points", "0", "--describe", "none"]) == 0
    assert "description" not in json.loads(capsys.readouterr().out)
    assert set(tl.report([1, 0, 1], [0.9, 0.2, 0.5]).to_dict()["description"]) == {"roc", "pr"}


def _dips_oracle(tp: list[int], fp: list[int], ts: list[float]) -> list[dict[str, str | float]]:
    """Each point k >= 2 where precision falls by more than 1/10 from the point before
    and a later point is at least as precise as that one was: the first two."""
    prec = [Fraction(t, t + f) if t + f else None for t, f in zip(tp, fp, strict=True)]
    out: list[dict[str, str | float]] = []
    for k in range(2, len(tp)):
        was, now = prec[k - 1], prec[k]
        if was is None or now is None or not now < was - Fraction(1, 10):
            continue
        if any(q is not None and q >= was for q in prec[k + 1 :]):
            out.append(
                {"threshold": ts[k - 1], "precision_before": str(was), "precision_at": str(now)}
            )
    return out[:2]


pr_rows_strategy = st.lists(
    st.tuples(st.integers(1, 40), st.integers(0, 1)), min_size=2, max_size=160
).filter(lambda r: len({y for _, y in r}) == 2)


@settings(max_examples=200, deadline=None)
@given(pr_rows_strategy, block_strategy)
def test_every_pr_claim_re_derives(rows: list[tuple[int, int]], block: int | None) -> None:
    """precision_at_first, dips, full_recall and baseline from the definitions, with
    scores of up to 40 levels (long jagged curves with many dips), whatever the block
    size; 3 to 7 sentences whatever the rows."""
    rows_ = [(s / 40, y) for s, y in rows]
    tp, fp, ts = _points(rows_)
    p, n = tp[-1], fp[-1]
    got = _claims_in_blocks(rows_, "pr", block)
    assert got.get("dips", []) == _dips_oracle(tp, fp, ts)
    assert got["precision_at_first"] == [
        {"threshold": ts[0], "precision": str(Fraction(tp[1], tp[1] + fp[1]))}
    ]
    k = next(k for k in range(len(tp)) if tp[k] == p)
    assert got["full_recall"] == [
        {"threshold": ts[k - 1], "precision": str(Fraction(p, tp[k] + fp[k]))}
    ]
    assert got["baseline"] == [{"prevalence": str(Fraction(p, p + n))}]
    assert 3 <= sum(map(len, got.values())) <= 7


def _crossing_claims(a: list[float], b: list[float], labels: list[int]) -> list[dict[str, Any]]:
    r = tl.report(labels, {"A": a, "B": b})
    d = r.describe("roc")
    assert d.sentences == [c["text"] for c in d.claims] and len(d.claims) <= 7
    return [c for c in d.claims if c["kind"] in ("crosses", "dominates", "same_curve")]


def test_two_models_crossing_once_twice_never_and_alike() -> None:
    labels = [1, 1, 0, 0, 1, 0]
    # A: (0,0) (0,1) (0,2) (1,2) (2,2) (3,2) (3,3); B: (0,0) (0,1) (1,1) (1,2) (1,3)
    # (2,3) (3,3), in (FP, TP): A is above until B's jump at FP 1 carries it past.
    once = _crossing_claims([0.9, 0.8, 0.7, 0.6, 0.1, 0.5], [0.9, 0.3, 0.8, 0.2, 0.7, 0.1], labels)
    assert once == [
        {
            "kind": "crosses",
            "text": "Model A's ROC curve goes from above model B's to below it at FPR 1/3 ≈ 0.333.",
            "model": "A",
            "other": "B",
            "fpr": "1/3",
            "goes": "below",
            "crossings": 1,
        }
    ]
    # Twice: A (0,0) (1,0) (1,1) (1,2) (2,2) (3,2) (3,3) against B's diagonal (0,0)
    # (1,1) (2,2) (3,3): A lies under B to FP 1, jumps past it there, meets it at FP 2
    # and lies under it after.
    labels2 = [0, 1, 1, 0, 0, 1]
    a2 = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    b2 = [0.4, 0.2, 0.8, 0.8, 0.2, 0.4]
    twice = _crossing_claims(a2, b2, labels2)
    assert [(c["fpr"], c["goes"], c["crossings"]) for c in twice] == [
        ("1/3", "above", 2),
        ("2/3", "below", 2),
    ]
    assert twice[0]["text"].endswith("(crossing 1 of 2).")
    never = _crossing_claims([0.9, 0.8, 0.2, 0.1, 0.7, 0.3], [0.9, 0.3, 0.8, 0.2, 0.7, 0.1], labels)
    assert [(c["kind"], c["model"], c["other"]) for c in never] == [("dominates", "A", "B")]
    alike = _crossing_claims([0.9, 0.8, 0.2, 0.1, 0.7, 0.3], [9, 8, 2, 1, 7, 3], labels)
    assert [c["kind"] for c in alike] == ["same_curve"]
    # One model: no comparison claims; groups of other rows are never compared.
    assert not [c for c in tl.report(labels, a2).describe("roc").claims if "other" in c]


def test_plain_report_and_api_compare_the_same_models(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two models of the same rows (--compare): plain describe, report --describe and
    the API say the same sentences, the last the models' crossing."""
    import io
    import json
    from pathlib import Path

    from threshold_lab.tui.cli import main

    here = Path(__file__).resolve().parents[3] / "docs" / "examples"
    a, b = str(here / "model_a.csv"), str(here / "model_b.csv")
    assert main(["report", a, "--compare", b, "--describe", "roc", "--json", "--points", "0"]) == 0
    told = json.loads(capsys.readouterr().out)["description"]["roc"]
    crossing = [c for c in told["claims"] if c["kind"] == "crosses"]
    assert [(c["model"], c["other"], c["goes"]) for c in crossing] == [
        ("model_a", "model_b", "below")
    ]
    monkeypatch.setattr("sys.stdin", io.StringIO("describe roc\nquit\n"))
    assert main(["--plain", a, "--compare", b]) == 0
    said = capsys.readouterr().out.splitlines()
    assert all(s in said for s in told["sentences"])
    assert (
        said[said.index(told["sentences"][0]) + len(told["sentences"]) - 1] == crossing[0]["text"]
    )


def test_rows_of_weight_zero_at_the_top_are_passed_over() -> None:
    """Found when every report began describing: a top score of weight 0 predicts no
    weight positive, so the first precision is the first point's that predicts any."""
    r = tl.report([1, 0, 1], [0.9, 0.8, 0.5], sample_weight=[0, 1, 1])
    first = r.describe("pr").claims[0]
    assert (first["threshold"], first["precision"]) == (0.8, "0")
    assert first["text"].startswith("At the highest threshold that predicts any weight positive")


def test_a_curve_below_chance_only_at_fpr_1_says_why() -> None:
    """Below the diagonal only at FPR 1 (positives scored under every negative): said as
    those positives, not as a model ranking negatives first; one and several."""
    from threshold_lab.core.curves.describe import describe
    from threshold_lab.core.curves.sweep import build_sweep
    from threshold_lab.core.data.dataset import make_dataset

    for bottom, said in (
        (1, "the lowest-scored positive enters: it scores"),
        (2, "the 2 lowest-scored positives enter: they score"),
    ):
        scores = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3][: 5 + bottom]
        labels = [True, True, True, False, False] + [True] * bottom
        sweep = build_sweep(make_dataset(scores, labels))
        claims = [c for c in describe(sweep, "roc", []).claims if c["kind"] == "below_chance"]
        assert len(claims) == 1 and claims[0]["fpr_from"] == claims[0]["fpr_to"] == "1"
        positives = 3 + bottom
        assert claims[0]["text"].startswith(
            f"At FPR 1 the curve is below the chance diagonal (TPR 3/{positives}"
        )
        assert claims[0]["text"].endswith(f"until {said} below every negative.")
