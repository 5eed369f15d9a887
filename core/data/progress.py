"""Progress and cancellation for long loads, without threads or callbacks in the readers.

A loader opens its file through :func:`opened` (or reads it with
:func:`read_bytes`). Outside a :func:`tracking` block these are plain file
operations. Inside one (a background load in the explorer), every read
adds to the block's :class:`Progress` and raises :class:`Cancelled` once
the user has asked to stop, so a cancel takes effect within one chunk.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

CHUNK = 1 << 20


class Cancelled(Exception):
    """The user stopped the load; nothing was loaded."""


@dataclass
class Progress:
    """Bytes read of ``total``, the phase in words, and whether to stop."""

    total: int = 0
    done: int = 0
    phase: str = "reading"
    #: Something the user should know while waiting (a slower reader, say).
    note: str = ""
    _cancel: threading.Event = field(default_factory=threading.Event)

    def cancel(self) -> None:
        self._cancel.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    def check(self) -> None:
        if self._cancel.is_set():
            raise Cancelled("loading cancelled")

    def step(self, phase: str) -> None:
        """Start a phase after reading (checking rows, sweeping)."""
        self.check()
        self.phase = phase

    @property
    def fraction(self) -> float:
        return min(self.done / self.total, 1.0) if self.total else 0.0


_local = threading.local()


def current() -> Progress | None:
    """The Progress of the enclosing :func:`tracking` block in this thread, if any."""
    return getattr(_local, "progress", None)


@contextmanager
def tracking(progress: Progress) -> Iterator[Progress]:
    """Count this thread's file reads into ``progress`` for the duration of the block."""
    previous = current()
    _local.progress = progress
    try:
        yield progress
    finally:
        _local.progress = previous


def step(phase: str) -> None:
    """Name the phase of the tracked load (and stop here if cancelled); no-op untracked."""
    p = current()
    if p is not None:
        p.step(phase)


def tell(note: str) -> None:
    """Show ``note`` beside the tracked load's progress; no-op untracked."""
    p = current()
    if p is not None:
        p.note = note


class _Counted(io.RawIOBase):
    """A binary file whose reads count into a Progress and honour its cancel."""

    def __init__(self, raw: Any, progress: Progress) -> None:
        self._raw = raw
        self._progress = progress

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return bool(self._raw.seekable())

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        return int(self._raw.seek(offset, whence))

    def tell(self) -> int:
        return int(self._raw.tell())

    def readinto(self, buffer: Any) -> int:
        self._progress.check()
        n = int(self._raw.readinto(buffer))
        self._progress.done += n
        return n

    def close(self) -> None:
        self._raw.close()
        super().close()


@contextmanager
def in_memory(path: Path, data: bytes) -> Iterator[bytes]:
    """Within the block, this thread's reads of ``path`` read ``data`` instead.

    For a file that can be read only once (a pipe, ``/dev/stdin``): it is read
    whole first (:func:`read_once`), then parsed from memory as often as needed.
    """
    previous: dict[Path, bytes] | None = getattr(_local, "memory", None)
    _local.memory = {**(previous or {}), path: data}
    try:
        yield data
    finally:
        _local.memory = previous


def memory(path: Path) -> bytes | None:
    """The bytes :func:`in_memory` holds for ``path`` in this thread, or None."""
    held: dict[Path, bytes] | None = getattr(_local, "memory", None)
    return None if held is None else held.get(path)


class TooLarge(Exception):
    """A file read with :func:`read_once` went past its limit."""


def read_once(path: Path, limit: int) -> bytes:
    """All of ``path``, read once from the start (a pipe, a device), at most
    ``limit`` bytes: past that, :class:`TooLarge` (so ``/dev/zero`` ends)."""
    p = current()
    chunks = []
    size = 0
    with path.open("rb", buffering=0) as fh:
        while size <= limit:
            if p is not None:
                p.check()
            chunk = fh.read(min(CHUNK, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
            if p is not None:
                p.done = size
                p.total = max(p.total, size)
    if size > limit:
        raise TooLarge(path)
    return b"".join(chunks)


def opened(path: Path) -> Any:
    """``path`` opened for binary reading; counted when a load is being tracked."""
    p = current()
    held = memory(path)
    if held is not None:
        if p is not None:
            p.total = max(p.total, len(held))
            p.done = len(held)
        return io.BytesIO(held)
    if p is None:
        return path.open("rb")
    p.total = max(p.total, path.stat().st_size)
    return io.BufferedReader(_Counted(path.open("rb"), p), buffer_size=CHUNK)


def read_bytes(path: Path) -> bytes:
    """The whole file, read in chunks so a tracked load shows progress and can stop."""
    held = memory(path)
    if held is not None:
        return held
    if current() is None:
        return path.read_bytes()
    chunks = []
    with opened(path) as fh:
        while chunk := fh.read(CHUNK):
            chunks.append(chunk)
    return b"".join(chunks)
