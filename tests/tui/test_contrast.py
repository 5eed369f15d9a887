"""WCAG AA contrast of every text run in every committed snapshot.

Each ``<text>`` run of a Textual SVG snapshot is measured against the
background rectangle under it: words need 4.5:1, chart marks (braille, blocks,
dots) 3:1. Box-drawing borders are decoration and are skipped, and so is the
explorer behind an open dialog, which is dimmed on purpose to under 2.2:1.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from tests.paths import ROOT

SNAPSHOTS = sorted(ROOT.joinpath("snapshots").rglob("*.svg"))

_FILL = re.compile(r"\.(terminal-[\w-]*r\d+)\s*\{\s*fill:\s*(#[0-9a-fA-F]{6})")
_RUN = re.compile(
    r'<text class="([^"]+)" x="([\d.]+)" y="([\d.]+)" textLength="([\d.]+)"[^>]*>(.*?)</text>'
)
_RECT = re.compile(
    r'<rect fill="(#[0-9a-fA-F]{6})" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" '
    r'height="([\d.]+)"'
)
#: Below this the run is the dimmed screen behind a dialog, not content...
DIMMED = 2.2
#: ...in these snapshots only, which show a dialog; anywhere else every run counts
#: (a cursor row at 2.2:1 in an ANSI theme hid below this once).
WITH_DIALOG = {
    "test_typed_threshold_dialog",
    "test_typed_threshold_refused",
    "test_score_edit_open",
    "test_score_edit_refused",
    "test_save_dialog",
    "test_quit_confirm",
    "test_preset_picker",
    "test_help_screen",
    "test_all_metrics",
    "test_goal_dialog",
    "test_goal_dialog_small",
    "test_multiclass_summary",
    "test_groups_view[120x40]",
    "test_groups_view[80x24]",
}


def luminance(colour: str) -> float:
    def linear(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)


def contrast(a: str, b: str) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def _border(text: str) -> bool:
    # Box drawing, the footer's thin rules, and their ASCII stand-ins (--ascii
    # draws the footer's rule as "|" and borders as "+-|").
    return all(0x2500 <= ord(c) <= 0x257F or c in " ▏▕" for c in text) or (
        text.strip() != "" and set(text.strip()) <= set("|+-")
    )


def _marks(text: str) -> bool:
    return all(
        0x2580 <= ord(c) <= 0x259F or 0x2800 <= ord(c) <= 0x28FF or c in " .:'|-_=+*o·•"
        for c in text
    )


def low_contrast(svg: str, *, dimmed: float = DIMMED) -> list[str]:
    """Every run below AA (and at least ``dimmed``): ``ratio fg on bg 'text'``."""
    fills = dict(_FILL.findall(svg))
    rects = [
        (fill, float(x), float(y), float(w), float(h)) for fill, x, y, w, h in _RECT.findall(svg)
    ]
    found = []
    for cls, x, y, length, body in _RUN.findall(svg):
        text = html.unescape(body).replace("\xa0", " ")
        if not text.strip() or cls not in fills or _border(text):
            continue
        mid, row = float(x) + min(float(length), 12.0) / 2, float(y) - 10
        behind = next(
            (
                f
                for f, rx, ry, rw, rh in reversed(rects)
                if rx <= mid < rx + rw and ry <= row < ry + rh
            ),
            None,
        )
        if behind is None:
            continue
        ratio = contrast(fills[cls], behind)
        need = 3.0 if _marks(text.strip()) else 4.5
        if dimmed <= ratio < need:
            found.append(
                f"{ratio:.2f}:1 (needs {need}) {fills[cls]} on {behind} {text.strip()[:40]!r}"
            )
    return found


def test_the_measure_is_wcags() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21.0)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    # Colours the theme once had, too dim for their background, fail it.
    assert contrast("#b93c5b", "#1e1e1e") < 4.5
    assert contrast("#625e4c", "#1e1e1e") < 3.0


def test_there_are_snapshots_to_measure() -> None:
    assert len(SNAPSHOTS) >= 40
    assert {p.stem for p in SNAPSHOTS} >= WITH_DIALOG


@pytest.mark.parametrize("path", SNAPSHOTS, ids=lambda p: p.stem)
def test_every_text_run_meets_aa(path: Path) -> None:
    dimmed = DIMMED if path.stem in WITH_DIALOG else 0.0
    assert low_contrast(path.read_text(encoding="utf-8"), dimmed=dimmed) == []
