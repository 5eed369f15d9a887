"""Plain-mode regressions: strict counts, finite thresholds, no silent loss of edits."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from threshold_lab.core.data.presets import preset
from threshold_lab.core.errors import InputError
from threshold_lab.core.session.session import Session
from threshold_lab.tui.plain import run_plain

from tests.argv import opened as open_argv
from tests.paths import DATA, ROOT

CANON_STATUS = (
    "Threshold 0.5: 3 of 5 predicted positive; TP 2, FP 1, TN 1, FN 1; precision 2/3, recall 2/3."
)
HUGE = 1.7976931348623157e308


def session() -> Session:
    p = preset("canonical")
    return Session(p.data, p.threshold, source="preset canonical")


def opened(*argv: str) -> Session:
    """The session ``threshold-lab --plain ARGV...`` opens (a file, its options)."""
    return open_argv(argv).session


def play(*commands: str) -> tuple[list[str], str, int]:
    """Output lines after the greeting, the error stream, and the exit status."""
    out, err = io.StringIO(), io.StringIO()
    code = run_plain(session(), [c + "\n" for c in commands], out, prompt=False, err=err)
    lines = [ln for ln in out.getvalue().splitlines()[2:] if not ln.startswith("Moved: ")]
    return lines, err.getvalue(), code


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("rows \u00b2", "error: rows takes a cell"),
        ("rows \u0663", "error: rows takes a cell"),
        ("rows " + "9" * 5000, "error: rows count"),
        ("rows 0", "error: rows count"),
        ("step 1" + "0" * 400, "error: step"),
        ("step " + "9" * 5000, "error: step"),
        ("step \u00b2", "error: step '\u00b2' is not a whole number"),
        ("step \u0663", "error: step '\u0663' is not a whole number"),
        ("step 1_000", "error: step '1_000' is not a whole number"),
        ("step 10000000000", "error: step"),
        ("threshold inf", ""),  # inf is the above-all word, not a number
    ],
)
def test_bad_counts_are_one_line_and_change_nothing(command: str, message: str) -> None:
    lines, err, code = play(command, "status")
    if command == "threshold inf":
        assert lines[0].startswith("Threshold above all scores")
        return
    assert len(lines) == 2, lines
    assert lines[0].startswith(message) and lines[0].endswith("; nothing changed")
    assert lines[1] == CANON_STATUS
    assert (err, code) == ("", 1)  # a refused command: a script can tell


def test_too_large_count_is_named_briefly() -> None:
    lines, _, _ = play("rows " + "9" * 5000)
    assert lines == [
        "error: rows count 999999999999... (5000 digits) is too large: "
        "use a whole number from 1 to 1000000000; nothing changed"
    ]
    lines, _, _ = play("step -1000000001")
    assert lines == [
        "error: step -1000000001 is too large: use a whole number from "
        "-1000000000 to 1000000000; nothing changed"
    ]


def test_large_counts_within_bound_still_work() -> None:
    lines, _, _ = play("rows 1000000000", "step 1000000000", "step -1000000000")
    assert lines[0].startswith("5 rows at threshold 0.5")
    assert lines[-1] == CANON_STATUS


@pytest.mark.parametrize("word", ["nan", "-inf", "1e999", "-1e999", "NaN"])
def test_threshold_not_finite_is_refused(word: str) -> None:
    lines, _, _ = play(f"threshold {word}", "status")
    assert lines[0].startswith(f"error: threshold '{word}' is not a finite number")
    assert lines[1] == CANON_STATUS


def test_step_to_infinity_is_refused_and_changes_nothing() -> None:
    s = session()
    s.set_threshold(HUGE)
    for steps in (10**308, 10**400, -(10**400), 10**5000):
        with pytest.raises(InputError, match="finite"):
            s.step(steps)
        assert s.threshold == HUGE
    s.set_threshold(-HUGE)
    with pytest.raises(InputError, match="finite"):
        s.step(-(10**308))
    assert s.threshold == -HUGE
    s.step(1)  # still usable afterwards
    assert s.analysis.counts is not None


def test_set_threshold_refuses_non_finite() -> None:
    s = session()
    for bad in (float("inf"), float("-inf"), float("nan")):
        with pytest.raises(InputError):
            s.set_threshold(bad)
        assert s.threshold == 0.5


def test_plain_huge_threshold_then_big_step_keeps_working() -> None:
    lines, _, _ = play(f"threshold {HUGE!r}", "step 1000000000", "next", "status")
    assert not any("inf" in line.lower() for line in lines)
    assert lines[-1].startswith("Threshold 0.9:")


def test_quit_with_unsaved_edits_is_refused() -> None:
    for word in ("quit", "exit", "QUIT"):
        lines, err, code = play("label s2 1", word, "status")
        assert lines[2] == (
            "error: there are unsaved edits; save PATH first, or "
            f"{word.lower()}! to {word.lower()} and lose them; nothing changed"
        )
        assert lines[3].startswith("Threshold 0.5: 3 of 5 predicted positive; TP 3")
        assert code == 1 and "unsaved edits" in err


@pytest.mark.parametrize("word", ["quit!", "exit!"])
def test_forced_quit_loses_edits(word: str) -> None:
    lines, err, code = play("label s2 1", word, "status")
    assert len(lines) == 2
    assert (err, code) == ("", 0)


def test_quit_after_save_or_undo_is_fine(tmp_path: Path) -> None:
    lines, err, code = play("label s2 1", "undo", "quit", "status")
    assert len(lines) == 4 and (err, code) == ("", 0)
    saved = tmp_path / "edited.csv"
    lines, err, code = play("label s2 1", f"save {saved}", "quit", "status")
    assert len(lines) == 3 and lines[2].startswith("Saved 5 rows")
    assert (err, code) == ("", 0)


def test_preset_with_unsaved_edits_is_refused_unless_forced() -> None:
    lines, _, _ = play("label s2 1", "preset ap-vs-trapezoid", "status")
    assert lines[2] == (
        "error: there are unsaved edits; save PATH first, or preset ap-vs-trapezoid force "
        "to load it and lose them; nothing changed"
    )
    assert "TP 3" in lines[3]
    lines, err, code = play("label s2 1", "preset ap-vs-trapezoid force", "quit")
    assert lines[2].startswith("Loaded preset ap-vs-trapezoid:")
    assert (err, code) == ("", 0)
    lines, _, _ = play("preset ap-vs-trapezoid now")
    assert lines[0].startswith("error: expected preset NAME")


def test_end_of_input_with_unsaved_edits_warns_and_fails() -> None:
    _, err, code = play("label s2 1")
    assert err == "threshold-lab: warning: input ended with unsaved edits; they were not saved\n"
    assert code == 1
    assert play("status") == ([CANON_STATUS], "", 0)


def test_cli_exit_status_on_unsaved_edits_at_end_of_input() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "threshold_lab", "--plain", "--preset", "canonical"],
        input="label s2 1\n",
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 1
    assert proc.stderr == (
        "threshold-lab: warning: input ended with unsaved edits; they were not saved\n"
    )


def test_help_names_the_forcing_words() -> None:
    lines, _, _ = play("help all")
    text = "\n".join(lines)
    assert "quit!" in text and "exit!" in text and "preset NAME [force]" in text


def test_ids_with_control_characters_are_shown_escaped_and_typed_as_shown() -> None:
    from threshold_lab.core.data.dataset import make_dataset

    ids = ["a\x1b[31mred", "b\nnew", "c\x07", "d\u202ee"]
    data = make_dataset([0.9, 0.1, 0.5, 0.2], [1, 0, 1, 0], ids=ids)
    out, err = io.StringIO(), io.StringIO()
    commands = ["rows", "set b\\nnew score 0.3", "delete c\\x07", "label 'd\\u202ee' 1", "quit!"]
    run_plain(
        Session(data, 0.5, source="t"), [c + "\n" for c in commands], out, prompt=False, err=err
    )
    text = out.getvalue()
    assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text
    lines = text.splitlines()
    assert "a\\x1b[31mred: score 0.9, actual 1, predicted 1, TP" in lines
    assert "b\\nnew: score 0.1, actual 0, predicted 0, TN" in lines
    assert "Row b\\nnew: score from 0.1 to 0.3." in lines
    assert "Removed row c\\x07. Undo brings it back." in lines
    assert "Row d\\u202ee: actual label flipped to 1." in lines
    assert err.getvalue() == ""


def test_a_backslash_in_a_command_is_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # On Linux the Windows path is one file name, backslashes and all: written here.
    monkeypatch.chdir(tmp_path)
    lines, _, _ = play("save C:\\no\\such\\folder\\x.csv")
    assert len(lines) == 1 and "C:\\no\\such\\folder\\x.csv" in lines[0]
    assert [p.name for p in tmp_path.iterdir()] == ["C:\\no\\such\\folder\\x.csv"]


# Plain mode's names, exit status, wording and what moved.


@pytest.mark.parametrize(
    ("words", "start"),
    [
        ("balanced accuracy", "balanced accuracy = (TPR+TNR)/2"),
        ("Balanced_Accuracy", "balanced accuracy = (TPR+TNR)/2"),
        ("LR+", "LR+ = TPR/FPR"),
        ("lr−", "LR− = FNR/TNR"),
        ("queue rate", "queue rate = (TP+FP)/n"),
        ("auc", "ROC AUC = Σ ΔFPR·(TPR+TPR′)/2 = 7/12"),
        ("AP", "average precision = Σ (Rₖ−Rₖ₋₁)·Pₖ = 34/45"),
        ("pr trapezoid area", "PR trapezoid area"),
        ("log loss", "log loss = "),
        ("brier", "Brier score = "),
    ],
)
def test_explain_takes_every_printed_name(words: str, start: str) -> None:
    lines, _, code = play(f"explain {words}")
    assert lines[0].startswith(start) and code == 0


def test_a_script_with_a_refused_command_exits_1() -> None:
    _, _, code = play("status", "nonsense", "status")
    assert code == 1
    _, _, code = play("status", "next")
    assert code == 0


def test_one_row_is_a_row() -> None:
    lines, _, _ = play("rows FN", "rows TP 1")
    assert lines[0] == "1 FN row at threshold 0.5, file order:"
    assert lines[-1] == "... and 1 more row: rows TP 2 shows them all."


def test_each_change_says_what_moved() -> None:
    out = io.StringIO()
    commands = ["threshold 0.85", "status", "set s5 score 0.95", "undo"]
    run_plain(session(), [c + "\n" for c in commands], out, prompt=False)
    moved = [ln for ln in out.getvalue().splitlines() if ln.startswith("Moved: ")]
    assert moved == [
        "Moved: precision from 2/3 to 1/1, recall from 2/3 to 1/3; TP -1, FP -1, TN +1, FN +1.",
        "Moved: recall from 1/3 to 2/3; TP +1, FN -1.",
        "Moved: recall from 2/3 to 1/3; TP -1, FN +1.",
    ]


def test_showing_a_fold_or_model_is_not_a_move() -> None:
    """All rows to fold 2 and back said "Moved: ... TP -101, FP -41": counts of two
    different sets of rows, not a threshold's move. The fold's own line says what is
    shown; a threshold moved after it still says what moved."""
    out = io.StringIO()
    s = opened(str(ROOT / "docs" / "examples" / "cv.csv"), "--fold", "fold")
    run_plain(s, ["model 2\n", "model all\n", "threshold 0.6\n"], out, prompt=False)
    lines = out.getvalue().splitlines()[2:]
    assert lines[0] == "Fold 2 (fold = 2): its own rows."
    assert "All rows, pooled across the 5 folds by fold." in lines
    moved = [ln for ln in lines if ln.startswith("Moved: ")]
    assert len(moved) == 1 and lines.index(moved[0]) == len(lines) - 1, lines


def test_a_cost_goal_then_a_delete_says_the_column_no_longer_lines_up() -> None:
    # Before: "operands could not be broadcast (4,) (5,)" from the goal line.
    s = opened(str(DATA / "costs.csv"))
    out = io.StringIO()
    commands = ["goal min cost fp=1 fn=@amount", "delete r0", "goal", "reset", "goal"]
    code = run_plain(s, [c + "\n" for c in commands], out, prompt=False, err=io.StringIO())
    goals = [ln for ln in out.getvalue().splitlines() if ln.startswith("Goal ")]
    assert "threshold 0.24, cost ≈ 38" in goals[0]
    assert goals[1].endswith(
        'goal: the cost column "amount" no longer lines up with the rows (rows were added '
        "or deleted); reset (r) puts them back."
    )
    assert "threshold 0.24, cost ≈ 38" in goals[2] and code == 0


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("goal min cost fp=1e309 fn=1", 'error: goal: "1e309" is out of range for the cost'),
        ("goal max precision where recall >= 1e999", 'error: goal: "1e999" is out of range'),
        ("goal min cost fp=1/3 fn=1e-320", 'error: goal: "1e-320" is out of range'),
        ("goal max precision where recall >= 1_0", 'error: goal: "1_0" is not a number'),
        ("prevalence 1e-320", "error: prevalence: 1e-320 is out of range"),
        ("prevalence 5e-324", "error: prevalence: 5e-324 is out of range"),
        (
            "intervals 0.9999999999999999",
            "error: intervals: confidence 0.9999999999999999 is out of range",
        ),
    ],
)
def test_numbers_past_a_doubles_range_are_refused_and_change_nothing(
    command: str, message: str
) -> None:
    # These were OverflowError and StatisticsError tracebacks that ended the session
    # (the intervals one at the next metrics).
    lines, err, code = play(command, "metrics", "status")
    assert lines[0].startswith(message) and lines[0].endswith("; nothing changed"), lines[0]
    assert lines[1] == "Metrics at threshold 0.5:" and lines[-1] == CANON_STATUS
    assert (err, code) == ("", 1)


def test_costs_far_apart_are_solved_and_their_tiny_total_is_not_a_silent_zero() -> None:
    lines, _, _ = play("goal min cost fp=1e-300 fn=1e300")
    assert lines[0] == (
        "Goal min cost fp=1e-300 fn=1e300: threshold 0.1, cost ≈ 2e-300; runner-up threshold "
        "0.8 with cost ≈ 1e300."
    )


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("add 1e-400 1", "error: score '1e-400' is too small for a double: it would read as 0"),
        ("add 1_0 1", "error: score '1_0' is not a number"),
        ("set s1 score 1e-400", "error: score '1e-400' is too small for a double"),
    ],
)
def test_a_typed_score_a_double_cannot_keep_is_refused(command: str, message: str) -> None:
    lines, _, code = play(command, "status")
    assert lines[0].startswith(message) and lines[0].endswith("; nothing changed"), lines
    assert lines[1] == CANON_STATUS and code == 1


def test_transformed_scores_read_without_float_noise_and_undo_reads_as_before() -> None:
    # Before: "score 0.7395999999999999", "0.48999999999999994" in rows and sweep.
    out = io.StringIO()
    p = preset("good")
    s = Session(p.data, p.threshold, source="preset good")
    run_plain(
        s,
        ["transform square\n", "rows 3\n", "sweep\n", "next\n", "undo\n", "rows 3\n"],
        out,
        prompt=False,
        err=io.StringIO(),
    )
    text = out.getvalue()
    assert "p3: score 0.7396, actual 1" in text and "0.7395999999999999" not in text
    assert "\n  0.49        6   0  10   4" in text and "0.48999999999999994" not in text
    assert "Threshold ≈0.49: 6 of 20 predicted positive" in text  # not the exact double: ≈
    assert "Now at tie group 6 of 20 (score ≈0.49, 1 row)." in text
    assert text.endswith(
        "p3: score 0.86, actual 1, predicted 1, TP\n... and 17 more rows: rows 20 shows them all.\n"
    )


def test_shown_scores_keep_neighbours_apart_and_typing_them_keeps_the_decisions() -> None:
    from threshold_lab.core.text.scores import shown_score

    rng = np.random.default_rng(3)
    scores = np.unique(rng.random(2000) ** 2)[::-1]  # distinct, descending, noisy
    texts = [shown_score(float(x), scores) for x in scores]
    assert len(set(texts)) == len(texts)  # neighbours apart
    values = np.array([float(t) for t in texts])
    assert bool(np.all(np.diff(values) < 0))  # and in the same order
    assert all(len(t.lstrip("0.")) <= 17 for t in texts)
    # A threshold between two scores reads as one that decides every row the same.
    between = float((scores[10] + scores[11]) / 2)
    t = float(shown_score(between, scores))
    assert int((scores >= t).sum()) == int((scores >= between).sum())
