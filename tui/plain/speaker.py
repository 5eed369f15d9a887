"""What plain mode's command handlers share: the session they drive, the stream
they write to, and how a result or a change is said."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from typing import TextIO

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.data.rownames import shown
from threshold_lab.core.errors import InputError
from threshold_lab.core.intervals import IntervalsShown
from threshold_lab.core.metrics.metric import fraction_text
from threshold_lab.core.session.groups import PooledAnalysis
from threshold_lab.core.session.rowview import (
    RowOrder,
    row_texts,
)
from threshold_lab.core.session.session import Session
from threshold_lab.core.session.update import Update
from threshold_lab.core.text.scores import threshold_words
from threshold_lab.core.text.sentences import (
    status_sentence,
    tie_group_text,
)
from threshold_lab.tui.plain.hangup import still_stopping


class Speaker:
    """What every plain command handler shares: the session, the output, and the
    ways a handler says what it found or did."""

    #: Commands refused so far: a script (input not a terminal) then exits 1.
    refused = 0
    #: Each word plain mode takes to what runs it (the dispatcher fills it).
    commands: dict[str, Callable[[list[str]], bool | None]]

    def __init__(self, session: Session, out: TextIO) -> None:
        self.session = session
        self.out = out
        self._orders: RowOrder | None = None
        #: The word of the command running (quit and exit, preset and presets share one).
        self._word = ""

    @property
    def analysis(self) -> Analysis:
        return self.session.analysis

    def say(self, *lines: str) -> None:
        """Write lines; any character that is not printable (from a typed word or a
        file's id) is escaped, so output never moves the cursor or colours text."""
        for line in lines:
            self.out.write("\n".join(shown(part) for part in line.split("\n")) + "\n")
        self.out.flush()

    def status(self) -> str:
        return status_sentence(self.analysis)

    def metrics_hidden(self) -> bool:
        """Whether a lesson hides the metrics now (what is said gives the counts alone)."""
        return False

    def status_of(self, update: Update) -> str:
        """The status sentence after ``update`` (a lesson hiding the metrics says the
        counts alone)."""
        return update.status

    def in_force(self) -> list[str]:
        """What ``status`` says after the counts: the goal, the prevalence what-if, and
        the model, class, group or fold shown, in one sentence (none when the rows are
        shown as loaded, with neither a goal nor a prevalence)."""
        s, a = self.session, self.analysis
        said = []
        d = s.current().deciding
        if d is not None and d.goal is not None:
            goal = f"goal {d.goal.text()}"
            if d.decision is None:
                said.append(f"{goal}, not solved: {d.problem}")
            else:
                where = threshold_words(d.decision.threshold, a.sweep.thresholds)
                here = d.decision.threshold == a.threshold
                if not d.decision.feasible:
                    closest = "this threshold" if here else f"threshold {where}"
                    said.append(f"{goal}, not feasible: its closest point is {closest}")
                elif here:
                    said.append(f"{goal}, at this threshold")
                else:
                    said.append(f"{goal}, at threshold {where}, not this one")
        if s.prevalence is not None:
            said.append(f"prevalence what-if {fraction_text(s.prevalence)}")
        review = s.current().review
        if review is not None:
            lowered = review.sentence().removeprefix("Band: ").rstrip(".")
            said.append(f"review band ({lowered})")
        shown = s.shown
        names = [m.name for m in s.models]
        if s.pooled:
            group = shown.showing_group
            if group is None:
                said.append(
                    f"all rows, pooled across the {len(names) - 1} {shown.part}s by {s.group_by}"
                )
            else:
                alone = f"{shown.part} {group} alone ({s.group_by} = {group})"
                said.append(alone + (", at its own threshold" if shown.own is not None else ""))
        elif len(names) > 1 and not s.paired:
            name = names[s.model]
            said.append(f"{shown.part} {name} ({s.group_by} = {name})")
        elif len(names) > 1:
            said.append(f"model {names[s.model]} (of {', '.join(names)})")
        mc = s.multiclass
        if mc is not None:
            said.append(
                f"class {mc.classes[s.klass]} against the rest (of {', '.join(mc.classes)})"
            )
        return [f"In force: {'; '.join(said)}."] if said else []

    @staticmethod
    def _no_args(args: list[str]) -> None:
        if args:
            raise InputError(f"this command takes no arguments (got {' '.join(args)!r})")

    def _tell(self, args: list[str], lines: Callable[[], list[str]]) -> None:
        """A command that only describes: no arguments, and its lines said."""
        self._no_args(args)
        self.say(*lines())

    def _move(self, args: list[str], move: Callable[[], Update]) -> None:
        self._no_args(args)
        update = move()
        self.say(self.status_of(update), f"Now at {tie_group_text(update.analysis)}.")

    def _change(self, args: list[str], change: Callable[[], Update]) -> None:
        self._no_args(args)
        self._said(change())

    def _said(self, update: Update) -> None:
        """An edit's sentence (when it has one), then the status sentence after it."""
        self.say(*[said for said in (update.message, self.status_of(update)) if said])

    def _row(self, row_id: str) -> tuple[int, str | None]:
        """The row ``row_id`` names (its id first, else its number from 1), and, where
        it was its number, how the row is then said: ``s5 (row number 5)``."""
        index, by_number = self.session.find_row(row_id)
        name = self.session.data.shown_id(index)
        return index, f"{name} (row number {index + 1})" if by_number else None

    def _said_of_row(self, update: Update, row: tuple[int, str | None]) -> None:
        """An edit of one row said (:meth:`_said`), naming the row as :meth:`_row`
        found it: by its number, the number too, so nobody wonders which row it was."""
        named = row[1]
        if named is not None:
            id_, _, _ = named.partition(" (row number")
            said = re.sub(
                rf"\b([Rr]ow ){re.escape(id_)}(?=[:.])",
                lambda m: f"{m.group(1)}{named}",
                update.message,
                count=1,
            )
            update = dataclasses.replace(update, message=said)
        self._said(update)

    @staticmethod
    def _expect(args: list[str], count: int, usage: str) -> None:
        if len(args) != count:
            raise InputError(f"expected {usage}")

    def _one(self, what: str) -> Analysis:
        """The analysis, for a command that needs one threshold (refused while every row
        is shown and each group has its own)."""
        a = self.analysis
        if isinstance(a, PooledAnalysis):
            raise InputError(
                f"{what} needs one threshold, and each group has its own: "
                "model NAME shows a group alone, own gives every group one "
                "threshold"
            )
        return a

    def _sure(self) -> IntervalsShown | None:
        """The intervals to show, running the bootstrap first when one is wanted."""
        job = self.session.boot_job()
        if job is not None:
            self.say(f"Bootstrapping {job.replicates} replicates...")
            self.session.boot_done(job, job.run(still_stopping))
        return self.session.sure

    def _say_rows(self, rows: npt.NDArray[np.intp]) -> None:
        a = self.analysis
        texts = (
            row_texts(a.data, a.threshold, rows, a.sweep.thresholds)
            if not isinstance(a, PooledAnalysis)
            else [
                row_texts(a.data, a.row_threshold(int(i)), np.array([i]), a.sweep.thresholds)[0]
                for i in rows
            ]
        )
        for row in texts:
            self.say(
                f"{row.id}: score {row.score}, actual {row.actual}, "
                f"predicted {row.predicted}, {row.cell}"
            )
