"""Write a file atomically: a crash mid-write never leaves a half file."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from threshold_lab.core.errors import InputError


def check_name(path: str | Path) -> Path:
    """``path`` as a Path, or InputError when no file could have that name: a NUL
    character, or a character the file system's encoding cannot hold."""
    p = Path(path).expanduser()
    text = str(p)
    if "\x00" in text:
        raise InputError(f"{text!r}: a file name cannot contain a NUL character")
    try:
        os.fsencode(text)
    except UnicodeError:
        raise InputError(f"{text!r}: the file name has a character no file name can hold") from None
    return p


def _new_file_mode() -> int:
    """The mode ``open`` would give a new file: 0666 less the umask."""
    umask = os.umask(0o077)  # reading the umask means setting it; put it back at once
    os.umask(umask)
    return 0o666 & ~umask


def _sync_folder(folder: Path) -> None:
    """Make the rename durable; best effort, as some systems cannot open a folder."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` to ``path`` via a temporary file in the same folder and a rename.

    A symlink is written through: its target is replaced and the link stays. The
    file keeps the mode of the file it replaces; a new file gets the mode the umask
    gives. On any failure no temporary file is left behind. Returns ``path``.
    """
    p = check_name(path)
    real = Path(os.path.realpath(p)) if p.is_symlink() else p
    folder = real.parent if str(real.parent) else Path(".")
    if not folder.is_dir():
        raise InputError(f"{p}: the folder {folder} does not exist")
    if real.is_dir():
        raise InputError(f"{p} is a folder; give a file name")
    try:
        st = real.stat()
    except OSError:
        mode = _new_file_mode()
    else:
        mode = stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else _new_file_mode()
    tmp: str | None = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{real.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, real)
        tmp = None
    except OSError as exc:
        raise InputError(f"{p}: cannot be written ({exc.strerror or exc})") from None
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    _sync_folder(folder)
    return p
