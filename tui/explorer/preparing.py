"""The main screen's one worker: prepares each set of rows for drawing.

Small data are prepared at once, so the frame that shows them is complete;
large data (:func:`threshold_lab.core.drawing.prepared.needs_background`) are prepared in a
thread while the widgets say what is being done, and the frame is handed
down again when the drawing is ready.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from textual.worker import get_current_worker
from threshold_lab.core.analysis import Curves
from threshold_lab.core.drawing.prepared import Prepared, needs_background, prepare
from threshold_lab.core.session.update import Update
from threshold_lab.tui.explorer.frame import Frame
from threshold_lab.tui.widgets.charts import ChartPanel, chart_columns
from threshold_lab.tui.widgets.score_strip import ScoreStrip, strip_columns

if TYPE_CHECKING:
    from threshold_lab.tui.screens.main import MainScreen


def prepare_for(
    curves: Curves,
    chart_columns: int,
    strip_columns: int,
    kinds: frozenset[str],
    others: Callable[[], Sequence[tuple[str, int, Curves]]] = tuple,
) -> Prepared:
    """``curves`` prepared; ``others`` gives the other models' curves (sweeping them
    when they are not yet: in the worker, when there is one)."""
    return prepare(
        curves, chart_columns=chart_columns, strip_columns=strip_columns, kinds=kinds,
        others=others(),
    )  # fmt: skip


class Preparer:
    """Keeps the screen's frame supplied with prepared data at the widgets' widths."""

    def __init__(self, screen: MainScreen) -> None:
        self.screen = screen
        # Until the widgets report their widths, assume an ordinary terminal.
        self.chart_columns = chart_columns(60)
        self.strip_columns = strip_columns(120)
        #: The curves the charts show (the chart mode's).
        self.kinds = frozenset(("roc",))
        self._last: Prepared | None = None
        self._pending: tuple[Curves, int, int, frozenset[str]] | None = None

    def _fits(self, p: Prepared | None, curves: Curves) -> bool:
        return p is not None and p.fits(
            curves,
            chart_columns=self.chart_columns,
            strip_columns=self.strip_columns,
            kinds=self.kinds,
        )

    def _others(self) -> list[tuple[str, int, Curves]]:
        """The other models' curves (each swept once, by the session)."""
        session = self.screen.session
        return [
            (m.name, i, session.model_curves(i))
            for i, m in enumerate(session.models)
            if i != session.model
        ]

    def _waiting(self) -> bool:
        """Whether another model's sweep is large and not done yet."""
        session = self.screen.session
        return any(session.model_waits(i) for i in range(len(session.models)) if i != session.model)

    def _prepare(self, curves: Curves) -> Prepared:
        return prepare_for(curves, self.chart_columns, self.strip_columns, self.kinds, self._others)

    def prepared_for(self, curves: Curves) -> Prepared | None:
        """``curves`` prepared at the current widths: at once when they are small or
        already done, else None now and a new frame when the worker is done."""
        if self._fits(self._last, curves):
            return self._last
        if not needs_background(curves) and not self._waiting():
            self._last = self._prepare(curves)
            return self._last
        self._start(curves)
        # Meanwhile the last drawing of the same rows (another width) still serves.
        last = self._last
        return last if last is not None and last.curves is curves else None

    def _start(self, curves: Curves) -> None:
        key = (curves, self.chart_columns, self.strip_columns, self.kinds)
        if self._pending is not None and all(
            a is b or a == b for a, b in zip(self._pending, key, strict=True)
        ):
            return  # already under way
        self._pending = key

        def work() -> None:
            # The widths and kinds as they were asked for: they may change meanwhile.
            done = prepare_for(*key, self._others)
            if not get_current_worker().is_cancelled:
                self.screen.app.call_from_thread(self._arrived, done)

        self.screen.run_worker(
            work, thread=True, group="prepare", exclusive=True, exit_on_error=False
        )

    def _arrived(self, prepared: Prepared) -> None:
        self._pending = None
        self._last = prepared
        frame = self.screen.frame
        if frame is not None and frame.analysis.curves is prepared.curves:
            self.screen.frame = Frame(self._models_in(frame.update), prepared)
        elif frame is not None:
            # The rows changed meanwhile; that change's own work follows.
            self.prepared_again()

    def resized(self, event: ChartPanel.Needs | ScoreStrip.Resized) -> None:
        """A widget's width or curves changed: prepare again when that changes what is
        drawn."""
        if isinstance(event, ChartPanel.Needs):
            if (event.columns, event.kinds) == (self.chart_columns, self.kinds):
                return
            self.chart_columns, self.kinds = event.columns, event.kinds
        else:
            if event.columns == self.strip_columns:
                return
            self.strip_columns = event.columns
        self.prepared_again()

    def prepared_again(self) -> None:
        """Hand the current frame down again, prepared at the current widths."""
        frame = self.screen.frame
        if frame is None:
            return
        prepared = self.prepared_for(frame.analysis.curves)
        update = self._models_in(frame.update)
        if prepared is not frame.prepared or update is not frame.update:
            self.screen.frame = Frame(update, prepared)

    def _models_in(self, update: Update) -> Update:
        """``update`` with its waiting model rows filled in where their sweeps are done
        (a worker's, whichever one did them)."""
        if not any(row.pending for row in update.models):
            return update
        rows = self.screen.session.model_rows()
        if [r.pending for r in rows] == [r.pending for r in update.models]:
            return update
        return dataclasses.replace(update, models=rows)
