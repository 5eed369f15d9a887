"""Whether a terminal is still there: the front ends' one test for a hang-up that came
with no signal (see :func:`hung_up`)."""

from __future__ import annotations

from typing import IO


def hung_up(fd: int | IO[str]) -> bool:
    """``fd``'s terminal has hung up (its other end closed: the window, the SSH link);
    ``fd`` a descriptor or an open file (a closed one: gone).

    The signal that says so, SIGHUP, goes to the terminal's controlling process, which
    need not be this one: under `make run`, make gets it. A terminal that has hung up
    answers every request with an error, so asking for its settings tells; a closed
    or non-terminal ``fd`` counts as gone too. Where there is no termios (Windows),
    nothing is known: not gone."""
    try:
        import termios
    except ImportError:
        return False
    try:
        termios.tcgetattr(fd)
    except (termios.error, OSError, ValueError):
        return True
    return False
