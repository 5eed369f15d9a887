"""Snapshots of the accessibility options: terminal palettes, NO_COLOR, ASCII.

Every SVG in snapshots/test_snapshots_access/ was looked at (as PNG) before
it was committed.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable

import pytest

from tests.tui.helpers import SIZE, SMALL, make_app

Compare = Callable[..., bool]


@pytest.mark.parametrize("theme", ["ansi-dark", "ansi-light"])
def test_terminal_palette_themes(snap_compare: Compare, theme: str) -> None:
    """The chart uses plotext's 'clear' theme here, not black on black."""
    assert snap_compare(make_app(theme=theme), press=["c", "c"], terminal_size=SIZE)


def test_no_color(snap_compare: Compare, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    assert snap_compare(make_app(), terminal_size=SIZE)


def test_ascii(snap_compare: Compare) -> None:
    assert snap_compare(make_app(ascii=True), press=["c", "c"], terminal_size=SIZE)


def test_ascii_small_terminal(snap_compare: Compare) -> None:
    assert snap_compare(make_app(ascii=True), terminal_size=SMALL)


@pytest.mark.parametrize("keys", [["c", "c"], ["m"], ["question_mark"], ["home", "P"]])
async def test_ascii_screen_holds_only_ascii(keys: list[str]) -> None:
    app = make_app("no-actual-positives", ascii=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*keys)
        await pilot.pause()
        svg = app.export_screenshot()
    text = "".join(html.unescape(t) for t in re.findall(r">([^<]*)</text>", svg))
    assert text.strip()
    assert {c for c in text if ord(c) > 127} <= {"\xa0"}  # the SVG's own non-breaking spaces


def test_demo_first_caption(snap_compare: Compare) -> None:
    assert snap_compare(make_app(demo=True), terminal_size=SIZE)


@pytest.mark.parametrize(("size", "keys"), [(SMALL, ["b", "]"]), (SIZE, ["b", "]", "c"])])
def test_braille_line(snap_compare: Compare, size: tuple[int, int], keys: list[str]) -> None:
    """b: the curve as one line of braille cells above the chart, the active point's
    cell reversed (at 120x40 after c, the PR curve's line)."""
    press = ["right_square_bracket" if k == "]" else k for k in keys]
    assert snap_compare(make_app("good"), press=press, terminal_size=size)
