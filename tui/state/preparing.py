"""The main screen's one drawing worker: prepares each set of rows for drawing.

Small data are prepared at once, so the frame that shows them is complete; large
data (:func:`threshold_lab.core.drawing.prepared.needs_background`) are prepared in a
thread while the widgets say what is being done, and the worker posts
:class:`Preparer.Ready` when the drawing is done: the screen hands the frame down
again (it is the frame's one writer; the preparer only prepares).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence

from textual.message import Message
from textual.worker import get_current_worker
from threshold_lab.core.analysis import Curves
from threshold_lab.core.drawing.prepared import Prepared, needs_background, prepare
from threshold_lab.core.session.session import Session
from threshold_lab.core.session.update import Update
from threshold_lab.tui.state.layout import chart_columns, strip_columns

#: Starts ``work`` in a thread worker of the screen's, cancelling the one before.
Start = Callable[[Callable[[], None]], object]


def prepare_for(
    curves: Curves,
    chart_columns: int,
    strip_columns: int,
    kinds: frozenset[str],
    others: Callable[[], Sequence[tuple[str, int, Curves]]] = tuple,
    last: Prepared | None = None,
) -> Prepared:
    """``curves`` prepared; ``others`` gives the other models' curves (sweeping them
    when they are not yet: in the worker, when there is one); ``last`` is the drawing
    before, whose score bins a one-row edit moves."""
    return prepare(
        curves,
        chart_columns=chart_columns,
        strip_columns=strip_columns,
        kinds=kinds,
        others=others(),
        last=last,
    )


class Preparer:
    """Keeps the screen supplied with prepared drawings at the widgets' widths."""

    class Ready(Message):
        """The worker prepared a drawing (of the rows it was asked for: the screen
        checks they are still the ones shown)."""

        def __init__(self, prepared: Prepared) -> None:
            super().__init__()
            self.prepared = prepared

    def __init__(self, session: Session, start: Start, post: Callable[[Message], object]) -> None:
        self.session = session
        self._start_worker = start
        self._post = post
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
        s = self.session
        return [(m.name, i, s.model_curves(i)) for i, m in enumerate(s.models) if i != s.model]

    def _waiting(self) -> bool:
        """Whether another model's sweep is large and not done yet."""
        s = self.session
        return any(s.model_waits(i) for i in range(len(s.models)) if i != s.model)

    def prepared_for(self, curves: Curves) -> Prepared | None:
        """``curves`` prepared at the current widths: at once when they are small or
        already done, else None now and :class:`Ready` when the worker is done."""
        if self._fits(self._last, curves):
            return self._last
        if not needs_background(curves) and not self._waiting():
            self._last = prepare_for(
                curves,
                self.chart_columns,
                self.strip_columns,
                self.kinds,
                self._others,
                self._last,
            )
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
        last = self._last

        def work() -> None:
            # The widths and kinds as they were asked for: they may change meanwhile.
            done = prepare_for(*key, self._others, last)
            if not get_current_worker().is_cancelled:
                self._post(self.Ready(done))  # thread-safe

        self._start_worker(work)

    def arrived(self, prepared: Prepared) -> None:
        """The worker's drawing is in: kept for the next frame that asks."""
        self._pending = None
        self._last = prepared

    def wanted(self, columns: int | None, kinds: frozenset[str] | None, strip: int | None) -> bool:
        """A widget's width or curves changed (the charts' ``columns`` and ``kinds``, or
        the strip's columns): whether that changes what is drawn."""
        before = (self.chart_columns, self.kinds, self.strip_columns)
        if columns is not None and kinds is not None:
            self.chart_columns, self.kinds = columns, kinds
        if strip is not None:
            self.strip_columns = strip
        return before != (self.chart_columns, self.kinds, self.strip_columns)

    def models_in(self, update: Update) -> Update:
        """``update`` with its waiting model rows filled in where their sweeps are done
        (a worker's, whichever one did them)."""
        if not any(row.pending for row in update.models):
            return update
        rows = self.session.model_rows(wait=False)
        if [r.pending for r in rows] == [r.pending for r in update.models]:
            return update
        return dataclasses.replace(update, models=rows)
