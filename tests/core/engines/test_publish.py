"""Publishing OUT (never over a file that appeared meanwhile, unless asked), the one
line for a place that cannot take it, and the words for totals past the largest float.

The engines' runs are tested through the command (tests/tui/cli/test_aggregate.py);
here are the pieces, with the cases a run cannot easily make: no hard links, a copy
that fails half-way, a Spark error as Py4J raises it.
"""

from __future__ import annotations

import errno
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest
from threshold_lab.core.data.cells import Columns
from threshold_lab.core.engines import common
from threshold_lab.core.engines import spark as spark_engine
from threshold_lab.core.engines.common import (
    CannotWrite,
    check_sums,
    full_disk,
    publish,
    whole_or_nothing,
)
from threshold_lab.core.engines.plan import plan
from threshold_lab.core.errors import InputError


def finished(folder: Path, text: str = "new\n", partial: str = ".o.csv.x.partial") -> Path:
    """A finished temporary OUT in ``folder``, as an engine leaves it."""
    tmp = folder / partial / "o.csv"
    tmp.parent.mkdir()
    tmp.write_text(text)
    return tmp


def test_publish_makes_a_new_file(tmp_path: Path) -> None:
    tmp, out = finished(tmp_path), tmp_path / "o.csv"
    publish(tmp, out)
    assert out.read_text() == "new\n"


def test_publish_never_replaces_without_overwrite(tmp_path: Path) -> None:
    tmp, out = finished(tmp_path), tmp_path / "o.csv"
    out.write_text("theirs\n")
    with pytest.raises(InputError) as caught:
        publish(tmp, out)
    assert str(caught.value) == (
        f"-o {out}: appeared during the run and was left as it is; give --overwrite to replace it"
    )
    assert not isinstance(caught.value, CannotWrite)  # status 2, like "already exists"
    assert out.read_text() == "theirs\n"


def test_publish_with_overwrite_replaces_in_one_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    tmp, out = finished(tmp_path), tmp_path / "o.csv"
    out.write_text("old\n")
    moved: list[tuple[Any, Any]] = []
    real = os.replace

    def replace(src: Any, dst: Any) -> None:
        moved.append((src, dst))
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    publish(tmp, out, overwrite=True)
    assert moved == [(tmp, out)] and out.read_text() == "new\n"


def _no_hard_links(monkeypatch: pytest.MonkeyPatch) -> None:
    def link(src: Any, dst: Any) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")  # as on FAT and exFAT

    monkeypatch.setattr(os, "link", link)


def test_without_hard_links_an_exclusive_copy_publishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_hard_links(monkeypatch)
    tmp, out = finished(tmp_path, "x" * 3_000_000), tmp_path / "o.csv"
    publish(tmp, out)
    assert out.read_text() == "x" * 3_000_000
    other = finished(tmp_path, "y\n", partial=".o.csv.y.partial")
    with pytest.raises(InputError, match="appeared during the run and was left as it is"):
        publish(other, out)
    assert out.read_text() == "x" * 3_000_000


def test_a_copy_that_fails_leaves_no_half_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_hard_links(monkeypatch)

    def full(src: Any, dst: Any, length: int = 0) -> None:
        dst.write(b"half")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(shutil, "copyfileobj", full)
    tmp, out = finished(tmp_path), tmp_path / "o.csv"
    with pytest.raises(CannotWrite) as caught:
        publish(tmp, out)
    assert str(caught.value) == f"cannot write {out}: no space left on device"
    assert not out.exists()


def test_whole_or_nothing_removes_the_temporary_whatever_happens(tmp_path: Path) -> None:
    out = tmp_path / "o.csv"
    out.write_text("theirs\n")
    with pytest.raises(InputError, match="appeared during the run"), whole_or_nothing(out) as tmp:
        tmp.write_text("ours\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.csv"]
    assert out.read_text() == "theirs\n"
    with whole_or_nothing(out, overwrite=True) as tmp:
        tmp.write_text("ours\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["o.csv"]
    assert out.read_text() == "ours\n"


@pytest.mark.parametrize(
    ("err", "why"),
    [
        (errno.EACCES, "is not writable (Permission denied)"),
        (errno.EROFS, "is not writable (Read-only file system)"),
        (errno.ENOENT, "is not writable (it takes no new files)"),
    ],
)
def test_a_folder_that_takes_no_files_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, err: int, why: str
) -> None:
    def refused(**kwargs: Any) -> str:
        raise OSError(err, os.strerror(err), str(tmp_path / ".o.csv.x.partial"))

    monkeypatch.setattr(tempfile, "mkdtemp", refused)
    out = tmp_path / "o.csv"
    with pytest.raises(CannotWrite) as caught:
        common.check_writable(out)
    assert str(caught.value) == f"cannot write beside {out}: folder {tmp_path} {why}"


def test_a_full_disk_before_the_first_byte_is_the_same_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(**kwargs: Any) -> str:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tempfile, "mkdtemp", full)
    out = tmp_path / "o.csv"
    with pytest.raises(CannotWrite) as caught:
        common.check_writable(out)
    assert str(caught.value) == f"cannot write {out}: no space left on device"


def test_proc_takes_no_files() -> None:
    with pytest.raises(CannotWrite) as caught, whole_or_nothing(Path("/proc/o.csv")):
        pass
    assert str(caught.value) == (
        "cannot write beside /proc/o.csv: folder /proc is not writable (it takes no new files)"
    )


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
