"""The Spark engine: the same plan with the DataFrame API, for data on a cluster.

``--spark-master`` picks the cluster (default ``local[*]``, this machine's
cores); under ``spark-submit`` the session that exists is used as it is. The
output is sorted, gathered into one partition and written by Spark beside OUT,
then published as OUT (:func:`~threshold_lab.core.engines.common.publish`), so a
run that fails leaves nothing behind and, without ``--overwrite``, replaces nothing.
"""

from __future__ import annotations

import contextlib
import glob
import logging
import os
import shutil
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

from threshold_lab.core.data.quantise import ROUND_LIMIT
from threshold_lab.core.engines.common import (
    TEXT_TYPES,
    TOO_LARGE,
    Group,
    Result,
    bad_cell,
    check_sums,
    check_total,
    exact_message,
    full_disk,
    given,
    label_columns,
    out_format,
    positive_keys,
    row_scans,
    shard_scans,
)
from threshold_lab.core.engines.plan import Plan, Scan
from threshold_lab.core.errors import InputError, MissingDependency
from threshold_lab.core.output import CannotWrite, no_space, writing


def session(master: str | None = None) -> Any:
    """The active Spark session, or a new one on ``master``: by default ``local[*]``,
    except under ``spark-submit``, whose ``--master`` then stands."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            from pyspark.sql import SparkSession
    except ImportError:
        raise MissingDependency(
            "the spark engine needs pyspark: pip install 'threshold-lab[spark]'"
        ) from None
    _quiet_python_loggers()
    active = SparkSession.getActiveSession()
    if active is not None:
        return active
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        raise InputError(
            "the spark engine needs Java 17 or later: install a JDK (java on PATH, or JAVA_HOME)"
        )
    submitted = "PYSPARK_GATEWAY_PORT" in os.environ  # the JVM of spark-submit started us
    if master is None and not submitted:
        master = "local[*]"
    builder = SparkSession.builder if master is None else SparkSession.builder.master(master)
    builder = (
        builder.appName("threshold-lab aggregate")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.sources.partitionColumnTypeInference.enabled", "false")
        .config("spark.sql.session.timeZone", "UTC")
    )
    if master is not None and master.startswith("local"):
        builder = builder.config("spark.sql.shuffle.partitions", "8")
    # The JVM writes its own notes and, when a task fails, Java stack traces to its
    # stderr: that is a log file, so a user error stays one line (the log is named
    # in Spark's errors). The JVM keeps the file it started with; ours comes back.
    global LOG
    fd, name = tempfile.mkstemp(prefix="threshold-lab-spark-", suffix=".log")
    LOG = Path(name)
    sys.stderr.flush()
    saved = os.dup(2)
    os.dup2(fd, 2)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            spark = builder.getOrCreate()
        spark.sparkContext.setLogLevel("ERROR")
    except Exception as exc:  # Py4J and the JVM raise many kinds
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        where = master or "the spark-submit master"
        raise InputError(
            f"spark could not start on {where} ({first}); it needs Java 17 "
            f"or later (its log: {LOG})"
        ) from None
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(fd)
    return spark


#: Where the JVM this process started writes its stderr (None: none started here).
LOG: Path | None = None

#: PySpark's own loggers for an error with a query context: each has a handler of its
#: own, writing a JSON record of the error to stderr, above the error's one line.
CONTEXT_LOGGERS = ("DataFrameQueryContextLogger", "SQLQueryContextLogger")


def _quiet_python_loggers() -> None:
    """Silence the Python side's logs: py4j (and pyspark's Ctrl-C handler) log a
    traceback for each call an interrupt cuts short, and PySpark logs each error
    with a query context as a JSON record on stderr. Not for a user to read: the
    error itself is the message. This process is the command's own."""
    for name in ("py4j", "pyspark", ""):
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)
    try:
        from pyspark.logger import PySparkLogger
    except ImportError:  # older PySpark: no such loggers
        return
    for name in CONTEXT_LOGGERS:  # as PySparkLogger makes them, so that it keeps them
        PySparkLogger.getLogger(name).setLevel(logging.CRITICAL + 1)


def _path(p: Path) -> str:
    return str(p.resolve())


class SparkRun:
    """One run of a plan on Spark."""

    def __init__(self, plan: Plan, master: str | None) -> None:
        self.plan = plan
        self.spark = session(master)
        from pyspark.sql import functions as F

        self.F = F

    def _frame(self, scan: Scan) -> Any:
        """The scan as standard columns: file, s, raw_s, grp, then the rest by kind."""
        F = self.F
        reader = self.spark.read
        if scan.root is not None:
            reader = reader.option("basePath", _path(scan.root))
        files = [_path(f) for f in scan.files]
        if scan.parquet:
            df = reader.parquet(*files)
            names = dict(scan.columns)
        else:
            df = (
                reader.option("header", True)
                .option("sep", scan.delimiter)
                .option("quote", '"')
                .option("escape", '"')
                .option("mode", "FAILFAST")
                .option("inferSchema", False)
                .option("enforceSchema", False)
                .option("encoding", "UTF-8")
                .csv(files)
            )
            width = len(scan.header)
            positional = [f"c{i}" for i in range(width)]
            df = df.toDF(*positional, *df.columns[width:])
            # A row of empty cells is a blank line, as the loaders read it.
            blank = None
            for c in positional:
                empty = F.coalesce(F.trim(F.col(c)), F.lit("")) == ""
                blank = empty if blank is None else blank & empty
            if blank is not None:
                df = df.where(~blank)
            names = {role: f"c{scan.header.index(col)}" for role, col in scan.columns}
        text = not scan.parquet

        def number(role: str) -> Any:
            col = F.col(f"`{names[role]}`")
            if text or scan.type_of(role) in TEXT_TYPES:
                return F.trim(col.cast("string")).try_cast("double")
            if scan.type_of(role) == "bool":
                return F.lit(None).cast("double")
            return col.try_cast("double")

        def raw(role: str) -> Any:
            return F.col(f"`{names[role]}`").cast("string")

        grp = F.lit("")
        if scan.by is not None:
            by_col = (
                f"c{scan.header.index(scan.by)}" if (text and scan.by in scan.header) else scan.by
            )
            grp = F.col(f"`{by_col}`").cast("string")
        cols = [
            F.input_file_name().alias("file"),
            number("score").alias("s"),
            raw("score").alias("raw_s"),
            grp.alias("grp"),
        ]
        if scan.aggregated:
            cols += [
                number("positives").alias("p"),
                raw("positives").alias("raw_p"),
                number("negatives").alias("n"),
                raw("negatives").alias("raw_n"),
            ]
            if "merged" in names:
                m = F.lower(F.trim(F.col(f"`{names['merged']}`").cast("string")))
                cols += [
                    m.isin("true", "1", "1.0").alias("merged"),
                    m.isin("true", "1", "1.0", "false", "0", "0.0").alias("merged_ok"),
                    F.lit(True).alias("approx"),
                ]
            else:
                cols += [
                    F.lit(False).alias("merged"),
                    F.lit(True).alias("merged_ok"),
                    F.lit(False).alias("approx"),
                ]
        else:
            cols.append(F.trim(F.col(f"`{names['label']}`").cast("string")).alias("lab"))
            if "weight" in names:
                cols += [number("weight").alias("w"), raw("weight").alias("raw_w")]
            else:
                cols += [F.lit(1.0).alias("w"), F.lit("1").alias("raw_w")]
        return df.select(*cols).withColumn("file", F.regexp_replace("file", "^file:(//)?", ""))

    def _union(self, scans: list[Scan]) -> Any:
        frames = [self._frame(s) for s in scans]
        out = frames[0]
        for f in frames[1:]:
            out = out.unionByName(f)
        return out

    def run(self) -> Result:
        F, plan = self.F, self.plan
        fmt, delim = out_format(plan.out)
        rows, shards = row_scans(plan), shard_scans(plan)
        parts = []
        n_rows = n_shards = 0
        try:
            if rows:
                df = self._union(rows)
                positive, n_rows = self._check_rows(df)
                is_pos = F.col("lab").isin(*positive) if positive else F.lit(False)
                w = F.lit(1.0) if not plan.weighted else F.col("w")
                score = F.when(F.col("s") == 0, F.lit(0.0)).otherwise(F.col("s"))
                parts.append(
                    df.select(
                        score.alias("score"),
                        "grp",
                        F.when(is_pos, w).otherwise(0.0).alias("p"),
                        F.when(is_pos, 0.0).otherwise(w).alias("n"),
                    )
                    .groupBy("score", "grp")
                    .agg(F.sum("p").alias("p"), F.sum("n").alias("n"))
                    .withColumn("merged", F.lit(False))
                    .withColumn("approx", F.lit(False))
                )
            if shards:
                df = self._union(shards)
                n_shards = self._check_shards(df)
                score = F.when(F.col("s") == 0, F.lit(0.0)).otherwise(F.col("s"))
                parts.append(df.select(score.alias("score"), "grp", "p", "n", "merged", "approx"))
            if len(parts) == 1 and not shards:
                exact = parts[0].select("score", "grp", "p", "n", "merged")
            else:
                both = parts[0] if len(parts) == 1 else parts[0].unionByName(parts[1])
                exact = both.groupBy("score", "grp").agg(
                    F.sum("p").alias("p"),
                    F.sum("n").alias("n"),
                    (F.max(F.col("merged").cast("int")) == 1).alias("m0"),
                    F.count(F.lit(1)).alias("k"),
                    (F.max(F.col("approx").cast("int")) == 1).alias("a0"),
                )
                merged = F.col("m0") | ((F.col("k") > 1) & F.col("a0"))
                exact = exact.select("score", "grp", "p", "n", merged.alias("merged"))
            exact = exact.cache()
            sums = exact.groupBy("grp").agg(F.sum(F.col("p") + F.col("n")).alias("t")).collect()
            totals = sorted((r["grp"], float(r["t"] or 0.0)) for r in sums)
            # Doubles overflow to inf without an error (and floor(inf) fails later).
            check_sums(plan, totals)
            check_total(plan, sum(t for _, t in totals))
            final = self._quantise(exact)
            return self._write(final, fmt, delim, n_rows, n_shards)
        except InputError:
            raise
        except KeyboardInterrupt:
            with contextlib.suppress(Exception):
                self.spark.sparkContext.cancelAllJobs()
            raise
        except Exception as exc:  # the JVM's errors, as one line naming the inputs
            raise self._explain(exc) from None

    def _explain(self, exc: Exception) -> InputError:
        """Spark's first line, naming the file it names (or the inputs); a small CSV
        gets the exact loader's message instead, naming the line."""
        text = " ".join(str(exc).strip().splitlines()[:1]) or type(exc).__name__
        if LOG is not None:
            text += f" (Spark's log: {LOG})"
        files = self.plan.files
        named = [f for f in files if str(f.resolve()) in str(exc)] or (
            list(files) if len(files) == 1 else []
        )
        for f in named:
            exact_message(str(f), self.plan)
            return InputError(f"{f}: {text}")
        return InputError(f"{len(files)} input files: {text}")

    def _check_rows(self, df: Any) -> tuple[list[str], int]:
        F = self.F
        bad_s = F.col("s").isNull() | F.isnan("s") | (F.abs("s") == float("inf"))
        bad_w = F.col("w").isNull() | F.isnan("w") | (F.abs("w") == float("inf")) | (F.col("w") < 0)
        found = (
            df.groupBy("lab")
            .agg(
                F.min("file").alias("file"),
                F.count(F.lit(1)).alias("k"),
                F.sum(bad_s.cast("int")).alias("bad_s"),
                F.sum(bad_w.cast("int")).alias("bad_w"),
                F.sum(F.col("grp").isNull().cast("int")).alias("bad_g"),
            )
            .orderBy("file", "lab")
            .limit(1000)
            .collect()
        )
        if not found:
            raise InputError(f"{self.plan.files[0]}: no data rows after the header")
        if any(r["bad_s"] for r in found):
            self._first_bad(df, bad_s, "raw_s", "score")
        if any(r["bad_w"] for r in found):
            self._first_bad(df, bad_w, "raw_w", "weight")
        if any(r["bad_g"] for r in found):
            self._first_bad(df, F.col("grp").isNull(), "grp", "by")
        labels = [(r["lab"], given(self.plan, r["file"])) for r in found]
        positive = positive_keys(labels, self.plan, label_columns(self.plan))
        return positive, sum(int(r["k"]) for r in found)

    def _check_shards(self, df: Any) -> int:
        F = self.F

        def bad(c: str) -> Any:
            return F.col(c).isNull() | F.isnan(c) | (F.abs(c) == float("inf"))

        bad_count = bad("p") | (F.col("p") < 0) | bad("n") | (F.col("n") < 0)
        raw_count = F.when(bad("p") | (F.col("p") < 0), F.col("raw_p")).otherwise(F.col("raw_n"))
        self._first_bad(df, bad("s"), "raw_s", "score")
        self._first_bad(df, bad_count, raw_count, "positives/negatives")
        self._first_bad(df, F.col("grp").isNull(), "grp", "by")
        not_ok = F.col("merged_ok").isNull() | ~F.col("merged_ok")  # a null is not true/false
        self._first_bad(df, not_ok, F.col("merged").cast("string"), "merged")
        count = int(df.count())
        if not count:
            raise InputError(f"{shard_scans(self.plan)[0].files[0]}: no data rows after the header")
        return count

    def _first_bad(self, df: Any, where: Any, raw: Any, role: str) -> None:
        value = self.F.col(raw) if isinstance(raw, str) else raw
        found = df.where(where).select("file", value.alias("v")).limit(1).collect()
        if found:  # Spark keeps no row numbers: the file and the value
            raise bad_cell(self.plan, found[0]["file"], "", role, found[0]["v"])

    def _quantise(self, exact: Any) -> Any:
        F, rule = self.F, self.plan.rule
        if rule is None:
            return exact
        from pyspark.sql import Window

        if rule.kind == "round":
            c = rule.scale
            big = exact.where(F.abs("score") * F.lit(c) >= F.lit(ROUND_LIMIT)).limit(1).collect()
            if big:
                raise InputError(f"score {big[0]['score']!r} {TOO_LARGE.format(d=rule.value)}")
            key = (F.floor(F.col("score") * F.lit(c) + F.lit(0.5)).cast("double") / F.lit(c)).alias(
                "q"
            )
            return (
                exact.select(key, "grp", "p", "n", "merged")
                .groupBy("q", "grp")
                .agg(
                    F.sum("p").alias("p"),
                    F.sum("n").alias("n"),
                    ((F.max(F.col("merged").cast("int")) == 1) | (F.count(F.lit(1)) > 1)).alias(
                        "merged"
                    ),
                )
                .withColumnRenamed("q", "score")
            )
        n = rule.value
        ordered = (
            Window.partitionBy("grp").orderBy("score").rowsBetween(Window.unboundedPreceding, -1)
        )
        whole = Window.partitionBy("grp")
        mass = F.col("p") + F.col("n")
        below = F.coalesce(F.sum(mass).over(ordered), F.lit(0.0))
        total = F.sum(mass).over(whole)
        binned = exact.withColumn(
            "bin", F.when(total > 0, F.floor(F.lit(float(n)) * below / total)).otherwise(F.lit(0))
        )
        return binned.groupBy("grp", "bin").agg(
            F.min("score").alias("score"),
            F.sum("p").alias("p"),
            F.sum("n").alias("n"),
            ((F.max(F.col("merged").cast("int")) == 1) | (F.count(F.lit(1)) > 1)).alias("merged"),
        )

    def _write(self, final: Any, fmt: str, delim: str, n_rows: int, n_shards: int) -> Result:
        F, plan = self.F, self.plan
        final = final.cache()
        try:
            stats = (
                final.groupBy("grp")
                .agg(
                    F.count(F.lit(1)).alias("k"),
                    F.sum("p").alias("p"),
                    F.sum("n").alias("n"),
                    F.sum(F.when(F.col("merged"), F.col("p") * F.col("n")).otherwise(0.0)).alias(
                        "pairs"
                    ),
                    F.min((F.col("p") == F.floor("p")) & (F.col("n") == F.floor("n"))).alias(
                        "whole"
                    ),
                )
                .orderBy("grp")
                .collect()
            )
            whole = all(r["whole"] for r in stats)
            kind = "bigint" if whole and not plan.weighted else "double"
            cols = [
                F.col("score"),
                F.col("p").cast(kind).alias("positives"),
                F.col("n").cast(kind).alias("negatives"),
            ]
            if plan.by is not None:
                cols.append(F.col("grp").alias(plan.by))
            if plan.rule is not None:
                cols += [F.col("merged"), F.lit(plan.rule.text).alias("quantisation")]
            ordered = final.orderBy(F.col("grp"), F.col("score").desc()).select(*cols)
            with writing(plan.output) as tmp:
                try:
                    _save(ordered, fmt, delim, tmp)
                except Exception as exc:
                    if full_disk(error_text(exc), tmp):
                        raise CannotWrite(no_space(plan.out)) from None
                    raise
        finally:
            final.unpersist()
        groups = []
        for r in stats:
            p, n = float(r["p"] or 0.0), float(r["n"] or 0.0)
            e = (
                float(r["pairs"] or 0.0) / (2 * p * n)
                if plan.rule is not None and p > 0 and n > 0
                else None
            )
            groups.append(Group(None if plan.by is None else r["grp"], int(r["k"]), p, n, e))
        return Result(
            plan.out, len(plan.files), n_rows, n_shards, tuple(groups), plan.rule, "spark"
        )


def _save(ordered: Any, fmt: str, delim: str, tmp: Path) -> None:
    """Write ``ordered`` (one partition) as the file ``tmp``: Spark writes a folder
    beside it, whose one part becomes ``tmp``."""
    folder = str(tmp) + ".spark"
    writer = ordered.coalesce(1).write.mode("overwrite")
    if fmt == "parquet":
        # Row groups of 32 MiB: a reader reads them in parallel.
        writer.option("parquet.block.size", 32 * 2**20).parquet(folder)
        pattern = "part-*.parquet"
    else:
        writer.option("header", True).option("sep", delim).option("quote", '"').option(
            "escape", '"'
        ).option("emptyValue", '""').csv(folder)
        pattern = "part-*.csv"
    parts = sorted(glob.glob(os.path.join(folder, pattern)))
    if len(parts) != 1:
        raise InputError(f"spark wrote {len(parts)} parts, not one")
    os.replace(parts[0], tmp)


def error_text(exc: BaseException) -> str:
    """All that an error from Spark says, its Java causes included: a Py4J error's
    text holds the Java stack trace ("Caused by: java.io.IOException: No space left
    on device" under "An error occurred while calling o331.parquet."), and its Java
    exception (``java_exception``; ``_origin`` for PySpark's own errors) is walked
    too, in case that text is cut short. Talking to the JVM may fail: what was read
    by then is returned."""
    parts: list[str] = []
    with contextlib.suppress(Exception):
        parts.append(str(exc))
    java = getattr(exc, "java_exception", None) or getattr(exc, "_origin", None)
    with contextlib.suppress(Exception):
        for _ in range(32):  # a cause chain is short; a cycle must not hang here
            if java is None:
                break
            parts.append(f"{java.getClass().getName()}: {java.getMessage()}")
            java = java.getCause()
    return "\n".join(parts)


def run(plan: Plan, *, master: str | None = None) -> Result:
    """Aggregate ``plan`` with Spark; OUT is written whole or not at all, and
    replaces nothing without ``plan.overwrite``. The JVM's log is kept only when a
    run fails with a message that names it."""
    try:
        result = SparkRun(plan, master).run()
    except KeyboardInterrupt:
        _drop_log()
        raise
    except InputError as exc:
        if LOG is None or str(LOG) not in str(exc):
            _drop_log()
        raise
    _drop_log()
    return result


def _drop_log() -> None:
    if LOG is not None:
        with contextlib.suppress(OSError):
            LOG.unlink()
