"""docs/architecture.md draws the layers the layer tests hold: core's picture is
``LAYERS`` (tests/core/test_layers.py) and tui's is ``STACK`` and ``BESIDE``
(tests/tui/test_layers.py), the same names in the same order; and every file and
folder the page names exists.

A picture is the ``text`` block under its heading, drawn top to bottom. A layer is a
line that starts with two spaces and its names (one space apart), then two spaces or
more before what it holds; a line indented further carries on the one above, and the
line ``beside:`` starts the front ends beside the stack, one a line.
"""

from __future__ import annotations

import re
from pathlib import Path

from tests.core.test_layers import LAYERS
from tests.paths import ROOT
from tests.tui.test_layers import BESIDE, STACK

PAGE = ROOT / "docs" / "architecture.md"


def _block(heading: str) -> str:
    """The ``text`` block under ``heading``."""
    text = PAGE.read_text(encoding="utf-8")
    _, found, after = text.partition(f"\n## {heading}\n")
    assert found, f"docs/architecture.md has no section {heading!r}"
    section = after.split("\n## ", 1)[0]
    block = re.search(r"^```text\n(.*?)^```$", section, re.M | re.S)
    assert block is not None, f"no text block under {heading!r}"
    return block.group(1)


def _picture(heading: str) -> tuple[list[set[str]], list[set[str]]]:
    """The layers drawn under ``heading``, bottom to top, and those beside them."""
    stack: list[set[str]] = []
    beside: list[set[str]] = []
    into = stack
    for line in _block(heading).splitlines():
        if line == "beside:":
            into = beside
        elif re.match(r"  \S", line):
            into.append(set(line[2:].split("  ", 1)[0].split()))
    return stack[::-1], beside


def test_the_picture_of_core_is_its_layer_test() -> None:
    stack, beside = _picture("The layers of core")
    assert stack == LAYERS
    assert beside == []


def test_the_picture_of_tui_is_its_layer_test() -> None:
    stack, beside = _picture("The layers of tui")
    assert stack == STACK
    assert beside == [{name} for name in BESIDE]


def test_every_file_the_page_names_exists() -> None:
    text = PAGE.read_text(encoding="utf-8")
    named = set(re.findall(r"`((?:core|tui|tests|threshold_lab|docs|bench)/[\w./-]*)`", text))
    assert named, "the page names no file"
    assert sorted(p for p in named if not (ROOT / p).exists()) == []


def test_every_file_the_tree_lists_exists() -> None:
    # The tree under "Files": an entry starts a line at 0, 2 or 4 spaces (a folder ends
    # in /); a line indented further describes the entry above. A file named anywhere
    # on a line is in the folder of its entry, or below it (``charts/ ... base.py``).
    missing: list[str] = []
    folders: dict[int, Path] = {-1: ROOT}
    here = ROOT
    for line in _block("Files").splitlines():
        indent = len(line) - len(line.lstrip(" "))
        if line.strip() and indent in (0, 2, 4):
            depth, entry = indent // 2, line.split()[0].rstrip(",")
            parent = folders[depth - 1]
            if entry.endswith("/"):
                here = folders[depth] = parent / entry
                if not here.is_dir():
                    missing.append(entry)
            else:
                here = parent
        for name in re.findall(r"\b\w+\.(?:py|tcss)\b", line):
            if not ((here / name).exists() or any(here.rglob(name))):
                missing.append(f"{here.relative_to(ROOT)}/{name}")
    assert missing == []
