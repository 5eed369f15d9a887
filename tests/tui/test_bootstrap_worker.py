"""The explorer's bootstrap worker stops soon after B cancels it and
after q quits, however many replicates are left (Textual cannot stop a thread: the
run has to hear the cancel and return). The bounds are generous: the run hears it
within a fraction of a second, the tests allow five."""

from __future__ import annotations

import asyncio
import time

import numpy as np
from textual.message import Message
from textual.worker import WorkerState
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.session.session import Session
from threshold_lab.tui.app import ThresholdLab
from threshold_lab.tui.explorer.bootstrapping import Bootstrapper

from tests.tui.helpers import SIZE

#: Seconds the tests allow for what takes a fraction of one.
GENEROUS = 5.0


def _big_app() -> ThresholdLab:
    """300,000 continuous scores with B = 100,000 asked for: minutes of work, started
    once the rows settle."""
    rng = np.random.default_rng(3)
    n = 300_000
    y = (rng.random(n) < 0.3).astype(int)
    session = Session(make_dataset(rng.random(n) + y * 0.5, y), 0.7, source="big")
    session.set_bootstrap("100000")
    return ThresholdLab(session, theme="textual-dark")


async def _counting(app: ThresholdLab, pilot) -> Bootstrapper:  # type: ignore[no-untyped-def]
    """Wait until the bootstrap is under way and has counted some replicates."""
    boot = app.main.bootstrapper
    deadline = time.monotonic() + 60
    while boot.done[0] == 0 and time.monotonic() < deadline:
        await pilot.pause(0.05)
    assert boot.running and boot.done[0] > 0
    return boot


async def test_B_stops_the_worker_and_no_result_lands_after() -> None:
    app = _big_app()
    async with app.run_test(size=SIZE) as pilot:
        boot = app.main.bootstrapper
        posted: list[Message] = []
        post = boot._post

        def recording(message: Message) -> object:
            posted.append(message)
            return post(message)

        boot._post = recording  # the run below posts through it
        boot.stop()
        boot.follow()  # start it again with the recording post
        await _counting(app, pilot)
        ended = boot.ended
        assert not ended.is_set()
        await pilot.press("B")
        assert await asyncio.to_thread(ended.wait, GENEROUS), "the worker ran on"
        await pilot.pause(0.5)
        assert app.main.message.startswith("Bootstrap cancelled after ")
        assert not boot.running and app.main.session.replicates is None
        assert app.main.session.sure is not None and app.main.session.sure.boot is None
        assert not any(isinstance(m, Bootstrapper.Finished) for m in posted)
        states = {w.state for w in app.workers if w.group == "bootstrap"}
        assert WorkerState.RUNNING not in states


async def test_quitting_during_a_bootstrap_does_not_wait_for_it() -> None:
    app = _big_app()
    async with app.run_test(size=SIZE) as pilot:
        boot = await _counting(app, pilot)
        ended = boot.ended
        asked = time.monotonic()
        await pilot.press("q")
    assert time.monotonic() - asked < GENEROUS
    assert await asyncio.to_thread(ended.wait, GENEROUS), "the worker outlived the app"
    assert time.monotonic() - asked < GENEROUS
