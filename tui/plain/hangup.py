"""A hang-up (SIGHUP, SIGTERM, a terminal gone) in plain mode: unwind to the
reading loop, which keeps unsaved edits in a recovery file."""

from __future__ import annotations

import contextlib
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


def _hang_up(signum: int, frame: object) -> None:
    raise HangUp(signum)
