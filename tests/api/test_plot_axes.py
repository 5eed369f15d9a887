"""Drawing into a caller's matplotlib axes, as scikit-learn's displays do, and
figures a notebook shows inline: ``r.plot(chart, ax=ax)`` draws every chart on the
given axes and returns them; several reports on one axes overlay, each legend entry
under its report's name, a shared baseline drawn once; ``r.figure()`` is a Figure that
IPython's display protocol shows as a PNG, made without pyplot (no window pops up)."""

from __future__ import annotations

import pickle
import subprocess
import sys
from fractions import Fraction

import numpy as np
import pytest

import threshold_lab as tl

pytest.importorskip("matplotlib")
from matplotlib.figure import Figure

CHARTS = ("roc", "pr", "det", "metrics", "reliability", "gains", "decision", "cost")


def _two() -> tuple[tl.Report, tl.Report]:
    rng = np.random.default_rng(7)
    y = rng.integers(0, 2, 200)
    s = np.clip(rng.random(200) * 0.7 + 0.3 * y, 0, 1)
    return tl.report(y, s, source="logistic"), tl.report(y, s**2, source="squared")


@pytest.mark.parametrize("chart", CHARTS)
def test_every_chart_draws_on_the_given_axes_and_overlays(chart: str) -> None:
    a, b = _two()
    fig = Figure()
    ax = fig.add_subplot()
    assert a.plot(chart, ax=ax) is ax
    assert b.plot(chart, ax=ax) is ax
    assert len(fig.axes) == 1  # nothing added beside the caller's axes
    legend = ax.get_legend()
    assert legend is not None
    labels = [t.get_text() for t in legend.get_texts()]
    assert len(labels) == len(set(labels))  # a baseline the two share: once
    assert any(x.startswith("logistic: ") for x in labels)
    assert any(x.startswith("squared: ") for x in labels)


def test_the_overlaid_curves_are_each_report_s_exact_sweep_in_its_own_style() -> None:
    a, b = _two()
    fig = Figure()
    ax = fig.add_subplot()
    a.plot("roc", ax=ax)
    b.plot("roc", ax=ax)
    lines = {x.get_gid(): x for x in ax.get_lines()}
    for r, name in ((a, "logistic"), (b, "squared")):
        s = r.sweep
        x, y = lines[f"roc:{name}"].get_data()
        assert np.array_equal(x, np.asarray(s.fp) / (s.fp[0] + s.tn[0]))
        assert np.array_equal(y, np.asarray(s.tp) / (s.tp[0] + s.fn[0]))
    one, two = lines["roc:logistic"], lines["roc:squared"]
    assert (one.get_color(), one.get_marker()) != (two.get_color(), two.get_marker())
    assert [x.get_gid() for x in ax.get_lines()].count("baseline") == 1
    assert ax.get_title() == "ROC curve"  # two reports: the chart, not one's name


def test_one_report_on_fresh_axes_is_titled_after_it_and_keeps_the_caller_s_layout() -> None:
    r = tl.report([1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1], threshold=0.5, source="toy")
    fig = Figure(figsize=(3, 2))
    left, right = fig.subplots(1, 2)
    r.plot("pr", ax=right)
    assert right.get_title() == "Precision-recall curve of toy"
    assert left.get_title() == "" and not left.get_lines()
    assert tuple(fig.get_size_inches()) == (3.0, 2.0)
    active = next(x for x in right.get_lines() if x.get_gid() == "active:toy")
    assert active.get_data()[1][0] == pytest.approx(float(Fraction(2, 3)))  # precision 2/3


def test_plot_wants_a_path_or_axes_not_both_nor_neither(tmp_path) -> None:  # type: ignore[no-untyped-def]
    r = tl.report([1, 0, 1, 0], [0.9, 0.4, 0.6, 0.2])
    ax = Figure().add_subplot()
    for kwargs in ({}, {"ax": ax, "path": tmp_path / "x.png"}):
        with pytest.raises(tl.InputError, match=r"path= .* or ax="):
            r.plot("roc", **kwargs)
    assert r.plot("roc", tmp_path / "x.png") == tmp_path / "x.png"


def test_a_figure_shows_inline_as_a_png_and_opens_no_window() -> None:
    r = tl.report([1, 0, 1, 0], [0.9, 0.4, 0.6, 0.2])
    fig = r.figure("roc")
    from threshold_lab.core import figures

    assert isinstance(fig, figures.ReportFigure) and isinstance(fig, Figure)
    assert type(pickle.loads(pickle.dumps(fig))).__name__ == "ReportFigure"
    png = fig._repr_png_()  # type: ignore[attr-defined]  # made with the class, at run time
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000
    # No pyplot: a plain session draws nothing on screen unasked.
    code = (
        "import sys, threshold_lab as tl\n"
        "f = tl.report([1, 0, 1, 0], [0.9, 0.4, 0.6, 0.2]).figure('pr')\n"
        "print('matplotlib.pyplot' in sys.modules, type(f).__name__)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["False", "ReportFigure"], out.stderr


def test_drawing_on_axes_without_matplotlib_says_its_pip_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    r = tl.report([1, 0, 1, 0], [0.9, 0.4, 0.6, 0.2])
    ax = Figure().add_subplot()
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(ImportError, match=r"threshold-lab\[plot\]"):
        r.plot("roc", ax=ax)
