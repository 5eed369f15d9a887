"""A curve ready to draw: its points read where drawn, the few to draw, and where each
sweep point lies on it (the explorer's charts draw these; :mod:`.prepared` makes them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
IndexArray = npt.NDArray[np.intp]


class Readable(Protocol):
    """Values read by index or by an index array (an array, or one read lazily)."""

    def __getitem__(self, index: Any) -> Any: ...

    def __len__(self) -> int: ...


@dataclass(frozen=True, eq=False)
class Rates:
    """``counts / total`` read at the indices asked for: the same values as dividing
    the whole array, without making it (80 MB a curve axis at 10^7 points)."""

    counts: npt.NDArray[np.number]
    total: float

    def __getitem__(self, index: int | IndexArray | slice) -> FloatArray:
        return np.asarray(self.counts[index] / self.total, dtype=np.float64)

    def __len__(self) -> int:
        return int(self.counts.shape[0])


@dataclass(frozen=True, eq=False)
class Precisions:
    """``tp / (tp + fp)`` read at the indices asked for (the PR curve's y), as dividing
    the whole arrays gives it, without making them."""

    tp: npt.NDArray[np.number]
    fp: npt.NDArray[np.number]

    def __getitem__(self, index: int | IndexArray | slice) -> FloatArray:
        tp = self.tp[index]
        return np.asarray(tp / (tp + self.fp[index]), dtype=np.float64)

    def __len__(self) -> int:
        return int(self.tp.shape[0])


@dataclass(frozen=True, eq=False)
class Sums:
    """``a + b`` read at the indices asked for (the gains curve's x, in counts)."""

    a: npt.NDArray[np.number]
    b: npt.NDArray[np.number]

    def __getitem__(self, index: int | IndexArray | slice) -> npt.NDArray[np.number]:
        return np.asarray(self.a[index] + self.b[index])

    def __len__(self) -> int:
        return int(self.a.shape[0])


class After:
    """Sweep point k's place on a curve that starts at point ``first``: k − first, or
    -1 before it (the PR curve: precision is defined from the first point that predicts
    something positive on), read like an index array."""

    def __init__(self, first: int, n: int) -> None:
        self.first, self.n = first, n

    def __getitem__(self, point: int) -> int:
        if not -self.n <= point < self.n:
            raise IndexError(point)
        k = point % self.n
        return k - self.first if k >= self.first else -1

    def __len__(self) -> int:
        return self.n


class Each:
    """The identity map on ``n`` points, read like an index array (ROC and gains have
    every sweep point on the curve, so a point's place is its own index)."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __getitem__(self, point: int) -> int:
        if not -self.n <= point < self.n:
            raise IndexError(point)
        return point % self.n

    def __len__(self) -> int:
        return self.n


@dataclass(frozen=True, eq=False)
class CurveLine:
    """One curve ready to draw: every defined point, the few to draw, and where each
    sweep point lies on it.

    Attributes
    ----------
    x, y : (k,) the curve's defined points, in sweep order
    drawn : indices into ``x``/``y`` of the points worth drawing at the width asked for
    rank : (m,) for each sweep point, its index into ``x``/``y``; -1 where the point is
        not on the curve (precision is undefined where nothing is predicted positive)
    """

    x: FloatArray | Rates | Readable
    y: FloatArray | Rates | Readable
    drawn: IndexArray
    rank: IndexArray | Each | Readable

    def at(self, point: int) -> tuple[float, float] | None:
        """Sweep point ``point``'s exact (x, y), or None when it is not on the curve."""
        k = int(self.rank[point])
        return (float(self.x[k]), float(self.y[k])) if k >= 0 else None

    def path(self) -> tuple[FloatArray, FloatArray]:
        """The polyline a chart draws, (x, y) where drawn: the drawn points, each joined
        to the next by a straight line."""
        return (
            np.asarray(self.x[self.drawn], dtype=np.float64),
            np.asarray(self.y[self.drawn], dtype=np.float64),
        )
