"""Cross-validation folds: each fold equals the binary report of its rows alone;
the summary is numpy's mean and sample standard deviation of those; the pooled AUC is
the whole report's; the vertical average reads each fold's ROC polyline as a brute
force does; the command line, JSON contract, the explorer's session, and refusals."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import roc_auc_score
from threshold_lab.core.curves.operating import readout
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.folds import tpr_at, tpr_band
from threshold_lab.tui.cli import main

import threshold_lab as tl
from tests.paths import DATA


def _cv(tmp_path: Path, n: int = 240, k: int = 4, seed: int = 5) -> tuple[Path, dict]:  # type: ignore[type-arg]
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.35
    s = np.clip(rng.normal(0.4 + 0.25 * y, 0.2), 0, 1).round(2)
    fold = [f"k{i % k + 1}" for i in range(n)]
    path = tmp_path / "cv.csv"
    lines = ["id,fold,score,label", *(f"r{i},{fold[i]},{s[i]},{int(y[i])}" for i in range(n))]
    path.write_text("\n".join(lines) + "\n")
    return path, {"y": y, "s": s, "fold": np.array(fold)}


def test_each_fold_is_its_rows_report_and_the_summary_is_numpy_s(tmp_path: Path) -> None:
    _, d = _cv(tmp_path)
    r = tl.report(d["y"], d["s"], folds=d["fold"])
    fr = r.folds
    assert fr is not None and [f.name for f in fr.folds] == ["k1", "k2", "k3", "k4"]
    aucs: list[float] = []
    aps: list[float] = []
    for f in fr.folds:
        rows = d["fold"] == f.name
        alone = tl.report(d["y"][rows], d["s"][rows])
        assert f.n == int(rows.sum())
        assert f.auc.exact == alone.roc_auc.exact
        assert f.auc.value == pytest.approx(roc_auc_score(d["y"][rows], d["s"][rows]), abs=1e-12)
        assert f.average_precision.exact == alone.average_precision.exact
        assert [x.interpolated.exact for x in f.readouts] == [
            x.interpolated.exact for x in alone.readouts
        ]
        assert alone.roc_auc.value is not None and alone.average_precision.value is not None
        aucs.append(alone.roc_auc.value)
        aps.append(alone.average_precision.value)
    assert fr.auc.mean == pytest.approx(np.mean(aucs), abs=1e-15)
    assert fr.auc.sd == pytest.approx(np.std(aucs, ddof=1), abs=1e-15)
    assert fr.average_precision.mean == pytest.approx(np.mean(aps), abs=1e-15)
    assert fr.average_precision.sd == pytest.approx(np.std(aps, ddof=1), abs=1e-15)
    assert fr.pooled_auc.exact == r.roc_auc.exact  # every row together, one ranking
    assert fr.pooled_auc.value != pytest.approx(fr.auc.mean, abs=1e-9)  # a different number
    for i, (kind, limit, spread) in enumerate(fr.readout_spreads()):
        values = [float(f.readouts[i].interpolated.value or 0) for f in fr.folds]
        assert all(f.readouts[i].interpolated.value is not None for f in fr.folds)
        assert spread.mean == pytest.approx(np.mean(values), abs=1e-15), (kind, limit)
        assert spread.sd == pytest.approx(np.std(values, ddof=1), abs=1e-15)
        assert (spread.low, spread.high) == (min(values), max(values))


def _brute_tpr(y: np.ndarray, s: np.ndarray, x: float) -> float:
    """The ROC polyline at FPR x: the highest TPR among points with FPR <= x, or the
    line between the last point at or below x and the next one past it."""
    P, N = y.sum(), (~y).sum()
    pts = [(0.0, 0.0)] + [
        (((s >= t) & ~y).sum() / N, ((s >= t) & y).sum() / P) for t in sorted(set(s), reverse=True)
    ]
    below = [p for p in pts if p[0] <= x]
    best = max(below, key=lambda p: (p[0], p[1]))
    after = [p for p in pts if p[0] > x]
    if not after or best[0] == x:
        return float(max(p[1] for p in below if p[0] == best[0]))
    nxt = min(after, key=lambda p: (p[0], p[1]))
    top = max(p[1] for p in below if p[0] == best[0])
    return float(top + (nxt[1] - top) * (x - best[0]) / (nxt[0] - best[0]))


cases = st.integers(3, 40).flatmap(
    lambda n: st.tuples(
        st.lists(st.booleans(), min_size=n, max_size=n).filter(lambda v: 0 < sum(v) < len(v)),
        st.lists(st.integers(0, 6).map(lambda k: k / 6), min_size=n, max_size=n),
        st.lists(
            st.sampled_from([0.0, 0.01, 0.1, 0.2, 0.25, 0.5, 0.6, 0.77, 1.0]),
            min_size=1,
            max_size=6,
        ),
    )
)


@settings(max_examples=80, deadline=None)
@given(cases)
def test_the_polyline_read_at_an_fpr_is_the_brute_force_s_and_the_readout_s(c) -> None:  # type: ignore[no-untyped-def]
    y, s, xs = np.array(c[0]), np.array(c[1]), c[2]
    sweep = build_sweep(make_dataset(s, y))
    got = tpr_at(sweep, xs)
    for x, v in zip(xs, got.tolist(), strict=True):
        assert v == pytest.approx(_brute_tpr(y, s, x), abs=1e-12), x
        if 0 < x < 1:  # a decimal the readout reads exactly as typed (1/3 would not be)
            r = readout(sweep, "tpr_at_fpr", x)
            assert v == pytest.approx(float(r.interpolated.value or 0), abs=1e-12)


def test_the_band_is_the_lowest_mean_and_highest_fold() -> None:
    a = build_sweep(make_dataset(np.array([0.9, 0.8, 0.4, 0.1]), np.array([1, 0, 1, 0], bool)))
    b = build_sweep(make_dataset(np.array([0.9, 0.8, 0.4, 0.1]), np.array([0, 1, 1, 0], bool)))
    _, low, mean, high = tpr_band([a, b], [0.0, 0.5, 1.0])
    ta, tb = tpr_at(a, [0.0, 0.5, 1.0]), tpr_at(b, [0.0, 0.5, 1.0])
    assert low.tolist() == np.minimum(ta, tb).tolist()
    assert high.tolist() == np.maximum(ta, tb).tolist()
    assert mean.tolist() == ((ta + tb) / 2).tolist()


def test_the_command_line_json_contract_and_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, d = _cv(tmp_path)
    assert main(["report", str(path), "--fold", "fold", "--json", "--points", "0"]) == 0
    out = json.loads(capsys.readouterr().out)
    folds, summary = out["folds"], out["fold_summary"]
    assert [f["name"] for f in folds] == ["k1", "k2", "k3", "k4"]
    for f in folds:
        assert set(f) >= {"name", "n", "roc", "pr", "readouts"}
        assert set(f["roc"]) >= {"auc"} and set(f["pr"]) >= {"average_precision"}
        rows = d["fold"] == f["name"]
        assert f["n"] == int(rows.sum())
        assert (
            Fraction(f["roc"]["auc"]["exact"])
            == tl.report(d["y"][rows], d["s"][rows]).roc_auc.exact
        )
    aucs = [f["roc"]["auc"]["value"] for f in folds]
    assert summary["auc"]["mean"] == pytest.approx(np.mean(aucs), abs=1e-15)
    assert summary["auc"]["sd"] == pytest.approx(np.std(aucs, ddof=1), abs=1e-15)
    aps = [f["pr"]["average_precision"]["value"] for f in folds]
    assert summary["average_precision"]["sd"] == pytest.approx(np.std(aps, ddof=1), abs=1e-15)
    assert summary["pooled_auc"]["exact"] == out["roc"]["auc"]["exact"]
    assert summary["readouts"][0]["averaging"] == "vertical"
    assert main(["report", str(path), "--fold", "fold", "--points", "0"]) == 0
    text = capsys.readouterr().out
    assert "Folds (column fold): 4 folds" in text
    assert "Pooled AUC (every row together, one ranking; not the folds' mean)" in text


def test_several_models_each_have_their_folds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, d = _cv(tmp_path)
    lines = path.read_text().splitlines()
    rng = np.random.default_rng(1)
    two = tmp_path / "two.csv"
    cells = [row.split(",") for row in lines[1:]]
    two.write_text(
        "\n".join(
            ["id,fold,score_a,score_b,label"]
            + [f"{c[0]},{c[1]},{c[2]},{rng.random():.3f},{c[3]}" for c in cells]
        )
        + "\n"
    )
    assert main(["report", str(two), "--fold", "fold", "--json", "--points", "0"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert [m["name"] for m in out["models"]] == ["a", "b"]
    assert out["models"][0]["fold_summary"] == out["fold_summary"]
    b = out["models"][1]
    scores_b = np.array([float(r.split(",")[3]) for r in two.read_text().splitlines()[1:]])
    for f in b["folds"]:
        rows = d["fold"] == f["name"]
        assert f["roc"]["auc"]["value"] == pytest.approx(
            roc_auc_score(d["y"][rows], scores_b[rows])
        )


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["canonical", "--fold", "f"], "canonical is a preset, with no fold column"),
        (
            [str(DATA / "clinics.csv"), "--fold", "site", "--group", "site"],
            "--fold and --group (fold= and group= from Python) do not combine",
        ),
        ([str(DATA / "clinics.csv"), "--fold", "nope"], "no column named 'nope' for the folds"),
    ],
)
def test_refusals(capsys: pytest.CaptureFixture[str], argv: list[str], said: str) -> None:
    code = main(["report", *argv])
    err = capsys.readouterr().err
    assert code == 2 and said in err, err
    assert len(err.splitlines()) == 1


def test_one_fold_only_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "one.csv"
    path.write_text("fold,score,label\na,0.9,1\na,0.2,0\n")
    assert main(["report", str(path), "--fold", "fold"]) == 2
    assert "every row is in fold 'a'; folds need at least two" in capsys.readouterr().err


def test_one_fold_with_one_class_is_undefined_and_said(tmp_path: Path) -> None:
    y = np.array([1, 0, 1, 0, 1, 1], bool)
    s = np.array([0.9, 0.2, 0.7, 0.4, 0.8, 0.6])
    r = tl.report(y, s, folds=["a", "a", "a", "a", "b", "b"])
    fr = r.folds
    assert fr is not None and fr.folds[1].auc.value is None
    assert fr.auc.mean == 1.0 and fr.auc.sd is None
    assert fr.auc.reason == "undefined in 1 of 2 folds (a fold with one class)"
    with pytest.raises(tl.InputError, match="do not combine"):
        tl.report(y, s, folds=[0, 0, 0, 1, 1, 1], groups=[0, 1, 0, 1, 0, 1])


def test_the_explorer_session_has_a_line_a_fold(tmp_path: Path) -> None:
    from tests.argv import opened as open_argv

    path, d = _cv(tmp_path)
    session = open_argv([str(path), "--fold", "fold"]).session
    assert [m.name for m in session.models] == ["all", "k1", "k2", "k3", "k4"]
    update = session.current()
    assert session.folds and update.folds
    # The ROC chart's shaded band: the folds' lowest to highest TPR at each FPR.
    band = update.fold_band
    assert band is not None
    r = tl.report(d["y"], d["s"], folds=d["fold"])
    assert r.folds is not None
    x, low, _, high = tpr_band([f.sweep for f in r.folds.folds])
    assert band.x.tolist() == x.tolist()
    assert band.low.tolist() == low.tolist() and band.high.tolist() == high.tolist()
    assert session.current().fold_band is band  # kept while the rows stand
    # The words name folds, not groups.
    _, said = session.shown.pick_model("k2", edited=False)
    assert said == "Fold k2 (fold = k2): its own rows."
    _, said = session.shown.pick_model("all", edited=False)
    assert said == "All rows, pooled across the 4 folds by fold."


def test_the_text_has_each_model_s_folds_and_the_tpr_readouts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path, _ = _cv(tmp_path)
    lines = path.read_text().splitlines()
    two = tmp_path / "two.csv"
    cells = [row.split(",") for row in lines[1:]]
    two.write_text(
        "\n".join(
            ["id,fold,score_a,score_b,label"]
            + [f"{c[0]},{c[1]},{c[2]},{1 - float(c[2]):.2f},{c[3]}" for c in cells]
        )
        + "\n"
    )
    assert main(["report", str(two), "--fold", "fold", "--points", "0"]) == 0
    text = capsys.readouterr().out
    assert "Folds of model a (column fold): 4 folds" in text
    assert "Folds of model b (column fold): 4 folds" in text
    assert "FPR@TPR 0.9 (each fold's polyline at exactly that TPR, averaged horizontally)" in text


def test_an_empty_fold_cell_is_said_as_a_fold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "f.csv"
    path.write_text("fold,score,label\n,0.9,1\na,0.2,0\nb,0.4,1\n")
    assert main(["report", str(path), "--fold", "fold"]) == 2
    assert "row 1 has no fold (an empty name)" in capsys.readouterr().err
