"""Every command's outputs follow the one writer's rules (core/output.py): an output is
never one of the run's inputs, a device is written through and not replaced, the
machine's refusals exit 1 whichever command meets them, and a signal leaves whole
files or none and one line saying what was left."""

from __future__ import annotations

import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from threshold_lab.tui.cli import main

ROWS = "id,score,label\na,0.9,1\nb,0.8,0\nc,0.8,1\nd,0.4,0\ne,0.1,1\n"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def rows(tmp_path: Path) -> Path:
    path = tmp_path / "b.csv"
    path.write_text(ROWS)
    return path


@pytest.fixture
def base(tmp_path: Path, rows: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    path = tmp_path / "base.json"
    assert main(["report", str(rows), "--json"]) == 0
    path.write_text(capsys.readouterr().out)
    return path


def test_junit_never_replaces_the_rows_or_the_baseline(
    tmp_path: Path, rows: Path, base: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = {p: p.read_bytes() for p in (rows, base)}
    (tmp_path / "alias.csv").symlink_to(rows)
    gate = ["--baseline", str(base), "--require", "auc >= 0.5"]
    for junit in (rows, base, tmp_path / "alias.csv", tmp_path / "." / "b.csv"):
        code, out, err = _run(capsys, "report", str(rows), *gate, "--junit", str(junit))
        assert (code, out) == (2, ""), err
        assert "is this run's input" in err and err.count("\n") == 1
    assert {p: p.read_bytes() for p in before} == before


def test_plot_never_draws_over_its_own_source(
    tmp_path: Path, rows: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    same = tmp_path / "rows.png"
    same.symlink_to(rows)
    code, _, err = _run(capsys, "plot", str(rows), "--chart", "roc", "--out", str(same))
    assert code == 2 and "is this run's input" in err
    assert rows.read_text() == ROWS


def test_junit_to_a_device_is_written_through(
    rows: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(
        capsys, "report", str(rows), "--require", "auc >= 0.5", "--junit", "/dev/null"
    )
    assert code == 0, err
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full here")
def test_junit_to_a_full_device_exits_1(rows: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(
        capsys, "report", str(rows), "--require", "auc >= 0.5", "--junit", "/dev/full"
    )
    assert code == 1
    assert err == (
        "threshold-lab: error: --junit /dev/full: cannot write it: no space left on device\n"
    )


def test_the_machines_refusals_exit_1_whichever_command(
    rows: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    code, _, junit = _run(
        capsys, "report", str(rows), "--require", "auc >= 0.5", "--junit", "/proc/x.xml"
    )
    code2, _, plot = _run(capsys, "plot", str(rows), "--chart", "roc", "--out", "/proc/x.png")
    assert (code, code2) == (1, 1)
    for err, flag in ((junit, "--junit /proc/x.xml"), (plot, "--out /proc/x.png")):
        assert err == (
            f"threshold-lab: error: {flag}: cannot write it: folder /proc is not writable "
            "(it takes no new files)\n"
        )


def test_an_empty_junit_name_is_said_as_such(
    rows: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(capsys, "report", str(rows), "--require", "auc >= 0.5", "--junit", "")
    assert code == 2 and err == "threshold-lab: error: --junit is empty: give a name\n"


def test_an_interrupted_streamed_report_cuts_its_file_back(
    rows: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from threshold_lab.core.report import as_json
    from threshold_lab.tui.cli import Stopped

    real = as_json.report_pieces

    def stopped_midway(*args: object, **kwargs: object) -> object:
        for i, piece in enumerate(real(*args, **kwargs)):  # type: ignore[arg-type]
            if i == 1:
                raise Stopped(signal.SIGTERM)
            yield piece

    monkeypatch.setattr(as_json, "report_pieces", stopped_midway)
    out = tmp_path / "out.json"
    out.write_text("kept\n")
    with open(out, "a", encoding="utf-8") as fh:
        monkeypatch.setattr(sys, "stdout", fh)
        err_file = tmp_path / "err"
        with open(err_file, "w", encoding="utf-8") as err:
            monkeypatch.setattr(sys, "stderr", err)
            code = main(["report", str(rows), "--json", "--points", "all"])
    assert code == 128 + signal.SIGTERM
    assert out.read_text() == "kept\n"
    assert err_file.read_text() == "threshold-lab: stopped by SIGTERM; nothing was written\n"


def _signal_once(proc: subprocess.Popen[str], signum: int, begun: Callable[[], bool]) -> None:
    """Send ``signum`` to ``proc`` as soon as ``begun()`` (or when it has ended)."""
    deadline = time.monotonic() + 120
    while not begun() and proc.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.005)
    proc.send_signal(signum)


def _big(tmp_path: Path) -> Path:
    rng = np.random.default_rng(5)
    n = 400_000
    path = tmp_path / "big.csv"
    y = rng.random(n) < 0.3
    s = rng.random(n)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write("score,label\n")
        fh.writelines(f"{a!r},{int(b)}\n" for a, b in zip(s.tolist(), y.tolist(), strict=True))
    return path


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_a_signal_stops_report_in_one_line_leaving_no_temporary(
    tmp_path: Path, signum: int
) -> None:
    big = _big(tmp_path)
    work = tmp_path / "work"
    work.mkdir()
    out = work / "out.json"
    out.write_text("kept\n")
    argv = [sys.executable, "-m", "threshold_lab", "report", str(big), "--json"]
    argv += ["--points", "all", "--require", "auc >= 0.1", "--junit", str(work / "j.xml")]
    with open(out, "a", encoding="utf-8") as fh:
        proc = subprocess.Popen(argv, stdout=fh, stderr=subprocess.PIPE, text=True)
        # The signal comes once the report has begun to stream (the handlers are set).
        _signal_once(proc, signum, lambda: out.stat().st_size > len("kept\n"))
        _, err = proc.communicate(timeout=120)
    if proc.returncode == 0:
        pytest.skip("the report finished before the signal")
    name = signal.Signals(signum).name
    how = "interrupted" if signum == signal.SIGINT else f"stopped by {name}"
    assert proc.returncode == 128 + signum
    assert err == f"threshold-lab: {how}; nothing was written\n"
    assert out.read_text() == "kept\n"
    assert sorted(p.name for p in work.iterdir()) == ["out.json"]


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_a_signal_stops_aggregate_in_one_line_leaving_nothing(tmp_path: Path, signum: int) -> None:
    pytest.importorskip("duckdb")
    pa = pytest.importorskip("pyarrow")
    pq = pytest.importorskip("pyarrow.parquet")
    rng = np.random.default_rng(9)
    n = 6_000_000
    rows = tmp_path / "rows.parquet"
    pq.write_table(
        pa.table({"score": rng.random(n, dtype=np.float32), "label": rng.random(n) < 0.3}), rows
    )
    out_dir = tmp_path / "out"
    out_dir.mkdir()
    out = out_dir / "o.parquet"
    argv = [sys.executable, "-m", "threshold_lab", "aggregate", str(rows), "-o", str(out)]
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    _signal_once(proc, signum, lambda: any(out_dir.iterdir()))  # the temporary OUT begun
    _, err = proc.communicate(timeout=120)
    if proc.returncode == 0:
        pytest.skip("aggregate finished before the signal")
    name = signal.Signals(signum).name
    assert (proc.returncode, err) == (
        128 + signum,
        f"threshold-lab: stopped by {name}; {out} was not written\n",
    )
    assert list(out_dir.iterdir()) == []
