"""Every example on the score axis, positives and negatives in two lanes, with the
threshold drawn as a vertical line. Different glyphs, not colour alone."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from rich.text import Text
from textual.events import Resize
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from threshold_lab.core.drawing.score_bins import ScoreBins, axis_ticks, reject_split
from threshold_lab.core.text.scores import threshold_words
from threshold_lab.core.threshold import format_threshold
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.state.layout import LABEL_WIDTH, longest_fitting, strip_columns

LANE_HEIGHT = 3
POS_GLYPH, NEG_GLYPH, LINE_GLYPH, LOW_GLYPH, FOLD_GLYPH = "+", "o", "|", ":", "*"


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

    COMPONENT_CLASSES = {"score-strip--review"}
    """
    | Class | Description |
    | :- | :- |
    | `score-strip--review` | A review band's columns, between its two lines. |
    """

    DEFAULT_CSS = """
    ScoreStrip { height: 9; }
    ScoreStrip > .score-strip--review { background: $boost; }
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
        review = frame.update.review
        low = None  # the reject threshold's column, left of the line, with a band
        shared = False  # the band's rows share the line's column at this width
        if (
            review is not None
            and frame.own is None
            and review.index_low > review.index_high
            and review.t_low is not None
            and a.threshold is not None
        ):
            kl = review.index_low
            kept = None if a.data.weighted else (int(a.sweep.tp[kl]), int(a.sweep.fp[kl]))
            low = reject_split(prepared.bins, (pos_counts, neg_counts), line, review.t_low, kept)
            shared = low is None
        shade = self.get_component_rich_style("score-strip--review") if low is not None else None
        out = Text()
        for lane, counts, glyph in (
            ("actual 1", pos_counts, POS_GLYPH),
            ("actual 0", neg_counts, NEG_GLYPH),
        ):
            rows, busiest = lane_rows(counts, lane_height, glyph)
            for level, row in enumerate(rows):
                if frame.own is None:  # each group at its own threshold: no one line
                    row[line] = LINE_GLYPH
                label = lane if level == len(rows) - 1 else ""
                if level == 0 and busiest:
                    label = f"#={busiest:,}" if len(f"#={busiest:,}") < LABEL_WIDTH else "#=max"
                # A column of margin, as every other pane has.
                out.append(f" {label:<{LABEL_WIDTH - 1}}", style="dim")
                if low is None:
                    out.append("".join(row) + "\n")
                    continue
                if row[low] == " ":
                    row[low] = LOW_GLYPH
                out.append("".join(row[:low]))
                out.append("".join(row[low:line]), style=shade)
                out.append("".join(row[line:]) + "\n")
        bins = prepared.bins
        out.append(" score".ljust(LABEL_WIDTH), style="dim")
        folds = fold_columns(frame, bins, line)
        axis = axis_line(bins, line, usable, folds)
        if low is not None and axis[low] == " ":
            axis = axis[:low] + LOW_GLYPH + axis[low + 1 :]
        out.append((axis if frame.own is None else axis.replace("^", " ")) + "\n")
        lo, hi = format_threshold(bins.lo), format_threshold(bins.hi)
        span = f"scores {lo} to {hi}" if lo != hi else f"every score is {lo}"
        t = threshold_words(a.threshold, a.sweep.thresholds)
        # The longest wording that fits whole (a cut one lost the span at 80 columns).
        room = LABEL_WIDTH + usable
        scaled = int(max(pos_counts.max(initial=0), neg_counts.max(initial=0))) >= 10
        notes = (
            (
                "; digits: a column's rows in tenths of its lane's busiest (#)",
                "; digits: tenths of the busiest (#)",
                "",
            )
            if scaled
            else ("",)
        )
        bases: tuple[str, ...] = (
            f"{' ' * LABEL_WIDTH}^ threshold {t}; right of the line is predicted positive; {span}",
            f" ^ threshold {t}; right of the line is predicted positive; {span}",
            f" ^ threshold {t}; right of it: predicted positive; {span}",
            f" ^ {t}; right: predicted positive; {span}",
        )
        if low is not None and review is not None:
            lo_t = threshold_words(review.t_low, a.sweep.thresholds)
            bases = (
                f"{' ' * LABEL_WIDTH}^ accept >= {t} right of |; reject < {lo_t} left of :; "
                f"between: reviewed; {span}",
                f" ^ accept >= {t} right of |; reject < {lo_t} left of :; between: reviewed; "
                f"{span}",
                f" ^ accept >= {t} (|); reject < {lo_t} (:); review between; {span}",
                f" | accept >= {t}; : reject < {lo_t}; {span}",
            )
        if shared and review is not None:
            lo_t = threshold_words(review.t_low, a.sweep.thresholds)
            bases = (
                f"{' ' * LABEL_WIDTH}^ threshold {t}; reject < {lo_t}: too near to draw apart "
                f"at this width; {span}",
                f" ^ accept >= {t}; reject < {lo_t}: too near to draw apart; {span}",
                f" ^ {t}; reject < {lo_t} (not drawn apart); {span}",
            )
        if frame.own is not None:
            bases = (
                f"{' ' * LABEL_WIDTH}each group at its own threshold: no one line; {span}",
                f" each group at its own threshold: no one line; {span}",
                f" each group at its own threshold; {span}",
            )
        folded = fold_note(frame)
        caption = longest_fitting(
            room, *(base + note + f for f in folded for note in notes for base in bases)
        )
        out.append(caption[:room], style="dim")
        return out


def fold_columns(frame: Frame, bins: ScoreBins, line: int) -> tuple[int, ...]:
    """With folds and a goal: the column of each fold's own threshold for the goal
    (as the lanes place scores: right of the line where above the threshold)."""
    choices = frame.update.fold_choices
    a = frame.analysis
    if not choices or frame.own is not None:
        return ()
    out = []
    for c in choices:
        if not c.feasible or c.threshold is None:
            continue
        col = bins.column_of(c.threshold)
        if a.threshold is None or c.threshold > a.threshold:
            col = col + 1 if a.threshold is not None and col >= line else col
        elif c.threshold < a.threshold and col >= line:
            col = line - 1
        out.append(min(max(col, 0), bins.usable - 1))
    return tuple(out)


def fold_note(frame: Frame) -> tuple[str, ...]:
    """The caption's words for the folds' marks, longest first ("" without them)."""
    choices = frame.update.fold_choices
    deciding = frame.update.deciding
    if not choices or deciding is None or deciding.goal is None:
        return ("",)
    shown = sum(1 for c in choices if c.feasible and c.threshold is not None)
    at = sum(1 for c in choices if c.feasible and c.threshold == frame.analysis.threshold)
    under = f", {at} under ^" if at and frame.analysis.threshold is not None else ""
    goal = deciding.goal.text()
    return (
        f"; {FOLD_GLYPH} each fold's own threshold for {goal} ({shown} of {len(choices)} "
        f"folds{under})",
        f"; {FOLD_GLYPH} each fold's threshold ({shown} of {len(choices)})",
        f"; {FOLD_GLYPH} folds' thresholds",
    )


def axis_line(bins: ScoreBins, line: int, usable: int, marks: tuple[int, ...] = ()) -> str:
    """The score axis under the lanes: round values written where they fall (each
    starting at its own column), ``^`` under the threshold's line, and ``*`` at each
    of ``marks`` (the folds' own thresholds). A label that would run into the ``^``,
    a mark or the label before it is left out."""
    axis = [" "] * usable
    for c in marks:
        axis[c] = FOLD_GLYPH
    axis[line] = "^"
    taken = {line, *marks}
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


def lane_rows(
    counts: npt.NDArray[np.int64], height: int, glyph: str
) -> tuple[list[list[str]], int]:
    """One lane's rows of cells, top first, and the count its busiest column stands
    for (0 while every column's rows are drawn one a cell).

    A column of up to ``height`` rows is that many glyphs; up to 9 a stack with its
    count on top. Past that (5,000 rows in 80 columns) the lane is scaled to its
    busiest column: a column's stack is its share of that column's rows, and its top
    cell a digit, its rows in tenths of the busiest (``#`` the busiest itself), so
    density shows however many rows there are.

    >>> rows, busiest = lane_rows(np.array([0, 1, 5, 40, 400]), 3, "+")
    >>> ["".join(r) for r in rows], busiest
    (['    #', '    +', ' 111+'], 400)
    >>> ["".join(r) for r in lane_rows(np.array([0, 1, 2, 5]), 3, "o")[0]]
    ['   5', '  oo', ' ooo']
    """
    columns = counts.shape[0]
    rows = [[" "] * columns for _ in range(height)]
    top = int(counts.max(initial=0))
    if top < 10:  # every row drawn, a count on top of a stack too tall for the lane
        for level in range(height, 0, -1):
            row = rows[height - level]
            for c in np.flatnonzero(counts >= level):
                row[c] = glyph
                if level == height and counts[c] > height:
                    row[c] = str(int(counts[c]))
        return rows, 0
    tenths = np.ceil(counts * 10 / top).astype(np.int64)  # 1..10 for any row at all
    tall = np.ceil(counts * height / top).astype(np.int64)
    for c in np.flatnonzero(counts > 0):
        for level in range(int(tall[c])):
            rows[height - 1 - level][c] = glyph
        rows[height - int(tall[c])][c] = "#" if tenths[c] >= 10 else str(int(tenths[c]))
    return rows, top
