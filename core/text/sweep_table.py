"""The sweep as a text table: a row per operating point (its threshold, counts and
rates), the active one marked ``>``, the hull's vertices ``*``, and why a notable
point is listed (and, of the points listed, which are corners of the ROC curve).

A table of every point of a large sweep (``--points all``) is not held whole: its
columns' widths are measured in one pass over the points and its rows written in a
second, a block at a time (:class:`SweepRows`), the rates of whole counts formatted
by :func:`rate_text`, which says what :meth:`Metric.value_text` says, without making
a Metric of each.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.metrics.metric import READABLE_DIGITS, format_count, format_decimal
from threshold_lab.core.text.notable import excerpt, notable_points, reasons_text
from threshold_lab.core.text.scores import shown_threshold
from threshold_lab.core.text.table import table

#: How many sweep rows the text report shows unless asked for more (``--points``).
TEXT_POINTS = 40
#: From this many rows a table of every point is written a block at a time.
STREAMED = 20_000
#: Rows formatted at once when streaming.
BLOCK = 4096

HEADER = ["  threshold", "TP", "FP", "TN", "FN", "TPR", "FPR", "precision", "recall", "hull"]
HEADER += ["notable"]
LEFT = (0, 10)
_READABLE = 10**READABLE_DIGITS


def rate_text(num: int, den: int) -> str:
    """``num/den`` of whole counts as a rate reads in the table: what
    ``ratio(num, den, reason=...).value_text()`` gives.

    >>> rate_text(8, 14), rate_text(0, 3153), rate_text(7, 8), rate_text(1, 0)
    ('8/14 ≈ 0.5714', '0/3153 = 0', '7/8 = 0.875', 'undefined')
    """
    if den == 0:
        return "undefined"
    decimal = format_decimal(num / den)
    if den >= _READABLE:
        return f"≈ {decimal}"
    if "e" in decimal:
        same = Fraction(decimal) == Fraction(num, den)
    else:
        whole, _, places = decimal.partition(".")
        same = int(whole + places) * den == num * 10 ** len(places)
    return f"{num}/{den} {'=' if same else '≈'} {decimal}"


def _corners(a: Analysis) -> npt.NDArray[np.bool_]:
    """Whether each point is a corner of the ROC curve: one byte a point, where a set
    of a 10^7-point curve's corners (millions of them) would hold a hundred MB."""
    out = np.zeros(a.sweep.size, dtype=bool)
    out[a.curves.local_maxima] = True
    return out


def _row(
    a: Analysis,
    i: int,
    marks: dict[int, list[str]],
    hull: frozenset[int],
    corners: npt.NDArray[np.bool_] | None = None,
) -> list[str]:
    """Point ``i``'s cells; a corner of the ROC curve (pROC's local maxima) says so
    among the notable reasons of a row listed."""
    s = a.sweep
    label = "above all" if i == 0 else shown_threshold(s.thresholds, i - 1)
    if i == a.point:
        label = "> " + label
    tp, fp = s.tp[i].item(), s.fp[i].item()
    tn, fn = s.negatives - fp, s.positives - tp
    reasons = marks.get(i)
    why = reasons_text(reasons) if reasons else ""
    if corners is not None and corners[i]:
        why = f"{why}; corner" if why else "corner"
    star = "*" if i in hull else ""
    if s.weighted:
        pm = s.point_metrics(i)
        rates = [pm[n].value_text() for n in ("tpr", "fpr", "precision", "recall")]
        c = format_count
        return ["  " + label, c(tp), c(fp), c(tn), c(fn), *rates, star, why]
    pos, neg = int(s.positives), int(s.negatives)
    recall = rate_text(tp, pos)
    fpr, precision = rate_text(fp, neg), rate_text(tp, tp + fp)
    return [
        "  " + label,
        str(tp),
        str(fp),
        str(tn),
        str(fn),
        recall,
        fpr,
        precision,
        recall,
        star,
        why,
    ]


def _gap(hidden: int, end: bool) -> list[str]:
    said = f"{format_count(hidden)} {'point' if hidden == 1 else 'points'}"
    return ["  ... " + (f"{said}, not listed ..." if end else f"{said} ..."), *[""] * 10]


def sweep_table(
    a: Analysis, *, limit: int | None = TEXT_POINTS, notable: dict[int, list[str]] | None = None
) -> list[str]:
    """The sweep as text rows, the active point marked with ``>`` and each notable
    point with why (``notable``: :func:`~threshold_lab.core.text.notable.notable_points`;
    by default the active point, max F1 and max informedness). A sweep longer than
    ``limit`` (None: every row) lists its notable points, its ends and evenly spaced
    points between, the rest counted (:func:`~threshold_lab.core.text.notable.excerpt`)."""
    s = a.sweep
    marks = notable_points(a) if notable is None else notable
    hull = a.curves.cost_curve.points()
    corners = _corners(a)
    rows: list[list[str]] = []
    previous = -1
    for i in excerpt(s.size, marks, limit):
        if i > previous + 1:
            rows.append(_gap(i - previous - 1, end=False))
        previous = i
        rows.append(_row(a, i, marks, hull, corners))
    if previous < s.size - 1:
        hidden = s.size - 1 - previous
        rows.append(_gap(hidden, end=True))
    return table(HEADER, rows, left=LEFT)


@dataclass(frozen=True, eq=False)
class SweepRows:
    """Every point of a large sweep as a table, written a block of rows at a time:
    the same text :func:`sweep_table` makes, never held whole."""

    analysis: Analysis
    notable: dict[int, list[str]]

    def _rows(self) -> Iterator[list[str]]:
        a = self.analysis
        hull = a.curves.cost_curve.points()
        corners = _corners(a)
        for i in range(a.sweep.size):
            yield _row(a, i, self.notable, hull, corners)

    def pieces(self) -> Iterator[str]:
        """The table's lines, each ending in a newline, a block at a time."""
        widths = [len(h) for h in HEADER]
        for cells in self._rows():  # first pass: each column's widest cell
            for k, cell in enumerate(cells):
                if len(cell) > widths[k]:
                    widths[k] = len(cell)
        fmt = "  ".join(f"{{:<{w}}}" if k in LEFT else f"{{:>{w}}}" for k, w in enumerate(widths))
        yield fmt.format(*HEADER).rstrip() + "\n"
        block: list[str] = []
        for cells in self._rows():
            block.append(fmt.format(*cells).rstrip())
            if len(block) == BLOCK:
                yield "\n".join(block) + "\n"
                block = []
        if block:
            yield "\n".join(block) + "\n"


def sweep_rows(
    a: Analysis, *, limit: int | None, notable: dict[int, list[str]]
) -> list[str | SweepRows]:
    """The sweep table's lines, or, for every point of a large sweep, one
    :class:`SweepRows` that writes them a block at a time."""
    if limit is None and a.sweep.size >= STREAMED:
        return [SweepRows(a, notable)]
    return list(sweep_table(a, limit=limit, notable=notable))
