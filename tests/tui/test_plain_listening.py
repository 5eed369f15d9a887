"""Plain mode as a screen-reader user hears it: help in the order of its topics, each
command once; a denominator that is a rate said to be one; numbers typed as fractions
and said back as typed; a row by its id, then its number; status naming what is in
force; gains in counts; the decision curve's rows where the model is useful; a
readout's words said once in roc and pr. Each checked against exact lines or a brute
force."""

from __future__ import annotations

import io
from fractions import Fraction
from pathlib import Path

from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.data.presets import preset
from threshold_lab.core.decide.net_benefit import DecisionCurve, NetBenefit
from threshold_lab.core.metrics.metric import undefined
from threshold_lab.core.session.session import Session
from threshold_lab.core.text.decision import shown_rows
from threshold_lab.tui.plain import run_plain, topics

from tests.argv import opened
from tests.paths import DATA

CANON_STATUS = (
    "Threshold 0.5: 3 of 5 predicted positive; TP 2, FP 1, TN 1, FN 1; precision 2/3, recall 2/3."
)


def run(*commands: str, name: str = "canonical") -> list[str]:
    """The lines said after the greeting and the opening status, without the "Moved:"
    lines (tests/tui/test_plain.py has their own test)."""
    p = preset(name)
    out = io.StringIO()
    session = Session(p.data, p.threshold, source=f"preset {name}")
    run_plain(session, [c + "\n" for c in commands], out, prompt=False)
    return [ln for ln in out.getvalue().splitlines()[2:] if not ln.startswith("Moved: ")]


def test_help_all_says_each_command_once_under_its_topic_in_topic_order() -> None:
    lines = run("help all")
    assert lines[0] == "Every command, topic by topic (help TOPIC for one topic):"
    headings = [line for line in lines[1:] if not line.startswith(" ")]
    assert headings == [f"{group[0].GROUP}:" for group in topics().values()]
    usages = [line.split("  ")[1] for line in lines if line.startswith("  ") and line[2] != " "]
    assert len(usages) == len(set(usages))
    assert sum("quit!" in line for line in lines) == 1
    assert [line for line in lines if "quit!" in line] == [
        "  quit | exit                         leave (refused while edits are unsaved); quit! or "
        "exit!"
    ]
    # The same order as help TOPIC gives, topic by topic.
    for word in topics():
        shown = run(f"help {word}")
        start = lines.index(shown[0])
        assert lines[start : start + len(shown)] == shown
    # help alone lists the command words in the same order.
    said = " ".join(run("help")[2:])
    assert said.startswith("Commands: prev, next, lowest, threshold, step, boundary, rows, set, ")


def test_explain_says_a_rate_in_the_denominator_is_a_rate_with_its_counts() -> None:
    assert run("explain lr+", "explain LR-", "explain lift") == [
        "LR+ = TPR/FPR = (2/3)/(1/2) = 4/3 ≈ 1.3333. The denominator FPR = 1/2 is a rate, the "
        "false positive rate: FP = 1 of the FP+TN = 2 actual negatives predicted positive.",
        "LR− = FNR/TNR = (1/3)/(1/2) = 2/3 ≈ 0.6667. The denominator TNR = 1/2 is a rate, the "
        "true negative rate (specificity): TN = 1 of the TN+FP = 2 actual negatives predicted "
        "negative.",
        "lift = precision/prevalence = (2/(2+1))/((2+1)/5) = 10/9 ≈ 1.1111. The denominator "
        "prevalence = 3/5 is a rate, the share of the rows actually positive: TP+FN = 3 of "
        "the n = 5 rows.",
    ]
    # Above all scores FPR is 0: LR+ is undefined, and the denominator still says its counts.
    assert run("threshold above-all", "explain lr+")[-1] == (
        "LR+ = TPR/FPR = (0/3)/(0/2) is undefined: FPR is 0, so the ratio has a zero "
        "denominator. The denominator FPR = 0/2 is a rate, the false positive rate: FP = 0 of "
        "the FP+TN = 2 actual negatives predicted positive."
    )


def test_every_typed_number_takes_a_fraction_as_goal_and_prevalence_do() -> None:
    pairs = [
        ("threshold 1/3", "threshold 0.3333333333333333"),
        ("intervals 9/10", "intervals 0.9"),
        ("readout fpr 1/2", "readout fpr 0.5"),
        ("partial auc fpr 0 1/10", "partial auc fpr 0 0.1"),
        ("option beta 1/2", "option beta 0.5"),
        ("option confidence 9/10", "option confidence 0.9"),
        ("net benefit 1/5", "net benefit 0.2"),
    ]
    for fraction, decimal in pairs:
        said = run(fraction, "status")
        assert not said[0].startswith("error"), fraction
        # The same (the threshold is said back as typed: its own test).
        assert said[1:] == run(decimal, "status")[1:], fraction
    assert run("set s2 score 1/4", "add 3/4 1")[::2] == [
        "Row s2: score from 0.8 to 0.25.",
        "Added row new6: score 0.75, label 1.",
    ]
    # The one fraction rounds once, to the double nearest it: 2/3's, not 0.6667's.
    assert run("set s2 score 2/3")[0] == "Row s2: score from 0.8 to 0.6666666666666666."


def test_a_typed_fraction_that_is_no_number_is_one_line_naming_why() -> None:
    assert run(
        "threshold 1/0", "threshold 1/3/4", "threshold 1e-400/3", "threshold 1e300/1e-300"
    ) == [
        "error: threshold '1/0' is not a number (it divides by zero): use a number such as 0.5 "
        "or 1/3, or above-all; nothing changed",
        "error: threshold '1/3/4' is not a number: use a number such as 0.5 or 1/3, or "
        "above-all; nothing changed",
        "error: threshold '1e-400/3' is too small for a double: it would read as 0: use a "
        "number such as 0.5 or 1/3, or above-all; nothing changed",
        "error: threshold '1e300/1e-300' is not a finite number (too large for a double): use a "
        "number such as 0.5 or 1/3, or above-all; nothing changed",
    ]
    assert run("set s2 score 1/0")[0] == (
        "error: score '1/0' is not a number (it divides by zero); nothing changed"
    )
    # An exponent of thousands is refused before it is worked out.
    assert run("net benefit 1/1e99999999")[0].startswith("error: net benefit 1/1e99999999: ")


def test_threshold_says_back_the_number_typed() -> None:
    rest = ": 0 of 5 predicted positive; TP 0, FP 0, TN 2, FN 3; precision undefined (no "
    assert run("threshold 2")[:2] == [
        f"Threshold 2{rest}predicted positives), recall 0/3.",
        "Now at above all scores (before tie group 1 of 4).",
    ]
    assert run("threshold 1e20")[0].startswith(f"Threshold 1e20{rest}")
    assert run("threshold 0.50")[0] == CANON_STATUS
    assert run("threshold 1/2")[0] == CANON_STATUS
    # A fraction no double holds: said as typed, and the double it was read as.
    assert run("threshold 1/3")[0] == (
        "Threshold 1/3 (the double 0.3333333333333333): 4 of 5 predicted positive; TP 2, FP 2, "
        "TN 0, FN 1; precision 2/4, recall 2/3."
    )
    assert run("threshold 0.30000000000000001")[0].startswith(
        "Threshold 0.30000000000000001 (the double 0.3): 4 of 5 predicted positive;"
    )


def run_on(session: Session, *commands: str) -> list[str]:
    out = io.StringIO()
    run_plain(session, [c + "\n" for c in commands], out, prompt=False)
    return [ln for ln in out.getvalue().splitlines()[2:] if not ln.startswith("Moved: ")]


def test_a_row_is_its_id_first_then_its_number() -> None:
    said = run("set 5 score 0.2", "label 5 0", "label 2 0", "delete 2", "set s9 score 0.2")
    assert said[::2] == [
        "Row s5 (row number 5): score from 0.1 to 0.2.",
        "Row s5 (row number 5): actual label flipped to 0.",
        "Row s2 (row number 2): actual label is already 0.",
        "Removed row s2 (row number 2). Undo brings it back.",
        "error: no row 's9'; rows are: s1, s3, s4, s5, or a row's number from 1 to 4; "
        "nothing changed",
    ]
    assert run("delete 6")[0] == (
        "error: no row '6'; rows are: s1, s2, s3, s4, s5, or a row's number from 1 to 5; "
        "nothing changed"
    )


def test_an_id_that_is_a_number_comes_before_a_row_of_that_number(tmp_path: Path) -> None:
    # Ids 7, 3, 1, 12 in rows 1 to 4: "1" is the third row's id; "2" is no id, so row 2.
    f = tmp_path / "numbered.csv"
    f.write_text("id,score,label\n7,0.9,1\n3,0.8,0\n1,0.4,0\n12,0.1,1\n")
    said = run_on(opened([str(f)]).session, "set 1 score 0.5", "set 2 score 0.6", "set 5 score 0.2")
    assert said[::2] == [
        "Row 1: score from 0.4 to 0.5.",
        "Row 3 (row number 2): score from 0.8 to 0.6.",
        "error: no row '5'; rows are: 7, 3, 1, 12, or a row's number from 1 to 4; nothing changed",
    ]


def test_rows_without_ids_are_named_by_their_numbers_which_stay_with_them() -> None:
    session = Session(make_dataset([0.9, 0.5, 0.1], [1, 0, 1]), 0.5, source="arrays")
    said = run_on(session, "set 2 score 0.6", "delete 1", "set 1 score 0.3", "label 3 0")
    assert said[::2] == [
        "Row 2: score from 0.5 to 0.6.",
        "Removed row 1. Undo brings it back.",
        # Row 1 is gone; the first row now is row 2, and its number is 1.
        "Row 2 (row number 1): score from 0.6 to 0.3.",
        "Row 3: actual label flipped to 0.",
    ]
    assert run_on(session, f"set {'9' * 5000} score 0.2")[0].startswith("error: no row '9999")


AT_09 = (
    "Threshold 0.9: 1 of 5 predicted positive; TP 1, FP 0, TN 2, FN 2; precision 1/1, recall 1/3."
)


def test_status_names_the_goal_and_the_prevalence_in_force_after_the_counts() -> None:
    assert run("status") == [CANON_STATUS]  # nothing else in force: the counts alone
    said = run("goal max f1", "prevalence 1/10", "status", "threshold 0.5", "status")
    assert said[4:6] == [
        AT_09,
        "In force: goal max f1, at this threshold; prevalence what-if 1/10.",
    ]
    assert said[-2:] == [
        CANON_STATUS,
        "In force: goal max f1, at threshold 0.9, not this one; prevalence what-if 1/10.",
    ]
    said = run(
        "goal max precision where recall >= 1 and precision >= 1", "status", "goal off", "status"
    )
    assert said[2:4] == [
        "Threshold 0.1: 5 of 5 predicted positive; TP 3, FP 2, TN 0, FN 0; precision 3/5, "
        "recall 3/3.",
        "In force: goal max precision where recall >= 1 and precision >= 1, not feasible: its "
        "closest point is this threshold.",
    ]
    assert said[-1].startswith("Threshold 0.1: ")  # the goal gone, nothing more to say


def test_status_names_the_model_class_group_or_fold_shown() -> None:
    said = run_on(opened(["deliveries"]).session, "status", "model B", "status")
    assert said[:2] == [
        "Threshold 0.7: 3 of 10 predicted positive; TP 1, FP 2, TN 6, FN 1; precision 1/3, "
        "recall 1/2.",
        "In force: model A (of A, B).",
    ]
    assert said[-1] == "In force: model B (of A, B)."
    said = run_on(opened(["triage"]).session, "class critical", "status")
    assert said[-1] == "In force: class critical against the rest (of routine, urgent, critical)."
    clinics = [str(DATA / "clinics.csv"), "--group", "site"]
    said = run_on(opened(clinics).session, "status", "model east", "status", "own", "status")
    assert said[1] == "In force: all rows, pooled across the 3 groups by site."
    assert said[5] == "In force: group east alone (site = east)."
    assert said[-1] == "In force: group east alone (site = east), at its own threshold."
    folds = [str(DATA / "folds.csv"), "--fold", "fold"]
    said = run_on(opened(folds).session, "model 2", "goal max f1", "status")
    assert said[-1] == "In force: goal max f1, at this threshold; fold 2 alone (fold = 2)."


def test_gains_says_counts_of_rows_and_of_positives() -> None:
    assert run("threshold 0.9", "gains")[2:] == [
        "Cumulative gains (the actual positives captured against the rows predicted positive, "
        "along the exact sweep; random: the diagonal; perfect: every positive first, all 3 "
        "captured by the first 3 of the 5 rows):",
        "up to 10% of the rows: threshold above all scores predicts 0 of 5 rows positive and "
        "captures 0 of 3 positives",
        "up to 20% of the rows: threshold 0.9 predicts 1 of 5 rows positive and captures 1 of 3 "
        "positives",
        "up to 60% of the rows: threshold 0.8 predicts 3 of 5 rows positive and captures 2 of 3 "
        "positives",
        "up to 80% of the rows: threshold 0.4 predicts 4 of 5 rows positive and captures 2 of 3 "
        "positives",
        "up to 100% of the rows: threshold 0.1 predicts 5 of 5 rows positive and captures 3 of 3 "
        "positives",
        "At the threshold 0.9: 1 of 5 rows predicted positive, capturing 1 of 3 positives; lift "
        "(precision over the base rate) 5/3 ≈ 1.6667.",
    ]
    assert run("threshold above-all", "gains")[-1] == (
        "At the threshold above all scores: 0 of 5 rows predicted positive, capturing 0 of 3 "
        "positives; lift (precision over the base rate) undefined: no predicted positives "
        "(TP+FP=0): precision is undefined."
    )


def test_each_gains_line_is_the_brute_force_count_at_its_threshold() -> None:
    data = preset("good").data
    scores, labels = data.scores.tolist(), data.labels.tolist()
    lines = [line for line in run("gains", name="good") if line.startswith("up to ")]
    assert len(lines) == 10
    for line in lines:
        percent = int(line.split("%")[0].removeprefix("up to "))
        t = float(line.split("threshold ")[1].split(" predicts")[0])
        picked = [y for s, y in zip(scores, labels, strict=True) if s >= t]
        assert f"predicts {len(picked)} of 20 rows" in line
        assert f"captures {sum(picked)} of 10 positives" in line
        # The last threshold predicting at most this tenth of the rows positive: the next
        # score down predicts more.
        assert 100 * len(picked) <= percent * 20
        lower = [s for s in scores if s < t]
        if lower:
            assert 100 * sum(s >= max(lower) for s in scores) > percent * 20


def test_net_benefit_lists_each_useful_range_where_it_starts_and_ends() -> None:
    # At prevalence 1/10 the model is useful only where 0.8 < pt <= 0.9 (at 0.9 too:
    # the rule is score >= threshold): the ten rows listed were 0.01 to 0.5 and 0.99,
    # none of them where it is useful.
    said = run("prevalence 1/10", "net benefit")
    assert said[4] == "  useful (beats treating all and treating none) where 0.8 < pt <= 0.9"
    rows = [line.split()[0] for line in said[6:-2]]
    assert "0.81" in rows and "0.9" in rows
    assert len(rows) == 10 and rows[0] == "0.01" and rows[-1] == "0.99"
    at = {line.split()[0]: line.split()[1:3] for line in said[6:-2]}
    for pt in ("0.81", "0.9"):  # useful: above treating all and above 0
        net, treat_all = (float(x) for x in at[pt])
        assert net > max(treat_all, 0.0), pt


def test_the_rows_listed_always_hold_each_useful_ranges_first_and_last_grid_point() -> None:
    grid = tuple(Fraction(k, 100) for k in range(1, 100))
    rows = tuple(NetBenefit(pt, 0, None, *[undefined("")] * 4) for pt in grid)
    ranges = ((0.123, 0.2), (0.805, 0.9), (0.955, 0.96))
    d = DecisionCurve(0.5, Fraction(0), rows, ranges)
    pts = [grid[i] for i in shown_rows(d)]
    # Inside each range: its first and last grid pt (none inside the last).
    for inside in (Fraction(13, 100), Fraction(19, 100), Fraction(81, 100), Fraction(89, 100)):
        assert inside in pts
    assert pts[0] == grid[0] and pts[-1] == grid[-1]
    assert len(pts) == 10 and pts == sorted(pts)


def test_roc_says_a_readouts_words_once_where_they_first_apply() -> None:
    said = run("roc", name="good")
    tagged = [line for line in said if line.endswith(").") and line.startswith("Threshold")]
    assert tagged == [
        "Threshold 0.64: 1 positive enters, up to FPR 0/10, TPR 7/10 (TPR at FPR <= 0.001, "
        "0.01, 0.05; max informedness).",
        "Threshold 0.55: 1 positive enters, up to FPR 1/10, TPR 8/10 (at FPR <= 0.1; max F1).",
        "Threshold 0.5: 1 negative enters, right to FPR 2/10, TPR 8/10 (active).",
        "Threshold 0.42: 1 positive enters, up to FPR 3/10, TPR 9/10 (FPR at TPR >= 0.9).",
        "Threshold 0.33: 1 positive enters, up to FPR 4/10, TPR 10/10 (at TPR >= 0.95, 0.99).",
    ]
    # pr marks the same points, the words said once there too.
    assert sum("TPR at FPR <=" in line for line in run("pr", name="good")) == 1
