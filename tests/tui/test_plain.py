"""Plain line mode: scripted sessions, every command and every error, exact sentences."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.data.presets import preset
from threshold_lab.core.session.session import Session
from threshold_lab.tui.commands import plain_words
from threshold_lab.tui.plain import run_plain

CANON_STATUS = (
    "Threshold 0.5: 3 of 5 predicted positive; TP 2, FP 1, TN 1, FN 1; precision 2/3, recall 2/3."
)


def session(name: str = "canonical") -> Session:
    p = preset(name)
    return Session(p.data, p.threshold, source=f"preset {name}")


def run(*commands: str, name: str = "canonical") -> list[str]:
    out = io.StringIO()
    run_plain(session(name), [c + "\n" for c in commands], out, prompt=False)
    # Drop the greeting and the opening status, and the "Moved:" lines (their own test).
    return [ln for ln in out.getvalue().splitlines()[2:] if not ln.startswith("Moved: ")]


def test_greeting_and_opening_status() -> None:
    out = io.StringIO()
    run_plain(session(), [], out, prompt=False)
    assert out.getvalue().splitlines() == [
        "threshold-lab plain mode: preset canonical, 5 rows. "
        "Type help for the commands, quit to leave.",
        CANON_STATUS,
    ]


def test_threshold_commands() -> None:
    assert run("threshold 0.81") == [
        "Threshold 0.81: 1 of 5 predicted positive; TP 1, FP 0, TN 2, FN 2; "
        "precision 1/1, recall 1/3.",
        "Now at tie group 1 of 4 (score 0.9, 1 row).",
    ]
    assert run("threshold above-all")[0].endswith(
        "precision undefined (no predicted positives), recall 0/3."
    )
    assert run("lowest")[0].startswith("Threshold 0.1: 5 of 5 predicted positive")
    assert run("next")[1] == "Now at tie group 3 of 4 (score 0.4, 1 row)."
    assert run("prev")[1] == "Now at tie group 1 of 4 (score 0.9, 1 row)."
    assert run("step 1")[0].startswith("Threshold 0.51:")
    assert run("step -10")[0].startswith("Threshold 0.4:")


def test_play_steps_every_tie_group() -> None:
    lines = run("play")
    steps = [line for line in lines if line.startswith("Step ")]
    assert steps == [
        "Step 0 of 4: threshold above all scores. Nothing is predicted positive.",
        "Step 1 of 4: threshold 0.9. 1 row enters: a positive.",
        "Step 2 of 4: threshold 0.8. 2 rows enter together: 1 positive, 1 negative.",
        "Step 3 of 4: threshold 0.4. 1 row enters: a negative.",
        "Step 4 of 4: threshold 0.1. 1 row enters: a positive.",
    ]


def test_rows_metrics_explain_status() -> None:
    assert run("rows") == [
        "5 rows at threshold 0.5, file order:",
        "s1: score 0.9, actual 1, predicted 1, TP",
        "s2: score 0.8, actual 0, predicted 1, FP",
        "s3: score 0.8, actual 1, predicted 1, TP",
        "s4: score 0.4, actual 0, predicted 0, TN",
        "s5: score 0.1, actual 1, predicted 0, FN",
    ]
    metrics = run("metrics")
    assert metrics[0] == "Metrics at threshold 0.5:"
    # With its Wilson interval (intervals are on by default), and the line saying
    # how the intervals were made.
    assert (
        "precision = TP/(TP+FP) = 2/(2+1) = 2/3 ≈ 0.6667 (95% CI 0.21 to 0.94, Wilson, n = 3)"
        in metrics
    )
    assert len(metrics) == 24 and metrics[-1].startswith("(95% intervals: Wilson's")
    assert run("explain recall") == [
        "recall = TP/(TP+FN) = 2/(2+1) = 2/3 ≈ 0.6667. "
        "The denominator TP+FN = 3 counts the actual positives."
    ]
    assert run("threshold above-all", "explain precision")[-1] == (
        "precision = TP/(TP+FP) = 0/(0+0) is undefined: no predicted positives (TP+FP=0). "
        "The denominator TP+FP = 0 counts the predicted positives."
    )
    assert run("status") == [CANON_STATUS]


def test_edits_undo_redo_reset() -> None:
    lines = run("set s2 score 0.3", "label s4 1", "add 0.6 0", "delete s1", "undo", "redo", "reset")
    assert lines[0] == "Row s2: score from 0.8 to 0.3."
    assert lines[2] == "Row s4: actual label flipped to 1."
    assert lines[4] == "Added row new6: score 0.6, label 0."
    assert lines[6] == "Removed row s1. Undo brings it back."
    assert lines[8:10] == ["Undone: removed row s1.", lines[5]]
    assert lines[10:12] == ["Redone: removed row s1.", lines[7]]
    assert lines[12:] == ["Reset to preset canonical as loaded, threshold 0.5.", CANON_STATUS]


def test_presets_sweep_and_curves() -> None:
    assert run("preset ap-vs-trapezoid")[0].startswith("Loaded preset ap-vs-trapezoid:")
    assert len(run("presets")) == 13  # deliveries (two models), triage (three classes)
    sweep = run("sweep")
    assert sweep[0].split() == [
        "threshold",
        "TP",
        "FP",
        "TN",
        "FN",
        "TPR",
        "FPR",
        "precision",
        "recall",
        "hull",
        "notable",
    ]
    assert sweep[3].split()[:6] == [">", "0.8", "2", "1", "1", "1"]
    # The hull's vertices are marked (the canonical fixture's 0.8 lies on an edge).
    assert ["*" in line.split() for line in sweep[1:4]] == [True, True, False]
    roc = run("roc")
    assert roc[2] == (
        "Threshold 0.8: 1 positive and 1 negative enter together, a diagonal step to "
        "FPR 1/2, TPR 2/3 (active)."
    )
    assert roc[-2] == "ROC AUC, the trapezoid area under these points: 7/12 ≈ 0.5833."
    assert roc[-1] == "ROC AUC 95% CI 0.00 to 1.00, DeLong; SE 0.3118."
    pr = run("preset ap-vs-trapezoid", "pr")
    assert any("5/6 ≈ 0.8333" in line for line in pr)
    assert any("19/24 ≈ 0.7917" in line for line in pr)
    assert run("preset no-actual-positives", "roc")[-1] == (
        "No ROC curve: ROC needs both actual classes: no actual positives (TP+FN=0)."
    )


def test_save_never_overwrites_unless_told(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    assert run(f"save {target}") == [f"Saved 5 rows to {target}."]
    assert target.read_text().startswith("id,score,label\ns1,0.9,1\n")
    lines = run(f"save {target}")
    assert lines == [
        f"error: {target} is an existing file; nothing written. To replace it: save "
        f"{target} overwrite; nothing changed"
    ]
    assert run(f"save {target} overwrite") == [f"Saved 5 rows to {target}."]


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("bogus", "error: unknown command 'bogus'; type help for the commands"),
        (
            "threshold",
            "error: expected threshold T, such as threshold 0.5 or threshold "
            "above-all; nothing changed",
        ),
        ("threshold abc", "error: threshold 'abc' is not a number"),
        ("threshold nan", "error: threshold 'nan' is not a finite number"),
        ("step x", "error: step 'x' is not a whole number"),
        ("set s2 0.3", "error: expected set ID score S, such as set s2 score 0.7"),
        ("set s9 score 0.3", "error: no row 's9'; rows are: s1, s2, s3, s4, s5"),
        ("set s2 score 1.5", "error: score 1.5 is outside [0, 1]"),
        ("set s2 score inf", "error: score 'inf' is not a finite number"),
        ("label s2 2", "error: label '2' is not 0 or 1"),
        ("add 0.3", "error: expected add SCORE LABEL, such as add 0.3 1"),
        ("add x 1", "error: score 'x' is not a number"),
        ("delete", "error: expected delete ID, such as delete s2"),
        ("preset nope", "error: no preset named 'nope'"),
        ("explain nothing", "error: explain what 'nothing'? metrics are: precision"),
        ("metrics now", "error: this command takes no arguments (got 'now')"),
        ("save", "error: expected save PATH, or save PATH overwrite"),
        ('threshold "0.5', "error: cannot read that line"),
    ],
)
def test_bad_commands_are_one_line_and_change_nothing(command: str, message: str) -> None:
    lines = run(command, "status")
    assert len(lines) == 2
    assert lines[0].startswith(message)
    assert lines[1] == CANON_STATUS


def test_last_row_refused() -> None:
    lines = run("delete s1", "delete s2", "delete s3", "delete s4", "delete s5")
    assert lines[-1] == (
        "error: cannot remove the only row: at least one scored example is needed; nothing changed"
    )


def test_quit_stops_reading() -> None:
    assert run("quit", "status") == []


def test_help_lists_every_command() -> None:
    text = "\n".join(run("help all"))
    for word in (
        "threshold",
        "next",
        "prev",
        "lowest",
        "rows",
        "set ID score",
        "label ID",
        "add SCORE",
        "delete ID",
        "undo",
        "redo",
        "reset",
        "preset NAME",
        "presets",
        "metrics",
        "explain METRIC",
        "sweep",
        "roc",
        "pr",
        "save PATH",
        "quit",
    ):
        assert word in text


def test_pipe_has_no_prompt_no_escape_codes() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "threshold_lab", "--plain", "--preset", "canonical"],
        input="threshold 0.81\nroc\nquit\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0 and proc.stderr == ""
    assert "\x1b" not in proc.stdout
    assert not any(line.startswith("> ") for line in proc.stdout.splitlines())
    assert proc.stdout.splitlines()[1] == CANON_STATUS
    assert "precision 1/1, recall 1/3." in proc.stdout


def test_rows_by_cell_and_score_and_the_boundary() -> None:
    assert run("rows FP high") == [
        "1 FP row at threshold 0.5, score, high to low:",
        "s2: score 0.8, actual 0, predicted 1, FP",
    ]
    assert run("rows low 2") == [
        "5 rows at threshold 0.5, score, low to high:",
        "s5: score 0.1, actual 1, predicted 0, FN",
        "s4: score 0.4, actual 0, predicted 0, TN",
        "... and 3 more rows: rows 5 shows them all.",
    ]
    assert run("boundary") == [
        "3 rows either side of threshold 0.5:",
        "s2: score 0.8, actual 0, predicted 1, FP",
        "s3: score 0.8, actual 1, predicted 1, TP",
        "s4: score 0.4, actual 0, predicted 0, TN",
    ]
    assert run("rows XP") == [
        "error: rows takes a cell (TP, FP, TN, FN), an order (file, high, low) and a count, "
        "not 'XP'; nothing changed"
    ]


def test_help_alone_lists_topics_and_commands_and_help_topic_shows_one() -> None:
    # Before: help goal printed all 40 lines of help.
    listed = run("help")
    assert listed[0].startswith("Help: help TOPIC for a group of commands, help COMMAND")
    assert "Topics: threshold, rows, edits, deciding, models, classes, how-sure, views" in (
        "\n".join(listed)
    )
    goal = run("help goal")
    assert goal[0].startswith("  goal GOAL | goal | goal off") and len(goal) < 15
    assert any(line.startswith("A goal: max|min METRIC [where") for line in goal)
    assert any("predicted_positives" in line for line in goal)
    edits = run("help edits")
    assert edits[0] == "Edits:" and any(line.startswith("  delete ID") for line in edits)
    assert not any(line.startswith("  goal") for line in edits)
    assert run("help QUIT!")[0].startswith("  quit | exit")
    assert run("help nonsense")[0].startswith("error: help: no topic or command 'nonsense'")


@pytest.mark.parametrize("word", sorted(plain_words()))
def test_every_command_word_has_its_help(word: str) -> None:
    lines = run(f"help {word}")
    assert lines and not lines[0].startswith("error"), lines


def test_roc_and_status_name_each_rate_by_its_counts() -> None:
    # TP 8 of 14 positives at 0.9: TPR 8/14, not the 4/7 it reduces to.
    data = make_dataset([0.9] * 8 + [0.2] * 6 + [0.8] * 2 + [0.1] * 8, [1] * 14 + [0] * 10)
    out = io.StringIO()
    run_plain(Session(data, 0.5, source="arrays"), ["roc\n", "status\n"], out, prompt=False)
    lines = out.getvalue().splitlines()
    assert (
        "Threshold 0.9: 8 positives enter, up to FPR 0/10, TPR 8/14 "
        "(TPR at FPR <= 0.001, 0.01, 0.05, 0.1)." in lines
    )
    assert (
        "Threshold 0.2: 6 positives enter, up to FPR 2/10, TPR 14/14 "
        "(FPR at TPR >= 0.9, 0.95, 0.99; max F1; max informedness)." in lines
    )
    assert lines[-1].endswith("; precision 8/10, recall 8/14.")


def test_smooth_says_each_model_named_and_refuses_what_cannot_be() -> None:
    from threshold_lab.core.curves.smooth import smooth

    out = run("smooth binormal", "smooth normal", "smooth loess", "smooth", name="good")
    want = smooth(session("good").analysis.sweep, "binormal")
    assert out[0].startswith(f"ROC AUC, smoothed (binormal): ≈ {want.auc:.6f}")
    assert "a model of the scores, not the rows' own curve" in out[0]
    assert out[1].startswith("ROC AUC, smoothed (normal): ≈ ") and "normals' own AUC" in out[1]
    assert out[2].startswith("error: smooth 'loess': give binormal, density, normal")
    assert out[3].startswith("error: say smooth binormal, smooth density or smooth normal (")
    several = run("smooth binormal,density", "smooth density nrd", "smooth normal nrd", name="good")
    assert several[0].startswith("ROC AUC, smoothed (binormal)")
    assert several[1].startswith("ROC AUC, smoothed (density)")
    assert "(nrd)" in several[2]
    assert several[3].startswith("error: a bandwidth is the density smoothing's")
    told = run("smooth binormal", name="canonical")
    assert told[0].startswith("No smoothed (binormal) curve: the ROC curve has 1 point with")


def test_power_of_two_models_and_of_two_binormal_curves() -> None:
    p = preset("deliveries")
    both = Session(p.data, p.threshold, source="preset deliveries", models=p.models)
    said = io.StringIO()
    run_plain(both, ["power models\n", "power models power 0.9\n"], said, prompt=False)
    out = said.getvalue().splitlines()[2:]
    assert out[0] == (
        "Two ROC curves power calculation (DeLong's variances, as pROC), A against B:"
    )
    assert out[1] == "  AUCs 0.8125 and 0.875, difference -0.0625"
    assert any(line.startswith("  cases 345, controls 1380 (solved for") for line in out)
    said = io.StringIO()
    run_plain(both, ["power models method obuchowski\n"], said, prompt=False)
    # Ten rows leave too few points for each binormal line: the method was the one asked.
    assert "--power-method obuchowski fits each curve's binormal line" in said.getvalue()
    told = run("power a1 2.6 b1 1 a2 1.9 b2 1 rn 0.6 ra 0.6 delta 0.037 power 0.8")
    assert "  cases 166, controls 166 (solved for, rounded up)" in told
    refused = run("power models", name="canonical")
    assert refused[0].startswith("error: power models compares two models of the same rows")


def test_power_models_refuses_rows_edited_in_one_model() -> None:
    p = preset("deliveries")
    both = Session(p.data, p.threshold, source="preset deliveries", models=p.models)
    said = io.StringIO()
    first = both.data.row_id(0)
    run_plain(both, [f"delete {first}\n", "power models\n"], said, prompt=False)
    assert "error: power models compares two models of the same rows, and A's rows were" in (
        said.getvalue()
    )
