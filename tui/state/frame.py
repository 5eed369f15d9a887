"""What the main screen hands down to its widgets: one Update and its prepared drawing."""

from __future__ import annotations

from dataclasses import dataclass

from threshold_lab.core.analysis import Analysis
from threshold_lab.core.drawing.prepared import Prepared
from threshold_lab.core.session.groups import PooledAnalysis
from threshold_lab.core.session.update import Update


@dataclass(frozen=True, eq=False)
class Frame:
    """One state of the explorer, as the widgets draw it.

    ``prepared`` is None while the curve-wide work for these rows is still being
    done off the UI thread (widgets say so), and it may have been prepared at an
    earlier width until a resize is caught up with.
    """

    update: Update
    prepared: Prepared | None = None

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
