"""A session's edits of its rows: each one undoable, worked out in a thread where it
copies the rows (:class:`Later`), and the file they are saved to."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Literal

from threshold_lab.core.errors import InputError
from threshold_lab.core.session import edits
from threshold_lab.core.session.history import Performed, Stale, UndoStep
from threshold_lab.core.session.operating import OperatingPoint
from threshold_lab.core.session.policy import label_of
from threshold_lab.core.session.rowview import NOTHING_CHANGED
from threshold_lab.core.session.update import Update
from threshold_lab.core.threshold import format_threshold
from threshold_lab.core.transform import kept


class Editing(OperatingPoint):
    """A session's rows as edited: every edit one undoable step (undo, redo, reset),
    saved to a file or, on a hang-up, to a recovery file."""

    def _apply(self, edit: edits.Edit, note: str | Callable[[], str]) -> Update:
        """Perform ``edit`` as one undoable step; ``note`` is its sentence, or says it
        once the edit is done (a transform's depends on the rows after it)."""
        before, inverse = self.data, self.history.perform(edit)
        said = note if isinstance(note, str) else note()
        self.history.record(inverse, said)
        return self._update(edit.changed(before, self.data, self.threshold), said)

    def transform(self, text: str) -> Update:
        """A monotone score transform as one undoable edit; the threshold stays, and the
        message says what changed and which threshold makes the old decisions again."""
        before = self.analysis
        applied, edit = edits.rescore(text, self.data, before.sweep)
        return self._apply(
            edit, lambda: kept(applied, self.threshold, before, self.analysis).sentence()
        )

    def set_score(self, index: int, text: str) -> Update:
        return self._apply(*edits.score_edit(self.data, index, text))

    def flip_label(self, index: int) -> Update:
        return self.later("flip", index).finish()

    def set_label(self, index: int, text: str) -> Update:
        if bool(self.data.labels[index]) != label_of(text):
            return self.flip_label(index)
        return self._update(
            message=f"Row {self.data.shown_id(index)}: actual label is already {text.strip()}."
        )

    def add_row(self, score_text: str, label_text: str) -> Update:
        """Add a row at the end from typed text (a score, and a label 0 or 1)."""
        label = label_of(label_text)
        return self.insert_row(edits.check_score(self.data, score_text), label)

    def insert_row(self, score: float, label: bool) -> Update:
        return self._apply(*edits.insert_edit(self.data, score, label))

    def delete_row(self, index: int) -> Update:
        return self.later("delete", index).finish()

    def later(self, kind: Literal["delete", "flip", "undo", "redo"], index: int = -1) -> Later:
        """A delete or flip of row ``index``, an undo or a redo, to be worked out by
        :meth:`Later.work` (in a thread: the copying of the rows and the sweep happens
        there) and made the state by :meth:`Later.finish` (on the caller's thread, by
        references only). Nothing else may edit the rows between the two; if something
        did, ``finish`` does an undo or redo again and refuses a delete or flip.

        >>> from threshold_lab.core.data.presets import preset
        >>> s = Editing(preset("canonical").data, 0.5, source="preset canonical")
        >>> job = s.later("delete", 0)
        >>> job.work()
        >>> s.data.n, job.finish().message, s.data.n
        (5, 'Removed row s1. Undo brings it back.', 4)
        """
        return Later(self, kind, index)

    def undo(self) -> Update:
        return self._travel(back=True)

    def redo(self) -> Update:
        return self._travel(back=False)

    def _travel(self, back: bool) -> Update:
        before = self.data
        edit, said = self.history.travel(back)
        changed = (
            NOTHING_CHANGED if edit is None else edit.changed(before, self.data, self.threshold)
        )
        return self._update(changed, said)

    def reset(self) -> Update:
        """Back to the rows and threshold as loaded (itself an undoable step)."""
        before, old = self.data, self.threshold
        data, threshold = self.loaded
        self.history.aligned = True  # before the update below solves the goal again
        if self.data is not data:
            self._apply(edits.Replace(data), f"Reset to {self.source} as loaded.")
        self.policy.threshold = threshold
        one = ""
        if self.shown.own is not None:
            self.shown.own = None  # as loaded: one threshold for every group
            one = " One threshold for every group."
        changed = edits.changed_between(before, old, self.data, self.threshold)
        return self._update(
            changed,
            f"Reset to {self.source} as loaded, threshold {format_threshold(threshold)}.{one}",
        )

    def recover(self) -> Path | None:
        """Unsaved edits written to a new recovery file (on a hang-up), or None."""
        return self.history.recover()

    def recovery_notice(self) -> str:
        """The sentence to start with when an earlier session left recovery files."""
        return self.history.recovery_notice()

    def save(self, target: Path, *, overwrite: bool = False) -> Update:
        written = self.history.save(target, overwrite=overwrite)
        return self._update(message=f"Saved {self.data.n} rows to {written}.")


class Later:
    """One edit worked out in a thread and made the state on the caller's (see
    :meth:`Editing.later`)."""

    def __init__(
        self, session: Editing, kind: Literal["delete", "flip", "undo", "redo"], index: int
    ) -> None:
        self.session, self.kind, self.index = session, kind, index
        self._done: Performed | UndoStep | None = None
        self._note = ""
        self._error: InputError | None = None
        self._worked = False

    def work(self) -> None:
        """The copying: reads the session's (read-only) rows and sweep, changes nothing."""
        history, i = self.session.history, self.index
        try:
            if self.kind == "delete":
                edit, self._note = edits.delete_edit(history.data, i)
                self._done = history.prepare(edit)
            elif self.kind == "flip":
                edit, self._note = edits.flip_edit(history.data, i)
                self._done = history.prepare(edit)
            else:
                self._done = history.prepare_travel(back=self.kind == "undo")
        except InputError as exc:
            self._error = exc
        self._worked = True

    def finish(self) -> Update:
        """The edit made the state, and its Update (raises InputError as the edit would;
        nothing changes then)."""
        s = self.session
        if not self._worked:
            self.work()
        if self._error is not None:
            raise self._error
        done, self._done = self._done, None  # the rows it holds are not kept after this
        try:
            if isinstance(done, Performed):
                before = s.data
                inverse = s.history.commit(done)
                s.history.record(inverse, self._note)
                update = s._update(done.edit.changed(before, s.data, s.threshold), self._note)
                if self.kind == "delete":
                    update = dataclasses.replace(
                        update, message=f"{update.message} Undo brings it back."
                    )
                return update
            if isinstance(done, UndoStep):
                before = s.data
                edit, said = s.history.commit_travel(done)
                return s._update(edit.changed(before, s.data, s.threshold), said)
        except Stale:
            if self.kind in ("undo", "redo"):
                return s._travel(back=self.kind == "undo")
            what = "removed" if self.kind == "delete" else "flipped"
            raise InputError(f"the rows changed first; nothing {what}") from None
        return s._travel(back=self.kind == "undo")  # nothing to undo or redo: said so
