"""A hang-up (SIGHUP, SIGTERM, a terminal gone) in plain mode: unwind to the
reading loop, which keeps unsaved edits in a recovery file."""

from __future__ import annotations

import contextlib
import signal
from typing import TextIO

from threshold_lab.core.session import recovery
from threshold_lab.core.session.session import Session


class HangUp(BaseException):
    """SIGHUP or SIGTERM arrived: unwind to :func:`run_plain`, which keeps the edits.

    A BaseException, so no ``except Exception`` on the way swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    def recover(self, session: Session, stream: TextIO) -> int:
        """Write unsaved edits to a recovery file, say so (if stderr is still there)
        and give the exit status a signal's end has (128 + its number)."""
        said = recovery.kept(session.recover, self.signum)
        if said:
            with contextlib.suppress(OSError, ValueError):
                stream.write(f"threshold-lab: {said}\n")
                stream.flush()
        return 128 + self.signum


#: The signal that should have stopped the running command, until it is acted on.
#: Python raises a handler's exception at whatever line runs when the signal comes;
#: where that line is in a callback of the collector or of a weak reference, Python
#: prints it and carries on ("Exception ignored"), and a long command would run to
#: its end. A long command's progress looks here (:func:`still_stopping`).
_PENDING: list[int] = []


def _hang_up(signum: int, frame: object) -> None:
    _PENDING[:] = [signum]
    raise HangUp(signum)


def interrupt(signum: int, frame: object) -> None:
    """Ctrl-C (SIGINT): KeyboardInterrupt, as Python's own handler raises it, and
    recorded."""
    _PENDING[:] = [signum]
    raise KeyboardInterrupt


def acted_on() -> None:
    """The stop was acted on (or a new command starts): nothing pending."""
    _PENDING.clear()


def still_stopping(done: int = 0, total: int = 0) -> bool:
    """A long command's progress (a bootstrap's): raises the stop a signal asked for
    where the signal's own raise was lost; True (go on) otherwise."""
    if _PENDING:
        signum = _PENDING[0]
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise HangUp(signum)
    return True
