"""Several classes through the interfaces: reading several classes, the report's
"multiclass" JSON and --class, plain mode, and the triage preset."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from threshold_lab.core.data.cells import Columns
from threshold_lab.core.data.class_files import load_multiclass
from threshold_lab.core.data.presets import preset
from threshold_lab.core.data.sources import open_source
from threshold_lab.core.errors import InputError
from threshold_lab.core.session.session import Session
from threshold_lab.tui.plain import run_plain

from tests.paths import ROOT

PETS = (
    "id,label,score_cat,score_dog,score_fish\n1,cat,0.7,0.2,0.1\n2,dog,0.3,0.6,0.1\n"
    "3,fish,0.2,0.2,0.6\n4,cat,0.4,0.5,0.1\n5,fish,0.5,0.1,0.4\n"
)


def _report(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "threshold_lab", "report", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )


def test_score_class_columns_with_class_names_are_several_classes(tmp_path: Path) -> None:
    f = tmp_path / "pets.csv"
    f.write_text(PETS)
    mc = load_multiclass(f, Columns())
    assert mc is not None and mc.classes == ("cat", "dog", "fish")
    assert mc.labels.tolist() == [0, 1, 2, 0, 2] and list(mc.ids or ()) == ["1", "2", "3", "4", "5"]
    src = open_source(str(f), klass="dog")
    assert src.klass == 1 and src.data.labels.tolist() == [False, True, False, False, False]
    assert src.data.scores.tolist() == [0.2, 0.6, 0.2, 0.5, 0.1]
    # The same with --class-score, in another class order (which breaks argmax ties).
    named = load_multiclass(f, Columns(), ["fish=score_fish", "cat=score_cat", "dog=score_dog"])
    assert named is not None and named.classes == ("fish", "cat", "dog")
    # 0/1 labels with score_A, score_B are two models; class-name labels are classes.
    two = tmp_path / "two.csv"
    two.write_text("label,score_A,score_B\n1,0.9,0.1\n0,0.2,0.8\n")
    assert load_multiclass(two, Columns()) is None
    with pytest.raises(InputError, match="label '1' has no score column"):
        load_multiclass(two, Columns(), force=True)
    named_two = tmp_path / "named.csv"
    named_two.write_text("label,score_A,score_B\nA,0.9,0.1\nB,0.2,0.8\n")
    both = load_multiclass(named_two, Columns())
    assert both is not None and both.classes == ("A", "B")


def test_json_and_parquet_multiclass_fixtures(tmp_path: Path) -> None:
    j = tmp_path / "m.json"
    rows = [[0.6, 0.3, 0.1], [0.1, 0.2, 0.7], [0.3, 0.4, 0.3]]
    j.write_text(
        json.dumps({"classes": ["a", "b", "c"], "labels": ["a", "c", "b"], "scores": rows})
    )
    mc = load_multiclass(j, Columns())
    assert mc is not None and mc.labels.tolist() == [0, 2, 1]
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    p = tmp_path / "m.parquet"
    columns = {
        "label": ["a", "b", "c"],
        "score_a": [0.5, 0.2, 0.1],
        "score_b": [0.3, 0.6, 0.2],
        "score_c": [0.2, 0.2, 0.7],
    }
    pq.write_table(pa.table(columns), str(p))
    mp = load_multiclass(p, Columns())
    assert mp is not None and mp.classes == ("a", "b", "c") and mp.labels.tolist() == [0, 1, 2]


@pytest.mark.parametrize(
    ("content", "args", "words"),
    [
        (
            PETS + "6,bird,0.3,0.3,0.4\n",
            [],
            "line 7: label 'bird' has no score column; the classes are cat, dog, fish",
        ),
        (PETS, ["--class", "cow"], "no class 'cow'; the classes are: cat, dog, fish"),
        (
            PETS.replace("0.6,0.1\n", "x,0.1\n"),
            [],
            "line 3, column 'score_dog': 'x' is not a number",
        ),
        (PETS, ["--class-score", "cat"], "--class-score takes CLASS=COLUMN"),
        ("score,label\n0.2,1\n0.7,0\n", ["--class", "a"], "not several classes"),
    ],
)
def test_bad_multiclass_input_is_one_clear_line(
    tmp_path: Path, content: str, args: list[str], words: str
) -> None:
    f = tmp_path / "m.csv"
    f.write_text(content)
    out = _report(str(f), *args)
    assert out.returncode == 2 and words in out.stderr and "Traceback" not in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1


def test_a_class_with_a_score_column_but_no_rows_is_allowed(tmp_path: Path) -> None:
    f = tmp_path / "m.csv"
    f.write_text("label,score_a,score_b,score_c\na,0.7,0.2,0.1\nb,0.2,0.7,0.1\na,0.5,0.4,0.1\n")
    doc = json.loads(_report(str(f), "--json").stdout)
    c = doc["multiclass"]["per_class"]["c"]
    assert c["support"] == 0 and c["recall"]["value"] is None
    assert c["recall"]["reason"] == "No rows labelled c (TP+FN=0)"
    macro = doc["multiclass"]["averages"]["macro"]["recall"]
    assert macro["classes"] == ["a", "b"] and "c" in macro["left_out"]


def test_the_report_json_has_the_multiclass_contract() -> None:
    out = _report("triage", "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    m = doc["multiclass"]
    assert doc["class"] == "routine" and m["classes"] == ["routine", "urgent", "critical"]
    assert m["confusion"] == [[13, 0, 1], [1, 3, 0], [1, 1, 0]] and m["argmax_ties"] == 0
    assert set(m["per_class"]["critical"]) >= {
        "precision",
        "recall",
        "f1",
        "support",
        "roc_auc",
        "average_precision",
    }
    assert m["per_class"]["critical"]["f1"]["exact"] == "0/1"
    assert set(m["averages"]) == {"macro", "weighted", "micro"}
    for kind in m["averages"].values():
        assert set(kind) >= {"precision", "recall", "f1", "roc_auc", "average_precision"}
    assert m["averages"]["macro"]["f1"]["exact"] == "191/348"
    assert m["averages"]["weighted"]["f1"]["exact"] == "451/580"  # the averaging trap
    assert m["accuracy"]["exact"] == "4/5" and m["balanced_accuracy"]["exact"] == "47/84"
    assert m["log_loss"]["value"] == pytest.approx(0.5369, abs=1e-4)
    assert m["brier"]["value"] is not None
    # --class C: the ordinary binary report of C against the rest.
    crit = json.loads(_report("triage", "--json", "--class", "critical").stdout)
    assert crit["class"] == "critical" and crit["positives"] == 2 and crit["negatives"] == 18
    assert crit["roc"]["auc"]["exact"] == "59/72"
    text = _report("triage").stdout
    assert "Class routine against the rest" in text and "Multiclass summary: 3 classes" in text
    assert "  F1                     191/348 ≈ 0.5489  451/580 ≈ 0.7776" in text


def test_plain_mode_classes_class_and_multiclass() -> None:
    p = preset("triage")
    s = Session(p.data, p.threshold, source="preset triage", multiclass=p.multiclass)
    out = io.StringIO()
    run_plain(
        s, io.StringIO("classes\nclass critical\nmulticlass\nclass nope\nflip\n"), out, prompt=False
    )
    text = out.getvalue()
    assert "routine (shown, against the rest): support 14" in text
    assert "Class critical against the rest: its scores, and label == critical." in text
    assert "F1: macro 191/348 ≈ 0.5489, weighted 451/580 ≈ 0.7776, micro 32/40 = 0.8." in text
    assert "no class 'nope'; the classes are: routine, urgent, critical" in text
    one = io.StringIO()
    run_plain(
        Session(preset("canonical").data, 0.5, source="x"),
        io.StringIO("class a\n"),
        one,
        prompt=False,
    )
    assert "these rows have two classes" in one.getvalue()


def test_a_class_switch_is_refused_while_there_are_edits() -> None:
    p = preset("triage")
    s = Session(p.data, p.threshold, source="preset triage", multiclass=p.multiclass)
    s.flip_label(0)
    with pytest.raises(InputError, match="edits apply to the class shown only"):
        s.set_class("urgent")
    s.undo()
    s.set_class("urgent")
    assert s.klass == 1 and s.data.labels.sum() == 4


async def test_the_explorer_cycles_classes_and_shows_the_summary() -> None:
    from threshold_lab.tui.screens.help import MetricsScreen
    from threshold_lab.tui.widgets.model_line import ModelLine

    from tests.tui.helpers import SIZE, make_app

    app = make_app("triage")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        line = app.main.query_one(ModelLine)
        assert line.display and "Class routine against the rest (1 = routine)" in str(line.render())
        await pilot.press("C")
        await pilot.pause()
        assert app.main.message == "Class urgent against the rest: its scores, and label == urgent."
        assert app.main.session.analysis.counts.actual_positive == 4
        assert "Class urgent against the rest" in str(line.render())
        await pilot.press("K")
        await pilot.pause()
        assert isinstance(app.screen, MetricsScreen)
        body = app.screen.body.plain
        assert "Multiclass summary: 3 classes" in body and "191/348 ≈ 0.5489" in body
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("space", "C")  # an edit: another class is refused, nothing lost
        await pilot.pause()
        assert app.main.message.startswith("Refused: edits apply to the class shown only")
    two = make_app("canonical")
    async with two.run_test(size=SIZE) as pilot:
        await pilot.press("C")
        await pilot.pause()
        assert two.main.message.startswith("Refused: these rows have two classes")
        await pilot.press("K")
        await pilot.pause()
        assert two.main.message.startswith("Refused: these rows have two classes")


async def test_the_palette_lists_each_class() -> None:
    from tests.tui.helpers import SIZE, make_app, system_commands

    app = make_app("triage")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        commands = {c.title: c for c in system_commands(app)}
        assert {"Class: routine", "Class: urgent", "Class: critical"} <= set(commands)
        commands["Class: critical"].callback()
        await pilot.pause()
        assert app.main.session.klass == 2
        assert app.main.message.startswith("Class critical against the rest")
    two = make_app("canonical")
    async with two.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not [c for c in system_commands(two) if c.title.startswith("Class:")]


def test_a_deeply_nested_json_file_is_one_clear_line_not_a_traceback(tmp_path: Path) -> None:
    # The multiclass check parsed JSON on its own and let RecursionError through.
    f = tmp_path / "deep.json"
    f.write_text("[" * 100_000)
    out = _report(str(f))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "too deeply nested to read" in out.stderr
