"""Row edits on large data: worked out in a thread, the screen answering at once.

From :attr:`MainScreen.LATER_ROWS` rows a delete, flip, undo or redo copies its
arrays in a thread; keys pressed meanwhile wait and then act as they would have
once the edit was shown. Here the limit is lowered to one row, so small data take
the same path, and each run is held against the same keys done at once.
"""

from __future__ import annotations

import gc
import random
import threading
import weakref

import numpy as np
import pytest
from textual import events
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.drawing import prepared
from threshold_lab.core.errors import InputError
from threshold_lab.core.session.session import Later, Session
from threshold_lab.tui.app import ThresholdLab
from threshold_lab.tui.screens.main import MainScreen

from tests.tui.helpers import SIZE


def _session(n: int = 40, seed: int = 3) -> Session:
    rng = np.random.default_rng(seed)
    labels = rng.random(n) < 0.4
    scores = np.round(rng.random(n), 2)  # ties: some rows share a point
    return Session(
        make_dataset(scores, labels, ids=[f"r{i}" for i in range(n)]), 0.5, source="generated"
    )


def _rows(s: Session) -> list[tuple[str, float, bool]]:
    d = s.data
    return [(d.row_id(i), float(d.scores[i]), bool(d.labels[i])) for i in range(d.n)]


async def _settle(pilot: object, app: ThresholdLab) -> None:
    for _ in range(200):
        await pilot.pause(0.01)  # type: ignore[attr-defined]
        if app.main.working is None and not app.main.waiting:
            return
    raise AssertionError("the edit never finished")


Played = tuple[list[tuple[str, float, bool]], object, list[str], object]


async def _play(keys: list[str], later_rows: int, monkeypatch: pytest.MonkeyPatch) -> Played:
    monkeypatch.setattr(MainScreen, "LATER_ROWS", later_rows)
    app = ThresholdLab(_session())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
        await _settle(pilot, app)
        s = app.main.session
        said = [line for line in app.main.said if not line.endswith("...")]
        return _rows(s), s.threshold, said, s.analysis.counts


async def test_held_keys_wait_their_turn_and_act_as_at_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    gate = threading.Event()
    work = Later.work

    def held(job: Later) -> None:
        gate.wait(10)
        work(job)

    monkeypatch.setattr(Later, "work", held)
    monkeypatch.setattr(MainScreen, "LATER_ROWS", 1)
    app = ThresholdLab(_session())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        m = app.main
        await pilot.press("delete")
        # The screen answered before the copy: it says what it does, nothing changed.
        assert m.message == "Removing row r0..."
        assert m.working is not None and m.session.data.n == 40
        await pilot.press("space", "delete", "ctrl+z", "right")
        assert len(m.waiting) == 4 and m.session.data.n == 40
        gate.set()
        await _settle(pilot, app)
        rows = _rows(m.session)
    # Done at once, the same keys give the same rows: r0 removed, then r1 (selected
    # in its place) flipped, then r1 removed, and that removal undone.
    monkeypatch.setattr(Later, "work", work)
    at_once = await _play(["delete", "space", "delete", "ctrl+z", "right"], 10**9, monkeypatch)
    assert rows == at_once[0]
    assert [r[0] for r in rows[:2]] == ["r1", "r2"]
    first = _session()
    assert rows[0][2] is not bool(first.data.labels[1])


@pytest.mark.parametrize("seed", range(4))
async def test_any_keys_give_what_they_give_at_once(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    keys = rng.choices(["delete", "space", "ctrl+z", "ctrl+y", "down", "up", "right"], k=24)
    threaded = await _play(keys, 1, monkeypatch)
    at_once = await _play(keys, 10**9, monkeypatch)
    assert threaded == at_once


async def test_a_refusal_in_the_thread_is_said_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(MainScreen, "LATER_ROWS", 1)
    app = ThresholdLab(
        Session(make_dataset(np.array([0.4]), np.array([True])), 0.5, source="one row")
    )
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("delete")
        await _settle(pilot, app)
        m = app.main
        assert m.message == (
            "Refused: cannot remove the only row: at least one scored example is needed."
        )
        assert m.session.data.n == 1 and not m.session.history.undos


def test_a_job_overtaken_by_another_edit_is_refused_or_done_again() -> None:
    s = _session()
    job = s.later("delete", 0)
    job.work()
    s.flip_label(3)  # another edit came first: the worked-out rows are not the state
    with pytest.raises(InputError, match="the rows changed first; nothing removed"):
        job.finish()
    assert s.data.n == 40
    undo = s.later("undo")
    undo.work()
    s.flip_label(5)
    loaded = int(_session().data.labels[5])
    # The latest step (the flip of r5) is undone instead, at once.
    assert undo.finish().message == f"Undone: row r5: actual label flipped to {1 - loaded}."
    assert int(s.data.labels[5]) == loaded and bool(s.data.labels[3]) is not bool(
        _session().data.labels[3]
    )


def test_working_out_changes_nothing_until_finished() -> None:
    s = _session()
    before, sweep = s.data, s.analysis.sweep
    job = s.later("delete", 7)
    job.work()
    assert s.data is before and s.analysis.sweep is sweep and not s.history.undos
    assert job.finish().message == "Removed row r7. Undo brings it back."
    assert s.data.n == 39 and s.history.undos
    # The sweep kept in step equals one made afresh from the rows.
    fresh = Session(s.data, 0.5, source="again").analysis.sweep
    assert np.array_equal(s.analysis.sweep.tp, fresh.tp)
    assert np.array_equal(s.analysis.sweep.fp, fresh.fp)
    assert np.array_equal(s.analysis.sweep.thresholds, fresh.thresholds)


@pytest.mark.parametrize("later_rows", [1, 10**9])
async def test_a_burst_of_keys_edits_in_key_order(
    later_rows: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Keys typed faster than the screen (a paste, tmux send-keys): each delete asks
    # for its row in the screen's queue, and ctrl+z, a key of the screen's own, waits
    # behind them there, so it undoes the second delete, not what came before.
    monkeypatch.setattr(MainScreen, "LATER_ROWS", later_rows)
    app = ThresholdLab(_session())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        for key in ("delete", "delete", "ctrl+z"):
            app.post_message(events.Key(key, None))
        await pilot.pause(0.2)
        await _settle(pilot, app)
        m = app.main
        assert [r[0] for r in _rows(m.session)[:2]] == ["r1", "r2"]
        assert m.session.data.n == 39
        said = [line for line in m.said if not line.endswith("...")]
        assert said[-3:] == [
            "Removed row r0. Undo brings it back.",
            "Removed row r1. Undo brings it back.",
            "Undone: removed row r1.",
        ]


async def test_rows_an_edit_replaced_are_freed_without_the_cycle_collector(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A finished worker sits in a reference cycle until Python's cycle collector runs;
    # its work's closure held the rows and sweeps it made, so at 10^7 rows each edit's
    # copies stayed and the next edit wrote to fresh memory. With the cycle
    # collector off, rows two edits back must be gone by reference counting alone.
    monkeypatch.setattr(MainScreen, "LATER_ROWS", 1)
    monkeypatch.setattr(prepared, "BACKGROUND_ROWS", 1)  # the drawing in its worker too
    app = ThresholdLab(_session())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        gc.collect()
        gc.disable()
        try:
            kept = []
            for key in ["delete", "ctrl+z", "delete", "ctrl+z", "delete"]:
                await pilot.press(key)
                await _settle(pilot, app)
                for _ in range(100):  # the drawing's worker too
                    if not app.workers:
                        break
                    await pilot.pause(0.01)
                history = app.main.session.history
                assert history.curves is not None
                kept.append((weakref.ref(history.data), weakref.ref(history.curves.sweep)))
            await pilot.pause(0.05)
            alive = [(d() is not None, s() is not None) for d, s in kept]
        finally:
            gc.enable()
    # The last two states may still be drawn or be the one edited from; none before them.
    assert alive[:-2] == [(False, False)] * (len(kept) - 2), alive
