"""What the explorer's helpers (dialog flows, playback, the tour, the workers) may ask of
the screen they run on: the session, a way to run an operation on it, a way to speak,
to ask with a dialog, and the clock. The main screen is the one host; the helpers never
name it, and never set its state: an operation's Update reaches the widgets only
through the screen (:meth:`Host.run`), and a worker's result as a message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from textual.screen import Screen
from textual.timer import Timer
from threshold_lab.core.session.session import Session
from threshold_lab.core.session.update import Update
from threshold_lab.tui.state.chart_modes import ChartMode
from threshold_lab.tui.state.lesson_text import LessonText


class Host(Protocol):
    """The main screen, as the explorer's helpers (dialog flows, playback, the tour,
    the workers) see it: the session, how to run an operation, speak, ask and wait."""

    @property
    def session(self) -> Session:
        """The session every operation runs on."""
        ...

    @property
    def ascii(self) -> bool:
        """ASCII only: what a helper writes is rewritten without signs."""
        ...

    @property
    def rows_return(self) -> bool:
        """The rows go back to a Python caller when the explorer closes (nothing is
        lost by quitting with edits)."""
        ...

    @property
    def web(self) -> bool:
        """The explorer is served to a web browser (``serve``): files are offered as
        downloads rather than written where it runs."""
        ...

    def deliver(self, data: bytes, name: str) -> None:
        """Offer ``data`` to the browser as a download called ``name``."""
        ...

    #: The transform last applied (the transform dialog offers it again).
    last_transform: str | None

    def run(self, change: Callable[[], Update]) -> Update | None:
        """Apply one session operation and show it; a refusal is said, nothing changes."""
        ...

    def say(self, text: str) -> None:
        """Say one sentence on the message line."""
        ...

    def ask(self, dialog: Screen[Any], done: Callable[[Any], None] | None = None) -> None:
        """Open ``dialog``; ``done`` gets its answer (None: cancelled)."""
        ...

    def ask_text(
        self,
        title: str,
        read: Callable[[str], object],
        done: Callable[[object], None],
        *,
        hint: str = "",
        enter: str = "applies",
    ) -> None:
        """Ask for one typed value: ``read`` turns the text into it or refuses it
        (InputError, said in the dialog, which stays open); ``done`` gets it."""
        ...

    def dialog_open(self) -> bool:
        """Whether a dialog (or help, or the palette) is open over the main screen."""
        ...

    def offer_sound(self, kind: str) -> None:
        """The ``kind`` curve (roc or pr) as a WAV file, as the S key gives it (its name
        asked for; served to a browser, a download)."""
        ...

    def show_view(self, pane: str, chart: ChartMode | None) -> None:
        """Show ``pane`` where one pane shows at a time (where all show, they stay), and
        ``chart`` in the chart pane, if given."""
        ...

    def select_row(self, index: int) -> None:
        """Select data row ``index`` in the row table."""
        ...

    def hide_parts(self, parts: frozenset[str]) -> None:
        """Hide the parts of the screen a lesson names (curve, metrics, matrix, sweep,
        rows) until it reveals them; the others show."""
        ...

    def show_lesson(self, text: LessonText | None) -> None:
        """Show the lesson line's heading, words and keys (None: no lesson runs)."""
        ...

    def stop_playback(self) -> None:
        """Stop sweep playback, if it runs."""
        ...

    def quit(self) -> None:
        """Close the explorer."""
        ...

    def every(self, seconds: float, tick: Callable[[], None]) -> Timer:
        """Call ``tick`` every ``seconds`` until the timer is stopped."""
        ...

    def later(self, seconds: float, tick: Callable[[], None]) -> Timer:
        """Call ``tick`` once, ``seconds`` from now."""
        ...
