"""``threshold-lab aggregate``: reduce rows (or shards) to one row per distinct score.

Only core is imported here; the engines import DuckDB or Spark when run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from threshold_lab.core.data.cells import Columns
from threshold_lab.core.data.quantise import Rule, bins, bound_words, digits
from threshold_lab.core.engines.common import Result
from threshold_lab.core.engines.plan import Plan, plan
from threshold_lab.core.errors import InputError
from threshold_lab.core.output import CannotWrite
from threshold_lab.tui.cli import COMMANDS
from threshold_lab.tui.cli.args import PROG, Parser

SUMMARY = COMMANDS["aggregate"].summary  # the one line the command list gives

DESCRIPTION = (
    "Reduce an evaluation set to one row per distinct score (score, positives, negatives: "
    "counts, or weighted sums with a weight column), sorted by score, descending. That "
    "table is exact for every ranking and threshold metric, and threshold-lab opens it "
    "like the rows.\n\n"
    "INPUT is files, globs or folders (hive-partitioned Parquet included) of CSV, TSV or "
    "Parquet rows, or of aggregated shards, which are summed by score: a map-reduce over "
    "shards, or daily partitions, comes out exact. Labels follow the loaders' rules.\n\n"
    "Engines:\n"
    "  duckdb  embedded, the default: no server; spills to a temporary folder past its "
    "memory limit, so data larger than memory aggregates on one machine\n"
    "  spark   the DataFrame API on --spark-master (default local[*]); under spark-submit "
    "the session that exists is used\n\n"
    "Too many distinct scores? --round D or --quantile-bins N merge them; the file records "
    "it, and the AUC computed from it is within a bound of the true AUC that the report "
    "prints."
)


def parser() -> Parser:
    p = Parser(
        prog=f"{PROG} aggregate",
        usage=f"{PROG} aggregate INPUT... -o OUT [--engine duckdb|spark] [options]",
        description=DESCRIPTION,
    )
    p.add_argument("inputs", nargs="+", metavar="INPUT", help="files, globs or folders")
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUT",
        help="the aggregated file to write: .parquet, .csv or .tsv",
    )
    p.add_argument(
        "--overwrite",
        action="store_true",
        help="replace OUT if it exists (a failed run leaves it as it was); "
        "without it, an OUT that appears during the run is left too",
    )
    p.add_argument(
        "--engine",
        choices=("duckdb", "spark"),
        default="duckdb",
        help="duckdb (embedded, the default) or spark",
    )
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
        help="column of row weights (default: 'weight' if present)",
    )
    p.add_argument(
        "--positive",
        default=None,
        metavar="NAME",
        help="the label value that means positive, when labels are not 0/1 or true/false",
    )
    p.add_argument(
        "--by",
        default=None,
        metavar="COLUMN",
        help="one table per value of COLUMN (a model or a slice), in one pass; a "
        "column of the files or a hive partition key",
    )
    q = p.add_mutually_exclusive_group()
    q.add_argument(
        "--round",
        default=None,
        metavar="D",
        help="round scores to D decimal digits (bounded quantisation)",
    )
    q.add_argument(
        "--quantile-bins",
        default=None,
        metavar="N",
        help="merge scores into N equal-mass bins (bounded quantisation)",
    )
    p.add_argument(
        "--memory-limit",
        default=None,
        metavar="SIZE",
        help="duckdb: memory before spilling to disk, e.g. 4GB (default: half "
        "of this machine's memory)",
    )
    p.add_argument(
        "--temp-directory",
        default=None,
        metavar="DIR",
        help="duckdb: where to spill (default: a new folder in the system's "
        "temporary folder, removed afterwards)",
    )
    p.add_argument(
        "--spark-master",
        default=None,
        metavar="URL",
        help="spark: the cluster (default: local[*], or spark-submit's --master "
        "under spark-submit)",
    )
    return p


def rule_of(args: argparse.Namespace) -> Rule | None:
    if args.round is not None:
        return Rule("round", digits(args.round))
    if args.quantile_bins is not None:
        return Rule("quantile_bins", bins(args.quantile_bins))
    return None


def run(args: argparse.Namespace) -> int:
    """Aggregate as ``args`` ask: bad input raises InputError (status 2); a place
    OUT cannot be written (a read-only folder, a full disk) is one line and status
    1; Ctrl-C is one line and status 130."""
    out = Path(args.output)
    cols = Columns(
        score=args.score_column,
        label=args.label_column,
        weight=args.weight_column,
        positive=args.positive,
    )
    if args.engine == "spark" and (args.memory_limit or args.temp_directory):
        raise InputError(
            "--memory-limit and --temp-directory are for --engine duckdb; "
            "Spark takes its memory from its own configuration"
        )
    if args.engine == "duckdb" and args.spark_master is not None:
        raise InputError("--spark-master is for --engine spark")
    from threshold_lab.core.engines.common import out_format
    from threshold_lab.core.output import output

    out_format(out)
    p = plan(args.inputs, out, cols, by=args.by, rule=rule_of(args), overwrite=args.overwrite)
    try:
        # Before any work (the plan has refused OUT as one of its inputs already).
        target = output(out, "-o", overwrite=args.overwrite)
        if target.through:
            raise InputError(f"-o {out}: is not a file; aggregate writes a Parquet or CSV file")
        result = _run(args, p)
    except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM or SIGHUP: the temporary is gone
        from threshold_lab.tui.cli import stopped_by, stopped_line

        sys.stderr.write(stopped_line(exc, f"{out} was not written"))
        return 128 + stopped_by(exc)
    except CannotWrite as exc:
        return cannot_write(str(exc))
    print("\n".join(summary_lines(result, p.rule_from)))
    return 0


def cannot_write(message: str) -> int:
    """The end of a run whose OUT this machine cannot take (not the input's fault):
    one line on stderr, like a user error, but status 1."""
    sys.stderr.write(f"{PROG}: error: {message}\n")
    return 1


def _run(args: argparse.Namespace, p: Plan) -> Result:
    if args.engine == "spark":
        from threshold_lab.core.engines import spark

        return spark.run(p, master=args.spark_master)
    from threshold_lab.core.engines import duck

    limit = None if args.memory_limit is None else duck.parse_memory_limit(args.memory_limit)
    temp = None if args.temp_directory is None else Path(args.temp_directory)
    if temp is not None and not temp.is_dir():
        raise InputError(f"--temp-directory {temp}: no such folder")
    return duck.run(p, memory_limit=limit, temp_directory=temp)


def summary_lines(r: Result, rule_from: str = "") -> list[str]:
    """What a run wrote, in words."""
    came = []
    if r.rows:
        came.append(f"{r.rows:,} row{'s' if r.rows != 1 else ''}")
    if r.shards:
        came.append(f"{r.shards:,} aggregated row{'s' if r.shards != 1 else ''}")
    files = f"{r.files:,} file{'s' if r.files != 1 else ''}"
    lines = [
        f"Wrote {r.out}: {r.scores:,} distinct score{'s' if r.scores != 1 else ''} from "
        f"{' and '.join(came)} in {files} ({r.engine})."
    ]
    if r.rule is not None:
        how = r.rule.words()
        lines.append(
            f"Quantised: scores {how}" + (f" ({rule_from})" if rule_from else "") + "; the "
            "file records which rows were merged, and its AUC is within the bound below of "
            "the true AUC."
        )
    for g in r.groups:
        name = f"  {g.name}: " if g.name is not None else "  "
        line = (
            f"{name}{g.scores:,} scores, {_count(g.positives)} positives, "
            f"{_count(g.negatives)} negatives"
        )
        if not (g.positives > 0 and g.negatives > 0):
            line += "; one class only: AUC is undefined"
        elif r.rule is not None:
            line += "; AUC bound " + (
                f"± {bound_words(g.bound)}" if g.bound is not None else "undefined (one class)"
            )
        lines.append(line)
    lines.append(f"Open it: {PROG} {r.out}")
    return lines


def _count(x: float) -> str:
    return f"{int(x):,}" if float(x).is_integer() else f"{x:,.6g}"
