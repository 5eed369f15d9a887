"""The reliability diagram: each score bin's observed positive rate by its mean score."""

from __future__ import annotations

from rich.text import Text
from textual.app import RenderResult
from threshold_lab.core.drawing.lines import CurveLine
from threshold_lab.core.metrics.metric import format_count
from threshold_lab.core.text.calibration import brier_terms, brier_total
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.state.layout import longest_fitting
from threshold_lab.tui.widgets.charts.base import CHANCE_MARK, plain_canvas
from threshold_lab.tui.widgets.charts.roc_pr import CurveChart

#: The reliability diagram's marks: each bin's (mean score, observed rate), and its
#: interval's whisker; the perfect-calibration diagonal is the chance mark's dashes.
BIN_MARK, BIN_MARK_ASCII, WHISKER_MARK = "\u25c6", "@", ":"


class ReliabilityChart(CurveChart):
    """The reliability diagram: each bin's observed positive rate against its mean
    score (``◆``, ``@`` in ASCII), its Wilson interval as a ``:`` whisker, and the
    diagonal of perfect calibration (``-``)."""

    faint_marks = frozenset({CHANCE_MARK, WHISKER_MARK})

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("reliability", id=id)

    def _title(self) -> str:
        c = None if self.frame is None else self.frame.readings.calibration
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
        return longest_fitting(width, *wordings)

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
        c = frame.readings.calibration
        bins = () if c is None else c.bins
        for b in bins:
            if b.interval is not None:
                plt.plot(
                    [b.mean_score, b.mean_score],
                    [b.interval.low, b.interval.high],
                    marker=WHISKER_MARK,
                )
        if bins:
            plt.scatter(
                [b.mean_score for b in bins],
                [float(b.positive_rate.value or 0.0) for b in bins],
                marker=BIN_MARK_ASCII if self.ascii else BIN_MARK,
            )
        return plain_canvas(plt, cols, rows)


def reliability_items(frame: Frame) -> list[str]:
    """The reliability diagram's line: ECE, MCE, the Brier decomposition, bin sizes."""
    c = frame.readings.calibration
    if c is None or c.reason is not None:
        return ["Calibration: undefined"]
    sizes = ", ".join(format_count(b.n) for b in c.bins)
    return [
        f"ECE {c.ece.value_text()}",
        f"MCE {c.mce.value_text()}",
        f"Brier ≈ {brier_total(c)} = {brier_terms(c)} (reliability − resolution + uncertainty)",
        f"rows per bin: {sizes}",
    ]
