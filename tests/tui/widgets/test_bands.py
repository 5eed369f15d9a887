"""A bootstrap band narrower than a cell around the curve: its
upper side fell in the cells the braille curve fills and vanished in Unicode mode
(both sides showed in --ascii). Each side's dots the curve covers now move outward
to the first free cell, so both sides show."""

from __future__ import annotations

import numpy as np
from rich.text import Text
from threshold_lab.core.drawing.bands import Band
from threshold_lab.tui.widgets.charts import BAND_MARK, CurveChart


def test_a_band_narrower_than_a_cell_shows_on_both_sides_of_the_curve() -> None:
    chart = CurveChart("roc")
    cols, rows = 60, 20
    x = np.linspace(0, 1, 101)
    y = np.sqrt(x)  # a smooth ROC curve, as 5,000 noisy rows give
    band = Band(x, np.clip(y - 0.01, 0, 1), np.clip(y + 0.01, 0, 1))
    plt = chart._bare(cols, rows)
    plt.plot(x.tolist(), band.low.tolist(), marker=BAND_MARK)
    plt.plot(x.tolist(), band.high.tolist(), marker=BAND_MARK)
    plt.plot(x.tolist(), y.tolist(), marker="braille")
    drawn = [(r + " " * cols)[:cols] for r in Text.from_ansi(plt.build()).plain.split("\n")]
    drawn = (drawn + [" " * cols] * rows)[:rows]
    cleared = chart._band_clear_of_the_curve(drawn, band, cols, rows)
    for grid in (drawn, cleared):
        assert len(grid) == rows and all(len(r) == cols for r in grid)

    def sides(grid: list[str]) -> tuple[int, int]:
        """Middle columns with a band dot above the curve's top cell, and below its
        bottom cell."""
        above = below = 0
        for c in range(10, 50):
            column = [grid[r][c] for r in range(rows)]
            curve = [r for r, ch in enumerate(column) if 0x2800 <= ord(ch) <= 0x28FF]
            if not curve:
                continue
            dots = [r for r, ch in enumerate(column) if ch == BAND_MARK]
            above += any(r < min(curve) for r in dots)
            below += any(r > max(curve) for r in dots)
        return above, below

    before, after = sides(drawn), sides(cleared)
    assert min(after) >= 30, (before, after)  # both sides in nearly every column
    assert min(before) < min(after)  # one side was missing in many columns
    # Nothing of the curve is moved or covered.
    for r in range(rows):
        for c in range(cols):
            if 0x2800 <= ord(drawn[r][c]) <= 0x28FF:
                assert cleared[r][c] == drawn[r][c]
