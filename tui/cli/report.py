"""``threshold-lab report``: the metrics, the exact sweep and the summaries, printed.

Headless: core only, never Textual.
"""

from __future__ import annotations

import argparse
import sys

from core.analysis import analyse
from core.data.loaders import slow_reader_note
from core.data.presets import PRESET_NAMES
from core.text.report import JSON_POINTS, MIN_POINTS, TEXT_POINTS, json_pieces, report_text
from tui.cli.args import PROG, Parser, SourceArgs, add_source_options, note

SUMMARY = "print the metrics, the exact sweep and the summaries"

#: --points not given: each format has its own default.
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


def parser() -> Parser:
    p = Parser(
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
    add_source_options(p)
    return p


def run(args: argparse.Namespace) -> int:
    """Print the report that ``args`` asks for (a bad source or threshold: InputError)."""
    wanted = SourceArgs.parse(args)
    slow = slow_reader_note(wanted.name)
    if slow:
        note(slow)
    src, threshold = wanted.open()
    a = analyse(src.data, threshold, beta=wanted.beta)
    points: int | None = args.points
    if args.json:
        for piece in json_pieces(
            a, source=src.label, points=JSON_POINTS if points == _DEFAULT_POINTS else points
        ):
            sys.stdout.write(piece)
        sys.stdout.write("\n")
    else:
        limit = TEXT_POINTS if points == _DEFAULT_POINTS else points
        sys.stdout.write(report_text(a, source=src.label, sweep_limit=limit))
    return 0
