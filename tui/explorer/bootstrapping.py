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

Textual cannot stop a thread: a cancelled worker's thread runs on until its work
returns, and at quit the process waits for it (asyncio's default executor is joined on
the way out). So the run asks the worker whether it is cancelled at every report of
the core's (:class:`~threshold_lab.core.intervals.bootstrap.Pace`: by the clock, a
tenth of a second apart between small pieces of work) and returns at once when it is:
B's cancel and q's quit both land within a fraction of a second, whatever B is.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from textual.message import Message
from textual.timer import Timer
from textual.worker import get_current_worker
from threshold_lab.core.intervals import BootJob
from threshold_lab.core.intervals.bootstrap import REPLICATES, Bootstrap, Cancelled
from threshold_lab.tui.state.host import Host

#: Seconds after the last change before a bootstrap for the new state starts.
SETTLE = 0.3
#: At most this often the progress is shown (seconds).
PROGRESS_EVERY = 0.2

#: Starts ``work`` in a thread worker of the screen's (cancelling the one before) and
#: gives a way to cancel it.
Start = Callable[[Callable[[], None]], Callable[[], object]]


class Bootstrapper:
    """Runs the session's bootstrap in a worker thread; the worker posts
    :class:`Progress` and :class:`Finished`, which the screen hands back here."""

    class Progress(Message):
        """How far the run under way is (``bootstrap 450/1000``, or "" when none runs)."""

        def __init__(self, text: str) -> None:
            super().__init__()
            self.text = text

    class Counted(Message):
        """``done`` of ``total`` replicates of ``job`` are drawn."""

        def __init__(self, job: BootJob, done: int, total: int) -> None:
            super().__init__()
            self.job, self.done, self.total = job, done, total

    class Finished(Message):
        """``job`` finished with ``result``."""

        def __init__(self, job: BootJob, result: Bootstrap) -> None:
            super().__init__()
            self.job, self.result = job, result

    def __init__(self, host: Host, start: Start, post: Callable[[Message], object]) -> None:
        self.host = host
        self._start_worker = start
        self._post = post
        self._cancel: Callable[[], object] | None = None
        self.timer: Timer | None = None
        #: The run under way (progress from any other is stale and ignored).
        self.job: BootJob | None = None
        self.done = (0, 0)
        self.announce = False
        #: Set once the last run's thread has returned (finished, cancelled or failed):
        #: what a quit or a test can wait on.
        self.ended = threading.Event()
        self.ended.set()

    @property
    def running(self) -> bool:
        return self.job is not None

    def toggle(self) -> None:
        """B: start a bootstrap (intervals on), or cancel the one running, or stop."""
        s = self.host.session
        if self.running:
            self.stop()
            self.host.run(lambda: s.set_bootstrap("off"))
            done, total = self.done
            self.host.say(
                f"Bootstrap cancelled after {done} of {total} replicates; B starts it again."
            )
            return
        if s.replicates is not None:
            self.stop()
            self.host.run(lambda: s.set_bootstrap("off"))
            return
        self.host.run(lambda: s.set_bootstrap(str(REPLICATES)))
        self._start(announce=True)

    def stop(self) -> None:
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        if self._cancel is not None:
            self._cancel()
            self._cancel = None
        self.job = None
        self._post(self.Progress(""))

    def follow(self) -> None:
        """After a change: start (soon) the bootstrap the new state wants, if any."""
        if self.host.session.replicates is None:
            if self.job is not None or self.timer is not None:
                self.stop()
            return
        if self.host.session.boot_job() is None:
            return
        if self.timer is not None:
            self.timer.stop()
        self.timer = self.host.later(SETTLE, self._start)

    def _start(self, announce: bool = False) -> None:
        """Run the bootstrap the state wants; ``announce``: asked for by B."""
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        job = self.host.session.boot_job()
        if job is None:
            return
        if self._cancel is not None:
            self._cancel()
        self.job, self.done, self.announce = job, (0, job.replicates), announce
        kind = "counted again at this threshold" if job.base is not None else "starting"
        if announce:
            self.host.say(f"Bootstrap: {job.replicates} replicates {kind} (B cancels).")
        self._post(self.Progress(f"bootstrap 0/{job.replicates}"))
        self.ended = ended = threading.Event()
        self._cancel = self._start_worker(self._work(job, ended))

    def _work(self, job: BootJob, ended: threading.Event) -> Callable[[], None]:
        """The worker's body: run ``job``, posting its count at most every
        :data:`PROGRESS_EVERY` seconds, and stop at the first report after a cancel
        (no result is posted then); ``ended`` is set when it returns."""
        post = self._post

        def work() -> None:
            worker = get_current_worker()
            last = time.monotonic()

            def progress(done: int, total: int) -> bool:
                nonlocal last
                if worker.is_cancelled:
                    return False
                now = time.monotonic()
                if now - last >= PROGRESS_EVERY and done < total:
                    last = now
                    post(self.Counted(job, done, total))  # thread-safe
                return True

            try:
                result = job.run(progress)
                if not worker.is_cancelled:
                    post(self.Finished(job, result))
            except Cancelled:
                return
            finally:
                ended.set()

        return work

    def counted(self, job: BootJob, done: int, total: int) -> None:
        """The worker's progress (from the screen's handler of :class:`Counted`)."""
        if job is not self.job:
            return  # a run since replaced: its count would go backwards
        self.done = (done, total)
        self._post(self.Progress(f"bootstrap {done}/{total}"))
        if self.announce:
            self.host.say(f"Bootstrap: {done} of {total} replicates (B cancels).")

    def finished(self, job: BootJob, result: Bootstrap, said: str) -> None:
        """The worker's result (from the screen's handler of :class:`Finished`): kept
        when it still belongs to these rows, and shown; ``said`` is the message line's
        sentence, which stays unless the run was asked for by B."""
        if job is not self.job:
            return
        self._cancel, self.job = None, None
        self._post(self.Progress(""))
        s = self.host.session
        if not s.boot_done(job, result):
            self.follow()  # the rows changed meanwhile: their own run follows
            return
        self.host.run(s.current)
        # The run's news when it was asked for; else the last action's sentence stays.
        self.host.say(finished_words(result) if self.announce else said)


def finished_words(b: Bootstrap) -> str:
    """``Bootstrap done: 1000 replicates, seed S; AP 95% CI 0.61 to 0.93.``"""
    head = f"Bootstrap done: {b.replicates} replicates, seed {b.seed}"
    ap = b.estimate("average_precision")
    if ap is None:
        return head + "."
    if ap.interval is None:
        return f"{head}; no intervals: {ap.reason}."
    return f"{head}; AP {ap.interval.short()}; bands on the curves; B turns it off."
