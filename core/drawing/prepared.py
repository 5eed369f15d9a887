"""Everything the explorer draws that depends on the rows but not on the threshold.

A threshold move is the common case and must be cheap; the curve-wide work
(the ROC and PR summaries, each curve reduced to what a terminal can show,
the rows binned on the score axis) is done once per set of rows and screen
width, by :func:`prepare`, in one place. The explorer runs it off the UI
thread for large data (:func:`needs_background`) and hands the result to its
widgets, which only draw it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Curves, Summaries
from threshold_lab.core.curves.pr import first_defined
from threshold_lab.core.curves.reduce import reduce_curve
from threshold_lab.core.drawing.lines import After, CurveLine, Each, Precisions, Rates, Sums
from threshold_lab.core.drawing.scaled import ScaledLine, det_line, log_roc_line
from threshold_lab.core.drawing.score_bins import ScoreBins

#: Rows beyond which :func:`prepare` is worth a thread: at 10^7 rows the
#: summaries, the reductions and the binning take about a second.
BACKGROUND_ROWS = 200_000

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]


@dataclass(frozen=True, eq=False)
class OtherCurves:
    """Another model of the same rows, its curves ready to draw beside the shown one's:
    ``index`` is its place among the models (its mark goes with it)."""

    name: str
    index: int
    roc: CurveLine | None
    pr: CurveLine | None
    det: ScaledLine | None = None
    log_roc: ScaledLine | None = None
    #: Its rows' curves (the decision chart reads its net benefit off them).
    curves: Curves | None = None

    def line(self, kind: str) -> CurveLine | None:
        """Its curve of ``kind`` (``roc``, ``pr``, ``det`` or ``log_roc``)."""
        return _of(self, kind)


def _of(p: Prepared | OtherCurves, kind: str) -> CurveLine | None:
    line: CurveLine | None = {"roc": p.roc, "pr": p.pr, "det": p.det, "log_roc": p.log_roc}.get(
        kind, getattr(p, "gains", None) if kind == "gains" else None
    )
    return line


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
    #: The DET curve (kind ``det``) and ROC with FPR on a log scale (kind ``log_roc``);
    #: None without both classes.
    det: ScaledLine | None = None
    log_roc: ScaledLine | None = None

    def line(self, kind: str) -> CurveLine | None:
        """The curve of ``kind`` (``roc``, ``pr``, ``gains``, ``det``, ``log_roc``)."""
        return _of(self, kind)

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
    if sweep.positives == 0 or sweep.negatives == 0:
        return None
    # Integer counts make the collinear test exact. The rates are read where drawn
    # (the values roc_points gives, without two arrays of every point).
    drawn = reduce_curve(sweep.fp, sweep.tp, columns=columns, rising=True)
    fpr, tpr = Rates(sweep.fp, float(sweep.negatives)), Rates(sweep.tp, float(sweep.positives))
    return CurveLine(fpr, tpr, drawn, Each(sweep.size))


def pr_line(curves: Curves, *, columns: int) -> CurveLine | None:
    """The PR curve's defined points reduced to ``columns`` columns; None without positives.
    Its recall and precision are read where drawn (the values precision_recall_points
    gives), without two arrays of every point."""
    sweep = curves.sweep
    if sweep.positives == 0:
        return None
    first = first_defined(sweep)  # precision is defined from here on (TP + FP only grows)
    tp, fp = sweep.tp[first:], sweep.fp[first:]
    recall, precision = Rates(tp, float(sweep.positives)), Precisions(tp, fp)
    drawn = reduce_curve(recall, precision, columns=columns)
    return CurveLine(recall, precision, drawn, After(first, sweep.size))


def gains_line(curves: Curves, *, columns: int) -> CurveLine | None:
    """The cumulative gains curve reduced to ``columns`` columns; None without positives."""
    g = curves.gains
    if g is None:
        return None
    sweep = curves.sweep
    drawn = reduce_curve(Sums(sweep.tp, sweep.fp), sweep.tp, columns=columns, rising=True)
    return CurveLine(g.x, g.y, drawn, Each(sweep.size))


def prepare(
    curves: Curves,
    *,
    chart_columns: int,
    strip_columns: int,
    kinds: frozenset[str] = frozenset(("roc", "pr")),
    others: Sequence[tuple[str, int, Curves]] = (),
    last: Prepared | None = None,
) -> Prepared:
    """Summaries, the curves named in ``kinds`` and the score-axis bins of ``curves``' rows,
    and the same curves of ``others`` ((name, index, curves) of other models). When
    ``curves`` came from ``last``'s rows by a one-row edit, ``last``'s bins are moved
    rather than the rows binned again (the same counts, in O(columns)).

    >>> from threshold_lab.core.analysis import curves_for
    >>> from threshold_lab.core.data.presets import preset
    >>> p = prepare(curves_for(preset("canonical").data), chart_columns=40, strip_columns=30)
    >>> p.summaries.roc_auc.value_text(), p.roc.at(2), p.pr.at(0)
    ('7/12 ≈ 0.5833', (0.5, 0.6666666666666666), None)
    """

    # The summaries and DeLong's SE (and the reliability bins) are computed beside the
    # curves' reductions, in a second thread when the rows are many: numpy lets go of
    # the interpreter in both, so two cores share them. Each is computed once either way.
    def summarise() -> None:
        curves.auc_se  # noqa: B018 - computed here, off the UI thread
        curves.summaries  # noqa: B018
        if "reliability" in kinds:
            curves.calibration()

    beside = _Beside(summarise) if needs_background(curves) else None
    if beside is None:
        summarise()
    lines = (
        roc_line(curves, columns=chart_columns) if "roc" in kinds else None,
        pr_line(curves, columns=chart_columns) if "pr" in kinds else None,
        _bins(curves, strip_columns, last),
    )
    if beside is not None:
        beside.join()
    return Prepared(
        curves=curves,
        summaries=curves.summaries,
        roc=lines[0],
        pr=lines[1],
        bins=lines[2],
        chart_columns=chart_columns,
        strip_columns=strip_columns,
        kinds=kinds,
        others=tuple(
            OtherCurves(
                name,
                index,
                roc_line(c, columns=chart_columns) if "roc" in kinds else None,
                pr_line(c, columns=chart_columns) if "pr" in kinds else None,
                det_line(c.sweep, columns=chart_columns) if "det" in kinds else None,
                log_roc_line(c.sweep, columns=chart_columns) if "log_roc" in kinds else None,
                c,
            )
            for name, index, c in others
        ),
        gains=gains_line(curves, columns=chart_columns) if "gains" in kinds else None,
        det=det_line(curves.sweep, columns=chart_columns) if "det" in kinds else None,
        log_roc=log_roc_line(curves.sweep, columns=chart_columns) if "log_roc" in kinds else None,
    )


def _bins(curves: Curves, columns: int, last: Prepared | None) -> ScoreBins:
    change = curves.origin
    if (
        change is not None
        and last is not None
        and last.curves.data is change.before
        and last.strip_columns == columns
    ):
        moved = last.bins.moved(change, curves.data)
        if moved is not None:
            return moved
    return ScoreBins(curves.data, columns)


class _Beside:
    """``work`` run in a thread of its own; :meth:`join` waits for it and raises what
    it raised."""

    def __init__(self, work: Callable[[], None]) -> None:
        self._error: BaseException | None = None

        def run() -> None:
            try:
                work()
            except BaseException as exc:  # handed to the caller of join
                self._error = exc

        self._thread = threading.Thread(target=run, name="prepare-summaries", daemon=True)
        self._thread.start()

    def join(self) -> None:
        self._thread.join()
        if self._error is not None:
            raise self._error
