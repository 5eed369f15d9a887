"""Everything the explorer draws that depends on the rows but not on the threshold.

A threshold move is the common case and must be cheap; the curve-wide work
(the ROC and PR summaries, each curve reduced to what a terminal can show,
the rows binned on the score axis) is done once per set of rows and screen
width, by :func:`prepare`, in one place. The explorer runs it off the UI
thread for large data (:func:`needs_background`) and hands the result to its
widgets, which only draw it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Curves, Summaries
from threshold_lab.core.curves.pr import precision_recall_points
from threshold_lab.core.curves.reduce import reduce_curve
from threshold_lab.core.curves.roc import roc_points
from threshold_lab.core.drawing.score_bins import ScoreBins

#: Rows beyond which :func:`prepare` is worth a thread: at 10^7 rows the
#: summaries, the reductions and the binning take about a second.
BACKGROUND_ROWS = 200_000

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]


@dataclass(frozen=True, eq=False)
class CurveLine:
    """One curve ready to draw: every defined point, the few to draw, and where each
    sweep point lies on it.

    Attributes
    ----------
    x, y : (k,) the curve's defined points, in sweep order
    drawn : indices into ``x``/``y`` of the points worth drawing at the width asked for
    rank : (m,) for each sweep point, its index into ``x``/``y``; -1 where the point is
        not on the curve (precision is undefined where nothing is predicted positive)
    """

    x: FloatArray
    y: FloatArray
    drawn: IndexArray
    rank: IndexArray

    def at(self, point: int) -> tuple[float, float] | None:
        """Sweep point ``point``'s exact (x, y), or None when it is not on the curve."""
        k = int(self.rank[point])
        return (float(self.x[k]), float(self.y[k])) if k >= 0 else None


@dataclass(frozen=True, eq=False)
class OtherCurves:
    """Another model of the same rows, its curves ready to draw beside the shown one's:
    ``index`` is its place among the models (its mark goes with it)."""

    name: str
    index: int
    roc: CurveLine | None
    pr: CurveLine | None


@dataclass(frozen=True, eq=False)
class Prepared:
    """A set of rows made ready to draw at one size.

    Only the curves asked for are prepared (``kinds``: ``roc``, ``pr``); reducing
    a curve of ten million points is not free, and a chart not shown needs none.
    Of those, ``roc`` is None exactly when ROC AUC is undefined (a class is
    missing) and ``pr`` exactly when AP is (no actual positives); the summaries
    carry the reason, so a front end says why instead of drawing an empty chart.
    """

    curves: Curves
    summaries: Summaries
    roc: CurveLine | None
    pr: CurveLine | None
    bins: ScoreBins
    chart_columns: int
    strip_columns: int
    kinds: frozenset[str] = frozenset(("roc", "pr"))
    #: The other models of these rows (several score columns), drawn on the same charts.
    others: tuple[OtherCurves, ...] = ()
    #: The cumulative gains curve (kind ``gains``); None without actual positives.
    gains: CurveLine | None = None

    def fits(
        self, curves: Curves, *, chart_columns: int, strip_columns: int, kinds: frozenset[str]
    ) -> bool:
        """Whether this was prepared from ``curves`` at these widths, with these curves."""
        return (
            self.curves is curves
            and self.chart_columns == chart_columns
            and self.strip_columns == strip_columns
            and kinds <= self.kinds
        )


def needs_background(curves: Curves) -> bool:
    """Whether preparing ``curves`` takes long enough to hold the screen."""
    return curves.data.n > BACKGROUND_ROWS


def roc_line(curves: Curves, *, columns: int) -> CurveLine | None:
    """The ROC curve reduced to ``columns`` terminal columns; None without both classes."""
    sweep = curves.sweep
    points = roc_points(sweep)
    if points is None:
        return None
    # Integer counts make the collinear test exact.
    drawn = reduce_curve(sweep.fp, sweep.tp, columns=columns)
    return CurveLine(points[0], points[1], drawn, np.arange(sweep.size, dtype=np.intp))


def pr_line(curves: Curves, *, columns: int) -> CurveLine | None:
    """The PR curve's defined points reduced to ``columns`` columns; None without positives."""
    points = precision_recall_points(curves.sweep)
    if points is None:
        return None
    recall, precision, defined = points
    xs, ys = recall[defined], precision[defined]
    rank = np.where(defined, np.cumsum(defined) - 1, -1).astype(np.intp)
    return CurveLine(xs, ys, reduce_curve(xs, ys, columns=columns), rank)


def gains_line(curves: Curves, *, columns: int) -> CurveLine | None:
    """The cumulative gains curve reduced to ``columns`` columns; None without positives."""
    g = curves.gains
    if g is None:
        return None
    sweep = curves.sweep
    drawn = reduce_curve(sweep.tp + sweep.fp, sweep.tp, columns=columns)
    return CurveLine(g.x, g.y, drawn, np.arange(sweep.size, dtype=np.intp))


def prepare(
    curves: Curves,
    *,
    chart_columns: int,
    strip_columns: int,
    kinds: frozenset[str] = frozenset(("roc", "pr")),
    others: Sequence[tuple[str, int, Curves]] = (),
) -> Prepared:
    """Summaries, the curves named in ``kinds`` and the score-axis bins of ``curves``' rows,
    and the same curves of ``others`` ((name, index, curves) of other models).

    >>> from threshold_lab.core.analysis import curves_for
    >>> from threshold_lab.core.data.presets import preset
    >>> p = prepare(curves_for(preset("canonical").data), chart_columns=40, strip_columns=30)
    >>> p.summaries.roc_auc.value_text(), p.roc.at(2), p.pr.at(0)
    ('7/12 ≈ 0.5833', (0.5, 0.6666666666666666), None)
    """
    curves.auc_se  # noqa: B018 - DeLong's SE is computed here, off the UI thread
    if "reliability" in kinds:
        curves.calibration()  # the reliability bins, likewise
    return Prepared(
        curves=curves,
        summaries=curves.summaries,
        roc=roc_line(curves, columns=chart_columns) if "roc" in kinds else None,
        pr=pr_line(curves, columns=chart_columns) if "pr" in kinds else None,
        bins=ScoreBins(curves.data, strip_columns),
        chart_columns=chart_columns,
        strip_columns=strip_columns,
        kinds=kinds,
        others=tuple(
            OtherCurves(
                name,
                index,
                roc_line(c, columns=chart_columns) if "roc" in kinds else None,
                pr_line(c, columns=chart_columns) if "pr" in kinds else None,
            )
            for name, index, c in others
        ),
        gains=gains_line(curves, columns=chart_columns) if "gains" in kinds else None,
    )
