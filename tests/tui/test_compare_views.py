"""Several models beyond the statistics: two files joined on id (--compare), the overlay of every
model's curves, the decided-differently rows, and other models swept off the UI thread."""

from __future__ import annotations

import io
import itertools
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.data.dataset import Model, make_dataset
from threshold_lab.core.data.loaders import Columns
from threshold_lab.core.data.models import join_models
from threshold_lab.core.data.presets import preset
from threshold_lab.core.data.sources import open_source
from threshold_lab.core.errors import InputError
from threshold_lab.core.metrics.confusion import row_cells
from threshold_lab.core.session.rowview import (
    DIFFER,
    RowOrder,
    decided_apart,
    make_view,
    side_by_side,
)
from threshold_lab.core.session.session import Session
from threshold_lab.tui.plain import run_plain

from tests.paths import ROOT
from tests.tui.helpers import SIZE, SMALL, make_app

A_CSV = "id,score,label\nr1,0.9,1\nr2,0.8,0\nr3,0.7,1\nr4,0.3,0\nr5,0.2,0\n"
#: The same examples in another order, scored by another model.
B_CSV = "id,score,label\nr3,0.95,1\nr1,0.4,1\nr5,0.1,0\nr4,0.6,0\nr2,0.2,0\n"


def _files(tmp_path: Path, a: str = A_CSV, b: str = B_CSV) -> tuple[Path, Path]:
    (tmp_path / "one").mkdir(exist_ok=True)
    fa, fb = tmp_path / "modelA.csv", tmp_path / "modelB.csv"
    fa.write_text(a)
    fb.write_text(b)
    return fa, fb


def _report(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "threshold_lab", "report", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


# --- the join -------------------------------------------------------------------------


def test_compare_joins_the_second_file_on_id_in_the_first_files_order(tmp_path: Path) -> None:
    fa, fb = _files(tmp_path)
    src = open_source(str(fa), compare=str(fb))
    a, b = src.models
    assert (a.name, b.name) == ("modelA", "modelB")
    assert list(b.data.ids or ()) == ["r1", "r2", "r3", "r4", "r5"]
    assert b.data.scores.tolist() == [0.4, 0.2, 0.95, 0.6, 0.1]
    assert b.data.labels.tolist() == a.data.labels.tolist()
    out = _report(str(fa), "--compare", str(fb), "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert [m["name"] for m in doc["models"]] == ["modelA", "modelB"]
    assert doc["models"][1]["roc"]["auc"]["exact"] == "5/6"  # 0.95 > all; 0.4 > 0.2, 0.1
    (c,) = doc["comparison"]
    assert c["auc_difference"]["exact"] == "0/1" and c["at_threshold"]["decided_differently"] == 3


def test_compare_names_each_model_after_its_file(tmp_path: Path) -> None:
    fa, _fb = _files(tmp_path)
    other = tmp_path / "one" / "modelA.csv"
    other.write_text(B_CSV)
    names = [m.name for m in open_source(str(fa), compare=str(other)).models]
    # The same stem: their folders tell them apart.
    assert names == [f"{tmp_path.name}/modelA", "one/modelA"]
    assert [m.name for m in open_source(str(fa), compare=str(fa)).models] == [
        "modelA",
        "modelA (2)",
    ]


def test_files_without_ids_join_by_row_position(tmp_path: Path) -> None:
    fa, fb = _files(tmp_path, "score,label\n0.9,1\n0.2,0\n", "score,label\n0.3,1\n0.6,0\n")
    _, b = open_source(str(fa), compare=str(fb)).models
    assert b.data.scores.tolist() == [0.3, 0.6]


@pytest.mark.parametrize(
    ("b", "words"),
    [
        (B_CSV.replace("r2,0.2,0\n", ""), "modelB.csv: has no row with id 'r2', which "),
        (B_CSV + "r9,0.5,0\n", "modelB.csv: has a row with id 'r9' that "),
        (
            B_CSV.replace("r4,0.6,0", "r4,0.6,1"),
            "modelB.csv: row id 'r4' is labelled positive here and negative in ",
        ),
        (
            "score,label\n0.1,1\n0.2,0\n0.3,1\n0.4,0\n0.5,0\n",
            "modelB.csv: --compare joins the two files on their id column; ",
        ),
        ("id,score,label\nr1,0.1,1\n", "has no row with id 'r2'"),
    ],
)
def test_compare_refuses_files_that_do_not_match_naming_the_id(
    tmp_path: Path, b: str, words: str
) -> None:
    fa, fb = _files(tmp_path, b=b)
    with pytest.raises(InputError) as err:
        open_source(str(fa), compare=str(fb))
    assert words in str(err.value)
    out = _report(str(fa), "--compare", str(fb))
    assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_compare_refuses_weights_that_differ_and_what_it_cannot_join(tmp_path: Path) -> None:
    fa, fb = _files(
        tmp_path,
        "id,score,label,weight\na,0.9,1,2\nb,0.2,0,1\n",
        "id,score,label,weight\nb,0.3,0,1\na,0.6,1,3\n",
    )
    with pytest.raises(InputError, match="row id 'a' has weight 3 here and 2 in"):
        open_source(str(fa), compare=str(fb))
    with pytest.raises(InputError, match="no such file"):
        open_source(str(fa), compare=str(tmp_path / "nope.csv"))
    with pytest.raises(InputError, match="preset canonical is not a file"):
        open_source("canonical", compare=str(fa))
    agg = tmp_path / "agg.csv"
    agg.write_text("score,positives,negatives\n0.9,1,0\n0.2,0,1\n")
    with pytest.raises(InputError, match="aggregated counts"):
        open_source(str(fa), compare=str(agg))
    two = tmp_path / "two.csv"
    two.write_text("id,label,score_A,score_B\na,1,0.9,0.8\nb,0,0.2,0.1\n")
    with pytest.raises(InputError, match="holds several models already"):
        open_source(str(two), compare=str(fa))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1), st.booleans()), min_size=1, max_size=30),
    st.randoms(use_true_random=False),
)
def test_a_join_is_the_same_rows_whatever_the_second_files_order(rows, rnd) -> None:  # type: ignore[no-untyped-def]
    ids = [f"x{i}" for i in range(len(rows))]
    first = make_dataset([r[0] for r in rows], [r[2] for r in rows], ids=ids)
    order = list(range(len(rows)))
    rnd.shuffle(order)
    other = make_dataset(
        [rows[i][1] for i in order], [rows[i][2] for i in order], ids=[ids[i] for i in order]
    )
    import threshold_lab.core.data.models as models

    with pytest.MonkeyPatch.context() as m:
        m.setattr(models, "load_file", lambda *a, **k: other)
        a, b = join_models(Path("a.csv"), first, Path("b.csv"), Columns())
    assert b.data.scores.tolist() == [r[1] for r in rows]
    assert b.data.labels.tolist() == first.labels.tolist() and a.data is first


# --- the rows decided differently -------------------------------------------------------


def test_the_rows_decided_differently_at_seed_004s_threshold() -> None:
    models = preset("deliveries").models
    datas = [m.data for m in models]
    apart = decided_apart(datas, 0.7)
    assert apart is not None and np.flatnonzero(apart).tolist() == [2, 4]
    a = datas[0]
    for order, rows in (("file", [2, 4]), ("score-desc", [2, 4]), ("score-asc", [4, 2])):
        view = make_view(a, 0.7, order, DIFFER, RowOrder(a), datas)
        assert view.indices(0, 10).tolist() == rows
    sides = side_by_side([(m.name, m.data) for m in models], 0.7, np.array([4]))
    assert sides[0].models == (("A", "0.55", "FN"), ("B", "0.76", "TP"))
    # Rows added to one model: no longer lined up, so nothing is shown.
    grown = make_dataset([*a.scores, 0.5], [*a.labels, True])
    assert decided_apart([grown, datas[1]], 0.7) is None
    assert len(make_view(grown, 0.7, "file", DIFFER, RowOrder(grown), [grown, datas[1]])) == 0


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.tuples(st.floats(0, 1), st.floats(0, 1), st.booleans()), min_size=1, max_size=40),
    st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, None]),
)
def test_decided_differently_is_the_rows_whose_cells_differ(rows, t) -> None:  # type: ignore[no-untyped-def]
    a = make_dataset([r[0] for r in rows], [r[2] for r in rows])
    b = a.with_scores([r[1] for r in rows])
    apart = decided_apart([a, b], t)
    cells_a, cells_b = row_cells(a, t), row_cells(b, t)
    assert apart is not None and apart.tolist() == [
        x != y for x, y in zip(cells_a, cells_b, strict=False)
    ]
    assert not decided_apart([a, a.with_scores(a.scores)], t).any()  # type: ignore[union-attr]
    desc = make_view(a, t, "score-desc", DIFFER, RowOrder(a), [a, b]).indices(0, len(rows))
    assert sorted(desc.tolist()) == np.flatnonzero(apart).tolist()
    assert all(a.scores[i] >= a.scores[j] for i, j in itertools.pairwise(desc))


def test_plain_mode_lists_the_rows_decided_differently() -> None:
    p = preset("deliveries")
    s = Session(p.data, 0.7, source="preset deliveries", models=p.models)
    out = io.StringIO()
    run_plain(
        s,
        io.StringIO("rows differ\nrows differ low 1\nthreshold 0.5\nrows differ\n"),
        out,
        prompt=False,
    )
    text = out.getvalue()
    assert "2 rows decided differently at threshold 0.7, file order:" in text
    assert "3: actual 0; A score 0.75 FP, B score 0.66 TN" in text
    assert "5: actual 1; A score 0.55 FN, B score 0.76 TP" in text
    assert "... and 1 more row: rows differ 2 shows them all." in text
    assert "0 rows decided differently at threshold 0.5" in text
    one = io.StringIO()
    run_plain(
        Session(preset("canonical").data, 0.5, source="x"),
        io.StringIO("rows differ\n"),
        one,
        prompt=False,
    )
    assert "rows differ needs several models" in one.getvalue()


async def test_the_row_filter_shows_decided_differently_rows_side_by_side() -> None:
    from threshold_lab.tui.widgets.row_table import RowTable

    app = make_app("deliveries")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        table = app.main.query_one(RowTable)
        await pilot.press(*["f"] * 5)
        await pilot.pause()
        assert table.cell == DIFFER and len(table.view) == 2
        assert app.main.message.startswith("Showing only the rows A and B decide differently: 2")
        lines = [table.render_line(y).text for y in range(4)]
        assert lines[0].startswith("rows decided differently 1-2 of 2")
        # A narrow table keeps which rows, then their order, then what * means.
        assert table.summary_to_fit(50) == "rows decided differently 1-2 of 2 (10 in all)"
        assert table.summary_to_fit(60) == (
            "rows decided differently 1-2 of 2 (10 in all); file order"
        )
        assert lines[1].split() == [
            "id",
            "actual",
            "A",
            "score",
            "A",
            "cell",
            "B",
            "score",
            "B",
            "cell",
        ]
        assert lines[2].split() == ["3", "0", "0.75", "FP", "0.66", "TN"]
        await pilot.press(*["left"] * 5)  # threshold 0.65: the view follows
        await pilot.pause()
        assert app.main.session.threshold == 0.65
        assert [table.render_line(y).text[2:].split()[0] for y in (2, 3)] == ["4", "5"]
        await pilot.press("f")
        await pilot.pause()
        assert table.cell is None and app.main.message == "Showing every row."
    one = make_app("canonical")
    async with one.run_test(size=SIZE) as pilot:
        await pilot.press(*["f"] * 5)  # one model: the cells only, then every row again
        await pilot.pause()
        assert one.main.query_one(RowTable).cell is None


# --- the overlay ------------------------------------------------------------------------


async def test_the_charts_draw_every_model_told_apart_by_shape() -> None:
    from threshold_lab.tui.widgets.charts import CurveChart

    app = make_app("deliveries")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        roc = app.main.query_one("#roc-chart", CurveChart)
        assert roc.border_title == "ROC curves of 2 models"
        assert roc.legend == "\u2812\u2812 A (shown) · ## B · - chance · O active point"
        drawn = str(roc.render())
        assert "#" in drawn and any("\u2800" <= ch <= "\u28ff" for ch in drawn)
        await pilot.press("M")
        await pilot.pause()
        assert roc.legend.startswith("\u2812\u2812 A · ## B (shown) ·")  # marks stay put
        await pilot.press("c")
        await pilot.pause()
        pr = app.main.query_one("#pr-chart", CurveChart)
        assert pr.border_title == "Precision-recall curves of 2 models"
        assert "prevalence" in pr.legend
    plain = make_app("deliveries", ascii=True)
    async with plain.run_test(size=SMALL) as pilot:
        await pilot.press("2")
        await pilot.pause()
        roc = plain.main.query_one("#roc-chart", CurveChart)
        assert roc.legend_to_fit(60).startswith("** A (shown) · ## B")
        assert roc.legend_to_fit(20) == "** A* ## B - base"
        drawn = str(roc.render())  # box-drawing is swapped for ASCII on output
        assert "*" in drawn and "#" in drawn and not any("\u2800" <= c <= "\u28ff" for c in drawn)
    from threshold_lab.tui.widgets.charts import legend_name

    assert legend_name("/tmp/review15/a") == "\u2026/review15/a" and legend_name("B") == "B"
    one = make_app("canonical")
    async with one.run_test(size=SIZE) as pilot:
        await pilot.pause()
        roc = one.main.query_one("#roc-chart", CurveChart)
        assert roc.border_title == "ROC curve" and "exact sweep" in roc.legend


# --- off the UI thread -------------------------------------------------------------------


def test_a_large_models_row_waits_for_its_sweep_when_deferred() -> None:
    rng = np.random.default_rng(0)
    n = 300_000
    labels = rng.random(n) < 0.2
    a = make_dataset(rng.random(n), labels)
    b = a.with_scores(rng.random(n))
    s = Session(a, 0.5, source="big", models=(Model("A", a), Model("B", b)))
    rows = s.model_rows(wait=False)  # what the explorer's frame asks: not held for sweeps
    assert [r.pending for r in rows] == [True, True]
    assert rows[1].items() == ["B AUC, AP and metrics: being computed…"]
    assert s.model_waits(1)
    s.model_curves(0), s.model_curves(1)  # what the explorer's worker does
    rows = s.model_rows(wait=False)
    assert not any(r.pending for r in rows) and not s.model_waits(1)
    assert rows[1].auc.value is not None
    s.set_model("B")  # the sweep is kept: shown again, not swept again
    assert s.analysis.curves is s.model_curves(1)


async def test_the_explorer_sweeps_other_large_models_in_its_worker() -> None:
    from threshold_lab.tui.app import ThresholdLab
    from threshold_lab.tui.widgets.charts import CurveChart
    from threshold_lab.tui.widgets.model_line import ModelLine

    rng = np.random.default_rng(1)
    n = 250_000
    a = make_dataset(rng.random(n), rng.random(n) < 0.3)
    b = a.with_scores(rng.random(n))
    s = Session(a, 0.5, source="big", models=(Model("A", a), Model("B", b)))
    app = ThresholdLab(s, theme="textual-dark")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        line = app.main.query_one(ModelLine)
        # A resize may start the preparing worker again (exclusive: the first is then
        # cancelled), so wait until the rows are in, not for one worker.
        for _ in range(100):
            await app.workers.wait_for_complete()
            await pilot.pause(0.05)
            if "being computed" not in str(line.render()):
                break
        text = str(line.render())
        errors = [(w.name, w.state, w.error) for w in app.workers]
        assert "being computed" not in text and "B AUC ≈ 0.49" in text, (text, errors)
        roc = app.main.query_one("#roc-chart", CurveChart)
        assert roc.border_title == "ROC curves of 2 models"
        assert s.shown.kept_curves(b) is s.model_curves(1)  # swept once, by the worker


def test_the_model_lines_fit_their_four_lines_however_many_models() -> None:
    """Every model a line, compact, when the full lines would not fit; past four, the
    shown model and the first others, then how many more."""
    import dataclasses

    from threshold_lab.tui.widgets.model_line import fit_rows

    s = Session(preset("deliveries").data, 0.7, source="x", models=preset("deliveries").models)
    a, b = s.model_rows()
    full = fit_rows([a, b], 60, 4, None)
    assert [t.plain for t in full][:1] == ["A* AUC 13/16 (95% CI 0.40 to 1.00) · AP 7/10"]
    three = [a, b, dataclasses.replace(b, name="C")]
    assert [t.plain for t in fit_rows(three, 40, 4, None)] == [
        "A* AUC 13/16 · AP 7/10 · F1 2/5",
        "B AUC 7/8 · AP 7/12 · F1 4/5",
        "C AUC 7/8 · AP 7/12 · F1 4/5",
    ]
    six = [dataclasses.replace(b, name=n) for n in "CDEF"] + [a, b]
    lines = [t.plain for t in fit_rows(six, 40, 4, None)]
    assert lines[0].startswith("C AUC") and lines[2].startswith("A* AUC")
    assert lines[3] == "… and 3 more (M shows the next)"
