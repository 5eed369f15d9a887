"""The review band in every front end: report text and JSON, the Python API and plain
mode give the same band, from one solver, and a bad band goal is one line everywhere."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from threshold_lab.core.data.presets import preset
from threshold_lab.core.decide.band import band_lines, parse_band_goal, solve_band
from threshold_lab.core.session.session import Session
from threshold_lab.tui.cli import main
from threshold_lab.tui.plain import run_plain

import threshold_lab as tl

GOAL = "band: max coverage where precision >= 0.9 and npv >= 0.9"


def test_text_json_api_and_plain_give_one_band(capsys: pytest.CaptureFixture[str]) -> None:
    p = preset("good")
    sweep = tl.report(p.data.labels, p.data.scores).contents.first.analysis.sweep
    want = solve_band(sweep, parse_band_goal(GOAL))
    assert (want.t_high, want.t_low) == (0.64, 0.33)

    assert main(["report", "good", "--band-goal", GOAL, "--points", "0"]) == 0
    text = capsys.readouterr().out.splitlines()
    at = text.index("Review band: max coverage where precision >= 0.9 and npv >= 0.9")
    lines = band_lines(want, sweep)
    assert text[at : at + len(lines)] == lines
    assert text.index("Review band: max coverage where precision >= 0.9 and npv >= 0.9") < (
        text.index("Confusion matrix")
    )

    assert main(["report", "good", "--band-goal", GOAL, "--json", "--points", "0"]) == 0
    band = json.loads(capsys.readouterr().out)["band"]
    assert band == want.as_json()
    assert band["accepted"] == {"tp": 7, "fp": 0} and band["rejected"] == {"tn": 6, "fn": 0}
    assert band["reviewed"] == {"positives": 3, "negatives": 4}
    assert band["coverage"]["exact"] == "13/20"
    assert [c["holds"] for c in band["constraints"]] == [True, True]
    # The frontier of every band (the brute force is in tests/core/decide): on good's 20
    # rows, from reviewing all to one threshold with 3 errors.
    frontier = [(f["decided"], f["errors"], f["t_high"], f["t_low"]) for f in band["risk_coverage"]]
    assert frontier == [
        (0, 0, None, 0.03),
        (13, 0, 0.64, 0.33),  # not 6 rejected alone: inside the stretch at no errors
        (18, 2, 0.64, 0.55),
        (20, 3, 0.64, 0.64),
    ]
    assert band["risk_coverage"][2]["risk"]["exact"] == "1/9"  # 2 errors of 18 decided
    # Each bound's interval is Wilson's on its side's counts (7 accepted, 6 rejected).
    from statsmodels.stats.proportion import proportion_confint

    for c, (k, n) in zip(band["constraints"], [(7, 7), (6, 6)], strict=True):
        lo, hi = proportion_confint(k, n, alpha=0.05, method="wilson")
        assert c["interval"]["n"] == n and c["interval"]["method"] == "wilson"
        assert c["interval"]["low"] == pytest.approx(lo, abs=1e-12)
        assert c["interval"]["high"] == pytest.approx(hi, abs=1e-12)

    r = tl.report(p.data.labels, p.data.scores, band_goal=GOAL)
    assert r.band is not None and r.band.as_json() == band
    assert r.to_dict()["band"] == band
    assert tl.report(p.data.labels, p.data.scores).band is None

    out = io.StringIO()
    run_plain(Session(p.data, p.threshold, source="preset"), [f"band {GOAL}\n"], out, prompt=False)
    assert "\n".join(lines) in out.getvalue()


def test_a_bad_band_goal_is_one_line_everywhere(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "good", "--band-goal", "band: max recall"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and '"recall" is not a band objective' in err
    with pytest.raises(tl.InputError, match="is not a band objective"):
        tl.report([0, 1], [0.2, 0.8], band_goal="band: max recall")


def test_plain_moves_the_reject_threshold_as_the_explorer_s_keys_do() -> None:
    p = preset("good")
    out = io.StringIO()
    lines = [f"band {GOAL}\n", "band down\n", "band up\n", "band up\n", "band off\n", "band up\n"]
    run_plain(Session(p.data, p.threshold, source="preset"), lines, out, prompt=False)
    said = out.getvalue()
    assert "reject < 0.3: 5 (TN 5, FN 0); review 8 (3 positives, 5 negatives)" in said
    assert "reject < 0.38: 7 (TN 6, FN 1); review 6 (2 positives, 4 negatives)" in said
    assert "Band off." in said and "no band is set" in said


def test_check_fails_a_run_where_no_band_decides_a_row(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The top row a negative, the others positives: any accepting side errs.
    path = tmp_path / "rows.csv"
    path.write_text("score,label\n0.9,0\n0.5,1\n0.1,1\n", encoding="utf-8")
    goal = "band: max coverage where precision >= 1 and npv >= 1"
    junit = tmp_path / "gate.xml"
    argv = ["report", str(path), "--band-goal", goal, "--check", "--points", "0"]
    assert main([*argv, "--junit", str(junit)]) == 1
    assert "band not met: no band decides any row" in capsys.readouterr().err
    xml = junit.read_text(encoding="utf-8")
    assert 'failures="1"' in xml and 'classname="threshold-lab.band"' in xml
    assert main(["report", "good", "--band-goal", goal, "--check", "--points", "0"]) == 0


def test_fractional_weights_give_no_wilson_interval_for_a_bound() -> None:
    """Wilson's interval counts examples: with fractional weights a bound's value has
    none (the report's own rule), said in the text and the JSON; weights so small their
    squares underflow give the same answer, not a crash."""
    import json

    import threshold_lab as tl

    goal = "band: max coverage where precision >= 0.9 and npv >= 0.9"
    for w in (0.5, 1e-170):
        r = tl.report(
            [1, 1, 0, 0, 1], [0.9, 0.8, 0.7, 0.3, 0.1], sample_weight=[w] * 5, band_goal=goal
        )
        band = json.loads(r.to_json())["band"]
        precision = band["constraints"][0]
        assert precision["interval"] is None
        assert precision["interval_reason"].startswith("the weights are not whole")
        assert "no interval: the weights are not whole" in r.text()


def test_plain_band_alone_says_the_band_in_force() -> None:
    p = preset("good")
    out = io.StringIO()
    lines = ["band\n", f"band {GOAL}\n", "band\n", "band off\n", "band\n"]
    run_plain(Session(p.data, p.threshold, source="preset"), lines, out, prompt=False)
    said = out.getvalue().splitlines()
    refused = [k for k, line in enumerate(said) if line.startswith("error: no band is set")]
    assert len(refused) == 2  # before the band and after it is dropped
    inbetween = said[refused[0] + 1 : refused[1]]
    assert any(line.startswith("Band: accept >= ") for line in inbetween)
