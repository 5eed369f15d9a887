"""The one writer of every output (core/output.py): checked before any work, whole or
nothing, links followed, devices and FIFOs written through, never over an input; the
report on standard output cut back when it cannot be finished.

Each rule is tested here on the writer, and through each front end that writes a
file (report --junit, plot --out, aggregate -o, screenshot, a save, a recovery file)
in tests/tui/cli/test_outputs.py.
"""

from __future__ import annotations

import errno
import io
import os
import shutil
import socket
import stat
import tempfile
import threading
from pathlib import Path
from typing import Any

import pytest
from threshold_lab.core.errors import InputError
from threshold_lab.core.output import (
    LEFT_NOTHING,
    LEFT_PART,
    CannotWrite,
    Output,
    output,
    publish,
    stream,
    write_text,
    writing,
)


def _leaves_only(folder: Path, *names: str) -> None:
    assert sorted(p.name for p in folder.iterdir()) == sorted(names)


def test_a_new_file_is_written_whole_and_nothing_else_is_left(tmp_path: Path) -> None:
    out = tmp_path / "o.xml"
    assert write_text(output(out, "--junit"), "<a/>\n") == out
    assert out.read_text() == "<a/>\n"
    _leaves_only(tmp_path, "o.xml")


def test_a_replaced_file_keeps_its_mode(tmp_path: Path) -> None:
    out = tmp_path / "o.xml"
    out.write_text("old")
    out.chmod(0o640)
    write_text(output(out), "new")
    assert out.read_text() == "new" and stat.S_IMODE(out.stat().st_mode) == 0o640


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("", "--junit '': the file name is empty"),
        ("  ", "--junit '': the file name is empty"),
        ("a\x00b.xml", "a file name cannot contain a NUL character"),
    ],
)
def test_a_name_no_file_can_have_is_refused(name: str, said: str) -> None:
    with pytest.raises(InputError) as caught:
        output(name, "--junit")
    assert said in str(caught.value) and not isinstance(caught.value, CannotWrite)


def test_a_folder_and_a_missing_folder_are_refused(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"--out .*: is a folder; name the file to write"):
        output(tmp_path, "--out")
    with pytest.raises(InputError, match=r"--out .*nope/o.png: no folder .*nope"):
        output(tmp_path / "nope" / "o.png", "--out")


def test_an_input_is_never_an_output_under_any_name(tmp_path: Path) -> None:
    rows = tmp_path / "rows.csv"
    rows.write_text("score,label\n0.5,1\n")
    (tmp_path / "link.csv").symlink_to(rows)
    os.link(rows, tmp_path / "hard.csv")
    for name in ("rows.csv", "link.csv", "hard.csv", "./sub/../rows.csv"):
        (tmp_path / "sub").mkdir(exist_ok=True)
        with pytest.raises(InputError, match="is this run's input") as caught:
            output(tmp_path / name, "--junit", inputs=[str(rows)])
        assert not isinstance(caught.value, CannotWrite)
    assert rows.read_text() == "score,label\n0.5,1\n"
    output(tmp_path / "other.xml", "--junit", inputs=[str(rows), "canonical"])


def test_a_symlink_is_followed_and_stays_a_link(tmp_path: Path) -> None:
    target = tmp_path / "real.xml"
    target.write_text("old")
    link = tmp_path / "link.xml"
    link.symlink_to(target)
    write_text(output(link), "new")
    assert link.is_symlink() and target.read_text() == "new"
    dangling = tmp_path / "dangling.xml"
    dangling.symlink_to(tmp_path / "made.xml")
    write_text(output(dangling), "made")
    assert dangling.is_symlink() and (tmp_path / "made.xml").read_text() == "made"


def test_a_device_is_written_through_never_replaced() -> None:
    out = output("/dev/null", "--junit")
    assert out.through
    write_text(out, "<a/>")
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_a_device_that_refuses_is_the_machines_error() -> None:
    with pytest.raises(CannotWrite, match="--junit /dev/full: cannot write it: no space left"):
        write_text(output("/dev/full", "--junit"), "<a/>")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)


def test_a_fifo_is_written_through(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_text(output(fifo, "--junit"), "through")
    reader.join(5)
    assert got == [b"through"] and stat.S_ISFIFO(fifo.stat().st_mode)


def test_a_socket_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as s:
        s.bind(str(path))
        with pytest.raises(InputError, match="is not a file \\(a socket\\)"):
            output(path, "--out")


def test_without_overwrite_nothing_is_replaced(tmp_path: Path) -> None:
    out = tmp_path / "o.csv"
    out.write_text("theirs\n")
    with pytest.raises(InputError, match=r"-o .*o\.csv: already exists; give --overwrite"):
        output(out, "-o", overwrite=False)
    fresh = tmp_path / "fresh.csv"
    checked = output(fresh, "-o", overwrite=False)
    fresh.write_text("appeared meanwhile\n")
    with pytest.raises(InputError) as caught:
        write_text(checked, "ours\n")
    assert str(caught.value) == (
        f"-o {fresh}: appeared during the run and was left as it is; give --overwrite to replace it"
    )
    assert not isinstance(caught.value, CannotWrite)  # status 2, like "already exists"
    assert fresh.read_text() == "appeared meanwhile\n"
    _leaves_only(tmp_path, "o.csv", "fresh.csv")


def test_overwrite_replaces_in_one_step(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "o.csv"
    out.write_text("old\n")
    moved: list[tuple[Any, Any]] = []
    real = os.replace

    def replace(src: Any, dst: Any) -> None:
        moved.append((src, dst))
        real(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    write_text(output(out, "-o"), "new\n")
    assert len(moved) == 1 and moved[0][1] == out and out.read_text() == "new\n"


def _no_hard_links(monkeypatch: pytest.MonkeyPatch) -> None:
    def link(src: Any, dst: Any) -> None:
        raise OSError(errno.EPERM, "Operation not permitted")  # as on FAT and exFAT

    monkeypatch.setattr(os, "link", link)


def test_without_hard_links_an_exclusive_copy_publishes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_hard_links(monkeypatch)
    out = tmp_path / "o.csv"
    write_text(output(out, "-o", overwrite=False), "x" * 3_000_000)
    assert out.read_text() == "x" * 3_000_000
    late = Output(out, "-o", out, through=False, overwrite=False)
    with pytest.raises(InputError, match="appeared during the run and was left as it is"):
        write_text(late, "y\n")
    assert out.read_text() == "x" * 3_000_000


def test_a_copy_that_fails_leaves_no_half_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_hard_links(monkeypatch)
    tmp = tmp_path / "done.csv"
    tmp.write_text("new\n")

    def full(src: Any, dst: Any, length: int = 0) -> None:
        dst.write(b"half")
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(shutil, "copyfileobj", full)
    out = tmp_path / "o.csv"
    with pytest.raises(CannotWrite) as caught:
        publish(tmp, Output(out, "-o", out, through=False, overwrite=False))
    assert str(caught.value) == f"-o {out}: cannot write it: no space left on device"
    assert not out.exists()


@pytest.mark.parametrize(
    "error", [OSError(errno.EIO, "I/O error"), ValueError("bad"), KeyboardInterrupt()]
)
def test_the_temporary_is_gone_whatever_happens(tmp_path: Path, error: BaseException) -> None:
    out = tmp_path / "o.csv"
    out.write_text("theirs\n")
    with pytest.raises(type(error)), writing(output(out)) as tmp:
        tmp.write_text("half")
        raise error
    _leaves_only(tmp_path, "o.csv")
    assert out.read_text() == "theirs\n"


@pytest.mark.parametrize(
    ("err", "why"),
    [
        (errno.EACCES, "is not writable (Permission denied)"),
        (errno.EROFS, "is not writable (Read-only file system)"),
        (errno.ENOENT, "is not writable (it takes no new files)"),
    ],
)
def test_a_folder_that_takes_no_files_is_one_line_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, err: int, why: str
) -> None:
    def refused(**kwargs: Any) -> str:
        raise OSError(err, os.strerror(err), str(tmp_path / ".o.csv.x.partial"))

    monkeypatch.setattr(tempfile, "mkdtemp", refused)
    out = tmp_path / "o.csv"
    with pytest.raises(CannotWrite) as caught:
        output(out, "-o")
    assert str(caught.value) == f"-o {out}: cannot write it: folder {tmp_path} {why}"


def test_a_full_disk_before_the_first_byte_is_the_machines_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full(**kwargs: Any) -> str:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tempfile, "mkdtemp", full)
    with pytest.raises(CannotWrite, match="cannot write it: no space left on device"):
        output(tmp_path / "o.csv", "-o")


def test_proc_takes_no_files() -> None:
    with pytest.raises(CannotWrite) as caught:
        output("/proc/o.png", "--out")
    assert str(caught.value) == (
        "--out /proc/o.png: cannot write it: folder /proc is not writable (it takes no new files)"
    )


class _Pieces:
    """Pieces of a report, the third one interrupted or failing as asked."""

    def __init__(self, fail: BaseException | None) -> None:
        self.fail = fail

    def __iter__(self) -> Any:
        yield "first\n"
        yield "second\n"
        if self.fail is not None:
            raise self.fail
        yield "third\n"


def test_a_report_streamed_to_a_file_is_whole_or_cut_back(tmp_path: Path) -> None:
    path = tmp_path / "out.json"
    path.write_text("before\n")
    with open(path, "a", encoding="utf-8") as fh:
        stream(_Pieces(None), fh)
    assert path.read_text() == "before\nfirst\nsecond\nthird\n"
    with open(path, "a", encoding="utf-8") as fh, pytest.raises(KeyboardInterrupt) as caught:
        stream(_Pieces(KeyboardInterrupt()), fh)
    assert caught.value.__notes__ == [LEFT_NOTHING]
    assert path.read_text() == "before\nfirst\nsecond\nthird\n"  # as it stood
    with open(path, "w", encoding="utf-8") as fh, pytest.raises(CannotWrite):
        stream(_Pieces(OSError(errno.ENOSPC, "No space left on device")), fh)
    assert path.read_text() == ""


def test_an_interrupted_report_to_a_pipe_says_its_part_is_incomplete() -> None:
    read, write = os.pipe()
    try:
        with (
            io.TextIOWrapper(io.FileIO(write, "w", closefd=False)) as fh,
            pytest.raises(KeyboardInterrupt) as caught,
        ):
            stream(_Pieces(KeyboardInterrupt()), fh)
        assert caught.value.__notes__ == [LEFT_PART]
    finally:
        os.close(read)
        os.close(write)
