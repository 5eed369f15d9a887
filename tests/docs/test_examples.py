"""Every example in README.md and docs/ runs, so the pages cannot go stale.

A fenced block marked ``sh`` is commands (each must exit 0, or the status its
``# exits N`` comment names); ``console`` is ``$ command`` lines each followed by
what it prints (a last line ``...`` allows more); ``python`` runs in one namespace
per page, its ``>>>`` lines checked as doctests; ``toml`` is a lesson, read and
rehearsed as ``threshold-lab lesson`` reads one. ``text`` blocks (synopses, figures,
sample output) are not examples. Each page runs in a fresh copy of docs/examples,
whose small files the examples name; a command that opens the explorer opens it
headless (Textual's pilot), draws it, and quits.

A command that is the program alone (no pipe, no redirection) runs in a fork of this
process with the program already imported: the child has its own working folder,
environment, streams and exit status, as a new process would, and calls the same
``main`` the ``threshold-lab`` script calls, without paying Python's start and the
imports (about a second a command). Anything else runs in bash.

A command piped into a program a page may name but a machine may lack
(:data:`OPTIONAL`, a speech synthesiser) runs there with that last stage reading its
input away, so threshold-lab's part is still checked.
"""

from __future__ import annotations

import contextlib
import doctest
import importlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from threshold_lab.core.lessons.play import parse_lesson

from tests.paths import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^( *)```(\w*)\n(.*?)^\1```$", re.M | re.S)
EXITS = re.compile(r"#\s*exits (\d+)\b")
COMMANDS = ("report", "screenshot", "aggregate", "serve", "plot", "sonify", "power", "exercise")
#: Programs a page's pipelines may end in that are not ours to install.
OPTIONAL = ("espeak-ng",)


@dataclass(frozen=True)
class Block:
    kind: str
    text: str
    line: int


def blocks(page: Path) -> list[Block]:
    text = page.read_text(encoding="utf-8")
    out = []
    for m in FENCE.finditer(text):
        indent = len(m.group(1))
        body = "\n".join(line[indent:] for line in m.group(3).splitlines())
        out.append(Block(m.group(2), body, text[: m.start()].count("\n") + 1))
    return out


def _commands(text: str) -> list[tuple[str, int]]:
    """The block's commands (continuation lines joined), each with its exit status."""
    out: list[tuple[str, int]] = []
    pending = ""
    for raw in text.splitlines():
        line = pending + raw
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = EXITS.search(line)
        out.append((_without_missing(line), int(m.group(1)) if m else 0))
    return out


def _without_missing(line: str) -> str:
    """``line`` with a last pipeline stage of a missing :data:`OPTIONAL` program
    replaced by one that reads the input away (the rest must still succeed)."""
    head, bar, last = line.rpartition("|")
    try:
        words = shlex.split(last)
    except ValueError:  # the bar was inside quotes: no pipeline to mend
        return line
    if bar and words and words[0] in OPTIONAL and shutil.which(words[0]) is None:
        return f"set -o pipefail; {head}| cat >/dev/null"
    return line


def _env() -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)
    return {
        **os.environ,
        "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
        "COLUMNS": "100",
        "NO_COLOR": "1",
    }


def _program_argv(line: str) -> list[str] | None:
    """The program's arguments when ``line`` is the program alone, else None."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    if any(set(token) <= set("|&;<>()") for token in lexer):
        return None  # a pipe or a redirection: the shell runs it as written
    words = shlex.split(line, comments=True)
    if words[:1] == ["threshold-lab"]:
        return words[1:]
    if words[:3] == ["python", "-m", "threshold_lab"]:
        return words[3:]
    return None


def _opens_explorer(args: list[str]) -> bool:
    """Whether the program's arguments ``args`` open the explorer."""
    return not ((args and args[0] in COMMANDS) or "--plain" in args or "--help" in args)


def _forked(call: Callable[[], int | None], cwd: Path, env: dict[str, str]) -> tuple[int, str, str]:
    """``call()`` in a fork of this process as a child process would run it: in ``cwd``
    with ``env``, stdin empty, stdout and stderr read back, its status its return value
    (or SystemExit's; an uncaught exception is a traceback and status 1)."""
    sys.stdout.flush()
    sys.stderr.flush()
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        pid = os.fork()
        if pid == 0:  # the child: it never returns into pytest
            status = 1
            try:
                signal.signal(signal.SIGALRM, signal.SIG_DFL)
                signal.alarm(300)  # a command that hangs ends the child, as a timeout would
                os.chdir(cwd)
                os.environ.clear()
                os.environ.update(env)
                os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
                os.dup2(out.fileno(), 1)
                os.dup2(err.fileno(), 2)
                sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
                sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
                sys.stderr = open(  # noqa: SIM115
                    2, "w", encoding="utf-8", errors="backslashreplace", closefd=False
                )
                try:
                    code = call()
                except SystemExit as exc:
                    code = exc.code if isinstance(exc.code, int) or exc.code is None else 1
                    if not isinstance(exc.code, int | None):
                        print(exc.code, file=sys.stderr)
                status = code or 0
            except BaseException:
                traceback.print_exc()
            finally:
                for stream in (sys.stdout, sys.stderr):
                    with contextlib.suppress(BaseException):  # the child must reach _exit
                        stream.flush()
                os._exit(status)
        _, wait = os.waitpid(pid, 0)
        out.seek(0)
        err.seek(0)
        decoded = [f.read().decode("utf-8", errors="replace") for f in (out, err)]
        return os.waitstatus_to_exitcode(wait), decoded[0], decoded[1]


def _open_explorer(argv: list[str]) -> Callable[[], int]:
    from tests.docs import open_explorer

    return lambda: open_explorer.main(argv)


def _program(argv: list[str]) -> Callable[[], int]:
    """``main(argv)``, with the command's own modules imported here first, so that each
    child starts with them as the first one left them."""
    from threshold_lab.tui.cli import COMMANDS, main

    command = COMMANDS.get(argv[0]) if argv else None
    importlib.import_module(f"threshold_lab.tui.cli.{command.module if command else 'explore'}")
    if argv[:1] == ["plot"]:
        for name in ("matplotlib.figure", "matplotlib.backends.backend_agg"):
            importlib.import_module(name)
    return lambda: main(argv)


def run(line: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    argv = _program_argv(line)
    if argv is not None:
        call = _open_explorer(argv) if _opens_explorer(argv) else _program(argv)
        code, out, err = _forked(call, cwd, _env())
        return subprocess.CompletedProcess(line, code, out, err)
    line = re.sub(r"^python ", f"{shlex.quote(sys.executable)} ", line)
    return subprocess.run(
        ["bash", "-c", line], cwd=cwd, env=_env(), capture_output=True, text=True, timeout=300
    )


def _console(block: Block, cwd: Path, where: str) -> None:
    chunks = re.split(r"^\$ ", block.text, flags=re.M)[1:]
    assert chunks, f"{where}: a console block without a $ command"
    for chunk in chunks:
        command, *expected = chunk.splitlines()
        proc = run(command, cwd)
        got = (proc.stdout + proc.stderr).splitlines()
        if expected and expected[-1] == "...":
            expected = expected[:-1]
            got = got[: len(expected)]
        assert got == expected, f"{where}: $ {command}"


def _python(block: Block, namespace: dict[str, object], where: str) -> None:
    if ">>>" not in block.text:
        exec(compile(block.text, where, "exec"), namespace)
        return
    test = doctest.DocTestParser().get_doctest(block.text, namespace, where, where, block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    runner.run(test, clear_globs=False)
    namespace.update(test.globs)  # a DocTest runs in a copy: the next block sees its names
    assert runner.failures == 0, f"{where}: {runner.failures} example(s) failed (see above)"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_example_runs(page: Path, tmp_path: Path) -> None:
    work = tmp_path / "examples"
    shutil.copytree(ROOT / "docs" / "examples", work)
    here = Path.cwd()
    os.chdir(work)
    namespace: dict[str, object] = {"__name__": "__docs__"}
    try:
        for block in blocks(page):
            where = f"{page.relative_to(ROOT)}:{block.line}"
            if block.kind == "sh":
                for command, status in _commands(block.text):
                    proc = run(command, work)
                    assert proc.returncode == status, (
                        f"{where}: {command}\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}"
                    )
            elif block.kind == "console":
                _console(block, work, where)
            elif block.kind == "python":
                _python(block, namespace, where)
            elif block.kind == "toml":  # a lesson: read, checked and rehearsed whole
                parse_lesson(block.text, where)
            else:
                assert block.kind == "text", f"{where}: a block marked {block.kind!r}"
    finally:
        os.chdir(here)


def test_pages_have_examples() -> None:
    counted = {p.name: sum(b.kind != "text" for b in blocks(p)) for p in PAGES}
    assert counted["python.md"] >= 8 and counted["README.md"] >= 2
