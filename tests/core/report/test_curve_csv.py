"""``report --curve roc|pr|det --format csv``: the exact curve points, held to
scikit-learn's ``roc_curve``, ``precision_recall_curve`` and ``det_curve`` and to
exact fractions of the counts, under ties, weights and several models."""

from __future__ import annotations

import csv
import io
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import norm
from sklearn.metrics import det_curve, precision_recall_curve, roc_curve
from threshold_lab.core.curves.export import curve_csv
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.tui.cli import main

from tests.paths import DATA


def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def _csv(
    y: np.ndarray, s: np.ndarray, curve: str, w: np.ndarray | None = None
) -> list[dict[str, str]]:
    sweep = build_sweep(make_dataset(s, y, weights=w))
    return _rows("".join(curve_csv([((), sweep)], curve, chunk=3)))


labels_scores = st.integers(2, 60).flatmap(
    lambda n: st.tuples(
        st.lists(st.booleans(), min_size=n, max_size=n).filter(lambda v: 0 < sum(v) < len(v)),
        st.lists(st.integers(0, 8).map(lambda k: k / 8), min_size=n, max_size=n),
    )
)


@settings(max_examples=60, deadline=None)
@given(labels_scores)
def test_roc_rows_are_sklearn_s_points_with_exact_fractions(
    ys: tuple[list[bool], list[float]],
) -> None:
    y, s = np.array(ys[0]), np.array(ys[1])
    rows = _csv(y, s, "roc")
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
    assert [float(r["fpr"]) for r in rows] == fpr.tolist()
    assert [float(r["tpr"]) for r in rows] == tpr.tolist()
    assert (
        rows[0]["threshold"] == "" and [float(r["threshold"]) for r in rows[1:]] == thr[1:].tolist()
    )
    P, N = int(y.sum()), int((~y).sum())
    for r in rows:
        tp, fp = int(r["tp"]), int(r["fp"])
        assert (int(r["tn"]), int(r["fn"])) == (N - fp, P - tp)
        assert Fraction(r["tpr_exact"]) == Fraction(tp, P)
        assert Fraction(r["fpr_exact"]) == Fraction(fp, N)
        t = None if r["threshold"] == "" else float(r["threshold"])
        assert tp == int(((s >= t) & y).sum()) if t is not None else tp == 0  # brute force


@settings(max_examples=60, deadline=None)
@given(labels_scores)
def test_pr_rows_are_sklearn_s_points(ys: tuple[list[bool], list[float]]) -> None:
    y, s = np.array(ys[0]), np.array(ys[1])
    rows = _csv(y, s, "pr")
    precision, recall, thr = precision_recall_curve(y, s, drop_intermediate=False)
    # sklearn lists thresholds ascending and appends (precision 1, recall 0).
    ours = [r for r in rows if r["threshold"] != ""][::-1]
    assert [float(r["threshold"]) for r in ours] == thr.tolist()
    assert [float(r["precision"]) for r in ours] == pytest.approx(precision[:-1].tolist(), abs=0)
    assert [float(r["recall"]) for r in ours] == recall[:-1].tolist()
    assert rows[0]["precision"] == "" and rows[0]["precision_exact"] == ""  # undefined above all
    for r in rows[1:]:
        tp, fp = int(r["tp"]), int(r["fp"])
        assert Fraction(r["precision_exact"]) == Fraction(tp, tp + fp)


@settings(max_examples=60, deadline=None)
@given(labels_scores)
def test_det_rows_are_sklearn_s_points_and_probits(ys: tuple[list[bool], list[float]]) -> None:
    y, s = np.array(ys[0]), np.array(ys[1])
    rows = _csv(y, s, "det")
    fpr, fnr, _ = det_curve(y, s)
    assert [float(r["fpr"]) for r in rows][::-1] == fpr.tolist()
    assert [float(r["fnr"]) for r in rows][::-1] == pytest.approx(fnr.tolist(), abs=1e-15)
    for r in rows:
        for rate in ("fpr", "fnr"):
            v = float(r[rate])
            if 0 < v < 1:
                assert float(r[f"{rate}_probit"]) == pytest.approx(norm.ppf(v), rel=1e-12)
            else:
                assert r[f"{rate}_probit"] == ""


def test_weighted_counts_have_no_fraction_where_they_are_not_whole() -> None:
    y = np.array([True, False, True, False])
    s = np.array([0.9, 0.8, 0.4, 0.2])
    rows = _csv(y, s, "roc", w=np.array([1.5, 1.0, 0.5, 2.0]))
    assert rows[1]["tp"] == "1.5" and rows[1]["tpr"] == repr(0.75)
    assert rows[1]["tpr_exact"] == ""
    whole = _csv(y, s, "roc", w=np.array([2.0, 1.0, 1.0, 3.0]))
    assert whole[1]["tpr_exact"] == "2/3"


def test_the_command_writes_csv_with_a_model_column_for_several(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["report", "canonical", "--curve", "roc", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:3] == [
        "point,threshold,tp,fp,tn,fn,fpr,tpr,fpr_exact,tpr_exact",
        "0,,0,0,2,3,0.0,0.0,0/1,0/1",
        "1,0.9,1,0,2,2,0.0,0.3333333333333333,0/1,1/3",
    ]
    a, b = str(DATA / "model-a.csv"), str(DATA / "model-b.csv")
    assert main(["report", a, "--compare", b, "--curve", "pr"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert {r["model"] for r in rows} == {"model-a", "model-b"}
    for name, path in (("model-a", a), ("model-b", b)):
        lines = Path(path).read_text().splitlines()[1:]
        scores = {line.split(",")[1] for line in lines}
        assert sum(r["model"] == name for r in rows) == len(scores) + 1  # above all, then each


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--curve", "lift"], "give roc, pr or det"),
        (["--format", "csv"], "--format needs --curve: it is the format of --curve's points"),
        (["--curve", "roc", "--json"], "give one"),
    ],
)
def test_curve_refusals(capsys: pytest.CaptureFixture[str], argv: list[str], said: str) -> None:
    try:
        code = main(["report", "canonical", *argv])
    except SystemExit as exc:  # argparse's own refusal of a bad --curve
        code = int(exc.code or 0)
    assert code == 2
    out = capsys.readouterr()
    assert out.out == "" and said in out.err


def test_with_folds_each_fold_s_rows_follow_all_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--fold: a fold column, 'all' first, then each fold's curve: the CSV its own
    rows alone give."""
    path = DATA / "folds.csv"
    assert main(["report", str(path), "--fold", "fold", "--curve", "roc"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert list(rows[0])[:2] == ["fold", "point"]
    assert [r["fold"] for r in rows][:1] == ["all"]
    lines = path.read_text().splitlines()
    for fold in "12345":
        alone = tmp_path / f"{fold}.csv"
        alone.write_text("\n".join([lines[0], *(x for x in lines[1:] if x.split(",")[1] == fold)]))
        assert main(["report", str(alone), "--curve", "roc"]) == 0
        want = _rows(capsys.readouterr().out)
        got = [{k: v for k, v in r.items() if k != "fold"} for r in rows if r["fold"] == fold]
        assert got == want


def test_with_groups_each_group_s_rows_follow_all_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """--group: a group column, 'all' first, then each group's curve: the CSV its own
    rows alone give."""
    rng = np.random.default_rng(3)
    y = rng.random(60) < 0.4
    s = np.round(rng.random(60), 1)
    site = rng.choice(["north", "south"], 60)
    path = tmp_path / "g.csv"
    body = [f"{a},{int(b)},{c}" for a, b, c in zip(s, y, site, strict=True)]
    path.write_text("\n".join(["score,label,site", *body]) + "\n")
    assert main(["report", str(path), "--group", "site", "--curve", "roc"]) == 0
    rows = _rows(capsys.readouterr().out)
    assert list(rows[0])[:2] == ["group", "point"] and rows[0]["group"] == "all"
    assert main(["report", str(path), "--curve", "roc"]) == 0
    whole = _rows(capsys.readouterr().out)
    assert [
        {k: v for k, v in r.items() if k != "group"} for r in rows if r["group"] == "all"
    ] == whole
    for name in ("north", "south"):
        alone = tmp_path / f"{name}.csv"
        alone.write_text(
            "\n".join(["score,label", *(b.rsplit(",", 1)[0] for b in body if b.endswith(name))])
        )
        assert main(["report", str(alone), "--curve", "roc"]) == 0
        want = _rows(capsys.readouterr().out)
        got = [{k: v for k, v in r.items() if k != "group"} for r in rows if r["group"] == name]
        assert got == want


@pytest.mark.parametrize(("curve", "labels"), [("det", "1,1"), ("roc", "0,0"), ("pr", "0,0")])
def test_a_curve_the_rows_cannot_have_is_refused_as_plot_refuses_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], curve: str, labels: str
) -> None:
    a, b = labels.split(",")
    path = tmp_path / "one.csv"
    path.write_text(f"score,label\n0.9,{a}\n0.5,{b}\n")
    assert main(["report", str(path), "--curve", curve]) == 2
    out, err = capsys.readouterr()
    missing = "negatives" if a == "1" else "positives"
    assert out == ""
    assert err == (
        f"threshold-lab: error: --curve {curve}: the rows have no actual {missing}, so the "
        "curve is undefined\n"
    )
