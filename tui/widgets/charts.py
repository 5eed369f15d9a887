"""ROC and precision-recall charts of the exact sweep (plotext via textual-plotext).

Each follows textual-plotext's pattern: ``replot()`` clears, plots and refreshes,
called when the frame changes. The points come prepared from core
(:mod:`threshold_lab.core.drawing.prepared`), from the exact sweep, never a grid; the charts
only draw them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any, ClassVar, Literal, get_args

import numpy as np
import numpy.typing as npt
from rich.style import Style
from rich.text import Span, Text
from textual.app import ComposeResult, RenderResult
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.message import Message
from textual.reactive import reactive
from textual_plotext import PlotextPlot
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.decide.net_benefit import net_benefit_key
from threshold_lab.core.drawing.bands import Band, DrawnBands
from threshold_lab.core.drawing.lines import CurveLine
from threshold_lab.core.drawing.prepared import OtherCurves, Prepared
from threshold_lab.core.drawing.scaled import LOG_GAP, ScaledLine, cell_of
from threshold_lab.core.drawing.series import ScoreAxis, score_axis
from threshold_lab.core.intervals.closed import percent
from threshold_lab.core.measures import Measure
from threshold_lab.core.metrics.metric import format_count, lower_first
from threshold_lab.core.text.calibration import brier_terms
from threshold_lab.core.text.decision import useful_spans
from threshold_lab.core.text.operating import partial_auc_short
from threshold_lab.core.text.scores import threshold_words
from threshold_lab.core.threshold import format_threshold
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.state.layout import chart_columns
from threshold_lab.tui.widgets.text import ItemLines, TextLines, tail_name

#: What the chart panel can show, in the order ``c`` cycles through them.
ChartMode = Literal[
    "roc", "pr", "both", "metrics", "reliability", "gains", "det", "decision", "cost"
]
CHART_MODES: tuple[ChartMode, ...] = get_args(ChartMode)

#: The marks, told apart by shape (not colour alone): the baseline is dashes ``-``,
#: the sweep a braille line (``*`` in ASCII), the active point ``O``, a bootstrap's
#: band's edges dots ``·`` (``.`` in ASCII).
CHANCE_MARK, ACTIVE_MARK = "-", "O"
#: The edges of each partial AUC's range on the ROC chart (--partial-auc).
PARTIAL_MARK = ":"
#: The ROC curve's convex hull (h).
HULL_MARK = "="
BAND_MARK, BAND_MARK_ASCII = "\u00b7", "."
#: Each model's curve mark, by its place among the models (it keeps its mark whichever
#: model is shown): the first a braille line (``*`` in ASCII), then ASCII shapes that
#: are neither an axis's (``+ - |`` in ASCII), the score strip's (``+ o``) nor a letter
#: (the axis name reads ``x: FPR``).
MODEL_MARKS = ("#", "%", "&", "@", "$", "~")
#: How much of a model's name a legend gives.
LEGEND_NAME = 12
#: The charts that draw every model's curve, not the shown one's alone.
OVERLAID = ("roc", "pr", "det")
#: Where a tick's value would be: the axis values labelled on every chart.
TICKS = (0.0, 0.25, 0.5, 0.75, 1.0)


#: The cell plotext gives a value in [0, 1] (core's rule, which the ticks use too).
_cell = cell_of


def plot_cells(available: int) -> int:
    """How many cells of ``available`` the plot uses along one axis: one more than a
    multiple of four (so 0, 0.25, 0.5, 0.75 and 1 each fall exactly on a cell, and a
    tick's row is its value's row) when that loses at most a sixth of them; else an odd
    number, so 0, 0.5 and 1 do. A tick between two cells put a value of 0.8 on the
    0.75 tick's row (#28 item 13); the rows given up go above the plot."""
    quarters = available - (available - 1) % 4
    if available >= 9 and available - quarters <= max(1, available // 6):
        return quarters
    return available - (available - 1) % 2 if available >= 3 else max(available, 1)


def unit_ticks(cells: int, least_apart: int) -> tuple[float, ...]:
    """The tick values on an axis of ``cells`` cells over 0..1: quarters, halves or
    the ends, the finest whose every value falls exactly on a cell with at least
    ``least_apart`` cells between neighbours."""
    for ticks in (TICKS, (0.0, 0.5, 1.0)):
        parts = len(ticks) - 1
        if (cells - 1) % parts == 0 and (cells - 1) // parts >= least_apart:
            return ticks
    return (0.0, 1.0)


def plain_canvas(plt: Any, cols: int, rows: int) -> list[str]:
    """What plotext drew on a ``cols`` x ``rows`` canvas: ``rows`` lines of ``cols``
    characters, the top row first. Read from plotext's grid of marks rather than from
    ``build()``, which wraps every cell in colour codes (none here: theme "clear") that
    a parse then strips again, half of a chart's drawing time. The same characters as
    ``build()``'s text (a test holds it to that)."""
    plt._set_sizes()
    plt._build_matrix()
    assert not plt.monitor.fast_plot  # plotext's fast plots keep no grid (never drawn here)
    grid = plt.monitor.matrix.marker
    lines = ["".join(row) for row in reversed(grid)][:rows]
    return [(line + " " * cols)[:cols] for line in lines + [""] * (rows - len(lines))]


def _drawable(prepared: Prepared | None, kind: str) -> bool:
    """Whether a chart of ``kind`` belongs on screen: its curve exists, or it is still
    being prepared (the chart says so); False when core found no curve to draw."""
    if prepared is None or kind not in prepared.kinds:
        return True
    if kind == "reliability":
        return prepared.curves.calibration().reason is None
    return prepared.line(kind) is not None


def chart_mode(mode: str) -> ChartMode:
    """``mode`` when it is a chart the panel can show (a programmer's error otherwise)."""
    if mode not in CHART_MODES:
        raise ValueError(f"no chart mode {mode!r}; the modes are {', '.join(CHART_MODES)}")
    return mode


def _same(a: tuple[object, ...], b: tuple[object, ...]) -> bool:
    """Equal keys: the same values, and the very same objects where they are objects
    (a band's arrays are not compared element by element)."""
    if len(a) != len(b):
        return False
    plain = str | int | float | bool
    return all(x is y or (isinstance(x, plain) and x == y) for x, y in zip(a, b, strict=True))


def _beside(band: Band, xs: npt.NDArray[np.float64], ys: npt.NDArray[np.float64]) -> Band:
    """``band`` with each side only where it leaves the curve (NaN where the side is
    the curve's own value, a band of no width there): what may be moved clear of it."""
    order = np.argsort(xs, kind="stable")
    curve = np.interp(band.x, xs[order], ys[order])
    tol = 1e-9
    high = np.where(band.high > curve + tol, band.high, np.nan)
    low = np.where(band.low < curve - tol, band.low, np.nan)
    return Band(band.x, low, high)


def _is_curve(ch: str, ascii: bool) -> bool:
    """Whether a canvas cell holds the shown curve's mark (braille, or ``*``)."""
    return ch == "*" if ascii else _is_braille(ch)


def model_mark(index: int, ascii: bool) -> str:
    """The mark model ``index``'s curve is drawn with: ``braille``, or one character."""
    if index == 0:
        return "*" if ascii else "braille"
    return MODEL_MARKS[(index - 1) % len(MODEL_MARKS)]


def legend_name(name: str) -> str:
    """A model's name as a legend gives it (see :func:`tail_name`)."""
    return tail_name(name, LEGEND_NAME)


def _is_braille(ch: str) -> bool:
    return "\u2800" <= ch <= "\u28ff"


def _tick_text(value: float) -> str:
    return f"{value:.2f}"


class CurveChart(PlotextPlot):
    """One curve: ``kind`` is ``"roc"`` or ``"pr"``.

    plotext draws the curves on a bare canvas (no axes of its own); the axes,
    the ticks and the axis names are laid around it here, at the cells the
    values fall on, so a tick's label and a point of that value share a row.
    """

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "curve-chart--axis",
        "curve-chart--sweep",
        "curve-chart--chance",
        "curve-chart--active",
        "curve-chart--band",
        "curve-chart--other",
    }
    """
    | Class | Description |
    | :- | :- |
    | `curve-chart--axis` | The axes, their ticks and names. |
    | `curve-chart--sweep` | The shown model's curve (the exact sweep). |
    | `curve-chart--other` | Every other model's curve. |
    | `curve-chart--chance` | The baseline: chance on ROC, the prevalence on PR (dashes). |
    | `curve-chart--band` | The bootstrap's band around a curve (dots). |
    | `curve-chart--active` | The active operating point `O` (and the threshold's line). |
    """

    DEFAULT_CSS = """
    CurveChart > .curve-chart--axis { color: $text; }
    CurveChart > .curve-chart--sweep { color: $text-accent; }
    CurveChart > .curve-chart--other { color: $text; }
    CurveChart > .curve-chart--chance { color: $text-muted; }
    CurveChart > .curve-chart--band { color: $text-muted; }
    CurveChart > .curve-chart--active { color: $text; text-style: bold reverse; }
    """

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the chart panel)."""
    ascii: reactive[bool] = reactive(False)
    """Draw the curve with ``*`` rather than braille."""
    log_fpr: reactive[bool] = reactive(False)
    """ROC only: FPR on a log scale (decades), for the low-FPR corner."""
    roc_hull: reactive[bool] = reactive(False)
    """ROC only (linear FPR): draw the curve's convex hull."""

    def __init__(self, kind: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.kind = kind
        self._base: (
            tuple[object, tuple[object, ...], list[Text], tuple[int, int, int, int]] | None
        ) = None
        self._xlabels: dict[float, str] = {}

    def watch_frame(self) -> None:
        if self.display:  # a hidden chart is drawn when it is shown again
            self.replot()

    def watch_log_fpr(self) -> None:
        self._base = None
        if self.display:
            self.replot()

    def watch_roc_hull(self) -> None:
        self._base = None
        if self.display:
            self.replot()

    @property
    def draws_hull(self) -> bool:
        """Whether this chart draws the ROC convex hull (ROC, linear FPR, asked for)."""
        return self.kind == "roc" and self.roc_hull and not self.log_fpr

    @property
    def line_kind(self) -> str:
        """Which of the prepared curves this chart draws (``log_roc`` for ROC on a log
        FPR axis)."""
        return "log_roc" if self.kind == "roc" and self.log_fpr else self.kind

    def _line(self, prepared: Prepared) -> CurveLine | None:
        return prepared.line(self.line_kind)

    def _scaled(self) -> ScaledLine | None:
        """The shown curve when its axes are scaled (DET, log FPR), else None."""
        prepared = None if self.frame is None else self.frame.ready
        line = None if prepared is None else prepared.line(self.line_kind)
        return line if isinstance(line, ScaledLine) else None

    def _other_line(self, other: OtherCurves) -> CurveLine | None:
        return other.line(self.line_kind)

    @property
    def legend(self) -> str:
        """What each mark means, by shape."""
        return self.legend_to_fit(1000)

    def legend_to_fit(self, width: int) -> str:
        """The legend in its longest wording of at most ``width`` cells."""
        baseline = "chance" if self.kind in ("roc", "det") else "prevalence"
        sweep = "*" if self.ascii else "\u2812\u2812"
        c, o = CHANCE_MARK, ACTIVE_MARK
        band = self._bands()
        b = BAND_MARK_ASCII if self.ascii else BAND_MARK
        pct = "" if band is None else percent(band.confidence)
        models = self._models()
        if models:
            folds = band is None and self._fold_band() is not None
            return self._models_legend(
                width, models, band is not None or folds, pct, "folds' range" if folds else None
            )
        if self.draws_hull:
            h = HULL_MARK
            hulled = (
                f"{c} {baseline} · {sweep} exact sweep · {h} convex hull · {o} active point",
                f"{c} baseline · {sweep} sweep · {h} hull · {o} active",
                f"{c} base {sweep} sweep {h} hull {o} active",
            )
            return next((w for w in hulled if len(w) <= width), hulled[-1])
        wordings: tuple[str, ...] = (
            f"{c} {baseline} · {sweep} exact sweep · {o} active point",
            f"{c} baseline · {sweep} sweep · {o} active point",
            f"{c} baseline {sweep} sweep {o} active",
            f"{c} base {sweep} sweep {o} active",
        )
        if band is not None:
            # The band's mark is a dot, so its wordings part items by two spaces.
            wordings = (
                f"{c} {baseline}  {sweep} exact sweep  {b}{b} {pct} band  {o} active point",
                f"{c} baseline  {sweep} sweep  {b}{b} {pct} band  {o} active",
                f"{c} base  {sweep} sweep  {b}{b} band  {o} active",
                f"{c} base {sweep} sweep {b}{b} band {o} active",
                f"{sweep} sweep {b}{b} band {o} active",
                f"{b}{b} band {o} active",
            )
        return next((w for w in wordings if len(w) <= width), wordings[-1])

    def _models(self) -> list[tuple[str, str, bool]]:
        """Every model drawn, in model order: (its mark as the legend shows it, its
        name, whether it is the one shown); empty with one model."""
        frame = self.frame
        prepared = None if frame is None else frame.ready
        rows = () if frame is None else frame.update.models
        if prepared is None or not prepared.others or not rows or self.kind not in OVERLAID:
            return []
        out = []
        for i, row in enumerate(rows):
            mark = model_mark(i, self.ascii)
            shown = "\u2812\u2812" if mark == "braille" else mark * 2
            out.append((shown, legend_name(row.name), row.shown))
        return out

    def _models_legend(
        self,
        width: int,
        models: list[tuple[str, str, bool]],
        band: bool,
        pct: str,
        band_words: str | None = None,
    ) -> str:
        """The legend with one entry a model (the shown one said so, or starred where
        room is short), then the baseline, the band and the active point as room
        allows: the models and the baseline go last."""
        c, o = CHANCE_MARK, ACTIVE_MARK
        b = BAND_MARK_ASCII if self.ascii else BAND_MARK
        long = [f"{m} {n}{' (shown)' if shown else ''}" for m, n, shown in models]
        short = [f"{m} {n}{'*' if shown else ''}" for m, n, shown in models]
        baseline = "chance" if self.kind in ("roc", "det") else "prevalence"
        sep = "  " if band else " · "
        banded = [f"{b}{b} {band_words or pct + ' band'}"] if band else []
        short_band = [f"{b}{b} {'folds' if band_words else 'band'}"] if band else []
        wordings: tuple[str, ...] = (
            sep.join([*long, f"{c} {baseline}", *banded, f"{o} active point"]),
            sep.join([*long, f"{c} {baseline}", *banded, f"{o} active"]),
            "  ".join([*short, f"{c} {baseline}", *short_band, f"{o} active"]),
            "  ".join([*short, f"{c} base", f"{o} active"]),
            " ".join([*short, f"{c} base", f"{o} active"]),
            " ".join([*short, f"{c} base"]),
            " ".join(short),
        )
        if band_words is not None:  # the folds' range: kept before the baseline
            fb = f"{b}{b} {band_words}"
            wordings = (
                sep.join([*long, f"{c} {baseline}", fb, f"{o} active point"]),
                "  ".join([*short, fb, f"{c} base", f"{o} active"]),
                " ".join([*short, f"{b}{b} folds", f"{c} base", f"{o} active"]),
                " ".join([*short, f"{b}{b} folds"]),
                " ".join(short),
            )
        if self.frame is not None and self.frame.own is not None:  # no one point is active
            mark = [f"{o} pooled"] if self.kind in ("roc", "pr") and not self.log_fpr else []
            wordings = (
                sep.join([*long, f"{c} {baseline}", *banded, *mark]),
                "  ".join([*short, f"{c} base", *short_band, *mark]),
                " ".join([*short, *mark]),
                " ".join(short),
            )
        return next((w for w in wordings if len(w) <= width), wordings[-1])

    def _pooled_point(self, a: Analysis) -> tuple[float, float] | None:
        """The groups' pooled operating point (each group at its own threshold; its
        rates as core reads them off the pooled counts) on a ROC or PR chart with linear
        axes, or None where a rate is undefined."""
        m = a.metrics
        x, y = {"roc": ("fpr", "recall"), "pr": ("recall", "precision")}.get(self.kind, ("", ""))
        if not x or (self.kind == "roc" and self.log_fpr):
            return None
        vx, vy = m[x].value, m[y].value
        return None if vx is None or vy is None else (float(vx), float(vy))

    def _bands(self) -> DrawnBands | None:
        """The bootstrap's bands and their confidence, when there are any to draw
        (around ROC and PR curves only)."""
        if self.frame is None or self.kind not in ("roc", "pr"):
            return None
        return self.frame.update.bands

    def _fold_band(self) -> Band | None:
        """With folds, on the ROC chart with linear axes and no bootstrap band: the
        folds' TPR range at each FPR."""
        frame = self.frame
        if frame is None or self.kind != "roc" or self.log_fpr or frame.own is not None:
            return None
        return frame.update.fold_band

    def _band(self) -> Band | None:
        """The band around this chart's curve, placed on its axes (FPR on the log
        scale when it is on); with folds and no bootstrap, the folds' range."""
        bands = self._bands()
        if bands is None:
            return self._fold_band()
        b = bands.of(self.kind)
        scaled = self._scaled()
        if scaled is None:
            return b
        return Band(scaled.xscale.unit(b.x), b.low, b.high)

    def replot(self) -> None:
        """Follow the frame: the title and legend, and the chart is drawn again."""
        if self.frame is None:
            return
        # The numbers are in the panel's summary line, which wraps between them:
        # a border title is cut at the border's width (#12 item 8).
        self.border_title = self._title()
        self.border_subtitle = self.legend_to_fit(self.size.width - 4)
        self.refresh()

    def _title(self) -> str:
        """The chart's name, with how many models it draws, in the longest wording that
        fits the border."""
        name = {"roc": "ROC curve", "det": "DET curve"}.get(self.kind, "Precision-recall curve")
        log = ", FPR on a log scale" if self.kind == "roc" and self.log_fpr else ""
        models = self._models()
        if not models:
            return name + log
        short = {"roc": "ROC", "det": "DET"}.get(self.kind, "PR")
        grouped = self.frame is not None and self.frame.update.group_by is not None
        what = f"{len(models)} {'groups' if grouped else 'models'}"
        if self.frame is not None and self.frame.update.pooled:
            parts = "folds" if self.frame.update.folds else "groups"
            what = f"all rows and {len(models) - 1} {parts}"
        wordings = (
            f"{name}s of {what}{log}",
            f"{short} curves of {what}{log}",
            f"{short} curves of {what}",
            f"{short}, {what}",
        )
        return next((w for w in wordings if len(w) <= self.size.width - 6), wordings[-1])

    def watch_ascii(self) -> None:
        self._base = None

    def on_resize(self) -> None:
        # The drawing is kept: its key holds the size and the border it was drawn for,
        # so a chart shown again (whose first frame was drawn before its resize
        # arrived) is not drawn twice at the same size.
        self.border_title = self._title()
        self.border_subtitle = self.legend_to_fit(self.size.width - 4)

    def render(self) -> RenderResult:
        """The curve, built once per prepared curve and size, with the active point
        laid over it as ``O`` at the cell its exact (x, y) falls in.

        plotext redraws every point in Python; doing that on every key press
        was most of the time a threshold move took, so only the marker moves.
        """
        frame = self.frame
        width, height = self.content_region.width, self.content_region.height
        if frame is None or width < 12 or height < 6:
            return Text("")
        prepared = frame.ready
        if prepared is None or self.line_kind not in prepared.kinds:
            return Text(f"Drawing the {self.kind.upper()} curve of these rows…", style="dim")
        line = self._line(prepared)
        band = self._bands()
        others = prepared.others
        key = (
            self.line_kind,
            *self._look(width, height),
            band and band.source,
            others,
            frame.update.asked.partial_aucs,
            self.draws_hull,
            self._fold_band(),
        )
        if self._base is None or self._base[0] is not line or not _same(self._base[1], key):
            lines, place = self._build(frame, line, width, height)
            self._base = (line, key, lines, place)
        lines, (left, top, cols, rows) = list(self._base[2]), self._base[3]
        # Each group at its own threshold: no one point of these curves is active; the
        # groups' pooled counts are a point of their own (O), off the pooled curve.
        if frame.own is not None:
            drawn = None if line is None else self._pooled_point(frame.own)
        else:
            drawn = None if line is None else line.at(frame.analysis.point)
        if drawn is not None:
            x, y = drawn
            col, row = left + _cell(x, cols), top + rows - 1 - _cell(y, rows)
            marked = lines[row][:col]
            marked.append(ACTIVE_MARK, style=self.get_component_rich_style("curve-chart--active"))
            marked.append_text(lines[row][col + 1 :])
            lines[row] = marked
        return Text("\n").join(lines)

    #: Marks drawn in the baseline's fainter colour.
    faint_marks: frozenset[str] = frozenset({CHANCE_MARK, PARTIAL_MARK, HULL_MARK})

    def _axes(self) -> tuple[str, str]:
        if self.kind == "det":
            return ("FPR (probit scale)", "FNR")
        if self.kind == "roc":
            return ("FPR (log scale)" if self.log_fpr else "FPR", "TPR")
        return ("recall", "precision")

    def _xtick(self, v: float) -> str:
        """The x axis's label at ``v`` of the unit square."""
        return self._xlabels.get(v, _tick_text(v))

    def _x_axis(self, frame: Frame, available: int) -> tuple[int, tuple[float, ...]]:
        """The columns the plot takes of ``available``, and where on 0..1 its x ticks
        are (each on a column; labels of four characters, a space apart at least; a
        scaled axis's own ticks, kept as far apart as their labels need)."""
        cols = plot_cells(available)
        scaled = self._scaled()
        if scaled is None:
            self._xlabels = {}
            return cols, unit_ticks(cols, 5)
        ticks = scaled.xscale.ticks(cols, 1, across=True)
        self._xlabels = dict(ticks)
        return cols, tuple(u for u, _ in ticks)

    def _y_ticks(self, rows: int) -> tuple[tuple[float, str], ...]:
        """The y axis's ticks, (place on 0..1, label), on an axis of ``rows`` rows."""
        scaled = self._scaled()
        if scaled is not None and scaled.yscale.kind != "linear":
            return scaled.yscale.ticks(rows, 2)
        return tuple((v, _tick_text(v)) for v in unit_ticks(rows, 2))

    def _mark_style(self, ch: str) -> Style | None:
        """A mark with a colour of its own (the metric chart's series), else None."""
        return None

    def _bare(self, cols: int, rows: int) -> Any:
        """plotext, cleared for a bare ``cols`` x ``rows`` canvas of the unit square:
        no axes, ticks or frame of its own (the chart lays its own around it)."""
        plt = self.plt
        plt.clear_figure()
        plt.plotsize(cols, rows)
        plt._set_size(cols, rows)  # as textual-plotext does (its issue 5)
        plt.xlim(0, 1)
        plt.ylim(0, 1)
        plt.xticks([])
        plt.yticks([])
        plt.xaxes(False, False)
        plt.yaxes(False, False)
        plt.frame(False)
        plt.theme("clear")
        return plt

    def _canvas(self, frame: Frame, line: CurveLine | None, cols: int, rows: int) -> list[str]:
        """plotext's drawing of the baseline and the curve on a bare ``cols`` x ``rows``
        canvas whose corners are (0, 0) and (1, 1), as plain text."""
        plt = self._bare(cols, rows)
        band = self._band()
        if band is not None and line is not None:
            b = band
            mark = BAND_MARK_ASCII if self.ascii else BAND_MARK
            plt.plot(b.x.tolist(), b.low.tolist(), marker=mark)
            plt.plot(b.x.tolist(), b.high.tolist(), marker=mark)
        scaled = self._scaled()
        if self.kind == "roc":  # each partial AUC's range, its two edges
            place = (lambda v: float(scaled.xscale.unit(v))) if scaled else (lambda v: v)
            for focus, low, high in frame.update.asked.partial_aucs:
                for v in (low, high):
                    if focus == "fpr":
                        plt.plot([place(v)] * 2, [0.0, 1.0], marker=PARTIAL_MARK)
                    else:
                        plt.plot([0.0, 1.0], [v, v], marker=PARTIAL_MARK)
        if self.kind == "det":  # FNR = 1 − FPR: on probit axes, z(FNR) = −z(FPR)
            plt.plot([0, 1], [1, 0], marker=CHANCE_MARK)
        elif scaled is not None:  # TPR = FPR, along the log axis
            at = scaled.xscale.rate(np.linspace(LOG_GAP, 1.0, 2 * cols))
            plt.plot(
                [0.0, *scaled.xscale.unit(at).tolist()], [0.0, *at.tolist()], marker=CHANCE_MARK
            )
        elif self.kind == "roc":
            plt.plot([0, 1], [0, 1], marker=CHANCE_MARK)
            if self.draws_hull:
                hull = frame.analysis.curves.cost_curve.hull
                plt.plot([v.fpr for v in hull], [v.tpr for v in hull], marker=HULL_MARK)
        else:
            prevalence = frame.analysis.metrics["prevalence"].value or 0.0
            plt.plot([0, 1], [prevalence, prevalence], marker=CHANCE_MARK)
        prepared = frame.ready
        for other in () if prepared is None else prepared.others:
            curve = self._other_line(other)
            if curve is not None:
                xs, ys = curve.x[curve.drawn].tolist(), curve.y[curve.drawn].tolist()
                plt.plot(xs, ys, marker=model_mark(other.index, self.ascii))
        if line is not None:  # the shown model's last, over the others
            xs, ys = line.x[line.drawn].tolist(), line.y[line.drawn].tolist()
            plt.plot(xs, ys, marker=self._shown_mark(frame))
        drawn = plain_canvas(plt, cols, rows)
        if band is not None and line is not None:
            b = band
            beside = _beside(b, line.x[line.drawn], line.y[line.drawn])
            drawn = self._band_clear_of_the_curve(drawn, b, cols, rows, beside)
        return drawn

    def _band_clear_of_the_curve(
        self, drawn: list[str], band: Band, cols: int, rows: int, beside: Band | None = None
    ) -> list[str]:
        """A band narrower than a cell sits in the cells the curve takes (braille fills
        a whole cell), so one side vanished: each side's dot the curve covers is moved
        outward, above the upper side and below the lower, to the first free cell
        within two, so both sides show wherever the canvas has room. ``beside`` (NaN
        where a side is the curve's own value) keeps a band of no width on the curve."""
        mark = BAND_MARK_ASCII if self.ascii else BAND_MARK
        grid = [list(row) for row in drawn]
        at = np.linspace(0.0, 1.0, cols)  # each column's x on the unit square
        where = band if beside is None else beside
        for ys, apart, step in ((band.high, where.high, -1), (band.low, where.low, 1)):
            leaves = ~np.isnan(np.interp(at, band.x, apart))
            plt = self._bare(cols, rows)
            plt.plot(band.x.tolist(), ys.tolist(), marker=mark)
            side = plain_canvas(plt, cols, rows)
            for r, row in enumerate(side):
                for c, ch in enumerate(row):
                    if ch != mark or not leaves[c] or not _is_curve(grid[r][c], self.ascii):
                        continue  # moved only off the curve's own cells
                    for k in (r + step, r + 2 * step):
                        if 0 <= k < rows and grid[k][c] == " ":
                            grid[k][c] = mark
                            break
        return ["".join(row) for row in grid]

    def _bordered(self) -> bool:
        """Whether a border carries the legend (none at 80x24, where the legend shares
        the axis name's line)."""
        return self.styles.border_bottom[0] not in ("", "none", "hidden", "blank")

    def _look(self, width: int, height: int) -> tuple[object, ...]:
        """What every chart's drawing is made for, whatever it draws: the size, the
        border, the theme and the character set. The first part of each drawing's key;
        the rest is what that chart draws from."""
        return (width, height, self._bordered(), self.app.theme, self.ascii)

    def _shown_mark(self, frame: Frame) -> str:
        """The shown model's mark: its place among the models' (the first's with one)."""
        rows = frame.update.models
        shown = next((i for i, r in enumerate(rows) if r.shown), 0)
        return model_mark(shown, self.ascii)

    def _build(
        self, frame: Frame, line: CurveLine | None, width: int, height: int
    ) -> tuple[list[Text], tuple[int, int, int, int]]:
        """The whole chart without the marker, and where its canvas is:
        (left column, top row, columns, rows)."""
        xname, yname = self._axes()
        rows = plot_cells(height - 3)  # the axis, its labels and its name below
        yticks = self._y_ticks(rows)
        margin = max(4, len(yname), *(len(t) for _, t in yticks)) + 1
        # Two columns on the right for the last tick's label, centred on x = 1.
        cols, xticks = self._x_axis(frame, width - margin - 2)
        axis = self.get_component_rich_style("curve-chart--axis")
        sweep = self.get_component_rich_style("curve-chart--sweep")
        chance = self.get_component_rich_style("curve-chart--chance")
        band_style = self.get_component_rich_style("curve-chart--band")
        other = self.get_component_rich_style("curve-chart--other")
        shown_mark = self._shown_mark(frame)
        labels = {rows - 1 - _cell(v, rows): t for v, t in yticks}
        overlay = frame.update.models and self.kind in OVERLAID
        out: list[Text] = []
        for r, row in enumerate(self._canvas(frame, line, cols, rows)):
            if r in labels:
                left = f"{labels[r]:>{margin - 1}}┤"
            elif r == 1:  # the y axis's name, at its top
                left = f"{yname:>{margin - 1}}│"
            else:
                left = " " * (margin - 1) + "│"
            # Each mark its own one-cell span, as appending it with its style would
            # make (the spans, and so the screen, the same), without append's checks.
            spans = []
            for c, ch in enumerate(row, len(left)):
                if ch == " ":
                    continue
                own = self._mark_style(ch)
                if own is not None:
                    style = own
                elif ch in (BAND_MARK, BAND_MARK_ASCII):
                    style = band_style
                elif ch in self.faint_marks:
                    style = chance
                elif ch == shown_mark or (shown_mark == "braille" and _is_braille(ch)):
                    style = sweep
                else:  # another model's mark (or a metric's letter, as the sweep's)
                    style = other if overlay else sweep
                if style:  # as append: a style that sets nothing makes no span
                    spans.append(Span(c, c + 1, style))
            out.append(Text(left + row, style=axis, spans=spans))
        rule = ["─"] * cols
        names = [" "] * (margin + cols + 2)
        for v in xticks:
            c = _cell(v, cols)
            rule[c] = "┬"
            label = self._xtick(v)
            # Centred under its tick, kept inside the chart (a long score at x = 1).
            start = min(max(margin + c - len(label) // 2, 0), len(names) - len(label))
            names[start : start + len(label)] = label
        out.append(Text(" " * (margin - 1) + "└" + "".join(rule), style=axis))
        out.append(Text("".join(names).rstrip(), style=axis))
        name = Text(" " * margin + f"{xname:^{cols}}".rstrip(), style=axis)
        if not self._bordered():
            # No border to carry the legend (80x24): it shares the axis name's line,
            # which has room either side of the name.
            legend = self.legend_to_fit(width - 6 - len(xname))
            centre = margin + (cols - len(xname)) // 2
            gap = max(centre - len(legend), 3)
            name = Text((legend + " " * gap + f"x: {xname}")[:width], style=axis)
        out.append(name)
        # Rows the plot cannot use (ticks falling on cells) go above it, so the axis
        # stays by the legend below.
        top = height - len(out)
        return [Text("") for _ in range(top)] + out, (margin, top, cols, rows)


class ChartPanel(Vertical):
    """ROC, PR or both side by side; says why when a class is missing."""

    class Needs(Message):
        """What the panel needs prepared changed: the curves in ``kinds`` (``roc``,
        ``pr``), reduced to ``columns`` columns."""

        def __init__(self, columns: int, kinds: frozenset[str]) -> None:
            super().__init__()
            self.columns = columns
            self.kinds = kinds

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the screen)."""
    mode: reactive[ChartMode] = reactive("roc")
    """Which chart: ``roc``, ``pr``, ``both`` (side by side), ``metrics`` (against the
    threshold), ``reliability``, ``gains`` or ``det`` (:data:`CHART_MODES`)."""
    ascii: reactive[bool] = reactive(False)
    """Draw with ASCII characters only."""
    log_fpr: reactive[bool] = reactive(False)
    """The ROC chart's FPR axis on a log scale."""
    roc_hull: reactive[bool] = reactive(False)
    """The ROC chart draws its convex hull."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._partial: tuple[object, tuple[str, ...]] | None = None

    def validate_mode(self, mode: str) -> ChartMode:
        return chart_mode(mode)

    def compose(self) -> ComposeResult:
        yield ItemLines(id="chart-summary")
        with Horizontal(id="chart-row"):
            for kind in ("roc", "pr", "det"):
                yield CurveChart(kind, id=f"{kind}-chart").data_bind(
                    ChartPanel.frame, ChartPanel.ascii, ChartPanel.log_fpr, ChartPanel.roc_hull
                )
            yield MetricChart(id="metrics-chart").data_bind(ChartPanel.frame, ChartPanel.ascii)
            yield ReliabilityChart(id="reliability-chart").data_bind(
                ChartPanel.frame, ChartPanel.ascii
            )
            yield GainsChart(id="gains-chart").data_bind(ChartPanel.frame, ChartPanel.ascii)
            yield DecisionChart(id="decision-chart").data_bind(ChartPanel.frame, ChartPanel.ascii)
            yield CostChart(id="cost-chart").data_bind(ChartPanel.frame, ChartPanel.ascii)
            yield TextLines(id="chart-note")

    def on_resize(self, event: Resize) -> None:
        self._needs(event.size.width)

    def watch_mode(self) -> None:
        self._needs(self.size.width)
        self._layout()

    def watch_log_fpr(self) -> None:
        self._needs(self.size.width)
        self._layout()

    def watch_roc_hull(self) -> None:
        self._layout()

    def _partial_items(self, frame: Frame) -> list[str]:
        """The partial AUCs' words, worked out once per set of rows (each is a pass
        over the sweep; a threshold move does not change them)."""
        key = (frame.analysis.curves, frame.update.asked.partial_aucs)
        if self._partial is None or self._partial[0] != key:
            self._partial = (key, _partial_words(frame))
        return list(self._partial[1])

    @property
    def roc_kind(self) -> str:
        """The ROC curve as it is drawn: ``log_roc`` with FPR on a log scale."""
        return "log_roc" if self.log_fpr else "roc"

    def _needs(self, width: int) -> None:
        roc = self.roc_kind
        kinds = {
            "both": frozenset((roc, "pr")),
            "metrics": frozenset[str](),
            "roc": frozenset((roc,)),
            "decision": frozenset[str](),
            "cost": frozenset(("roc",)),
        }.get(self.mode, frozenset((self.mode,)))
        self.post_message(self.Needs(chart_columns(width), kinds))

    def watch_frame(self) -> None:
        self._layout()

    def _layout(self) -> None:
        frame = self.frame
        if frame is None or not self.is_mounted:
            return
        prepared = frame.ready
        # A curve core could not draw (None: a class is missing, so its summary is
        # undefined) is replaced by a note; one still being prepared says so itself.
        show_roc = self.mode in ("roc", "both") and _drawable(prepared, self.roc_kind)
        show_det = self.mode == "det" and _drawable(prepared, "det")
        show_pr = self.mode in ("pr", "both") and _drawable(prepared, "pr")
        metrics = self.query_one("#metrics-chart", MetricChart)
        hidden = not metrics.display
        metrics.display = self.mode == "metrics"
        if metrics.display and hidden:
            metrics.replot()
        show_gains = self.mode == "gains" and _drawable(prepared, "gains")
        show_reliability = self.mode == "reliability" and _drawable(prepared, "reliability")
        # The decision curve is worked out only when its chart is asked for (a pass
        # over the sweep for each of its 99 thresholds).
        show_decision = self.mode == "decision" and frame.update.decision_curve.reason is None
        show_cost = self.mode == "cost" and frame.analysis.curves.cost_curve.reason is None
        for chart, show in (
            (self.query_one("#roc-chart", CurveChart), show_roc),
            (self.query_one("#pr-chart", CurveChart), show_pr),
            (self.query_one("#det-chart", CurveChart), show_det),
            (self.query_one("#gains-chart", CurveChart), show_gains),
            (self.query_one("#reliability-chart", CurveChart), show_reliability),
            (self.query_one("#decision-chart", CurveChart), show_decision),
            (self.query_one("#cost-chart", CurveChart), show_cost),
        ):
            hidden = not chart.display
            chart.display = show
            if show and hidden:
                chart.replot()  # hidden charts skip drawing; catch up now
        summary = self.query_one("#chart-summary", ItemLines)
        note = self.query_one("#chart-note", TextLines)
        if prepared is None:
            summary.show_items(["ROC AUC, AP and PR trapezoid area of these rows: being computed…"])
            note.display = False
            return
        # One item per summary: a narrow panel breaks the line between them, never
        # inside "143/180 ≈ 0.7944" (#12 item 8). Each interval is an item of its own
        # after its number, so a line breaks between them rather than inside either.
        roc_auc, average_precision, area_pr = frame.update.ranking
        auc = [f"ROC AUC (trapezoid) {roc_auc.metric.value_text()}"]
        if roc_auc.interval is not None:
            auc.append(f"{roc_auc.interval.short()}, DeLong")
        if frame.update.quantised is not None:
            auc.append(frame.update.quantised.words())
        auc += self._partial_items(frame)
        if self.roc_hull and frame.analysis.curves.cost_curve.reason is None:
            auc.append(f"ROCCH AUC {frame.analysis.curves.cost_curve.hull_auc.value_text()}")
        ap = [f"AP (step-weighted) {average_precision.metric.value_text()}"]
        ap += _boot_short(average_precision)
        area = [f"PR trapezoid area {area_pr.metric.value_text()}"]
        area += _boot_short(area_pr)
        # The summaries of the curves shown (AP and the PR area always side by side);
        # m lists them all. Only the shown mode's are worked out: KS, calibration and
        # F1's peak each cost a pass over the sweep.
        items: dict[str, Callable[[], list[str]]] = {
            "roc": lambda: auc,
            "pr": lambda: ap + area,
            "gains": lambda: _gains_items(frame),
            "reliability": lambda: _reliability_items(frame),
            "metrics": lambda: _metric_items(frame) + ap + area,
            "det": lambda: auc + _scaled_items(frame, "det"),
            "decision": lambda: _decision_items(frame),
            "cost": lambda: _cost_items(frame),
        }
        if self.log_fpr:
            items["roc"] = lambda: auc + _scaled_items(frame, "log_roc")
            items["both"] = lambda: auc + _scaled_items(frame, "log_roc") + ap + area
        summary.show_items(items.get(self.mode, lambda: auc + ap + area)())
        notes = []
        if self.mode == "gains" and not _drawable(prepared, "gains"):
            notes.append("No gains curve: there are no actual positives to capture.")
        if self.mode == "reliability" and not _drawable(prepared, "reliability"):
            reason = prepared.curves.calibration().reason
            notes.append(f"No reliability diagram: {reason}.")
        if self.mode == "decision" and not show_decision:
            notes.append(f"No decision curve: {frame.update.decision_curve.reason}.")
        if self.mode == "cost" and not show_cost:
            notes.append(f"No cost curves: {frame.analysis.curves.cost_curve.reason}.")
        if self.mode == "det" and not _drawable(prepared, "det"):
            notes.append(f"No DET curve: {lower_first(str(roc_auc.reason))}.")
        if self.mode in ("roc", "both") and not _drawable(prepared, self.roc_kind):
            notes.append(f"No ROC curve: {lower_first(str(roc_auc.reason))}. ROC AUC is undefined.")
        if self.mode in ("pr", "both") and not _drawable(prepared, "pr"):
            notes.append(
                f"No PR curve: {lower_first(str(average_precision.reason))}. AP is undefined."
            )
        note.display = bool(notes)
        note.show("\n".join(notes))


#: The metric-vs-threshold chart's series: (metric, mark, word, component class):
#: yellowbrick's set, each with a letter and a colour of its own.
SERIES = (
    ("precision", "p", "precision", "metric-chart--precision"),
    ("recall", "r", "recall", "metric-chart--recall"),
    ("f1", "f", "F1", "metric-chart--f1"),
    ("queue_rate", "q", "queue rate", "metric-chart--queue"),
)
BOUND_MARK, THRESHOLD_MARK, GOAL_MARK, PEAK_MARK = "=", "|", ":", "^"


class MetricChart(CurveChart):
    """Precision, recall, F1 and queue rate against the threshold: step functions of
    the exact sweep (each step at its own score) on a round score axis, the goal's
    bounds as ``=`` lines, the active threshold as a ``|`` line and F1's largest
    value as ``^``. Each series has its own letter and colour; where two run
    through one cell their letters take turns, so every series stays in sight."""

    COMPONENT_CLASSES: ClassVar[set[str]] = CurveChart.COMPONENT_CLASSES | {c for *_, c in SERIES}
    """
    | Class | Description |
    | :- | :- |
    | `metric-chart--precision` | The precision series `p`. |
    | `metric-chart--recall` | The recall series `r`. |
    | `metric-chart--f1` | The F1 series `f` and its largest value `^`. |
    | `metric-chart--queue` | The queue rate series `q`. |
    """

    # Four hues at 4.5:1 or more on the background; a light theme's green and orange
    # are paler than that (textual-light's 3.8:1 and 3.3:1), so app.tcss gives it others.
    DEFAULT_CSS = """
    MetricChart > .metric-chart--precision { color: $text-primary; }
    MetricChart > .metric-chart--recall { color: $text-success; }
    MetricChart > .metric-chart--f1 { color: $text-accent; }
    MetricChart > .metric-chart--queue { color: $text-error; }
    """

    faint_marks = frozenset({CHANCE_MARK, BOUND_MARK})

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("metrics", id=id)
        self._span = (0.0, 1.0)
        self._axis: ScoreAxis | None = None

    @property
    def legend(self) -> str:
        return self.legend_to_fit(1000)

    def legend_to_fit(self, width: int) -> str:
        marks = " · ".join(f"{m} {w}" for _, m, w, _ in SERIES)
        short = " ".join(f"{m} {w.split()[0]}" for _, m, w, _ in SERIES)
        t, g, b, k = THRESHOLD_MARK, GOAL_MARK, BOUND_MARK, PEAK_MARK
        wordings = (
            f"{marks} · {k} F1's largest · {t} threshold · {g} goal's threshold · {b} goal's bound",
            f"{marks} · {k} F1's largest · {t} threshold · {g} goal · {b} bound",
            f"{marks} · {k} max F1 · {t} threshold",
            f"{short} {k} max {t} now {g} goal {b} bound",
            f"{short} {k} max {t} now",
            short,
            " ".join(m for _, m, _, _ in SERIES),
        )
        return next((w for w in wordings if len(w) <= width), wordings[-1])

    def replot(self) -> None:
        if self.frame is None:
            return
        self.border_title = self._title()
        self.border_subtitle = self.legend_to_fit(self.size.width - 4)
        self.refresh()

    def _title(self) -> str:
        return "Metrics against the threshold"

    def _axes(self) -> tuple[str, str]:
        return ("score", "value")

    def _x_axis(self, frame: Frame, available: int) -> tuple[int, tuple[float, ...]]:
        """A round score axis over the sweep's scores: as many steps as labels of up
        to eight characters leave room for (at most four), the columns one more than
        a multiple of them, so each tick's column is its score's."""
        ts = frame.analysis.sweep.thresholds
        lo, hi = (float(ts[-1]), float(ts[0])) if ts.size else (0.0, 1.0)
        axis = score_axis(lo, hi, max(1, min(4, (available - 1) // 9)))
        if not math.isfinite(axis.hi - axis.lo):  # scores near the largest double
            axis = ScoreAxis(lo, hi, 1, hi - lo, 0)
        self._axis = axis
        self._span = (axis.lo, axis.hi)
        cols = available - (available - 1) % axis.parts
        return cols, tuple(i / axis.parts for i in range(axis.parts + 1))

    def _xtick(self, v: float) -> str:
        axis = self._axis
        if axis is None or not math.isfinite(axis.step):
            lo, hi = self._span
            return f"{lo + v * (hi - lo):.3g}"
        return axis.label(round(v * axis.parts))

    def _mark_style(self, ch: str) -> Style | None:
        for _, mark, _, component in SERIES:
            if ch == mark:
                return self.get_component_rich_style(component)
        if ch == PEAK_MARK:
            return self.get_component_rich_style("metric-chart--f1") + Style(bold=True)
        return None

    def render(self) -> RenderResult:
        frame = self.frame
        width, height = self.content_region.width, self.content_region.height
        if frame is None or width < 12 or height < 6:
            return Text("")
        a = frame.analysis
        deciding = frame.update.deciding
        goal = None if deciding is None else deciding.goal
        key = (*self._look(width, height), a.curves, goal)
        if self._base is None or self._base[1] != key:
            lines, place = self._build(frame, None, width, height)
            self._base = (None, key, lines, place)
        lines, (left, top, cols, rows) = list(self._base[2]), self._base[3]
        decision = None if deciding is None else deciding.decision
        lo, hi = self._span
        marks = []
        if decision is not None and decision.threshold is not None:
            marks.append((decision.threshold, GOAL_MARK, "curve-chart--chance"))
        if a.threshold is not None and frame.own is None:
            marks.append((a.threshold, THRESHOLD_MARK, "curve-chart--active"))
        series = {m for _, m, _, _ in SERIES}
        for t, mark, component in marks:  # the goal's threshold, then the active one
            x = 0.0 if hi == lo else min(max((t - lo) / (hi - lo), 0.0), 1.0)
            col = left + _cell(x, cols)
            style = self.get_component_rich_style(component)
            for r in range(top, top + rows):
                line = lines[r]
                plain = line.plain
                if col >= len(plain):
                    continue
                # A series' riser at this very score (blank either side) gives way to
                # the line, or a threshold at a score would hide behind its risers; a
                # value running through the column stays.
                beside = plain[col - 1 : col] + plain[col + 1 : col + 2]
                riser = plain[col] in series and not beside.strip(" |:")
                if plain[col] in (" ", GOAL_MARK) or riser:
                    marked = line[:col]
                    marked.append(mark, style=style)
                    marked.append_text(line[col + 1 :])
                    lines[r] = marked
        return Text("\n").join(lines)

    def _cells(
        self, xs: list[float], ys: list[float], mark: str, cols: int, rows: int
    ) -> set[tuple[int, int]]:
        """The (row, column) cells plotext draws a line through ``xs``, ``ys`` in."""
        plt = self._bare(cols, rows)
        plt.plot(xs, ys, marker=mark)
        canvas = plain_canvas(plt, cols, rows)
        return {(r, c) for r, row in enumerate(canvas) for c, ch in enumerate(row) if ch == mark}

    def _canvas(self, frame: Frame, line: CurveLine | None, cols: int, rows: int) -> list[str]:
        """Each series as a step function of the threshold, on the unit square (the
        axis's scores mapped to 0..1). Each series is drawn on a canvas of its own;
        a cell two or more pass through shows each of their letters in turn (by the
        cell's row and column), so none hides another along a shared stretch."""
        a = frame.analysis
        ts = a.sweep.thresholds
        plt = self._bare(cols, rows)
        deciding = frame.update.deciding
        goal = None if deciding is None else deciding.goal
        if goal is not None:
            for c in goal.constraints:
                if 0 <= c.bound <= 1 and c.metric not in ("predicted_positives",):
                    y = float(c.bound)
                    plt.plot([0, 1], [y, y], marker=BOUND_MARK)
        grid = [list(row) for row in plain_canvas(plt, cols, rows)]
        if not ts.size:
            return ["".join(row) for row in grid]
        names = tuple(n for n, _, _, _ in SERIES)
        xs, series = frame.update.metric_series(names, cols, self._span)
        claims: dict[tuple[int, int], list[str]] = {}
        for name, mark, _, _ in SERIES:
            ys = series[name]
            keep = ~np.isnan(ys)
            if keep.any():
                for cell in self._cells(xs[keep].tolist(), ys[keep].tolist(), mark, cols, rows):
                    claims.setdefault(cell, []).append(mark)
        for (row, col), marks in claims.items():
            grid[row][col] = marks[(row + col) % len(marks)]
        peak = frame.update.f1_peak
        lo, hi = self._span
        if peak is not None and peak[1].value is not None and hi > lo:
            x = (float(ts[peak[0] - 1]) - lo) / (hi - lo)
            grid[rows - 1 - _cell(peak[1].value, rows)][_cell(x, cols)] = PEAK_MARK
        return ["".join(row) for row in grid]


def _metric_items(frame: Frame) -> list[str]:
    """The metric chart's line: F1's largest value and where, then AP and the PR area
    (the ranking summaries of the same precision and recall)."""
    peak = frame.update.f1_peak
    if peak is None:
        return ["largest F1: none (no actual positives, TP+FN=0)"]
    k, f1 = peak
    ts = frame.analysis.sweep.thresholds
    at = threshold_words(float(ts[k - 1]), ts)
    return [f"largest F1 (^) {f1.value_text()} at threshold {at}"]


def _partial_words(frame: Frame) -> tuple[str, ...]:
    """Each partial AUC asked for, in a few words."""
    words = tuple(partial_auc_short(p) for p in frame.update.asked.partial(frame.analysis.sweep))
    many = "ranges" if len(words) > 1 else "range"
    return (*words, f"{PARTIAL_MARK} marks its {many} on the chart") if words else ()


def _scaled_items(frame: Frame, kind: str) -> list[str]:
    """What a chart on scaled axes could not place: the DET curve's points with a rate
    of 0 or 1, the log axis's points at FPR 0 (and, on either, points past the axis's
    end), and where the active point is when it is off the chart."""
    prepared = frame.ready
    line = None if prepared is None else prepared.line(kind)
    if not isinstance(line, ScaledLine):
        return []
    items = []
    point = frame.analysis.point
    if kind == "det":
        items.append(
            f"{format_count(line.left_out)} of the DET curve's {format_count(line.points)} points "
            "left out (a rate of 0 or 1 is off probit axes)"
        )
        if line.at(point) is None:
            items.append("the active point is not on it (its FPR or FNR is 0 or 1)")
    else:
        many = "point sits" if line.on_axis == 1 else "points sit"
        items.append(f"{format_count(line.on_axis)} {many} at FPR 0, on the axis (0)")
    if line.beyond:
        items.append(f"{format_count(line.beyond)} past {line.xscale.ends}, drawn at the edge")
    return items


def _boot_short(m: Measure) -> list[str]:
    """``["95% CI 0.61 to 0.93, bootstrap"]``, or nothing (no bootstrap ran)."""
    return [] if m.value is None or m.interval is None else [m.interval.short()]


def _gains_items(frame: Frame) -> list[str]:
    """The gains chart's line: KS and lift, with what each is."""
    a = frame.analysis
    ks = a.curves.ks
    items = []
    if ks.value.value is not None:
        items.append(
            f"KS = max (TPR − FPR) {ks.value.value_text()} at {format_threshold(ks.threshold)}"
        )
    lift = a.metrics["lift"]
    items.append(f"lift here {lift.value_text()}")
    return items


def _reliability_items(frame: Frame) -> list[str]:
    """The reliability diagram's line: ECE, MCE, the Brier decomposition, bin sizes."""
    c = frame.analysis.curves.calibration()
    if c.reason is not None:
        return ["Calibration: undefined"]
    sizes = ", ".join(format_count(b.n) for b in c.bins)
    return [
        f"ECE {c.ece.value_text()}",
        f"MCE {c.mce.value_text()}",
        f"Brier ≈ {brier_terms(c)} (reliability − resolution + uncertainty)",
        f"rows per bin: {sizes}",
    ]


#: The reliability diagram's marks: each bin's (mean score, observed rate), and its
#: interval's whisker; the perfect-calibration diagonal is the chance mark's dashes.
BIN_MARK, BIN_MARK_ASCII, WHISKER_MARK = "\u25c6", "@", ":"
#: The gains chart's perfect line.
PERFECT_MARK = "="


class GainsChart(CurveChart):
    """Cumulative gains: the share of the actual positives captured against the share
    of rows predicted positive, over the exact sweep, with the random diagonal (``-``)
    and the perfect line (``=``: every positive first)."""

    faint_marks = frozenset({CHANCE_MARK, PERFECT_MARK})

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("gains", id=id)

    def _line(self, prepared: Prepared) -> CurveLine | None:
        return prepared.gains

    def _title(self) -> str:
        return "Cumulative gains"

    def _axes(self) -> tuple[str, str]:
        return ("share predicted positive", "gain")

    def legend_to_fit(self, width: int) -> str:
        sweep = "*" if self.ascii else "\u2812\u2812"
        c, o, p = CHANCE_MARK, ACTIVE_MARK, PERFECT_MARK
        wordings = (
            f"{sweep} share of positives captured · {c} random · {p} perfect · {o} active point",
            f"{sweep} gains · {c} random · {p} perfect · {o} active point",
            f"{sweep} gains {c} random {p} perfect {o} active",
            f"{sweep} gains {c} rand {p} best {o} now",
        )
        return next((w for w in wordings if len(w) <= width), wordings[-1])

    def _canvas(self, frame: Frame, line: CurveLine | None, cols: int, rows: int) -> list[str]:
        plt = self._bare(cols, rows)
        plt.plot([0, 1], [0, 1], marker=CHANCE_MARK)
        g = frame.analysis.curves.gains
        if g is not None:
            plt.plot([0, g.prevalence, 1], [0, 1, 1], marker=PERFECT_MARK)
        if line is not None:
            xs, ys = line.x[line.drawn].tolist(), line.y[line.drawn].tolist()
            plt.plot(xs, ys, marker="*" if self.ascii else "braille")
        return plain_canvas(plt, cols, rows)


class ReliabilityChart(CurveChart):
    """The reliability diagram: each bin's observed positive rate against its mean
    score (``◆``, ``@`` in ASCII), its Wilson interval as a ``:`` whisker, and the
    diagonal of perfect calibration (``-``)."""

    faint_marks = frozenset({CHANCE_MARK, WHISKER_MARK})

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("reliability", id=id)

    def _title(self) -> str:
        c = None if self.frame is None else self.frame.analysis.curves.calibration()
        if c is None or c.reason is not None:
            return "Reliability diagram"
        return f"Reliability diagram, {len(c.bins)} equal-mass bins"

    def _axes(self) -> tuple[str, str]:
        return ("mean score", "rate")

    def legend_to_fit(self, width: int) -> str:
        b = BIN_MARK_ASCII if self.ascii else BIN_MARK
        c, w = CHANCE_MARK, WHISKER_MARK
        wordings = (
            f"{b} bin: observed rate by mean score · {w} its 95% CI · {c} perfect calibration",
            f"{b} bin's observed rate · {w} 95% CI · {c} perfect calibration",
            f"{b} bin {w} CI {c} perfect",
        )
        return next((x for x in wordings if len(x) <= width), wordings[-1])

    def render(self) -> RenderResult:
        frame = self.frame
        width, height = self.content_region.width, self.content_region.height
        if frame is None or width < 12 or height < 6:
            return Text("")
        prepared = frame.ready
        if prepared is None or "reliability" not in prepared.kinds:
            return Text("Binning these rows by score…", style="dim")
        key = (*self._look(width, height), frame.analysis.curves)
        if self._base is None or self._base[1] != key:
            lines, place = self._build(frame, None, width, height)
            self._base = (None, key, lines, place)
        return Text("\n").join(self._base[2])

    def _canvas(self, frame: Frame, line: CurveLine | None, cols: int, rows: int) -> list[str]:
        plt = self._bare(cols, rows)
        plt.plot([0, 1], [0, 1], marker=CHANCE_MARK)
        c = frame.analysis.curves.calibration()
        for b in c.bins:
            if b.interval is not None:
                plt.plot(
                    [b.mean_score, b.mean_score],
                    [b.interval.low, b.interval.high],
                    marker=WHISKER_MARK,
                )
        if c.bins:
            plt.scatter(
                [b.mean_score for b in c.bins],
                [float(b.positive_rate.value or 0.0) for b in c.bins],
                marker=BIN_MARK_ASCII if self.ascii else BIN_MARK,
            )
        return plain_canvas(plt, cols, rows)


#: The decision chart's marks: treating everyone (``=``), treating no one is the
#: baseline's dashes; the cost chart's faint lines of other points (``.``), the active
#: point's line (``o``).
TREAT_ALL_MARK, FAINT_MARK, ACTIVE_LINE_MARK = "=", ".", "o"
#: Other points' cost lines the cost chart draws at most (faint): a terminal shows a
#: few dozen before they fill it.
FAINT_LINES = 16


def _decimals(step: float) -> int:
    """Decimals enough to tell ticks ``step`` apart: 2, or more for a small step."""
    if not step > 0 or not math.isfinite(step):
        return 2
    return max(2, min(6, math.ceil(-math.log10(step)) + 1))


class DecisionChart(CurveChart):
    """Net benefit against the threshold probability pt (acting on every case scored
    >= pt): the model's (braille, each other model's with its mark), treating everyone
    (``=``), treating no one (``-``, net benefit 0), a bootstrap's band at the grid's
    pt, and the active threshold as ``O`` on the model's curve. The y axis runs from a
    little below 0 to the prevalence (the most any net benefit can be), as dcurves
    draws it; what falls below is off the chart."""

    faint_marks = frozenset({CHANCE_MARK, TREAT_ALL_MARK})

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("decision", id=id)

    def _title(self) -> str:
        wordings = (
            "Decision curve: net benefit (NB) by threshold probability pt",
            "Decision curve: net benefit (NB) by pt",
            "Decision curve",
        )
        return next((w for w in wordings if len(w) <= self.size.width - 6), wordings[-1])

    def _axes(self) -> tuple[str, str]:
        return ("pt (act if score >= pt)", "NB")

    def legend_to_fit(self, width: int) -> str:
        sweep = "*" if self.ascii else "\u2812\u2812"
        c, o, a = CHANCE_MARK, ACTIVE_MARK, TREAT_ALL_MARK
        b = BAND_MARK_ASCII if self.ascii else BAND_MARK
        band = f"  {b}{b} band" if self._decision_band() is not None else ""
        models = self._models_of_decision()
        names = "  ".join(f"{m} {n}" for m, n in models) if models else f"{sweep} model"
        wordings = (
            f"{names} · {a} treat all · {c} treat none{band} · {o} active threshold",
            f"{names} {a} all {c} none{band} {o} active",
            f"{sweep} model {a} all {c} none {o} now",
        )
        return next((w for w in wordings if len(w) <= width), wordings[-1])

    def _models_of_decision(self) -> list[tuple[str, str]]:
        """(mark, name) of each model drawn; empty with one model."""
        frame = self.frame
        rows = () if frame is None else frame.update.models
        if not rows:
            return []
        out = []
        for i, row in enumerate(rows):
            mark = model_mark(i, self.ascii)
            out.append(("\u2812\u2812" if mark == "braille" else mark * 2, legend_name(row.name)))
        return out

    def _range(self, rows: int) -> tuple[float, float]:
        """The y axis's ends: (a little below 0, the prevalence), 0 on a row of its own
        (a tenth of the rows below it)."""
        frame = self.frame
        series = None if frame is None else frame.update.decision_series(None, 1)
        top = series.prevalence if series is not None and series.prevalence > 0 else 0.1
        below = max(1, round((rows - 1) / 10))
        return -top * below / (rows - 1 - below), top

    def _unit(self, y: npt.NDArray[np.float64], rows: int) -> npt.NDArray[np.float64]:
        low, high = self._range(rows)
        return (y - low) / (high - low)

    def _y_ticks(self, rows: int) -> tuple[tuple[float, str], ...]:
        """Ticks at the bottom, at 0, at the prevalence (the top) and half way up, each
        on a row of its own (their value is where plotext draws it)."""
        low, high = self._range(rows)
        below = max(1, round((rows - 1) / 10))
        places = {0, below, rows - 1}
        if (rows - 1 - below) % 2 == 0 and rows - 1 - below >= 6:
            places.add(below + (rows - 1 - below) // 2)
        d = _decimals((high - low) / max(rows - 1, 1) * 2)
        out = []
        for r in sorted(places):
            u = r / (rows - 1)
            value = low + u * (high - low)
            out.append((u, f"{value:.{d}f}" if r != below else f"{0.0:.{d}f}"))
        return tuple(out)

    def _decision_band(self) -> tuple[list[float], list[float], list[float]] | None:
        """The bootstrap's interval on NB at each grid pt: (pt, low, high), or None."""
        frame = self.frame
        sure = None if frame is None else frame.update.sure
        if frame is None or sure is None or sure.boot is None:
            return None
        xs, lows, highs = [], [], []
        for row in frame.update.decision_curve.grid:
            e = sure.estimate(net_benefit_key(row.pt))
            if e.interval is not None:
                xs.append(float(row.pt))
                lows.append(e.interval.low)
                highs.append(e.interval.high)
        return (xs, lows, highs) if xs else None

    def _canvas(self, frame: Frame, line: CurveLine | None, cols: int, rows: int) -> list[str]:
        plt = self._bare(cols, rows)
        series = frame.update.decision_series(None, cols)
        zero = float(self._unit(np.zeros(1), rows)[0])
        plt.plot([0.0, 1.0], [zero, zero], marker=CHANCE_MARK)
        if series.weights is not None:
            keep = series.treat_all >= self._range(rows)[0]
            plt.plot(
                series.pt[keep].tolist(),
                self._unit(series.treat_all[keep], rows).tolist(),
                marker=TREAT_ALL_MARK,
            )
        band = self._decision_band()
        if band is not None:
            mark = BAND_MARK_ASCII if self.ascii else BAND_MARK
            xs, lows, highs = band
            plt.plot(xs, self._unit(np.asarray(lows), rows).tolist(), marker=mark)
            plt.plot(xs, self._unit(np.asarray(highs), rows).tolist(), marker=mark)
        prepared = frame.ready
        for other in () if prepared is None else prepared.others:
            if other.curves is None:
                continue
            theirs = frame.update.decision_series(other.curves, cols)
            if theirs.weights is not None:
                plt.plot(
                    theirs.pt.tolist(),
                    self._unit(theirs.model, rows).tolist(),
                    marker=model_mark(other.index, self.ascii),
                )
        if series.weights is not None:
            plt.plot(
                series.pt.tolist(),
                self._unit(series.model, rows).tolist(),
                marker=self._shown_mark(frame),
            )
        return plain_canvas(plt, cols, rows)

    def render(self) -> RenderResult:
        frame = self.frame
        width, height = self.content_region.width, self.content_region.height
        if frame is None or width < 12 or height < 6:
            return Text("")
        band = self._decision_band()
        key = (
            *self._look(width, height),
            frame.analysis.curves,
            frame.update.asked.harm,
            frame.update.deciding and frame.update.deciding.prevalence,
            band is not None and tuple(band[1]),
            frame.ready and frame.ready.others,
        )
        if self._base is None or not _same(self._base[1], key):
            lines, place = self._build(frame, None, width, height)
            self._base = (None, key, lines, place)
        lines, (left, top, cols, rows) = list(self._base[2]), self._base[3]
        series = frame.update.decision_series(None, cols)
        t = frame.analysis.threshold if frame.own is None else None
        if series.weights is not None and t is not None and 0 < t < 1:
            y = float(self._unit(np.array([series.at(frame.analysis.curves, t)]), rows)[0])
            if 0 <= y <= 1:
                col, row = left + _cell(t, cols), top + rows - 1 - _cell(y, rows)
                marked = lines[row][:col]
                marked.append(
                    ACTIVE_MARK, style=self.get_component_rich_style("curve-chart--active")
                )
                marked.append_text(lines[row][col + 1 :])
                lines[row] = marked
        return Text("\n").join(lines)


class CostChart(CurveChart):
    """Cost curves: each point's normalised expected cost FNR·PC + FPR·(1 − PC) against
    the probability-cost PC(+); the lower envelope (the cheapest at each PC: the ROC
    convex hull's vertices) bold, some other points' lines faint (``.``), and the
    active point's line (``o``)."""

    faint_marks = frozenset({FAINT_MARK})

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("cost", id=id)

    def _title(self) -> str:
        wordings = (
            "Cost curves: normalised expected cost by probability-cost PC(+)",
            "Cost curves: expected cost by PC(+)",
            "Cost curves",
        )
        return next((w for w in wordings if len(w) <= self.size.width - 6), wordings[-1])

    def _axes(self) -> tuple[str, str]:
        return ("PC(+)", "cost")

    def legend_to_fit(self, width: int) -> str:
        sweep = "*" if self.ascii else "\u2812\u2812"
        f, o = FAINT_MARK, ACTIVE_LINE_MARK
        frame = self.frame
        others = "other points"
        if frame is not None:  # a terminal shows a few lines: say how many of how many
            rows = plot_cells(max(self.content_region.height - 3, 1))
            others = f"{len(self._faint(frame, rows))} of the {frame.analysis.sweep.size} points"
        wordings = (
            f"{sweep} lower envelope (the hull's vertices) · {f} {others} · "
            f"{o} active point's line",
            f"{sweep} envelope · {f} {others} · {o} active point's line",
            f"{sweep} envelope · {f} other points · {o} active point's line",
            f"{sweep} envelope {f} others {o} active",
        )
        return next((w for w in wordings if len(w) <= width), wordings[-1])

    def _faint(self, frame: Frame, rows: int) -> tuple[int, ...]:
        """The points whose lines are drawn faint: evenly among those the ROC chart
        draws (its corners), at most :data:`FAINT_LINES` and half the chart's rows (more
        fill a short chart with dots)."""
        prepared = frame.ready
        line = None if prepared is None else prepared.roc
        if line is None:
            return ()
        drawn = np.asarray(line.drawn)
        most = max(4, min(FAINT_LINES, rows // 2))
        if drawn.shape[0] > most:
            drawn = drawn[np.linspace(0, drawn.shape[0] - 1, most).round().astype(int)]
        return tuple(int(k) for k in drawn)

    def _canvas(self, frame: Frame, line: CurveLine | None, cols: int, rows: int) -> list[str]:
        plt = self._bare(cols, rows)
        c = frame.update.cost_series(self._faint(frame, rows), cols)
        pc = c.pc.tolist()
        for ys in c.faint:
            plt.plot(pc, ys.tolist(), marker=FAINT_MARK)
        if c.active is not None:
            plt.plot(pc, c.active.tolist(), marker=ACTIVE_LINE_MARK)
        plt.plot(pc, c.envelope.tolist(), marker="*" if self.ascii else "braille")
        return plain_canvas(plt, cols, rows)

    def render(self) -> RenderResult:
        frame = self.frame
        width, height = self.content_region.width, self.content_region.height
        if frame is None or width < 12 or height < 6:
            return Text("")
        prepared = frame.ready
        if prepared is None or "roc" not in prepared.kinds:
            return Text("Drawing the cost curves of these rows…", style="dim")
        key = (
            *self._look(width, height),
            frame.analysis.curves,
            frame.analysis.point,
            prepared.roc,
        )
        if self._base is None or not _same(self._base[1], key):
            lines, place = self._build(frame, None, width, height)
            self._base = (None, key, lines, place)
        return Text("\n").join(self._base[2])


def _decision_items(frame: Frame) -> list[str]:
    """The decision chart's line: where the model is useful (a range an item, so a
    narrow line breaks between them), the prevalence, and the harm."""
    d = frame.update.decision_curve
    if d.reason is not None:
        return [f"Decision curve: undefined ({d.reason})"]
    spans = useful_spans(d)
    if spans:
        items = [f"Useful (beats treating all and none) where {spans[0]}", *spans[1:]]
    else:
        items = ["Useful nowhere: treating all or none does at least as well at every pt"]
    items.append(f"prevalence {d.prevalence:.4g}" + (" (given)" if d.given_prevalence else ""))
    if d.harm:
        items.append(f"harm {float(d.harm):g}")
    return items


def _cost_items(frame: Frame) -> list[str]:
    """The cost chart's line: the hull's area, its vertices, and the active point."""
    cc = frame.analysis.curves.cost_curve
    if cc.reason is not None:
        return [f"Cost curves: undefined ({cc.reason})"]
    k = frame.analysis.point
    mine = next((v for v in cc.hull if v.point == k), None)
    here = (
        f"the active point is cheapest for PC(+) from {mine.pc_low:.4g} to {mine.pc_high:.4g}"
        if mine is not None
        else "the active point is never the cheapest (inside the hull)"
    )
    return [f"ROCCH AUC {cc.hull_auc.value_text()}", f"{len(cc.hull)} hull vertices", here]
