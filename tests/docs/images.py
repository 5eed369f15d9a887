"""The README's images: each is `threshold-lab screenshot` of one state, made by
`make docs` (``python -m tests.docs.images``) and held equal to what the current
code draws by tests/test_docs_images.py, so they can never go stale."""

from __future__ import annotations

import os
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


#: The figures docs/figures.md shows: ``threshold-lab plot`` of the examples' files,
#: each chart once (made in docs/examples, where the page's commands run).
FIGURES: dict[str, list[str]] = {
    "roc-folds.png": ["cv.csv", "--fold", "fold", "--chart", "roc"],
    "roc-models.png": ["runs.csv", "--score-column", "A", "--score-column", "B", "--chart", "roc"],
    "pr.png": ["preds.csv", "--chart", "pr", "--bootstrap", "200"],
    "det.png": ["runs.csv", "--score-column", "A", "--score-column", "B", "--chart", "det"],
    "decision.png": ["preds.csv", "--chart", "decision"],
    "reliability.png": ["preds.csv", "--chart", "reliability"],
    "gains.png": ["preds.csv", "--chart", "gains"],
    "cost.png": ["preds.csv", "--chart", "cost"],
    "metrics.png": ["preds.csv", "--chart", "metrics", "--threshold", "0.4"],
}
FIGURES_DIR = DOCS / "figures"


def make_figure(name: str, out: Path) -> int:
    """Write figure ``name`` to ``out`` (run from docs/examples); the exit status."""
    return main(["plot", *FIGURES[name], "--out", str(out), "--size", "6x4", "--dpi", "100"])


def make(name: str, out: Path) -> int:
    """Write image ``name`` to ``out``; the command's exit status."""
    return main(["screenshot", str(out), *IMAGES[name]])


if __name__ == "__main__":
    for image in IMAGES:
        if make(image, DOCS / image) != 0:
            sys.exit(1)
    FIGURES_DIR.mkdir(exist_ok=True)
    os.chdir(DOCS / "examples")
    for figure in FIGURES:
        if make_figure(figure, FIGURES_DIR / figure) != 0:
            sys.exit(1)
