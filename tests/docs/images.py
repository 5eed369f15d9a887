"""The README's images: each is `threshold-lab screenshot` of one state, made by
`make docs` (``python -m tests.docs.images``) and held equal to what the current
code draws by tests/test_docs_images.py, so they can never go stale."""

from __future__ import annotations

import sys
from pathlib import Path

from threshold_lab.tui.cli import main

from tests.paths import ROOT

DOCS = ROOT / "docs"

#: Image name to the screenshot arguments that make it (the README says what each shows).
IMAGES: dict[str, list[str]] = {
    # The canonical fixture at the playback step where the two tied 0.8 rows enter together.
    "explorer.svg": ["--preset", "canonical", "--press", "home,n,n"],
    # PR and ROC side by side: AP 5/6 against the trapezoid area 19/24.
    "pr-vs-ap.svg": ["--preset", "ap-vs-trapezoid", "--press", "c,c"],
    # The terminal's own palette, light, on the imbalanced fixture.
    "ansi-light.svg": ["--preset", "imbalanced", "--theme", "ansi-light"],
    # An 80x24 terminal shows one pane at a time: here the chart (pane 2).
    "chart-80x24.svg": ["--preset", "good", "--size", "80x24", "--press", "2"],
    # --ascii in an 80x24 terminal.
    "ascii-80x24.svg": ["--preset", "canonical", "--ascii", "--size", "80x24"],
}


def make(name: str, out: Path) -> int:
    """Write image ``name`` to ``out``; the command's exit status."""
    return main(["screenshot", str(out), *IMAGES[name]])


if __name__ == "__main__":
    for image in IMAGES:
        if make(image, DOCS / image) != 0:
            sys.exit(1)
