"""The bootstrap off the UI thread: started by B, followed after every change, with
its progress shown; B again cancels it (or, once done, turns it off).

The session says which bootstrap its state wants (:meth:`Session.boot_job`); a
run that finishes for rows or a goal that have changed since is dropped. After a
threshold move only the threshold metrics' intervals are stale: the same replicates
are counted again at the new point (cheaper than the first run), starting a moment
after the keys stop, so holding an arrow key does not start a run per step.

A run asked for with B says its progress and its end on the message line; a run
that only follows a change shows its progress in the metrics panel's key hint, so
the sentence of the change that started it stays where it is.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from textual.timer import Timer
from textual.worker import Worker, get_current_worker
from threshold_lab.core.intervals import BootJob
from threshold_lab.core.intervals.bootstrap import REPLICATES, Bootstrap, Cancelled

if TYPE_CHECKING:
    from threshold_lab.tui.screens.main import MainScreen

#: Seconds after the last change before a bootstrap for the new state starts.
SETTLE = 0.3
#: At most this often the progress is shown (seconds).
PROGRESS_EVERY = 0.2


class Bootstrapper:
    """Runs the session's bootstrap in a worker thread and shows how far it is."""

    def __init__(self, screen: MainScreen) -> None:
        self.screen = screen
        self.worker: Worker[None] | None = None
        self.timer: Timer | None = None
        #: The run under way (progress from any other is stale and ignored).
        self.job: BootJob | None = None
        self.done = (0, 0)
        self.announce = False

    @property
    def running(self) -> bool:
        return self.job is not None

    def toggle(self) -> None:
        """B: start a bootstrap (intervals on), or cancel the one running, or stop."""
        s = self.screen.session
        if self.running:
            self.stop()
            self.screen.show(s.set_bootstrap("off"))
            done, total = self.done
            self.screen.say(
                f"Bootstrap cancelled after {done} of {total} replicates; B starts it again."
            )
            return
        if s.replicates is not None:
            self.stop()
            self.screen.show(s.set_bootstrap("off"))
            return
        update = s.set_bootstrap(str(REPLICATES))
        self.screen.show(update)
        self._start(announce=True)

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        if self.worker is not None:
            self.worker.cancel()
            self.worker = None
        self.job = None
        self._show_progress("")

    def follow(self) -> None:
        """After a change: start (soon) the bootstrap the new state wants, if any."""
        if self.screen.session.replicates is None:
            if self.job is not None or self.timer is not None:
                self.stop()
            return
        if self.screen.session.boot_job() is None:
            return
        if self.timer is not None:
            self.timer.stop()
        self.timer = self.screen.set_timer(SETTLE, self._start)

    def _start(self, announce: bool = False) -> None:
        """Run the bootstrap the state wants; ``announce``: asked for by B."""
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        job = self.screen.session.boot_job()
        if job is None:
            return
        if self.worker is not None:
            self.worker.cancel()
        self.job, self.done, self.announce = job, (0, job.replicates), announce
        kind = "counted again at this threshold" if job.base is not None else "starting"
        if announce:
            self.screen.say(f"Bootstrap: {job.replicates} replicates {kind} (B cancels).")
        self._show_progress(f"bootstrap 0/{job.replicates}")
        app = self.screen.app

        def work() -> None:
            worker = get_current_worker()
            last = [time.monotonic()]

            def progress(done: int, total: int) -> bool:
                if worker.is_cancelled:
                    return False
                now = time.monotonic()
                if now - last[0] >= PROGRESS_EVERY and done < total:
                    last[0] = now
                    app.call_from_thread(self._progress, job, done, total)
                return True

            try:
                result = job.run(progress)
            except Cancelled:
                return
            if not worker.is_cancelled:
                app.call_from_thread(self._arrived, job, result)

        self.worker = self.screen.run_worker(
            work, thread=True, group="bootstrap", exclusive=True, exit_on_error=False
        )

    def _show_progress(self, text: str) -> None:
        self.screen.boot_progress = text

    def _progress(self, job: BootJob, done: int, total: int) -> None:
        if job is not self.job:
            return  # a run since replaced: its count would go backwards
        self.done = (done, total)
        self._show_progress(f"bootstrap {done}/{total}")
        if self.announce:
            self.screen.say(f"Bootstrap: {done} of {total} replicates (B cancels).")

    def _arrived(self, job: BootJob, result: Bootstrap) -> None:
        if job is not self.job:
            return
        self.worker, self.job = None, None
        self._show_progress("")
        s = self.screen.session
        if not s.boot_done(job, result):
            self.follow()  # the rows changed meanwhile: their own run follows
            return
        said = self.screen.message
        self.screen.show(s.current())
        # The run's news when it was asked for; else the last action's sentence stays.
        self.screen.say(finished_words(result) if self.announce else said)


def finished_words(b: Bootstrap) -> str:
    """``Bootstrap done: 1000 replicates, seed S; AP 95% CI 0.61 to 0.93.``"""
    head = f"Bootstrap done: {b.replicates} replicates, seed {b.seed}"
    ap = b.estimate("average_precision")
    if ap is None:
        return head + "."
    if ap.interval is None:
        return f"{head}; no intervals: {ap.reason}."
    return f"{head}; AP {ap.interval.short()}; bands on the curves; B turns it off."
