"""The decision curve: net benefit by the threshold probability pt."""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt
from rich.text import Text
from textual.app import RenderResult
from threshold_lab.core.drawing.lines import CurveLine
from threshold_lab.core.drawing.scaled import cell_of
from threshold_lab.core.text.decision import useful_spans
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.state.layout import longest_fitting
from threshold_lab.tui.state.readings import DecisionBand
from threshold_lab.tui.widgets.charts.base import (
    ACTIVE_MARK,
    BAND_MARK,
    BAND_MARK_ASCII,
    CHANCE_MARK,
    legend_name,
    model_mark,
    plain_canvas,
    plot_cells,
    same_key,
)
from threshold_lab.tui.widgets.charts.roc_pr import CurveChart

#: The decision chart's treating everyone (``=``); treating no one is the baseline's
#: dashes.
TREAT_ALL_MARK = "="


def _decimals(step: float) -> int:
    """Decimals enough to tell ticks ``step`` apart: 2, or more for a small step."""
    if not step > 0 or not math.isfinite(step):
        return 2
    return max(2, min(6, math.ceil(-math.log10(step)) + 1))


class DecisionChart(CurveChart):
    """Net benefit against the threshold probability pt (acting on every case scored
    >= pt): the model's (braille, each other model's with its mark), treating everyone
    (``=``), treating no one (``-``, net benefit 0), a bootstrap's band at the grid's
    pt, and the active threshold as ``O`` on the model's curve. The y axis runs from a
    little below 0 to the prevalence (the most any net benefit can be), as dcurves
    draws it; what falls below is off the chart."""

    faint_marks = frozenset({CHANCE_MARK, TREAT_ALL_MARK})

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("decision", id=id)

    def _title(self) -> str:
        wordings = (
            "Decision curve: net benefit (NB) by threshold probability pt",
            "Decision curve: net benefit (NB) by pt",
            "Decision curve",
        )
        return longest_fitting(self.size.width - 6, *wordings)

    def _axes(self) -> tuple[str, str]:
        return ("pt (act if score >= pt)", "NB")

    def legend_to_fit(self, width: int) -> str:
        sweep = "*" if self.ascii else "\u2812\u2812"
        c, o, a = CHANCE_MARK, ACTIVE_MARK, TREAT_ALL_MARK
        b = BAND_MARK_ASCII if self.ascii else BAND_MARK
        band = f"  {b}{b} band" if self._decision_band() is not None else ""
        models = self._models_of_decision()
        names = "  ".join(f"{m} {n}" for m, n in models) if models else f"{sweep} model"
        off = self._off_chart()
        if off is not None:  # no O drawn: the legend says why instead of naming it
            long, short = off
            return longest_fitting(
                width,
                f"{names} · {a} treat all · {c} treat none{band} · {long}",
                f"{names} {a} all {c} none{band} {long}",
                f"{names} {a} all {c} none{band} {short}",
                f"{sweep} model {a} all {c} none {short}",
            )
        wordings = (
            f"{names} · {a} treat all · {c} treat none{band} · {o} active threshold",
            f"{names} {a} all {c} none{band} {o} active",
            f"{sweep} model {a} all {c} none {o} now",
        )
        return longest_fitting(width, *wordings)

    def _off_chart(self) -> tuple[str, str] | None:
        """Why no active point is drawn, long and short, or None when it is: above all
        scores (no pt acts on nothing), or its net benefit off the y axis (which runs
        from a little below 0 to the prevalence)."""
        frame = self.frame
        if frame is None:
            return None
        here, t = frame.readings.net_benefit, frame.analysis.threshold
        if t is None:
            return ("no O: above all scores", "no O: above all")
        if here is None:
            return None
        rows = plot_cells(max(self.content_region.height - 3, 1))
        low, high = self._range(rows)
        if here < low:
            return (f"O below the chart (NB ≈ {here:.3g})", "O below")
        if here > high:
            return (f"O above the chart (NB ≈ {here:.3g})", "O above")
        return None

    def _models_of_decision(self) -> list[tuple[str, str]]:
        """(mark, name) of each model drawn; empty with one model."""
        frame = self.frame
        rows = () if frame is None else frame.update.models
        if not rows:
            return []
        out = []
        for i, row in enumerate(rows):
            mark = model_mark(i, self.ascii)
            out.append(("\u2812\u2812" if mark == "braille" else mark * 2, legend_name(row.name)))
        return out

    def _range(self, rows: int) -> tuple[float, float]:
        """The y axis's ends: (a little below 0, the prevalence), 0 on a row of its own
        (a tenth of the rows below it)."""
        frame = self.frame
        series = None if frame is None else frame.update.decision_series(None, 1)
        top = series.prevalence if series is not None and series.prevalence > 0 else 0.1
        below = max(1, round((rows - 1) / 10))
        return -top * below / (rows - 1 - below), top

    def _unit(self, y: npt.NDArray[np.float64], rows: int) -> npt.NDArray[np.float64]:
        low, high = self._range(rows)
        return (y - low) / (high - low)

    def _y_ticks(self, rows: int) -> tuple[tuple[float, str], ...]:
        """Ticks at the bottom, at 0, at the prevalence (the top) and half way up, each
        on a row of its own (their value is where plotext draws it)."""
        low, high = self._range(rows)
        below = max(1, round((rows - 1) / 10))
        places = {0, below, rows - 1}
        if (rows - 1 - below) % 2 == 0 and rows - 1 - below >= 6:
            places.add(below + (rows - 1 - below) // 2)
        d = _decimals((high - low) / max(rows - 1, 1) * 2)
        out = []
        for r in sorted(places):
            u = r / (rows - 1)
            value = low + u * (high - low)
            out.append((u, f"{value:.{d}f}" if r != below else f"{0.0:.{d}f}"))
        return tuple(out)

    def _decision_band(self) -> DecisionBand | None:
        """The bootstrap's interval on NB at each grid pt: (pt, low, high), or None."""
        return None if self.frame is None else self.frame.readings.decision_band

    def _canvas(self, frame: Frame, line: CurveLine | None, cols: int, rows: int) -> list[str]:
        plt = self._bare(cols, rows)
        series = frame.update.decision_series(None, cols)
        zero = float(self._unit(np.zeros(1), rows)[0])
        plt.plot([0.0, 1.0], [zero, zero], marker=CHANCE_MARK)
        if series.weights is not None:
            keep = series.treat_all >= self._range(rows)[0]
            plt.plot(
                series.pt[keep].tolist(),
                self._unit(series.treat_all[keep], rows).tolist(),
                marker=TREAT_ALL_MARK,
            )
        band = self._decision_band()
        if band is not None:
            mark = BAND_MARK_ASCII if self.ascii else BAND_MARK
            xs, lows, highs = band
            plt.plot(xs, self._unit(np.asarray(lows), rows).tolist(), marker=mark)
            plt.plot(xs, self._unit(np.asarray(highs), rows).tolist(), marker=mark)
        prepared = frame.ready
        for other in () if prepared is None else prepared.others:
            if other.curves is None:
                continue
            theirs = frame.update.decision_series(other.curves, cols)
            if theirs.weights is not None:
                plt.plot(
                    theirs.pt.tolist(),
                    self._unit(theirs.model, rows).tolist(),
                    marker=model_mark(other.index, self.ascii),
                )
        if series.weights is not None:
            plt.plot(
                series.pt.tolist(),
                self._unit(series.model, rows).tolist(),
                marker=self._shown_mark(frame),
            )
        return plain_canvas(plt, cols, rows)

    def render(self) -> RenderResult:
        frame = self.frame
        width, height = self.content_region.width, self.content_region.height
        if frame is None or width < 12 or height < 6:
            return Text("")
        band = self._decision_band()
        key = (
            *self._look(width, height),
            frame.analysis.curves,
            frame.update.asked.harm,
            frame.update.deciding and frame.update.deciding.prevalence,
            band is not None and tuple(band[1]),
            frame.ready and frame.ready.others,
            self._off_chart(),  # the legend (drawn in, at 80x24) says why no O is drawn
        )
        if self._base is None or not same_key(self._base[1], key):
            lines, place = self._build(frame, None, width, height)
            self._base = (None, key, lines, place)
        lines, (left, top, cols, rows) = list(self._base[2]), self._base[3]
        # The model's net benefit at the active threshold, where it has one.
        here, t = frame.readings.net_benefit, frame.analysis.threshold
        self.active_cell = None
        if here is not None and t is not None:
            y = float(self._unit(np.array([here]), rows)[0])
            if 0 <= y <= 1:
                col, row = left + cell_of(t, cols), top + rows - 1 - cell_of(y, rows)
                self.active_cell = (col, row)
                marked = lines[row][:col]
                marked.append(
                    ACTIVE_MARK, style=self.get_component_rich_style("curve-chart--active")
                )
                marked.append_text(lines[row][col + 1 :])
                lines[row] = marked
        self.drawn_at(self.active_cell)
        return Text("\n").join(lines)


def decision_items(frame: Frame) -> tuple[list[str], ...]:
    """The decision chart's line: where the model is useful (a range an item, so a
    narrow line breaks between them, never inside one; each after the first says it
    is another, "and where ...", which a break keeps), the prevalence, and the harm.
    Then the same with a shorter first item, for a line too narrow for the whole."""
    d = frame.readings.decision
    if d is None:
        return ([],)
    if d.reason is not None:
        return ([f"Decision curve: undefined ({d.reason})"],)
    tail = [f"prevalence {d.prevalence:.4g}" + (" (given)" if d.given_prevalence else "")]
    if d.harm:
        tail.append(f"harm {float(d.harm):g}")
    spans = useful_spans(d)
    if not spans:
        return (["Useful nowhere: treating all or none does at least as well at every pt", *tail],)
    rest = [f"and where {span}" for span in spans[1:]]
    return (
        [f"Useful (beats treating all and none) where {spans[0]}", *rest, *tail],
        [f"Beats treating all and none where {spans[0]}", *rest, *tail],
    )
