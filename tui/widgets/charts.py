"""ROC and precision-recall charts of the exact sweep (plotext via textual-plotext).

Each follows textual-plotext's pattern: ``replot()`` clears, plots and refreshes,
called when the analysis changes. Points come from core's sweep, never a grid.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Static
from textual_plotext import PlotextPlot

from core.analysis import Analysis
from core.ranking import precision_recall_points, roc_points

CHART_MODES = ("roc", "pr", "both")


class CurveChart(PlotextPlot):
    """One curve: ``kind`` is ``"roc"`` or ``"pr"``."""

    analysis: reactive[Analysis | None] = reactive(None)

    def __init__(self, kind: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.kind = kind

    def watch_analysis(self) -> None:
        self.replot()

    def replot(self) -> None:
        a = self.analysis
        if a is None:
            return
        plt = self.plt
        plt.clear_figure()
        plt.xlim(-0.02, 1.02)
        plt.ylim(-0.02, 1.05)
        # Few enough ticks that plotext never has to drop an overlapping label
        # (which label it drops is not stable from one run to the next).
        ticks = [0, 0.25, 0.5, 0.75, 1] if self.size.width >= 50 else [0, 0.5, 1]
        plt.xticks(ticks)
        plt.yticks(ticks if self.size.height >= 12 else [0, 0.5, 1])
        if self.kind == "roc":
            self._roc(a)
        else:
            self._pr(a)
        self.refresh()

    def _roc(self, a: Analysis) -> None:
        plt = self.plt
        pts = roc_points(a.sweep)
        auc = a.curves.summaries.roc_auc
        self.border_title = f"ROC · AUC (trapezoid) {auc.value_text()}"
        self.border_subtitle = "dots: chance · line: exact sweep · O: active point"
        plt.xlabel("FPR")
        plt.ylabel("TPR")
        if pts is None:
            return
        fpr, tpr = pts
        plt.plot([0, 1], [0, 1], marker=".", color="gray")
        plt.plot(fpr.tolist(), tpr.tolist(), marker="braille")
        k = a.point
        plt.scatter([float(fpr[k])], [float(tpr[k])], marker="O")

    def _pr(self, a: Analysis) -> None:
        plt = self.plt
        pts = precision_recall_points(a.sweep)
        s = a.curves.summaries
        ap, trap = s.average_precision.value_text(), s.pr_trapezoid_area.value_text()
        self.border_title = f"PR · AP (step-weighted) {ap} · trapezoid area {trap}"
        self.border_subtitle = "dots: prevalence · line: exact sweep · O: active point"
        plt.xlabel("recall")
        plt.ylabel("precision")
        if pts is None:
            return
        recall, precision, defined = pts
        prevalence = a.metrics["prevalence"].value or 0.0
        plt.plot([0, 1], [prevalence, prevalence], marker=".", color="gray")
        plt.plot(
            recall[defined].tolist(),
            precision[defined].tolist(),
            marker="braille",
        )
        k = a.point
        if defined[k]:
            plt.scatter([float(recall[k])], [float(precision[k])], marker="O")


class ChartPanel(Vertical):
    """ROC, PR or both side by side; says why when a class is missing."""

    analysis: reactive[Analysis | None] = reactive(None)
    mode: reactive[str] = reactive("roc")

    def compose(self) -> ComposeResult:
        yield Static(id="chart-summary")
        with Horizontal(id="chart-row"):
            yield CurveChart("roc", id="roc-chart").data_bind(ChartPanel.analysis)
            yield CurveChart("pr", id="pr-chart").data_bind(ChartPanel.analysis)
            yield Static(id="chart-note")

    def watch_mode(self) -> None:
        self._layout()

    def watch_analysis(self) -> None:
        self._layout()

    def _layout(self) -> None:
        a = self.analysis
        if a is None or not self.is_mounted:
            return
        roc_ok = roc_points(a.sweep) is not None
        pr_ok = precision_recall_points(a.sweep) is not None
        show_roc = self.mode in ("roc", "both") and roc_ok
        show_pr = self.mode in ("pr", "both") and pr_ok
        self.query_one("#roc-chart").display = show_roc
        self.query_one("#pr-chart").display = show_pr
        notes = []
        s = a.curves.summaries
        self.query_one("#chart-summary", Static).update(
            f"ROC AUC (trapezoid) {s.roc_auc.value_text()} · "
            f"AP (step-weighted) {s.average_precision.value_text()} · "
            f"PR trapezoid area {s.pr_trapezoid_area.value_text()}"
        )
        if self.mode in ("roc", "both") and not roc_ok:
            notes.append(f"No ROC curve: {s.roc_auc.reason}. ROC AUC is undefined.")
        if self.mode in ("pr", "both") and not pr_ok:
            notes.append(f"No PR curve: {s.average_precision.reason}. AP is undefined.")
        note = self.query_one("#chart-note", Static)
        note.display = bool(notes)
        note.update("\n".join(notes))
