"""Cost curves: each point's normalised expected cost by the probability-cost PC(+)."""

from __future__ import annotations

import numpy as np
from rich.text import Text
from textual.app import RenderResult
from threshold_lab.core.curves.hull import standing
from threshold_lab.core.drawing.lines import CurveLine
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.state.layout import longest_fitting
from threshold_lab.tui.widgets.charts.base import plain_canvas, plot_cells, same_key
from threshold_lab.tui.widgets.charts.roc_pr import CurveChart

#: The cost chart's faint lines of other points (``.``), and the active point's line
#: (``o``).
FAINT_MARK, ACTIVE_LINE_MARK = ".", "o"
#: Other points' cost lines the cost chart draws at most (faint): a terminal shows a
#: few dozen before they fill it.
FAINT_LINES = 16


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
        return longest_fitting(self.size.width - 6, *wordings)

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
        return longest_fitting(width, *wordings)

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
        if self._base is None or not same_key(self._base[1], key):
            lines, place = self._build(frame, None, width, height)
            self._base = (None, key, lines, place)
        return Text("\n").join(self._base[2])


def cost_items(frame: Frame) -> tuple[list[str], ...]:
    """The cost chart's line: the hull's area, its vertices, and where the active point
    stands (a vertex and its PC(+) range, on an edge and the one PC(+) where it ties, or
    strictly inside), each an item of its own; then, for a line too narrow for that,
    the same with the standing in shorter items, so that the line breaks between them."""
    cc = frame.readings.cost
    if cc is None:
        return ([],)
    if cc.reason is not None:
        return ([f"Cost curves: undefined ({cc.reason})"],)
    here = standing(frame.analysis.sweep, cc, frame.analysis.point)
    items = [f"ROCCH AUC {cc.hull_auc.value_text()}", f"{len(cc.hull)} hull vertices"]
    if here is None:
        return (items,)
    full = [*items, f"the active point is {here.words()}"]
    if here.kind == "inside":
        short = ["the active point is never the cheapest (inside the hull)"]
    elif here.kind == "edge":
        short = ["the active point is on a hull edge, not a vertex", here.words().split(": ")[1]]
    else:
        short = [f"the active point is {here.words()}"]
    return (full, [*items, *short])
