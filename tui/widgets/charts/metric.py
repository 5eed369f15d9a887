"""Precision, recall, F1 and queue rate against the threshold."""

from __future__ import annotations

import math
from typing import ClassVar

import numpy as np
from rich.style import Style
from rich.text import Text
from textual.app import RenderResult
from threshold_lab.core.drawing.lines import CurveLine
from threshold_lab.core.drawing.scaled import cell_of
from threshold_lab.core.drawing.series import ScoreAxis, score_axis
from threshold_lab.core.text.scores import threshold_words
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.state.layout import longest_fitting
from threshold_lab.tui.widgets.charts.base import CHANCE_MARK, LOW_MARK, plain_canvas
from threshold_lab.tui.widgets.charts.roc_pr import CurveChart

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

    def legend_to_fit(self, width: int) -> str:
        """Every mark drawn, named: the series, F1's largest, the threshold, and the
        goal's threshold and bounds only where a goal draws them."""
        marks = " · ".join(f"{m} {w}" for _, m, w, _ in SERIES)
        short = " ".join(f"{m} {w.split()[0]}" for _, m, w, _ in SERIES)
        t, g, b, k = THRESHOLD_MARK, GOAL_MARK, BOUND_MARK, PEAK_MARK
        has_goal, has_bound = self._goal_marks()
        goal_long = (f" · {g} goal's threshold" if has_goal else "") + (
            f" · {b} goal's bound" if has_bound else ""
        )
        goal_mid = (f" · {g} goal" if has_goal else "") + (f" · {b} bound" if has_bound else "")
        goal_short = (f" {g} goal" if has_goal else "") + (f" {b} bound" if has_bound else "")
        band = self._reject_threshold() is not None
        low = LOW_MARK
        wordings: tuple[str, ...] = (
            f"{marks} · {k} F1's largest · {t} threshold{goal_long}",
            f"{marks} · {k} F1's largest · {t} threshold{goal_mid}",
            f"{marks} · {k} max F1 · {t} threshold{goal_mid}",
            f"{short} {k} max {t} now{goal_short}",
            f"{short} {k} max {t} now",
            short,
            " ".join(m for _, m, _, _ in SERIES),
        )
        if band:  # a review band: | accepts, L rejects below
            wordings = (
                f"{marks} · {k} F1's largest · {t} accept threshold · {low} reject threshold"
                f"{goal_mid}",
                f"{marks} · {k} max F1 · {t} accept · {low} reject{goal_mid}",
                f"{short} {k} max {t} accept {low} reject{goal_short}",
                f"{short} {t} accept {low} reject",
                f"{t} accept {low} reject",
            )
        return longest_fitting(width, *wordings)

    def _reject_threshold(self) -> float | None:
        """A review band's reject threshold, drawn as an ``L`` line beside the active
        threshold's ``|`` where the band reviews some rows."""
        frame = self.frame
        review = None if frame is None else frame.update.review
        if frame is None or review is None or frame.own is not None:
            return None
        return review.t_low if review.index_low > review.index_high else None

    def _goal_marks(self) -> tuple[bool, bool]:
        """Whether the goal's threshold (``:``) and a bound's line (``=``) are drawn."""
        frame = self.frame
        deciding = None if frame is None else frame.update.deciding
        if deciding is None or deciding.goal is None:
            return False, False
        decision = deciding.decision
        threshold = decision is not None and decision.threshold is not None
        bound = any(
            0 <= c.bound <= 1 and c.metric != "predicted_positives"
            for c in deciding.goal.constraints
        )
        return threshold, bound

    def _title(self) -> str:
        return "Metrics against the threshold"

    def _axes(self) -> tuple[str, str]:
        return ("threshold", "value")

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
        low = self._reject_threshold()
        if low is not None:
            marks.append((low, LOW_MARK, "curve-chart--active"))
        series = {m for _, m, _, _ in SERIES}
        for t, mark, component in marks:  # the goal's threshold, then the active one
            x = 0.0 if hi == lo else min(max((t - lo) / (hi - lo), 0.0), 1.0)
            col = left + cell_of(x, cols)
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
        peak = frame.readings.f1_peak
        lo, hi = self._span
        if peak is not None and peak[1].value is not None and hi > lo:
            x = (float(ts[peak[0] - 1]) - lo) / (hi - lo)
            grid[rows - 1 - cell_of(peak[1].value, rows)][cell_of(x, cols)] = PEAK_MARK
        return ["".join(row) for row in grid]


def metric_items(frame: Frame) -> list[str]:
    """The metric chart's line: F1's largest value and where, then AP and the PR area
    (the ranking summaries of the same precision and recall)."""
    peak = frame.readings.f1_peak
    if peak is None:
        return ["largest F1: none (no actual positives, TP+FN=0)"]
    k, f1 = peak
    ts = frame.analysis.sweep.thresholds
    at = threshold_words(float(ts[k - 1]), ts)
    return [f"largest F1 (^) {f1.value_text()} at threshold {at}"]
