"""A session's groups (``--group COL``): which group each loaded row is in, followed
through the edits by the rows' names (a row keeps its group; a row added by an edit
has none), and the report of the groups at the session's threshold.

Plain mode's ``groups`` and ``group NAME`` read it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.data.dataset import Dataset, Model, make_dataset
from threshold_lab.core.data.groups import split_groups
from threshold_lab.core.data.rownames import RowNames
from threshold_lab.core.data.sources import Source
from threshold_lab.core.errors import InputError
from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.report.options import Options
from threshold_lab.core.report.report import Report, build
from threshold_lab.core.threshold import Threshold, format_threshold

IntArray = npt.NDArray[np.intp]


#: The name of the model line of every row pooled (groups shown as models).
ALL_ROWS = "all"


def pooled_name(names: Sequence[str]) -> str:
    """:data:`ALL_ROWS`, or a spelling no group has."""
    name = ALL_ROWS
    while name in names:
        name = f"({name})"
    return name


@dataclass(frozen=True)
class RowGroups:
    """The group column, the groups' names, and each loaded row's group."""

    column: str
    names: Sequence[str]
    codes: IntArray

    def models(self, data: Dataset) -> tuple[Model, ...]:
        """Every row pooled (named :data:`ALL_ROWS`), then each group's own rows, as the
        session's models: the rows keep their names (ids, or positions in the file)."""
        if data.n != self.codes.shape[0]:
            raise InputError("the rows are not those the groups were read with")
        groups = split_groups(data, self.names, self.codes, named=True)
        return (Model(pooled_name(self.names), data), *(Model(n, d) for n, d in groups))

    def current(self, data: Dataset) -> IntArray:
        """Each row of ``data`` (the rows as edited)'s group, -1 for a row an edit added."""
        ids = data.ids
        if isinstance(ids, RowNames):
            entries = np.asarray(ids.entries)
            known = entries >= 0
            out = np.full(entries.shape, -1, dtype=np.intp)
            out[known] = self.codes[entries[known]]
            return out
        if data.n != self.codes.shape[0]:  # not the rows the groups were read with
            raise InputError("the rows are not those the groups were read with")
        return self.codes

    def report(
        self,
        data: Dataset,
        threshold: Threshold,
        *,
        beta: float,
        confidence: float,
        label: str,
        solve: Options | None = None,
        own: dict[str, Threshold] | None = None,
    ) -> tuple[Report, int]:
        """The report of the grouped rows at ``threshold`` (their groups and gaps), and
        how many rows have no group (added by an edit)."""
        codes = self.current(data)
        keep = codes >= 0
        added = int(np.count_nonzero(~keep))
        rows = data
        if added:
            idx = np.flatnonzero(keep)
            w = None if data.weights is None else data.weights[idx]
            rows = make_dataset(data.scores[idx], data.labels[idx], weights=w, owned=True)
            codes = codes[idx]
        present = sorted(set(codes.tolist()))
        if len(present) < 2:
            raise InputError("the edited rows are in fewer than two groups: no groups to compare")
        names = [self.names[i] for i in present]
        remap = np.full(len(self.names), -1, dtype=np.intp)
        remap[present] = np.arange(len(present))
        src = Source(
            data=rows,
            label=label,
            group_column=self.column,
            groups=split_groups(rows, names, remap[codes]),
            group_codes=remap[codes],
        )
        options = Options(
            threshold=threshold,
            beta=beta,
            confidence=confidence,
            group_at=None if own is None else tuple(own.items()),
        )
        if solve is not None:  # per-group thresholds: its criterion, tolerance and goal
            options = dataclasses.replace(
                solve, threshold=threshold, beta=beta, confidence=confidence, follow_goal=False
            )
        return build(src, options), added


@dataclass(frozen=True, eq=False)
class PooledAnalysis(Analysis):
    """Every row pooled with each group at its own threshold (``own``, in the groups'
    order): the counts, and so every metric, are the groups' summed over their rows as
    edited (a row an edit added has no group and is left out: ``left_out``). The
    threshold and point are the pooled sweep's common ones, which no group uses here:
    a front end says so rather than draw them."""

    own: tuple[tuple[str, Threshold], ...] = ()
    groups: RowGroups | None = None

    @cached_property
    def _codes(self) -> IntArray:
        assert self.groups is not None
        return self.groups.current(self.data)

    @cached_property
    def _row_cut(self) -> npt.NDArray[np.float64]:
        """Each row's own threshold (inf: above all, or no group: nothing passes)."""
        assert self.groups is not None
        by_name = dict(self.own)
        cut = [by_name.get(n) for n in self.groups.names]
        limits = np.array([np.inf if t is None else float(t) for t in cut] + [np.inf])
        codes = self._codes
        out: npt.NDArray[np.float64] = limits[np.where(codes >= 0, codes, len(cut))]
        return out

    def row_threshold(self, i: int) -> Threshold:
        """Row ``i``'s group's own threshold (None: above all, or no group)."""
        t = float(self._row_cut[i])
        return None if t == np.inf else t

    @cached_property
    def _pooled(self) -> tuple[Counts, int]:
        data = self.data
        codes = self._codes
        known = codes >= 0
        pred = data.scores >= self._row_cut
        pos = data.labels
        if data.weights is None:
            cells = [
                int(np.count_nonzero(m & known))
                for m in (pred & pos, pred & ~pos, ~pred & ~pos, ~pred & pos)
            ]
            k = Counts(tp=cells[0], fp=cells[1], tn=cells[2], fn=cells[3])
        else:
            w = np.where(known, data.weights, 0.0)
            cells_f = [
                float(np.add.reduce(w[m]))
                for m in (pred & pos, pred & ~pos, ~pred & ~pos, ~pred & pos)
            ]
            k = Counts(tp=cells_f[0], fp=cells_f[1], tn=cells_f[2], fn=cells_f[3])
        return k, int(np.count_nonzero(~known))

    @cached_property
    def counts(self) -> Counts:
        return self._pooled[0]

    @property
    def left_out(self) -> int:
        """Rows an edit added: no group, so no threshold, and left out of the counts."""
        return self._pooled[1]

    def thresholds_words(self) -> str:
        """``east 0.56, north 0.51, south 0.58``."""
        return ", ".join(
            f"{n} {'above all' if t is None else format_threshold(t)}" for n, t in self.own
        )

    def pooled_words(self) -> str:
        """What the status sentence opens with: ``All rows pooled, each group at its
        own threshold`` (the thresholds are the bar's and each group's line: the
        sentence keeps to two lines at 80 columns)."""
        out = "All rows pooled, each group at its own threshold"
        n = self.left_out
        if n:
            out += f" ({n} row{'s' if n != 1 else ''} added by an edit: no group, left out)"
        return out
