"""A session's groups (``--group COL``): which group each loaded row is in, followed
through the edits by the rows' names (a row keeps its group; a row added by an edit
has none), and the report of the groups at the session's threshold.

Plain mode's ``groups`` and ``group NAME`` read it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from threshold_lab.core.data.dataset import Dataset, Model, make_dataset
from threshold_lab.core.data.groups import split_groups
from threshold_lab.core.data.rownames import RowNames
from threshold_lab.core.data.sources import Source
from threshold_lab.core.errors import InputError
from threshold_lab.core.report.options import Options
from threshold_lab.core.report.report import Report, build
from threshold_lab.core.threshold import Threshold

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
        order = np.argsort(self.codes, kind="stable")
        bounds = np.searchsorted(self.codes[order], np.arange(len(self.names) + 1))
        out = [Model(pooled_name(self.names), data)]
        for i, name in enumerate(self.names):
            idx = order[bounds[i] : bounds[i + 1]]
            w = None if data.weights is None else data.weights[idx]
            names = RowNames(data.ids, idx.astype(np.int64))  # each row's own name
            out.append(
                Model(
                    name,
                    make_dataset(
                        data.scores[idx],
                        data.labels[idx],
                        weights=w,
                        ids=names,
                        ids_known_unique=True,
                        owned=True,
                    ),
                )
            )
        return tuple(out)

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
        self, data: Dataset, threshold: Threshold, *, beta: float, confidence: float, label: str
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
        src = Source(data=rows, label=label, group_column=self.column,
                     groups=split_groups(rows, names, remap[codes]),
                     group_codes=remap[codes])  # fmt: skip
        options = Options(threshold=threshold, beta=beta, confidence=confidence)
        return build(src, options), added
