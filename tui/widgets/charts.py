"""ROC and precision-recall charts of the exact sweep (plotext via textual-plotext).

Each follows textual-plotext's pattern: ``replot()`` clears, plots and refreshes,
called when the frame changes. The points come prepared from core
(:mod:`core.curves.prepared`), from the exact sweep, never a grid; the charts
only draw them.
"""

from __future__ import annotations

import math

from rich.text import Text
from textual.app import ComposeResult, RenderResult
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.message import Message
from textual.reactive import reactive
from textual_plotext import PlotextPlot

from core.curves.prepared import CurveLine, Prepared
from tui.explorer.frame import Frame
from tui.widgets.text import TextLines

CHART_MODES = ("roc", "pr", "both")

#: Calibration markers: characters no chart draws otherwise.
_LOW, _HIGH = "\u2603", "\u2602"


def _cell(value: float, cells: int) -> int:
    """The cell plotext gives ``value`` in [0, 1] on an axis of ``cells`` cells
    (its own rounding: floor of 0.5 + (cells - 1) * value, rounded to 8 places)."""
    return math.floor(round(0.5 + (cells - 1) * value, 8))


def chart_columns(panel_width: int) -> int:
    """Terminal columns a curve is reduced to in a chart panel this wide."""
    return max(panel_width - 8, 10)


def _drawable(prepared: Prepared | None, kind: str) -> bool:
    """Whether a chart of ``kind`` belongs on screen: its curve exists, or it is still
    being prepared (the chart says so); False when core found no curve to draw."""
    if prepared is None or kind not in prepared.kinds:
        return True
    return (prepared.roc if kind == "roc" else prepared.pr) is not None


class CurveChart(PlotextPlot):
    """One curve: ``kind`` is ``"roc"`` or ``"pr"``."""

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the chart panel)."""
    ascii: reactive[bool] = reactive(False)
    """Draw the curve with ``*`` rather than braille."""

    def __init__(self, kind: str, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.kind = kind
        self._base: tuple[object, object, Text, tuple[int, int, int, int]] | None = None

    def on_mount(self) -> None:
        self._follow_theme()
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._follow_theme())

    def _follow_theme(self) -> None:
        # textual-plotext's automatic theme draws black on black under the ANSI
        # themes; plotext's "clear" theme uses the terminal's own colours instead.
        self.theme = "clear" if self.app.theme.startswith("ansi") else "auto"

    def watch_frame(self) -> None:
        if self.display:  # a hidden chart is drawn when it is shown again
            self.replot()

    def _line(self, prepared: Prepared) -> CurveLine | None:
        return prepared.roc if self.kind == "roc" else prepared.pr

    def replot(self) -> None:
        """Follow the frame: new titles, and the chart is drawn again (see render)."""
        if self.frame is None:
            return
        prepared = self.frame.ready
        if self.kind == "roc":
            auc = prepared.summaries.roc_auc.value_text() if prepared else "(computing)"
            self.border_title = f"ROC · AUC (trapezoid) {auc}"
            baseline = "chance"
        elif prepared is not None:
            s = prepared.summaries
            ap, trap = s.average_precision.value_text(), s.pr_trapezoid_area.value_text()
            self.border_title = f"PR · AP (step-weighted) {ap} · trapezoid area {trap}"
            baseline = "prevalence"
        else:
            self.border_title = "PR · AP and trapezoid area (computing)"
            baseline = "prevalence"
        self.border_subtitle = f"dots: {baseline} · line: exact sweep · O: active point"
        self.refresh()

    def render(self) -> RenderResult:
        """The curve, built by plotext once per prepared curve and size, with the active
        point laid over it as ``O`` at the very cell plotext would put it.

        plotext redraws every point in Python; doing that on every key press
        was most of the time a threshold move took, so only the marker moves.
        """
        frame = self.frame
        if frame is None or self.size.width < 4 or self.size.height < 4:
            return Text("")
        prepared = frame.ready
        if prepared is None or self.kind not in prepared.kinds:
            return Text(f"Drawing the {self.kind.upper()} curve of these rows…", style="dim")
        line = self._line(prepared)
        key = (self.kind, self.size, self.app.theme, self.theme, self.ascii)
        if self._base is None or self._base[0] is not line or self._base[1] != key:
            self._base = (line, key, self._build(frame, line), self._calibrate())
        base, (col0, col1, row0, row1) = self._base[2], self._base[3]
        drawn = None if line is None else line.at(frame.analysis.point)
        if drawn is None or col0 < 0:
            return base
        x, y = drawn
        col = col0 + _cell(x, col1 - col0 + 1)
        row = row0 - _cell(y, row0 - row1 + 1)
        lines = base.split("\n", allow_blank=True)
        if not 0 <= row < len(lines) or not 0 <= col < len(lines[row]):
            return base
        marked = lines[row][:col]
        marked.append("O", style="bold")
        marked.append_text(lines[row][col + 1 :])
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
        # Three labels on a plot of three rows overlap, and which one plotext then
        # drops changes from run to run (string hashing): the ends alone there.
        height = self.size.height
        plt.yticks(ticks if height >= 12 else [0, 0.5, 1] if height >= 8 else [0, 1])
        plt.xlabel(axes[0])
        plt.ylabel(axes[1])

    def _axes(self) -> tuple[str, str]:
        return ("FPR", "TPR") if self.kind == "roc" else ("recall", "precision")

    def _build(self, frame: Frame, line: CurveLine | None) -> Text:
        """The baseline dotted and the reduced exact curve as a line, no marker."""
        self._configure(self._axes())
        plt = self.plt
        # The chance line's grey reaches 3:1 (WCAG, for marks) on the theme's
        # background: plotext's own "gray" measured 2.6:1 on the dark themes.
        chance = (150, 150, 150) if self.app.current_theme.dark else (95, 95, 95)
        if self.kind == "roc":
            plt.plot([0, 1], [0, 1], marker=".", color=chance)
        else:
            prevalence = frame.analysis.metrics["prevalence"].value or 0.0
            plt.plot([0, 1], [prevalence, prevalence], marker=".", color=chance)
        if line is not None:
            xs, ys = line.x[line.drawn].tolist(), line.y[line.drawn].tolist()
            plt.plot(xs, ys, marker="*" if self.ascii else "braille")
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
    mode: reactive[str] = reactive("roc")
    """Which curves: ``roc``, ``pr`` or ``both``."""
    ascii: reactive[bool] = reactive(False)
    """Draw with ASCII characters only."""

    def compose(self) -> ComposeResult:
        yield TextLines(id="chart-summary")
        with Horizontal(id="chart-row"):
            for kind in ("roc", "pr"):
                yield CurveChart(kind, id=f"{kind}-chart").data_bind(
                    ChartPanel.frame, ChartPanel.ascii
                )
            yield TextLines(id="chart-note")

    def on_resize(self, event: Resize) -> None:
        self._needs(event.size.width)

    def watch_mode(self) -> None:
        self._needs(self.size.width)
        self._layout()

    def _needs(self, width: int) -> None:
        kinds = frozenset(("roc", "pr")) if self.mode == "both" else frozenset((self.mode,))
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
        show_roc = self.mode in ("roc", "both") and _drawable(prepared, "roc")
        show_pr = self.mode in ("pr", "both") and _drawable(prepared, "pr")
        for chart, show in (
            (self.query_one("#roc-chart", CurveChart), show_roc),
            (self.query_one("#pr-chart", CurveChart), show_pr),
        ):
            hidden = not chart.display
            chart.display = show
            if show and hidden:
                chart.replot()  # hidden charts skip drawing; catch up now
        summary = self.query_one("#chart-summary", TextLines)
        note = self.query_one("#chart-note", TextLines)
        if prepared is None:
            summary.show("ROC AUC, AP and PR trapezoid area of these rows: being computed…")
            note.display = False
            return
        s = prepared.summaries
        summary.show(
            f"ROC AUC (trapezoid) {s.roc_auc.value_text()} · "
            f"AP (step-weighted) {s.average_precision.value_text()} · "
            f"PR trapezoid area {s.pr_trapezoid_area.value_text()}"
        )
        notes = []
        if self.mode in ("roc", "both") and not _drawable(prepared, "roc"):
            notes.append(f"No ROC curve: {s.roc_auc.reason}. ROC AUC is undefined.")
        if self.mode in ("pr", "both") and not _drawable(prepared, "pr"):
            notes.append(f"No PR curve: {s.average_precision.reason}. AP is undefined.")
        note.display = bool(notes)
        note.show("\n".join(notes))
