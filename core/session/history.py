"""The rows being explored, their edit history and their file.

The history keeps inverse edits, not datasets: ten million rows would cost 90 MB
per step. Each state has a version; the one saved (or loaded) is clean. The sweep
of the rows is kept in step with each edit, never sorted again.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Curves
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.data.rownames import positional_index
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.output import check_name, output, write_text
from threshold_lab.core.session import edits, recovery
from threshold_lab.core.threshold import Threshold

#: One undoable step: the edit that undoes it, the version before it, its sentence.
Step = tuple[edits.Edit, int, str]


class NeedsOverwrite(InputError):
    """Saving would replace a file; ``question`` asks the user whether to."""

    def __init__(self, message: str, question: str) -> None:
        super().__init__(message)
        self.question = question


class Stale(Exception):
    """A prepared edit whose rows are no longer the state (another edit came first)."""


@dataclass(frozen=True, eq=False)
class Performed:
    """An edit worked out against ``before``: the rows after it, the edit that undoes
    it, and the sweep kept in step (None: sweep ``after`` anew)."""

    edit: edits.Edit
    before: Dataset
    after: Dataset
    inverse: edits.Edit
    curves: Curves | None


@dataclass(frozen=True, eq=False)
class UndoStep:
    """An undo (``back``) or redo worked out: the step it takes and the edit done."""

    back: bool
    step: Step
    done: Performed


class History:
    """The rows, what they were loaded as, every undoable edit, and the file."""

    def __init__(
        self,
        data: Dataset,
        threshold: Threshold,
        *,
        source: str,
        path: Path | None = None,
        columns: Mapping[str, npt.NDArray[np.float64]] | None = None,
    ) -> None:
        self.data = data
        self.source = source
        self.path = path
        #: The rows and threshold as loaded (reset goes back to them).
        self.loaded = (data, threshold)
        #: Numeric columns kept for a goal's costs, one value per loaded row.
        self.columns: Mapping[str, npt.NDArray[np.float64]] = columns or {}
        #: Whether those columns still line up with the rows (no row added or deleted).
        self.aligned = True
        #: The rows' sweep, kept in step with the edits (None: sweep them again).
        self.curves: Curves | None = None
        self._versions = itertools.count(1)
        self._version = 0
        self._saved = (0, data)
        self.undos: list[Step] = []
        self.redos: list[Step] = []

    @property
    def dirty(self) -> bool:
        """True when the rows differ from what was loaded or last saved."""
        version, data = self._saved
        return self._version != version and self.data is not data

    @property
    def edited(self) -> bool:
        """Whether there is anything to undo (the rows are not as loaded)."""
        return bool(self.undos)

    def start(
        self, data: Dataset, threshold: Threshold, source: str | None = None, *, fresh: bool = False
    ) -> None:
        """Other rows, as if loaded (another model's or class's scores; ``fresh``: rows
        of their own, a preset, with no file or cost columns): the history starts
        afresh and nothing is to save."""
        if fresh:
            self.path, self.columns, self.aligned = None, {}, True
        self.undos.clear()
        self.redos.clear()
        self.data = data
        self.loaded = (data, threshold)
        if source is not None:
            self.source = source
        self._version = next(self._versions)
        self._saved = (self._version, data)

    def perform(self, edit: edits.Edit) -> edits.Edit:
        """Apply ``edit`` (raising InputError with nothing changed), keep the sweep in
        step without sorting again, and return the edit that undoes it."""
        return self.commit(self.prepare(edit))

    def prepare(self, edit: edits.Edit) -> Performed:
        """``edit`` worked out, nothing changed yet (raises InputError): the copying
        happens here, so a front end may call this in a thread and :meth:`commit` on
        its own; the state is only read, and its arrays are read-only."""
        before, curves = self.data, self.curves
        after = edit.apply(before)
        inverse = edit.inverse(before)
        kept: Curves | None = None
        if curves is not None and curves.data is before:
            sweep = edit.update(curves.sweep, before, after)
            kept = None if sweep is None else Curves(after, sweep, edit.row_change(before))
        return Performed(edit, before, after, inverse, kept)

    def commit(self, done: Performed) -> edits.Edit:
        """Make a prepared edit the state (references only, no copying) and return the
        edit that undoes it. Raises :class:`Stale` when the rows changed since."""
        if done.before is not self.data:
            raise Stale("the rows changed while the edit was being worked out")
        self.curves, self.data = done.curves, done.after
        if isinstance(done.edit, edits.InsertRow | edits.DeleteRow):
            self.aligned = False  # the cost columns' rows no longer line up
        return done.inverse

    def record(self, inverse: edits.Edit, note: str) -> None:
        """Keep a performed edit as one undoable step, saying ``note``."""
        self.undos.append((inverse, self._version, note))
        self.redos.clear()
        self._version = next(self._versions)

    def travel(self, back: bool) -> tuple[edits.Edit | None, str]:
        """Undo (``back``) or redo one step: the edit performed (None: nothing to do)
        and the sentence saying which (``Undone: row s2: score 0.8 -> 0.3.``)."""
        travel = self.prepare_travel(back)
        if travel is None:
            return None, f"Nothing to {'undo' if back else 'redo'}."
        return self.commit_travel(travel)

    def prepare_travel(self, back: bool) -> UndoStep | None:
        """An undo (``back``) or redo worked out, nothing changed yet (None: nothing to
        do); :meth:`commit_travel` makes it the state. Like :meth:`prepare`, safe to
        call in a thread while nothing else changes the history."""
        source = self.undos if back else self.redos
        if not source:
            return None
        step = source[-1]
        return UndoStep(back, step, self.prepare(step[0]))

    def commit_travel(self, travel: UndoStep) -> tuple[edits.Edit, str]:
        """A prepared undo or redo made the state: the edit performed and its sentence.
        Raises :class:`Stale` when the rows or that step changed since."""
        source, target = (self.undos, self.redos) if travel.back else (self.redos, self.undos)
        if not source or source[-1] is not travel.step:
            raise Stale("the history changed while the step was being worked out")
        edit, version, note = travel.step
        target.append((self.commit(travel.done), self._version, note))
        source.pop()
        self._version = version
        done = "Undone" if travel.back else "Redone"
        return edit, f"{done}: {note[0].lower()}{note[1:]}" if note else f"{done}."

    def row_index(self, row_id: str) -> int:
        """The position of the row called ``row_id`` (see :meth:`find_row`)."""
        return self.find_row(row_id)[0]

    def find_row(self, row_id: str) -> tuple[int, bool]:
        """The position of the row ``row_id`` names, and whether it named it by its
        number: an id first; then, when no id matches, a whole number from 1 to the
        rows' count is that row's number (its place, counting from 1)."""
        data = self.data
        found = data.position_of(row_id)
        if found is not None:
            return found, False
        if "\\" in row_id:  # an id with a newline or escape, typed as it is shown
            found = next((i for i in range(data.n) if data.shown_id(i) == row_id), None)
            if found is not None:
                return found, False
        # No more digits than the count has: a line of thousands costs nothing.
        number = positional_index(row_id) if len(row_id) <= len(str(data.n)) else None
        if number is not None and number < data.n:
            return number, True
        first = [data.shown_id(i) for i in range(min(data.n, 8))]
        shown = ", ".join(first) + (", ..." if data.n > 8 else "")
        raise InputError(
            f"no row {quoted(row_id)}; rows are: {shown}, or a row's number from 1 to {data.n}"
        )

    def default_save_path(self) -> Path:
        if self.path is not None:
            return self.path.with_name(self.path.stem + "-edited.csv")
        return Path(self.source.removeprefix("preset ") + ".csv")

    def recover(self) -> Path | None:
        """Write unsaved edits to a new recovery file (see
        :mod:`threshold_lab.core.session.recovery`) and return where; None when there
        are none. Raises OSError when no folder will take the file."""
        if not self.dirty:
            return None
        return recovery.write(edits.to_csv(self.data), self.path, self.source)

    def recovery_notice(self) -> str:
        """What to say at a start when earlier recovery files of this source exist."""
        return recovery.notice(self.path, self.source)

    def save(self, target: Path, *, overwrite: bool = False) -> Path:
        """Write the rows as CSV, atomically, and return where. An existing file is
        replaced only with ``overwrite``; otherwise :class:`NeedsOverwrite` asks,
        naming what it is. A folder is never replaced. Saving does not change what a
        reset returns to: that stays the rows as loaded."""
        target = check_name(target)
        try:
            folder, exists = target.is_dir(), target.exists()
        except OSError as exc:  # a folder on the way that cannot be searched
            raise InputError(f"cannot save to {target}: {exc.strerror or exc}") from None
        if folder:
            raise InputError(f"{target} is a folder; give a file name")
        if exists and not overwrite:
            same = self.path is not None and target.resolve() == self.path.resolve()
            what = "the source file" if same else "an existing file"
            raise NeedsOverwrite(
                f"{target} is {what}; nothing written", f"{target} is {what}. Overwrite it?"
            )
        written = write_text(output(target), edits.to_csv(self.data))
        self._saved = (self._version, self.data)
        return Path(written)
