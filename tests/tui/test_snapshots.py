"""Snapshot tests of each screen state, at a pinned size and theme, with motion off.

Every SVG in snapshots/test_snapshots/ was looked at (as PNG) before it was
committed. The pilot tests check the state behind each picture.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from threshold_lab.core.data.presets import PRESET_NAMES

from tests.paths import DATA
from tests.tui.helpers import LARGE, SIZE, SMALL, file_app, make_app, retype

#: The test data, named as from the project's root (the screen shows the name).
DATA = Path(os.path.relpath(DATA))

Compare = Callable[..., bool]


def test_opening_state(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), terminal_size=SIZE)


def test_threshold_moved_by_keys(snap_compare: Compare) -> None:
    """0.5 + 0.1 + 0.1 + 0.1 + 0.01 = 0.81: precision 1, recall 1/3."""
    keys = ["shift+right"] * 3 + ["right"]
    assert snap_compare(make_app(), press=keys, terminal_size=SIZE)


def test_typed_threshold_dialog(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), press=["t", *retype("0.85")], terminal_size=SIZE)


def test_typed_threshold_applied(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), press=["t", *retype("0.85"), "enter"], terminal_size=SIZE)


def test_typed_threshold_refused(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), press=["t", *retype("abc"), "enter"], terminal_size=SIZE)


def test_above_all_sentinel(snap_compare: Compare) -> None:
    """Precision undefined, with its reason; recall and F1 are 0."""
    assert snap_compare(make_app(), press=["home"], terminal_size=SIZE)


def test_lowest_threshold(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), press=["end"], terminal_size=SIZE)


@pytest.mark.parametrize("size", [SMALL, SIZE], ids=["80x24", "120x40"])
def test_readout_jump(snap_compare: Compare, size: tuple[int, int]) -> None:
    """R twice: the threshold at TPR at FPR <= 0.01's point (0.64 on good), the status
    saying the readout, its counts and the interpolated value."""
    assert snap_compare(make_app("good"), press=["R", "R"], terminal_size=size)


#: pROC's aSAH data: s100b's scores, "Poor" outcomes the positives (113 rows).
ASAH = (str(DATA / "asah.csv"), "--score", "s100b", "--label", "outcome", "--positive", "Poor")


@pytest.mark.parametrize(("size", "zoom"), [(SMALL, ["2"]), (SIZE, [])], ids=["80x24", "120x40"])
def test_det_chart(snap_compare: Compare, size: tuple[int, int], zoom: list[str]) -> None:
    """c six times: the DET curve of aSAH's s100b, FNR against FPR on probit axes with
    the ticks 0.1% to 99.9%, and how many points have no place on them."""
    assert snap_compare(file_app(*ASAH), press=[*zoom, *["c"] * 6], terminal_size=size)


@pytest.mark.parametrize(("size", "zoom"), [(SMALL, ["2"]), (SIZE, [])], ids=["80x24", "120x40"])
def test_log_fpr_roc(snap_compare: Compare, size: tuple[int, int], zoom: list[str]) -> None:
    """l: aSAH's ROC curve with FPR on a log scale (decades to 0.01, FPR 0 at the axis's
    own 0), the summary saying how many points sit there."""
    assert snap_compare(file_app(*ASAH), press=[*zoom, "l"], terminal_size=size)


@pytest.mark.parametrize("step", [0, 1, 2, 3, 4])
def test_playback_tie_group(snap_compare: Compare, step: int) -> None:
    """Step 2 is where the two 0.8 rows (one of each class) enter together."""
    assert snap_compare(make_app(), press=["home", *["n"] * step], terminal_size=SIZE)


def test_score_edit_open(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), press=["down", "enter"], terminal_size=SIZE)


def test_score_edit_applied(snap_compare: Compare) -> None:
    keys = ["down", "enter", *retype("0.3"), "enter"]
    assert snap_compare(make_app(), press=keys, terminal_size=SIZE)


def test_score_edit_refused(snap_compare: Compare) -> None:
    keys = ["down", "enter", *retype("1.5"), "enter"]
    assert snap_compare(make_app(), press=keys, terminal_size=SIZE)


def test_label_flipped(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), press=["down", "space"], terminal_size=SIZE)


def test_row_added(snap_compare: Compare) -> None:
    keys = ["a", *retype("0.6 0"), "enter"]
    assert snap_compare(make_app(), press=keys, terminal_size=SIZE)


def test_row_removed(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), press=["down", "delete"], terminal_size=SIZE)


def test_undo(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), press=["down", "delete", "ctrl+z"], terminal_size=SIZE)


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_preset(snap_compare: Compare, name: str) -> None:
    assert snap_compare(make_app(name), terminal_size=SIZE)


def test_pr_chart(snap_compare: Compare) -> None:
    assert snap_compare(make_app("ap-vs-trapezoid"), press=["c"], terminal_size=SIZE)


def test_both_charts(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), press=["c", "c"], terminal_size=SIZE)


def test_all_metrics(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), press=["m"], terminal_size=SIZE)


def test_help_screen(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), press=["question_mark"], terminal_size=SIZE)


def test_save_dialog(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), press=["s"], terminal_size=SIZE)


def test_quit_confirm(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), press=["space", "q"], terminal_size=SIZE)


def test_preset_picker(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), press=["P"], terminal_size=SIZE)


def test_small_terminal(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), terminal_size=SMALL)


@pytest.mark.parametrize("pane", ["1", "2", "3", "4"])
def test_small_terminal_pane(snap_compare: Compare, pane: str) -> None:
    """80x24 shows one pane at a time: matrix, chart, rows, sweep."""
    assert snap_compare(make_app("good"), press=[pane], terminal_size=SMALL)


def test_small_terminal_both_charts(snap_compare: Compare) -> None:
    assert snap_compare(make_app(), press=["2", "c", "c"], terminal_size=SMALL)


@pytest.mark.parametrize("name", ["canonical", "imbalanced"])
def test_large_terminal(snap_compare: Compare, name: str) -> None:
    """200x60 uses the room: a tall chart, every metric, the strip, the key line."""
    assert snap_compare(make_app(name), terminal_size=LARGE)


def test_sweep_table_focused(snap_compare: Compare) -> None:
    """tab gives the sweep table the keys: its bar and bright cursor."""
    assert snap_compare(make_app("good"), press=["tab", "down"], terminal_size=SIZE)


def test_chart_zoomed(snap_compare: Compare) -> None:
    assert snap_compare(make_app("good"), press=["2"], terminal_size=SIZE)


GOAL = "max precision where recall >= 0.9"


def test_goal_dialog(snap_compare: Compare) -> None:
    """d: the goal dialog with the grammar's help and examples."""
    assert snap_compare(make_app("good"), press=["d"], terminal_size=SIZE)


def test_goal_dialog_small(snap_compare: Compare) -> None:
    assert snap_compare(make_app("good"), press=["d"], terminal_size=SMALL)


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["120x40", "80x24"])
def test_goal_line(snap_compare: Compare, size: tuple[int, int]) -> None:
    """The goal's point, its constraints' slack and the equivalent thresholds."""
    keys = ["d", *retype(GOAL), "enter"]
    assert snap_compare(make_app("good"), press=keys, terminal_size=size)


BAND = "band: max coverage where precision >= 0.9 and npv >= 0.9"


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["120x40", "80x24"])
def test_band_view(snap_compare: Compare, size: tuple[int, int]) -> None:
    """D and a band goal on good: accept >= 0.64 (7 rows, O on the ROC chart), reject
    < 0.33 (6 rows, L), review the 7 between; the band line says the three parts."""
    keys = ["D", *retype(BAND), "enter"]
    assert snap_compare(make_app("good"), press=keys, terminal_size=size)


def test_band_on_the_strip_and_moved(snap_compare: Compare) -> None:
    """200x60: } moves the reject threshold down a tie group (to 0.3: 5 rejected, 8
    reviewed); the strip shades the reviewed columns between : and |."""
    keys = ["D", *retype(BAND), "enter", "right_curly_bracket"]
    assert snap_compare(make_app("good"), press=keys, terminal_size=LARGE)


def test_band_on_the_metrics_chart(snap_compare: Compare) -> None:
    """The metrics chart with a band: | the accept threshold, L the reject threshold."""
    keys = ["D", *retype(BAND), "enter", "2", "c", "c", "c"]
    assert snap_compare(make_app("good"), press=keys, terminal_size=SIZE)


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["120x40", "80x24"])
def test_prevalence_view(snap_compare: Compare, size: tuple[int, int]) -> None:
    """w 1/20: the headline metrics at the deployment prevalence beside the evaluation's."""
    keys = ["d", *retype(GOAL), "enter", "w", *retype("1/20"), "enter"]
    assert snap_compare(make_app("good"), press=keys, terminal_size=size)


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["120x40", "80x24"])
def test_metric_threshold_chart(snap_compare: Compare, size: tuple[int, int]) -> None:
    """The fourth c: precision, recall, F1 and queue rate against the threshold,
    each in its own letter and colour, F1's largest value marked ^."""
    keys = ["d", *retype(GOAL), "enter", "2", "c", "c", "c"]
    assert snap_compare(make_app("good"), press=keys, terminal_size=size)


async def _bootstrapped(pilot) -> None:  # type: ignore[no-untyped-def]
    """B, and the bootstrap's worker finished (seeded, so every run draws the same)."""
    await pilot.press("B")
    for _ in range(3):
        await pilot.app.workers.wait_for_complete()
        await pilot.pause(0.3)


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["120x40", "80x24"])
def test_metrics_with_intervals(snap_compare: Compare, size: tuple[int, int]) -> None:
    """Wilson's interval and n beside each proportion, the bootstrap's beside F1
    and balanced accuracy, DeLong's beside ROC AUC; the ROC curve inside its band."""
    assert snap_compare(make_app("delivery-a"), run_before=_bootstrapped, terminal_size=size)


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["120x40", "80x24"])
def test_curve_bands(snap_compare: Compare, size: tuple[int, int]) -> None:
    """The 95% pointwise bands (dots) around the ROC and PR curves of 1000 rows."""

    async def both(pilot) -> None:  # type: ignore[no-untyped-def]
        await _bootstrapped(pilot)
        await pilot.press("2", "c", "c")  # the chart pane, both curves

    assert snap_compare(make_app("good"), run_before=both, terminal_size=size)


def test_intervals_hidden(snap_compare: Compare) -> None:
    """i: the formulas alone again."""
    assert snap_compare(make_app("delivery-a"), press=["i"], terminal_size=SIZE)


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["120x40", "80x24"])
def test_model_table(snap_compare: Compare, size: tuple[int, int]) -> None:
    """Both delivery models at 0.7, model B shown (M): each one's AUC with its
    interval, AP and headline metrics, the shown one starred and bold."""
    assert snap_compare(make_app("deliveries"), press=["M"], terminal_size=size)


@pytest.mark.parametrize(
    ("size", "press"), [(SIZE, ["c", "c"]), (SMALL, ["2"])], ids=["120x40", "80x24"]
)
def test_overlay_chart(snap_compare: Compare, size: tuple[int, int], press: list[str]) -> None:
    """Both delivery models' curves on one chart, A's a braille line and B's
    ``+``, named in the legend (A starred, shown); ROC and PR side by side at 120x40,
    the ROC chart pane at 80x24."""
    assert snap_compare(make_app("deliveries"), press=press, terminal_size=size)


@pytest.mark.parametrize(
    ("size", "press"), [(SIZE, ["f"] * 5), (SMALL, ["3", *["f"] * 5])], ids=["120x40", "80x24"]
)
def test_decided_differently(
    snap_compare: Compare, size: tuple[int, int], press: list[str]
) -> None:
    """The rows A and B decide differently at 0.7 (ids 3 and 5), each model's
    score and cell side by side."""
    assert snap_compare(make_app("deliveries"), press=press, terminal_size=size)


@pytest.mark.parametrize(
    ("size", "press"), [(SIZE, ["c"] * 4), (SMALL, ["2", *["c"] * 4])], ids=["120x40", "80x24"]
)
def test_reliability_diagram(
    snap_compare: Compare, size: tuple[int, int], press: list[str]
) -> None:
    """The reliability diagram of preset good: each bin's observed rate against its
    mean score (◆), its Wilson interval (:), the perfect diagonal (-); ECE, MCE, the
    Brier decomposition and the rows per bin on the summary line."""
    assert snap_compare(make_app("good"), press=press, terminal_size=size)


@pytest.mark.parametrize(
    ("size", "press"), [(SIZE, ["c"] * 5), (SMALL, ["2", *["c"] * 5])], ids=["120x40", "80x24"]
)
def test_gains_chart(snap_compare: Compare, size: tuple[int, int], press: list[str]) -> None:
    """Cumulative gains of preset good, with the random and perfect lines, the
    active point, and KS and lift on the summary line."""
    assert snap_compare(make_app("good"), press=press, terminal_size=size)


@pytest.mark.parametrize(
    ("size", "press"), [(SIZE, ["c"] * 7), (SMALL, ["2", *["c"] * 7])], ids=["120x40", "80x24"]
)
def test_decision_curve(snap_compare: Compare, size: tuple[int, int], press: list[str]) -> None:
    """The decision curve of the lesson's deliveries (models A and B): net benefit by
    pt, treating all (=) and none (-), where A is useful on the line above; the active
    threshold 0.2 as O on A's curve."""
    assert snap_compare(make_app("deliveries", 0.2), press=press, terminal_size=size)


@pytest.mark.parametrize(
    ("size", "press"), [(SIZE, ["c"] * 8), (SMALL, ["2", *["c"] * 8])], ids=["120x40", "80x24"]
)
def test_cost_curves(snap_compare: Compare, size: tuple[int, int], press: list[str]) -> None:
    """The cost curves of preset good: the envelope (the hull's vertices) bold, the
    other points' lines faint, the active point's line (o); ROCCH AUC and the PC range
    where the active point is cheapest on the line above."""
    assert snap_compare(make_app("good"), press=press, terminal_size=size)


@pytest.mark.parametrize(("size", "zoom"), [(SMALL, ["2"]), (SIZE, [])], ids=["80x24", "120x40"])
def test_roc_hull(snap_compare: Compare, size: tuple[int, int], zoom: list[str]) -> None:
    """h draws preset good's ROC convex hull (=) and puts ROCCH AUC beside the AUC."""
    assert snap_compare(make_app("good"), press=[*zoom, "h"], terminal_size=size)


@pytest.mark.parametrize(("size", "zoom"), [(SMALL, ["2"]), (SIZE, [])], ids=["80x24", "120x40"])
def test_roc_smoothed(snap_compare: Compare, size: tuple[int, int], zoom: list[str]) -> None:
    """z draws preset good's binormal smoothed ROC curve (~, faint) beside the exact
    one, its AUC named "smoothed (binormal)" beside the exact AUC."""
    assert snap_compare(make_app("good"), press=[*zoom, "z"], terminal_size=size)


def test_transform_message(snap_compare: Compare) -> None:
    """delivery-a at 0.7 after T square: precision 1/2, and the message says AUC and
    AP are unchanged, one decision changed, and 0.49 makes the old decisions again."""
    keys = ["T", "end", *["backspace"] * 20, "s", "q", "u", "a", "r", "e", "enter"]
    assert snap_compare(make_app("delivery-a", 0.7), press=keys, terminal_size=SIZE)


def test_multiclass_summary(snap_compare: Compare) -> None:
    """K on the triage preset: the 3×3 matrix, per-class metrics and the macro,
    weighted and micro averages (macro F1 ≈ 0.55 against weighted ≈ 0.78)."""
    assert snap_compare(make_app("triage"), press=["K"], terminal_size=SIZE)


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["120x40", "80x24"])
def test_one_vs_rest(snap_compare: Compare, size: tuple[int, int]) -> None:
    """C twice on triage: critical against the rest (both critical cases missed),
    the class line saying which class is 1."""
    assert snap_compare(make_app("triage"), press=["C", "C"], terminal_size=size)


@pytest.mark.parametrize(("size", "press"), [(SIZE, []), (SMALL, ["2"])], ids=["120x40", "80x24"])
def test_groups_of_quantised_counts(
    snap_compare: Compare, size: tuple[int, int], press: list[str]
) -> None:
    """tests/data/slices.csv, as aggregate --by model --round 1 wrote it, opened
    --as-models: each group a line (baseline starred), every group's ROC curve, and the
    chart summary's quantisation bound (± 0.03307 for baseline)."""
    app = file_app(str(DATA / "slices.csv"), "--as-models")
    assert snap_compare(app, press=press, terminal_size=size)


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["120x40", "80x24"])
def test_groups_view(snap_compare: Compare, size: tuple[int, int]) -> None:
    """E on a file opened with --group site: each group at the threshold with its
    intervals (a sentence each), then the gaps between groups."""
    app = file_app(str(DATA / "clinics.csv"), "--group", "site")

    async def settled(pilot) -> None:  # type: ignore[no-untyped-def]
        # The opening line is cut to the width the panes settle at: let them settle
        # first (the workers done, a redraw), so every run cuts it alike.
        for _ in range(2):
            await pilot.app.workers.wait_for_complete()
            await pilot.pause(0.2)
        await pilot.press("E")
        await pilot.pause()

    assert snap_compare(app, run_before=settled, terminal_size=size)


@pytest.mark.parametrize(
    ("size", "press"),
    [(SIZE, []), (SMALL, ["2"]), (SMALL, ["2", "F", "F"]), (LARGE, [])],
    ids=["120x40", "80x24", "80x24-fold-2", "200x60"],
)
def test_folds_and_their_range(
    snap_compare: Compare, size: tuple[int, int], press: list[str]
) -> None:
    """tests/data/folds.csv opened with --fold fold: a line for all rows and each
    fold, all rows' ROC curve and the folds' TPR range (lowest to highest fold at
    each FPR) in dots; on these small plots no fold's curve until F, which draws one
    at a time (fold 2, after F twice; at 80x24 the chart); at 200x60, with room,
    every fold's curve with its own mark. Every mark named in the legend."""
    app = file_app(str(DATA / "folds.csv"), "--fold", "fold")

    async def settled(pilot) -> None:  # type: ignore[no-untyped-def]
        for _ in range(2):
            await pilot.app.workers.wait_for_complete()
            await pilot.pause(0.2)
        await pilot.press(*press)
        for _ in range(2):
            await pilot.app.workers.wait_for_complete()
            await pilot.pause(0.2)

    assert snap_compare(app, run_before=settled, terminal_size=size)


def test_each_fold_s_own_threshold_on_the_strip(snap_compare: Compare) -> None:
    """tests/data/folds.csv with --fold fold and --goal max f1 at 200x60: the strip's
    axis marks each fold's own threshold for the goal with *, the caption says so."""
    app = file_app(str(DATA / "folds.csv"), "--fold", "fold", "--goal", "max f1")

    async def settled(pilot) -> None:  # type: ignore[no-untyped-def]
        for _ in range(3):
            await pilot.app.workers.wait_for_complete()
            await pilot.pause(0.2)
        await pilot.press("right", "left")  # a frame once every fold's sweep is ready

    assert snap_compare(app, run_before=settled, terminal_size=LARGE)


@pytest.mark.parametrize(
    ("size", "press"), [(SIZE, ["M"]), (SMALL, ["M", "2"])], ids=["120x40", "80x24"]
)
def test_one_group_shown_alone(
    snap_compare: Compare, size: tuple[int, int], press: list[str]
) -> None:
    """clinics.csv opened with --group site, then M: a line each for all rows and
    the three groups (east starred), east's rows and matrix, and every curve with
    east's marked (at 80x24 the chart pane)."""
    app = file_app(str(DATA / "clinics.csv"), "--group", "site")

    async def settled(pilot) -> None:  # type: ignore[no-untyped-def]
        for _ in range(2):
            await pilot.app.workers.wait_for_complete()
            await pilot.pause(0.2)
        await pilot.press(*press)
        for _ in range(2):
            await pilot.app.workers.wait_for_complete()
            await pilot.pause(0.2)

    assert snap_compare(app, run_before=settled, terminal_size=size)


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["120x40", "80x24"])
def test_each_group_at_its_own_threshold(snap_compare: Compare, size: tuple[int, int]) -> None:
    """clinics.csv with --group site --group-goal equal_opportunity --tolerance
    0.05: the bar names each group's threshold (east 0.56, north 0.51, south 0.58), the
    matrix and status line are the groups' pooled (TP 25, FP 10, TN 46, FN 9), the sweep
    has no active point, and O on the ROC chart is the pooled point, off the curve."""
    app = file_app(
        str(DATA / "clinics.csv"),
        "--group",
        "site",
        "--group-goal",
        "equal_opportunity",
        "--tolerance",
        "0.05",
    )

    async def settled(pilot) -> None:  # type: ignore[no-untyped-def]
        for _ in range(2):
            await pilot.app.workers.wait_for_complete()
            await pilot.pause(0.2)

    assert snap_compare(app, run_before=settled, terminal_size=size)


@pytest.mark.parametrize("size", [SMALL, SIZE, LARGE], ids=["80x24", "120x40", "200x60"])
def test_lesson_question(snap_compare: Compare, size: tuple[int, int]) -> None:
    """The denominator lesson's step 2 (go to it with g): the lesson line with the
    step of ten, the caption and the question; the metrics and the sweep table hidden,
    and the status line's counts without precision and recall."""
    from threshold_lab.core.lessons.play import read_lesson

    app = make_app(lesson=read_lesson("denominator"))
    assert snap_compare(app, press=["g", "2", "enter"], terminal_size=size)


@pytest.mark.parametrize("size", [SMALL, SIZE], ids=["80x24", "120x40"])
def test_lesson_reveal(snap_compare: Compare, size: tuple[int, int]) -> None:
    """Step 2 answered wrong (0.6667 is not 2/3): the verdict and the explanation on
    the lesson line, and the metrics shown, as the question reveals them."""
    from threshold_lab.core.lessons.play import read_lesson

    app = make_app(lesson=read_lesson("denominator"))
    keys = ["g", "2", "enter", "a", *retype("0.6667"), "enter"]
    assert snap_compare(app, press=keys, terminal_size=size)
