"""The ``threshold-lab`` command line: the explorer, and ``report``.

User errors are one line on stderr and exit status 2; never a traceback.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence
from pathlib import Path

from core.analysis import analyse
from core.data import progress
from core.data.loaders import Columns, slow_reader_note
from core.data.presets import PRESET_NAMES
from core.data.sources import Source, open_source
from core.errors import InputError
from core.session.session import Session
from core.text.report import JSON_POINTS, MIN_POINTS, TEXT_POINTS, json_pieces, report_text
from core.threshold import Threshold, parse_threshold

PROG = "threshold-lab"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _beta(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"beta {text!r} is not a number") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"beta {text!r} must be a positive finite number")
    return value


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not (math.isfinite(value) and 0.05 <= value <= 60):
        raise argparse.ArgumentTypeError(f"{text!r} must be between 0.05 and 60 seconds")
    return value


THEMES = (
    "textual-dark",
    "textual-light",
    "ansi-dark",
    "ansi-light",
    "nord",
    "gruvbox",
    "catppuccin-mocha",
    "catppuccin-latte",
    "dracula",
    "tokyo-night",
    "monokai",
    "flexoki",
    "solarized-light",
    "solarized-dark",
    "rose-pine",
    "atom-one-dark",
    "atom-one-light",
)


def _add_source_options(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--score-column",
        default="score",
        metavar="NAME",
        help="column holding the scores (default: score)",
    )
    p.add_argument(
        "--label-column",
        default="label",
        metavar="NAME",
        help="column holding the actual labels (default: label)",
    )
    p.add_argument(
        "--weight-column",
        default=None,
        metavar="NAME",
        help="column of non-negative row weights (default: 'weight' if present)",
    )
    p.add_argument(
        "--id-column",
        default=None,
        metavar="NAME",
        help="column of row ids (default: 'id' if present)",
    )
    p.add_argument(
        "--positive",
        default=None,
        metavar="NAME",
        help="the label value that means positive, when labels are not 0/1 or true/false",
    )
    p.add_argument(
        "--aggregated",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the file is score,positives,negatives per row (detected from the "
        "header when not given)",
    )
    p.add_argument("--beta", type=_beta, default=2.0, help="beta of the F-beta metric (default: 2)")


def _columns(args: argparse.Namespace) -> Columns:
    return Columns(
        score=args.score_column,
        label=args.label_column,
        weight=args.weight_column,
        id=args.id_column,
        positive=args.positive,
    )


def report_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=f"{PROG} report",
        description="Print the metrics of one threshold, the exact sweep and the summaries.",
        epilog="SOURCE is a CSV/TSV/JSON/Parquet file or a preset: " + ", ".join(PRESET_NAMES),
    )
    p.add_argument("source", metavar="SOURCE")
    p.add_argument(
        "--threshold",
        default=None,
        metavar="T",
        help="a number, or above-all (default: the preset's, else 0.5)",
    )
    p.add_argument("--json", action="store_true", help="print exactly one JSON object")
    p.add_argument(
        "--points",
        type=_points,
        default=_DEFAULT_POINTS,
        metavar="N|all",
        help=f"sweep points to list: all, 0, or at least {MIN_POINTS} (default: "
        f"{TEXT_POINTS} in text, the first and last halves; {JSON_POINTS:,} in JSON, "
        "chosen to keep the ROC curve's shape)",
    )
    _add_source_options(p)
    return p


_DEFAULT_POINTS = -1


def _points(text: str) -> int | None:
    if text.strip().lower() == "all":
        return None
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n == 0 or n >= MIN_POINTS:
        return n
    raise argparse.ArgumentTypeError(
        f"{text!r} is not a number of points: give all, 0, or a whole number of at least "
        f"{MIN_POINTS}"
    )


def _open(args: argparse.Namespace) -> Source:
    return open_source(args.source, _columns(args), aggregated=args.aggregated)


def run_report(argv: Sequence[str]) -> int:
    args = report_parser().parse_args(argv)
    note = slow_reader_note(args.source)
    if note:
        sys.stderr.write(f"{PROG}: note: {note}\n")
    try:
        src = _open(args)
        threshold = src.threshold if args.threshold is None else parse_threshold(args.threshold)
        a = analyse(src.data, threshold, beta=args.beta)
        if args.json:
            points = JSON_POINTS if args.points == _DEFAULT_POINTS else args.points
            for piece in json_pieces(a, source=src.label, points=points):
                sys.stdout.write(piece)
            sys.stdout.write("\n")
        else:
            limit = TEXT_POINTS if args.points == _DEFAULT_POINTS else args.points
            sys.stdout.write(report_text(a, source=src.label, sweep_limit=limit))
    except InputError as exc:
        sys.stderr.write(f"{PROG}: error: {exc}\n")
        return 2
    return 0


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


def screenshot_parser() -> argparse.ArgumentParser:
    p = app_parser()
    p.prog = f"{PROG} screenshot"
    p.description = "Write an SVG of one state of the explorer, without a terminal."
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


def run_screenshot(argv: Sequence[str]) -> int:
    import asyncio

    from core.session.savefile import write_atomic

    args = screenshot_parser().parse_args(argv)
    try:
        if args.source and args.preset:
            raise InputError("give a SOURCE or --preset NAME, not both")
        args.source = args.preset or args.source or "canonical"
        src = _open(args)
        threshold = src.threshold if args.threshold is None else parse_threshold(args.threshold)
        app = _app_from(args, src, threshold)
        keys = [k.strip() for k in args.press.split(",") if k.strip()]

        async def take() -> str:
            async with app.run_test(size=args.size) as pilot:
                await pilot.pause()
                for key in keys:
                    await pilot.press(key)
                await pilot.pause()
                return str(app.export_screenshot(title="threshold-lab"))

        written = write_atomic(args.out, asyncio.run(take()))
    except InputError as exc:
        sys.stderr.write(f"{PROG}: error: {exc}\n")
        return 2
    sys.stdout.write(f"Wrote {written}\n")
    return 0


def serve_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=f"{PROG} serve",
        description="Serve the explorer in a web browser (textual-serve). Everything after "
        "the options is passed to the explorer, e.g. serve --port 8001 -- --preset good.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("explorer_args", nargs=argparse.REMAINDER, metavar="-- EXPLORER ARGS")
    return p


def run_serve(argv: Sequence[str]) -> int:
    import shlex

    from textual_serve.server import Server

    args = serve_parser().parse_args(argv)
    extra = [a for a in args.explorer_args if a != "--"]
    try:
        _explorer_source(extra)  # refuse a bad source now, not in each browser tab
    except InputError as exc:
        sys.stderr.write(f"{PROG}: error: {exc}\n")
        return 2
    if not 1 <= args.port <= 65535:
        sys.stderr.write(f"{PROG}: error: port {args.port} is not between 1 and 65535\n")
        return 2
    command = shlex.join([sys.executable, "-m", "tui", *extra])
    sys.stdout.write(f"Serving threshold-lab on http://{args.host}:{args.port} (Ctrl+C stops)\n")
    sys.stdout.flush()
    Server(command, host=args.host, port=args.port, title="threshold-lab").serve()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``threshold-lab`` command."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args and args[0] == "report":
        return run_report(args[1:])
    if args and args[0] == "screenshot":
        return run_screenshot(args[1:])
    if args and args[0] == "serve":
        return run_serve(args[1:])
    return run_app(args)


def app_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog=PROG,
        description="Explore a binary classifier's decisions: move one threshold and watch "
        "the confusion matrix, metrics and exact ROC/PR curves follow.",
        epilog="Also: threshold-lab report SOURCE [--json] (see threshold-lab report --help). "
        "Presets: " + ", ".join(PRESET_NAMES),
    )
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
        "--plain",
        action="store_true",
        help="plain line mode for screen readers and pipes: one command per line in, "
        "plain sentences out, no screen (type help there)",
    )
    _add_source_options(p)
    return p


def _explorer_source(argv: Sequence[str]) -> tuple[argparse.Namespace, Source, Threshold]:
    args = app_parser().parse_args(argv)
    if args.source and args.preset:
        raise InputError("give a SOURCE or --preset NAME, not both")
    args.source = args.preset or args.source or "canonical"
    src = _open(args)
    threshold = src.threshold if args.threshold is None else parse_threshold(args.threshold)
    return args, src, threshold


def _app_from(args: argparse.Namespace, src: Source, threshold: Threshold):  # type: ignore[no-untyped-def]
    from tui.app import ThresholdLab
    from tui.ascii import locale_wants_ascii

    if args.theme not in THEMES:
        raise InputError(f"no theme named {args.theme!r}; themes are: {', '.join(THEMES)}")
    ascii_only = locale_wants_ascii() if args.ascii is None else args.ascii
    session = Session(src.data, threshold, source=src.label, path=src.path, beta=args.beta)
    return ThresholdLab(
        session,
        theme=args.theme,
        ascii=ascii_only,
        playback_seconds=args.playback_seconds,
        demo=args.demo,
    )


def build_app(argv: Sequence[str]):  # type: ignore[no-untyped-def]
    """Parse the explorer's arguments and build the app (raises InputError)."""
    args, src, threshold = _explorer_source(argv)
    return _app_from(args, src, threshold)


#: Files at least this large load in the background, with progress and cancel.
BACKGROUND_BYTES = 8 * 2**20


def _background_app(argv: Sequence[str]):  # type: ignore[no-untyped-def]
    """The explorer loading a large file in the background, or None for a small
    source (which loads first, so its errors are printed before any screen)."""
    from tui.app import ThresholdLab
    from tui.ascii import locale_wants_ascii

    args = app_parser().parse_args(argv)
    name = args.preset or args.source
    if args.plain or args.preset or not name:
        return None
    path = Path(name)
    size = path.stat().st_size if path.is_file() else 0
    if size < BACKGROUND_BYTES:
        return None
    if args.theme not in THEMES:
        raise InputError(f"no theme named {args.theme!r}; themes are: {', '.join(THEMES)}")
    typed = None if args.threshold is None else parse_threshold(args.threshold)

    slow = slow_reader_note(path)

    def load() -> Session:
        if slow:
            progress.tell(slow)
        src = _open(args)
        progress.step("sweeping")
        threshold = src.threshold if args.threshold is None else typed
        session = Session(src.data, threshold, source=src.label, path=src.path, beta=args.beta)
        session.analysis.curves.summaries  # noqa: B018  (sweep and summaries, off the UI thread)
        return session

    return ThresholdLab(
        theme=args.theme,
        ascii=locale_wants_ascii() if args.ascii is None else args.ascii,
        playback_seconds=args.playback_seconds,
        demo=args.demo,
        loader=(f"{path} ({size / 2**20:,.0f} MiB)", load),
    )


def run_app(argv: Sequence[str]) -> int:
    try:
        background = _background_app(argv)
    except InputError as exc:
        sys.stderr.write(f"{PROG}: error: {exc}\n")
        return 2
    if background is not None:
        background.run()
        if background.exit_note:
            note = background.exit_note
            sys.stderr.write(f"{PROG}: {note}\n" if note.startswith("error") else f"{note}\n")
        return int(background.return_code or 0)
    try:
        args, src, threshold = _explorer_source(argv)
    except InputError as exc:
        sys.stderr.write(f"{PROG}: error: {exc}\n")
        return 2
    if args.plain:
        from tui.plain import main_plain

        return main_plain(
            Session(src.data, threshold, source=src.label, path=src.path, beta=args.beta)
        )
    try:
        app = _app_from(args, src, threshold)
    except InputError as exc:
        sys.stderr.write(f"{PROG}: error: {exc}\n")
        return 2
    app.run()
    return 0
