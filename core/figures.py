"""Figures for papers and reviews: each chart of the explorer drawn with matplotlib.

matplotlib is an optional extra (``pip install threshold-lab[plot]``), imported only
when a figure is drawn. A figure shows what the explorer shows: the exact sweep
(ROC as its polyline, precision-recall as the step whose area is average precision,
with the trapezoid area named beside it and never in its place), the baseline, the
active point and its threshold, the bootstrap's bands when it ran, each model with
its own marker and line style (so a greyscale print tells them apart), each fold's
curve and the folds' TPR range, and axes naming the quantity and its denominator.

Every point of the sweep is drawn up to :data:`EXACT_POINTS` points; a longer curve
is reduced as the explorer reduces it (every step and spike a column of the image
can show survives, and the active point). Each drawn artist has a ``gid`` naming
what it is (``roc:MODEL``, ``band:roc``, ``fold:roc:NAME``...), so a test reads the
figure's data back.
"""

from __future__ import annotations

import functools
import io
import textwrap
import warnings
from collections.abc import Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.choices import CHARTS
from threshold_lab.core.curves.det import det_span, placeable, probit
from threshold_lab.core.curves.export import missing_class
from threshold_lab.core.curves.hull import normalised_costs
from threshold_lab.core.curves.pr import first_defined
from threshold_lab.core.curves.reduce import reduce_curve
from threshold_lab.core.curves.smooth import NotSmoothed, Smoothed
from threshold_lab.core.decide.band import Band, rule_text
from threshold_lab.core.decide.net_benefit import DecisionCurve
from threshold_lab.core.decide.risk_coverage import risk_coverage, risk_coverage_steps
from threshold_lab.core.errors import InputError, MissingDependency, quoted
from threshold_lab.core.folds import FoldReport, tpr_band
from threshold_lab.core.intervals import IntervalsShown
from threshold_lab.core.metrics.metric import Metric, format_fraction
from threshold_lab.core.output import Output, output, refused, writing
from threshold_lab.core.threshold import format_threshold

FloatArray = npt.NDArray[np.float64]

FORMATS = (".png", ".svg", ".pdf")

#: Curves up to this many points are drawn whole; longer ones are reduced.
EXACT_POINTS = 50_000
#: The columns a long curve is reduced to (about four points a column remain).
COLUMNS = 2_000

#: Each model's look: a marker and a line style (greyscale tells them apart), and a
#: colour from Okabe and Ito's palette for colour-blind readers.
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
STYLES = ("-", "--", "-.", ":")
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000", "#F0E442")
#: Each fold's marker: a dozen shapes, none the models' first ("o"), so ten folds
#: beside the pooled curve are each told apart by shape.
FOLD_MARKERS = ("s", "^", "D", "v", "P", "X", "*", "<", ">", "p", "h", "d")
#: A smoothed curve's dashes (each method its own, told apart without colour).
SMOOTH_DASHES = ((0, (6, 2)), (0, (2.5, 1.5)), (0, (6, 2, 1, 2)))
INSTALL = "figures need matplotlib: pip install 'threshold-lab[plot]' (or pip install matplotlib)"


@dataclass(frozen=True, eq=False)
class FigureModel:
    """One model to draw: its name (empty with one model), its rows at the active
    threshold, its bootstrap (for the bands) and its decision curve."""

    name: str
    analysis: Analysis
    sure: IntervalsShown | None = None
    decision_curve: DecisionCurve | None = None
    #: Smoothed ROC curves drawn beside the exact one (a refused one is not drawn).
    smoothed: tuple[Smoothed | NotSmoothed, ...] = ()
    #: The review band of the report's band goal (drawn on the risk-coverage chart).
    band: Band | None = None


@dataclass(frozen=True)
class Look:
    """How the figure is drawn: inches, dots per inch, the title."""

    size: tuple[float, float] = (6.0, 4.0)
    dpi: int = 150
    title: str | None = None
    bins: int = 10
    binning: str = "mass"


def parse_chart(text: str) -> str:
    if not isinstance(text, str):
        raise InputError(f"chart {quoted(text)}: give one of {', '.join(CHARTS)}")
    name = text.strip().lower()
    if name not in CHARTS:
        raise InputError(f"--chart {quoted(text)}: give one of {', '.join(CHARTS)}")
    return name


def parse_size(text: str) -> tuple[float, float]:
    """``6x4`` (inches, width by height)."""
    parts = text.lower().replace("×", "x").split("x")
    try:
        w, h = (float(p) for p in parts)
    except ValueError:
        raise InputError(f"--size {quoted(text)}: give width x height in inches, as 6x4") from None
    if not (0.5 <= w <= 100 and 0.5 <= h <= 100):
        raise InputError(f"--size {quoted(text)}: each side from 0.5 to 100 inches")
    return w, h


def parse_dpi(text: str) -> int:
    try:
        dpi = int(text)
    except ValueError:
        raise InputError(
            f"--dpi {quoted(text)}: give a whole number of dots per inch, as 150"
        ) from None
    if not 10 <= dpi <= 2400:
        raise InputError(f"--dpi {quoted(text)}: from 10 to 2400")
    return dpi


def check_output(path: str | PathLike[str], inputs: Sequence[str | Path] = ()) -> Output:
    """The figure's file, checked before it is drawn (its format from its suffix:
    .png, .svg, .pdf; never one of ``inputs``, the files the figure was drawn from)."""
    p = Path(path)
    if p.suffix.lower() not in FORMATS:
        raise InputError(
            f"--out {p}: name a .png, .svg or .pdf file (the format follows the suffix)"
        )
    return output(p, "--out", inputs=inputs)


def _matplotlib() -> Any:
    """The Figure class a report draws (matplotlib imported only now)."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingDependency(INSTALL) from None
    return _report_figure(Figure)


def _png(fig: Any) -> bytes:
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png")
    return buffer.getvalue()


@functools.cache
def _report_figure(base: type) -> type:
    """matplotlib's Figure, shown as a PNG wherever it is displayed (IPython's display
    protocol: a notebook shows it once, with no ``%matplotlib`` magic). It is made
    without pyplot, so a plain Python session never opens a window for it."""
    return type(
        "ReportFigure",
        (base,),
        {"_repr_png_": _png, "__module__": __name__, "__doc__": _report_figure.__doc__},
    )


def __getattr__(name: str) -> Any:
    # ReportFigure, made when first asked for (matplotlib is optional): so pickle, and
    # an isinstance check, find it by name.
    if name == "ReportFigure":
        return _matplotlib()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: Drawing on a caller's axes: how many models it already holds (each next model takes
#: the next style), and whether every label names its model (several reports share one
#: legend, each under its own name).
_OVERLAY: ContextVar[tuple[int, bool]] = ContextVar("overlay", default=(0, False))


# --- words ----------------------------------------------------------------------


def _short(m: Metric) -> str:
    """``7/12 ≈ 0.5833`` (small fractions), else ``≈ 0.5833``; undefined said."""
    if m.value is None:
        return "undefined"
    if m.exact is not None and m.exact.denominator <= 1000:
        if m.exact.denominator == 1:
            return str(m.exact.numerator)
        return f"{format_fraction(m.exact)} ≈ {m.value:.4f}"
    return f"≈ {m.value:.4f}"


def _who(model: FigureModel, several: bool) -> str:
    named = several or _OVERLAY.get()[1]
    return f"{model.name}: " if named and model.name else ""


def _count(x: Any) -> str:
    f = float(x)
    return f"{int(f):,}" if f == int(f) else f"{f:,.4g}"


def _threshold_words(a: Analysis) -> str:
    t = a.threshold
    return "threshold above all scores" if t is None else f"threshold {format_threshold(t)}"


# --- drawing helpers ------------------------------------------------------------


def _style(i: int) -> dict[str, Any]:
    """Model ``i``'s look (after the models already on the caller's axes)."""
    return _look(i + _OVERLAY.get()[0])


def _look(i: int) -> dict[str, Any]:
    return {
        "marker": MARKERS[i % len(MARKERS)],
        "linestyle": STYLES[i % len(STYLES)],
        "color": COLOURS[i % len(COLOURS)],
    }


def _every(n: int) -> int | tuple[int, int]:
    """Markers at about a dozen places along a curve of ``n`` points."""
    return max(1, n // 12)


def _kept(x: Any, y: Any, active: int | None, rising: bool) -> npt.NDArray[np.intp]:
    """The points drawn: all up to EXACT_POINTS, else the explorer's reduction."""
    n = len(x)
    if n <= EXACT_POINTS:
        return np.arange(n)
    keep = () if active is None else (active,)
    return reduce_curve(x, y, columns=COLUMNS, keep=keep, rising=rising)


def _active(
    ax: Any, x: float, y: float, m: FigureModel, colour: str, several: bool, left: bool = False
) -> None:
    """The model's active point, ringed, with its threshold beside it (to its left
    where the point stands at the right edge)."""
    a = m.analysis
    (mark,) = ax.plot(
        [x],
        [y],
        marker="o",
        markersize=9,
        markerfacecolor="none",
        markeredgewidth=2,
        color=colour,
        linestyle="none",
        label=f"{_who(m, several)}active point ({_threshold_words(a)})",
        zorder=5,
    )
    mark.set_gid(f"active:{m.name}")
    ax.annotate(
        _threshold_words(a).replace("threshold ", "t = "),
        (x, y),
        xytext=(-9, -15) if left else (9, -15),
        textcoords="offset points",
        horizontalalignment="right" if left else "left",
        fontsize=8,
        color=colour,
        bbox={
            "boxstyle": "round,pad=0.15",
            "facecolor": "white",
            "edgecolor": "none",
            "alpha": 0.85,
        },
    )


def _bands(sure: IntervalsShown | None) -> Any:
    """The bootstrap's pointwise bands (ROC: TPR at each FPR; PR: precision at each
    recall), or None when no bootstrap with bands ran."""
    return None if sure is None or sure.boot is None else sure.boot.bands


def _band_fill(ax: Any, m: FigureModel, chart: str, colour: str, several: bool) -> None:
    """The model's bootstrap band around its ROC or PR curve, when the bootstrap ran."""
    bands = _bands(m.sure)
    if bands is None:
        return
    x, low, high = (
        (bands.fpr, bands.tpr_low, bands.tpr_high)
        if chart == "roc"
        else (bands.recall, bands.precision_low, bands.precision_high)
    )
    said = f"{_who(m, several)}{_confidence(m.sure):.0%} bootstrap band"
    fill = ax.fill_between(x, low, high, color=colour, alpha=0.18, linewidth=0, label=said)
    fill.set_gid(f"band:{chart}:{m.name}")


def _confidence(sure: IntervalsShown | None) -> float:
    return 0.95 if sure is None else sure.confidence


def _mean_sd(folds: FoldReport) -> str:
    """``0.8891 ± 0.0441 sd``, the sd left out with one fold defined, or undefined."""
    s = folds.auc
    if s.mean is None:
        return "undefined: no fold has both classes"
    return f"{s.mean:.4f}" + ("" if s.sd is None else f" ± {s.sd:.4f} sd")


def _unit_square(ax: Any) -> None:
    """Both axes from 0 to 1, with room for the marks on the edges."""
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.01)


def _finish(fig: Any, ax: Any, title: str, legend: str = "lower right", own: bool = True) -> None:
    ax.set_title(title, fontsize=10)
    ax.grid(True, color="#dddddd", linewidth=0.6)
    below = legend == "below" and own
    if below:  # curves that may fill every corner: the legend under the figure
        handles, labels = ax.get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=2, fontsize=7, framealpha=0.9)
    else:  # on a caller's axes, where its figure has no room kept: the emptiest corner
        ax.legend(loc="best" if legend == "below" else legend, fontsize=7, framealpha=0.9)
    missing = _fonts_for(fig)
    if missing:
        warnings.warn(GlyphsMissing(missing), stacklevel=2)
    if own:  # a caller's figure keeps the layout the caller gave it
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", message="Glyph .* missing from font")
            room = 0.0
            if below:
                fig.draw_without_rendering()
                box = fig.legends[0].get_window_extent()
                room = (box.height + 4) / fig.bbox.height
            fig.tight_layout(rect=(0, room, 1, 1))


class GlyphsMissing(UserWarning):
    """Characters of a figure's text (a title, a model's name) that no installed font
    has: said once, drawn as boxes."""

    def __init__(self, chars: str) -> None:
        super().__init__(
            f"no installed font has {', '.join(chars)}: the figure draws "
            f"{'it' if len(chars) == 1 else 'them'} as boxes (install a font that has "
            f"{'it' if len(chars) == 1 else 'them'}, such as Noto)"
        )
        self.chars = chars


def _fonts_for(fig: Any) -> str:
    """Give each text of ``fig`` fonts that have its characters (the default font
    first, then installed ones that have the rest: a title in Chinese is drawn in a
    font with Chinese); return the characters no installed font has."""
    from matplotlib import font_manager, ft2font
    from matplotlib.text import Text

    texts = [t for t in fig.findobj(Text) if t.get_text()]
    chars = {c for t in texts for c in t.get_text() if not c.isspace()}
    if all(c.isascii() for c in chars):
        return ""
    default = font_manager.findfont(font_manager.FontProperties())
    missing = {c for c in chars if ord(c) not in ft2font.FT2Font(default).get_charmap()}
    families: list[str] = []
    for entry in font_manager.fontManager.ttflist:
        if not missing:
            break
        if entry.name.startswith("Last Resort"):  # a box for every character: no glyphs
            continue
        try:
            charmap = ft2font.FT2Font(entry.fname).get_charmap()
        except (OSError, RuntimeError, ValueError):
            continue
        covered = {c for c in missing if ord(c) in charmap}
        if covered and entry.name not in families:
            families.append(entry.name)
            missing -= covered
    if families:
        first = font_manager.FontProperties().get_family()
        for t in texts:
            t.set_fontfamily([*first, *families])
    return "".join(sorted(missing))


def _rates(a: Analysis) -> tuple[FloatArray, FloatArray]:
    s = a.sweep
    return (
        np.asarray(s.fp, dtype=np.float64) / float(s.negatives),
        np.asarray(s.tp, dtype=np.float64) / float(s.positives),
    )


def _both_classes(models: Sequence[FigureModel], chart: str) -> None:
    for m in models:
        missing = missing_class(m.analysis.sweep, chart)
        if missing is not None:
            who = f" (model {m.name})" if m.name else ""
            raise InputError(
                f"--chart {chart}: the rows{who} have no actual {missing}, so the "
                "curve is undefined"
            )


# --- the charts -----------------------------------------------------------------


def _roc(fig: Any, ax: Any, models: Sequence[FigureModel], folds: FoldReport | None) -> str:
    _both_classes(models, "roc")
    several = len(models) > 1
    first = models[0].analysis.sweep
    ax.plot(
        [0, 1],
        [0, 1],
        color="#767676",
        linestyle=":",
        linewidth=1,
        label="chance (AUC 1/2)",
        gid="baseline",
    )
    if folds is not None:
        _fold_curves(ax, folds, "roc", _who(models[0], len(models) > 1))
    for i, m in enumerate(models):
        a = m.analysis
        x, y = _rates(a)
        keep = _kept(x, y, a.point, rising=True)
        st = _style(i)
        auc = a.curves.summaries.roc_auc
        pooled = "all rows pooled: " if folds is not None else ""
        (line,) = ax.plot(
            x[keep],
            y[keep],
            markevery=_every(keep.shape[0]),
            markersize=4,
            linewidth=1.6,
            label=f"{_who(m, several)}{pooled}AUC {_short(auc)} (trapezoid)",
            **st,
        )
        line.set_gid(f"roc:{m.name}")
        for j, smooth in enumerate(sm for sm in m.smoothed if isinstance(sm, Smoothed)):
            (drawn,) = ax.plot(
                smooth.fpr,
                smooth.tpr,
                color=st["color"],
                linestyle=SMOOTH_DASHES[j % len(SMOOTH_DASHES)],
                linewidth=1.1,
                label=f"{_who(m, several)}{smooth.label}: AUC ≈ {smooth.auc:.3f} (a model)",
            )
            drawn.set_gid(f"roc:{m.name}:{smooth.method}")
        _band_fill(ax, m, "roc", st["color"], several)
        _active(ax, float(x[a.point]), float(y[a.point]), m, st["color"], several)
    _unit_square(ax)
    ax.set_xlabel(f"FPR = FP / N\n(N = {_count(first.negatives)} actual negatives)")
    ax.set_ylabel(f"TPR = TP / P\n(P = {_count(first.positives)} actual positives)")
    return "ROC curve"


def _fold_curves(ax: Any, folds: FoldReport, chart: str, model: str = "") -> None:
    """Each fold's curve, thin, with its own marker; on ROC the folds' TPR range
    (``model``: whose folds, said when there are several models)."""
    for j, f in enumerate(folds.folds):
        s = f.sweep
        if not s.positives or not s.negatives:
            continue
        st = {
            "marker": FOLD_MARKERS[j % len(FOLD_MARKERS)],
            "color": "#5a5a5a",
            "linestyle": STYLES[(j + 1) % len(STYLES)],
        }
        if chart == "roc":
            x = np.asarray(s.fp, dtype=np.float64) / float(s.negatives)
            y = np.asarray(s.tp, dtype=np.float64) / float(s.positives)
            what = f"AUC {_short(f.auc)}"
            drawstyle = "default"
        else:
            start = first_defined(s)
            tp = np.asarray(s.tp, dtype=np.float64)[start:]
            fp = np.asarray(s.fp, dtype=np.float64)[start:]
            x, y = tp / float(s.positives), tp / (tp + fp)
            what = f"AP {_short(f.average_precision)}"
            drawstyle = "steps-pre"
        keep = _kept(x, y, None, rising=chart == "roc")
        (line,) = ax.plot(
            x[keep],
            y[keep],
            linewidth=0.8,
            markersize=3,
            alpha=0.8,
            markevery=_every(keep.shape[0]),
            drawstyle=drawstyle,
            label=f"{model}fold {f.name}: {what}",
            **st,
        )
        line.set_gid(f"fold:{chart}:{f.name}")
    if chart == "roc":
        x, low, mean, high = tpr_band([f.sweep for f in folds.folds])
        fill = ax.fill_between(
            x,
            low,
            high,
            facecolor="#d9d9d9",
            edgecolor="#8c8c8c",
            hatch="///",
            linewidth=0,
            label=f"folds' TPR range (lowest to highest of {len(folds.folds)})",
        )
        fill.set_gid("band:folds")
        (avg,) = ax.plot(
            x,
            mean,
            color="#000000",
            linewidth=1.2,
            linestyle=(0, (5, 2)),
            label=f"folds' mean TPR (vertical average; mean AUC {_mean_sd(folds)})",
        )
        avg.set_gid("mean:folds")


def _pr(fig: Any, ax: Any, models: Sequence[FigureModel], folds: FoldReport | None) -> str:
    several = len(models) > 1
    first = models[0].analysis.sweep
    if not first.positives:
        raise InputError("--chart pr: the rows have no actual positives, so recall is undefined")
    total = float(first.positives) + float(first.negatives)
    prevalence = float(first.positives) / total
    ax.axhline(
        prevalence,
        color="#767676",
        linestyle=":",
        linewidth=1,
        gid="baseline",
        label=f"prevalence {_count(first.positives)}/{_count(total)} ≈ {prevalence:.4f} "
        "(a random ranking's precision)",
    )
    if folds is not None:
        _fold_curves(ax, folds, "pr", _who(models[0], len(models) > 1))
    for i, m in enumerate(models):
        a = m.analysis
        s = a.sweep
        start = first_defined(s)
        tp = np.asarray(s.tp, dtype=np.float64)[start:]
        fp = np.asarray(s.fp, dtype=np.float64)[start:]
        recall, precision = tp / float(s.positives), tp / (tp + fp)
        keep = _kept(recall, precision, a.point - start if a.point >= start else None, False)
        st = _style(i)
        summ = a.curves.summaries
        pooled = "all rows pooled: " if folds is not None else ""
        (line,) = ax.plot(
            recall[keep],
            precision[keep],
            drawstyle="steps-pre",
            linewidth=1.6,
            markevery=_every(keep.shape[0]),
            markersize=4,
            label=f"{_who(m, several)}{pooled}AP "
            f"{_short(summ.average_precision)} (the "
            f"step's area); trapezoid area {_short(summ.pr_trapezoid_area)}",
            **st,
        )
        line.set_gid(f"pr:{m.name}")
        _band_fill(ax, m, "pr", st["color"], several)
        if a.point >= start:
            k = a.point - start
            _active(ax, float(recall[k]), float(precision[k]), m, st["color"], several)
    ax.set_xlim(-0.01, 1.01)
    ax.set_ylim(-0.01, 1.05)
    ax.set_xlabel(f"Recall = TP / P\n(P = {_count(first.positives)} actual positives)")
    ax.set_ylabel("Precision = TP / (TP + FP)\n(of the predicted positives)")
    return "Precision-recall curve"


def _det(fig: Any, ax: Any, models: Sequence[FigureModel], folds: FoldReport | None) -> str:
    _both_classes(models, "det")
    several = len(models) > 1
    first = models[0].analysis.sweep
    for i, m in enumerate(models):
        a = m.analysis
        s = a.sweep
        lo, stop = det_span(s)
        at = np.arange(lo, stop)
        at = at[placeable(s)[lo:stop]]
        fpr = np.asarray(s.fp[at], dtype=np.float64) / float(s.negatives)
        fnr = (float(s.positives) - np.asarray(s.tp[at], dtype=np.float64)) / float(s.positives)
        x, y = probit(fpr), probit(fnr)
        keep = (
            _kept(x, -y, None, rising=False) if x.shape[0] > EXACT_POINTS else np.arange(x.shape[0])
        )
        st = _style(i)
        out = (stop - lo) - at.shape[0]
        said = f"; {out:,} at a rate of 0 or 1 cannot be placed" if out else ""
        (line,) = ax.plot(
            x[keep],
            y[keep],
            linewidth=1.6,
            markersize=4,
            markevery=_every(keep.shape[0]),
            label=f"{_who(m, several)}DET curve ({at.shape[0]:,} points{said})",
            **st,
        )
        line.set_gid(f"det:{m.name}")
        p = a.point
        if placeable(s)[p]:
            px = probit(float(s.fp[p]) / float(s.negatives))
            py = probit((float(s.positives) - float(s.tp[p])) / float(s.positives))
            _active(ax, float(px[()]), float(py[()]), m, st["color"], several)
    ticks = np.array([0.001, 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99, 0.999])
    pos = probit(ticks)
    ax.set_xticks(pos, [f"{t:.1%}".replace(".0%", "%") for t in ticks], fontsize=7)
    ax.set_yticks(pos, [f"{t:.1%}".replace(".0%", "%") for t in ticks], fontsize=7)
    lim = (float(probit(0.0005)[()]), float(probit(0.9995)[()]))
    ax.set_xlim(*lim)
    ax.set_ylim(*lim)
    ax.plot(
        [lim[0], lim[1]],
        [lim[1], lim[0]],
        color="#767676",
        linestyle=":",
        linewidth=1,
        label="chance (FNR = 1 − FPR)",
        gid="baseline",
    )
    ax.set_xlabel(f"FPR = FP / N\n(N = {_count(first.negatives)}; normal deviate scale)")
    ax.set_ylabel(f"FNR = FN / P\n(P = {_count(first.positives)}; normal deviate scale)")
    return "DET curve"


def _decision(fig: Any, ax: Any, models: Sequence[FigureModel], folds: FoldReport | None) -> str:
    several = len(models) > 1
    lows, highs = [], []
    everyone_drawn = False
    for i, m in enumerate(models):
        dc = m.decision_curve
        if dc is None or dc.reason is not None or not dc.grid:
            why = "no decision curve" if dc is None else (dc.reason or "an empty grid")
            raise InputError(f"--chart decision: {why}")
        pt = np.array([float(r.pt) for r in dc.grid])
        nb = np.array(
            [np.nan if r.net_benefit.value is None else r.net_benefit.value for r in dc.grid]
        )
        st = _style(i)
        (line,) = ax.plot(
            pt,
            nb,
            linewidth=1.6,
            markersize=4,
            markevery=_every(pt.shape[0]),
            label=f"{_who(m, several)}model",
            **st,
        )
        line.set_gid(f"decision:{m.name}")
        lows.append(np.nanmin(nb))
        highs.append(np.nanmax(nb))
        if not everyone_drawn:
            alle = np.array(
                [np.nan if r.treat_all.value is None else r.treat_all.value for r in dc.grid]
            )
            (e,) = ax.plot(
                pt, alle, color="#767676", linestyle="--", linewidth=1, label="act on everyone"
            )
            e.set_gid("treat_all")
            highs.append(float(np.nanmax(alle)))
            everyone_drawn = True
        a = m.analysis
        t = a.threshold
        if t is not None and 0 < t < 1:
            ax.axvline(
                t,
                color=st["color"],
                linestyle=":",
                linewidth=1,
                gid=f"active:{m.name}",
                label=f"{_who(m, several)}{_threshold_words(a)}",
            )
    ax.axhline(0, color="#000000", linewidth=1, label="act on no one", gid="treat_none")
    top = max(highs) if highs else 1.0
    bottom = min(min(lows), -0.05 * top) if lows else -0.05
    ax.set_ylim(bottom - 0.05 * (top - bottom), top + 0.05 * (top - bottom))
    ax.set_xlim(0, 1)
    ax.set_xlabel("Threshold probability pt\n(acting when the score is at least pt)")
    ax.set_ylabel("Net benefit\n= TP/n − FP/n · pt/(1 − pt)")
    return "Decision curve"


def _reliability(fig: Any, ax: Any, models: Sequence[FigureModel], look: Look) -> str:
    several = len(models) > 1
    ax.plot(
        [0, 1],
        [0, 1],
        color="#767676",
        linestyle=":",
        linewidth=1,
        label="perfect calibration",
        gid="baseline",
    )
    for i, m in enumerate(models):
        cal = m.analysis.curves.calibration(look.bins, look.binning)
        if cal.reason is not None:
            raise InputError(f"--chart reliability: {cal.reason}")
        bins = [b for b in cal.bins if b.positive_rate.value is not None]
        x = np.array([b.mean_score for b in bins])
        y = np.array([b.positive_rate.value for b in bins], dtype=np.float64)
        low = np.array(
            [y[k] - (b.interval.low if b.interval else y[k]) for k, b in enumerate(bins)]
        )
        high = np.array(
            [(b.interval.high if b.interval else y[k]) - y[k] for k, b in enumerate(bins)]
        )
        st = _style(i)
        bars = ax.errorbar(
            x,
            y,
            yerr=[low, high],
            capsize=2,
            linewidth=1.4,
            markersize=5,
            label=f"{_who(m, several)}{len(bins)} bins ({look.binning}); ECE "
            f"{_short(cal.ece)} (Wilson intervals)",
            **st,
        )
        bars.lines[0].set_gid(f"reliability:{m.name}")
    _unit_square(ax)
    ax.set_xlabel("Mean score in the bin")
    ax.set_ylabel("Observed positive rate\n= positives / rows in the bin")
    return "Reliability diagram"


def _gains(fig: Any, ax: Any, models: Sequence[FigureModel], folds: FoldReport | None) -> str:
    several = len(models) > 1
    first = models[0].analysis.sweep
    if not first.positives:
        raise InputError("--chart gains: the rows have no actual positives")
    total = float(first.positives) + float(first.negatives)
    prevalence = float(first.positives) / total
    ax.plot(
        [0, 1],
        [0, 1],
        color="#767676",
        linestyle=":",
        linewidth=1,
        label="random order",
        gid="baseline",
    )
    ax.plot(
        [0, prevalence, 1],
        [0, 1, 1],
        color="#767676",
        linestyle="--",
        linewidth=1,
        label="perfect order",
        gid="perfect",
    )
    for i, m in enumerate(models):
        a = m.analysis
        s = a.sweep
        tp = np.asarray(s.tp, dtype=np.float64)
        fp = np.asarray(s.fp, dtype=np.float64)
        n = float(s.positives) + float(s.negatives)
        x, y = (tp + fp) / n, tp / float(s.positives)
        keep = _kept(x, y, a.point, rising=True)
        st = _style(i)
        (line,) = ax.plot(
            x[keep],
            y[keep],
            linewidth=1.6,
            markersize=4,
            markevery=_every(keep.shape[0]),
            label=f"{_who(m, several)}cumulative gains",
            **st,
        )
        line.set_gid(f"gains:{m.name}")
        _active(ax, float(x[a.point]), float(y[a.point]), m, st["color"], several)
    _unit_square(ax)
    ax.set_xlabel(f"Share predicted positive = (TP + FP) / n\n(n = {_count(total)})")
    ax.set_ylabel(f"Share of positives captured\n= TP / P (P = {_count(first.positives)})")
    return "Cumulative gains"


def _frontier_curve(bands: list[Any]) -> tuple[Any, Any, list[int]]:
    """The frontier in (coverage, risk): straight between two bands in (decided,
    errors), so each edge is a curve here (risk = errors / decided along the line),
    drawn through 32 points; and where the bands themselves are, for their markers."""
    xs: list[Any] = []
    ys: list[Any] = []
    marks: list[int] = []
    for k, b in enumerate(bands):
        d2, e2, total = float(b.decided), float(b.errors), float(b.total)
        if k:
            a = bands[k - 1]
            d1, e1 = float(a.decided), float(a.errors)
            d = np.linspace(d1, d2, 32)[1:]
            e = e1 + (e2 - e1) * (d - d1) / (d2 - d1)
            xs.append(d / total)
            ys.append(e / d)
        else:
            xs.append(np.array([d2 / total]))
            ys.append(np.array([e2 / d2]))
        marks.append(sum(x.shape[0] for x in xs) - 1)
    if not xs:
        return np.zeros(0), np.zeros(0), []
    return np.concatenate(xs), np.concatenate(ys), marks


def _risk_coverage(
    fig: Any, ax: Any, models: Sequence[FigureModel], folds: FoldReport | None
) -> str:
    """Each model's risk-coverage frontier (its bands, :mod:`.decide.risk_coverage`),
    each edge drawn as the curve it is here; the best band at every coverage as steps,
    dotted, where it was found; and the active threshold (one threshold: every row
    decided)."""
    _both_classes(models, "risk-coverage")
    several = len(models) > 1
    for i, m in enumerate(models):
        a = m.analysis
        s = a.sweep
        every = risk_coverage(s)
        bands = [b for b in every if float(b.decided) > 0]  # reviewing all has no risk
        x, y, marks = _frontier_curve(bands)
        st = _style(i)
        (line,) = ax.plot(
            x,
            y,
            linewidth=1.6,
            markersize=5,
            markevery=marks,
            label=f"{_who(m, several)}frontier, {len(every)} "
            f"{'band' if len(every) == 1 else 'bands'} (reviewing every row: no risk, not drawn)",
            **st,
        )
        line.set_gid(f"risk-coverage:{m.name}")
        steps = risk_coverage_steps(s)
        if steps.reason:
            ax.plot(
                [],
                [],
                " ",
                label=f"{_who(m, several)}best band at every coverage: too many pairs to try",
            )
        else:
            # The best band deciding at least each share: a step's risk holds back to
            # the step before (from 0 for the first).
            drawn = [b for b in steps.bands if float(b.decided) > 0]  # none decided: no risk
            sx = [0.0] + [float(b.decided) / float(b.total) for b in drawn]
            sy = [float(b.errors) / float(b.decided) for b in drawn]
            (stair,) = ax.plot(
                sx,
                [sy[0], *sy],
                drawstyle="steps-pre",
                linewidth=1.0,
                linestyle=":",
                color=st["color"],
                label=f"{_who(m, several)}best band at every coverage, {len(drawn)} "
                f"{'step' if len(drawn) == 1 else 'steps'}",
            )
            stair.set_gid(f"risk-coverage-steps:{m.name}")
        if m.band is not None:
            _band_mark(ax, m, st["color"], several)
        n = float(s.positives) + float(s.negatives)
        k = a.point
        errors = float(s.fp[k]) + float(s.positives) - float(s.tp[k])
        _active(ax, 1.0, errors / n, m, st["color"], several, left=True)
    ax.set_xlim(-0.02, 1.02)
    top = ax.get_ylim()[1]
    ax.set_ylim(bottom=-0.03 * top)  # markers at no risk drawn whole
    ax.grid(True, color="#DDDDDD", linewidth=0.6)
    ax.set_xlabel("Coverage = decided / n (accepted + rejected; the rest reviewed)")
    ax.set_ylabel("Selective risk = (FP + FN) / decided")
    return "Risk against coverage"


def _band_mark(ax: Any, m: FigureModel, colour: str, several: bool) -> None:
    """The band goal's band: a diamond at its coverage and risk, its goal and its rule
    in the legend (one reviewing every row has no risk: said, not drawn)."""
    b = m.band
    assert b is not None
    s = m.analysis.sweep
    goal = b.goal.text().removeprefix("band: ")
    said = textwrap.fill(
        f"{_who(m, several)}band: {rule_text(s, b.index_high, b.index_low)} ({goal})", 58
    )
    c = b.counts
    decided = float(c.accepted) + float(c.rejected)
    if decided <= 0:
        ax.plot([], [], " ", label=f"{said} (decides no row: not drawn)")
        return
    n = decided + float(c.reviewed)
    (mark,) = ax.plot(
        [decided / n],
        [(float(c.fp) + float(c.fn)) / decided],
        marker="D",
        markersize=8,
        markerfacecolor=colour,
        markeredgecolor="black",
        linestyle="none",
        label=said,
        zorder=6,
    )
    mark.set_gid(f"band:{m.name}")


def _cost(fig: Any, ax: Any, models: Sequence[FigureModel], folds: FoldReport | None) -> str:
    _both_classes(models, "cost")
    several = len(models) > 1
    for i, m in enumerate(models):
        a = m.analysis
        s = a.sweep
        cc = a.curves.cost_curve
        vertices = np.asarray(sorted(cc.points()), dtype=np.intp)
        # The envelope's corners (where the cheapest point changes) are on the grid,
        # and the markers are there: one a change of the cheapest point.
        corners = np.array(sorted({v.pc_low for v in cc.hull} | {v.pc_high for v in cc.hull}))
        pc = np.union1d(np.linspace(0.0, 1.0, 401), corners)
        envelope = normalised_costs(s, vertices, pc).min(axis=0)
        at = np.searchsorted(pc, corners).tolist()
        st = _style(i)
        (line,) = ax.plot(
            pc,
            envelope,
            linewidth=1.8,
            markersize=4,
            markevery=at,
            label=f"{_who(m, several)}lower envelope (ROC convex hull, "
            f"{len(vertices)} points; hull AUC {_short(cc.hull_auc)})",
            **st,
        )
        line.set_gid(f"cost:{m.name}")
        mine = normalised_costs(s, np.array([a.point]), pc)[0]
        (act,) = ax.plot(
            pc,
            mine,
            color=st["color"],
            linewidth=1,
            linestyle=":",
            label=f"{_who(m, several)}the active point's line ({_threshold_words(a)})",
        )
        act.set_gid(f"active:{m.name}")
    ax.plot(
        [0, 1],
        [0, 1],
        color="#767676",
        linewidth=0.8,
        linestyle="--",
        label="always negative / always positive",
        gid="baseline",
    )
    ax.plot([0, 1], [1, 0], color="#767676", linewidth=0.8, linestyle="--", gid="baseline2")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_xlabel("Probability cost PC(+)\n= p·C(FN) / (p·C(FN) + (1 − p)·C(FP))")
    ax.set_ylabel("Normalised expected cost\n= FNR·PC(+) + FPR·(1 − PC(+))")
    return "Cost curves"


def _metrics(fig: Any, ax: Any, models: Sequence[FigureModel], folds: FoldReport | None) -> str:
    several = len(models) > 1
    names = (
        ("precision", "precision = TP / (TP + FP)"),
        ("recall", "recall = TP / P"),
        ("f1", "F1 = 2TP / (2TP + FP + FN)"),
    )
    for i, m in enumerate(models):
        a = m.analysis
        s = a.sweep
        if s.size < 2:
            raise InputError("--chart metrics: no scores to draw the metrics over")
        tp = np.asarray(s.tp, dtype=np.float64)[1:]
        fp = np.asarray(s.fp, dtype=np.float64)[1:]
        P = float(s.positives)
        with np.errstate(divide="ignore", invalid="ignore"):
            series = {
                "precision": np.where(tp + fp > 0, tp / (tp + fp), np.nan),
                "recall": tp / P if P else np.full(tp.shape, np.nan),
                "f1": np.where(
                    2 * tp + fp + (P - tp) > 0, 2 * tp / (2 * tp + fp + (P - tp)), np.nan
                ),
            }
        t = s.thresholds
        keep = _kept(t[::-1], series["recall"][::-1], None, False)
        order = np.arange(t.shape[0])[::-1][keep]
        for j, (key, words) in enumerate(names):
            st = _look(j + 3 * (i + _OVERLAY.get()[0]))
            (line,) = ax.plot(
                t[order],
                series[key][order],
                drawstyle="steps-pre",
                linewidth=1.5,
                markersize=4,
                markevery=_every(order.shape[0]),
                label=f"{_who(m, several)}{words}",
                **st,
            )
            line.set_gid(f"metrics:{key}:{m.name}")
        if a.threshold is not None:
            ax.axvline(
                a.threshold,
                color="#000000",
                linestyle=":",
                linewidth=1,
                gid=f"active:{m.name}",
                label=f"{_who(m, several)}{_threshold_words(a)}",
            )
    ax.set_ylim(-0.01, 1.05)
    ax.set_xlabel("Threshold\n(predicted positive when score >= threshold)")
    ax.set_ylabel("Metric at the threshold")
    return "Metrics by threshold"


def draw(
    chart: str,
    models: Sequence[FigureModel],
    *,
    source: str = "",
    folds: FoldReport | None = None,
    look: Look = Look(),
    ax: Any = None,
) -> Any:
    """The matplotlib Figure of ``chart`` (raises MissingDependency without matplotlib,
    InputError when the chart is undefined for these rows, saying why); with ``ax``,
    drawn on those axes instead, and the axes returned: each call on the same axes adds
    its models with the next styles, each legend entry under its model's name, one
    baseline where they share it, and the axis labels without counts the models do not
    share."""
    chart = parse_chart(chart)
    own = ax is None
    if own:
        fig = _matplotlib()(figsize=look.size, dpi=look.dpi)
        ax = fig.add_subplot()
    else:
        _matplotlib()  # says how to install matplotlib, as a figure of its own does
        fig = ax.figure
    drawn = getattr(ax, "_threshold_lab_models", 0)
    before = list(ax.get_lines())
    labels = (ax.get_xlabel(), ax.get_ylabel())
    token = _OVERLAY.set((drawn, not own))
    try:
        if chart == "reliability":
            name = _reliability(fig, ax, models, look)
        else:
            name = {
                "roc": _roc,
                "pr": _pr,
                "det": _det,
                "decision": _decision,
                "gains": _gains,
                "cost": _cost,
                "metrics": _metrics,
                "risk-coverage": _risk_coverage,
            }[chart](fig, ax, models, folds)
    finally:
        _OVERLAY.reset(token)
    title = look.title if look.title is not None else (f"{name} of {source}" if source else name)
    if not own:
        ax._threshold_lab_models = drawn + len(models)
        for line in ax.get_lines()[len(before) :]:  # a line already drawn is not drawn twice
            if any(_same(line, x) for x in before):
                line.remove()
        for old, new, setter in (
            (labels[0], ax.get_xlabel(), ax.set_xlabel),
            (labels[1], ax.get_ylabel(), ax.set_ylabel),
        ):
            if old and old != new:  # counts of another report: the quantity alone
                setter(new.split("\n")[0])
        if drawn and look.title is None and ax.get_title() not in ("", title):
            title = name  # several reports: the chart, not one report's name
    legend = {
        "pr": "lower left",
        "decision": "below",
        "det": "upper right",
        "metrics": "best",
        "reliability": "upper left",
        "cost": "upper right",
        "risk-coverage": "best",
    }.get(chart, "lower right")
    _finish(fig, ax, title, legend, own)
    return fig if own else ax


def _same(one: Any, two: Any) -> bool:
    """Two lines of the same label through the same points (a baseline two reports
    share)."""
    if one.get_label().startswith("_"):  # unlabelled: only a baseline is shared
        if not str(one.get_gid()).startswith("baseline") or one.get_gid() != two.get_gid():
            return False
    elif one.get_label() != two.get_label():
        return False
    x1, y1 = (np.asarray(v, dtype=np.float64) for v in one.get_data())
    x2, y2 = (np.asarray(v, dtype=np.float64) for v in two.get_data())
    return x1.shape == x2.shape and bool(np.array_equal(x1, x2) and np.array_equal(y1, y2))


def save(fig: Any, path: str | PathLike[str] | Output, inputs: Sequence[str | Path] = ()) -> Path:
    """Write ``fig`` to ``path`` (its format from the suffix), whole or not at all."""
    out = path if isinstance(path, Output) else check_output(path, inputs)
    from matplotlib import rc_context

    with writing(out) as tmp:
        try:
            # A fixed salt for the SVG's ids: the same figure is the same bytes.
            with rc_context({"svg.hashsalt": "threshold-lab"}), warnings.catch_warnings():
                warnings.filterwarnings("ignore", message="Glyph .* missing from font")
                fig.savefig(tmp, format=out.path.suffix[1:].lower(), metadata=_metadata(out.path))
        except OSError as exc:
            raise refused(out, exc) from None
    return out.path


def _metadata(p: Path) -> dict[str, Any]:
    """No dates in the file: the same figure is the same bytes (PNG, SVG and PDF)."""
    suffix = p.suffix.lower()
    if suffix == ".png":
        return {"Software": None}
    if suffix == ".svg":
        return {"Date": None, "Creator": None}
    return {"CreationDate": None, "Creator": None, "Producer": None}
