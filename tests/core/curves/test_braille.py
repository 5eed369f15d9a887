"""The braille line against its contract, written out again here from the issue's
words with exact fractions: 2·WIDTH buckets of the x axis, a bucket's value (ROC: TPR at
FPR <= (b+1)/(2·WIDTH); DET: FNR there; PR: the largest precision at recall >=
b/(2·WIDTH)), its level min(3, floor(4·value)), one dot a column (7 3 2 1 left, 8 6 5
4 right); the cells read back to the levels. Plain mode, report --braille and the API
give the same line."""

from __future__ import annotations

import io
import math
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.curves.braille import braille_line, point_cell
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.tui.cli import main

import threshold_lab as tl

#: Dot numbers of each level, left column then right (bits as Unicode numbers dots).
DOTS = {0: (7, 8), 1: (3, 6), 2: (2, 5), 3: (1, 4)}


def _read_back(cells: str) -> list[int | None]:
    """Each dot column's level, from the cells' raised dots."""
    out: list[int | None] = []
    for ch in cells:
        bits = ord(ch) - 0x2800
        assert 0 <= bits <= 0xFF
        raised = {d for d in range(1, 9) if bits & (1 << (d - 1))}
        for side in (0, 1):
            mine = [lvl for lvl, dots in DOTS.items() if dots[side] in raised]
            assert len(mine) <= 1  # exactly one dot a column, or none
            out.append(mine[0] if mine else None)
    return out


def _oracle(rows: list[tuple[float, int, int]], kind: str, width: int) -> list[int | None]:
    """The contract, in fractions, over every threshold (each distinct score, and above
    all)."""
    pos = sum(w for _, y, w in rows if y)
    neg = sum(w for _, y, w in rows if not y)
    points = [(0, 0)]
    for t in sorted({s for s, _, _ in rows}, reverse=True):
        tp = sum(w for s, y, w in rows if y and s >= t)
        fp = sum(w for s, y, w in rows if not y and s >= t)
        points.append((tp, fp))
    return levels_of(points, pos, neg, kind, width)


def levels_of(
    points: list[tuple[int, int]], pos: int, neg: int, kind: str, width: int
) -> list[int | None]:
    """The contract's levels from the curve's points ``(TP, FP)``, above all first."""
    buckets = 2 * width
    out: list[int | None] = []
    for b in range(buckets):
        if kind in ("roc", "det"):
            if pos == 0 or neg == 0:
                out.append(None)
                continue
            limit = Fraction(b + 1, buckets)
            tpr = max(Fraction(tp, pos) for tp, fp in points if Fraction(fp, neg) <= limit)
            value = 1 - tpr if kind == "det" else tpr
        else:
            if pos == 0:
                out.append(None)
                continue
            found = [
                Fraction(tp, tp + fp)
                for tp, fp in points
                if tp + fp > 0 and Fraction(tp, pos) >= Fraction(b, buckets)
            ]
            if not found:
                out.append(None)
                continue
            value = max(found)
        out.append(min(3, math.floor(4 * value)))
    return out


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.sampled_from([0.1, 0.2, 0.4, 0.5, 0.7, 0.9]), st.integers(0, 1), st.integers(1, 3)
        ),
        min_size=1,
        max_size=25,
    ),
    st.sampled_from(["roc", "pr", "det"]),
    st.integers(1, 12),
    st.booleans(),
)
def test_the_line_reads_back_to_the_contract(rows, kind: str, width: int, weighted: bool) -> None:  # type: ignore[no-untyped-def]
    if not weighted:
        rows = [(s, y, 1) for s, y, _ in rows]
    data = make_dataset(
        [r[0] for r in rows],
        [bool(r[1]) for r in rows],
        weights=[float(r[2]) for r in rows] if weighted else None,
    )
    line = braille_line(curves_for(data).sweep, kind, width)
    assert len(line.cells) == width
    assert all("\u2800" <= c <= "\u28ff" for c in line.cells)
    want = _oracle(rows, kind, width)
    assert list(line.levels) == want
    assert _read_back(line.cells) == want


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([0.1, 0.2, 0.4, 0.5, 0.7, 0.9]), st.integers(0, 1)),
        min_size=1,
        max_size=25,
    ),
    st.sampled_from(["roc", "pr", "det"]),
    st.integers(1, 12),
)
def test_the_cursor_cell_holds_the_point(rows, kind: str, width: int) -> None:  # type: ignore[no-untyped-def]
    """The explorer's cursor cell: the cell whose bucket's x range holds the point's x
    (ROC/DET (b/2W, (b+1)/2W], FPR 0 in the first; PR [b/2W, (b+1)/2W), recall 1 in
    the last), from fractions."""
    pos = sum(y for _, y in rows)
    neg = len(rows) - pos
    sweep = curves_for(make_dataset([r[0] for r in rows], [bool(r[1]) for r in rows])).sweep
    buckets = 2 * width
    for k in range(int(sweep.tp.shape[0])):
        cell = point_cell(sweep, kind, k, width)
        if pos == 0 or neg == 0:
            assert cell is None
            continue
        assert cell is not None and 0 <= cell < width
        if kind == "pr":
            x = Fraction(int(sweep.tp[k]), pos)
            b = next(b for b in range(buckets) if x < Fraction(b + 1, buckets) or b == buckets - 1)
        else:
            x = Fraction(int(sweep.fp[k]), neg)
            b = next(b for b in range(buckets) if x <= Fraction(b + 1, buckets))
        assert cell == b // 2


def test_every_front_end_gives_the_same_line(capsys: pytest.CaptureFixture[str]) -> None:
    r = tl.report([1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1])
    api = r.braille("roc", width=40)
    assert api.cells == "⠤" * 19 + "⠔" + "⠒" * 19 + "⠊"
    assert str(api).splitlines() == [api.cells, api.scale]
    assert api.scale.startswith(
        "x: FPR 0 to 1, 1/80 = 0.0125 a dot column (1/40 = 0.025 a cell); dots: TPR"
    )
    assert main(["report", "canonical", "--braille", "roc", "--points", "0"]) == 0
    out = capsys.readouterr().out.splitlines()
    at = out.index("Braille, ROC (40 cells):")
    assert out[at + 1 : at + 3] == [api.cells, api.scale]
    from threshold_lab.core.data.presets import preset
    from threshold_lab.core.session.session import Session
    from threshold_lab.tui.plain import run_plain

    said = io.StringIO()
    p = preset("canonical")
    run_plain(
        Session(p.data, p.threshold, source="preset"), ["braille pr 10\n"], said, prompt=False
    )
    assert r.braille("pr", width=10).cells in said.getvalue().splitlines()


def test_a_curve_without_a_class_raises_no_dot_and_says_why() -> None:
    line = tl.report([0, 0, 0], [0.1, 0.5, 0.9]).braille("roc", width=5)
    assert line.cells == "\u2800" * 5 and line.levels == (None,) * 10
    assert "no actual positives" in line.scale
