"""Plain mode's ``groups`` and ``group NAME`` (#32): each group at the session's
threshold, followed through the edits (a deleted row leaves its group; an added row
has none and is said to be left out), and the refusals."""

from __future__ import annotations

import io

from threshold_lab.tui.cli.args import SourceArgs
from threshold_lab.tui.cli.explore import parser
from threshold_lab.tui.plain import PlainSession

import threshold_lab as tl
from tests.paths import DATA, clinics_rows

CLINICS = DATA / "clinics.csv"


def _plain(*argv: str) -> tuple[PlainSession, io.StringIO]:
    wanted = SourceArgs.parse(parser().parse_args([*argv]))
    src, threshold = wanted.open()
    opened = wanted.session(src, threshold)
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
    r = tl.report([label[i] for i in keep], [score[i] for i in keep],
                  groups=[site[i] for i in keep], threshold=0.4)  # fmt: skip
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
    assert "edits apply to the group shown only: undo or reset them (r) before showing " \
        "another group" in out.getvalue()  # fmt: skip
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
