"""Every file threshold-lab writes goes through here: JUnit results, figures, saved
rows, recovery files, screenshots, ``aggregate``'s OUT, and the report on standard
output.

The rules, the same for every output:

- An output is refused before any work when it cannot be what was asked: an empty
  name, a folder, a folder that is not there, a path that is one of the run's inputs
  (the same file under any name: a link, ``./``), a socket; or when its folder takes
  no new files (tried, as permission bits do not tell: root ignores them, /proc and
  read-only mounts refuse whatever they say).
- A file is written whole or not at all: into a temporary file beside it, then put in
  place in one step (``os.replace``, or a hard link where nothing may be replaced), so
  a crash, a full disk or a signal leaves the old file or none, never half of one, and
  never the temporary file.
- A symbolic link is followed: its target is replaced and the link stays.
- A device or a FIFO (``/dev/null``, ``/dev/stdout``, a named pipe) is written
  through, never replaced by a regular file; what it refuses (``/dev/full``) is
  reported.
- The machine's refusals (a full disk, a folder that takes no files) are
  :class:`CannotWrite`: the command exits with status 1, as the input was not at
  fault; the rest are :class:`~threshold_lab.core.errors.InputError` (status 2).

Standard output is the shell's: :func:`stream` writes pieces to it and, when it is a
regular file and the writing fails or is interrupted, cuts the file back to where it
stood, so what a run leaves there is its whole output or nothing.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import io
import os
import shutil
import stat
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from threshold_lab.core.errors import InputError


class CannotWrite(InputError):
    """An output cannot be written where it was asked for: a folder that takes no
    new files, a full disk, a device that refuses. The machine's problem, not the
    input's, so a command exits with status 1, not 2; one line like every InputError."""


#: strerror(ENOSPC): how the OS, Java and DuckDB all say the disk is full.
NO_SPACE = "No space left on device"

#: What ``os.link`` fails with where a file system has no hard links (FAT, exFAT,
#: some network and FUSE file systems): the output is then created exclusively and
#: copied.
NO_LINKS = frozenset(
    {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.ENOSYS, errno.EXDEV, errno.EMLINK}
)


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


def no_space(out: Path | str) -> str:
    """The one line for a disk that filled up while an output was written."""
    return f"cannot write {out}: {NO_SPACE.lower()}"


@dataclass(frozen=True)
class Output:
    """Where an output goes, checked: ``path`` as named (after ``flag``), ``real``
    with its links followed, and whether it is a device or FIFO written through."""

    path: Path
    flag: str
    real: Path
    through: bool
    overwrite: bool

    @property
    def named(self) -> str:
        """The output as messages name it: ``--junit out.xml``."""
        return f"{self.flag} {self.path}" if self.flag else str(self.path)


def output(
    path: str | Path,
    flag: str = "",
    *,
    inputs: Sequence[str | Path] = (),
    overwrite: bool = True,
) -> Output:
    """Check ``path`` as an output named by ``flag`` (``--junit``, ``--out``, ``-o``),
    before any work: InputError for what no run could write, CannotWrite for a
    folder that takes no files. ``inputs`` are the run's input files, which an output
    may never be; without ``overwrite`` an existing file is refused."""
    text = str(path)
    shown = f"{flag} " if flag else ""
    if not text.strip():
        raise InputError(f"{shown}'': the file name is empty; name the file to write")
    p = check_name(path)
    named = f"{shown}{p}"
    real = Path(os.path.realpath(p))
    if real.is_dir():
        raise InputError(f"{named}: is a folder; name the file to write")
    folder = real.parent
    if not folder.is_dir():
        raise InputError(f"{named}: no folder {p.parent if p.parent != Path() else folder}")
    same = one_of(real, inputs)
    if same is not None:
        raise InputError(f"{named}: is this run's input {same}; name another file to write")
    try:
        st = os.stat(real)
    except OSError:
        st = None
    through = False
    if st is not None:
        if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
            through = True
        elif not stat.S_ISREG(st.st_mode):
            raise InputError(f"{named}: is not a file (a {_kind(st.st_mode)}); name a file")
        elif not overwrite:
            raise InputError(f"{named}: already exists; give --overwrite to replace it")
    result = Output(p, flag, real, through, overwrite)
    if not through:
        with _held():  # tried as writing tries it, a signal held until it is gone
            shutil.rmtree(_temporary_folder(result), ignore_errors=True)
    return result


def _kind(mode: int) -> str:
    if stat.S_ISSOCK(mode):
        return "socket"
    if stat.S_ISBLK(mode):
        return "block device"
    return "special file"


def one_of(real: Path, inputs: Sequence[str | Path]) -> str | None:
    """The input that ``real`` (an output, its links followed) is, the same file under
    any name (a link, ``./``, a hard link), or None."""
    for given in inputs:
        other = Path(given)
        try:
            if other.exists() and (
                real == Path(os.path.realpath(other))
                or (real.exists() and os.path.samefile(real, other))
            ):
                return str(given)
        except OSError:
            continue
    return None


def _temporary_folder(out: Output) -> Path:
    """A new hidden folder beside the output, for its temporary file (on the same file
    system, so the finished file is put in place, not copied)."""
    folder = out.real.parent
    try:
        return Path(tempfile.mkdtemp(prefix=f".{out.real.name}.", suffix=".partial", dir=folder))
    except OSError as exc:
        if exc.errno == errno.ENOSPC:
            raise CannotWrite(f"{out.named}: cannot write it: {NO_SPACE.lower()}") from None
        why = exc.strerror or type(exc).__name__
        if exc.errno == errno.ENOENT:  # /proc: the folder exists, but makes no new entries
            why = "it takes no new files"
        raise CannotWrite(
            f"{out.named}: cannot write it: folder {folder} is not writable ({why})"
        ) from None


def refused(out: Output, exc: OSError) -> CannotWrite:
    """The one line for an output the machine would not take."""
    if exc.errno == errno.ENOSPC:
        return CannotWrite(f"{out.named}: cannot write it: {NO_SPACE.lower()}")
    return CannotWrite(f"{out.named}: cannot write it: {exc.strerror or exc}")


@contextlib.contextmanager
def writing(out: Output) -> Iterator[Path]:
    """A temporary path to write the whole output into; when the block ends well it
    becomes the output (see the module's rules), and whatever happens the temporary
    file is gone afterwards. Putting it in place fails as :class:`CannotWrite`."""
    # The folder is made with a stopping signal held, and let through only inside the
    # try: a signal the moment it exists still has it removed.
    hold = _held()
    hold.__enter__()
    try:
        if out.through:
            folder = Path(tempfile.mkdtemp(prefix="threshold-lab-out-"))
        else:
            folder = _temporary_folder(out)
    except BaseException:
        hold.__exit__(None, None, None)
        raise
    target = folder / out.real.name
    try:
        hold.__exit__(None, None, None)
        yield target
        if out.through:
            _write_through(target, out)
        else:
            _put_in_place(target, out)
    finally:
        remove(folder)


#: Signals that came while a temporary folder was being made or removed, to be raised
#: once it is done (see :func:`holding`): the command line's handlers defer to it.
DEFERRED: list[int] = []
_HOLDS = [0]
#: Called with a deferred signal when the last hold ends (set by the command line).
RELEASE: list[Callable[[int], None]] = []


def holding() -> bool:
    """Whether a stopping signal must wait: a temporary folder is being made or removed."""
    return _HOLDS[0] > 0


@contextlib.contextmanager
def _held() -> Iterator[None]:
    _HOLDS[0] += 1
    try:
        yield
    finally:
        _HOLDS[0] -= 1
    if not _HOLDS[0] and DEFERRED and RELEASE:
        RELEASE[-1](DEFERRED.pop())


def remove(folder: Path) -> None:
    """Remove a temporary folder and all in it, a stopping signal held until it is gone:
    one in the middle would otherwise leave half of it behind."""
    with _held():
        shutil.rmtree(folder, ignore_errors=True)


def write_text(out: Output, text: str) -> Path:
    """Write ``text`` (UTF-8, newlines as given) as the output; its path."""
    with writing(out) as tmp:
        try:
            with open(tmp, "w", encoding="utf-8", newline="") as fh:
                fh.write(text)
        except OSError as exc:
            raise refused(out, exc) from None
    return out.path


def _write_through(tmp: Path, out: Output) -> None:
    """Copy the finished file into a device or FIFO, reporting what it refuses."""
    try:
        with open(tmp, "rb") as src, open(out.real, "wb") as dst:
            shutil.copyfileobj(src, dst, 2**20)
    except OSError as exc:
        raise refused(out, exc) from None


def _new_file_mode() -> int:
    """The mode ``open`` would give a new file: 0666 less the umask."""
    umask = os.umask(0o077)  # reading the umask means setting it; put it back at once
    os.umask(umask)
    return 0o666 & ~umask


def _put_in_place(tmp: Path, out: Output) -> None:
    """Make the finished ``tmp`` the output: durable, with the mode of the file it
    replaces (or the umask's), in one step."""
    try:
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        try:
            mode = stat.S_IMODE(os.stat(out.real).st_mode)
        except OSError:
            mode = _new_file_mode()
        os.chmod(tmp, mode)
    except OSError as exc:
        raise refused(out, exc) from None
    publish(tmp, out)
    _sync_folder(out.real.parent)


def publish(tmp: Path, out: Output) -> None:
    """Put the finished ``tmp`` at the output.

    With ``overwrite``, ``os.replace``: atomic, whatever file is there is replaced.
    Without, nothing is ever replaced, not even a file that appeared while the run
    worked (another run, another program): ``os.link`` makes the finished file appear
    whole, or fails because the name is taken, the test and the write being one step,
    so of concurrent runs to one output exactly one writes it. Where hard links are
    not supported, an exclusive create and a copy do the same (the file is then
    visible while it is copied).
    """
    try:
        if out.overwrite:
            os.replace(tmp, out.real)
            return
        try:
            os.link(tmp, out.real)
        except FileExistsError:
            raise
        except OSError as exc:
            if exc.errno not in NO_LINKS:
                raise
            _copy_new(tmp, out.real)
    except FileExistsError:
        raise InputError(
            f"{out.named}: appeared during the run and was left as it is; "
            "give --overwrite to replace it"
        ) from None
    except OSError as exc:
        raise refused(out, exc) from None


def _copy_new(tmp: Path, real: Path) -> None:
    """Copy ``tmp`` to ``real``, a file created here (FileExistsError if it exists):
    publishing where there are no hard links. A copy that fails is removed."""
    with open(real, "xb") as dst:
        try:
            with open(tmp, "rb") as src:
                shutil.copyfileobj(src, dst, 2**20)
            dst.flush()
            os.fsync(dst.fileno())
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(real)
            raise


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


def stream(pieces: Iterable[str], out: TextIO) -> None:
    """Write ``pieces`` to ``out`` (standard output): whole, or, where ``out`` is a
    regular file, nothing: on a write error (a full disk) or an interruption (a
    signal raised as KeyboardInterrupt) the file is cut back to where it stood and
    the rest of the run's writes go nowhere. A write error is CannotWrite; an
    interruption is raised again with a note of what it left (:data:`LEFT_NOTHING`, or
    that the part already written to a pipe or terminal is incomplete). A reader that
    left early (``| head``) is BrokenPipeError, raised as it is."""
    start = _offset(out)
    try:
        for piece in pieces:
            out.write(piece)
        out.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:
        _discard(out, start)
        raise CannotWrite(f"cannot write the report: {exc.strerror or exc}") from None
    except KeyboardInterrupt as exc:
        _discard(out, start)
        exc.add_note(LEFT_NOTHING if start is not None else LEFT_PART)
        raise


#: What an interrupted run left on its standard output.
LEFT_NOTHING = "nothing was written"
LEFT_PART = "the output written before it is incomplete"


def _offset(out: TextIO) -> int | None:
    """Where a regular file ``out`` writes to stands now (None: not a regular file)."""
    try:
        fd = out.fileno()
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        out.flush()
        if fcntl.fcntl(fd, fcntl.F_GETFL) & os.O_APPEND:  # >>: writes go to the end
            return os.fstat(fd).st_size
        return os.lseek(fd, 0, os.SEEK_CUR)
    except (OSError, ValueError, io.UnsupportedOperation):
        return None


def _discard(out: TextIO, start: int | None) -> None:
    """Drop what could not be written: in a regular file the part that was (cut back
    to ``start``), and the buffer, so the exit does not try to write it again."""
    with contextlib.suppress(OSError, ValueError):
        fd = out.fileno()
        if start is not None:
            os.ftruncate(fd, start)
        os.dup2(os.open(os.devnull, os.O_WRONLY), fd)
