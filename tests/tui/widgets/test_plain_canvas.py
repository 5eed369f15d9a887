"""The charts read what plotext drew from its grid of marks (``plain_canvas``), not
from the coloured text ``build()`` returns: the same characters on the same cells,
held here against ``build()`` itself for every kind of mark the charts use, lines
and scatters, points off the canvas, and canvases from tiny to wide."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from rich.text import Text
from threshold_lab.tui.widgets import charts as c
from threshold_lab.tui.widgets.charts import CurveChart, plain_canvas

#: Every mark a chart draws with: its constants, the models' and the metric series'.
MARKS = tuple(
    sorted(
        {
            "braille",
            "*",
            "x",
            c.CHANCE_MARK,
            c.ACTIVE_MARK,
            c.PARTIAL_MARK,
            c.HULL_MARK,
            c.BAND_MARK,
            c.BAND_MARK_ASCII,
            *c.MODEL_MARKS,
            *(s[1] for s in c.SERIES),
            c.BOUND_MARK,
            c.THRESHOLD_MARK,
            c.GOAL_MARK,
            c.PEAK_MARK,
            c.BIN_MARK,
            c.BIN_MARK_ASCII,
            c.WHISKER_MARK,
            c.PERFECT_MARK,
            c.TREAT_ALL_MARK,
            c.FAINT_MARK,
            c.ACTIVE_LINE_MARK,
        }
    )
)


def _bare(cols: int, rows: int) -> Any:
    """A fresh figure (each chart has its own), cleared as the charts clear theirs."""
    return CurveChart("roc")._bare(cols, rows)


def _by_build(plt: Any, cols: int, rows: int) -> list[str]:
    """plotext's own text of the figure, as the charts read it before."""
    canvas = Text.from_ansi(plt.build()).plain.split("\n")
    return [(row + " " * cols)[:cols] for row in (canvas + [""] * rows)[:rows]]


values = st.floats(-0.3, 1.3, allow_nan=False)
series = st.tuples(
    st.sampled_from(MARKS),
    st.booleans(),  # a scatter, else a line
    st.lists(st.tuples(values, values), min_size=1, max_size=40),
)


@settings(max_examples=80, deadline=None)
@given(cols=st.integers(1, 190), rows=st.integers(1, 55), drawn=st.lists(series, max_size=5))
def test_the_marks_read_from_the_grid_are_the_text_plotext_builds(
    cols: int, rows: int, drawn: list[tuple[str, bool, list[tuple[float, float]]]]
) -> None:
    figures = [_bare(cols, rows), _bare(cols, rows)]
    for plt in figures:
        for mark, scatter, points in drawn:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            (plt.scatter if scatter else plt.plot)(xs, ys, marker=mark)
    got = plain_canvas(figures[0], cols, rows)
    assert got == _by_build(figures[1], cols, rows)
    assert len(got) == rows and all(len(line) == cols for line in got)


def test_a_figure_read_twice_reads_the_same() -> None:
    """A chart reads its figure once per drawing and clears it for the next (the band's
    sides reuse one chart's figure): a second reading, and the next drawing after a
    clear, start from a clear grid, not the last one's marks."""
    chart = CurveChart("roc")
    plt = chart._bare(30, 9)
    plt.plot([0.0, 1.0], [0.0, 1.0], marker="x")
    first = plain_canvas(plt, 30, 9)
    assert plain_canvas(plt, 30, 9) == first
    plt = chart._bare(30, 9)
    plt.plot([0.0, 1.0], [1.0, 0.0], marker="o")
    second = plain_canvas(plt, 30, 9)
    assert "x" not in "".join(second) and second[0][0] == "o" and second[-1][-1] == "o"
