"""The explorer (the default command), its plain line mode, and ``screenshot``.

Textual is imported inside the functions that build a screen, never at module
level: plain mode, like the report, runs without it.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from threshold_lab.core.data import progress
from threshold_lab.core.data.loaders import slow_reader_note
from threshold_lab.core.data.presets import PRESET_NAMES
from threshold_lab.core.errors import InputError
from threshold_lab.core.lessons.lesson import Lesson
from threshold_lab.core.lessons.play import read_lesson
from threshold_lab.core.lessons.script import Press, parse_script, script_text
from threshold_lab.core.lessons.words import SHIPPED, text_of
from threshold_lab.core.output import output, write_text
from threshold_lab.core.report.request import Request
from threshold_lab.core.session.opening import Opened, open_session
from threshold_lab.tui.cli.args import PROG, Parser, add_options, given

if TYPE_CHECKING:
    from threshold_lab.tui.app import ThresholdLab

#: Files at least this large load in the background, with progress and cancel.
BACKGROUND_BYTES = 8 * 2**20

DESCRIPTION = (
    "Explore a binary classifier's decisions: move one threshold and watch the confusion "
    "matrix, metrics and exact ROC/PR curves follow."
)
PRESETS_EPILOG = "Presets: " + ", ".join(PRESET_NAMES)


def add_arguments(p: argparse.ArgumentParser, command: str = "explore") -> None:
    """The explorer's arguments: SOURCE and every option the table gives ``command``."""
    p.add_argument(
        "source",
        nargs="?",
        default=None,
        metavar="SOURCE",
        help="a CSV/TSV/JSON/Parquet file or a preset name (default: canonical)",
    )
    add_options(p, command)


def parser() -> Parser:
    """The explorer's parser, as ``serve`` checks the arguments it passes on."""
    p = Parser(prog=PROG, description=DESCRIPTION, epilog=PRESETS_EPILOG)
    add_arguments(p)
    return p


def request_of(args: argparse.Namespace, command: str = "explore") -> Request:
    """What the parsed arguments ask core for (checked: InputError)."""
    return Request.from_command(command, args.source, given(args, command))


def check_theme(name: str) -> None:
    """Refuse a theme Textual has not registered (one line listing those it has)."""
    from textual.theme import BUILTIN_THEMES  # every App registers these

    if name not in BUILTIN_THEMES:
        raise InputError(f"no theme named {name!r}; themes are: {', '.join(BUILTIN_THEMES)}")


def check(argv: Sequence[str]) -> None:
    """Refuse now what the explorer would refuse on ``argv``: arguments, source,
    threshold and theme (InputError, or argparse's exit 2)."""
    request = request_of(parser().parse_args(argv))
    request.open()
    if not request.get("plain"):
        check_theme(request.get("theme"))


def _app(
    request: Request,
    opened: Opened | None = None,
    *,
    loader: tuple[str, Callable[[], Opened]] | None = None,
) -> ThresholdLab:
    from threshold_lab.tui.app import ThresholdLab
    from threshold_lab.tui.ascii import locale_wants_ascii
    from threshold_lab.tui.explorer.keys import known_key

    ascii = request.get("ascii")
    lesson, step = lesson_of(request)
    script = None
    where = request.get("script")
    if where is not None:
        script = parse_script(text_of(Path(where), f"--script {where}"), where)
        for item in script:
            if isinstance(item, Press) and not known_key(item.key):
                raise InputError(
                    f"{where}, line {item.line}: {item.key!r} is not a key name (use one "
                    "character, or a name such as enter, space, right, question_mark, ctrl+z)"
                )
    return ThresholdLab(
        None if opened is None else opened.session,
        opening="" if opened is None else opened.opening,
        theme=request.get("theme"),
        ascii=locale_wants_ascii() if ascii is None else ascii,
        playback_seconds=request.get("playback_seconds"),
        demo=bool(request.get("demo")),
        lesson=lesson,
        lesson_step=step,
        loader=loader,
        script=script,
        recording=request.get("record") is not None,
    )


def lesson_of(request: Request) -> tuple[Lesson | None, int]:
    """The lesson asked for (read and rehearsed whole: refused before a screen opens)
    and the step to start at (0-based; ``--step`` is screenshot's)."""
    where = request.get("lesson")
    if where is None:
        return None, 0
    step: int = request.get("step") if "step" in request.given else 1
    lesson = read_lesson(where)
    if step > len(lesson):
        raise InputError(f"--step {step}: the lesson has steps 1 to {len(lesson)}")
    return lesson, step - 1


def _large_file(request: Request) -> tuple[Path, int] | None:
    """SOURCE's path and size when it is a file large enough to load in the background."""
    if request.source is None or request.preset:
        return None
    path = Path(request.source)
    try:
        size = path.stat().st_size if path.is_file() else 0
    except OSError:
        return None  # unreadable: the ordinary load says so, in one line
    return (path, size) if size >= BACKGROUND_BYTES else None


def _loader(request: Request, path: Path) -> Callable[[], Opened]:
    """Load, sweep and summarise off the UI thread, telling the loading screen."""
    slow = slow_reader_note(path)

    def load() -> Opened:
        if slow:
            progress.tell(slow)
        src = request.open()
        progress.step("sweeping")
        opened = open_session(request, src)
        opened.session.curves.summaries  # noqa: B018  (sweep and summaries, off the UI thread)
        return opened

    return load


def run(args: argparse.Namespace) -> int:
    """The explorer, or plain mode with --plain. Everything a user can get wrong
    is refused (InputError) before a screen opens, except the contents of a large
    file, which loads in the background and reports on exit."""
    request = request_of(args)
    if request.get("plain"):
        from threshold_lab.tui.plain import main_plain

        lesson, _ = lesson_of(request)
        where = request.get("script")
        first = [] if where is None else text_of(Path(where), f"--script {where}").splitlines()
        opened = open_session(request)
        return main_plain(opened.session, opened.opening, lesson, first)
    check_theme(request.get("theme"))
    large = _large_file(request)
    record = request.get("record")
    recorded = None if record is None else output(record, "--record")  # checked first
    if large is None:
        explorer = _app(request, open_session(request))
        explorer.run()
        if recorded is not None:
            written = write_text(recorded, script_text(explorer.pressed))
            sys.stderr.write(f"{PROG}: recorded {len(explorer.pressed)} keys to {written}\n")
        _say_exit_note(explorer.exit_note)
        # Textual sets 1 when the app ended on an exception: never report that as success.
        return int(explorer.return_code or 0)
    path, size = large
    app = _app(request, loader=(f"{path} ({size / 2**20:,.0f} MiB)", _loader(request, path)))
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
    add_arguments(p, "screenshot")
    p.add_argument("out", metavar="OUT.svg", help="where to write the SVG")
    return p


def lesson_parser() -> Parser:
    """``threshold-lab lesson FILE|NAME [options]``: the explorer (or --plain) running it."""
    p = Parser(
        prog=f"{PROG} lesson",
        description="Run a lesson in the explorer, or as text with --plain: steps that ask "
        "before they show, answers checked exactly (docs/teaching.md).",
        epilog="Shipped lessons: " + ", ".join(SHIPPED),
    )
    p.add_argument(
        "lesson_file", metavar="FILE|NAME", help="a lesson's TOML file, or a shipped lesson's name"
    )
    add_options(p, "explore")
    return p


def run_lesson(args: argparse.Namespace) -> int:
    """The explorer (or plain mode) with the lesson given first."""
    if getattr(args, "lesson", None) is not None:  # options not given are not set
        raise InputError("the lesson is the first argument: give it once, without --lesson")
    args.lesson, args.source = args.lesson_file, None
    return run(args)


def run_screenshot(args: argparse.Namespace) -> int:
    """Press the keys in a headless explorer, then write its screen as SVG."""
    import asyncio

    request = request_of(args, "screenshot")
    check_theme(request.get("theme"))
    app = _app(request, open_session(request))
    from threshold_lab.tui.explorer.keys import known_key

    keys = [k.strip() for k in (request.get("press") or "").split(",") if k.strip()]
    unknown = [k for k in keys if not known_key(k)]
    if unknown:
        raise InputError(
            f"--press: {unknown[0]!r} is not a key name (use one character, or a name "
            "such as enter, escape, right, pageup, question_mark, ctrl+z)"
        )
    size: tuple[int, int] = request.get("terminal_size")

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

    written = write_text(output(args.out, "OUT"), asyncio.run(take()))
    sys.stdout.write(f"Wrote {written}\n")
    return 0
