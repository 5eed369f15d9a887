"""The images the README and the pages show are what the current code draws."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.docs.images import DOCS, FIGURES, FIGURES_DIR, IMAGES, make, make_figure


def test_every_image_shown_is_made_here() -> None:
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    shown = set(re.findall(r"\(docs/([\w.-]+\.svg)\)", readme))
    for page in DOCS.glob("*.md"):
        shown |= set(re.findall(r"\]\(([\w.-]+\.svg)\)", page.read_text(encoding="utf-8")))
    assert shown == set(IMAGES)
    assert {p.name for p in DOCS.glob("*.svg")} == set(IMAGES)


@pytest.mark.parametrize("name", sorted(IMAGES))
def test_a_committed_image_is_what_the_code_draws(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / name
    assert make(name, out) == 0
    committed = (DOCS / name).read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8") == committed, f"run make docs, then look at {name}"


def test_every_figure_shown_is_made_here() -> None:
    shown = set()
    for page in DOCS.glob("*.md"):
        shown |= set(re.findall(r"\]\(figures/([\w.-]+\.png)\)", page.read_text(encoding="utf-8")))
    assert shown == set(FIGURES)
    assert {p.name for p in FIGURES_DIR.glob("*.png")} == set(FIGURES)


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_a_committed_figure_is_what_the_code_draws(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(DOCS / "examples")
    out = tmp_path / name
    assert make_figure(name, out) == 0
    assert out.read_bytes() == (FIGURES_DIR / name).read_bytes(), (
        f"run make docs, then look at {name}"
    )
