"""Keys typed in one burst (a presenter typing fast, a paste, a key-macro) act as
typed one by one: those after a key that opens a dialog go to that dialog, in order.

The pilot presses a key and waits for it to be handled; a terminal does not wait.
:func:`burst` hands every key to the app at once, as the terminal's driver does.
"""

from __future__ import annotations

import asyncio
from fractions import Fraction

import pytest
from textual import events
from threshold_lab.tui.app import ThresholdLab
from threshold_lab.tui.screens.main import MainScreen

from tests.tui.helpers import SIZE, SMALL, keys, make_app


def burst(app: ThresholdLab, *typed: str | events.Paste) -> None:
    """Send each key (a key name) or paste to the app at once, as a terminal's
    driver sends what it reads."""
    driver = app._driver
    assert driver is not None
    for k in typed:
        if isinstance(k, events.Paste):
            event: events.Event = k
        else:
            char = {"space": " "}.get(k, k if len(k) == 1 else None)
            if k in ("full_stop", "slash"):
                char = {"full_stop": ".", "slash": "/"}[k]
            event = events.Key(k, char)
        event.set_sender(app)
        driver.send_message(event)


def run(
    app: ThresholdLab,
    size: tuple[int, int],
    *typed: str | events.Paste,
    first: tuple[str, ...] = (),
) -> tuple[MainScreen, object]:
    """The app's main screen and the screen on top once ``typed`` is handled (after
    ``first``, pressed one by one)."""

    async def go() -> tuple[MainScreen, object]:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await pilot.press(*first)
            burst(app, *typed)
            # Settled: no key still held, and (if the keys close every dialog) the
            # explorer on top again. A loaded machine takes more turns of the loop.
            for _ in range(400):
                await pilot.pause(0.005)
                if not app._held and app.screen is app.main and app.main.working is None:
                    break
            for _ in range(5):
                await pilot.pause()
            return app.main, app.screen

    return asyncio.run(go())


@pytest.mark.parametrize("size", [SMALL, SIZE])
def test_typed_threshold_in_one_burst(size: tuple[int, int]) -> None:
    """``t0.9`` and Enter together set 0.9 (it applied the old 0.5, and ``0``
    switched panes at 80x24)."""
    main, top = run(make_app(), size, "t", *keys("0.9"), "enter")
    assert top is main
    assert main.session.threshold == 0.9
    assert not [s for s in main.said if "pane" in s.lower()]  # no key reached the panes


def test_prevalence_in_one_burst() -> None:
    main, top = run(make_app(), SIZE, "w", *keys("0.2"), "enter")
    assert top is main
    assert main.session.prevalence == Fraction(1, 5)


@pytest.mark.parametrize("size", [SMALL, SIZE])
def test_goal_in_one_burst(size: tuple[int, int]) -> None:
    """Keys with bindings of the field's own (ctrl+u) take effect in their turn; at
    80x24 on pane 1, space and Enter are the dialog's, not the hint a row's key gives
    where no rows are shown."""
    main, top = run(make_app(), size, "d", "end", "ctrl+u", *keys("max f1"), "enter")
    assert top is main
    goal = main.session.goal
    assert goal is not None and goal.text() == "max f1"


def test_two_dialogs_and_a_pane_key_in_one_burst() -> None:
    """After the first dialog closes, the rest open the second and then switch pane."""
    typed = ["t", *keys("0.9"), "enter", "t", "end", "ctrl+u", *keys("0.3"), "enter", "1"]
    main, top = run(make_app(), SIZE, *typed)
    assert top is main
    assert main.session.threshold == 0.3
    assert main.pane == "matrix"
    assert [s for s in main.said][-3:-1] == [
        "Moved: precision from 2/3 to 1/1, recall from 2/3 to 1/3; TP -1, FP -1, TN +1, FN +1.",
        "Moved: precision from 1/1 to 2/4, recall from 1/3 to 2/3; TP +1, FP +2, TN -2, FN -1.",
    ]


def test_refused_then_cancelled_in_one_burst() -> None:
    """A refused value keeps the dialog open; Esc then cancels; ``2`` is the
    explorer's again."""
    main, top = run(make_app(), SIZE, "t", "x", "enter", "escape", "2")
    assert top is main
    assert main.session.threshold == 0.5
    assert main.pane == "chart"


def test_paste_into_an_opening_dialog() -> None:
    main, top = run(make_app(), SIZE, "t", events.Paste("0.25\nignored"), "enter")
    assert top is main
    assert main.session.threshold == 0.25


def test_confirm_dialog_takes_its_answer_in_one_burst() -> None:
    """With an edit unsaved, ``q`` asks; ``n`` typed with it is the answer (no),
    and ``2`` is the explorer's again."""
    main, top = run(make_app(), SIZE, "q", "n", "2", first=("space",))
    assert top is main
    assert main.session.dirty
    assert main.pane == "chart"
