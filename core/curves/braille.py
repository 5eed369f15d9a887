"""A curve as one line of Unicode braille cells, for a refreshable braille display.

The contract (so a line can be read back exactly): the x axis (FPR for ROC and DET,
recall for PR) is split into 2·WIDTH equal buckets; cell c holds bucket 2c in its left
dot column (dots 1 2 3 7) and bucket 2c+1 in its right one (dots 4 5 6 8). A bucket's
value:

- ROC: the TPR at FPR <= (b+1)/(2·WIDTH), the readout's exact point (the highest TPR
  any threshold reaches without passing that FPR);
- DET: the FNR there (1 − that TPR);
- PR: the largest precision at recall >= b/(2·WIDTH): the interpolated precision
  envelope, named so (points with nothing predicted positive have no precision).

Its level is min(3, floor(4·value)), and exactly one dot is raised in each column:
level 0 the bottom dot (7 or 8), 1 dot 3 or 6, 2 dot 2 or 5, 3 the top dot (1 or 4). A
bucket with no defined value raises no dot. Levels are decided exactly on the counts
(integer arithmetic) when they are whole, so a value exactly on a quarter sits in the
quarter above, as floor says.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.curves.export import curve_kind
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.metrics.metric import from_fraction

KINDS = ("roc", "pr", "det")
WIDTH = 40
MAX_WIDTH = 1000
#: Each level's dot bit, left column and right column (dots 7 3 2 1, and 8 6 5 4).
LEFT = (0x40, 0x04, 0x02, 0x01)
RIGHT = (0x80, 0x20, 0x10, 0x08)
#: The blank braille cell: no dot raised.
BLANK = "\u2800"

IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True)
class BrailleLine:
    """The line (``cells``, WIDTH characters), each bucket's level (None: no value),
    and the sentence giving the scale."""

    kind: str
    width: int
    cells: str
    levels: tuple[int | None, ...]
    scale: str

    def __str__(self) -> str:
        return f"{self.cells}\n{self.scale}"

    def as_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "width": self.width,
            "cells": self.cells,
            "levels": list(self.levels),
            "scale": self.scale,
        }


def parse_kind(text: object) -> str:
    return curve_kind("braille", text, KINDS)


def parse_width(text: object) -> int:
    try:
        width = int(str(text).strip())
    except ValueError:
        raise InputError(f"braille width {quoted(text)}: give a whole number of cells") from None
    if not 1 <= width <= MAX_WIDTH:
        raise InputError(f"braille width {quoted(text)}: from 1 to {MAX_WIDTH} cells")
    return width


def _levels_roc(s: Sweep, buckets: int, det: bool) -> list[int | None]:
    """Each bucket's level of TPR (or FNR) at FPR <= (b+1)/buckets."""
    pos, neg = float(s.positives), float(s.negatives)
    if pos <= 0 or neg <= 0:
        return [None] * buckets
    whole = s.whole_counts()
    tp, fp = s.tp, s.fp
    out: list[int | None] = []
    if whole:
        p, n = round(pos), round(neg)
        fp_scaled = fp.astype(np.int64) * buckets  # exact: counts below 2^53 / buckets
        for b in range(buckets):
            k = int(np.searchsorted(fp_scaled, (b + 1) * n, side="right")) - 1
            t = int(tp[k])
            value_num = p - t if det else t  # the level of value_num / p
            out.append(min(3, (4 * value_num) // p))
        return out
    for b in range(buckets):
        k = int(np.searchsorted(fp / neg, (b + 1) / buckets, side="right")) - 1
        v = float(tp[k]) / pos
        out.append(min(3, int(np.floor(4 * ((1 - v) if det else v)))))
    return out


def _levels_pr(s: Sweep, buckets: int) -> list[int | None]:
    """Each bucket's level of the largest precision at recall >= b/buckets."""
    pos = float(s.positives)
    if pos <= 0:
        return [None] * buckets
    tp, fp = s.tp, s.fp
    m = tp.shape[0]
    defined = (tp + fp) > 0
    scaled: npt.NDArray[Any]
    targets: list[float] | list[int]
    if s.whole_counts():
        t, f = tp.astype(np.int64), fp.astype(np.int64)
        level = np.where(defined, np.minimum(3, (4 * t) // np.maximum(t + f, 1)), -1)
        p = round(pos)
        scaled = t * buckets
        targets = [b * p for b in range(buckets)]
    else:
        with np.errstate(invalid="ignore", divide="ignore"):
            prec = np.where(defined, tp / np.where(defined, tp + fp, 1.0), 0.0)
        level = np.where(defined, np.minimum(3, np.floor(4 * prec)).astype(np.int64), -1)
        scaled = tp * buckets
        targets = [b * pos for b in range(buckets)]
    # The envelope: the largest level from each point on (recall rises with the point).
    suffix = np.maximum.accumulate(level[::-1])[::-1]
    out: list[int | None] = []
    for target in targets:
        k = int(np.searchsorted(scaled, target, side="left"))
        best = int(suffix[k]) if k < m else -1
        out.append(None if best < 0 else best)
    return out


def _exact(f: Fraction) -> str:
    """``1/80 = 0.0125``, ``1/60 ≈ 0.0167``: the fraction, the decimal marked."""
    return from_fraction(f, float(f)).value_text()


def braille_line(sweep: Sweep, kind: str = "roc", width: int = WIDTH) -> BrailleLine:
    """``sweep``'s ``kind`` curve (roc, pr, det) as ``width`` braille cells (see the
    module's contract).

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.analysis import curves_for
    >>> line = braille_line(curves_for(preset("canonical").data).sweep, "roc", 4)
    >>> line.cells, line.levels
    ('⠤⠔⠒⠊', (1, 1, 1, 2, 2, 2, 2, 3))
    """
    kind = parse_kind(kind)
    width = parse_width(width)
    buckets = 2 * width
    levels = (
        _levels_pr(sweep, buckets) if kind == "pr" else _levels_roc(sweep, buckets, kind == "det")
    )
    cells = []
    for c in range(width):
        bits = 0
        left, right = levels[2 * c], levels[2 * c + 1]
        if left is not None:
            bits |= LEFT[left]
        if right is not None:
            bits |= RIGHT[right]
        cells.append(chr(0x2800 + bits))
    column, cell = (_exact(Fraction(1, n)) for n in (buckets, width))
    x = "recall" if kind == "pr" else "FPR"
    y = {"roc": "TPR", "det": "FNR", "pr": "the largest precision at that recall or more"}[kind]
    scale = (
        f"x: {x} 0 to 1, {column} a dot column ({cell} a cell); "
        f"dots: {y} in quarters (the bottom dot below 1/4, the top dot 3/4 or more)"
    )
    if all(v is None for v in levels):
        why = "no actual positives" if float(sweep.positives) <= 0 else "no actual negatives"
        scale += f"; no dot is raised: the rows have {why}, so the curve is undefined"
    return BrailleLine(kind, width, "".join(cells), tuple(levels), scale)


def point_cell(sweep: Sweep, kind: str, point: int, width: int = WIDTH) -> int | None:
    """The cell (0-based) of a ``width``-cell line that holds ``point``'s bucket, where a
    cursor showing the point belongs; None where the curve is undefined (a class
    missing). ROC and DET: the bucket whose FPR range ``(b/2W, (b+1)/2W]`` holds the
    point's FPR (FPR 0 in the first); PR: the bucket whose recall ``[b/2W, (b+1)/2W)``
    holds its recall (recall 1 in the last). Exact on whole counts.

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.analysis import curves_for
    >>> s = curves_for(preset("canonical").data).sweep
    >>> [point_cell(s, "roc", k, 4) for k in range(5)]
    [0, 0, 1, 3, 3]
    >>> [point_cell(s, "pr", k, 4) for k in range(5)]
    [0, 1, 2, 2, 3]
    """
    kind = parse_kind(kind)
    width = parse_width(width)
    buckets = 2 * width
    pos, neg = float(sweep.positives), float(sweep.negatives)
    if pos <= 0 or neg <= 0:
        return None
    if kind == "pr":
        num, den = sweep.tp[point], pos
    else:
        num, den = sweep.fp[point], neg
    if sweep.whole_counts():
        n, d = round(float(num)), round(den)
        bucket = (n * buckets) // d if kind == "pr" else -(-(n * buckets) // d) - 1
    else:
        x = float(num) / den * buckets
        bucket = int(np.floor(x)) if kind == "pr" else int(np.ceil(x)) - 1
    return min(buckets - 1, max(0, bucket)) // 2
