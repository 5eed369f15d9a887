"""The layout arithmetic the drawing is prepared for: how many columns a chart's curve
and the score strip's scores get in a pane of a given width, which folds' curves a
chart has room for, and the longest wording of a line that fits its room."""

from __future__ import annotations

#: The score strip's lane labels' columns (``actual 1``, ``#=400``), left of the scores.
LABEL_WIDTH = 10
#: The least plot, (columns, rows), that draws every fold's curve at once: on a
#: smaller one five curves of a mark a cell each cover one another and the folds'
#: range, so it draws all rows' curve, the range and one fold's curve at a time (F).
EVERY_FOLD = (100, 20)


def folds_drawn(count: int, shown: int, chosen: int, *, room: bool) -> tuple[int, ...]:
    """Which curves a chart of all rows (0) and ``count`` − 1 folds draws: all rows'
    and the shown one's, and fold ``chosen`` (F; 0: none); with ``room`` and none
    chosen, every fold's.

    >>> folds_drawn(6, 0, 0, room=False), folds_drawn(6, 0, 2, room=False)
    ((0,), (0, 2))
    >>> folds_drawn(6, 3, 0, room=False), folds_drawn(6, 0, 0, room=True)
    ((0, 3), (0, 1, 2, 3, 4, 5))
    >>> folds_drawn(6, 4, 1, room=True)
    (0, 1, 4)
    """
    if chosen == 0 and room:
        return tuple(range(count))
    return tuple(i for i in sorted({0, shown, chosen}) if 0 <= i < count)


def has_room_for_every_fold(columns: int, rows: int) -> bool:
    """Whether a plot of ``columns`` x ``rows`` cells draws every fold's curve at once."""
    return columns >= EVERY_FOLD[0] and rows >= EVERY_FOLD[1]


def chart_columns(panel_width: int) -> int:
    """Terminal columns a curve is reduced to in a chart panel this wide.

    >>> chart_columns(60), chart_columns(12)
    (52, 10)
    """
    return max(panel_width - 8, 10)


def strip_columns(width: int) -> int:
    """Score columns in a score strip this wide (the lane labels take the rest).

    >>> strip_columns(120), strip_columns(20)
    (109, 12)
    """
    return max(width - LABEL_WIDTH - 1, 12)


def longest_fitting(width: int, *candidates: str) -> str:
    """The first of ``candidates`` (longest first) of at most ``width`` characters, or
    the last, the shortest, when none fits (the caller cuts it, or lets it be cut).

    The wordings are of narrow characters (one cell each), so characters are cells.

    >>> longest_fitting(20, "ROC curves of 2 models", "ROC, 2 models")
    'ROC, 2 models'
    >>> longest_fitting(5, "long", "no")
    'long'
    >>> longest_fitting(1, "long", "no")
    'no'
    """
    if not candidates:
        raise ValueError("longest_fitting needs at least one wording")
    return next((c for c in candidates if len(c) <= width), candidates[-1])
