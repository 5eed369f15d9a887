"""``threshold_lab.explore`` runs the explorer in the caller's terminal (a real
pseudo-terminal here) and hands back the threshold and the rows as edited."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time

SCRIPT = (
    "import sys, threshold_lab as tl\n"
    "before = 'textual' in sys.modules\n"
    "e = tl.explore([1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1], threshold=0.5)\n"
    "print('RESULT', e.threshold, e.y_score.tolist(), e.y_true.tolist(), before,\n"
    "      'textual' in sys.modules, e.report().counts, flush=True)\n"
)


def _read(fd: int, seconds: float, until: bytes = b"") -> bytes:
    out = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end and not (until and until in out):
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                out += os.read(fd, 65536)
            except OSError:  # the child closed the terminal
                break
    return out


def test_explore_returns_the_threshold_and_the_edited_rows(tmp_path) -> None:  # type: ignore[no-untyped-def]
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    env = {**os.environ, "TERM": "xterm-256color"}
    proc = subprocess.Popen([sys.executable, "-c", SCRIPT], stdin=slave, stdout=slave,
                            stderr=slave, env=env, cwd=tmp_path)  # fmt: skip
    os.close(slave)
    try:
        out = _read(master, 20, until=b"threshold-lab")  # the screen is up
        out += _read(master, 1.5)
        for keys in (b"\x1b[C", b"a", b"\r", b"q"):  # +0.01, add the row "0.5 1", quit
            os.write(master, keys)
            out += _read(master, 1.0)
        out += _read(master, 15, until=b"RESULT")
        out += _read(master, 2)
        assert proc.wait(timeout=15) == 0
    finally:
        proc.kill()
        os.close(master)
    line = next(x for x in out.decode(errors="replace").splitlines() if "RESULT" in x)
    assert line.split("RESULT", 1)[1].strip() == (
        "0.51 [0.9, 0.8, 0.8, 0.4, 0.1, 0.5] [True, False, True, False, True, True] False True "
        "Counts(tp=2, fp=1, tn=1, fn=2)"
    )
