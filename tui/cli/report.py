"""``threshold-lab report``: the metrics, the exact sweep and the summaries, printed.

Parse the arguments, build the one Report in core, render it as text or JSON.
Headless: core only, never Textual.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import sys
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from threshold_lab.core.data.loaders import slow_reader_note
from threshold_lab.core.data.presets import PRESET_NAMES
from threshold_lab.core.errors import InputError
from threshold_lab.core.output import stream
from threshold_lab.core.report.conditions import conditions
from threshold_lab.core.report.report import build_report
from threshold_lab.core.report.request import Request
from threshold_lab.core.text.sweep_table import TEXT_POINTS
from threshold_lab.tui.cli import COMMANDS
from threshold_lab.tui.cli.args import PROG, Parser, add_options, given, note

if TYPE_CHECKING:
    from threshold_lab.core.curves.sweep import Sweep as CoreSweep
    from threshold_lab.core.report.parts import Contents

#: --points not given: each format has its own default.
_DEFAULT_POINTS = -1

SUMMARY = COMMANDS["report"].summary  # the one line the command list gives


def parser() -> Parser:
    p = Parser(
        prog=f"{PROG} report",
        description="Print the metrics of one threshold, the exact sweep and the summaries.",
        epilog="SOURCE is a CSV/TSV/JSON/Parquet file or a preset: " + ", ".join(PRESET_NAMES),
    )
    p.add_argument("source", metavar="SOURCE")
    add_options(p, "report")
    return p


def run(args: argparse.Namespace) -> int:
    """Print the report that ``args`` asks for (a bad source or threshold: InputError)."""
    request = Request.from_command("report", args.source, given(args, "report"))
    slow = slow_reader_note(str(request.source))
    if slow:
        note(slow)
    junit = request.outputs().get("junit")  # checked now, not after the work
    src = request.open()
    started = time.perf_counter()
    report = build_report(request, src)
    seconds = time.perf_counter() - started
    # The one list the exit status, the stderr lines, the JUnit file and the JSON's
    # conditions are all made from.
    gated = report.contents.gate
    contents = dataclasses.replace(
        report.contents,
        conditions=conditions(
            () if gated is None else gated.outcomes,
            decision=report.goal,
            gaps=report.gaps,
            check=bool(request.get("check")),
            max_gaps=request.get("max_gap") or (),
            review=report.contents.band(),
        ),
    )
    points = request.given.get("points", _DEFAULT_POINTS)
    curve = request.get("curve")
    # Each output's writer is imported when it is the one asked for.
    if curve is not None:
        from threshold_lab.core.curves.export import curve_csv, missing_class

        labels, sweeps = curve_sweeps(report.contents)
        for part in report.contents.parts:  # as plot refuses the chart
            missing = missing_class(part.analysis.sweep, curve)
            if missing is not None:
                who = f" (model {part.name})" if len(report.contents.parts) > 1 else ""
                raise InputError(
                    f"--curve {curve}: the rows{who} have no actual {missing}, so the "
                    "curve is undefined"
                )
        pieces: Iterable[str] = curve_csv(sweeps, curve, labels=labels)
    elif request.get("json"):
        from threshold_lab.core.report.as_json import JSON_POINTS, report_pieces

        pieces = report_pieces(contents, JSON_POINTS if points == _DEFAULT_POINTS else points)
        pieces = itertools.chain(pieces, ["\n"])
    else:
        from threshold_lab.core.curves.braille import braille_line
        from threshold_lab.core.report.as_text import report_text_pieces

        limit = TEXT_POINTS if points == _DEFAULT_POINTS else points
        pieces = report_text_pieces(contents, limit)
        kinds = request.get("braille") or ()
        if kinds:
            sweep = report.contents.first.analysis.sweep
            lines = []
            for kind in kinds:
                line = braille_line(sweep, kind)
                lines += [f"Braille, {kind.upper()} ({line.width} cells):", line.cells, line.scale]
            pieces = itertools.chain(pieces, (x + "\n" for x in lines))
    stream(pieces, sys.stdout)
    if junit is not None:
        from threshold_lab.core.report.junit import write_junit

        write_junit(junit, contents.conditions, report.source, seconds)
    for said in () if gated is None else gated.notes:
        note(said)
    for condition in contents.conditions:
        if not condition.passed:
            note(condition.note)
    return 1 if any(not c.passed for c in contents.conditions) else 0


def curve_sweeps(
    c: Contents,
) -> tuple[tuple[str, ...], list[tuple[tuple[str, ...], CoreSweep]]]:
    """The sweeps ``--curve`` writes, and the columns naming each: the one model's;
    each model's (``model``); with folds, all rows (fold ``all``) then each fold's;
    with groups, all rows (group ``all``) then each group's (``group``)."""
    several = len(c.parts) > 1
    folded = c.first.folds is not None
    grouped = bool(c.groups)
    labels = (
        (("model",) if several else ())
        + (("fold",) if folded else ())
        + (("group",) if grouped else ())
    )
    out: list[tuple[tuple[str, ...], CoreSweep]] = []
    for p in c.parts:
        model = (p.name,) if several else ()
        whole = ("all",) if folded else ()
        out.append((model + whole + (("all",) if grouped else ()), p.analysis.sweep))
        for f in () if p.folds is None else p.folds.folds:
            out.append(((*model, f.name), f.sweep))
    for g in c.groups:
        out.append((("all",) * (len(labels) - 1) + (g.name,), g.analysis.sweep))
    return labels, out
