"""The chart panel: one chart at a time (ROC and PR side by side in ``both``), the
summary line of the chart shown above it, and a note saying why a chart is missing."""

from __future__ import annotations

from collections.abc import Callable

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.message import Message
from textual.reactive import reactive
from threshold_lab.core.curves.smooth import Smoothed
from threshold_lab.core.measures import Measure
from threshold_lab.core.metrics.metric import lower_first
from threshold_lab.tui.state.chart_modes import ChartMode, chart_mode
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.state.layout import chart_columns
from threshold_lab.tui.widgets.charts.braille import CURVE_OF, BrailleStrip
from threshold_lab.tui.widgets.charts.cost import CostChart, cost_items
from threshold_lab.tui.widgets.charts.decision import DecisionChart, decision_items
from threshold_lab.tui.widgets.charts.gains import GainsChart, gains_items
from threshold_lab.tui.widgets.charts.metric import MetricChart, metric_items
from threshold_lab.tui.widgets.charts.reliability import ReliabilityChart, reliability_items
from threshold_lab.tui.widgets.charts.roc_pr import CurveChart, partial_words, scaled_items
from threshold_lab.tui.widgets.text import ItemLines, TextLines


def drawable(frame: Frame, kind: str) -> bool:
    """Whether a chart of ``kind`` belongs on screen: its curve exists, or it is still
    being prepared (the chart says so); False when core found no curve to draw."""
    prepared = frame.ready
    if prepared is None or kind not in prepared.kinds:
        return True
    if kind == "reliability":
        c = frame.readings.calibration
        return c is None or c.reason is None
    return prepared.line(kind) is not None


def boot_short(m: Measure) -> list[str]:
    """``["95% CI 0.61 to 0.93, bootstrap"]``, or nothing (no bootstrap ran)."""
    return [] if m.value is None or m.interval is None else [m.interval.short()]


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
    roc_smooth: reactive[str] = reactive("")
    """The method of the smoothed curve the ROC chart draws (z), or ""."""
    fold_curve: reactive[int] = reactive(0)
    """With folds, the fold whose curve the curve charts draw (F; 0: none chosen)."""
    braille: reactive[bool] = reactive(False)
    """The braille line above the chart (``b``), where the chart is a curve's."""

    def validate_mode(self, mode: str) -> ChartMode:
        return chart_mode(mode)

    def compose(self) -> ComposeResult:
        yield ItemLines(id="chart-summary")
        yield BrailleStrip(id="braille-line").data_bind(ChartPanel.frame, ChartPanel.mode)
        with Horizontal(id="chart-row"):
            for kind in ("roc", "pr", "det"):
                yield CurveChart(kind, id=f"{kind}-chart").data_bind(
                    ChartPanel.frame,
                    ChartPanel.ascii,
                    ChartPanel.log_fpr,
                    ChartPanel.roc_hull,
                    ChartPanel.roc_smooth,
                    ChartPanel.fold_curve,
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

    def watch_roc_smooth(self) -> None:
        self._layout()

    def watch_braille(self) -> None:
        self._layout()

    def watch_ascii(self) -> None:
        self._layout()  # braille is not ASCII: the line is hidden under --ascii

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
        show_roc = self.mode in ("roc", "both") and drawable(frame, self.roc_kind)
        show_det = self.mode == "det" and drawable(frame, "det")
        show_pr = self.mode in ("pr", "both") and drawable(frame, "pr")
        metrics = self.query_one("#metrics-chart", MetricChart)
        hidden = not metrics.display
        metrics.display = self.mode == "metrics"
        if metrics.display and hidden:
            metrics.replot()
        show_gains = self.mode == "gains" and drawable(frame, "gains")
        show_reliability = self.mode == "reliability" and drawable(frame, "reliability")
        # The decision curve is read only when its chart is shown (a pass over the
        # sweep for each of its 99 thresholds), as the cost curves are.
        decision, cost = frame.readings.decision, frame.readings.cost
        show_decision = self.mode == "decision" and decision is not None and decision.reason is None
        show_cost = self.mode == "cost" and cost is not None and cost.reason is None
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
        strip = self.query_one(BrailleStrip)
        strip.display = self.braille and self.mode in CURVE_OF and not self.ascii
        summary = self.query_one("#chart-summary", ItemLines)
        note = self.query_one("#chart-note", TextLines)
        ranking = frame.readings.ranking
        if prepared is None or ranking is None:
            summary.show_items(["ROC AUC, AP and PR trapezoid area of these rows: being computed…"])
            note.display = False
            return
        # One item per summary: a narrow panel breaks the line between them, never
        # inside "143/180 ≈ 0.7944". Each interval is an item of its own after its
        # number, so a line breaks between them rather than inside either.
        roc_auc, average_precision, area_pr = ranking
        auc = [f"ROC AUC (trapezoid) {roc_auc.metric.value_text()}"]
        if roc_auc.interval is not None:
            auc.append(f"{roc_auc.interval.short()}, DeLong")
        if frame.update.quantised is not None:
            auc.append(frame.update.quantised.words())
        auc += partial_words(frame)
        if self.roc_hull and cost is not None and cost.reason is None:
            auc.append(f"ROCCH AUC {cost.hull_auc.value_text()}")
        smoothed = frame.readings.smoothed
        if self.roc_smooth and smoothed is not None and isinstance(smoothed, Smoothed):
            auc.append(f"{smoothed.label} AUC ≈ {smoothed.auc:.3f}")
        ap = [f"AP (step-weighted) {average_precision.metric.value_text()}"]
        ap += boot_short(average_precision)
        area = [f"PR trapezoid area {area_pr.metric.value_text()}"]
        area += boot_short(area_pr)
        # The summaries of the curves shown (AP and the PR area always side by side);
        # m lists them all. The frame read only the shown mode's: KS, calibration and
        # F1's peak each cost a pass over the sweep.
        items: dict[str, Callable[[], list[str]]] = {
            "roc": lambda: auc,
            "pr": lambda: ap + area,
            "gains": lambda: gains_items(frame),
            "reliability": lambda: reliability_items(frame),
            "metrics": lambda: metric_items(frame) + ap + area,
            "det": lambda: auc + scaled_items(frame, "det"),
        }
        if self.log_fpr:
            items["roc"] = lambda: auc + scaled_items(frame, "log_roc")
            items["both"] = lambda: auc + scaled_items(frame, "log_roc") + ap + area
        # The decision and cost lines: a long line first, shorter items where it does not
        # fit on one.
        if self.mode == "decision":
            summary.show_items(*decision_items(frame))
        elif self.mode == "cost":
            summary.show_items(*cost_items(frame))
        else:
            summary.show_items(items.get(self.mode, lambda: auc + ap + area)())
        notes = []
        if self.mode == "gains" and not drawable(frame, "gains"):
            notes.append("No gains curve: there are no actual positives to capture.")
        if self.mode == "reliability" and not drawable(frame, "reliability"):
            c = frame.readings.calibration
            notes.append(f"No reliability diagram: {None if c is None else c.reason}.")
        if self.mode == "decision" and not show_decision:
            notes.append(f"No decision curve: {None if decision is None else decision.reason}.")
        if self.mode == "cost" and not show_cost:
            notes.append(f"No cost curves: {None if cost is None else cost.reason}.")
        if self.mode == "det" and not drawable(frame, "det"):
            notes.append(f"No DET curve: {lower_first(str(roc_auc.reason))}.")
        if self.mode in ("roc", "both") and not drawable(frame, self.roc_kind):
            notes.append(f"No ROC curve: {lower_first(str(roc_auc.reason))}. ROC AUC is undefined.")
        if self.mode in ("pr", "both") and not drawable(frame, "pr"):
            notes.append(
                f"No PR curve: {lower_first(str(average_precision.reason))}. AP is undefined."
            )
        note.display = bool(notes)
        note.show("\n".join(notes))
