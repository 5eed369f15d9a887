"""How soon a long bootstrap answers: its progress reports and its cancel.

B = 100,000 replicates on 10^6 rows of continuous scores, as the explorer runs it (the
session's job: the active point's metrics, AP, the PR area and the curve bands). Aim:
a report at least every half second, and a cancel or a quit obeyed within half a
second.

1. The core alone, in a thread: the longest gap between two ``progress`` calls (the
   start counted as one), and the time from a cancel (``progress`` returning False)
   to the thread returning.
2. The explorer, headless (Textual's Pilot): the longest gap between two counts the
   screen shows, the time from B's cancel to the worker's thread returning, and from
   q to the app ending and the thread returning.

Usage: python bench/bootstrap_response.py [--rows 1000000] [--replicates 100000] [--run 5]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import threading
import time

import numpy as np
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.intervals.bootstrap import Cancelled
from threshold_lab.core.session.session import Session
from threshold_lab.tui.app import ThresholdLab

SIZE = (120, 40)


def session(rows: int, replicates: int) -> Session:
    """10^6 continuous scores, 10% positives, with a bootstrap of ``replicates`` asked for."""
    rng = np.random.default_rng(1)
    labels = rng.random(rows) < 0.1
    s = Session(make_dataset(rng.normal(labels * 1.5, 1.0), labels), 1.0, source="bench")
    s.set_bootstrap(str(replicates))
    return s


def core(s: Session, run: float) -> None:
    """The core's reports and cancel, with no screen in between."""
    job = s.boot_job()
    assert job is not None
    stop = threading.Event()
    calls: list[tuple[float, int]] = []

    def progress(done: int, total: int) -> bool:
        calls.append((time.monotonic(), done))
        return not stop.is_set()

    def work() -> None:
        with contextlib.suppress(Cancelled):
            job.run(progress)

    start = time.monotonic()
    thread = threading.Thread(target=work)
    thread.start()
    time.sleep(run)
    stop.set()
    asked = time.monotonic()
    thread.join()
    stopped = time.monotonic() - asked
    times = [start] + [t for t, _ in calls]
    gap = float(np.diff(times).max())
    done = calls[-1][1] if calls else 0
    print(f"core, B = {job.replicates:,}: {len(calls)} reports in {run:.0f} s, {done} replicates")
    print(f"  longest gap between reports: {gap:.3f} s (aim <= 0.5 s)")
    print(f"  cancel to the thread returning: {stopped:.3f} s (aim <= 0.5 s)")


async def explorer(s: Session, run: float) -> None:
    """The explorer's shown counts, B's cancel and q's quit, on a settled screen (the
    first frames at 10^6 rows are seconds of work of their own)."""
    replicates = s.replicates
    s.set_bootstrap("off")
    app = ThresholdLab(s, theme="textual-dark")
    counts: list[float] = []
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(3):
            await app.workers.wait_for_complete()
            await pilot.pause(0.4)
        boot = app.main.bootstrapper
        shown = boot.counted

        def counted(job: object, done: int, total: int) -> None:
            counts.append(time.monotonic())
            shown(job, done, total)  # type: ignore[arg-type]

        boot.counted = counted  # type: ignore[method-assign]
        s.set_bootstrap(str(replicates))  # as --bootstrap asks for it
        boot.follow()
        while not boot.running:  # it starts once the change settles
            await pilot.pause(0.01)
        start = time.monotonic()
        await pilot.pause(run)
        ended = boot.ended
        asked = time.monotonic()
        await pilot.press("B")
        await asyncio.to_thread(ended.wait, 30)
        cancelled = time.monotonic() - asked
        print(f"explorer: {len(counts)} counts shown in {run:.0f} s; {app.main.message}")
        first = counts[0] - start if counts else math.inf
        gap = float(np.diff([*counts, asked]).max()) if counts else math.inf
        print(f"  the run's start to the first count shown: {first:.3f} s")
        print(f"  longest gap between counts shown after it: {gap:.3f} s (aim <= 0.5 s)")
        print(f"  B (cancel) to the worker's thread returning: {cancelled:.3f} s (aim <= 0.5 s)")
        await pilot.press("B")  # a new run (1000 replicates, ~a minute here)
        await pilot.pause(run / 2)
        ended = boot.ended
        assert not ended.is_set()
        asked = time.monotonic()
        await pilot.press("q")
    quit_app = time.monotonic() - asked
    await asyncio.to_thread(ended.wait, 30)
    quit_thread = time.monotonic() - asked
    print(f"  q to the app ending: {quit_app:.3f} s; to the thread returning: {quit_thread:.3f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**6)
    parser.add_argument("--replicates", type=int, default=100_000)
    parser.add_argument("--run", type=float, default=5.0, help="seconds before the cancel")
    args = parser.parse_args()
    core(session(args.rows, args.replicates), args.run)
    asyncio.run(explorer(session(args.rows, args.replicates), args.run))


if __name__ == "__main__":
    main()
