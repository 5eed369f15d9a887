"""Cumulative gains: the share of the actual positives captured by the share of rows."""

from __future__ import annotations

from threshold_lab.core.drawing.lines import CurveLine
from threshold_lab.core.drawing.prepared import Prepared
from threshold_lab.core.threshold import format_threshold
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.state.layout import longest_fitting
from threshold_lab.tui.widgets.charts.base import ACTIVE_MARK, CHANCE_MARK, plain_canvas
from threshold_lab.tui.widgets.charts.roc_pr import CurveChart

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
        return longest_fitting(width, *wordings)

    def _canvas(self, frame: Frame, line: CurveLine | None, cols: int, rows: int) -> list[str]:
        plt = self._bare(cols, rows)
        plt.plot([0, 1], [0, 1], marker=CHANCE_MARK)
        g = frame.readings.gains
        if g is not None:
            plt.plot([0, g.prevalence, 1], [0, 1, 1], marker=PERFECT_MARK)
        if line is not None:
            xs, ys = line.x[line.drawn].tolist(), line.y[line.drawn].tolist()
            plt.plot(xs, ys, marker="*" if self.ascii else "braille")
        return plain_canvas(plt, cols, rows)


def gains_items(frame: Frame) -> list[str]:
    """The gains chart's line: KS and lift, with what each is."""
    a = frame.analysis
    ks = frame.readings.ks
    items = []
    if ks is not None and ks.value.value is not None:
        items.append(
            f"KS = max (TPR − FPR) {ks.value.value_text()} at {format_threshold(ks.threshold)}"
        )
    lift = a.metrics["lift"]
    items.append(f"lift here {lift.value_text()}")
    return items
