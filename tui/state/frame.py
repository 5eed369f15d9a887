"""What the main screen hands down to its widgets: one Update, its prepared drawing,
and the statistics the widgets read of it."""

from __future__ import annotations

from dataclasses import dataclass

from threshold_lab.core.analysis import Analysis
from threshold_lab.core.drawing.prepared import Prepared
from threshold_lab.core.session.groups import PooledAnalysis
from threshold_lab.core.session.update import Update
from threshold_lab.tui.state.chart_modes import ChartMode
from threshold_lab.tui.state.readings import NOTHING_READ, Readings, read


@dataclass(frozen=True, eq=False)
class Frame:
    """One state of the explorer, as the widgets draw it.

    ``prepared`` is None while the curve-wide work for these rows is still being
    done off the UI thread (widgets say so), and it may have been prepared at an
    earlier width until a resize is caught up with. ``readings`` are the statistics
    the widgets read besides the drawing, worked out when the frame is made
    (:meth:`of`); a frame made bare reads none.
    """

    update: Update
    prepared: Prepared | None = None
    readings: Readings = NOTHING_READ

    @classmethod
    def of(
        cls,
        update: Update,
        prepared: Prepared | None,
        *,
        mode: ChartMode,
        hull: bool = False,
        smooth: str = "",
        before: Frame | None = None,
    ) -> Frame:
        """``update`` with ``prepared`` and what the widgets read of it with the chart
        panel in ``mode`` (``hull``: the ROC chart draws its hull; ``smooth``: the
        method of the smoothed curve it draws beside, or ""); ``before``, the
        frame it follows, lends what it read that still holds
        (:func:`threshold_lab.tui.state.readings.read`)."""
        frame = cls(update, prepared)
        readings = read(
            update,
            frame.ready,
            mode=mode,
            hull=hull,
            smooth=smooth,
            before=None if before is None else before.readings,
        )
        return cls(update, prepared, readings)

    @property
    def analysis(self) -> Analysis:
        return self.update.analysis

    @property
    def own(self) -> PooledAnalysis | None:
        """Every row pooled with each group at its own threshold (then no one point of
        the pooled sweep is active: panes draw no threshold mark), or None."""
        a = self.update.analysis
        return a if isinstance(a, PooledAnalysis) else None

    @property
    def ready(self) -> Prepared | None:
        """The prepared drawing when it belongs to these rows, else None."""
        p = self.prepared
        return p if p is not None and p.curves is self.update.analysis.curves else None
