"""Plain mode's commands of the threshold, the rows and their edits, presets and
the file."""

from __future__ import annotations

import shlex
from pathlib import Path

import numpy as np
from threshold_lab.core.choices import TRANSFORMS
from threshold_lab.core.data.presets import PRESETS, preset
from threshold_lab.core.errors import InputError
from threshold_lab.core.session.groups import PooledAnalysis
from threshold_lab.core.session.rowview import (
    DIFFER,
    ORDER_NAMES,
    RowOrder,
    boundary_scores,
    make_view,
    side_by_side,
)
from threshold_lab.core.session.session import NeedsOverwrite
from threshold_lab.core.text.scores import threshold_words, typed_words
from threshold_lab.core.text.sentences import (
    status_sentence,
    step_sentence,
    tie_group_text,
)
from threshold_lab.core.threshold import parse_threshold
from threshold_lab.tui.plain.help import help_on, topic_list
from threshold_lab.tui.plain.speaker import Speaker
from threshold_lab.tui.plain.words import (
    PLAIN_ORDERS,
    ROWS_SHOWN,
    _noun,
    _rows,
    parse_count,
)


class Rows(Speaker):
    """The commands of the threshold, the rows, their edits, presets and the file."""

    def cmd_threshold(self, args: list[str]) -> None:
        self._expect(args, 1, "threshold T, such as threshold 0.5 or threshold above-all")
        t = parse_threshold(args[0])
        update = self.session.set_threshold(t)
        a = update.analysis
        # Said back as typed (2, not 2.0), where that is the threshold now in force.
        typed = typed_words(args[0], t) if t is not None and a.threshold == t else None
        shown = status_sentence(a, typed, metrics=not self.metrics_hidden())
        self.say(shown, f"Now at {tie_group_text(a)}.")

    def cmd_step(self, args: list[str]) -> None:
        self._expect(args, 1, "step N, such as step 1 or step -10")
        steps = parse_count(args[0], "step", signed=True)
        if steps is None:
            raise InputError(f"step {args[0]!r} is not a whole number")
        self.say(self.status_of(self.session.step(steps)))

    def cmd_play(self, args: list[str]) -> None:
        self._no_args(args)
        update = self.session.set_threshold(None)
        self.say(step_sentence(update.analysis), self.status_of(update))
        while update.analysis.point < update.analysis.sweep.size - 1:
            update = self.session.group(1)
            self.say(step_sentence(update.analysis), self.status_of(update))

    def cmd_rows(self, args: list[str]) -> None:
        a = self.analysis
        cell: str | None = None
        order, limit = "file", ROWS_SHOWN
        for word in args:
            if word.upper() in ("TP", "FP", "TN", "FN"):
                cell = word.upper()
            elif word.lower() == DIFFER:
                if len(self.session.models) >= 2 and not self.session.paired:
                    raise InputError(
                        f"rows differ needs several models of the same rows; these are groups "
                        f"by {self.session.group_by}, each different examples"
                    )
                if len(self.session.models) < 2:
                    raise InputError(
                        "rows differ needs several models of these rows (open a file with "
                        "score_A, score_B, ..., --score-column twice, or --compare OTHER_FILE)"
                    )
                cell = DIFFER
            elif word.lower() in PLAIN_ORDERS:
                order = PLAIN_ORDERS[word.lower()]
            elif (count := parse_count(word, "rows count", signed=False)) is not None:
                if count == 0:
                    raise InputError("rows count 0 shows nothing: give a count of 1 or more")
                limit = count
            else:
                differ = len(self.session.models) > 1 and self.session.paired
                cells = "TP, FP, TN, FN" + (", or differ" if differ else "")
                raise InputError(
                    f"rows takes a cell ({cells}), an order (file, high, low) and a count, "
                    f"not {word!r}"
                )
        if self._orders is None or self._orders.data is not a.data:
            self._orders = RowOrder(a.data)
        models = [(r.name, r.data) for r in self.session.model_rows() if r.data is not None]
        if cell == DIFFER and len({d.n for _, d in models}) > 1:
            raise InputError(
                "the models no longer have the same rows (an edit added or deleted one): "
                "undo it to list the rows they decide differently"
            )
        if cell is not None:
            self._one(f"rows {cell}")
        view = make_view(a.data, a.threshold, order, cell, self._orders, [d for _, d in models])
        n = len(view)
        what = {None: _rows(n), DIFFER: f"{_rows(n)} decided differently"}.get(
            cell, f"{n} {cell} {_noun(n)}"
        )
        t = threshold_words(a.threshold, a.sweep.thresholds)
        where = (
            f"at threshold {t}"
            if not isinstance(a, PooledAnalysis)
            else ("each at its group's own threshold")
        )
        self.say(f"{what} {where}, {ORDER_NAMES[order]}:")
        if cell == DIFFER:
            for side in side_by_side(models, a.threshold, view.indices(0, limit)):
                each = ", ".join(f"{name} score {sc} {c}" for name, sc, c in side.models)
                self.say(f"{side.id}: actual {side.actual}; {each}")
        else:
            self._say_rows(view.indices(0, limit))
        if len(view) > limit:
            more = len(view) - limit
            again = f"rows {cell + ' ' if cell else ''}"
            self.say(f"... and {_rows(more, 'more')}: {again}{len(view)} shows them all.")

    def cmd_boundary(self, args: list[str]) -> None:
        self._no_args(args)
        a = self._one("boundary")
        scores = boundary_scores(a.data, a.threshold)
        rows = np.flatnonzero(np.isin(a.data.scores, np.asarray(scores)))
        t = threshold_words(a.threshold, a.sweep.thresholds)
        self.say(f"{_rows(rows.shape[0])} either side of threshold {t}:")
        self._say_rows(rows[:ROWS_SHOWN])
        if rows.shape[0] > ROWS_SHOWN:
            self.say(f"... and {_rows(rows.shape[0] - ROWS_SHOWN, 'more tied')}.")

    def cmd_set(self, args: list[str]) -> None:
        if len(args) != 3 or args[1].lower() != "score":
            raise InputError("expected set ID score S, such as set s2 score 0.7")
        row = self._row(args[0])
        self._said_of_row(self.session.set_score(row[0], args[2]), row)

    def cmd_label(self, args: list[str]) -> None:
        self._expect(args, 2, "label ID 0|1, such as label s2 1")
        row = self._row(args[0])
        self._said_of_row(self.session.set_label(row[0], args[1]), row)

    def cmd_add(self, args: list[str]) -> None:
        self._expect(args, 2, "add SCORE LABEL, such as add 0.3 1")
        self._said(self.session.add_row(args[0], args[1]))

    def cmd_delete(self, args: list[str]) -> None:
        self._expect(args, 1, "delete ID, such as delete s2")
        row = self._row(args[0])
        self._said_of_row(self.session.delete_row(row[0]), row)

    def cmd_transform(self, args: list[str]) -> None:
        if len(args) != 1:
            raise InputError(
                f"expected transform NAME, one of: {', '.join(TRANSFORMS)} (undo goes back)"
            )
        self._said(self.session.transform(args[0]))

    def cmd_preset(self, args: list[str]) -> None:
        if len(args) not in (1, 2) or (len(args) == 2 and args[1].lower() != "force"):
            raise InputError(
                "expected preset NAME, or preset NAME force to load it over unsaved edits; "
                "type presets for the list"
            )
        preset(args[0])  # an unknown name is refused first, by name
        if self.session.dirty and len(args) == 1:
            raise InputError(
                f"there are unsaved edits; save PATH first, or preset {args[0]} force "
                "to load it and lose them"
            )
        self._said(self.session.load_preset(args[0]))

    def cmd_presets(self, args: list[str]) -> None:
        self._no_args(args)
        self.say(*(f"{p.name}: {p.description}" for p in PRESETS.values()))

    def cmd_save(self, args: list[str]) -> None:
        if len(args) not in (1, 2) or (len(args) == 2 and args[1] != "overwrite"):
            raise InputError("expected save PATH, or save PATH overwrite to replace a file")
        if not args[0].strip():
            raise InputError("type a file name, such as save rows.csv")
        target = Path(args[0]).expanduser()
        try:
            self.say(self.session.save(target, overwrite=len(args) == 2).message)
        except NeedsOverwrite as exc:
            again = shlex.join([args[0], "overwrite"])
            raise InputError(f"{exc}. To replace it: save {again}") from None

    def cmd_help(self, args: list[str]) -> None:
        if len(args) > 1:
            raise InputError("help takes one topic or command, such as help goal")
        self.say(help_on(args[0]) if args else topic_list())

    def cmd_quit(self, args: list[str], word: str, *, force: bool) -> bool:
        self._no_args(args)
        if self.session.dirty and not force:
            raise InputError(
                f"there are unsaved edits; save PATH first, or {word}! to {word} and lose them"
            )
        return True
