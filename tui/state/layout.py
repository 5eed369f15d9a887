"""The layout arithmetic the drawing is prepared for: how many columns a chart's curve
and the score strip's scores get in a pane of a given width, and the longest wording
of a line that fits its room."""

from __future__ import annotations

#: The score strip's lane labels' columns (``actual 1``, ``#=400``), left of the scores.
LABEL_WIDTH = 10


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
