"""Every example on the score axis, positives and negatives in two lanes, with the
threshold drawn as a vertical line. Different glyphs, not colour alone."""

from __future__ import annotations

import numpy as np
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from core.analysis import Analysis
from core.confusion import predict
from core.threshold import format_threshold

LANE_HEIGHT = 3
POS_GLYPH, NEG_GLYPH, LINE_GLYPH = "+", "o", "|"
LABEL_WIDTH = 10


class ScoreStrip(Widget):
    """Lanes ``actual 1`` (``+``) and ``actual 0`` (``o``); tied examples stack up.

    The line is placed from the predictions, not from the threshold's screen
    column: every glyph left of it is predicted negative and every glyph right
    of it predicted positive, even when two scores round to one column.
    """

    DEFAULT_CSS = """
    ScoreStrip { height: 9; }
    """

    analysis: reactive[Analysis | None] = reactive(None)

    def _columns(self, a: Analysis, usable: int) -> tuple[np.ndarray, int]:
        """Each row's column and the line's column, within ``usable`` columns."""
        scores = a.data.scores
        lo, hi = float(scores.min()), float(scores.max())
        # Scores take columns 1 .. usable-2; predicted positives move one right.
        inner = usable - 3
        if hi > lo:
            base = 1 + np.round((scores - lo) / (hi - lo) * inner).astype(int)
        else:
            base = np.full(scores.shape[0], 1 + inner // 2)
        positive = predict(a.data, a.threshold)
        if not positive.any():
            return np.minimum(base, usable - 2), usable - 1
        line = int(base[positive].min())
        return np.where(positive, base + 1, np.minimum(base, line - 1)), line

    def render(self) -> Text:
        a = self.analysis
        if a is None:
            return Text("")
        usable = max(self.size.width - LABEL_WIDTH - 1, 12)
        lane_height = max(1, min(LANE_HEIGHT, (self.size.height - 2) // 2))
        cols, line = self._columns(a, usable)
        out = Text()
        for lane, mask, glyph in (
            ("actual 1", a.data.labels, POS_GLYPH),
            ("actual 0", ~a.data.labels, NEG_GLYPH),
        ):
            counts = np.bincount(cols[mask], minlength=usable)
            for level in range(lane_height, 0, -1):
                row = [" "] * usable
                for c in np.flatnonzero(counts >= level):
                    row[c] = glyph
                    if level == lane_height and counts[c] > lane_height:
                        row[c] = str(int(counts[c])) if counts[c] < 10 else "#"
                row[line] = LINE_GLYPH
                out.append(f"{lane if level == 1 else '':<{LABEL_WIDTH}}", style="dim")
                out.append("".join(row) + "\n")
        axis = [" "] * usable
        axis[line] = "^"
        out.append(" " * LABEL_WIDTH + "".join(axis) + "\n")
        scores = a.data.scores
        lo, hi = format_threshold(float(scores.min())), format_threshold(float(scores.max()))
        span = f"scores {lo} to {hi}" if lo != hi else f"every score is {lo}"
        t = format_threshold(a.threshold)
        caption = f"{span}; threshold {t}: right of the line is predicted positive"
        out.append(" " * LABEL_WIDTH + caption[:usable], style="dim")
        return out
