"""A full disk told from each engine's own words, and the words for totals past the
largest float (writing OUT itself is tests/core/test_output.py's).

The engines' runs are tested through the command (tests/tui/cli/test_aggregate.py);
here are the cases a run cannot easily make: a Spark error as Py4J raises it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from threshold_lab.core.data.cells import Columns
from threshold_lab.core.engines import spark as spark_engine
from threshold_lab.core.engines.common import (
    check_sums,
    full_disk,
)
from threshold_lab.core.engines.plan import plan
from threshold_lab.core.errors import InputError


def finished(folder: Path, text: str = "new\n", partial: str = ".o.csv.x.partial") -> Path:
    """A finished temporary OUT in ``folder``, as an engine leaves it."""
    tmp = folder / partial / "o.csv"
    tmp.parent.mkdir()
    tmp.write_text(text)
    return tmp


TMP = Path("/data/.o.parquet.k3j2.partial/o.parquet")

#: How DuckDB says its COPY ran out of space (one line, as it raises it).
DUCKDB_FULL = (
    'IO Error: Async write failed for range [offset=26, size=465266]: {"exception_type":"IO",'
    '"exception_message":"Could not write file \\"/data/.o.parquet.k3j2.partial/o.parquet\\": '
    'No space left on device","errno":"28"}'
)

#: The text of a Py4JJavaError from a Spark write to a full disk: the first line is all
#: that the command used to print.
SPARK_FULL = (
    "An error occurred while calling o331.parquet.\n"
    ": org.apache.spark.SparkException: [TASK_WRITE_FAILED] Task failed while writing rows "
    "to file:/data/.o.parquet.k3j2.partial/o.parquet.spark/_temporary/0/_temporary/"
    "attempt_2026_0030_m_000000_48/part-00000-c000.snappy.parquet. SQLSTATE: 58030\n"
    "\tat org.apache.spark.sql.errors.QueryExecutionErrors$.taskFailedWhileWritingRowsError\n"
    "Caused by: org.apache.hadoop.fs.FSError: java.io.IOException: No space left on device\n"
    "Caused by: java.io.IOException: No space left on device\n"
)


def test_a_full_disk_is_told_from_the_engines_words() -> None:
    assert full_disk(DUCKDB_FULL, TMP)
    assert full_disk(SPARK_FULL, TMP)
    # A full disk elsewhere (an engine's spill folder) is not OUT's.
    assert not full_disk(SPARK_FULL.replace(".o.parquet.k3j2.partial", "spark-local"), TMP)
    assert not full_disk(SPARK_FULL.replace("No space left on device", "Stream closed"), TMP)


class FakeClass:
    def __init__(self, name: str) -> None:
        self.name = name

    def getName(self) -> str:
        return self.name


class FakeJava:
    """A Java exception as Py4J hands it over: a class, a message, a cause (Java's
    method names)."""

    def __init__(self, name: str, message: str, cause: FakeJava | None = None) -> None:
        self.name, self.message, self.cause = name, message, cause

    def getClass(self) -> FakeClass:
        return FakeClass(self.name)

    def getMessage(self) -> str:
        return self.message

    def getCause(self) -> FakeJava | None:
        return self.cause


class FakePy4JError(Exception):
    """A Py4JJavaError-like error whose text is cut short: the cause is only in its
    Java exception's chain."""

    def __init__(self, text: str, java: FakeJava) -> None:
        super().__init__(text)
        self.java_exception = java


def test_a_spark_write_to_a_full_disk_is_found_in_its_java_causes() -> None:
    """Synthetic errors (a real one is in tests/tui/cli/test_aggregate.py when a tmpfs
    can be mounted): the text of a Py4J error, and a Java cause chain."""
    assert full_disk(spark_engine.error_text(Exception(SPARK_FULL)), TMP)
    cause = FakeJava("java.io.IOException", "No space left on device")
    java = FakeJava("org.apache.spark.SparkException", f"[TASK_WRITE_FAILED] {TMP}.spark", cause)
    exc = FakePy4JError("An error occurred while calling o331.parquet.", java)
    text = spark_engine.error_text(exc)
    assert text.splitlines() == [
        "An error occurred while calling o331.parquet.",
        f"org.apache.spark.SparkException: [TASK_WRITE_FAILED] {TMP}.spark",
        "java.io.IOException: No space left on device",
    ]
    assert full_disk(text, TMP)


def test_totals_past_the_largest_float_in_the_loaders_words(tmp_path: Path) -> None:
    """What an engine says when its sums overflowed (the loader, reading these small
    files again, finds nothing wrong in them: the engine's words stand)."""
    csv = tmp_path / "rows.csv"
    csv.write_text("score,label,w\n0.5,1,1\n0.25,0,1\n")
    shards = tmp_path / "counts.csv"
    shards.write_text("score,positives,negatives\n0.5,1,1\n")
    weighted = plan([str(csv)], tmp_path / "o.csv", Columns(weight="w"))
    counted = plan([str(shards)], tmp_path / "o2.csv", Columns())
    check_sums(weighted, [("", 1e308)])  # finite: nothing to say
    with pytest.raises(InputError) as caught:
        check_sums(weighted, [("", float("inf"))])
    past = "take the total weight past the largest float (about 1.8e308): scale the weights down"
    assert str(caught.value) == f"{csv}, column 'w': the weights {past}"
    with pytest.raises(InputError) as caught:
        check_sums(counted, [("", float("inf"))])
    assert str(caught.value) == f"{shards}, column 'positives/negatives': the counts {past}"
