"""``threshold-lab plot``: one chart of the report as a figure for a paper or a review.

The same sources and options as ``report``; the chart drawn with matplotlib (an
optional extra: without it, one line says how to install it). Headless: core only.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any

from threshold_lab.core.data.loaders import slow_reader_note
from threshold_lab.core.data.presets import PRESET_NAMES
from threshold_lab.core.decide.goal import parse_goal
from threshold_lab.core.decide.solve import parse_prevalence
from threshold_lab.core.errors import InputError
from threshold_lab.core.figures import CHARTS, check_output, parse_chart, parse_dpi, parse_size
from threshold_lab.core.intervals.bootstrap import SEED
from threshold_lab.core.report.options import Options
from threshold_lab.core.report.report import build
from threshold_lab.core.transform import parse_transform
from threshold_lab.tui.cli import COMMANDS
from threshold_lab.tui.cli.args import (
    PROG,
    Parser,
    SourceArgs,
    add_interval_options,
    add_meaning_options,
    add_operating_options,
    add_source_options,
    add_test_options,
    note,
    operating_options,
)

SUMMARY = COMMANDS["plot"].summary


def _typed(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    def run(text: str) -> Any:
        try:
            return parse(text)
        except InputError as exc:
            said = str(exc)
            said = said.split(" ", 1)[1] if said.startswith("--") else said  # "--dpi '0': ..."
            raise argparse.ArgumentTypeError(said) from None

    return run


def parser() -> Parser:
    p = Parser(
        prog=f"{PROG} plot",
        description="Draw one chart of the report (the exact sweep, the active point, the "
        "summaries named) as a PNG, SVG or PDF figure, with matplotlib.",
        epilog="SOURCE is a CSV/TSV/JSON/Parquet file or a preset: "
        + ", ".join(PRESET_NAMES)
        + ". Needs matplotlib: pip install 'threshold-lab[plot]'.",
    )
    p.add_argument("source", metavar="SOURCE")
    p.add_argument(
        "--chart",
        required=True,
        type=_typed(parse_chart),
        metavar="|".join(CHARTS),
        help="the chart to draw",
    )
    p.add_argument(
        "--out",
        required=True,
        metavar="FIG.png|svg|pdf",
        help="the figure's file (the format follows the suffix)",
    )
    p.add_argument(
        "--threshold",
        default=None,
        metavar="T",
        help="the active point: a number, or above-all (default: the preset's, else 0.5)",
    )
    p.add_argument(
        "--size",
        type=_typed(parse_size),
        default=(6.0, 4.0),
        metavar="WxH",
        help="width x height in inches (default 6x4)",
    )
    p.add_argument(
        "--dpi",
        type=_typed(parse_dpi),
        default=150,
        metavar="N",
        help="dots per inch of a PNG (default 150)",
    )
    p.add_argument(
        "--title", default=None, help="the figure's title (default: the chart and the source)"
    )
    p.add_argument(
        "--goal",
        metavar="GOAL",
        help="the active point is the goal's ('max precision where recall >= 0.9')",
    )
    p.add_argument("--prevalence", metavar="P", help="the decision curve at prevalence P")
    add_operating_options(p)
    add_test_options(p)
    add_interval_options(p)
    add_meaning_options(p)
    add_source_options(p)
    return p


def run(args: argparse.Namespace) -> int:
    """Draw the chart ``args`` ask for and write it (a bad source or option: InputError)."""
    from threshold_lab.core.figures import INSTALL

    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise InputError(INSTALL) from None
    check_output(args.out)
    wanted = SourceArgs.parse(args)
    slow = slow_reader_note(wanted.name)
    if slow:
        note(slow)
    if args.seed is not None and args.bootstrap is None:
        raise InputError("--seed needs --bootstrap (it seeds the bootstrap's resampling)")
    goal = parse_goal(args.goal) if args.goal is not None else None
    prevalence = parse_prevalence(args.prevalence) if args.prevalence is not None else None
    src, threshold = wanted.open(keep=goal.columns() if goal else ())
    options = Options(
        threshold=threshold,
        beta=wanted.beta,
        goal=goal,
        prevalence=prevalence,
        confidence=args.confidence,
        replicates=args.bootstrap,
        seed=SEED if args.seed is None else args.seed,
        bins=args.bins,
        binning=args.binning,
        transform=None if args.transform is None else parse_transform(args.transform),
        **operating_options(args),
    )
    report = build(src, options)
    w, h = args.size
    written = report.plot(args.chart, args.out, size=(w, h), dpi=args.dpi, title=args.title)
    note(f"wrote {written}")
    return 0
