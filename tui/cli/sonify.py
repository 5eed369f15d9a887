"""``threshold-lab sonify``: a curve as a WAV file, one tone a curve point.

The same sources as ``report``; the sound made in core (numpy and the standard
library's ``wave``), the file written whole or not at all. Headless: core only.
"""

from __future__ import annotations

import argparse
import json
import sys

from threshold_lab.core.analysis import curves_for
from threshold_lab.core.curves.sound import check_wav, parse_kind, sonify, write_wav
from threshold_lab.core.data.loaders import slow_reader_note
from threshold_lab.core.data.presets import PRESET_NAMES
from threshold_lab.core.report.request import Request
from threshold_lab.tui.cli.args import PROG, Parser, add_options, given, note


def parser() -> Parser:
    p = Parser(
        prog=f"{PROG} sonify",
        description="Write a curve as a WAV file (16-bit, 22,050 Hz, stereo): one tone a "
        "curve point in sweep order, its pitch the point's TPR (roc) or precision (pr) "
        "from 220 Hz at 0 to 880 Hz at 1, its place from left to right the FPR or recall.",
        epilog="SOURCE is a CSV/TSV/JSON/Parquet file or a preset: " + ", ".join(PRESET_NAMES),
    )
    p.add_argument("source", metavar="SOURCE")
    add_options(p, "sonify")
    return p


def run(args: argparse.Namespace) -> int:
    """Write the sound ``args`` ask for, then say what it holds (a bad source or option:
    InputError)."""
    request = Request.from_command("sonify", args.source, given(args, "sonify"))
    g = request.get
    kind = parse_kind(g("chart"))
    out = check_wav(g("out"), "--out", request.inputs())  # before any work
    slow = slow_reader_note(str(request.source))
    if slow:
        note(slow)
    sweep = curves_for(request.open().data).sweep
    made = sonify(sweep, kind, g("seconds"), reference=bool(g("reference")))
    written = write_wav(out, made)
    if g("json"):
        sys.stdout.write(json.dumps(list(made.segments), allow_nan=False))
        sys.stdout.write("\n")
    else:
        sys.stdout.write(made.sentence(written) + "\n")
    return 0
