"""What the chart panel can show: its modes, in the order ``c`` cycles through them."""

from __future__ import annotations

from typing import Literal, get_args

#: What the chart panel can show, in the order ``c`` cycles through them: the keys of
#: :data:`threshold_lab.tui.commands.CHARTS`, which names each (a test holds them equal).
ChartMode = Literal[
    "roc", "pr", "both", "metrics", "reliability", "gains", "det", "decision", "cost"
]
CHART_MODES: tuple[ChartMode, ...] = get_args(ChartMode)


def chart_mode(mode: str) -> ChartMode:
    """``mode`` when it is a chart the panel can show (a programmer's error otherwise).

    >>> chart_mode("pr")
    'pr'
    """
    if mode not in CHART_MODES:
        raise ValueError(f"no chart mode {mode!r}; the modes are {', '.join(CHART_MODES)}")
    return mode
