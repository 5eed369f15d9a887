"""``threshold-lab report``: the metrics, the exact sweep and the summaries, printed.

Headless: core only, never Textual.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any

from core.analysis import Analysis, analyse
from core.calibration.transform import Kept, parse_transform, transform_rows
from core.compare.models import Comparison, compare, pairs
from core.data.aggregated import Quantised
from core.data.dataset import Dataset, Model
from core.data.loaders import slow_reader_note
from core.data.presets import PRESET_NAMES
from core.decide.goal import parse_goal
from core.decide.solve import Decision, metrics_at_prevalence, parse_prevalence
from core.decide.text import solved_at, with_decision
from core.errors import InputError
from core.intervals import Sure
from core.intervals.bootstrap import SEED, bootstrap
from core.multiclass.metrics import multiclass_report
from core.text.multiclass import multiclass_lines
from core.text.report import (
    JSON_POINTS,
    MIN_POINTS,
    TEXT_POINTS,
    json_pieces,
    report_json,
    report_text,
)
from tui.cli.args import (
    PROG,
    Parser,
    SourceArgs,
    add_interval_options,
    add_meaning_options,
    add_source_options,
    note,
)

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
        help="with --goal: exit 1 (and say why on stderr) when the goal is infeasible",
    )
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
    if args.check and not args.goal:
        raise InputError("--check needs --goal (it fails the run when the goal is infeasible)")
    if args.seed is not None and args.bootstrap is None:
        raise InputError("--seed needs --bootstrap (it seeds the bootstrap's resampling)")
    goal = parse_goal(args.goal) if args.goal else None
    prevalence = parse_prevalence(args.prevalence) if args.prevalence else None
    src, threshold = wanted.open(keep=goal.columns() if goal else ())
    seed = SEED if args.seed is None else args.seed

    transform = None if args.transform is None else parse_transform(args.transform)
    transformed: list[Kept] = []

    def one(data: Dataset) -> tuple[Analysis, Decision | None, Sure]:
        """One model's analysis: at the threshold, or at its own goal point (on the
        transformed scores, with --transform)."""
        if transform is not None:
            data, said, a = transform_rows(transform, data, threshold, beta=wanted.beta)
            transformed.append(said)  # ``a``: the transformed rows, swept once
        else:
            a = analyse(data, threshold, beta=wanted.beta)
        decision = setting = None
        if goal is not None:
            a, decision, setting = solved_at(a, goal, prevalence, data, src.columns)
        sure = Sure(args.confidence)
        if args.bootstrap is not None:
            boot = bootstrap(
                a.sweep, a.point, beta=wanted.beta, replicates=args.bootstrap, seed=seed,
                confidence=args.confidence, bands=True,
                goal=None if goal is None or setting is None else (goal, setting),
            )  # fmt: skip
            sure = Sure(args.confidence, boot)
        return a, decision, sure

    a, decision, sure = one(src.data)
    first = src.models[0].name if src.models else ""
    quantised = src.quantised.get(first)
    extra: dict[str, Any] = {}
    if src.group_by is not None:
        extra["groups"] = {"by": src.group_by, "names": [m.name for m in src.models],
                           "shown": first}  # fmt: skip
    if transformed:
        extra["transform"] = transformed[0].as_json()
    summary = None if src.multiclass is None else multiclass_report(src.multiclass)
    if summary is not None and src.multiclass is not None:
        extra["class"] = src.multiclass.classes[src.klass]
        extra["multiclass"] = summary.as_json()
    if decision is not None:
        extra["goal"] = decision.as_json()
        if args.bootstrap is not None and decision.feasible and decision.threshold is not None:
            extra["goal"].update(_prefixed("threshold_", sure.estimate("goal_threshold")))
    if prevalence is not None:
        at = metrics_at_prevalence(a.sweep, a.point, prevalence, wanted.beta)
        extra["at_prevalence"] = {
            "prevalence": f"{prevalence.numerator}/{prevalence.denominator}",
            "metrics": {name: m.as_json() for name, m in at.items()},
        }
    points: int | None = args.points
    json_points = JSON_POINTS if points == _DEFAULT_POINTS else points
    compared: list[Comparison] = []
    if len(src.models) >= 2:
        # Every model at its own point (the threshold, or its own goal's), then each pair.
        runs = [(a, decision, sure), *(one(m.data) for m in src.models[1:])]
        boot = None if args.bootstrap is None else (args.bootstrap, seed)
        compared = [
            compare(
                src.models[i],
                runs[i][0],
                src.models[j],
                runs[j][0],
                args.confidence,
                boot,
                paired=src.paired,
            )
            for i, j in pairs(src.models)
        ]
        if args.json:
            extra["models"] = [
                _model_json(
                    m.name,
                    run,
                    src.label,
                    json_points,
                    args.bootstrap is not None,
                    src.quantised.get(m.name),
                )
                for m, run in zip(src.models, runs, strict=True)
            ]
            extra["comparison"] = [c.as_json() for c in compared]
    if args.json:
        for piece in json_pieces(
            a,
            source=src.label,
            points=json_points,
            extra=extra,
            sure=sure,
            bins=(args.bins, args.binning),
            quantised=quantised,
        ):
            sys.stdout.write(piece)
        sys.stdout.write("\n")
    else:
        limit = TEXT_POINTS if points == _DEFAULT_POINTS else points
        text = report_text(
            a, source=src.label, sweep_limit=limit, sure=sure, bins=(args.bins, args.binning),
            quantised=quantised,
        )  # fmt: skip
        if transformed:
            head, _, rest = text.partition("\n")
            text = f"{head}\n{transformed[0].sentence()}\n{rest}"
        estimate = sure.estimate("goal_threshold") if sure.boot else None
        text = with_decision(
            text, a, decision, prevalence, wanted.beta, threshold_estimate=estimate
        )
        if compared:
            text = with_models(text, src.models, compared, src.group_by)
        if src.group_by is not None:
            head, _, rest = text.partition("\n")
            text = (f"{head}\nGroup {first} ({src.group_by} = {first}; {len(src.models)} groups, "
                    f"--group NAME for another; they are compared at the end)\n{rest}")  # fmt: skip
        if summary is not None and src.multiclass is not None:
            head, _, rest = text.partition("\n")
            name = src.multiclass.classes[src.klass]
            text = (
                f"{head}\nClass {name} against the rest (--class C for another; the "
                f"multiclass summary is at the end)\n{rest}\n"
                + "\n".join(multiclass_lines(summary))
                + "\n"
            )
        sys.stdout.write(text)
    if args.check and decision is not None and not decision.feasible:
        note(f"goal not met: {decision.reason}")
        return 1
    return 0


def _prefixed(prefix: str, estimate: Any) -> dict[str, Any]:
    """An estimate's ``interval`` fields renamed ``threshold_interval`` and so on."""
    return {prefix + k: v for k, v in estimate.as_json_fields().items()}


def _model_json(
    name: str,
    run: tuple[Analysis, Decision | None, Sure],
    source: str,
    points: int | None,
    booted: bool,
    quantised: Quantised | None = None,
) -> dict[str, Any]:
    """One model's report fields (as the top level has them for the first model)."""
    a, decision, sure = run
    fields = report_json(a, source=source, points=points, sure=sure, quantised=quantised)
    out: dict[str, Any] = {"name": name, **fields}
    if decision is not None:
        out["goal"] = decision.as_json()
        if booted and decision.feasible and decision.threshold is not None:
            out["goal"].update(_prefixed("threshold_", sure.estimate("goal_threshold")))
    return out


def with_models(
    text: str, models: Sequence[Model], compared: Sequence[Comparison], by: str | None = None
) -> str:
    """The text report with a section comparing the models (or an aggregated file's
    groups), after the first one's."""
    lines = ["", f"Models ({len(models)}, the same {models[0].data.n} examples; the report "
             f"above is model {models[0].name}'s)"]  # fmt: skip
    if by is not None:
        names = ", ".join(m.name for m in models)
        lines = ["", f"Groups by {by} ({len(models)}: {names}; each is different examples, "
                 f"compared as independent samples; the report above is group "
                 f"{models[0].name}'s, --group NAME for another)"]  # fmt: skip
    for c in compared:
        lines += c.detail_lines()
    return text + "\n".join(lines) + "\n"
