"""``threshold-lab report``: the metrics, the exact sweep and the summaries, printed.

Parse the arguments, build the one Report in core, render it as text or JSON.
Headless: core only, never Textual.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import io
import itertools
import os
import stat
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

from threshold_lab.core.curves.export import curve_csv, parse_curve
from threshold_lab.core.curves.sweep import Sweep as CoreSweep
from threshold_lab.core.data.loaders import slow_reader_note
from threshold_lab.core.data.models import join_models
from threshold_lab.core.data.presets import PRESET_NAMES
from threshold_lab.core.data.sources import Source
from threshold_lab.core.decide.goal import parse_goal
from threshold_lab.core.decide.solve import parse_prevalence
from threshold_lab.core.errors import InputError
from threshold_lab.core.groups.gaps import gap_exceeded, parse_max_gap
from threshold_lab.core.groups.thresholds import TOLERANCE, parse_criterion, parse_tolerance
from threshold_lab.core.intervals.bootstrap import SEED
from threshold_lab.core.report.as_json import JSON_POINTS, MIN_POINTS, report_pieces
from threshold_lab.core.report.as_text import TEXT_POINTS
from threshold_lab.core.report.gate import (
    Baseline,
    Gate,
    Requirement,
    baseline_of,
    parse_requirement,
    why_missing,
)
from threshold_lab.core.report.junit import junit_xml
from threshold_lab.core.report.options import BaselineRows, Options
from threshold_lab.core.report.parts import Contents
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

SUMMARY = COMMANDS["report"].summary  # the one line the command list gives

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


def _curve(text: str) -> str:
    try:
        return parse_curve(text)
    except InputError as exc:
        raise argparse.ArgumentTypeError(str(exc).removeprefix("--curve ")) from None


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
        f"{TEXT_POINTS} in text: the notable points (active, readouts', goal's, max F1, max "
        f"informedness), the ends and evenly spaced ones; {JSON_POINTS:,} in JSON, "
        "chosen to keep the ROC curve's shape)",
    )
    p.add_argument(
        "--curve",
        type=_curve,
        default=None,
        metavar="roc|pr|det",
        help="instead of the report, write the curve's exact points (threshold, counts, "
        "rates as doubles and fractions) in --format csv on stdout, for other plotting tools",
    )
    p.add_argument(
        "--format",
        choices=("csv",),
        default=None,
        help="with --curve: the format of its points (csv)",
    )
    p.add_argument(
        "--goal",
        metavar="GOAL",
        help="choose the threshold for a goal: 'max precision where recall >= 0.9', "
        "'min cost fp=1 fn=5' (see README: Deciding)",
    )
    p.add_argument(
        "--prevalence",
        metavar="P",
        help="the metrics (and the goal) where the positive class has prevalence P "
        "(0 < P < 1, a decimal or a fraction like 1/20), keeping TPR and FPR",
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="exit 1 (and say why on stderr, a line each) when the goal is infeasible "
        "(--goal) or a gap between groups exceeds its --max-gap",
    )
    p.add_argument(
        "--max-gap",
        action="append",
        default=None,
        metavar="'GAP LIMIT'",
        help="with --group and --check: the largest gap allowed, as "
        "'equal_opportunity_difference 0.05' (a ratio: the smallest allowed, as "
        "'demographic_parity_ratio 0.8'); repeatable",
    )
    p.add_argument(
        "--group-goal",
        metavar="CRITERION",
        help="with --group: one threshold a group, maximising --goal's objective (default "
        "max accuracy) on all rows pooled with the criterion's gap <= --tolerance: "
        "demographic_parity, equal_opportunity, equalized_odds, predictive_parity, or "
        "same_goal (each group solves --goal on its own rows)",
    )
    p.add_argument(
        "--tolerance",
        metavar="E",
        help="with --group-goal: the largest gap allowed (default 0.01)",
    )
    p.add_argument(
        "--randomised",
        action="store_true",
        help="with --group-goal demographic_parity or equal_opportunity: also each group's "
        "mixture of two thresholds hitting one common rate exactly (Fairlearn's "
        "construction: identical cases may be decided differently)",
    )
    gate = p.add_argument_group("gate (against a baseline, in CI)")
    gate.add_argument(
        "--baseline",
        metavar="BASE.json",
        help="an earlier report --json (or a Report's to_json()): the report gains the "
        "change of every headline number",
    )
    gate.add_argument(
        "--baseline-rows",
        metavar="BASE_FILE",
        help="with --baseline: the baseline model's scores of the same rows (joined on id), "
        "for DeLong's paired test of the AUC's change",
    )
    gate.add_argument(
        "--require",
        action="append",
        default=None,
        metavar="EXPR",
        help="a requirement, as 'auc >= 0.80', 'auc >= baseline.auc - 0.01', 'recall at goal "
        ">= 0.9', 'tpr at fpr 0.01 >= 0.6': exit 1 when one fails, a line each; repeatable",
    )
    gate.add_argument(
        "--junit",
        metavar="OUT.xml",
        help="with --require: write each requirement as a JUnit test case, for CI",
    )
    add_operating_options(p)
    add_test_options(p)
    add_interval_options(p)
    add_meaning_options(p)
    add_source_options(p)
    return p


def run(args: argparse.Namespace) -> int:
    """Print the report that ``args`` asks for (a bad source or threshold: InputError)."""
    wanted = SourceArgs.parse(args)
    slow = slow_reader_note(wanted.name)
    if slow:
        note(slow)
    limits = [parse_max_gap(text) for text in args.max_gap or ()]
    criterion = None if args.group_goal is None else parse_criterion(args.group_goal)
    if args.tolerance is not None and criterion is None:
        raise InputError("--tolerance needs --group-goal (it is the criterion's largest gap)")
    if args.randomised and criterion is None:
        raise InputError("--randomised needs --group-goal (it mixes each group's thresholds)")
    if limits and not args.check:
        raise InputError("--max-gap is a limit for --check: add --check")
    if args.check and args.goal is None and not limits:
        raise InputError(
            "--check needs --goal (it fails the run when the goal is infeasible) "
            "or --max-gap with --group (when a gap between groups is too large)"
        )
    if args.format is not None and args.curve is None:
        raise InputError("--format csv is the format of --curve's points: add --curve roc|pr|det")
    if args.curve is not None and args.json:
        raise InputError(
            "--curve writes the curve's points as CSV, --json the whole report: give one"
        )
    if args.seed is not None and args.bootstrap is None:
        raise InputError("--seed needs --bootstrap (it seeds the bootstrap's resampling)")
    goal = parse_goal(args.goal) if args.goal is not None else None
    prevalence = parse_prevalence(args.prevalence) if args.prevalence is not None else None
    requirements, baseline = _gate_args(args, goal is not None)
    unwritable = "" if args.junit is None else _junit_unwritable(args.junit)
    if unwritable:  # the machine's, not the input's (as a full disk): status 1, nothing out
        sys.stderr.write(f"{PROG}: error: {unwritable}\n")
        return 1
    src, threshold = wanted.open(keep=goal.columns() if goal else ())
    rows = None if args.baseline_rows is None else _baseline_rows(args.baseline_rows, src, wanted)
    # Groups come from --group COL, or by themselves from an aggregated file's column.
    no_groups = (
        ""
        if src.group_column is not None
        else (f" ({src.label} opened as one group's rows)" if args.group is not None else "")
    )
    if criterion is not None and src.group_column is None:
        raise InputError("--group-goal needs --group COL (one threshold a group)" + no_groups)
    if limits and src.group_column is None:
        raise InputError("--max-gap needs --group COL (the gaps are between groups)" + no_groups)
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
        group_goal=criterion,
        tolerance=TOLERANCE if args.tolerance is None else parse_tolerance(args.tolerance),
        randomised=args.randomised,
        baseline=baseline,
        baseline_rows=rows,
        requirements=requirements,
        **operating_options(args),
    )
    started = time.perf_counter()
    report = build(src, options)
    seconds = time.perf_counter() - started
    points: int | None = args.points
    if args.curve is not None:
        labels, sweeps = curve_sweeps(report.contents)
        pieces: Iterable[str] = curve_csv(sweeps, args.curve, labels=labels)
    elif args.json:
        pieces = report_pieces(
            report.contents, JSON_POINTS if points == _DEFAULT_POINTS else points
        )
        pieces = itertools.chain(pieces, ["\n"])
    else:
        pieces = [report.text(points=TEXT_POINTS if points == _DEFAULT_POINTS else points)]
    problem = write_whole(pieces)
    if problem:  # a full disk, say: not the input's fault, so status 1
        sys.stderr.write(f"{PROG}: error: {problem}\n")
        return 1
    failed = False
    gated = report.contents.gate
    if args.junit is not None and gated is not None:
        problem = _write_junit(args.junit, gated, report.source, seconds)
        if problem:
            sys.stderr.write(f"{PROG}: error: {problem}\n")
            return 1
    for said in () if gated is None else gated.notes:
        note(said)
    for outcome in () if gated is None else gated.failed:
        note(f"requirement not met: {outcome.expr}: {outcome.detail()}")
        failed = True
    decision = report.goal
    if args.check and decision is not None and not decision.feasible:
        note(f"goal not met: {decision.reason}")
        failed = True
    for name, limit in limits:
        assert report.gaps is not None
        why = gap_exceeded(report.gaps[name], limit)
        if why is not None:
            note(f"gap not within --max-gap: {why}")
            failed = True
    return 1 if failed else 0


def curve_sweeps(
    c: Contents,
) -> tuple[tuple[str, ...], list[tuple[tuple[str, ...], CoreSweep]]]:
    """The sweeps ``--curve`` writes, and the columns naming each: the one model's;
    each model's (``model``); with folds, all rows (fold ``all``) then each fold's."""
    several = len(c.parts) > 1
    folded = c.first.folds is not None
    labels = (("model",) if several else ()) + (("fold",) if folded else ())
    out: list[tuple[tuple[str, ...], CoreSweep]] = []
    for p in c.parts:
        model = (p.name,) if several else ()
        out.append((model + (("all",) if folded else ()), p.analysis.sweep))
        for f in () if p.folds is None else p.folds.folds:
            out.append(((*model, f.name), f.sweep))
    return labels, out


def _gate_args(
    args: argparse.Namespace, has_goal: bool
) -> tuple[tuple[Requirement, ...], Baseline | None]:
    """--require, --baseline, --baseline-rows and --junit checked before anything is
    computed (a malformed requirement: InputError, exit 2)."""
    requirements = tuple(parse_requirement(text) for text in args.require or ())
    if args.junit is not None and not requirements:
        raise InputError("--junit writes each --require as a test case: add --require")
    if args.baseline_rows is not None and args.baseline is None:
        raise InputError(
            "--baseline-rows needs --baseline BASE.json (the earlier report "
            "whose model scored those rows)"
        )
    baseline = None if args.baseline is None else baseline_of(args.baseline)
    for r in requirements:
        for ref in r.refs():
            if ref.baseline and baseline is None:
                raise InputError(
                    f"--require {r.expr!r}: {ref} needs --baseline BASE.json "
                    "(an earlier report --json)"
                )
            if ref.baseline and baseline is not None and ref.name not in baseline.numbers:
                raise InputError(
                    f"--require {r.expr!r}: the baseline {baseline.source} has "
                    f"no {ref.name}{why_missing(ref.name)}"
                )
            if (
                not ref.baseline
                and not has_goal
                and (ref.name == "objective" or ref.name.endswith(" at goal"))
            ):
                raise InputError(
                    f"--require {r.expr!r}: {ref} needs --goal (the goal it is read at)"
                )
    return requirements, baseline


def _baseline_rows(name: str, src: Source, wanted: SourceArgs) -> BaselineRows:
    """The baseline model's scores of ``src``'s rows, from a file of the same rows
    joined on id (raises InputError naming what does not match)."""
    flag = "--baseline-rows"
    if src.path is None:
        raise InputError(f"{flag} joins two files on id; {src.label} is not a file")
    if src.models or src.multiclass is not None:
        raise InputError(
            f"{flag} compares one model's rows with the baseline's; "
            f"{src.label} holds several models or classes"
        )
    if src.quantised or src.group_by is not None:
        raise InputError(f"{flag}: {src.label} is aggregated counts, with no rows to join")
    path = Path(name)
    if not path.exists():
        raise InputError(f"{flag} {name}: no such file")
    models = join_models(src.path, src.data, path, wanted.columns, flag)
    return BaselineRows(name, models[1].data.scores)


def _junit_unwritable(path: str) -> str:
    """Refuse, before anything is computed or printed, a --junit file that could not be
    written at the end: a folder, or a folder that is not there (InputError, status
    2). A folder that takes no new files (read-only, /proc) is tried as aggregate tries
    its OUT (:func:`check_writable`); what went wrong is returned, or ""."""
    from threshold_lab.core.engines.common import CannotWrite, check_writable

    target = Path(path)
    if target.is_dir():
        raise InputError(f"--junit {path}: is a folder; name the file to write")
    try:
        check_writable(target, "--junit")
    except CannotWrite:
        return (
            f"--junit {path}: cannot write it: folder {target.parent} is not writable "
            "(it takes no new files)"
        )
    return ""


def _write_junit(path: str, gated: Gate, source: str, seconds: float) -> str:
    """Write the JUnit file (whole or not at all); what went wrong, or ""."""
    text = junit_xml(
        gated.outcomes,
        suite=f"threshold-lab report {source}",
        properties=[("source", source)],
        seconds=seconds,
    )
    target = Path(path)
    temporary = target.with_name(f".{target.name}.partial")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, target)
    except OSError as exc:
        with contextlib.suppress(OSError):
            temporary.unlink()
        return f"--junit {path}: cannot write it: {exc.strerror or exc}"
    return ""


def write_whole(pieces: Iterable[str]) -> str:
    """Write the report to stdout, or nothing of it: on a full disk (or any write
    error) a file stdout was redirected to is cut back to where it stood. Returns
    what went wrong, or ""."""
    out = sys.stdout
    start = _offset(out)
    try:
        for piece in pieces:
            out.write(piece)
        out.flush()
    except BrokenPipeError:
        raise  # the reader left early (| head): main stops quietly
    except OSError as exc:
        _discard(out, start)
        return f"cannot write the report: {exc.strerror or exc}"
    return ""


def _offset(out: TextIO) -> int | None:
    """Where a regular file stdout writes to stands now (None: not a regular file)."""
    try:
        fd = out.fileno()
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        out.flush()
        if fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND:  # >>: writes go to the end
            return os.fstat(fd).st_size
        return os.lseek(fd, 0, os.SEEK_CUR)
    except (OSError, ValueError, io.UnsupportedOperation):
        return None


def _discard(out: TextIO, start: int | None) -> None:
    """Drop what could not be written: in a regular file the part that was (cut back
    to ``start``), and the buffer, so the exit does not try to write it again."""
    with contextlib.suppress(OSError, ValueError):
        fd = out.fileno()
        if start is not None:
            os.ftruncate(fd, start)
        os.dup2(os.open(os.devnull, os.O_WRONLY), fd)
