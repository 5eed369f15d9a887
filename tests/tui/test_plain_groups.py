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
