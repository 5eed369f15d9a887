"""ROC and precision-recall charts of the exact sweep (plotext via textual-plotext).

Each follows textual-plotext's pattern: ``replot()`` clears, plots and refreshes,
called when the analysis changes. Points come from core's sweep, never a grid.
"""

from __future__ import annotations

import numpy as np
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.widgets import Static
from textual_plotext import PlotextPlot

from core.analysis import Analysis
from core.ranking import precision_recall_points, roc_points
from core.reduce import reduce_curve

CHART_MODES = ("roc", "pr", "both")


class CurveChart(PlotextPlot):
    """One curve: ``kind`` is ``"roc"`` or ``"pr"``."""

    analysis: reactive[Analysis | None] = reactive(None)

    def __init__(self, kind: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.kind = kind

    def on_mount(self) -> None:
        self._follow_theme()
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self._follow_theme())

    def _follow_theme(self) -> None:
        # textual-plotext's automatic theme draws black on black under the ANSI
        # themes; plotext's "clear" theme uses the terminal's own colours instead.
        self.theme = "clear" if self.app.theme.startswith("ansi") else "auto"

    def watch_analysis(self) -> None:
        self.replot()

    def replot(self) -> None:
        a = self.analysis
        if a is None:
            return
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
        if self.kind == "roc":
            self._roc(a)
        else:
            self._pr(a)
        self.refresh()

    def _columns(self) -> int:
        return max(self.size.width - 8, 10)

    def _roc(self, a: Analysis) -> None:
        auc = a.curves.summaries.roc_auc
        self.border_title = f"ROC · AUC (trapezoid) {auc.value_text()}"
        pts = roc_points(a.sweep)
        if pts is not None:
            fpr, tpr = pts
            k = a.point
            # Integer counts make the collinear test exact; the active point stays.
            idx = reduce_curve(
                a.sweep.fp, a.sweep.tp, columns=self._columns(), keep=(k - 1, k, k + 1)
            )
            active = int(np.searchsorted(idx, k))
            self._draw("chance", ("FPR", "TPR"), ([0, 1], [0, 1]), fpr[idx], tpr[idx], active)

    def _pr(self, a: Analysis) -> None:
        s = a.curves.summaries
        ap, trap = s.average_precision.value_text(), s.pr_trapezoid_area.value_text()
        self.border_title = f"PR · AP (step-weighted) {ap} · trapezoid area {trap}"
        pts = precision_recall_points(a.sweep)
        if pts is not None:
            recall, precision, defined = pts
            prevalence = a.metrics["prevalence"].value or 0.0
            # Points where precision is undefined (nothing predicted) are not drawn.
            xs, ys = recall[defined], precision[defined]
            k = int(np.count_nonzero(defined[: a.point + 1])) - 1 if defined[a.point] else -1
            idx = reduce_curve(xs, ys, columns=self._columns(), keep=(k - 1, k, k + 1))
            active = int(np.searchsorted(idx, k)) if k >= 0 else None
            baseline = ([0, 1], [prevalence, prevalence])
            self._draw("prevalence", ("recall", "precision"), baseline, xs[idx], ys[idx], active)

    def _draw(
        self,
        baseline_name: str,
        axes: tuple[str, str],
        baseline: tuple[list[float], list[float]],
        xs: np.ndarray,
        ys: np.ndarray,
        active: int | None,
    ) -> None:
        """The baseline dotted, the exact curve as a line, the active point as ``O``."""
        plt = self.plt
        self.border_subtitle = f"dots: {baseline_name} · line: exact sweep · O: active point"
        plt.xlabel(axes[0])
        plt.ylabel(axes[1])
        plt.plot(*baseline, marker=".", color="gray")
        line = "*" if getattr(self.app, "ascii", False) else "braille"
        plt.plot(xs.tolist(), ys.tolist(), marker=line)
        if active is not None:
            plt.scatter([float(xs[active])], [float(ys[active])], marker="O")


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
        s = a.curves.summaries
        # AUC and AP are undefined exactly when their curve cannot be drawn.
        roc_ok = s.roc_auc.defined
        pr_ok = s.average_precision.defined
        show_roc = self.mode in ("roc", "both") and roc_ok
        show_pr = self.mode in ("pr", "both") and pr_ok
        self.query_one("#roc-chart").display = show_roc
        self.query_one("#pr-chart").display = show_pr
        notes = []
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
