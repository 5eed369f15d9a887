"""NO_COLOR (no-color.org): no colours at all, the terminal's own foreground and
background throughout; bold, underline and reverse video still tell things apart."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pytest

from tests.terminal import read_terminal, spawn_in_terminal

SGR = re.compile(rb"\x1b\[([0-9;]*)m")


def colours(out: bytes) -> set[bytes]:
    """Every style sequence that sets a colour, for text or background: by number (8
    or 16 colours), or extended (38 and 48: 256 colours or true colour). The terminal's
    defaults (39, 49) are what NO_COLOR asks for."""
    found = set()
    for m in SGR.finditer(out):
        codes = [int(c) for c in m.group(1).split(b";") if c]
        if any(c in (38, 48) or 30 <= c <= 37 or 40 <= c <= 47 or 90 <= c <= 107 for c in codes):
            found.add(m.group(0))
    return found


def drawn(tmp_path: Path, *argv: str) -> bytes:
    proc, master = spawn_in_terminal(
        [sys.executable, "-m", "threshold_lab", *argv], tmp_path, columns=80, lines=24
    )
    try:
        out = read_terminal(master, 30, until=b"predicted positive")
        os.write(master, b"2")  # the chart pane too
        out += read_terminal(master, 3)
    finally:
        proc.kill()
        proc.wait()
        os.close(master)
    return out


@pytest.mark.parametrize("theme", [[], ["--theme", "textual-light"]])
def test_no_color_draws_no_colour(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, theme: list[str]
) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    out = drawn(tmp_path, "--preset", "canonical", *theme)
    assert b"Threshold 0.5" in out
    assert b"TP 2" in out
    found = sorted(colours(out))
    assert found == [], found[:5]
    # Reverse video marks what colour did (the threshold bar, the pane shown).
    assert b"\x1b[1;7;39;49m" in out
