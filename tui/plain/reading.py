"""Reading plain mode's input: lines from a pipe, or typed at a terminal with line
editing and history; Ctrl-C at the prompt; the exit status a script reads."""

from __future__ import annotations

import contextlib
import signal
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from typing import TextIO

from threshold_lab.core.lessons.lesson import Lesson
from threshold_lab.core.session.session import Session
from threshold_lab.tui.plain.dispatch import PlainSession
from threshold_lab.tui.plain.hangup import HangUp, _hang_up, acted_on, interrupt
from threshold_lab.tui.plain.words import (
    UNSAVED_WARNING,
)
from threshold_lab.tui.terminal import hung_up

#: The line the typed-lines reader gives for Ctrl-C at the prompt.
INTERRUPT = "\x03"


def run_plain(
    session: Session,
    lines: Iterable[str],
    out: TextIO,
    *,
    prompt: bool,
    err: TextIO | None = None,
    script: bool | None = None,
    opening: str = "",
    lesson: Lesson | None = None,
) -> int:
    """Read commands until quit or end of input. The exit status is 0, or 1 when
    input ended with unsaved edits (a warning says so on ``err``, stderr by default)
    or when ``script`` (by default: without a prompt) and any command was refused,
    so a script can tell."""
    script = not prompt if script is None else script
    stream = sys.stderr if err is None else err
    try:
        return _read(PlainSession(session, out), lines, prompt, stream, script, opening, lesson)
    except HangUp as hang:
        return hang.recover(session, stream)


def _read(
    plain: PlainSession,
    typed: Iterable[str],
    prompt: bool,
    stream: TextIO,
    script: bool,
    opening: str,
    lesson: Lesson | None = None,
) -> int:
    """:func:`run_plain`'s loop: greet, then run each line (Ctrl-C at the prompt
    leaves, after asking when there are unsaved edits)."""
    session, out = plain.session, plain.out
    plain.say(
        f"threshold-lab plain mode: {session.source}, {session.data.n} rows. "
        "Type help for the commands, quit to leave."
    )
    if lesson is None:
        plain.say(plain.status())
    if opening:  # what the command line's --transform did, a recovery file found
        plain.say(opening)
    if lesson is not None:  # --lesson: it starts at once, and says what it shows
        plain.start_lesson(lesson)
    if prompt:
        out.write("> ")
        out.flush()
    lines = iter(typed)
    interrupted = False  # the last thing typed was Ctrl-C at the prompt
    while True:
        try:
            line = next(lines)
        except StopIteration:
            break
        except KeyboardInterrupt:
            line = INTERRUPT
        if line == INTERRUPT:
            acted_on()
            out.write("\n")
            if not session.dirty or interrupted:
                _lost(session, stream)
                return 130
            interrupted = True
            plain.say(
                "There are unsaved edits: Ctrl-C again or quit! to leave and lose "
                "them, save PATH to keep them."
            )
        else:
            interrupted = False
            if plain.run_line(line.rstrip("\n")):
                return 1 if script and plain.refused else 0
        if prompt:
            out.write("> ")
            out.flush()
    if session.dirty:
        if prompt:
            out.write("\n")
            out.flush()
        stream.write(UNSAVED_WARNING + "\n")
        stream.flush()
        return 1
    return 1 if script and plain.refused else 0


def _lost(session: Session, stream: TextIO) -> None:
    """Leaving on Ctrl-C: say so when edits go with it."""
    if session.dirty:
        stream.write("threshold-lab: interrupted; the unsaved edits were not saved\n")
        stream.flush()


def _typed_lines() -> Iterator[str]:
    """Lines typed at a terminal, with line editing and history (``readline``,
    where Python has it): arrows recall and edit earlier commands."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401 -- importing it gives input() editing and history
    while True:
        try:
            yield input("> ") + "\n"
        except (EOFError, OSError) as end:
            # The terminal hung up with no SIGHUP here (it went to the process the
            # terminal belongs to, make under `make run`): the edits are kept as on
            # SIGHUP. Ctrl-D on a terminal still there is the end of input as before.
            if hung_up(sys.stdin):
                raise HangUp(signal.SIGHUP) from None
            if isinstance(end, OSError):
                raise
            sys.stdout.write("\n")
            return
        except KeyboardInterrupt:
            yield INTERRUPT


def main_plain(
    session: Session,
    opening: str = "",
    lesson: Lesson | None = None,
    first: Sequence[str] = (),
) -> int:
    """Plain mode on the process's stdin/stdout; on a terminal, a prompt with line
    editing and history. A hang-up (SIGHUP, SIGTERM) keeps unsaved edits in a
    recovery file."""
    for sig in (signal.SIGHUP, signal.SIGTERM):
        signal.signal(sig, _hang_up)
    signal.signal(signal.SIGINT, interrupt)  # Python's own, and recorded
    if sys.stdin.isatty():
        return run_plain(
            session,
            _scripted(first, _typed_lines(), sys.stdout),
            sys.stdout,
            prompt=False,
            script=False,
            opening=opening,
            lesson=lesson,
        )
    lines = _scripted(first, sys.stdin, sys.stdout)
    return run_plain(session, lines, sys.stdout, prompt=False, opening=opening, lesson=lesson)


class _Scripted:
    """``--script``'s lines first, each said after a ``>`` as if typed, then ``then``'s
    (an iterator, not a generator: Ctrl-C raised by ``then`` leaves it reading on)."""

    def __init__(self, first: Sequence[str], then: Iterable[str], out: TextIO) -> None:
        self.first = list(first)
        self.then = iter(then)
        self.out = out

    def __iter__(self) -> Iterator[str]:
        return self

    def __next__(self) -> str:
        while self.first:
            line = self.first.pop(0)
            if line.lstrip().startswith("#"):  # a comment
                continue
            word, _, rest = line.strip().partition(" ")
            if word == "wait" and _seconds(rest) is not None:  # a pause, as a script's
                time.sleep(_seconds(rest) or 0.0)
                continue
            self.out.write(f"> {line}\n")
            self.out.flush()
            return line + "\n"
        return next(self.then)


def _seconds(text: str) -> float | None:
    """``wait S``'s seconds, 0 to 600 (None: not a wait)."""
    try:
        s = float(text)
    except ValueError:
        return None
    return s if 0 <= s <= 600 else None


def _scripted(first: Sequence[str], then: Iterable[str], out: TextIO) -> Iterable[str]:
    return _Scripted(first, then, out) if first else then
