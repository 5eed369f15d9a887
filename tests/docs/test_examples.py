"""Every example in README.md and docs/ runs, so the pages cannot go stale.

A fenced block marked ``sh`` is commands (each must exit 0, or the status its
``# exits N`` comment names); ``console`` is ``$ command`` lines each followed by
what it prints (a last line ``...`` allows more); ``python`` runs in one namespace
per page, its ``>>>`` lines checked as doctests. ``text`` blocks (synopses, figures,
sample output) are not examples. Each page runs in a fresh copy of docs/examples,
whose small files the examples name; a command that opens the explorer opens it
headless (Textual's pilot), draws it, and quits.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.paths import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^( *)```(\w*)\n(.*?)^\1```$", re.M | re.S)
EXITS = re.compile(r"#\s*exits (\d+)\b")
COMMANDS = ("report", "screenshot", "aggregate", "serve", "plot")


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
        out.append((line, int(m.group(1)) if m else 0))
    return out


def _env() -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)
    return {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
            "COLUMNS": "100", "NO_COLOR": "1"}  # fmt: skip


def _explorer_argv(line: str) -> list[str] | None:
    """The explorer's arguments when ``line`` opens the explorer, else None."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    if any(set(token) <= set("|&;<>()") for token in lexer):
        return None  # a pipe or a redirection: the shell runs it as written
    words = shlex.split(line, comments=True)
    if words[:1] == ["threshold-lab"]:
        args = words[1:]
    elif words[:3] == ["python", "-m", "threshold_lab"]:
        args = words[3:]
    else:
        return None
    if (args and args[0] in COMMANDS) or "--plain" in args or "--help" in args:
        return None
    return args


def run(line: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    argv = _explorer_argv(line)
    if argv is not None:
        command = [sys.executable, "-m", "tests.docs.open_explorer", *argv]
        env = {**_env(), "PYTHONPATH": str(ROOT)}
        return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                              timeout=300)  # fmt: skip
    line = re.sub(r"^python ", f"{shlex.quote(sys.executable)} ", line)
    return subprocess.run(["bash", "-c", line], cwd=cwd, env=_env(), capture_output=True,
                          text=True, timeout=300)  # fmt: skip


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
            else:
                assert block.kind == "text", f"{where}: a block marked {block.kind!r}"
    finally:
        os.chdir(here)


def test_pages_have_examples() -> None:
    counted = {p.name: sum(b.kind != "text" for b in blocks(p)) for p in PAGES}
    assert counted["python.md"] >= 8 and counted["README.md"] >= 2
