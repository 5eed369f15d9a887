"""Every example on the score axis, positives and negatives in two lanes, with the
threshold drawn as a vertical line. Different glyphs, not colour alone."""

from __future__ import annotations

import numpy as np
from rich.text import Text
from textual.events import Resize
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from threshold_lab.core.drawing.score_bins import ScoreBins, axis_ticks
from threshold_lab.core.text.scores import threshold_words
from threshold_lab.core.threshold import format_threshold
from threshold_lab.tui.explorer.frame import Frame

LANE_HEIGHT = 3
POS_GLYPH, NEG_GLYPH, LINE_GLYPH = "+", "o", "|"
LABEL_WIDTH = 10


def strip_columns(width: int) -> int:
    """Score columns in a strip this wide (the lane labels take the rest)."""
    return max(width - LABEL_WIDTH - 1, 12)


class ScoreStrip(Widget):
    """Lanes ``actual 1`` (``+``) and ``actual 0`` (``o``); tied examples stack up.

    The line stands in the threshold's own column, so its value reads off the
    axis below (round values written where they fall); the rows that share
    that column are split around it, so every glyph left of the line is
    predicted negative and every glyph right of it predicted positive. The
    rows come binned (:class:`threshold_lab.core.drawing.score_bins.ScoreBins`, in the frame's
    prepared data); the strip only draws them.
    """

    class Resized(Message):
        """The strip's width changed: rows are best binned into ``columns`` columns."""

        def __init__(self, columns: int) -> None:
            super().__init__()
            self.columns = columns

    DEFAULT_CSS = """
    ScoreStrip { height: 9; }
    """

    frame: reactive[Frame | None] = reactive(None)
    """The state to show (handed down by the screen)."""

    def on_resize(self, event: Resize) -> None:
        self.post_message(self.Resized(strip_columns(event.size.width)))

    def render(self) -> Text:
        frame = self.frame
        if frame is None:
            return Text("")
        a = frame.analysis
        usable = strip_columns(self.size.width)
        prepared = frame.ready
        if prepared is None or prepared.bins.usable != usable:
            return Text(f"Placing {a.data.n:,} rows on the score axis…", style="dim")
        lane_height = max(1, min(LANE_HEIGHT, (self.size.height - 2) // 2))
        pos_counts, neg_counts, line = prepared.bins.lane_counts(a)
        out = Text()
        for lane, counts, glyph in (
            ("actual 1", pos_counts, POS_GLYPH),
            ("actual 0", neg_counts, NEG_GLYPH),
        ):
            for level in range(lane_height, 0, -1):
                row = [" "] * usable
                for c in np.flatnonzero(counts >= level):
                    row[c] = glyph
                    if level == lane_height and counts[c] > lane_height:
                        row[c] = str(int(counts[c])) if counts[c] < 10 else "#"
                row[line] = LINE_GLYPH
                # A column of margin, as every other pane has.
                out.append(f" {lane if level == 1 else '':<{LABEL_WIDTH - 1}}", style="dim")
                out.append("".join(row) + "\n")
        bins = prepared.bins
        out.append(" score".ljust(LABEL_WIDTH), style="dim")
        out.append(axis_line(bins, line, usable) + "\n")
        lo, hi = format_threshold(bins.lo), format_threshold(bins.hi)
        span = f"scores {lo} to {hi}" if lo != hi else f"every score is {lo}"
        t = threshold_words(a.threshold, a.sweep.thresholds)
        # The longest wording that fits whole (#12 item 9: the span was cut at 80).
        room = LABEL_WIDTH + usable
        for caption in (
            f"{' ' * LABEL_WIDTH}^ threshold {t}; right of the line is predicted positive; {span}",
            f" ^ threshold {t}; right of the line is predicted positive; {span}",
            f" ^ threshold {t}; right of it: predicted positive; {span}",
            f" ^ {t}; right: predicted positive; {span}",
        ):
            if len(caption) <= room:
                break
        out.append(caption[:room], style="dim")
        return out


def axis_line(bins: ScoreBins, line: int, usable: int) -> str:
    """The score axis under the lanes: round values written where they fall (each
    starting at its own column), and ``^`` under the threshold's line. A label that
    would run into the ``^`` or the label before it is left out."""
    axis = [" "] * usable
    axis[line] = "^"
    taken = {line}
    for value in axis_ticks(bins.lo, bins.hi):
        label = format_threshold(value)
        start = int(bins.base(np.array([value]))[0])
        if value > bins.lo and start >= line:
            start += 1  # columns from the line's on moved one right to make room for it
        cells = set(range(start - 1, start + len(label) + 1))
        if start + len(label) > usable or cells & taken:
            continue
        axis[start : start + len(label)] = label
        taken |= cells
    return "".join(axis)
