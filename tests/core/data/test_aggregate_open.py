"""Opening what ``aggregate`` writes: groups as models of their own rows, and quantised
counts whose AUC comes with a bound that the true AUC never leaves."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path
from typing import cast

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import analyse
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.aggregated import Counts, dataset_of
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.data.loaders import load_counts, load_file
from threshold_lab.core.data.quantise import bin_of, bound, round_scores
from threshold_lab.core.data.sources import open_source
from threshold_lab.core.errors import InputError
from threshold_lab.core.intervals.closed import delong_se
from threshold_lab.core.session.session import Session
from threshold_lab.tui.cli import main
from threshold_lab.tui.plain import run_plain

GROUPED = """score,positives,negatives,model
0.9,3,0,a
0.7,2,1,a
0.4,1,2,a
0.2,0,3,a
0.8,2,1,b
0.6,1,1,b
0.3,2,2,b
0.1,0,2,b
"""

QUANTISED = """score,positives,negatives,merged,quantisation
0.9,3,1,true,round:1
0.5,1,1,false,round:1
0.1,1,4,true,round:1
"""


def _auc(data: object) -> float:
    value = analyse(data, 0.5).curves.summaries.roc_auc.value  # type: ignore[arg-type]
    assert value is not None
    return value


# --- groups ------------------------------------------------------------------------------


def test_groups_open_as_models_of_their_own_rows_with_as_models(tmp_path: Path) -> None:
    p = tmp_path / "g.csv"
    p.write_text(GROUPED)
    src = open_source(str(p), as_models=True)
    assert [m.name for m in src.models] == ["a", "b"] and src.group_by == "model"
    assert not src.paired and src.data is src.models[0].data
    a, b = (m.data for m in src.models)
    assert (a.positives, a.negatives, b.positives, b.negatives) == (6, 6, 5, 6)
    # Each group is its own table: a's AUC from its counts alone (pairs of a's rows).
    assert _auc(a) == pytest.approx(
        (3 * 6 + 2 * (5 + 0.5 * 1) + 1 * (3 + 0.5 * 2) + 0) / 36  # positives' wins over negatives
    )
    src_b = open_source(str(p), group="b", as_models=True)
    assert [m.name for m in src_b.models] == ["b", "a"]
    with pytest.raises(InputError, match="no group 'c' in column 'model'; the groups are: a, b"):
        open_source(str(p), group="c", as_models=True)
    # A zero count adds no example: a's four scores hold 6 positives in 3 rows.
    assert int(np.count_nonzero(a.labels)) == 3


def test_by_names_the_group_column_when_there_are_several(tmp_path: Path) -> None:
    p = tmp_path / "g.csv"
    p.write_text("score,positives,negatives,model,day\n0.9,1,0,a,1\n0.2,0,1,a,2\n0.5,1,1,b,1\n")
    with pytest.raises(
        InputError,
        match=r"several other columns \('model', 'day'\): name the "
        r"one that holds groups with --by COLUMN",
    ):
        open_source(str(p))
    assert [m.name for m in open_source(str(p), by="day", as_models=True).models] == ["1", "2"]
    assert [name for name, _ in open_source(str(p), by="day").groups] == ["1", "2"]
    rows = tmp_path / "rows.csv"
    rows.write_text("score,label\n0.5,1\n0.2,0\n")
    with pytest.raises(InputError, match="--by is for aggregated files"):
        open_source(str(rows), by="model")
    with pytest.raises(InputError, match="holds 2 groups by 'model'"):
        load_file(tmp_path / "g2.csv" if False else _grouped_file(tmp_path))


def _grouped_file(tmp_path: Path) -> Path:
    p = tmp_path / "g2.csv"
    p.write_text(GROUPED)
    return p


def test_the_report_compares_groups_as_independent_samples(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "g.parquet"
    rows = [line.split(",") for line in GROUPED.strip().splitlines()[1:]]
    pq.write_table(
        pa.table(
            {
                "score": [float(r[0]) for r in rows],
                "positives": [int(r[1]) for r in rows],
                "negatives": [int(r[2]) for r in rows],
                "model": [r[3] for r in rows],
            }
        ),
        p,
    )
    assert main(["report", str(p), "--json", "--as-models"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["groups"] == {"by": "model", "names": ["a", "b"], "shown": "a"}
    assert doc["positives"] == 6 and doc["quantisation"] is None
    (pair,) = doc["comparison"]
    diff = pair["auc_difference"]
    se_a, se_b = (m["roc"]["auc_se"] for m in doc["models"])
    assert diff["method"] == "unpaired DeLong" and diff["alternative"] == "two-sided"
    assert diff["se"] == pytest.approx(math.hypot(se_a, se_b))
    # Student's t on the Welch–Satterthwaite degrees of freedom (pROC's), n each group's
    # examples (the counts' total: each aggregated row counts many).
    va, vb = se_a**2, se_b**2
    n_a, n_b = (m["positives"] + m["negatives"] for m in doc["models"])
    assert diff["df"] == pytest.approx((va + vb) ** 2 / (va**2 / (n_a - 1) + vb**2 / (n_b - 1)))
    a = open_source(str(p), as_models=True).models[0].data
    assert se_a == pytest.approx(delong_se(build_sweep(a))[1])
    assert pair["at_threshold"]["mcnemar"] is None
    assert "different examples" in pair["at_threshold"]["mcnemar_reason"]
    assert main(["report", str(p), "--group", "b", "--as-models"]) == 0
    text = capsys.readouterr().out
    assert (
        "Groups by model (2: b, a; each is different examples, compared as independent "
        "samples; the report above is group b's" in text
    )
    assert "unpaired DeLong SE" in text


def test_plain_mode_lists_and_shows_groups(tmp_path: Path) -> None:
    p = tmp_path / "g.csv"
    p.write_text(GROUPED)
    src = open_source(str(p), as_models=True)
    s = Session(src.data, 0.5, source=src.label, models=src.models, group_by=src.group_by)
    out = io.StringIO()
    run_plain(s, io.StringIO("models\nmodel b\nrows differ\ncompare\n"), out, prompt=False)
    text = out.getvalue()
    assert "2 groups by model, each its own rows (model NAME shows one):" in text
    assert "Group b (model = b): its own rows." in text
    assert "rows differ needs several models of the same rows; these are groups by model" in text
    assert "unpaired DeLong SE" in text


# --- quantised counts ----------------------------------------------------------------------


def test_a_quantised_file_reports_its_bound(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "q.csv"
    p.write_text(QUANTISED)
    e = (3 * 1 + 1 * 4) / (2 * 5 * 6)  # the merged rows' pairs over 2PN
    src = open_source(str(p))
    assert src.quantised[""].rule == "round:1"
    assert src.quantised[""].bound == pytest.approx(e)
    assert main(["report", str(p), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["roc"]["quantisation_bound"] == pytest.approx(e)
    assert doc["quantisation"] == {"rule": "round:1", "bound": pytest.approx(e)}
    auc = doc["roc"]["auc"]["value"]
    assert main(["report", str(p)]) == 0
    text = capsys.readouterr().out
    assert f"AUC {auc:.4f} (quantised: true AUC within ± 0.1167)" in text  # 7/60 rounded up
    s = Session(src.data, 0.5, source=src.label, quantised=src.quantised)
    out = io.StringIO()
    run_plain(s, io.StringIO("roc\nadd 0.3 1\nroc\n"), out, prompt=False)
    said = out.getvalue()
    assert said.count("quantised: true AUC within ± 0.1167") == 1  # not after an edit


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            QUANTISED.replace("false", "maybe"),
            "line 3, column 'merged': 'maybe' is not true or false",
        ),
        (
            QUANTISED.replace("0.5,1,1,false,round:1", "0.5,1,1,false,round:2"),
            "line 3, column 'quantisation': 'round:2' differs from 'round:1' above",
        ),
        (QUANTISED.replace("round:1", "round:x"), "line 2, column 'quantisation': quantisation"),
        ("score,positives,negatives,merged\n0.5,1,1,true\n", "has only one"),
        (
            "score,positives,negatives,model\n0.5,1,1,a\n0.4,1,1, \n",
            "line 3, column 'model': the group is empty",
        ),
    ],
)
def test_bad_quantised_and_grouped_files(tmp_path: Path, text: str, message: str) -> None:
    p = tmp_path / "bad.csv"
    p.write_text(text)
    with pytest.raises(InputError, match=message):
        open_source(str(p))


def test_the_fast_and_exact_readers_agree(tmp_path: Path) -> None:
    clean = tmp_path / "clean.csv"
    clean.write_text(GROUPED)
    odd = tmp_path / "odd.csv"  # a quoted cell and spaces: the exact reader
    odd.write_text(GROUPED.replace("0.9,3,0,a", '" 0.9",3,0," a"'))
    for p in (clean, odd):
        c = load_counts(p)
        assert c.by == "model" and c.group_names() == ["a", "b"]
        assert c.scores.tolist()[:2] == [0.9, 0.7] and c.positives.sum() == 11


# --- the bound -----------------------------------------------------------------------------


def quantise(scores: np.ndarray, pos: np.ndarray, neg: np.ndarray, rule: tuple[str, int]) -> Counts:
    """Rows' exact counts per distinct score, then merged by the rule (numpy)."""
    s, inv = np.unique(scores + 0.0, return_inverse=True)
    p = np.bincount(inv, weights=pos, minlength=s.shape[0])
    n = np.bincount(inv, weights=neg, minlength=s.shape[0])
    if rule[0] == "round":
        q = round_scores(s, rule[1])
    else:
        below = np.concatenate(([0.0], np.cumsum(p + n)[:-1]))
        bins = bin_of(below, float((p + n).sum()), rule[1])
        q = np.array([s[bins == b].min() for b in bins])
    keys, at = np.unique(q, return_inverse=True)
    merged = np.bincount(at, minlength=keys.shape[0]) > 1
    # Given weights, bincount sums them as floats (numpy's stubs say integers).
    pos_sums = cast("npt.NDArray[np.float64]", np.bincount(at, weights=p))
    neg_sums = cast("npt.NDArray[np.float64]", np.bincount(at, weights=n))
    return Counts(keys, pos_sums, neg_sums, merged, "x")


rows = st.integers(2, 60).flatmap(
    lambda n: st.tuples(
        st.lists(st.floats(-3, 3, allow_nan=False, width=32), min_size=n, max_size=n),
        st.lists(st.booleans(), min_size=n, max_size=n),
        st.lists(st.integers(1, 4), min_size=n, max_size=n),
    )
)
rules = st.one_of(
    st.tuples(st.just("round"), st.integers(0, 3)),
    st.tuples(st.just("quantile_bins"), st.integers(1, 8)),
)


@settings(max_examples=400, deadline=None)
@given(rows, rules)
def test_the_true_auc_lies_within_the_bound(rows, rule) -> None:  # type: ignore[no-untyped-def]
    scores, labels, weights = (np.array(x) for x in rows)
    scores = scores.astype(np.float64)
    if labels.all() or not labels.any():
        return
    true = _auc(make_dataset(scores, labels, weights=weights.astype(float)))
    pos = np.where(labels, weights, 0).astype(float)
    neg = np.where(labels, 0, weights).astype(float)
    c = quantise(scores, pos, neg, rule)
    assert c.merged is not None
    e = bound(c.positives, c.negatives, c.merged)
    assert e is not None
    got = _auc(dataset_of(Path("q"), c))
    assert abs(got - true) <= e + 1e-12
    if not c.merged.any():
        assert got == pytest.approx(true, abs=1e-12)


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(rows, rules)
def test_the_engine_writes_the_bound_the_true_auc_keeps(  # type: ignore[no-untyped-def]
    tmp_path_factory, rows, rule
) -> None:
    scores, labels, weights = (np.array(x) for x in rows)
    if labels.all() or not labels.any():
        return
    folder = tmp_path_factory.mktemp("q")
    src = folder / "rows.parquet"
    pq.write_table(
        pa.table(
            {"score": scores.astype(np.float32), "label": labels, "weight": weights.astype(float)}
        ),
        src,
    )
    out = folder / "q.parquet"
    flag = ["--round", str(rule[1])] if rule[0] == "round" else ["--quantile-bins", str(rule[1])]
    assert main(["aggregate", str(src), "-o", str(out), *flag]) == 0
    opened = open_source(str(out))
    q = opened.quantised[""]
    assert q.bound is not None
    true = _auc(
        make_dataset(scores.astype(np.float32).astype(float), labels, weights=weights.astype(float))
    )
    assert abs(_auc(opened.data) - true) <= q.bound + 1e-12


# --- the explorer --------------------------------------------------------------------------


async def test_the_explorer_shows_groups_and_the_bound(tmp_path: Path) -> None:
    from threshold_lab.tui.app import ThresholdLab
    from threshold_lab.tui.widgets.charts import CurveChart
    from threshold_lab.tui.widgets.row_table import RowTable
    from threshold_lab.tui.widgets.text import ItemLines

    from tests.tui.helpers import SIZE

    p = tmp_path / "gq.csv"
    p.write_text(
        "score,positives,negatives,model,merged,quantisation\n"
        "0.9,3,1,a,true,round:1\n0.5,1,1,a,false,round:1\n0.1,1,4,a,true,round:1\n"
        "0.8,2,0,b,false,round:1\n0.2,1,3,b,false,round:1\n"
    )
    src = open_source(str(p), as_models=True)
    s = Session(
        src.data,
        0.5,
        source=src.label,
        path=src.path,
        models=src.models,
        quantised=src.quantised,
        group_by=src.group_by,
    )
    app = ThresholdLab(s, theme="textual-dark", playback_seconds=60.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        summary = app.main.query_one("#chart-summary", ItemLines).plain
        assert "quantised: true AUC within ± 0.1167" in summary
        roc = app.main.query_one("#roc-chart", CurveChart)
        assert roc.border_title == "ROC curves of 2 groups"
        await pilot.press("M")
        await pilot.pause()
        assert app.main.message.startswith("Group b (model = b): its own rows.")
        summary = app.main.query_one("#chart-summary", ItemLines).plain
        assert "quantised: true AUC within ± 0" in summary and "0.1167" not in summary
        table = app.main.query_one(RowTable)
        await pilot.press(*["f"] * 5)  # the cells, then every row: no "decided differently"
        await pilot.pause()
        assert table.cell is None


def test_the_examples_follow_the_table_and_zero_counts_add_none() -> None:
    one_side = Counts(
        np.array([0.9, 0.5, -0.0]), np.array([2.0, 0.0, 1.0]), np.array([0.0, 3.0, 0.0])
    )
    d = dataset_of(Path("t"), one_side)
    assert d.scores.tolist() == [0.9, 0.5, 0.0] and not np.signbit(d.scores).any()
    assert d.weights is not None
    assert d.labels.tolist() == [True, False, True] and d.weights.tolist() == [2, 3, 1]
    both = Counts(np.array([0.9, 0.5, 0.1]), np.array([2.0, 1.0, 0.0]), np.array([0.0, 3.0, 0.0]))
    d = dataset_of(Path("t"), both)  # 0.1 has no example; 0.5 a positive, then a negative
    assert d.scores.tolist() == [0.9, 0.5, 0.5]
    assert d.weights is not None
    assert d.labels.tolist() == [True, True, False] and d.weights.tolist() == [2, 1, 3]


def test_a_weight_problem_in_parquet_counts_names_the_row(tmp_path: Path) -> None:
    p = tmp_path / "tiny.parquet"
    pq.write_table(
        pa.table({"score": [0.9, 0.5], "positives": [1.0, 5e-324], "negatives": [0.0, 1.0]}), p
    )
    with pytest.raises(
        InputError,
        match=r"tiny.parquet: row 2, column 'positives': the count "
        r"is 5e-324",
    ):
        open_source(str(p))
