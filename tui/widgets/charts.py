"""ROC and precision-recall charts of the exact sweep (plotext via textual-plotext).

Each follows textual-plotext's pattern: ``replot()`` clears, plots and refreshes,
called when the analysis changes. Points come from core's sweep, never a grid.
"""

from __future__ import annotations

import math

import numpy as np
from rich.text import Text
from textual.app import ComposeResult, RenderResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual_plotext import PlotextPlot

from core.analysis import Analysis
from core.curves.pr import precision_recall_points
from core.curves.reduce import reduce_curve
from core.curves.roc import roc_points
from tui.widgets.text import TextLines

CHART_MODES = ("roc", "pr", "both")

#: Calibration markers: characters no chart draws otherwise.
_LOW, _HIGH = "\u2603", "\u2602"


def _cell(value: float, cells: int) -> int:
    """The cell plotext gives ``value`` in [0, 1] on an axis of ``cells`` cells
    (its own rounding: floor of 0.5 + (cells - 1) * value, rounded to 8 places)."""
    return math.floor(round(0.5 + (cells - 1) * value, 8))


#: x, y, the reduced indices, and each sweep point's index on the curve (-1: not drawn).
Curve = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]

#: Sweeps with more points than this have their summaries and reduced curves
#: computed off the UI thread when the rows change (an edit at 10^7 rows would
#: otherwise hold the screen for about a second); the charts say so meanwhile.
BACKGROUND_POINTS = 200_000


def in_background(a: Analysis) -> bool:
    """Whether ``a``'s curve-wide work is done off the UI thread."""
    return a.sweep.size > BACKGROUND_POINTS


class CurveChart(PlotextPlot):
    """One curve: ``kind`` is ``"roc"`` or ``"pr"``."""

    analysis: reactive[Analysis | None] = reactive(None)

    def __init__(self, kind: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.kind = kind
        self._cached: tuple[tuple[object, str, int], Curve | None] | None = None
        self._base: tuple[object, object, Text, tuple[int, int, int, int]] | None = None
        self._preparing: tuple[object, int] | None = None

    def on_mount(self) -> None:
        self._follow_theme()
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._follow_theme())

    def _follow_theme(self) -> None:
        # textual-plotext's automatic theme draws black on black under the ANSI
        # themes; plotext's "clear" theme uses the terminal's own colours instead.
        self.theme = "clear" if self.app.theme.startswith("ansi") else "auto"

    def watch_analysis(self) -> None:
        if self.display:  # a hidden chart is drawn when it is shown again
            self.replot()

    def replot(self) -> None:
        """Follow the analysis: new titles, and the chart is drawn again (see render)."""
        a = self.analysis
        if a is None:
            return
        ready = a.curves.summaries_ready or not in_background(a)
        if self.kind == "roc":
            auc = a.curves.summaries.roc_auc.value_text() if ready else "(computing)"
            self.border_title = f"ROC · AUC (trapezoid) {auc}"
            baseline = "chance"
        elif ready:
            s = a.curves.summaries
            ap, trap = s.average_precision.value_text(), s.pr_trapezoid_area.value_text()
            self.border_title = f"PR · AP (step-weighted) {ap} · trapezoid area {trap}"
            baseline = "prevalence"
        else:
            self.border_title = "PR · AP and trapezoid area (computing)"
            baseline = "prevalence"
        self.border_subtitle = f"dots: {baseline} · line: exact sweep · O: active point"
        self.refresh()

    def render(self) -> RenderResult:
        """The curve, built by plotext once per sweep and size, with the active point
        laid over it as ``O`` at the very cell plotext would put it.

        plotext redraws every point in Python; doing that on every key press
        was most of the time a threshold move took, so only the marker moves.
        """
        a = self.analysis
        if a is None or self.size.width < 4 or self.size.height < 4:
            return Text("")
        ascii = bool(getattr(self.app, "ascii", False))
        key = (self.kind, self.size, self.app.theme, self.theme, ascii)
        if self._base is None or self._base[0] is not a.curves or self._base[1] != key:
            if in_background(a) and not self._curve_ready(a):
                self._prepare(a)
                return Text(f"Drawing the {self.kind.upper()} curve of these rows…", style="dim")
            self._base = (a.curves, key, self._build(a, ascii), self._calibrate())
        base, (col0, col1, row0, row1) = self._base[2], self._base[3]
        drawn = self._point(a)
        if drawn is None or col0 < 0:
            return base
        x, y = drawn
        col = col0 + _cell(x, col1 - col0 + 1)
        row = row0 - _cell(y, row0 - row1 + 1)
        lines = base.split("\n", allow_blank=True)
        if not 0 <= row < len(lines) or not 0 <= col < len(lines[row]):
            return base
        line = lines[row]
        marked = line[:col]
        marked.append("O", style="bold")
        marked.append_text(line[col + 1 :])
        lines[row] = marked
        return Text("\n").join(lines)

    def _configure(self, axes: tuple[str, str]) -> None:
        plt = self.plt
        plt.clear_figure()
        # Exactly the unit square: padding the limits shifts braille lines
        # against the ticks and the active-point marker.
        plt.xlim(0, 1)
        plt.ylim(0, 1)
        # Few enough ticks that plotext never has to drop an overlapping label
        # (which label it drops is not stable from one run to the next).
        ticks = [0, 0.25, 0.5, 0.75, 1] if self.size.width >= 50 else [0, 0.5, 1]
        plt.xticks(ticks)
        plt.yticks(ticks if self.size.height >= 12 else [0, 0.5, 1])
        plt.xlabel(axes[0])
        plt.ylabel(axes[1])

    def _axes(self) -> tuple[str, str]:
        return ("FPR", "TPR") if self.kind == "roc" else ("recall", "precision")

    def _build(self, a: Analysis, ascii: bool) -> Text:
        """The baseline dotted and the reduced exact curve as a line, no marker."""
        self._configure(self._axes())
        plt = self.plt
        if self.kind == "roc":
            plt.plot([0, 1], [0, 1], marker=".", color="gray")
        else:
            prevalence = a.metrics["prevalence"].value or 0.0
            plt.plot([0, 1], [prevalence, prevalence], marker=".", color="gray")
        curve = self._curve(a)
        if curve is not None:
            xs, ys, base, _ = curve
            plt.plot(xs[base].tolist(), ys[base].tolist(), marker="*" if ascii else "braille")
        rendered = super().render()
        return rendered if isinstance(rendered, Text) else Text(str(rendered))

    def _calibrate(self) -> tuple[int, int, int, int]:
        """Where plotext puts (0, 0) and (1, 1) on this chart: (col0, col1, row0, row1),
        found by drawing two markers that appear nowhere else; -1s if not found."""
        self._configure(self._axes())
        self.plt.scatter([0], [0], marker=_LOW)
        self.plt.scatter([1], [1], marker=_HIGH)
        rendered = super().render()
        lines = (rendered.plain if isinstance(rendered, Text) else str(rendered)).split("\n")
        found = {}
        for r, line in enumerate(lines):
            for mark in (_LOW, _HIGH):
                c = line.find(mark)
                if c >= 0:
                    found[mark] = (r, c)
        if len(found) < 2:
            return (-1, -1, -1, -1)
        (row0, col0), (row1, col1) = found[_LOW], found[_HIGH]
        return (col0, col1, row0, row1)

    def _columns(self) -> int:
        return max(self.size.width - 8, 10)

    def _curve_ready(self, a: Analysis) -> bool:
        cached = self._cached
        return (
            cached is not None
            and cached[0][0] is a.curves
            and cached[0][1:] == (self.kind, self._columns())
        )

    def _prepare(self, a: Analysis) -> None:
        """Reduce ``a``'s curve in a thread, then draw (one worker per chart)."""

        key = (a.curves, self._columns())
        if (
            self._preparing is not None
            and self._preparing[0] is key[0]
            and (self._preparing[1] == key[1])
        ):
            return  # already under way
        self._preparing = key

        def work() -> None:
            self._curve(a)
            self.app.call_from_thread(self.refresh)

        self.run_worker(
            work, thread=True, group=f"curve-{self.kind}", exclusive=True, exit_on_error=False
        )

    def _curve(self, a: Analysis) -> Curve | None:
        """(x, y, reduced indices, point -> curve index) for this chart's kind.

        Computed once per sweep and width: moving the threshold only adds the
        active point and its neighbours to the reduced indices.
        """
        key = (a.curves, self.kind, self._columns())
        cached = self._cached
        if cached is not None and cached[0][0] is a.curves and cached[0][1:] == key[1:]:
            return cached[1]
        result: Curve | None = None
        if self.kind == "roc":
            pts = roc_points(a.sweep)
            if pts is not None:
                # Integer counts make the collinear test exact.
                base = reduce_curve(a.sweep.fp, a.sweep.tp, columns=self._columns())
                result = (pts[0], pts[1], base, np.arange(a.sweep.size))
        else:
            pr = precision_recall_points(a.sweep)
            if pr is not None:
                recall, precision, defined = pr
                # Points where precision is undefined (nothing predicted) are not drawn.
                xs, ys = recall[defined], precision[defined]
                rank = np.where(defined, np.cumsum(defined) - 1, -1)
                result = (xs, ys, reduce_curve(xs, ys, columns=self._columns()), rank)
        self._cached = (key, result)
        return result

    def _point(self, a: Analysis) -> tuple[float, float] | None:
        """The active point's exact (x, y), or None when it is not on the curve."""
        curve = self._curve(a)
        if curve is None:
            return None
        xs, ys, _, rank = curve
        k = int(rank[a.point])
        return (float(xs[k]), float(ys[k])) if k >= 0 else None


class ChartPanel(Vertical):
    """ROC, PR or both side by side; says why when a class is missing."""

    analysis: reactive[Analysis | None] = reactive(None)
    mode: reactive[str] = reactive("roc")

    _summarising: object = None

    def compose(self) -> ComposeResult:
        yield TextLines(id="chart-summary")
        with Horizontal(id="chart-row"):
            yield CurveChart("roc", id="roc-chart").data_bind(ChartPanel.analysis)
            yield CurveChart("pr", id="pr-chart").data_bind(ChartPanel.analysis)
            yield TextLines(id="chart-note")

    def watch_mode(self) -> None:
        self._layout()

    def watch_analysis(self) -> None:
        self._layout()
        a = self.analysis
        if (
            a is not None
            and not a.curves.summaries_ready
            and in_background(a)
            and self._summarising is not a.curves
        ):
            curves = self._summarising = a.curves

            def work() -> None:
                curves.summaries  # noqa: B018 -- computed here, off the UI thread
                self.app.call_from_thread(self._summaries_ready, curves)

            self.run_worker(
                work, thread=True, group="summaries", exclusive=True, exit_on_error=False
            )

    def _summaries_ready(self, curves: object) -> None:
        a = self.analysis
        if a is None or a.curves is not curves:
            return  # the rows changed again meanwhile; that change has its own worker
        self._layout()
        for chart in self.query(CurveChart):
            if chart.display:
                chart.replot()

    def _layout(self) -> None:
        a = self.analysis
        if a is None or not self.is_mounted:
            return
        # AUC and AP are undefined exactly when their curve cannot be drawn:
        # a class is missing (ROC) or there are no positives (PR).
        roc_ok = a.sweep.positives > 0 and a.sweep.negatives > 0
        pr_ok = a.sweep.positives > 0
        ready = a.curves.summaries_ready or not in_background(a) or not (roc_ok and pr_ok)
        show_roc = self.mode in ("roc", "both") and roc_ok
        show_pr = self.mode in ("pr", "both") and pr_ok
        for chart, show in (
            (self.query_one("#roc-chart", CurveChart), show_roc),
            (self.query_one("#pr-chart", CurveChart), show_pr),
        ):
            hidden = not chart.display
            chart.display = show
            if show and hidden:
                chart.replot()  # hidden charts skip drawing; catch up now
        notes = []
        if not ready:
            self.query_one("#chart-summary", TextLines).show(
                "ROC AUC, AP and PR trapezoid area of these rows: being computed…"
            )
            self.query_one("#chart-note", TextLines).display = False
            return
        s = a.curves.summaries
        self.query_one("#chart-summary", TextLines).show(
            f"ROC AUC (trapezoid) {s.roc_auc.value_text()} · "
            f"AP (step-weighted) {s.average_precision.value_text()} · "
            f"PR trapezoid area {s.pr_trapezoid_area.value_text()}"
        )
        if self.mode in ("roc", "both") and not roc_ok:
            notes.append(f"No ROC curve: {s.roc_auc.reason}. ROC AUC is undefined.")
        if self.mode in ("pr", "both") and not pr_ok:
            notes.append(f"No PR curve: {s.average_precision.reason}. AP is undefined.")
        note = self.query_one("#chart-note", TextLines)
        note.display = bool(notes)
        note.show("\n".join(notes))
