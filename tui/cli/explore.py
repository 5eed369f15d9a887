"""The explorer (the default command), its plain line mode, and ``screenshot``.

Textual is imported inside the functions that build a screen, never at module
level: plain mode, like the report, runs without it.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from threshold_lab.core.data import progress
from threshold_lab.core.data.loaders import slow_reader_note
from threshold_lab.core.data.presets import PRESET_NAMES
from threshold_lab.core.errors import InputError
from threshold_lab.core.session.savefile import write_atomic
from threshold_lab.tui.cli.args import (
    PROG,
    Parser,
    SourceArgs,
    add_interval_options,
    add_meaning_options,
    add_operating_options,
    add_source_options,
    add_test_options,
)
from threshold_lab.tui.opening import Opened

if TYPE_CHECKING:
    from threshold_lab.tui.app import ThresholdLab

#: Files at least this large load in the background, with progress and cancel.
BACKGROUND_BYTES = 8 * 2**20

DESCRIPTION = (
    "Explore a binary classifier's decisions: move one threshold and watch the confusion "
    "matrix, metrics and exact ROC/PR curves follow."
)
PRESETS_EPILOG = "Presets: " + ", ".join(PRESET_NAMES)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and 0.05 <= value <= 60):
        raise argparse.ArgumentTypeError(f"{text!r} must be between 0.05 and 60 seconds")
    return value


def _size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"size {text!r} is not WIDTHxHEIGHT, such as 120x40"
        ) from None
    if not (40 <= width <= 400 and 12 <= height <= 200):
        raise argparse.ArgumentTypeError(f"size {text!r} is outside 40x12 .. 400x200")
    return width, height


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The explorer's arguments: SOURCE, --preset, --threshold, the look, the modes."""
    p.add_argument(
        "source",
        nargs="?",
        default=None,
        metavar="SOURCE",
        help="a CSV/TSV/JSON/Parquet file or a preset name (default: canonical)",
    )
    p.add_argument("--preset", default=None, metavar="NAME", help="open a built-in fixture")
    p.add_argument(
        "--threshold",
        default=None,
        metavar="T",
        help="the opening threshold: a number or above-all",
    )
    p.add_argument(
        "--theme",
        default="textual-dark",
        metavar="NAME",
        help="colour theme (default textual-dark); ansi-dark and ansi-light use the "
        "terminal's own palette. NO_COLOR in the environment turns colour off.",
    )
    p.add_argument(
        "--ascii",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="ASCII only (borders, rules, chart markers, signs); chosen automatically "
        "when the locale is not UTF-8, and --no-ascii overrides that",
    )
    p.add_argument(
        "--playback-seconds",
        type=_seconds,
        default=1.0,
        metavar="S",
        help="seconds per tie group in sweep playback (default 1; + and - change it)",
    )
    p.add_argument(
        "--demo",
        action="store_true",
        help="a scripted tour (presets, threshold moves, tie groups) with a caption per "
        "step; any key stops it",
    )
    p.add_argument(
        "--goal",
        metavar="GOAL",
        help="open at the threshold a goal chooses: 'max precision where recall >= 0.9', "
        "'min cost fp=1 fn=5', 'min cost fp=1 fn=@amount' (d sets one in the explorer)",
    )
    p.add_argument(
        "--prevalence",
        metavar="P",
        help="also show every metric at deployment prevalence P (0 < P < 1), keeping TPR and FPR",
    )
    p.add_argument(
        "--group-goal",
        metavar="CRITERION",
        help="with --group COL: open with each group at its own threshold for a fairness "
        "criterion (demographic_parity, equal_opportunity, equalized_odds, "
        "predictive_parity, same_goal), maximising --goal's objective (max accuracy by "
        "default) on all rows pooled; O in the explorer: one threshold again",
    )
    p.add_argument(
        "--tolerance",
        metavar="E",
        help="with --group-goal: the largest gap allowed (default 0.01)",
    )
    p.add_argument(
        "--plain",
        action="store_true",
        help="plain line mode for screen readers and pipes: one command per line in, "
        "plain sentences out, no screen (type help there)",
    )
    add_interval_options(p)
    add_operating_options(p)
    add_test_options(p)
    add_meaning_options(p, bins=False)
    add_source_options(p)


def parser() -> Parser:
    """The explorer's parser, as ``serve`` checks the arguments it passes on."""
    p = Parser(prog=PROG, description=DESCRIPTION, epilog=PRESETS_EPILOG)
    add_arguments(p)
    return p


def check_theme(name: str) -> None:
    """Refuse a theme Textual has not registered (one line listing those it has)."""
    from textual.theme import BUILTIN_THEMES  # every App registers these

    if name not in BUILTIN_THEMES:
        raise InputError(f"no theme named {name!r}; themes are: {', '.join(BUILTIN_THEMES)}")


def check(argv: Sequence[str]) -> None:
    """Refuse now what the explorer would refuse on ``argv``: arguments, source,
    threshold and theme (InputError, or argparse's exit 2)."""
    args = parser().parse_args(argv)
    SourceArgs.parse(args).open()
    if not args.plain:
        check_theme(args.theme)


def _app(
    args: argparse.Namespace,
    opened: Opened | None = None,
    *,
    loader: tuple[str, Callable[[], Opened]] | None = None,
) -> ThresholdLab:
    from threshold_lab.tui.app import ThresholdLab
    from threshold_lab.tui.ascii import locale_wants_ascii

    return ThresholdLab(
        None if opened is None else opened.session,
        opening="" if opened is None else opened.opening,
        theme=args.theme,
        ascii=locale_wants_ascii() if args.ascii is None else args.ascii,
        playback_seconds=args.playback_seconds,
        demo=args.demo,
        loader=loader,
    )


def _large_file(wanted: SourceArgs) -> tuple[Path, int] | None:
    """SOURCE's path and size when it is a file large enough to load in the background."""
    if wanted.typed is None:
        return None  # a preset
    path = Path(wanted.typed)
    try:
        size = path.stat().st_size if path.is_file() else 0
    except OSError:
        return None  # unreadable: the ordinary load says so, in one line
    return (path, size) if size >= BACKGROUND_BYTES else None


def _loader(wanted: SourceArgs, path: Path) -> Callable[[], Opened]:
    """Load, sweep and summarise off the UI thread, telling the loading screen."""
    slow = slow_reader_note(path)

    def load() -> Opened:
        if slow:
            progress.tell(slow)
        src, threshold = wanted.open()
        progress.step("sweeping")
        opened = wanted.session(src, threshold)
        opened.session.curves.summaries  # noqa: B018  (sweep and summaries, off the UI thread)
        return opened

    return load


def run(args: argparse.Namespace) -> int:
    """The explorer, or plain mode with --plain. Everything a user can get wrong
    is refused (InputError) before a screen opens, except the contents of a large
    file, which loads in the background and reports on exit."""
    wanted = SourceArgs.parse(args)
    if args.plain:
        from threshold_lab.tui.plain import main_plain

        opened = wanted.session(*wanted.open())
        return main_plain(opened.session, opened.opening)
    check_theme(args.theme)
    large = _large_file(wanted)
    if large is None:
        explorer = _app(args, wanted.session(*wanted.open()))
        explorer.run()
        _say_exit_note(explorer.exit_note)
        # Textual sets 1 when the app ended on an exception: never report that as success.
        return int(explorer.return_code or 0)
    path, size = large
    wanted.threshold(None)  # a bad threshold is refused before any screen
    app = _app(args, loader=(f"{path} ({size / 2**20:,.0f} MiB)", _loader(wanted, path)))
    app.run()
    _say_exit_note(app.exit_note)
    return int(app.return_code or 0)


def _say_exit_note(note: str | None) -> None:
    """What the explorer said as it ended (a failed load, edits kept on a hang-up),
    on stderr; after a hang-up stderr may be gone, and that is no error."""
    if not note:
        return
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"{PROG}: {note}\n" if not note.startswith("Loading") else f"{note}\n")
        sys.stderr.flush()


def screenshot_parser() -> Parser:
    p = Parser(
        prog=f"{PROG} screenshot",
        description="Write an SVG of one state of the explorer, without a terminal.",
        epilog=PRESETS_EPILOG,
    )
    add_arguments(p)
    p.add_argument("out", metavar="OUT.svg", help="where to write the SVG")
    p.add_argument(
        "--press",
        default="",
        metavar="KEYS",
        help="keys to press first, comma-separated Textual key names, "
        "such as right,right,c or home,n,n",
    )
    p.add_argument(
        "--size",
        type=_size,
        default=(120, 40),
        metavar="WxH",
        help="terminal size (default 120x40)",
    )
    return p


def run_screenshot(args: argparse.Namespace) -> int:
    """Press the keys in a headless explorer, then write its screen as SVG."""
    import asyncio

    wanted = SourceArgs.parse(args)
    check_theme(args.theme)
    app = _app(args, wanted.session(*wanted.open()))
    from threshold_lab.tui.explorer.keys import known_key

    keys = [k.strip() for k in args.press.split(",") if k.strip()]
    unknown = [k for k in keys if not known_key(k)]
    if unknown:
        raise InputError(
            f"--press: {unknown[0]!r} is not a key name (use one character, or a name "
            "such as enter, escape, right, pageup, question_mark, ctrl+z)"
        )
    size: tuple[int, int] = args.size

    async def take() -> str:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            for key in keys:
                await pilot.press(key)
            await pilot.pause()
            # Background work (a bootstrap, a large file's drawing) finishes first.
            for _ in range(3):
                await app.workers.wait_for_complete()
                await pilot.pause(0.4)
            return str(app.export_screenshot(title="threshold-lab"))

    written = write_atomic(args.out, asyncio.run(take()))
    sys.stdout.write(f"Wrote {written}\n")
    return 0
