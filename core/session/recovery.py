"""Unsaved edits kept through a hang-up: when the terminal or the SSH link goes
(SIGHUP) or the process is told to end (SIGTERM), a session with edits writes its
rows to a recovery file, and the next start on the same source says one exists.

The file sits beside the source, ``NAME.recovered-<time>.csv``, or in the working
folder when the source is a preset or its folder cannot be written. It is written
to a temporary file and linked into place, so it is whole or absent, and it never
takes the place of an existing file (the source least of all).
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from collections.abc import Callable
from pathlib import Path

from threshold_lab.core.errors import InputError
from threshold_lab.core.output import CannotWrite, Output, write_text

#: What comes between the source's name and the time in a recovery file's name.
MARK = ".recovered-"


def stem(path: Path | None, source: str) -> str:
    """The name recovery files of this source start with: the file's stem, or the
    preset's name (``canonical``)."""
    if path is not None:
        return path.stem
    return source.removeprefix("preset ").strip() or "rows"


def folders(path: Path | None) -> list[Path]:
    """Where a recovery file of this source is written, first choice first: beside
    the source (when its folder can be written), then the working folder."""
    here = Path.cwd()
    places = []
    if path is not None and os.access(path.parent or Path("."), os.W_OK):
        places.append(path.parent)
    if here not in places:
        places.append(here)
    return places


def write(text: str, path: Path | None, source: str, *, now: float | None = None) -> Path:
    """Write ``text`` as a new recovery file and return where (raises OSError when
    no folder will take it). Never replaces a file: a name taken gets ``-2``, ..."""
    moment = time.strftime("%Y%m%d-%H%M%S", time.localtime(time.time() if now is None else now))
    last: OSError | None = None
    for folder in folders(path):
        try:
            return _publish(text, folder, f"{stem(path, source)}{MARK}{moment}")
        except OSError as exc:
            last = exc
    assert last is not None
    raise last


def _publish(text: str, folder: Path, name: str) -> Path:
    """Write ``text`` as a new file ``name.csv`` in ``folder`` (``name-2.csv``, ... when
    taken): never over a file, whole or not at all (OSError when the folder will not
    take it)."""
    for n in range(1, 100):
        target = folder / (f"{name}.csv" if n == 1 else f"{name}-{n}.csv")
        if os.path.lexists(target):
            continue
        new = Output(target, "", Path(os.path.realpath(target)), through=False, overwrite=False)
        try:
            return write_text(new, text)
        except CannotWrite as exc:
            raise OSError(str(exc)) from None
        except InputError:  # the name was taken meanwhile: the next one
            continue
    raise FileExistsError(f"{folder / name}: every recovery name is taken")


def found(path: Path | None, source: str) -> list[Path]:
    """Recovery files an earlier session on this source left, newest first."""
    seen: dict[Path, float] = {}
    for folder in folders(path) + ([path.parent] if path is not None else []):
        with contextlib.suppress(OSError):
            for p in folder.glob(f"{_glob_escaped(stem(path, source))}{MARK}*.csv"):
                with contextlib.suppress(OSError):
                    seen[p.resolve()] = p.stat().st_mtime
    return sorted(seen, key=lambda p: seen[p], reverse=True)


def notice(path: Path | None, source: str) -> str:
    """The sentence a start on this source says when recovery files exist, or ""."""
    files = found(path, source)
    if not files:
        return ""
    more = f" (and {len(files) - 1} older)" if len(files) > 1 else ""
    return f"An earlier session's unsaved edits are in {files[0]}{more}: open it to get them back."


def _glob_escaped(text: str) -> str:
    """``text`` with glob's special characters matched literally."""
    return "".join(f"[{c}]" if c in "*?[" else c for c in text)


def kept(recover: Callable[[], Path | None], signum: int) -> str:
    """Keep the edits of a session signal ``signum`` ends (``recover`` writes them),
    and the sentence that says where ("" with nothing to keep)."""
    name = signal.Signals(signum).name
    try:
        written = recover()
    except OSError as exc:
        return f"{name}: the unsaved edits could not be kept ({exc.strerror or exc})"
    if written is None:
        return ""
    return f"{name}: the unsaved edits were written to {written}"
