"""Write a file atomically: a crash mid-write never leaves a half file."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from core.errors import InputError


def write_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` via a temporary file in the same folder and a rename."""
    p = Path(path).expanduser()
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"{p}: the folder {folder} does not exist")
    if p.is_dir():
        raise InputError(f"{p}: is a folder")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except OSError as exc:
        raise InputError(f"{p}: cannot be written ({exc.strerror or exc})") from None
    return p
