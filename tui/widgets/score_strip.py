"""Every example on the score axis, positives and negatives in two lanes, with the
threshold drawn as a vertical line. Different glyphs, not colour alone."""

from __future__ import annotations

import numpy as np
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from core.analysis import Analysis
from core.threshold import format_threshold

LANE_HEIGHT = 3
POS_GLYPH, NEG_GLYPH, LINE_GLYPH = "+", "o", "|"


class ScoreStrip(Widget):
    """Lanes ``actual 1`` (``+``) and ``actual 0`` (``o``); tied examples stack up."""

    DEFAULT_CSS = """
    ScoreStrip { height: 9; }
    """

    analysis: reactive[Analysis | None] = reactive(None)

    def render(self) -> Text:
        a = self.analysis
        if a is None:
            return Text("")
        label_w = 10
        # Lanes share the height left after the axis and caption lines.
        lane_height = max(1, min(LANE_HEIGHT, (self.size.height - 2) // 2))
        width = max(self.size.width - label_w - 1, 10)
        scores = a.data.scores
        lo, hi = float(scores.min()), float(scores.max())
        span = hi - lo if hi > lo else 1.0
        # One spare column on the right for the above-all line.
        usable = width - 2

        def col(v: float) -> int:
            return round((v - lo) / span * usable) if hi > lo else usable // 2

        cols = np.clip(np.round((scores - lo) / span * usable).astype(int), 0, usable)
        if hi == lo:
            cols[:] = usable // 2
        line_col = usable + 1 if a.threshold is None else col(max(min(a.threshold, hi), lo))
        if a.threshold is not None and a.threshold > hi:
            line_col = usable + 1
        if a.threshold is not None and a.threshold < lo:
            line_col = 0
        out = Text()
        for lane_name, mask, glyph in (
            ("actual 1", a.data.labels, POS_GLYPH),
            ("actual 0", ~a.data.labels, NEG_GLYPH),
        ):
            counts = np.bincount(cols[mask], minlength=usable + 2)
            for level in range(lane_height, 0, -1):
                row = [" "] * (usable + 2)
                for c in np.flatnonzero(counts >= level):
                    row[c] = glyph
                    if level == lane_height and counts[c] > lane_height:
                        row[c] = str(min(int(counts[c]), 9)) if counts[c] < 10 else "#"
                if row[line_col] == " ":
                    row[line_col] = LINE_GLYPH
                name = lane_name if level == 1 else ""
                out.append(f"{name:<{label_w}}", style="dim")
                out.append("".join(row) + "\n")
        axis = [" "] * (usable + 2)
        axis[line_col] = "^"
        out.append(" " * label_w)
        out.append("".join(axis) + "\n")
        left, right = format_threshold(lo), format_threshold(hi)
        t = format_threshold(a.threshold)
        footer = f"{left} ... {right}   threshold {t}: right of the line is predicted positive"
        out.append(" " * label_w + footer[: usable + 2], style="dim")
        return out
