"""The charts of the exact sweep (plotext via textual-plotext) and the panel that shows
one at a time: a module per chart over a shared base (:mod:`.base`), and the panel
(:mod:`.panel`). Their names are all importable from here."""

from __future__ import annotations

from threshold_lab.tui.state.chart_modes import CHART_MODES, ChartMode, chart_mode
from threshold_lab.tui.widgets.charts.base import (
    ACTIVE_MARK,
    BAND_MARK,
    BAND_MARK_ASCII,
    CHANCE_MARK,
    LEGEND_NAME,
    MODEL_MARKS,
    OVERLAID,
    TICKS,
    Chart,
    legend_name,
    model_mark,
    plain_canvas,
    plot_cells,
    unit_ticks,
)
from threshold_lab.tui.widgets.charts.cost import (
    ACTIVE_LINE_MARK,
    FAINT_LINES,
    FAINT_MARK,
    CostChart,
)
from threshold_lab.tui.widgets.charts.decision import TREAT_ALL_MARK, DecisionChart
from threshold_lab.tui.widgets.charts.gains import PERFECT_MARK, GainsChart
from threshold_lab.tui.widgets.charts.metric import (
    BOUND_MARK,
    GOAL_MARK,
    PEAK_MARK,
    SERIES,
    THRESHOLD_MARK,
    MetricChart,
)
from threshold_lab.tui.widgets.charts.panel import ChartPanel
from threshold_lab.tui.widgets.charts.reliability import (
    BIN_MARK,
    BIN_MARK_ASCII,
    WHISKER_MARK,
    ReliabilityChart,
)
from threshold_lab.tui.widgets.charts.roc_pr import HULL_MARK, PARTIAL_MARK, CurveChart

__all__ = [
    "ACTIVE_LINE_MARK",
    "ACTIVE_MARK",
    "BAND_MARK",
    "BAND_MARK_ASCII",
    "BIN_MARK",
    "BIN_MARK_ASCII",
    "BOUND_MARK",
    "CHANCE_MARK",
    "CHART_MODES",
    "FAINT_LINES",
    "FAINT_MARK",
    "GOAL_MARK",
    "HULL_MARK",
    "LEGEND_NAME",
    "MODEL_MARKS",
    "OVERLAID",
    "PARTIAL_MARK",
    "PEAK_MARK",
    "PERFECT_MARK",
    "SERIES",
    "THRESHOLD_MARK",
    "TICKS",
    "TREAT_ALL_MARK",
    "WHISKER_MARK",
    "Chart",
    "ChartMode",
    "ChartPanel",
    "CostChart",
    "CurveChart",
    "DecisionChart",
    "GainsChart",
    "MetricChart",
    "ReliabilityChart",
    "chart_mode",
    "legend_name",
    "model_mark",
    "plain_canvas",
    "plot_cells",
    "unit_ticks",
]
