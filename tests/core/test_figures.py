"""Figures: each chart drawn with matplotlib, its data read back from the figure's
artists and held equal to the sweep (and to scikit-learn where it has the curve); the
files written as PNG, SVG and PDF; matplotlib missing said in one line."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path
from typing import cast

import numpy as np
import pytest
from PIL import Image
from sklearn.metrics import det_curve, precision_recall_curve, roc_curve
from threshold_lab.core.choices import CHARTS
from threshold_lab.core.curves.det import probit
from threshold_lab.tui.cli import main

import threshold_lab as tl
from tests.paths import DATA


def _data(n: int = 160, seed: int = 3) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.4
    s = np.clip(rng.normal(0.4 + 0.25 * y, 0.2), 0, 1).round(2)
    return y, s, np.arange(n) % 4


def _line(fig, gid: str):  # type: ignore[no-untyped-def]
    ax = fig.axes[0]
    found = [a for a in [*ax.lines, *ax.collections] if a.get_gid() == gid]
    assert len(found) == 1, (gid, [a.get_gid() for a in [*ax.lines, *ax.collections]])
    return found[0]


def test_roc_is_the_sweep_and_sklearn_s_curve() -> None:
    y, s, _ = _data()
    r = tl.report(y, s)
    line = _line(r.figure("roc"), "roc:")
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    assert line.get_xdata().tolist() == fpr.tolist()
    assert line.get_ydata().tolist() == tpr.tolist()
    assert "AUC" in line.get_label() and "(trapezoid)" in line.get_label()
    active = _line(r.figure("roc"), "active:")
    p = r.analysis.point
    assert (active.get_xdata()[0], active.get_ydata()[0]) == (fpr[p], tpr[p])


def test_pr_is_the_step_whose_area_is_ap_with_the_trapezoid_named_beside() -> None:
    y, s, _ = _data()
    r = tl.report(y, s)
    line = _line(r.figure("pr"), "pr:")
    precision, recall, _ = precision_recall_curve(y, s, drop_intermediate=False)
    assert line.get_xdata().tolist() == recall[:-1][::-1].tolist()
    assert line.get_ydata().tolist() == pytest.approx(precision[:-1][::-1].tolist(), abs=1e-15)
    assert line.get_drawstyle() == "steps-pre"
    # The step's area (precision at each recall step) is AP.
    x, v = line.get_xdata(), line.get_ydata()
    area = float(np.sum(np.diff(np.concatenate(([0.0], x))) * v))
    assert area == pytest.approx(r.average_precision.value, abs=1e-12)
    label = line.get_label()
    assert "AP" in label and "trapezoid area" in label
    assert label.index("AP") < label.index("trapezoid")


def test_det_is_sklearn_s_points_on_probit_axes() -> None:
    y, s, _ = _data()
    r = tl.report(y, s)
    line = _line(r.figure("det"), "det:")
    fpr, fnr, _ = det_curve(y, s)
    inside = (fpr > 0) & (fpr < 1) & (fnr > 0) & (fnr < 1)
    assert line.get_xdata().tolist() == pytest.approx(probit(fpr[inside][::-1]).tolist(), abs=1e-12)
    assert line.get_ydata().tolist() == pytest.approx(probit(fnr[inside][::-1]).tolist(), abs=1e-12)


def test_decision_gains_cost_metrics_and_reliability_read_back() -> None:
    y, s, _ = _data()
    r = tl.report(y, s)
    dc = r.decision_curve
    assert dc is not None
    line = _line(r.figure("decision"), "decision:")
    assert line.get_xdata().tolist() == [float(row.pt) for row in dc.grid]
    assert line.get_ydata().tolist() == [row.net_benefit.value for row in dc.grid]
    sw = r.sweep
    n = len(y)
    g = _line(r.figure("gains"), "gains:")
    assert g.get_xdata().tolist() == ((sw.tp + sw.fp) / n).tolist()
    assert g.get_ydata().tolist() == (sw.tp / y.sum()).tolist()
    m = r.figure("metrics")
    recall = _line(m, "metrics:recall:")
    # Ascending thresholds: each point's metrics hold from the next lower score up to it.
    assert recall.get_xdata().tolist() == sw.threshold[1:][::-1].tolist()
    assert recall.get_ydata().tolist() == (sw.tp[1:] / y.sum())[::-1].tolist()
    assert recall.get_drawstyle() == "steps-pre"
    precision = _line(m, "metrics:precision:")
    want = sw.tp[1:] / (sw.tp[1:] + sw.fp[1:])
    assert precision.get_ydata().tolist() == want[::-1].tolist()
    cost = _line(r.figure("cost"), "cost:")
    pc = cost.get_xdata()
    fpr, tpr = sw.fp / (~y).sum(), sw.tp / y.sum()
    brute = np.min([(1 - t) * pc + f * (1 - pc) for f, t in zip(fpr, tpr, strict=True)], axis=0)
    assert cost.get_ydata().tolist() == pytest.approx(brute.tolist(), abs=1e-12)
    rel = _line(r.figure("reliability"), "reliability:")
    bins = [b for b in r.analysis.curves.calibration().bins]
    assert rel.get_xdata().tolist() == [b.mean_score for b in bins]
    assert rel.get_ydata().tolist() == [b.positive_rate.value for b in bins]
    # Risk against coverage: every band of the frontier that decides a row, brute-forced
    # here as the fewest errors + λ·reviewed over every pair of thresholds at each λ
    # between two neighbouring vertices' slopes.
    rc = _line(r.figure("risk-coverage"), "risk-coverage:")
    cov, risk = rc.get_xdata(), rc.get_ydata()
    assert cov[-1] == 1 and np.all(np.diff(cov) > 0)
    ts = [np.inf, *sw.threshold[1:]]
    pairs = [(i, j) for i in range(len(ts)) for j in range(i, len(ts))]
    decided = np.array([(s >= ts[i]).sum() + (s < ts[j]).sum() for i, j in pairs])
    errors = np.array([((s >= ts[i]) & ~y).sum() + ((s < ts[j]) & y).sum() for i, j in pairs])
    d, e = cov * n, risk * cov * n
    for k in range(len(d) - 1):
        price = (e[k + 1] - e[k]) / (d[k + 1] - d[k])  # the edge's slope: both ends tie
        best = np.min(errors - price * decided)
        assert e[k] - price * d[k] == pytest.approx(best, abs=1e-9)
        assert e[k + 1] - price * d[k + 1] == pytest.approx(best, abs=1e-9)


def test_models_folds_and_bands_are_each_drawn_and_told_apart() -> None:
    y, s, folds = _data()
    rng = np.random.default_rng(9)
    other = np.clip(s + rng.normal(0, 0.15, s.shape[0]), 0, 1)
    two = tl.report(y, {"a": s, "b": other}, bootstrap=100)
    fig = two.figure("roc")
    a, b = _line(fig, "roc:a"), _line(fig, "roc:b")
    assert (a.get_marker(), a.get_linestyle()) != (b.get_marker(), b.get_linestyle())
    assert a.get_label().startswith("a: AUC") and b.get_label().startswith("b: AUC")
    band = _line(fig, "band:roc:a")
    assert "95% bootstrap band" in band.get_label()
    r = tl.report(y, s, folds=folds)
    fig = r.figure("roc")
    fr = r.folds
    assert fr is not None
    for f in fr.folds:
        line = _line(fig, f"fold:roc:{f.name}")
        assert line.get_xdata().tolist() == (f.sweep.fp / f.negatives).tolist()
        assert line.get_ydata().tolist() == (f.sweep.tp / f.positives).tolist()
    shapes = {(_line(fig, f"fold:roc:{f.name}").get_marker()) for f in fr.folds}
    assert len(shapes) == len(fr.folds)
    band = _line(fig, "band:folds")
    mean = _line(fig, "mean:folds")
    assert "folds' TPR range" in band.get_label() and "vertical average" in mean.get_label()
    assert "all rows pooled" in _line(fig, "roc:").get_label()


@pytest.mark.parametrize("chart", CHARTS)
def test_each_chart_writes_a_png_of_the_size_asked(tmp_path: Path, chart: str) -> None:
    y, s, _ = _data()
    out = tl.report(y, s).plot(chart, tmp_path / f"{chart}.png", size=(5, 3), dpi=80)
    with Image.open(out) as im:
        assert im.size == (400, 240)
        darkest, lightest = cast(tuple[int, int], im.convert("L").getextrema())
        assert darkest < 100 < lightest  # marks on a light background, not blank


def test_svg_and_pdf_and_the_same_bytes_twice(tmp_path: Path) -> None:
    y, s, _ = _data()
    r = tl.report(y, s)
    a = r.plot("roc", tmp_path / "a.svg").read_bytes()
    b = r.plot("roc", tmp_path / "b.svg").read_bytes()
    assert a.startswith(b"<?xml") and a == b
    assert r.plot("pr", tmp_path / "a.pdf").read_bytes().startswith(b"%PDF")


def test_the_plot_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "roc.png"
    assert (
        main(
            [
                "plot",
                str(DATA / "model-a.csv"),
                "--compare",
                str(DATA / "model-b.csv"),
                "--chart",
                "roc",
                "--out",
                str(out),
                "--size",
                "4x3",
                "--dpi",
                "50",
            ]
        )
        == 0
    )
    assert capsys.readouterr().err == f"threshold-lab: note: wrote {out}\n"
    with Image.open(out) as im:
        assert im.size == (200, 150)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--chart", "roc", "--out", "x.gif"], "name a .png, .svg or .pdf file"),
        (["--chart", "roc", "--out", "/no/such/x.png"], "/no/such/x.png: no folder /no/such"),
        (["--chart", "lift", "--out", "x.png"], "give one of roc, pr, det"),
        (["--chart", "roc", "--out", "x.png", "--size", "6"], "give width x height in inches"),
        (
            ["--chart", "roc", "--out", "x.png", "--dpi", "0"],
            "--dpi '0': from 10 to 2400",
        ),
    ],
)
def test_plot_refusals(capsys: pytest.CaptureFixture[str], argv: list[str], said: str) -> None:
    try:
        code = main(["plot", "canonical", *argv])
    except SystemExit as exc:
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    assert code == 2 and said in err, err


def test_undefined_charts_say_why(tmp_path: Path) -> None:
    r = tl.report([1, 0, 1], [2.0, -1.0, 3.0])  # scores are not probabilities
    with pytest.raises(tl.InputError, match="--chart reliability: "):
        r.plot("reliability", tmp_path / "x.png")
    one = tl.report([1, 1], [0.2, 0.4])
    with pytest.raises(tl.InputError, match="no actual negatives"):
        one.plot("roc", tmp_path / "x.png")
    assert not (tmp_path / "x.png").exists()


def test_without_matplotlib_one_line_says_how_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    assert main(["plot", "canonical", "--chart", "roc", "--out", str(tmp_path / "x.png")]) == 2
    assert capsys.readouterr().err == (
        "threshold-lab: error: figures need matplotlib: pip install 'threshold-lab[plot]' "
        "(or pip install matplotlib)\n"
    )
    with pytest.raises(tl.InputError, match=r"threshold-lab\[plot\]"):
        tl.report([1, 0], [0.9, 0.1]).figure("roc")


def test_a_figure_at_another_threshold_and_the_cost_markers_at_the_corners() -> None:
    y, s, _ = _data()
    r = tl.report(y, s)
    fig = r.figure("roc", threshold=0.7)
    assert "threshold 0.7" in _line(fig, "active:").get_label()
    cost = _line(r.figure("cost"), "cost:")
    corners = {v.pc_low for v in r.cost_curve.hull} | {v.pc_high for v in r.cost_curve.hull}
    at = cost.get_markevery()
    assert {float(cost.get_xdata()[i]) for i in at} == corners


def test_ten_folds_each_have_a_shape_of_their_own_and_none_the_pooled_s() -> None:
    y, s, _ = _data(n=400)
    r = tl.report(y, s, folds=np.arange(400) % 10)
    fig = r.figure("roc")
    assert r.folds is not None
    looks = {(_line(fig, f"fold:roc:{f.name}").get_marker(),) for f in r.folds.folds}
    assert len(looks) == 10
    assert ("o",) not in looks  # the pooled curve's marker


def test_folds_with_no_auc_draw_and_say_undefined() -> None:
    y = np.array([1, 0, 1, 0, 1, 1, 0, 0])
    s = np.array([0.9, 0.2, 0.8, 0.3, 0.7, 0.6, 0.4, 0.1])
    r = tl.report(y, s, folds=y)  # each fold one class: no fold has an AUC
    label = _line(r.figure("roc"), "mean:folds").get_label()
    assert "undefined: no fold has both classes" in label


def test_characters_no_font_has_are_said_once_not_per_glyph(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import warnings

    from threshold_lab.core.figures import GlyphsMissing, _fonts_for

    title = "模型 \U0001d49c ROC"  # CJK and a mathematical script letter
    out = tmp_path / "t.png"
    assert main(["plot", "canonical", "--chart", "roc", "--out", str(out), "--title", title]) == 0
    err = capsys.readouterr().err
    assert "UserWarning" not in err and "Glyph" not in err
    notes = [line for line in err.splitlines() if "no installed font has" in line]
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        fig = tl.report([1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1]).figure("roc", title=title)
    glyphs = [w for w in said if issubclass(w.category, GlyphsMissing)]
    assert all("Glyph" not in str(w.message) for w in said)
    missing = _fonts_for(fig)  # what this machine's fonts leave out
    assert len(notes) == len(glyphs) == (1 if missing else 0)
    if missing:
        assert notes[0].endswith("(install a font that has them, such as Noto)")
        assert all(c in notes[0] for c in missing)


def test_the_decision_curve_s_legend_covers_no_curve() -> None:
    """Net benefit curves may run through every corner of the axes: the legend stands
    under the figure, clear of the axes and of the x-axis label, every entry in it."""
    y, s, _ = _data()
    fig = tl.report(y, {"a": s, "b": np.asarray(s) ** 2}).figure("decision")
    (ax,) = fig.axes
    assert ax.get_legend() is None and len(fig.legends) == 1
    fig.draw_without_rendering()
    legend = fig.legends[0].get_window_extent()
    under = ax.get_tightbbox()  # the axes with its tick labels and the x label
    assert legend.y1 <= under.y0 and legend.y0 >= 0
    said = {t.get_text() for t in fig.legends[0].get_texts()}
    assert {"a: model", "b: model", "act on everyone", "act on no one"} <= said


def test_the_risk_coverage_frontier_is_drawn_as_its_curve_and_steps_that_decide_rows() -> None:
    """Each frontier edge is a line in (decided, errors), a curve in (coverage, risk):
    drawn through points along it, marked at the bands; the steps start at the first
    that decides a row (a best band deciding nothing has no risk), also where no band
    decides a row without an error (the top row a negative, the bottom one a positive)."""
    from threshold_lab.core.decide.risk_coverage import risk_coverage, risk_coverage_steps

    y = np.array([0, 1, 1, 0, 0, 1], dtype=bool)
    s = np.array([0.9, 0.8, 0.7, 0.3, 0.2, 0.1])
    r = tl.report(y, s)
    fig = r.figure("risk-coverage")
    rc = _line(fig, "risk-coverage:")
    bands = [b for b in risk_coverage(r.analysis.sweep) if b.decided > 0]
    marked = [(rc.get_xdata()[k], rc.get_ydata()[k]) for k in rc.get_markevery()]
    assert marked == [(b.decided / b.total, b.errors / b.decided) for b in bands]
    # Between two bands the risk is errors / decided along the straight (decided, errors).
    d = rc.get_xdata() * 6
    e = rc.get_ydata() * d
    for a, b in itertools.pairwise(bands):
        inside = (d > a.decided) & (d < b.decided)
        line = a.errors + (b.errors - a.errors) * (d[inside] - a.decided) / (b.decided - a.decided)
        assert inside.any() and e[inside] == pytest.approx(line, abs=1e-12)
    steps = risk_coverage_steps(r.analysis.sweep)
    assert steps.bands[0].decided == 0  # the best band without an error decides nothing
    stair = _line(fig, "risk-coverage-steps:")
    drawn = [b for b in steps.bands if b.decided > 0]
    assert stair.get_xdata().tolist() == [0.0] + [b.decided / 6 for b in drawn]


def test_the_band_goal_s_band_is_drawn_on_the_risk_coverage_chart() -> None:
    """The report's band goal marks its band at its coverage and risk, counted from the
    rows, with its rule and goal in the legend; a band deciding no row is said, not
    drawn; the other charts draw no band."""
    y = np.array([1, 1, 0, 1, 0, 1, 0, 0], dtype=bool)
    s = np.array([0.95, 0.9, 0.8, 0.7, 0.3, 0.2, 0.15, 0.1])
    r = tl.report(y, s, band_goal="band: max coverage where precision >= 3/4 and npv >= 0.9")
    mark = _line(r.figure("risk-coverage"), "band:")
    b = r.band
    assert b is not None and b.decides
    # Counted from the rows: accepted score >= t_high, rejected score < t_low.
    accepted = s >= (np.inf if b.t_high is None else b.t_high)
    rejected = s < (np.inf if b.t_low is None else b.t_low)
    decided = int(accepted.sum() + rejected.sum())
    errors = int((accepted & ~y).sum() + (rejected & y).sum())
    assert mark.get_xdata().tolist() == [decided / 8]
    assert mark.get_ydata().tolist() == [errors / decided]
    assert "band: accept score >= " in mark.get_label().replace("\n", " ")
    assert "(max coverage where precision >= 0.75" in mark.get_label().replace("\n", " ")
    assert 0 < decided < 8 and errors > 0
    roc = r.figure("roc")
    assert not [a for a in roc.axes[0].lines if a.get_gid() == "band:"]
    never = tl.report(~y, s, band_goal="band: max coverage where precision >= 1 and npv >= 1")
    fig = never.figure("risk-coverage")
    said = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert any("decides no row: not drawn" in t for t in said)
