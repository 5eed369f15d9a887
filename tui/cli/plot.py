"""``threshold-lab plot``: one chart of the report as a figure for a paper or a review.

The same sources and options as ``report``; the chart drawn with matplotlib (an
optional extra: without it, one line says how to install it). Headless: core only.
"""

from __future__ import annotations

import argparse
import warnings

from threshold_lab.core.data.loaders import slow_reader_note
from threshold_lab.core.data.presets import PRESET_NAMES
from threshold_lab.core.errors import MissingDependency
from threshold_lab.core.figures import check_output
from threshold_lab.core.report.report import build_report
from threshold_lab.core.report.request import Request
from threshold_lab.tui.cli import COMMANDS
from threshold_lab.tui.cli.args import PROG, Parser, add_options, given, note

SUMMARY = COMMANDS["plot"].summary


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
    add_options(p, "plot")
    return p


def run(args: argparse.Namespace) -> int:
    """Draw the chart ``args`` ask for and write it (a bad source or option: InputError)."""
    from threshold_lab.core.figures import INSTALL, GlyphsMissing

    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise MissingDependency(INSTALL) from None
    request = Request.from_command("plot", args.source, given(args, "plot"))
    out = request.get("out")
    check_output(out, request.inputs())  # before any work
    slow = slow_reader_note(str(request.source))
    if slow:
        note(slow)
    report = build_report(request)
    g = request.get
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always", GlyphsMissing)
        written = report.plot(g("chart"), out, size=g("size"), dpi=g("dpi"), title=g("title"))
    for w in said:
        if issubclass(w.category, GlyphsMissing):
            note(str(w.message))  # once, in words, not matplotlib's warning per glyph
    note(f"wrote {written}")
    return 0
