"""A child process in a real pseudo-terminal, and reading what it draws: the tests that
need the terminal itself (the explorer started from Python, a hang-up's recovery)."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import subprocess
import termios
import time
from collections.abc import Sequence
from pathlib import Path


def spawn_in_terminal(
    argv: Sequence[str], cwd: Path, *, columns: int = 120, lines: int = 40
) -> tuple[subprocess.Popen[bytes], int]:
    """``argv`` started on a new pseudo-terminal of ``columns`` x ``lines`` (stdin, stdout
    and stderr all on it), and the terminal's other end to read and type into."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", lines, columns, 0, 0))
    # The size is the terminal's own: COLUMNS and LINES would override it.
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    env["TERM"] = "xterm-256color"
    proc = subprocess.Popen(list(argv), stdin=slave, stdout=slave, stderr=slave, env=env, cwd=cwd)
    os.close(slave)
    return proc, master


def read_terminal(fd: int, seconds: float, until: bytes = b"") -> bytes:
    """What the terminal ``fd`` receives for up to ``seconds``, or until ``until`` came."""
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
