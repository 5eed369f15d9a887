"""Key-mash soak: thousands of seeded random keys from the explorer's whole key set.

Each run sends ~1,500 keys drawn from every key bound on the main screen and
the row table (derived from the bindings, so a new key is soaked as soon as it
is bound), mixed with what the dialogs, the command palette, the help screen
and the preset picker take: typed text, Enter (often twice; sometimes two keys
arriving in one burst, as a terminal delivers them), Esc, and the app's own keys
(ctrl+q, which must ask over unsaved edits, and ctrl+p); quits restart the app
(see :func:`soak`).

After every step the main screen must still be in the screen stack (once, just
above Textual's default screen); every 50 keys, once the app has settled, and at
the end, the app must still be running and the status sentence (the screen's
``status_text`` and the text the ``#status`` widget renders) must equal a fresh
core computation from the session's rows and threshold. An exception inside the
app is re-raised by the Pilot when its context closes.

Keys are delivered as a terminal delivers them (a Key event posted to the app)
and the test waits only for the screen's message queues and a redraw, not for
the process to go idle as ``Pilot.press`` does: that would cost ~80 ms a key
here, two minutes a seed. So keys also arrive as a fast typist's do, and races
between a key and the messages of the one before it are part of the soak; the
playback timer runs in real time too. A failure names the seed, the source and
the last 20 keys; ``plan(seed)`` replays the key sequence.

Also here: regression tests for dialogs answered twice (two Enters that arrive
together used to pop the main screen from under the dialog) and for a dialog
mounted while the app closes.
"""

from __future__ import annotations

import os
import random
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from textual import events
from textual.app import App
from textual.command import CommandPalette
from textual.keys import REPLACED_KEYS, _character_to_key, _get_unicode_name_from_key
from textual.pilot import Pilot
from textual.screen import Screen
from threshold_lab.core.analysis import analyse
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.data.loaders import load_file
from threshold_lab.core.data.presets import PRESETS, preset
from threshold_lab.core.session.session import Session
from threshold_lab.core.text.sentences import status_sentence
from threshold_lab.tui.app import ThresholdLab
from threshold_lab.tui.screens.dialogs import ConfirmDialog, PresetPicker, ValueDialog
from threshold_lab.tui.screens.main import MainScreen
from threshold_lab.tui.widgets.row_table import RowTable

from tests.paths import DATA
from tests.tui.helpers import SIZE, SMALL, as_bindings, make_app, retype

#: Keys per seed: ``make test`` presses 100 (every seed's source and size, two state
#: checks each); ``make fuzz`` 1,500 a seed, the long
#: soak, and SOAK_KEYS=20000 in the environment soaks longer.
KEYS_PER_SEED = int(os.environ.get("SOAK_KEYS", "100"))
#: The seeds mashed (each seed's source and size follow from it): SOAK_SEEDS=11,12,13
#: in the environment mashes new ones.
SEEDS = [int(x) for x in os.environ.get("SOAK_SEEDS", "1,2,3,4,5,6,7").split(",")]
#: Check the app's state after every this many keys (and at the end).
CHECK_EVERY = 50
#: Never pressed (none now: ctrl+q asks before losing edits, and a quit restarts).
EXCLUDED: frozenset[str] = frozenset()
#: The app's own keys, bound by Textual rather than by the explorer's screens.
APP_KEYS = ["ctrl+q", "ctrl+p", "tab", "shift+tab"]

# --- the key set -------------------------------------------------------------------


def binding_keys() -> list[str]:
    """Every key bound on the main screen and the row table, from their bindings."""
    found: list[str] = []
    bindings = [*MainScreen.all_bindings(), *RowTable.BINDINGS]
    for b in bindings:
        for key in getattr(b, "key", "").split(","):
            key = key.strip()
            if key and key not in EXCLUDED and key not in found:
                found.append(key)
    return found + [k for k in APP_KEYS if k not in found]


def typed(text: str) -> list[str]:
    """Key names that type ``text``."""
    return [_character_to_key(c) for c in text]


#: What people type into the dialogs: numbers, signs, letters, and mistakes.
DIALOG_KEYS = [
    *"0123456789",
    "full_stop",
    "minus",
    "space",
    "backspace",
    "backspace",
    "home",
    "end",
    "left",
    "right",
    *"aeblovxy",
]
#: Whole values, valid and not, for the threshold, score, add-row and save dialogs.
DIALOG_VALUES = [
    "0.5",
    "0.3 1",
    "0.9 0",
    "above-all",
    "above",
    "-all",
    "1.5",
    "-0.2",
    "abc",
    "",
    "1e-3",
    "0.8",
    "rows.csv",
    "nan",
    "band: max coverage where precision >= 0.9 and npv >= 0.9",
    "band: min cost fp=1 fn=2 review=1",
    "off",
]


def palette_words() -> list[str]:
    """Words the command palette matches: preset names and every key's description."""
    words = [f"preset {name}" for name in PRESETS]
    for b in MainScreen.all_bindings():
        words.append(str(b.tooltip or b.description))
    words += ["theme", "keys", "screenshot", "quit", "undo"]
    return words


#: One step of a plan: ("press", keys) presses the keys one at a time, waiting for
#: the app between them; ("burst", keys) delivers them together, as a terminal does
#: when they arrive in one read.
Step = tuple[str, list[str]]


def plan(seed: int, n_keys: int = KEYS_PER_SEED) -> list[Step]:
    """A seeded list of steps totalling at least ``n_keys`` keys."""
    rng = random.Random(seed)
    bound = binding_keys()
    words = palette_words()
    steps: list[Step] = []
    total = 0

    def text() -> list[str]:
        return [rng.choice(DIALOG_KEYS) for _ in range(rng.randint(1, 6))]

    def value() -> list[str]:
        v = rng.choice(DIALOG_VALUES)
        return ["end", *["backspace"] * rng.randint(0, 12), *typed(v)]

    kinds: list[tuple[str, int]] = [
        ("binding", 46),
        ("text", 10),
        ("value", 6),
        ("escape", 7),
        ("enter", 7),
        ("enter2", 5),
        ("burst", 4),
        ("dialog", 5),
        ("palette", 3),
        ("help", 2),
        ("picker", 3),
        ("save", 2),
    ]
    names = [k for k, _ in kinds]
    weights = [w for _, w in kinds]
    while total < n_keys:
        kind = rng.choices(names, weights)[0]
        if kind == "binding":
            step: Step = ("press", [rng.choice(bound)])
        elif kind == "text":
            step = ("press", text())
        elif kind == "value":
            step = ("press", value())
        elif kind in ("escape", "enter"):
            step = ("press", [kind])
        elif kind == "enter2":
            step = ("press", ["enter", "enter"])
        elif kind == "burst":
            step = (
                "burst",
                rng.choice(
                    [
                        ["enter", "enter"],
                        ["y", "enter"],
                        ["enter", "escape"],
                        ["escape", "escape"],
                        ["ctrl+p", "pagedown"],
                        ["ctrl+p", "pageup", "escape"],
                        ["ctrl+q", "n"],
                    ]
                ),
            )
        elif kind == "dialog":  # open a dialog, type, apply (sometimes with two Enters)
            opener = rng.choice(["t", "enter", "a", "s"])
            ends = rng.choice([["enter"], ["enter", "enter"], ["escape"]])
            step = ("press", [opener, *value(), *ends])
        elif kind == "palette":
            word = rng.choice(words).lower()
            prefix = word[: rng.randint(2, min(len(word), 12))]
            ends = rng.choice([["enter"], ["escape"], ["enter", "enter"], ["down", "enter"]])
            step = ("press", ["ctrl+p", *typed(prefix), *ends])
        elif kind == "help":
            step = ("press", ["question_mark", *rng.choices(["down", "up", "pagedown"], k=2)])
        elif kind == "picker":
            moves = rng.choices(["up", "down"], k=rng.randint(0, 6))
            step = ("press", ["P", *moves, rng.choice(["enter", "enter", "escape"])])
        else:  # save: the default name, or a typed one; the file lands in tmp_path
            name = rng.choice([[], ["end", *["backspace"] * 40, *typed("soak.csv")]])
            step = ("press", ["s", *name, "enter", *rng.choice([[], ["y"], ["n"], ["enter"]])])
        steps.append(step)
        total += len(step[1])
    return steps


# --- sources -----------------------------------------------------------------------


def write_csv(path: Path, n: int = 10_000, seed: int = 0) -> Path:
    """``n`` rows: scores on a 0.001 grid (so many ties), labels 0/1, about 30% positive."""
    rng = np.random.default_rng(seed)
    scores = np.round(rng.random(n), 3)
    labels = (rng.random(n) < 0.3).astype(int)
    rows = zip(scores.tolist(), labels.tolist(), strict=True)
    lines = ["id,score,label", *(f"r{i},{s!r},{y}" for i, (s, y) in enumerate(rows))]
    path.write_text("\n".join(lines) + "\n")
    return path


def app_maker(source: str, tmp_path: Path) -> Callable[[], ThresholdLab]:
    """A function building a fresh explorer on ``source`` (a preset name or "csv")."""
    if source == "slices":  # an aggregated file's groups, quantised
        from threshold_lab.core.data.sources import open_source

        # A copy in tmp_path: a save goes beside the file it was opened from.
        copy = tmp_path / "slices.csv"
        copy.write_bytes((DATA / "slices.csv").read_bytes())
        src = open_source(str(copy), as_models=True)

        def session() -> Session:
            return Session(
                src.data,
                0.5,
                source=src.label,
                path=src.path,
                models=src.models,
                quantised=src.quantised,
                group_by=src.group_by,
            )

    elif source == "clinics":  # groups, each at its own threshold to start (O, M)
        from tests.argv import opened as open_argv

        copy = tmp_path / "clinics.csv"
        copy.write_bytes((DATA / "clinics.csv").read_bytes())
        argv = [
            str(copy),
            "--group",
            "site",
            "--group-goal",
            "equal_opportunity",
            "--tolerance",
            "0.05",
        ]

        def session() -> Session:
            return open_argv(argv).session

    elif source == "csv":
        path = write_csv(tmp_path / "soak-rows.csv")
        data: Dataset = load_file(path)

        def session() -> Session:
            return Session(data, 0.5, source=path.name, path=path)

    else:
        p = preset(source)

        def session() -> Session:
            return Session(
                p.data,
                p.threshold,
                source=f"preset {source}",
                models=p.models,
                multiclass=p.multiclass,
            )

    def make() -> ThresholdLab:
        # Playback starts slow; + and - in the mash change its speed like any key.
        return ThresholdLab(session(), theme="textual-dark", playback_seconds=2.0)

    return make


# --- what is checked ---------------------------------------------------------------


def shown_status(app: ThresholdLab) -> str:
    """The status sentence as the screen shows it (the one place that knows where)."""
    return str(app.main.query_one("#status").render()).strip()


def expected_status(app: ThresholdLab) -> str:
    s = app.main.session
    if s.threshold_held is not None:  # every row, each group at its own threshold: the
        # groups' counts pooled (held equal to a brute force in test_plain_groups)
        from threshold_lab.core.analysis import curves_for
        from threshold_lab.core.session.groups import PooledAnalysis

        assert s.shown.own is not None and s.row_groups is not None
        return status_sentence(
            PooledAnalysis(
                curves=curves_for(s.data),
                threshold=s.threshold,
                beta=s.beta,
                own=tuple(s.shown.own.items()),
                groups=s.row_groups,
            )
        )
    return status_sentence(analyse(s.data, s.threshold, beta=s.beta))


def check_stack(app: ThresholdLab, where: str) -> None:
    """The main screen is in the stack, once, just above Textual's default screen."""
    stack = app.screen_stack
    assert app.main in stack, f"{where}: the main screen was popped; stack {stack}"
    assert stack.count(app.main) == 1, f"{where}: stack {stack}"
    assert stack.index(app.main) == 1, f"{where}: stack {stack}"


def check(app: ThresholdLab, where: str) -> None:
    """Everything: running, a sane stack, and the status sentence the core computes."""
    assert app.is_running and app.return_code is None, f"{where}: the app stopped"
    check_stack(app, where)
    # Under a dialog too: the main screen's status still follows every change
    # (playback ticks on behind a dialog), so it is checked whatever is on top.
    want = expected_status(app)
    assert app.main.status_text == want, where
    if app.main.has_class("-hide-metrics"):  # a lesson asks for them: the counts alone
        s = app.main.session
        want = status_sentence(analyse(s.data, s.threshold, beta=s.beta), metrics=False)
    assert shown_status(app) == want, where


# --- pressing ----------------------------------------------------------------------


def key_event(app: App[None], key: str) -> events.Key:
    """The Key event a terminal delivers for ``key`` (as ``Pilot.press`` builds it)."""
    original = REPLACED_KEYS.get(key, key)
    try:
        char: str | None = unicodedata.lookup(_get_unicode_name_from_key(original))
    except KeyError:
        char = key if len(key) == 1 else None
    event = events.Key(key, char)
    event.set_sender(app)
    return event


async def press(pilot: Pilot[None], key: str) -> None:
    """Deliver one key and let the screen handle it and redraw.

    ``Pilot.press`` waits for the process to go idle twice per key (at least 40 ms,
    ~80 ms with the explorer's work), which would make 1,500 keys take two minutes;
    this waits for the screen's message queues instead, then redraws, as a terminal
    user typing fast would see it.
    """
    pilot.app.post_message(key_event(pilot.app, key))
    await pilot.pause(0)


async def burst(pilot: Pilot[None], keys: list[str]) -> None:
    """Deliver ``keys`` together, with no wait between them, then let the app settle."""
    for key in keys:
        pilot.app.post_message(key_event(pilot.app, key))
    await pilot.pause()


async def keys_in_turn(pilot: Pilot[None], keys: list[str]) -> None:
    """Press ``keys`` one after another (as :func:`press` does), then settle."""
    for key in keys:
        await press(pilot, key)
    await pilot.pause()


def exited(app: ThresholdLab) -> bool:
    return app.return_code is not None or not app.is_running


async def soak(
    make: Callable[[], ThresholdLab],
    steps: list[Step],
    label: str,
    size: tuple[int, int] = SIZE,
) -> int:
    """Run ``steps``; return how many times a quit ended the app (and a fresh one began).

    Quitting is soaked, not excluded: q (with y or Enter when there are unsaved
    edits) and the palette's quit command are legitimate ways to end the explorer,
    and the quit path is one worth mashing. When the app ends with return code 0,
    a fresh app on the same source continues with the remaining steps. Any other
    end is a crash: the Pilot re-raises the app's exception when its context closes.
    """
    last: deque[str] = deque(maxlen=20)
    sent = 0
    restarts = 0
    i = 0

    def where() -> str:
        return f"{label}, after {sent} keys; last keys {list(last)}"

    try:
        while i < len(steps):
            app = make()
            async with app.run_test(size=size) as pilot:
                await pilot.pause()
                check(app, where())
                while i < len(steps) and not exited(app):
                    how, keys = steps[i]
                    i += 1
                    before = sent
                    if how == "burst":
                        last.append("+".join(keys))
                        sent += len(keys)
                        await burst(pilot, keys)
                    else:
                        for key in keys:
                            last.append(key)
                            sent += 1
                            await press(pilot, key)
                            if exited(app):
                                break
                    if exited(app):
                        break
                    # The stack after every step (cheap, and the last keys then name the
                    # culprit); the status only every CHECK_EVERY keys, once settled.
                    check_stack(app, where())
                    if sent // CHECK_EVERY > before // CHECK_EVERY:
                        await pilot.pause()
                        if not exited(app):
                            check(app, where())
                if not exited(app):
                    await pilot.pause()
                    check(app, where())
            # The context closed without raising: the app ended, or the steps did.
            if app.return_code not in (None, 0):
                pytest.fail(f"the app ended with return code {app.return_code}: {where()}")
            if i < len(steps):
                restarts += 1
    except Exception as exc:
        raise AssertionError(f"{type(exc).__name__}: {exc}\n  at {where()}") from exc
    return restarts


SOURCES = ("canonical", "imbalanced", "csv", "deliveries", "triage", "slices", "clinics")


@pytest.mark.parametrize("seed", SEEDS)
async def test_key_mash_soak(seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Saves go to the working directory (the default name, or a typed one without a
    # folder), so that is tmp_path: nothing lands in the repository.
    monkeypatch.chdir(tmp_path)
    source = SOURCES[(seed - 1) % len(SOURCES)]
    steps = plan(seed)
    # Seeds 4 to 6 (and each sixth after) mash an 80x24 screen, where one pane shows at
    # a time.
    size = SMALL if (seed - 1) % 6 >= 3 else SIZE
    # Every third seed works out its row edits in a thread, as ten million rows do,
    # with the keys pressed meanwhile waiting their turn.
    threaded = seed % 3 == 2
    if threaded:
        monkeypatch.setattr(MainScreen, "LATER_ROWS", 1)
    start = time.perf_counter()
    label = f"seed {seed}, source {source}, {size[0]}x{size[1]}" + (
        ", edits in a thread" if threaded else ""
    )
    restarts = await soak(app_maker(source, tmp_path), steps, label, size)
    elapsed = time.perf_counter() - start
    print(
        f"seed {seed} ({source}): {sum(len(k) for _, k in steps)} keys, "
        f"{restarts} quits, {elapsed:.1f} s"
    )


def test_the_key_set_comes_from_the_bindings() -> None:
    keys = binding_keys()
    for b in [*MainScreen.all_bindings(), *as_bindings(RowTable.BINDINGS)]:
        for key in b.key.split(","):
            assert key in keys or key in EXCLUDED
    assert "ctrl+q" in keys
    assert plan(7) == plan(7)  # a seed replays exactly


# --- dialogs dismiss only themselves, and only once ----------------------------------


def on_top(app: ThresholdLab) -> bool:
    return app.main in app.screen_stack and app.screen is app.main


async def test_two_enters_together_apply_a_typed_threshold_once() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await keys_in_turn(pilot, ["t", *retype("0.7")])
        assert isinstance(app.screen, ValueDialog)
        await burst(pilot, ["enter", "enter"])
        await pilot.pause()
        assert on_top(app), app.screen_stack
        assert app.main.session.threshold == 0.7
        await pilot.press("right")  # the explorer still answers
        assert app.main.session.threshold == 0.71


async def test_two_enters_together_add_one_row() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await keys_in_turn(pilot, ["a", *retype("0.6 0")])
        await burst(pilot, ["enter", "enter"])
        await pilot.pause()
        assert on_top(app), app.screen_stack
        assert app.main.session.data.n == 6


async def test_two_enters_together_in_the_preset_picker() -> None:
    app = make_app("imbalanced")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("P")
        assert isinstance(app.screen, PresetPicker)
        await burst(pilot, ["enter", "enter"])
        await pilot.pause()
        assert on_top(app), app.screen_stack
        assert app.main.session.source == "preset canonical"


async def test_a_dialog_answered_twice_closes_only_itself() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        answers: list[object] = []
        dialogs: list[tuple[Screen[Any], Callable[[Any], object]]] = [
            (ConfirmDialog("Sure?"), lambda d: d.action_answer(True)),
            (ValueDialog("Value", "1", lambda s: s), lambda d: d.action_cancel()),
            (PresetPicker(), lambda d: d.action_cancel()),
        ]
        for dialog, answer in dialogs:
            await app.push_screen(dialog, answers.append)
            await pilot.pause()
            answer(dialog)
            answer(dialog)  # a second answer, before the first one's pop has settled
            await pilot.pause()
            answer(dialog)  # and one after: the dialog is gone, so nothing happens
            await pilot.pause()
            assert on_top(app), app.screen_stack
        assert answers == [True, None, None]


async def test_an_answer_from_a_dialog_under_another_screen_is_ignored() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        answers: list[object] = []
        below = ConfirmDialog("Below?")
        await app.push_screen(below, answers.append)
        await app.push_screen(ConfirmDialog("Above?"), answers.append)
        await pilot.pause()
        below.action_answer(True)  # not the top screen: it must not pop the one above
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog) and app.screen is not below
        assert answers == []
        await pilot.press("n")
        assert app.screen is below
        await pilot.press("y")
        assert on_top(app) and answers == [False, True]


async def test_quit_confirmed_with_an_enter_right_behind_ends_cleanly() -> None:
    # y quits; the Enter that arrives with it reaches the main screen while the app
    # closes and opens the score dialog there. It must not fail while mounting.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("space", "q")
        assert isinstance(app.screen, ConfirmDialog)
        await burst(pilot, ["y", "enter"])
        await pilot.pause()
    assert app.return_code == 0


# --- the command palette closes only itself, once ----------------------------------


async def test_two_enters_together_in_the_palette_run_its_command_once() -> None:
    # Textual's palette popped the screen below it on a second Enter (the explorer
    # itself: a blank screen, then "Can't pop screen") and ran its command twice.
    app = make_app("canonical")
    async with app.run_test(size=SIZE) as pilot:
        await keys_in_turn(pilot, ["down", "ctrl+p", *retype("flip the selected")])
        await pilot.pause(0.3)  # the palette's search runs in the background
        await burst(pilot, ["enter", "enter"])
        await pilot.pause(0.3)
        assert on_top(app), app.screen_stack
        # The command (space: flip the selected row's label) ran once, not twice.
        assert app.main.session.data.labels.tolist() == [True, True, True, False, True]
        await keys_in_turn(pilot, ["ctrl+p", "escape", "escape"])
        assert on_top(app), app.screen_stack


async def test_a_row_request_queued_before_the_palette_opened_does_nothing() -> None:
    # Enter on a row, then ctrl+p before the row table's request reached the screen:
    # the score dialog opened over the palette, and the next ctrl+p pushed a second
    # palette (DuplicateIds). A request from under another screen is dropped.
    app = make_app("canonical")
    async with app.run_test(size=SIZE) as pilot:
        await burst(pilot, ["enter", "ctrl+p"])
        await pilot.pause(0.2)
        await burst(pilot, ["ctrl+p"])
        await pilot.pause(0.2)
        assert [type(s).__name__ for s in app.screen_stack].count("OncePalette") <= 1
        await keys_in_turn(pilot, ["escape", "escape", "escape"])
        assert app.main in app.screen_stack


async def test_a_row_request_for_rows_that_changed_since_acts_on_the_row_selected_now() -> None:
    # Delete and Enter arriving together: the edit request named row 5 of the rows
    # before the delete, and opening its dialog raised IndexError (found by the tmux
    # key-mash). A request carries the rows it refers to; a stale one acts on the row
    # selected now, as the key would have once the delete was shown.
    app = make_app("canonical")
    async with app.run_test(size=SIZE) as pilot:
        await keys_in_turn(pilot, ["G"])
        table = app.main.query_one(RowTable)
        before = app.main.session.data
        await burst(pilot, ["delete", "enter"])
        await pilot.pause()
        assert app.main.session.data.n == 4
        assert isinstance(app.screen, ValueDialog)  # the edit of the row now last: s4
        assert "s4" in app.screen.title_text
        await keys_in_turn(pilot, ["escape"])
        assert on_top(app)
        table.post_message(RowTable.FlipLabel(0, before))  # row 1 of the old rows
        await pilot.pause()
        assert on_top(app), app.screen_stack
        assert app.main.session.data.labels.tolist() == [True, False, True, True]


async def test_a_key_after_the_last_screen_went_is_dropped() -> None:
    # Found by the soak (seed 1): a key still queued while the app closed reached
    # App._on_key with no screen left and raised ScreenStackError over the
    # terminal. The screens are taken away by hand here, as closing does.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        while app.screen_stack:
            app._screen_stacks[app._current_mode].pop()
        await app._dispatch_message(events.Key("x", "x"))
        await app.on_event(events.Key("enter", "\r"))


async def test_two_enters_together_in_the_theme_palette_close_only_it() -> None:
    # Found by the soak (seed 2): the palette's Theme command opened Textual's own
    # palette, which two Enters dismissed twice, popping the explorer.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        app.search_themes()
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await burst(pilot, ["enter", "enter"])
        await pilot.pause()
        assert app.main in app.screen_stack, app.screen_stack
        await keys_in_turn(pilot, ["ctrl+p", *"theme"])
        await burst(pilot, ["enter", "enter", "enter"])
        await pilot.pause()
        assert app.main in app.screen_stack, app.screen_stack


@pytest.mark.parametrize("opener", ["question_mark", "m"])
async def test_two_escapes_together_close_only_help_or_the_metrics(opener: str) -> None:
    # Found by bench/keymash_tmux.py: help and the metrics screen closed with
    # Screen.dismiss, which a second Esc turned on the explorer; and a key that
    # closed the metrics screen before it mounted left its focus query nothing.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        for keys in ([opener, "escape"], [opener, "escape", "escape"]):
            await burst(pilot, keys)
            await pilot.pause()
            assert on_top(app), app.screen_stack
        await keys_in_turn(pilot, [opener])
        await burst(pilot, ["escape", "escape"])
        await pilot.pause()
        assert on_top(app), app.screen_stack


async def test_a_metrics_screen_closed_before_it_mounted_is_no_crash() -> None:
    from rich.text import Text
    from threshold_lab.tui.screens.help import MetricsScreen

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        metrics = MetricsScreen("All metrics", Text("body"))
        app.push_screen(metrics)
        app.pop_screen()  # in the same tick, before it mounted
        await pilot.pause()
        assert on_top(app), app.screen_stack
