"""Loading a large file in a background thread, with progress, help and cancel.

The file is read by a thread worker inside :func:`threshold_lab.core.data.progress.tracking`,
so the screen can show how many bytes are in and stop the read on Esc.
Help and quit work throughout; when the rows are in, the explorer opens.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Footer, ProgressBar, Static
from textual.worker import Worker, WorkerState
from threshold_lab.core.data import progress as progress_mod
from threshold_lab.core.data.progress import Cancelled, Progress
from threshold_lab.core.errors import InputError
from threshold_lab.core.session.opening import Opened
from threshold_lab.tui.screens.help import HelpScreen


class LoadingScreen(Screen[None]):
    """Shows the load's progress; Esc cancels it, ? shows the keys, q quits."""

    BINDINGS = [
        Binding("escape", "cancel", "Cancel load", id="load-cancel"),
        Binding("question_mark", "help", "Help", id="load-help"),
        Binding("q", "quit_app", "Quit", id="load-quit"),
    ]

    def __init__(self, name: str, load: Callable[[], Opened]) -> None:
        super().__init__()
        self.what = name
        self.load = load
        self.progress = Progress()
        self.started = time.perf_counter()
        self.outcome: Opened | str | None = None

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="loading"):
            yield Static(f"Loading {self.what}", classes="dialog-title")
            yield ProgressBar(total=100, show_eta=False, id="load-bar")
            yield Static("", id="load-phase")
            yield Static("Esc cancels; ? lists the keys; q quits.", classes="dialog-hint")
        yield Footer()

    def on_mount(self) -> None:
        self.run_worker(self._work, thread=True, exclusive=True, name="load", exit_on_error=False)
        self.set_interval(0.1, self._show)

    def _work(self) -> Opened:
        with progress_mod.tracking(self.progress):
            return self.load()

    def _show(self) -> None:
        p = self.progress
        bar = self.query_one(ProgressBar)
        if p.phase == "reading":
            bar.update(progress=100 * p.fraction)
            mib = p.done / 2**20
            of = f" of {p.total / 2**20:,.0f} MiB" if p.total else ""
            text = f"Reading: {mib:,.0f}{of}"
        else:
            bar.update(progress=100)
            text = f"Read; now {p.phase}"
        elapsed = time.perf_counter() - self.started
        note = f"\n{p.note}" if p.note else ""
        self.query_one("#load-phase", Static).update(f"{text} ({elapsed:.1f} s){note}")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.state == WorkerState.SUCCESS:
            self.outcome = worker.result
            self.app.post_message(Loaded(self))
        elif worker.state == WorkerState.ERROR:
            error = worker.error
            if isinstance(error, Cancelled):
                self.outcome = "Loading cancelled; nothing was loaded."
            elif isinstance(error, InputError):
                self.outcome = f"error: {error}"
            else:
                self.outcome = f"error: {self.what} could not be loaded ({error!r})"
            self.app.post_message(Loaded(self))

    def action_cancel(self) -> None:
        self.progress.cancel()
        self.query_one("#load-phase", Static).update("Cancelling...")

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen([b for b in self.BINDINGS if isinstance(b, Binding)]))

    def action_quit_app(self) -> None:
        self.progress.cancel()
        self.app.exit(return_code=0)


class Loaded(Message):
    """A background load ended: ``screen.outcome`` is the opened session or a sentence."""

    def __init__(self, screen: LoadingScreen) -> None:
        super().__init__()
        self.screen = screen
