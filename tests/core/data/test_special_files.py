"""Files that are not regular files (pipes, /dev/stdin, devices), unreadable
files, and Parquet read without Python file objects."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from threshold_lab.core.data import loaders, progress
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.data.loaders import load_file, slow_reader_note
from threshold_lab.core.errors import InputError

from tests.paths import ROOT

CSV = b"score,label\n0.1,0\n0.9,1\n0.4,1\n0.3,0\n"


def cli(*argv: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    """``python -m tui ARGV`` in a subprocess: a hang fails the test instead of the run."""
    return subprocess.run(
        [sys.executable, "-m", "threshold_lab", *argv],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=20,
        check=False,
    )


needs_fifo = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")


@needs_fifo
def test_a_fifo_is_read_once_not_hung_on(tmp_path: Path) -> None:
    fifo = tmp_path / "scores.csv"
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("wb") as fh:
            fh.write(CSV)

    writer = threading.Thread(target=write, daemon=True)
    writer.start()
    proc = cli("report", str(fifo), "--json")
    writer.join(5)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert (doc["n"], doc["positives"]) == (4, 2)


@pytest.mark.skipif(not Path("/dev/stdin").exists(), reason="no /dev/stdin")
def test_dev_stdin_from_a_pipe_is_read() -> None:
    proc = cli("report", "/dev/stdin", "--json", stdin=CSV)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["n"] == 4


@pytest.mark.skipif(sys.platform == "win32", reason="no /dev/fd")
def test_process_substitution_is_read() -> None:
    # What bash's <(printf ...) hands the command: a /dev/fd path onto a pipe.
    read, write = os.pipe()
    os.write(write, CSV)
    os.close(write)
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "threshold_lab", "report", f"/dev/fd/{read}"],
            capture_output=True,
            cwd=ROOT,
            timeout=20,
            check=False,
            pass_fds=(read,),
        )
    finally:
        os.close(read)
    assert proc.returncode == 0, proc.stderr
    assert b"4 rows" in proc.stdout


def through_fifo(tmp_path: Path, name: str, data: bytes, **kwargs: Any) -> Dataset:
    """``load_file`` of a named pipe called ``name`` that a thread writes ``data`` to."""
    fifo = tmp_path / name
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("wb") as fh:
            fh.write(data)

    outcome: list[Dataset | BaseException] = []

    def load() -> None:
        try:
            outcome.append(load_file(fifo, **kwargs))
        except BaseException as exc:  # handed to the test's thread below
            outcome.append(exc)

    writer = threading.Thread(target=write, daemon=True)
    reader = threading.Thread(target=load, daemon=True)
    writer.start()
    reader.start()
    reader.join(20)
    if reader.is_alive():
        # Opened a second time, the pipe waits for a writer forever: be one, then fail.
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        reader.join(5)
        pytest.fail(f"reading the pipe {name} hung")
    writer.join(5)
    if isinstance(outcome[0], BaseException):
        raise outcome[0]
    return outcome[0]


@needs_fifo
def test_every_reader_reads_a_pipe(tmp_path: Path) -> None:
    fixture = json.dumps({"scores": [0.2, 0.8], "labels": [0, 1]}).encode()
    assert through_fifo(tmp_path, "x.json", fixture).n == 2
    assert through_fifo(tmp_path, "x.tsv", CSV.replace(b",", b"\t")).n == 4
    agg = b"score,positives,negatives\n0.5,2,3\n"
    assert through_fifo(tmp_path, "agg.csv", agg).positives == 2
    # Not clean for the fast path: the exact reader names the line, from memory.
    with pytest.raises(InputError, match="line 3"):
        through_fifo(tmp_path, "bad.csv", b"score,label\n0.1,0\nx,1\n")


@needs_fifo
def test_a_parquet_pipe(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    sink = pa.BufferOutputStream()
    pq.write_table(pa.table({"score": [0.1, 0.9, 0.4], "label": [0, 1, 1]}), sink)
    assert through_fifo(tmp_path, "s.parquet", sink.getvalue().to_pybytes()).n == 3


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_dev_zero_stops_at_the_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(loaders, "SPECIAL_LIMIT_BYTES", 2**20)
    with pytest.raises(
        InputError,
        match=r"/dev/zero is not a regular file and is larger than 1 MiB; save it to a file first",
    ):
        load_file("/dev/zero")


@pytest.mark.skipif(not Path("/dev/null").exists(), reason="no /dev/null")
def test_dev_null_is_an_empty_file() -> None:
    proc = cli("report", "/dev/null")
    assert proc.returncode == 2
    assert (
        proc.stderr.decode()
        .strip()
        .endswith("the file is empty: a header row (score,label) and data rows are needed")
    )


def test_slow_reader_note_never_raises(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    def denied(*args: object, **kwargs: object) -> os.stat_result:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "stat", denied)
    assert slow_reader_note(tmp_path / "locked" / "big.csv") is None


def test_a_file_in_an_unsearchable_folder_is_one_input_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from threshold_lab.tui.cli import main

    target = tmp_path / "locked" / "big.csv"
    real_stat = os.stat

    def stat(path: Any, *args: Any, **kwargs: Any) -> os.stat_result:
        if str(path).startswith(str(target.parent) + os.sep):
            raise PermissionError(13, "Permission denied", str(path))
        return real_stat(path, *args, **kwargs)

    monkeypatch.setattr(os, "stat", stat)
    code = main(["report", str(target)])
    err = capsys.readouterr().err
    assert code == 2
    assert err == f"threshold-lab: error: cannot read {target}: permission denied\n"


@pytest.mark.skipif(
    not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may read any folder"
)
def test_a_real_unsearchable_folder(tmp_path: Path) -> None:
    folder = tmp_path / "locked"
    folder.mkdir()
    (folder / "s.csv").write_bytes(CSV)
    folder.chmod(0)
    try:
        proc = cli("report", str(folder / "s.csv"))
    finally:
        folder.chmod(0o700)
    assert proc.returncode == 2
    assert (
        proc.stderr.decode()
        == f"threshold-lab: error: cannot read {folder / 's.csv'}: permission denied\n"
    )


def test_parquet_is_not_handed_a_python_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    path = tmp_path / "s.parquet"
    pq.write_table(pa.table({"score": [0.1, 0.9, 0.4], "label": [0, 1, 1]}), path)
    seen: list[object] = []
    real = pq.ParquetFile

    def parquet_file(source: object, *args: object, **kwargs: object) -> object:
        seen.append(source)
        return real(source, *args, **kwargs)

    monkeypatch.setattr(pq, "ParquetFile", parquet_file)
    tracked = progress.Progress()
    with progress.tracking(tracked):
        assert load_file(path).n == 3
    assert seen and all(isinstance(s, (str, pa.NativeFile)) for s in seen)
    assert tracked.done == tracked.total == path.stat().st_size
