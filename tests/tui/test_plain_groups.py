"""Plain mode's ``groups`` and ``group NAME``: each group at the session's
threshold, followed through the edits (a deleted row leaves its group; an added row
has none and is said to be left out), and the refusals."""

from __future__ import annotations

import io
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.tui.plain import PlainSession

import threshold_lab as tl
from tests.argv import opened as open_argv
from tests.paths import DATA, clinics_rows

CLINICS = DATA / "clinics.csv"


def _plain(*argv: str) -> tuple[PlainSession, io.StringIO]:
    opened = open_argv(argv)
    out = io.StringIO()
    return PlainSession(opened.session, out), out


def _rows() -> tuple[list[str], list[str], list[float], list[int]]:
    ids, site, score, label = zip(*clinics_rows(), strict=True)
    return list(ids), list(site), list(score), list(label)


def test_groups_equal_the_report_and_follow_the_edits() -> None:
    p, out = _plain(str(CLINICS), "--group", "site")
    p.run_line("groups")
    said = out.getvalue()
    assert "east   20    4          3   5   11  1   8/20" in said
    assert "demographic parity difference = 22/30 − 14/40 = 23/60" in said
    ids, site, score, label = _rows()
    # Delete the first east row and add one: the groups are the remaining rows'.
    first_east = ids[site.index("east")]
    p.run_line(f"delete {first_east}")
    p.run_line("add 0.7 1")
    p.run_line("threshold 0.4")
    out.truncate(0)
    out.seek(0)
    p.run_line("groups")
    said = out.getvalue()
    keep = [i for i, x in enumerate(ids) if x != first_east]
    r = tl.report(
        [label[i] for i in keep],
        [score[i] for i in keep],
        groups=[site[i] for i in keep],
        threshold=0.4,
    )
    east = r.groups[0]
    k = east.counts
    assert f"east   19    {east.positives}" in said
    assert f"{k.tp}   {k.fp}" in said
    assert "(1 row added by an edit has no group and is left out.)" in said
    gap = r.gaps["equal_opportunity_difference"]  # type: ignore[index]
    assert gap.sentence() in said


def test_group_name_says_one_group_with_its_formulas() -> None:
    p, out = _plain(str(CLINICS), "--group", "site")
    p.run_line("group north")
    said = out.getvalue()
    assert "north: 40 rows, 12 positive (prevalence 12/40); TP 10, FP 4, TN 24, FN 2" in said
    assert "recall = TP/(TP+FN) = 10/(10+2) = 10/12 = 5/6" in said


def test_groups_are_refused_without_a_group_column_and_for_an_unknown_group() -> None:
    p, out = _plain("canonical")
    p.run_line("groups")
    assert "no groups: open a file with --group COL" in out.getvalue()
    p, out = _plain(str(CLINICS), "--group", "site")
    p.run_line("group west")
    assert "no group 'west'; the groups are: east, north, south" in out.getvalue()
    p.run_line("group")
    assert "say group NAME; the groups are: east, north, south" in out.getvalue()


def test_a_preset_loaded_later_has_no_groups() -> None:
    p, out = _plain(str(CLINICS), "--group", "site")
    p.run_line("preset canonical")
    p.run_line("groups")
    assert "no groups: open a file with --group COL" in out.getvalue()


async def test_e_in_the_explorer_shows_the_groups_and_refuses_without_them() -> None:
    from threshold_lab.tui.screens.help import MetricsScreen

    from tests.tui.helpers import file_app, make_app, rendered

    app = file_app(str(CLINICS), "--group", "site")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("E")
        await pilot.pause()
        assert isinstance(app.screen, MetricsScreen)
        text = str(app.screen.body)
        assert "east: 20 rows, 4 positive (prevalence 4/20); TP 3, FP 5, TN 11, FN 1" in text
        assert "demographic parity difference = 22/30 − 14/40 = 23/60" in text
    app = make_app("canonical")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("E")
        await pilot.pause()
        assert not isinstance(app.screen, MetricsScreen)
        assert "Refused: no groups" in rendered(app.main.query_one("#message"))


async def test_e_titles_the_rows_as_loaded_until_an_edit() -> None:
    """E's title speaks of edits only once there is one (and not after it is undone)."""
    from threshold_lab.tui.screens.help import MetricsScreen

    from tests.tui.helpers import file_app

    app = file_app(str(CLINICS), "--group", "site")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("E")
        await pilot.pause()
        assert isinstance(app.screen, MetricsScreen)
        assert app.screen.title_text == "3 groups by site, the rows as loaded"
        app.screen.dismiss()
        await pilot.pause()
        app.main.session.flip_label(0)
        await pilot.press("E")
        await pilot.pause()
        assert isinstance(app.screen, MetricsScreen)
        assert app.screen.title_text == "3 groups by site, the rows as edited"
        app.screen.dismiss()
        await pilot.pause()
        app.main.session.undo()
        await pilot.press("E")
        await pilot.pause()
        assert app.screen.title_text == "3 groups by site, the rows as loaded"


def test_each_group_is_a_line_and_model_name_shows_one_group_alone() -> None:
    p, out = _plain(str(CLINICS), "--group", "site")
    s = p.session
    assert [m.name for m in s.models] == ["all", "east", "north", "south"] and s.pooled
    ids, site, score, label = _rows()
    rows = {r.name: r for r in s.model_rows()}
    for name in ("east", "north", "south"):
        mine = [i for i, x in enumerate(site) if x == name]
        one = tl.report([label[i] for i in mine], [score[i] for i in mine])
        assert rows[name].auc.exact == one.roc_auc.exact
        assert rows[name].metrics["precision"].exact == one.metrics["precision"].exact
    assert rows["all"].auc.exact == tl.report(label, score).roc_auc.exact
    # Comparisons are between groups only (every row against a group is not independent).
    names = {(c.a, c.b) for c in s.comparisons()}
    assert names == {("east", "north"), ("east", "south"), ("north", "south")}
    p.run_line("model east")
    said = out.getvalue()
    assert "Group east (site = east): its own rows." in said
    east = [ids[i] for i, x in enumerate(site) if x == "east"]
    assert [s.data.row_id(i) for i in range(s.data.n)] == east  # the rows keep their names
    # Edits apply to the group shown; another is shown once they are undone.
    p.run_line(f"delete {east[0]}")
    p.run_line("model all")
    assert (
        "edits apply to the group shown only: undo or reset them (r) before showing "
        "another group" in out.getvalue()
    )
    # The groups while one is shown: every row as loaded.
    out.truncate(0)
    out.seek(0)
    p.run_line("groups")
    assert "east   20    4" in out.getvalue()
    p.run_line("undo")
    p.run_line("model all")
    assert "All rows, pooled across the 3 groups by site." in out.getvalue()
    assert s.data.n == 90 and s.showing_group is None


async def test_m_in_the_explorer_shows_one_group_s_rows_matrix_and_curves() -> None:
    from threshold_lab.tui.widgets.charts import CurveChart
    from threshold_lab.tui.widgets.model_line import ModelLine

    from tests.tui.helpers import file_app

    app = file_app(str(CLINICS), "--group", "site")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()
        line = app.main.query_one(ModelLine)
        assert line.display
        roc = app.main.query_one("#roc-chart", CurveChart)
        assert roc.border_title == "ROC curves of all rows and 3 groups"
        assert app.main.session.data.n == 90
        await pilot.press("M")
        await pilot.pause()
        assert app.main.message.startswith("Group east (site = east): its own rows.")
        assert app.main.session.data.n == 20
        for _ in range(3):
            await pilot.press("M")
            await pilot.pause()
        assert app.main.message.startswith("All rows, pooled across the 3 groups by site.")
        assert app.main.session.data.n == 90


def _brute(
    rows: list[tuple[str, str, float, int]], own: dict[str, float | None]
) -> tuple[int, ...]:
    """TP, FP, TN, FN with each row at its group's own threshold (None: above all)."""
    out = [0, 0, 0, 0]
    for _, site, score, label in rows:
        t = own[site]
        pred = t is not None and score >= t
        out[{(True, 1): 0, (True, 0): 1, (False, 0): 2, (False, 1): 3}[(pred, label)]] += 1
    return tuple(out)


def test_each_group_at_its_own_threshold_pools_the_counts() -> None:
    p, out = _plain(
        str(CLINICS), "--group", "site", "--group-goal", "equal_opportunity", "--tolerance", "0.05"
    )
    s = p.session
    assert s.shown.own == {"east": 0.56, "north": 0.51, "south": 0.58}  # the report's choice
    k = s.analysis.counts
    assert (k.tp, k.fp, k.tn, k.fn) == _brute(clinics_rows(), s.shown.own)
    assert s.analysis.metrics["accuracy"].exact == Fraction(71, 90)  # the solver's objective
    p.run_line("groups")
    said = out.getvalue()
    assert "each at its own threshold (east 0.56, north 0.51, south 0.58)" in said
    for name, t in s.shown.own.items():
        mine = [r for r in clinics_rows() if r[1] == name]
        one = tl.report([r[3] for r in mine], [r[2] for r in mine], threshold=t)
        assert (
            f"{name}: {len(mine)} rows" in said
            and f"TP {one.counts.tp}, FP {one.counts.fp}, TN {one.counts.tn}, FN {one.counts.fn}"
            in said
        )
    # The threshold of all rows does not move: each group moves its own, shown alone.
    for line in ("threshold 0.4", "goal max f1", "sweep", "boundary", "rows TP"):
        out.truncate(0)
        out.seek(0)
        p.run_line(line)
        assert out.getvalue().startswith("error:") and "its own" in out.getvalue(), line
    p.run_line("model east")
    assert s.threshold == 0.56
    p.run_line("threshold 0.3")
    p.run_line("model all")
    assert s.shown.own["east"] == 0.3
    k = s.analysis.counts
    assert (k.tp, k.fp, k.tn, k.fn) == _brute(clinics_rows(), s.shown.own)
    out.truncate(0)
    out.seek(0)
    p.run_line("rows 90")
    listed = out.getvalue().splitlines()
    assert listed[0] == "90 rows each at its group's own threshold, file order:"
    for (row_id, site, score, _), line in zip(clinics_rows(), listed[1:], strict=True):
        t = s.shown.own[site]
        assert t is not None
        assert line.startswith(f"{row_id}:") and f"predicted {int(score >= t)}" in line
    p.run_line("own")
    assert s.shown.own is None and "One threshold for every group again" in out.getvalue()
    p.run_line("own")
    p.run_line("reset")
    assert s.shown.own is None and "One threshold for every group." in out.getvalue()


def test_own_thresholds_are_refused_without_groups_and_infeasible_goals_say_why() -> None:
    p, out = _plain("canonical")
    p.run_line("own")
    p.run_line("group-goal equal_opportunity")
    said = out.getvalue()
    assert said.count("needs groups: open a file with --group COL") == 2
    p, out = _plain(str(CLINICS), "--group", "site")
    p.run_line("group-goal predictive_parity")
    p.run_line("group-goal fair")
    p.run_line("group-goal")
    lines = out.getvalue().splitlines()
    assert "the smallest gap reachable is" in lines[-3] and p.session.shown.own is None
    assert "not a criterion" in lines[-2] and "say group-goal CRITERION [E]" in lines[-1]


@given(data=st.data())
@settings(max_examples=60, deadline=None)
def test_the_pooled_counts_are_each_row_at_its_group_s_threshold(data: st.DataObject) -> None:
    """Property: with ties, weights and rows added by an edit (no group: left out), the
    pooled counts are the brute-force sums of each row at its group's own threshold."""
    from threshold_lab.core.data.dataset import make_dataset
    from threshold_lab.core.data.rownames import RowNames
    from threshold_lab.core.session.groups import PooledAnalysis, RowGroups

    n = data.draw(st.integers(2, 30))
    scores = data.draw(
        st.lists(st.sampled_from([0.1, 0.3, 0.5, 0.5, 0.7, 0.9]), min_size=n, max_size=n)
    )
    labels = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    weights = data.draw(
        st.none() | st.lists(st.sampled_from([0.5, 1.0, 2.0]), min_size=n, max_size=n)
    )
    codes = data.draw(st.lists(st.integers(0, 2), min_size=n, max_size=n))
    added = data.draw(st.integers(0, 3))
    own = {
        g: data.draw(st.none() | st.sampled_from([0.0, 0.3, 0.5, 0.6, 1.0]))
        for g in ("a", "b", "c")
    }
    groups = RowGroups("g", ["a", "b", "c"], np.asarray(codes, dtype=np.intp))
    ids = RowNames(
        None,
        np.concatenate([np.arange(n), -np.arange(1, added + 1)]).astype(np.int64),
        tuple(f"new{i}" for i in range(added)),
    )
    extra_s = [0.5] * added
    extra_y = [True] * added
    w = None if weights is None else [*weights, *([1.0] * added)]
    d = make_dataset(
        [*scores, *extra_s], [*labels, *extra_y], weights=w, ids=ids, ids_known_unique=True
    )
    from threshold_lab.core.analysis import curves_for

    a = PooledAnalysis(curves=curves_for(d), threshold=0.5, own=tuple(own.items()), groups=groups)
    cells = [0.0, 0.0, 0.0, 0.0]
    for i in range(n):
        t = own["abc"[codes[i]]]
        pred = t is not None and scores[i] >= t
        wi = 1.0 if weights is None else weights[i]
        cells[
            {(True, True): 0, (True, False): 1, (False, False): 2, (False, True): 3}[
                (pred, labels[i])
            ]
        ] += wi
    k = a.counts
    assert [k.tp, k.fp, k.tn, k.fn] == pytest.approx(cells)
    assert a.left_out == added


async def test_o_in_the_explorer_gives_each_group_its_own_threshold() -> None:
    from threshold_lab.tui.widgets.confusion import ConfusionMatrix
    from threshold_lab.tui.widgets.sweep_table import SweepTable
    from threshold_lab.tui.widgets.threshold_bar import ThresholdBar

    from tests.tui.helpers import file_app, rendered

    app = file_app(str(CLINICS), "--group", "site")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.app.workers.wait_for_complete()
        await pilot.press("O")
        await pilot.pause()
        s = app.main.session
        assert s.shown.own == {"east": 0.5, "north": 0.5, "south": 0.5}
        bar = rendered(app.main.query_one(ThresholdBar))
        assert "Each group at its own threshold" in bar and "east 0.5, north 0.5" in bar
        assert rendered(app.main.query_one(ConfusionMatrix)).lstrip().startswith("pooled")
        assert "none active" in app.main.query_one(SweepTable).summary()
        await pilot.press("right")
        await pilot.pause()
        assert "Refused: each group has its own threshold" in app.main.message
        await pilot.press("M", "right", "right", "M", "M", "M")  # east to 0.52, then all rows
        await pilot.pause()
        assert s.shown.own == {"east": 0.52, "north": 0.5, "south": 0.5}
        k = s.analysis.counts
        assert (k.tp, k.fp, k.tn, k.fn) == _brute(clinics_rows(), s.shown.own)
        assert "All rows pooled, each group at its own threshold: 4" in rendered(
            app.main.query_one("#status")
        )
        assert "east 0.52, north 0.5" in rendered(app.main.query_one(ThresholdBar))
        await pilot.press("O")
        await pilot.pause()
        assert s.shown.own is None and "One threshold for every group again" in app.main.message


def test_metrics_name_each_group_s_threshold_when_pooled() -> None:
    p, out = _plain(
        str(CLINICS), "--group", "site", "--group-goal", "equal_opportunity", "--tolerance", "0.05"
    )
    p.run_line("metrics")
    assert (
        "Metrics of all rows pooled, each group at its own threshold (east 0.56, north "
        "0.51, south 0.58):" in out.getvalue()
    )
