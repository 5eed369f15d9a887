"""Rows scored for several classes: one score column a class, each row's actual class."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from threshold_lab.core.data.dataset import Dataset, make_dataset

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]


@dataclass(frozen=True, eq=False)
class Multiclass:
    """Rows scored for several classes.

    classes : the class names, in order (the order of the score columns)
    scores : (n, k) float64, row i's score for each class
    labels : (n,) int64, each row's actual class as an index into ``classes``
    weights : (n,) float64 or None
    ids : row ids or None
    """

    classes: tuple[str, ...]
    scores: FloatArray
    labels: IntArray
    weights: FloatArray | None = None
    ids: Sequence[str] | None = field(default=None, repr=False)

    @property
    def n(self) -> int:
        return int(self.labels.shape[0])

    @property
    def k(self) -> int:
        return len(self.classes)

    def weight(self) -> FloatArray:
        return np.ones(self.n) if self.weights is None else self.weights

    @property
    def whole(self) -> bool:
        """Counts are whole (no weights, or whole weights): fractions are exact."""
        w = self.weights
        return w is None or bool(np.all(w == np.floor(w)) and w.sum() < 2**53)

    def one_vs_rest(self, c: int) -> Dataset:
        """Class ``c`` against the rest: its scores, and "label == c"."""
        return make_dataset(self.scores[:, c], self.labels == c, weights=self.weights, ids=self.ids)
