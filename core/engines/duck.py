"""The DuckDB engine: embedded, out of core, the default.

Each scan becomes one ``read_csv``/``read_parquet`` over its files (all cells of
text files read as text, so a bad cell is found by the same rules as the
loaders, not by DuckDB's guesses). One pass finds the distinct labels and counts
bad cells; a second reduces to one row per distinct score. DuckDB spills to its
temporary folder past the memory limit, so inputs larger than memory work.
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
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
    label_columns,
    out_format,
    positive_keys,
    row_scans,
    shard_scans,
)
from threshold_lab.core.engines.plan import Plan, Scan
from threshold_lab.core.errors import InputError, MissingDependency
from threshold_lab.core.output import CannotWrite, no_space, writing


def q(name: str) -> str:
    """A quoted SQL identifier."""
    return '"' + name.replace('"', '""') + '"'


def lit(text: str) -> str:
    """A quoted SQL string."""
    return "'" + text.replace("'", "''") + "'"


def default_memory_limit() -> str:
    """Half the machine's memory (DuckDB's own default is 80%): room for the rest."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return "2GB"
    return f"{max(total // 2 // 2**20, 256)}MiB"


def parse_memory_limit(text: str) -> str:
    """``--memory-limit``: a size such as 2GB, 1.5GiB or 512MB.

    >>> parse_memory_limit(" 2GB "), parse_memory_limit("512 mib")
    ('2GB', '512MiB')
    """
    m = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]i?B)\s*", text, re.IGNORECASE)
    if m is None:
        raise InputError(f"--memory-limit {text!r}: a size such as 2GB, 1.5GiB or 512MB")
    unit = m.group(2).upper().replace("IB", "iB")
    return f"{m.group(1)}{unit}"


def _number(col: str, kind: str, text: bool) -> str:
    """A cell as a double: text parsed (spaces stripped), numbers cast exactly."""
    if text or kind in TEXT_TYPES:
        return f"TRY_CAST(trim(CAST({q(col)} AS VARCHAR)) AS DOUBLE)"
    if kind == "bool":
        return "CAST(NULL AS DOUBLE)"
    return f"TRY_CAST({q(col)} AS DOUBLE)"


def _source(scan: Scan) -> tuple[str, dict[str, str]]:
    """The FROM clause of a scan, and each role's column as named there."""
    files = "[" + ", ".join(lit(str(f)) for f in scan.files) + "]"
    hive = any("=" in part for f in scan.files for part in f.parent.parts)
    hive_opts = f", hive_partitioning={str(hive).lower()}, hive_types_autocast=false"
    if scan.parquet:
        names = dict(scan.columns)
        return (
            f"read_parquet({files}, filename=true, file_row_number=true{hive_opts})",
            names,
        )
    positional = {h: f"c{i}" for i, h in enumerate(scan.header)}
    types = "{" + ", ".join(f"{lit(c)}: 'VARCHAR'" for c in positional.values()) + "}"
    names = {role: positional[col] for role, col in scan.columns}
    src = (
        f"read_csv({files}, header=true, delim={lit(scan.delimiter)}, quote='\"', "
        f"escape='\"', auto_detect=false, columns={types}, filename=true{hive_opts})"
    )
    return src, names


def _select(scan: Scan) -> str:
    """The scan as standard columns: file, rn, s, raw_s, grp, then the rest by kind."""
    src, names = _source(scan)
    text = not scan.parquet
    rn = "file_row_number" if scan.parquet else "CAST(NULL AS BIGINT)"
    grp = "CAST('' AS VARCHAR)"
    if scan.by is not None:
        by_col = scan.by
        if not scan.parquet and scan.by in scan.header:
            by_col = f"c{scan.header.index(scan.by)}"
        grp = f"CAST({q(by_col)} AS VARCHAR)"
    cols = [
        "filename AS file",
        f"{rn} AS rn",
        f"{_number(names['score'], scan.type_of('score'), text)} AS s",
        f"CAST({q(names['score'])} AS VARCHAR) AS raw_s",
        f"{grp} AS grp",
    ]
    if scan.aggregated:
        for role, alias in (("positives", "p"), ("negatives", "n")):
            cols.append(f"{_number(names[role], scan.type_of(role), text)} AS {alias}")
            cols.append(f"CAST({q(names[role])} AS VARCHAR) AS raw_{alias}")
        if "merged" in names:
            m = f"lower(trim(CAST({q(names['merged'])} AS VARCHAR)))"
            cols.append(f"({m} IN ('true', '1', '1.0')) AS merged")
            cols.append(f"({m} IN ('true', '1', '1.0', 'false', '0', '0.0')) AS merged_ok")
            cols.append("true AS approx")
        else:
            cols += ["false AS merged", "true AS merged_ok", "false AS approx"]
    else:
        cols.append(f"trim(CAST({q(names['label'])} AS VARCHAR)) AS lab")
        if "weight" in names:
            cols.append(f"{_number(names['weight'], scan.type_of('weight'), text)} AS w")
            cols.append(f"CAST({q(names['weight'])} AS VARCHAR) AS raw_w")
        else:
            cols += ["1.0 AS w", "'1' AS raw_w"]
    where = ""
    if not scan.parquet:  # a row of empty cells is a blank line, as the loaders read it
        blank = " AND ".join(f"coalesce(trim(c{i}), '') = ''" for i in range(len(scan.header)))
        where = f" WHERE NOT ({blank})"
    return f"SELECT {', '.join(cols)} FROM {src}{where}"


class Duck:
    """One run of a plan on DuckDB."""

    def __init__(self, plan: Plan, memory_limit: str, temp_directory: Path | None) -> None:
        try:
            import duckdb
        except ImportError:
            raise MissingDependency(
                "the duckdb engine needs duckdb: pip install 'threshold-lab[engines]'"
            ) from None
        self.duckdb = duckdb
        self.plan = plan
        self.memory_limit = memory_limit
        self._own_temp = temp_directory is None
        self.temp = (
            Path(tempfile.mkdtemp(prefix="threshold-lab-duckdb-"))
            if (temp_directory is None)
            else temp_directory
        )
        config: dict[str, str | bool | int | float | list[str]] = {
            "memory_limit": memory_limit,
            "temp_directory": str(self.temp),
            "preserve_insertion_order": "false",
        }
        try:
            self.con = duckdb.connect(":memory:", config=config)
        except duckdb.Error as exc:
            raise InputError(f"duckdb: {_first_line(exc)}") from None

    def close(self) -> None:
        self.con.close()
        if self._own_temp:
            shutil.rmtree(self.temp, ignore_errors=True)

    def sql(self, text: str, *, writing: Path | None = None) -> Any:
        """Run ``text``; ``writing`` is the temporary OUT a COPY writes, so that a
        full disk there is said as such."""
        try:
            return self.con.sql(text)
        except self.duckdb.Error as exc:
            if writing is not None and full_disk(str(exc), writing):
                raise CannotWrite(no_space(self.plan.out)) from None
            raise self._explain(exc) from None
        except RuntimeError as exc:  # Ctrl-C: DuckDB stops the query and says so
            if "interrupted" in str(exc).lower():
                raise KeyboardInterrupt from None
            raise

    def fetch(self, text: str) -> list[tuple[Any, ...]]:
        try:
            return list(self.sql(text).fetchall())
        except self.duckdb.Error as exc:
            raise self._explain(exc) from None
        except RuntimeError as exc:
            if "interrupted" in str(exc).lower():
                raise KeyboardInterrupt from None
            raise

    def _explain(self, exc: Exception) -> InputError:
        """DuckDB's message, with the file it names (or the inputs), on one line."""
        text = re.sub(r"\s*Possible solutions:?\s*$", "", _first_line(exc)).rstrip(": ")
        if "out of memory" in text.lower():
            text += (
                f" (the memory limit is {self.memory_limit}: raise it with --memory-limit, "
                "or give --temp-directory on a disk with room to spill)"
            )
        files = self.plan.files
        named = [f for f in files if str(f) in str(exc)] or (list(files) if len(files) == 1 else [])
        for f in named:
            exact_message(str(f), self.plan)  # a small CSV: the loader's message, by line
            return InputError(f"{f}: {text}")
        return InputError(f"{len(files)} input files: {text}")

    # --- the run ---------------------------------------------------------------

    def run(self) -> Result:
        plan = self.plan
        fmt, delim = out_format(plan.out)
        rows, shards = row_scans(plan), shard_scans(plan)
        parts = []
        n_rows = 0
        if rows:
            self.sql("CREATE TEMP VIEW rows_in AS " + " UNION ALL ".join(map(_select, rows)))
            positive, n_rows = self._check_rows()
            # No positive label at all (one class): every row is a negative.
            is_pos = f"lab IN ({', '.join(lit(k) for k in positive)})" if positive else "false"
            count = "count(*)" if not plan.weighted else "sum(w)"
            parts.append(
                "SELECT CASE WHEN s = 0 THEN 0.0 ELSE s END AS score, grp, "
                f"CAST(coalesce({count} FILTER (WHERE {is_pos}), 0) AS DOUBLE) AS p, "
                f"CAST(coalesce({count} FILTER (WHERE NOT ({is_pos})), 0) AS DOUBLE) AS n, "
                "false AS merged, false AS approx FROM rows_in GROUP BY 1, 2"
            )
        n_shards = 0
        if shards:
            self.sql("CREATE TEMP VIEW shards_in AS " + " UNION ALL ".join(map(_select, shards)))
            n_shards = self._check_shards()
            parts.append(
                "SELECT CASE WHEN s = 0 THEN 0.0 ELSE s END AS score, grp, p, n, merged, approx "
                "FROM shards_in"
            )
        if len(parts) == 1 and not shards:
            self.sql(f"CREATE TEMP TABLE exact AS {parts[0]}")
        else:
            self.sql(
                "CREATE TEMP TABLE exact AS SELECT score, grp, sum(p) AS p, sum(n) AS n, "
                "bool_or(merged) OR (count(*) > 1 AND bool_or(approx)) AS merged "
                f"FROM ({' UNION ALL '.join(parts)}) GROUP BY score, grp"
            )
        sums = self.fetch("SELECT grp, coalesce(sum(p + n), 0) FROM exact GROUP BY grp")
        totals = sorted((g, float(t)) for g, t in sums)
        check_sums(self.plan, totals)  # doubles overflow to inf without an error
        check_total(self.plan, sum(t for _, t in totals))
        final = self._quantise()
        groups = self._write(final, fmt, delim)
        return Result(plan.out, len(plan.files), n_rows, n_shards, groups, plan.rule, "duckdb")

    def _check_rows(self) -> tuple[list[str], int]:
        """The positive label keys and the row count; the first bad cell raises."""
        weighted = self.plan.weighted
        bad_w = (
            "count(*) FILTER (WHERE w IS NULL OR NOT isfinite(w) OR w < 0)" if (weighted) else "0"
        )
        found = self.fetch(
            "SELECT lab, min(file), count(*), "
            "count(*) FILTER (WHERE s IS NULL OR NOT isfinite(s)), "
            f"{bad_w}, count(*) FILTER (WHERE grp IS NULL) "
            "FROM rows_in GROUP BY lab ORDER BY min(file), lab LIMIT 1000"
        )
        if not found:
            raise InputError(f"{self.plan.files[0]}: no data rows after the header")
        if any(r[3] for r in found):
            self._first_bad("rows_in", "s IS NULL OR NOT isfinite(s)", "raw_s", "score")
        if any(r[4] for r in found):
            self._first_bad("rows_in", "w IS NULL OR NOT isfinite(w) OR w < 0", "raw_w", "weight")
        if any(r[5] for r in found):
            self._first_bad("rows_in", "grp IS NULL", "grp", "by")
        positive = positive_keys(
            [(r[0], r[1]) for r in found], self.plan, label_columns(self.plan), self._locate
        )
        return positive, sum(int(r[2]) for r in found)

    def _locate(self, file: str, key: str | None) -> str | None:
        """The row of label ``key`` in ``file`` (Parquet only: text files have no row
        numbers in DuckDB), as "row N"."""
        match = "lab IS NULL" if key is None else f"lab = {lit(key)}"
        found = self.fetch(
            f"SELECT rn FROM rows_in WHERE file = {lit(file)} AND {match} "
            "AND rn IS NOT NULL ORDER BY rn LIMIT 1"
        )
        return f"row {int(found[0][0]) + 1}" if found else None

    def _check_shards(self) -> int:
        """The shards' row count; the first bad cell raises. One pass counts every
        kind of bad cell; only a kind that occurs is looked for again, to name it."""
        bad_count = "p IS NULL OR NOT isfinite(p) OR p < 0 OR n IS NULL OR NOT isfinite(n) OR n < 0"
        checks = [
            ("s IS NULL OR NOT isfinite(s)", "raw_s", "score"),
            (
                bad_count,
                "CASE WHEN p IS NULL OR NOT isfinite(p) OR p < 0 THEN raw_p ELSE raw_n END",
                "positives/negatives",
            ),
            ("grp IS NULL", "grp", "by"),
            ("merged_ok IS NOT TRUE", "CAST(merged AS VARCHAR)", "merged"),
        ]
        counted = ", ".join(f"count(*) FILTER (WHERE {where})" for where, _, _ in checks)
        count, *bad = self.fetch(f"SELECT count(*), {counted} FROM shards_in")[0]
        for (where, raw, role), k in zip(checks, bad, strict=True):
            if k:
                self._first_bad("shards_in", where, raw, role)
        if not count:
            raise InputError(f"{shard_scans(self.plan)[0].files[0]}: no data rows after the header")
        return int(count)

    def _first_bad(self, view: str, where: str, raw: str, role: str) -> None:
        """Raise the message for the first cell (by file, then row) that ``where``
        finds. An aggregate's FILTER, not a WHERE: DuckDB pushes a WHERE into its
        Parquet reader, which skips row groups by their statistics, and those leave
        NaN out, so ``WHERE NOT isfinite(w)`` missed a NaN that the counts found."""
        found = self.fetch(f"SELECT min((file, rn, {raw})) FILTER (WHERE {where}) FROM {view}")
        if found and found[0][0] is not None:
            file, rn, value = found[0][0]
            raise bad_cell(self.plan, file, "" if rn is None else f"row {int(rn) + 1}", role, value)

    def _quantise(self) -> str:
        rule = self.plan.rule
        if rule is None:
            return "exact"
        if rule.kind == "round":
            # Doubles, not DuckDB's decimal literals: the same IEEE steps as numpy's.
            c = f"CAST({rule.scale!r} AS DOUBLE)"
            big = self.fetch(
                f"SELECT score FROM exact WHERE abs(score) * {c} >= CAST({ROUND_LIMIT!r} AS "
                "DOUBLE) LIMIT 1"
            )
            if big:
                raise InputError(f"score {big[0][0]!r} {TOO_LARGE.format(d=rule.value)}")
            self.sql(
                f"CREATE TEMP TABLE quantised AS SELECT floor(score * {c} + CAST(0.5 AS DOUBLE)) "
                f"/ {c} AS score, "
                "grp, sum(p) AS p, sum(n) AS n, bool_or(merged) OR count(*) > 1 AS merged "
                "FROM exact GROUP BY 1, grp"
            )
        else:
            n = rule.value
            self.sql(
                "CREATE TEMP TABLE quantised AS SELECT min(score) AS score, grp, sum(p) AS p, "
                "sum(n) AS n, bool_or(merged) OR count(*) > 1 AS merged FROM ("
                f"SELECT *, floor({n} * coalesce(sum(p + n) OVER (PARTITION BY grp ORDER BY "
                "score ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) / "
                "NULLIF(sum(p + n) OVER (PARTITION BY grp), 0)) AS bin FROM exact"
                ") GROUP BY grp, bin"
            )
        return "quantised"

    def _write(self, table: str, fmt: str, delim: str) -> tuple[Group, ...]:
        plan = self.plan
        whole = self.fetch(f"SELECT bool_and(p = floor(p) AND n = floor(n)) FROM {table}")[0][0]
        kind = "BIGINT" if whole and not plan.weighted else "DOUBLE"
        cols = [f"score, CAST(p AS {kind}) AS positives, CAST(n AS {kind}) AS negatives"]
        if plan.by is not None:
            cols.append(f"grp AS {q(plan.by)}")
        if plan.rule is not None:
            cols.append(f"merged, {lit(plan.rule.text)} AS quantisation")
        query = f"SELECT {', '.join(cols)} FROM {table} ORDER BY grp, score DESC"
        options = "FORMAT parquet" if fmt == "parquet" else f"HEADER, DELIMITER {lit(delim)}"
        with writing(plan.output) as tmp:
            self.sql(f"COPY ({query}) TO {lit(str(tmp))} ({options})", writing=tmp)
        stats = (
            self.fetch(
                "SELECT grp, count(*), sum(p), sum(n), "
                "coalesce(sum(p * n) FILTER (WHERE merged), 0) "
                f"FROM {table} GROUP BY grp ORDER BY grp"
            )
            if plan.rule is not None
            else self.fetch(
                f"SELECT grp, count(*), sum(p), sum(n), 0.0 FROM {table} GROUP BY grp ORDER BY grp"
            )
        )
        return tuple(_group(plan, *row) for row in stats)


def _group(plan: Plan, name: Any, scores: Any, p: Any, n: Any, pairs: Any) -> Group:
    """A group's summary; its bound from the merged rows' pos · neg."""
    e = None
    if plan.rule is not None and float(p) > 0 and float(n) > 0:
        e = float(pairs) / (2.0 * float(p) * float(n))
    return Group(None if plan.by is None else str(name), int(scores), float(p), float(n), e)


def _first_line(exc: BaseException) -> str:
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    return " ".join(lines[:2]) if lines else type(exc).__name__


def run(
    plan: Plan, *, memory_limit: str | None = None, temp_directory: Path | None = None
) -> Result:
    """Aggregate ``plan`` with DuckDB; OUT is written whole or not at all, and
    replaces nothing without ``plan.overwrite``."""
    engine = Duck(plan, memory_limit or default_memory_limit(), temp_directory)
    try:
        return engine.run()
    finally:
        engine.close()
