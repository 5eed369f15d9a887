"""Every example on the score axis, positives and negatives in two lanes, with the
threshold drawn as a vertical line. Different glyphs, not colour alone."""

from __future__ import annotations

import numpy as np
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from core.analysis import Analysis
from core.data.dataset import Dataset
from core.metrics.confusion import predict
from core.threshold import Threshold, format_threshold

LANE_HEIGHT = 3
POS_GLYPH, NEG_GLYPH, LINE_GLYPH = "+", "o", "|"
LABEL_WIDTH = 10


#: Datasets with more rows than this are binned off the UI thread when they change.
BACKGROUND_ROWS = 200_000


class Bins:
    """One dataset's rows binned into score columns, per class.

    ``base`` columns run 1 .. usable-2 (as in :meth:`ScoreStrip._columns`);
    ``hist[c][b]`` counts class ``c``'s rows in column ``b`` and
    ``above[c][b]`` those in columns ``b`` and higher.
    """

    def __init__(self, data: Dataset, usable: int) -> None:
        scores = data.scores
        self.lo, self.hi = float(scores.min()), float(scores.max())
        self.usable = usable
        self.inner = usable - 3
        self.hist: dict[bool, np.ndarray] = {}
        self.above: dict[bool, np.ndarray] = {}
        self.sorted: dict[bool, np.ndarray] = {}
        for cls in (True, False):
            s = scores[data.labels == cls]
            h = np.bincount(self.base(s), minlength=usable + 1)[: usable + 1]
            self.hist[cls] = h
            self.above[cls] = np.append(np.cumsum(h[::-1])[::-1], 0)
            if data.weighted:  # the sweep counts weights, not rows: count rows here
                self.sorted[cls] = np.sort(s)

    def base(self, s: np.ndarray) -> np.ndarray:
        if self.hi > self.lo:
            return 1 + np.round((s - self.lo) / (self.hi - self.lo) * self.inner).astype(int)
        return np.full(s.shape[0], 1 + self.inner // 2)

    def at(
        self,
        threshold: Threshold,
        lowest_in: Threshold,
        predicted: tuple[int, int] | None = None,
    ) -> tuple[np.ndarray, np.ndarray, int]:
        """Lane counts and line column at ``threshold``; ``lowest_in`` is the lowest
        score predicted positive (None when nothing is). ``predicted`` is the rows of
        each class predicted positive (TP, FP) when the caller knows them, as the
        unweighted sweep does; otherwise they are counted here."""
        usable = self.usable
        if threshold is None or lowest_in is None:
            return (
                self.hist[True][:usable].copy(),
                self.hist[False][:usable].copy(),
                usable - 1,
            )
        line = int(self.base(np.array([lowest_in]))[0])
        out = []
        for cls in (True, False):
            h, above = self.hist[cls], self.above[cls]
            counts = np.zeros(usable, dtype=np.int64)
            if predicted is not None:
                admitted = predicted[0] if cls else predicted[1]
            else:
                srt = self.sorted[cls]
                admitted = int(srt.shape[0] - np.searchsorted(srt, threshold, side="left"))
            in_line_pos = admitted - int(above[line + 1])
            # Below the line: every row in columns < line, plus the line column's negatives.
            counts[:line] = h[:line]
            counts[line - 1] += int(h[line]) - in_line_pos
            # Predicted positives move one column right.
            counts[line + 1 : usable] = h[line : usable - 1]
            counts[line + 1] = in_line_pos
            out.append(counts)
        return out[0], out[1], line


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

    _bins: tuple[object, int, Bins] | None = None

    def _columns(self, a: Analysis, usable: int) -> tuple[np.ndarray, int]:
        """Each row's column and the line's column, within ``usable`` columns.

        The per-row reference for :meth:`lane_counts`, which gives the same
        counts without a pass over the rows.
        """
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

    def _binned(self, a: Analysis, usable: int) -> Bins:
        if self._bins is None or self._bins[0] is not a.data or self._bins[1] != usable:
            self._bins = (a.data, usable, Bins(a.data, usable))
        return self._bins[2]

    def _bins_ready(self, a: Analysis, usable: int) -> bool:
        return self._bins is not None and self._bins[0] is a.data and self._bins[1] == usable

    _placing: tuple[object, int] | None = None

    def _place_in_background(self, a: Analysis, usable: int) -> None:
        """Bin the rows in a thread, then draw (binning 10^7 rows takes ~0.2 s)."""
        if self._placing is not None and self._placing[0] is a.data and self._placing[1] == usable:
            return
        self._placing = (a.data, usable)
        data = a.data

        def work() -> None:
            bins = Bins(data, usable)
            self.app.call_from_thread(self._placed, data, usable, bins)

        self.run_worker(work, thread=True, group="strip", exclusive=True, exit_on_error=False)

    def _placed(self, data: object, usable: int, bins: Bins) -> None:
        self._bins = (data, usable, bins)
        self.refresh()

    def lane_counts(self, a: Analysis, usable: int) -> tuple[np.ndarray, np.ndarray, int]:
        """Glyphs per column in the positive and negative lanes, and the line's column.

        The rows are binned once per dataset and width; a threshold move only
        finds the line's column and splits that one column, in O(columns).
        """
        known = None if a.data.weighted else (int(a.counts.tp), int(a.counts.fp))
        return self._binned(a, usable).at(a.threshold, a.sweep.threshold_at(a.point), known)

    def render(self) -> Text:
        a = self.analysis
        if a is None:
            return Text("")
        usable = max(self.size.width - LABEL_WIDTH - 1, 12)
        if a.data.n > BACKGROUND_ROWS and not self._bins_ready(a, usable):
            self._place_in_background(a, usable)
            return Text(f"Placing {a.data.n:,} rows on the score axis…", style="dim")
        lane_height = max(1, min(LANE_HEIGHT, (self.size.height - 2) // 2))
        pos_counts, neg_counts, line = self.lane_counts(a, usable)
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
