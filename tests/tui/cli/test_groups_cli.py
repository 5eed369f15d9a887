"""Groups on the command line: ``report FILE --group COL`` in text and JSON (the
contract's names), ``--check --max-gap`` as a CI gate (exit 1 with a line a failed
gap), and the refusals, each naming what is wrong."""

from __future__ import annotations

import csv
import itertools
import json
from fractions import Fraction
from pathlib import Path

import pytest
from threshold_lab.tui.cli import main

import threshold_lab as tl
from tests.paths import DATA, clinics_rows

CLINICS = str(DATA / "clinics.csv")


def _json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict:  # type: ignore[type-arg]
    assert main(["report", *argv, "--json", "--points", "0"]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_the_json_has_the_contract_s_names(capsys: pytest.CaptureFixture[str]) -> None:
    d = _json(capsys, CLINICS, "--group", "site")
    assert d["group_column"] == "site"
    assert [g["name"] for g in d["groups"]] == ["east", "north", "south"]
    east = d["groups"][0]
    assert set(east) >= {
        "name",
        "n",
        "positives",
        "prevalence",
        "counts",
        "metrics",
        "selection_rate",
        "roc",
        "pr",
    }
    assert (east["n"], east["positives"]) == (20, 4)
    assert east["counts"] == {"tp": 3, "fp": 5, "tn": 11, "fn": 1}
    assert east["selection_rate"]["exact"] == "2/5"
    assert east["selection_rate"]["interval"]["method"] == "wilson"
    assert east["prevalence"]["exact"] == "1/5"
    assert east["roc"]["auc"]["exact"] == "101/128"
    assert east["roc"]["interval"]["method"] == "delong"
    assert "average_precision" in east["pr"]
    gaps = d["gaps"]
    for name in (
        "demographic_parity_difference",
        "demographic_parity_ratio",
        "equal_opportunity_difference",
        "equalized_odds_difference",
        "predictive_parity_difference",
        "accuracy_difference",
    ):
        assert set(gaps[name]) >= {"value", "groups", "interval"}, name
    dp = gaps["demographic_parity_difference"]
    assert dp["groups"] == ["south", "north"] and dp["exact"] == "23/60"
    assert dp["interval"]["method"] == "newcombe"
    assert gaps["demographic_parity_ratio"]["interval"] is None


def test_each_group_in_the_json_is_the_report_of_its_rows(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    d = _json(capsys, CLINICS, "--group", "site", "--threshold", "0.45")
    rows = Path(CLINICS).read_text().splitlines()
    for g in d["groups"]:
        mine = [r for r in rows[1:] if r.split(",")[1] == g["name"]]
        path = tmp_path / f"{g['name']}.csv"
        path.write_text("\n".join([rows[0], *mine]) + "\n")
        alone = _json(capsys, str(path), "--threshold", "0.45")
        assert g["counts"] == alone["counts"] and g["metrics"] == alone["metrics"]
        assert g["roc"]["auc"] == alone["roc"]["auc"]
        assert g["pr"]["average_precision"] == alone["pr"]["average_precision"]


def test_the_text_report_has_the_table_each_group_and_the_gaps(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["report", CLINICS, "--group", "site", "--points", "0"]) == 0
    out = capsys.readouterr().out
    section = out[out.index("Groups by site") :]
    assert "  east   20    4          3   5   11  1   8/20" in section
    assert (
        "demographic parity difference = 22/30 − 14/40 = 23/60 ≈ 0.3833 (selection rate "
        "of south minus north; 95% CI 0.147 to 0.563, Newcombe)"
    ) in section
    assert "north: 40 rows, 12 positive (prevalence 12/40)" in section


def test_check_fails_a_gap_over_its_limit_with_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(
        [
            "report",
            CLINICS,
            "--group",
            "site",
            "--check",
            "--json",
            "--max-gap",
            "equal_opportunity_difference 0.05",
            "--max-gap",
            "demographic_parity_ratio 0.4",
            "--max-gap",
            "accuracy_difference 0.5",
        ]
    )
    captured = capsys.readouterr()
    assert code == 1
    json.loads(captured.out)  # the report is still written whole
    lines = captured.err.strip().splitlines()
    assert lines == [
        "threshold-lab: note: gap not within --max-gap: equal_opportunity_difference = "
        "0.1389 > 0.05 (equal opportunity difference: south against east)"
    ]
    assert (
        main(
            [
                "report",
                CLINICS,
                "--group",
                "site",
                "--check",
                "--max-gap",
                "demographic_parity_ratio 0.5",
            ]
        )
        == 1
    )
    assert "demographic_parity_ratio = 0.4773 < 0.5" in capsys.readouterr().err
    assert (
        main(
            [
                "report",
                CLINICS,
                "--group",
                "site",
                "--check",
                "--max-gap",
                "equalized_odds_difference 0.4",
            ]
        )
        == 0
    )


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--group", "site", "--check", "--max-gap", "parity 0.1"], "no gap named 'parity'"),
        (
            ["--group", "site", "--check", "--max-gap", "accuracy_difference x"],
            "'x' is not a number",
        ),
        (
            ["--group", "site", "--check", "--max-gap", "accuracy_difference"],
            "give a gap's name and a number",
        ),
        (
            ["--group", "site", "--check", "--max-gap", "accuracy_difference -1"],
            "finite number >= 0",
        ),
        (["--group", "site", "--max-gap", "accuracy_difference 0.1"], "--max-gap needs --check"),
        (["--max-gap", "accuracy_difference 0.1", "--check"], "--max-gap needs --group COL"),
        (["--group", "nosuch"], "no column named 'nosuch' for the groups"),
        (["--group", "id"], "90 groups"),
        (["--check"], "--check needs --goal"),
    ],
)
def test_bad_group_options_are_refused_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    code = main(["report", CLINICS, *argv])
    err = capsys.readouterr().err
    if said == "90 groups":  # 90 groups of one row: allowed, and each has one class
        assert code == 0
        return
    assert (
        code == 2 and said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err
    )


def test_a_preset_has_no_group_column(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report", "canonical", "--group", "site"]) == 2
    assert "canonical is a preset, with no group column" in capsys.readouterr().err


def test_a_missing_group_cell_names_its_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    p = tmp_path / "g.csv"
    p.write_text("score,label,site\n0.9,1,a\n0.2,0,\n0.4,1,b\n")
    assert main(["report", str(p), "--group", "site"]) == 2
    assert "row 2 has no group (an empty name)" in capsys.readouterr().err


def test_the_api_gives_the_same_groups_and_gaps_as_the_command(
    capsys: pytest.CaptureFixture[str],
) -> None:
    d = _json(capsys, CLINICS, "--group", "site")
    rows = clinics_rows()
    r = tl.report([r[3] for r in rows], [r[2] for r in rows], groups=[r[1] for r in rows])
    api = r.to_dict(points=0)
    assert api["groups"] == d["groups"] and api["gaps"] == d["gaps"]
    assert r.gaps is not None
    assert r.gaps["demographic_parity_difference"].value.exact == Fraction(23, 60)


def test_groups_with_a_parquet_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    p = tmp_path / "g.parquet"
    pq.write_table(
        pa.table({"score": [0.9, 0.8, 0.3, 0.1], "label": [1, 0, 1, 0], "site": [1, 1, 2, 2]}), p
    )
    d = _json(capsys, str(p), "--group", "site")
    assert [g["name"] for g in d["groups"]] == ["1", "2"]
    assert d["gaps"]["demographic_parity_difference"]["exact"] == "1/1"


def test_group_thresholds_in_the_json_have_the_contract_s_names(
    capsys: pytest.CaptureFixture[str],
) -> None:
    d = _json(
        capsys,
        CLINICS,
        "--group",
        "site",
        "--group-goal",
        "equal_opportunity",
        "--tolerance",
        "0.05",
    )
    g = d["group_thresholds"]
    assert set(g) >= {
        "criterion",
        "objective",
        "tolerance",
        "feasible",
        "reason",
        "thresholds",
        "objective_value",
        "gap",
        "runner_up",
    }
    assert (g["criterion"], g["objective"], g["tolerance"]) == (
        "equal_opportunity",
        "max accuracy",
        0.05,
    )
    assert g["feasible"] is True and g["reason"] is None
    assert g["thresholds"] == {"east": 0.56, "north": 0.51, "south": 0.58}
    assert g["objective_value"]["exact"] == "71/90"
    assert g["gap"]["exact"] == "1/36"  # TPR: north 10/12 against south's 16/18 and east's 3/4
    assert g["runner_up"]["objective_value"]["exact"] == "7/9"
    assert "exhaustive" in g["search"]


def test_the_runner_up_is_the_next_cost_not_the_best_of_another_low_end(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """aSAH's S100B by WFNS grade, equal opportunity within 0.15 at FP:FN costs 1:3:
    the best costs 61, and choices costing 62, 63 and 64 are feasible (a brute force
    over every choice says so), so the runner-up costs 62 (one group's threshold
    moved), not 111 (every poor outcome of two grades missed: the best with another
    smallest TPR, which the JSON keeps as best_other_low_end)."""
    argv = [str(DATA / "asah.csv"), "--score-column", "s100b", "--label-column", "outcome"]
    argv += ["--positive", "Poor", "--group", "wfns", "--group-goal", "equal_opportunity"]
    argv += ["--goal", "min cost fp=1 fn=3", "--tolerance", "0.15"]
    g = _json(capsys, *argv)["group_thresholds"]
    assert g["objective_value"]["exact"] == "61/1"
    assert g["runner_up"]["objective_value"]["exact"] == "62/1"
    assert g["runner_up"]["gap"]["value"] <= 0.15
    assert g["best_other_low_end"]["objective_value"]["exact"] == "111/1"
    assert g["runner_up_reason"] is None
    chosen, runner = g["thresholds"], g["runner_up"]["thresholds"]
    moved = sorted(name for name in chosen if chosen[name] != runner[name])
    assert g["runner_up"]["changed"] == moved and len(moved) == 1
    assert main(["report", *argv, "--points", "0"]) == 0
    lines = capsys.readouterr().out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("Per-group thresholds"))
    runner_line = next(line for line in lines[at:] if "runner-up" in line)
    name = moved[0]
    assert runner_line.startswith("  runner-up (the best choice with the next cost): 62, ")
    assert "1 more than the best" in runner_line
    assert f"{name} at {runner[name]} instead of {chosen[name]}" in runner_line
    assert "111" not in "\n".join(lines[at:])


def test_group_thresholds_agree_with_each_group_at_its_threshold(
    capsys: pytest.CaptureFixture[str],
) -> None:
    d = _json(
        capsys,
        CLINICS,
        "--group",
        "site",
        "--group-goal",
        "demographic_parity",
        "--goal",
        "min cost fp=1 fn=5",
    )
    g = d["group_thresholds"]
    cost, rates = 0, []
    for name, t in g["thresholds"].items():
        rows = [r for r in clinics_rows() if r[1] == name]
        pred = [t is not None and r[2] >= t for r in rows]
        fp = sum(p and r[3] == 0 for p, r in zip(pred, rows, strict=True))
        fn = sum(not p and r[3] == 1 for p, r in zip(pred, rows, strict=True))
        cost += fp + 5 * fn
        rates.append(Fraction(sum(pred), len(rows)))
    assert g["objective_value"]["value"] == cost
    assert max(rates) - min(rates) <= Fraction(1, 100)


def test_an_infeasible_criterion_says_the_smallest_gap(capsys: pytest.CaptureFixture[str]) -> None:
    d = _json(capsys, CLINICS, "--group", "site", "--group-goal", "predictive_parity")
    g = d["group_thresholds"]
    assert g["feasible"] is False and g["thresholds"] is None
    assert "the smallest gap reachable is" in g["reason"] and g["smallest_gap"] > 0.01


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--group-goal", "equal_opportunity"], "--group-goal needs --group COL"),
        (["--group", "site", "--group-goal", "fair"], "not a criterion"),
        (["--group", "site", "--tolerance", "0.1"], "--tolerance needs --group-goal"),
        (
            ["--group", "site", "--group-goal", "equal_opportunity", "--tolerance", "2"],
            "between 0 and 1",
        ),
        (
            ["--group", "site", "--group-goal", "equal_opportunity", "--goal", "max mcc"],
            "mcc is not a sum over groups",
        ),
        (["--group", "site", "--group-goal", "same_goal"], "same_goal needs --goal"),
        (
            [
                "--group",
                "site",
                "--group-goal",
                "equal_opportunity",
                "--goal",
                "max precision where recall >= 0.8",
            ],
            "apply with same_goal only",
        ),
    ],
)
def test_bad_group_goals_are_refused_with_one_line(
    capsys: pytest.CaptureFixture[str], argv: list[str], said: str
) -> None:
    assert main(["report", CLINICS, *argv]) == 2
    err = capsys.readouterr().err
    assert said in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_same_goal_solves_the_goal_in_each_group(capsys: pytest.CaptureFixture[str]) -> None:
    goal = "max precision where recall >= 0.8"
    d = _json(capsys, CLINICS, "--group", "site", "--group-goal", "same_goal", "--goal", goal)
    for name, t in d["group_thresholds"]["thresholds"].items():
        rows = [r for r in clinics_rows() if r[1] == name]
        one = tl.report([r[3] for r in rows], [r[2] for r in rows], goal=goal)
        assert one.goal is not None and one.goal.threshold == t


def test_from_frame_reads_the_group_column(capsys: pytest.CaptureFixture[str]) -> None:
    import pandas as pd  # type: ignore[import-untyped]  # no pandas-stubs installed
    import polars as pl

    d = _json(capsys, CLINICS, "--group", "site")
    df = pd.read_csv(CLINICS)
    for frame in (df, pl.from_pandas(df), df.assign(site=df["site"].astype("category"))):
        r = tl.from_frame(frame, score="score", label="label", group="site")
        api = r.to_dict(points=0)
        assert api["groups"] == d["groups"] and api["gaps"] == d["gaps"]
    with pytest.raises(tl.InputError, match="nosuch"):
        tl.from_frame(df, group="nosuch")
    with pytest.raises(tl.InputError, match="not both"):
        tl.from_frame(df, group="site", groups=df["site"])


def _aggregated_clinics(tmp_path: Path) -> Path:
    """clinics.csv as ``aggregate --by site`` writes it: a row a site and score."""
    table: dict[tuple[str, float], list[int]] = {}
    for _, site, score, label in clinics_rows():
        table.setdefault((site, score), [0, 0])[0 if label == 1 else 1] += 1
    p = tmp_path / "agg.csv"
    lines = [f"{s},{pos},{neg},{site}" for (site, s), (pos, neg) in sorted(table.items())]
    p.write_text("score,positives,negatives,site\n" + "\n".join(lines) + "\n")
    return p


def test_an_aggregated_file_s_groups_open_as_groups(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    rows = _json(capsys, CLINICS, "--group", "site", "--group-goal", "equal_opportunity")
    agg = _aggregated_clinics(tmp_path)
    for argv in ([], ["--group", "site"], ["--group", "SITE"], ["--by", "site"]):
        d = _json(capsys, str(agg), *argv, "--group-goal", "equal_opportunity")
        assert d["group_column"] == "site"
        # The same groups, gaps and thresholds; n counts the table's weighted entries.
        keep = ("counts", "metrics", "selection_rate", "roc", "pr", "positives", "prevalence")
        for a, b in zip(d["groups"], rows["groups"], strict=True):
            assert a["name"] == b["name"] and {k: a[k] for k in keep} == {k: b[k] for k in keep}
        assert d["gaps"] == rows["gaps"]
        assert d["group_thresholds"] == rows["group_thresholds"]
        assert d["roc"]["auc"] == rows["roc"]["auc"] and d["counts"] == rows["counts"]


def test_an_aggregated_file_s_one_group_alone_and_the_old_models(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    agg = _aggregated_clinics(tmp_path)
    east = _json(capsys, str(agg), "--group", "east")
    assert "groups" not in east and "gaps" not in east
    one = tl.report(
        [r[3] for r in clinics_rows() if r[1] == "east"],
        [r[2] for r in clinics_rows() if r[1] == "east"],
    ).to_dict(points=0)
    assert east["roc"]["auc"] == one["roc"]["auc"] and east["counts"] == one["counts"]
    assert "(site = east)" in east["source"]
    models = _json(capsys, str(agg), "--as-models")
    assert models["groups"] == {"by": "site", "names": ["east", "north", "south"], "shown": "east"}
    assert main(["report", str(agg), "--group", "west"]) == 2
    err = capsys.readouterr().err
    assert (
        "--group west: neither the group column ('site') nor a group in it; the groups "
        "are: east, north, south" in err
    )


def test_a_quantised_aggregated_file_s_pooled_bound_counts_shared_scores_as_merged(
    tmp_path: Path,
) -> None:
    from threshold_lab.core.data.sources import open_source

    p = tmp_path / "q.csv"
    p.write_text(
        "score,positives,negatives,merged,quantisation,site\n"
        "0.9,3,1,true,round:1,a\n0.5,1,1,false,round:1,a\n0.1,1,4,true,round:1,a\n"
        "0.9,1,0,false,round:1,b\n0.5,2,2,false,round:1,b\n"
    )
    src = open_source(str(p))
    assert [n for n, _ in src.groups] == ["a", "b"]
    # Pooled: 0.9 holds 4 positives and 1 negative (merged in a), 0.5 holds 3 and 3 (two
    # groups' rows: their own scores may differ), 0.1 holds 1 and 4 (merged).
    e = (4 * 1 + 3 * 3 + 1 * 4) / (2 * 8 * 8)
    assert src.quantised[""].bound == pytest.approx(e)


def test_the_group_column_is_named_as_given(capsys: pytest.CaptureFixture[str]) -> None:
    import pandas as pd

    df = pd.read_csv(CLINICS)
    for r in (
        tl.from_frame(df, group="site"),
        tl.report(df["label"], df["score"], groups=df["site"]),
        tl.report(list(df["label"]), list(df["score"]), groups=list(df["site"]), group_name="site"),
    ):
        assert r.to_dict(points=0)["group_column"] == "site"
    plain = tl.report(list(df["label"]), list(df["score"]), groups=list(df["site"]))
    assert plain.to_dict(points=0)["group_column"] == "group"


def test_a_ratio_s_runner_up_is_its_next_value_checked_by_brute_force(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """aSAH by WFNS grade at max F1: the runner-up's F1 is the largest below the best
    over every choice of one sweep point a grade within the gap (a brute force in
    fractions), and the report's line says it with the grade it moves."""
    argv = [str(DATA / "asah.csv"), "--score-column", "s100b", "--label-column", "outcome"]
    argv += ["--positive", "Poor", "--group", "wfns", "--group-goal", "equal_opportunity"]
    argv += ["--goal", "max f1", "--tolerance", "0.15"]
    g = _json(capsys, *argv)["group_thresholds"]
    with (DATA / "asah.csv").open() as f:
        rows = list(csv.DictReader(f))
    cells = []  # each grade's (TP, FP, FN, TPR) at each threshold, above all included
    for w in sorted({r["wfns"] for r in rows}):
        mine = [(float(r["s100b"]), r["outcome"] == "Poor") for r in rows if r["wfns"] == w]
        pos = sum(y for _, y in mine)
        at = []
        for t in [None, *sorted({s for s, _ in mine}, reverse=True)]:
            tp = sum(y for s, y in mine if t is not None and s >= t)
            fp = sum(not y for s, y in mine if t is not None and s >= t)
            at.append((tp, fp, pos - tp, Fraction(tp, pos)))
        cells.append(at)
    f1s = set()
    for pick in itertools.product(*cells):
        tprs = [c[3] for c in pick]
        if max(tprs) - min(tprs) <= Fraction(15, 100):
            hit, false, missed = (sum(c[i] for c in pick) for i in range(3))
            if 2 * hit + false + missed:
                f1s.add(Fraction(2 * hit, 2 * hit + false + missed))
    best, *rest = sorted(f1s, reverse=True)
    assert Fraction(g["objective_value"]["exact"]) == best == Fraction(82, 143)
    assert Fraction(g["runner_up"]["objective_value"]["exact"]) == rest[0] == Fraction(41, 72)
    assert g["runner_up_reason"] is None and g["runner_up"]["gap"]["value"] <= 0.15
    chosen, runner = g["thresholds"], g["runner_up"]["thresholds"]
    moved = [w for w in chosen if chosen[w] != runner[w]]
    assert g["runner_up"]["changed"] == moved == ["2"]
    assert main(["report", *argv, "--points", "0"]) == 0
    said = capsys.readouterr().out
    line = next(x for x in said.splitlines() if "runner-up (the best choice" in x)
    assert line.startswith("  runner-up (the best choice with the next F1): 82/144 ≈ 0.5694, ")
    assert "less than the best; 2 at 0.04 instead of 0.07" in line
