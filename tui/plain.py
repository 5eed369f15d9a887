"""Plain line mode: one command per line in, plain sentences out.

For screen readers, braille displays and pipes: no escape codes, no
redraws, no colour. It drives the same core Session as the explorer, so
every change is described by the same status sentence. A bad command gets
one line saying what was wrong and what would work; nothing changes.
"""

from __future__ import annotations

import contextlib
import re
import shlex
import signal
import sys
import textwrap
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TextIO

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.calibration.reliability import BINNINGS, BINS, parse_bins
from threshold_lab.core.curves.operating import (
    parse_partial_auc,
    parse_readouts,
    partial_auc,
    readouts,
)
from threshold_lab.core.data.presets import PRESETS, preset
from threshold_lab.core.data.rownames import shown
from threshold_lab.core.decide.goal import GOAL_METRICS, GRAMMAR
from threshold_lab.core.decide.net_benefit import decision_curve, parse_pt
from threshold_lab.core.decide.solve import decision_sentence
from threshold_lab.core.errors import InputError
from threshold_lab.core.intervals import Sure
from threshold_lab.core.metrics.metric import Metric, lower_first
from threshold_lab.core.metrics.threshold_metrics import METRIC_NAMES
from threshold_lab.core.report.as_text import (
    metrics_section,
    prevalence_section,
    quantised_lines,
    sweep_table,
)
from threshold_lab.core.report.report import Report
from threshold_lab.core.session import recovery
from threshold_lab.core.session.groups import PooledAnalysis
from threshold_lab.core.session.rowview import (
    DIFFER,
    ORDER_NAMES,
    RowOrder,
    boundary_scores,
    make_view,
    row_texts,
    side_by_side,
)
from threshold_lab.core.session.session import NeedsOverwrite, Session
from threshold_lab.core.session.update import Update
from threshold_lab.core.text.calibration import calibration_words, gains_words, ks_words
from threshold_lab.core.text.decision import (
    cost_curve_lines,
    decision_curve_lines,
    net_benefit_sentence,
    useful_sentence,
)
from threshold_lab.core.text.groups import group_sentence, groups_lines
from threshold_lab.core.text.intervals import boot_summary_words, curve_interval_words
from threshold_lab.core.text.multiclass import classes_words, multiclass_words
from threshold_lab.core.text.notable import notable_points
from threshold_lab.core.text.operating import partial_auc_sentence, readout_sentence
from threshold_lab.core.text.scores import threshold_words
from threshold_lab.core.text.sentences import (
    SUMMARY_WORDS,
    change_words,
    curve_words,
    explain,
    metric_key,
    status_sentence,
    step_sentence,
    tie_group_text,
)
from threshold_lab.core.threshold import format_threshold, parse_threshold
from threshold_lab.core.transform import NAMES as TRANSFORMS
from threshold_lab.tui import commands as cmd
from threshold_lab.tui.commands import GROUPS, Command, plain_commands, plain_words
from threshold_lab.tui.terminal import hung_up

#: What runs one plain command: its arguments in, True to quit.
Handler = Callable[[list[str]], bool | None]


def help_text(
    width: int = 96,
    commands: Iterable[type[Command]] | None = None,
    heading: str = "Commands (one per line):",
) -> str:
    """The commands plain mode takes (all of them by default), from the commands'
    declarations: each one's usage, then what it does, wrapped under itself."""
    lines = [heading] if heading else []
    chosen = plain_commands() if commands is None else list(commands)
    for c in sorted(chosen, key=lambda c: GROUPS.index(c.GROUP)):
        usage, said = c.PLAIN or "", textwrap.wrap(lower_first(c.plain_help()), width - 38)
        if len(usage) <= 35:
            lines.append(f"  {usage:<36}{said[0]}")
            said = said[1:]
        else:
            lines.append(f"  {usage}")
        lines += [" " * 38 + more for more in said]
    return "\n".join(lines)


def topics() -> dict[str, list[type[Command]]]:
    """``help TOPIC``'s topics: each group of commands in help's order, by its first
    word in lower case (``how-sure`` for How sure)."""
    found: dict[str, list[type[Command]]] = {}
    for c in sorted(plain_commands(), key=lambda c: GROUPS.index(c.GROUP)):
        found.setdefault(_topic_word(c.GROUP), []).append(c)
    return found


def _topic_word(group: str) -> str:
    return "how-sure" if group == "How sure" else group.split()[0].lower()


def topic_list() -> str:
    """What ``help`` alone says: the topics and the commands, each a word to ask for."""
    words = [w for w in plain_words() if not w.endswith("!")]
    return "\n".join(
        [
            "Help: help TOPIC for a group of commands, help COMMAND for one, help all for every "
            "command.",
            *textwrap.wrap(f"Topics: {', '.join(topics())}.", 96),
            *textwrap.wrap(f"Commands: {', '.join(words)}.", 96),
        ]
    )


def help_on(word: str) -> str:
    """``help WORD``: a topic's commands, or one command with what it takes (a goal's
    grammar and metrics, a transform's names); InputError for a word that is neither."""
    key = word.lower()
    if key == "all":
        return help_text()
    if key in topics():
        group = topics()[key][0].GROUP
        return help_text(commands=topics()[key], heading=f"{group}:")
    command = plain_words().get(key.rstrip("!"))
    if command is None:
        raise InputError(
            f"help: no topic or command {word!r}; topics: {', '.join(topics())} "
            "(help alone lists the commands too)"
        )
    more = [line for text in DETAILS.get(command, []) for line in textwrap.wrap(text, 96)]
    return "\n".join([help_text(commands=[command], heading=""), *more])


#: What ``help COMMAND`` adds for the commands that take a small language.
DETAILS: dict[type[Command], list[str]] = {
    cmd.Goal: [
        f"A goal: {GRAMMAR}.",
        "Metrics: " + ", ".join(GOAL_METRICS) + ", and cost (min cost).",
        "Numbers are decimals (0.9, 1e-3) or one fraction (9/10), 0 or from 1e-300 to 1e300 "
        "in size; a cost is a number or @column (each row's own value in that column).",
        "Examples: goal max precision where recall >= 0.9; goal min cost fp=1 fn=5; "
        "goal max f1; goal off.",
    ],
    cmd.Prevalence: [
        "The prevalence is a decimal or a fraction from 1e-300 to 1 − 1e-300 (prevalence "
        "1/20); prevalence off drops it.",
    ],
    cmd.Intervals: [
        "A confidence is from 0.5 to 0.9999999999999998 (intervals 0.9); on and off "
        "show or hide the intervals.",
    ],
}


#: Rows listed at most by ``rows`` and ``boundary`` unless a count is given.
ROWS_SHOWN = 100
#: The largest count ``rows`` or ``step`` takes: a typed number is never turned
#: into a huge integer (Python refuses more than 4300 digits with a ValueError).
MAX_COUNT = 10**9
_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)
UNSAVED_WARNING = "threshold-lab: warning: input ended with unsaved edits; they were not saved"


def parse_count(word: str, what: str, *, signed: bool) -> int | None:
    """``word`` as a whole number in ASCII digits, or None when it is not one.

    A number outside ``-MAX_COUNT..MAX_COUNT`` is refused (InputError) before it
    is converted, so a line of thousands of digits costs nothing.

    >>> parse_count("12", "rows", signed=False), parse_count("\u00b2", "rows", signed=False)
    (12, None)
    >>> parse_count("-3", "step", signed=True), parse_count("-3", "rows", signed=False)
    (-3, None)
    """
    if _WHOLE.fullmatch(word) is None or (not signed and word[0] in "+-"):
        return None
    digits = word.lstrip("+-").lstrip("0")
    if len(digits) > len(str(MAX_COUNT)) or int(digits or "0") > MAX_COUNT:
        shown = word if len(word) <= 20 else f"{word[:12]}... ({len(digits)} digits)"
        limit = f"-{MAX_COUNT} to {MAX_COUNT}" if signed else f"1 to {MAX_COUNT}"
        raise InputError(f"{what} {shown} is too large: use a whole number from {limit}")
    return int(word)


PLAIN_ORDERS = {"file": "file", "high": "score-desc", "low": "score-asc"}


def _noun(n: int) -> str:
    return "row" if n == 1 else "rows"


def _rows(n: int, kind: str = "") -> str:
    """``1 row``, ``3 rows``, ``2 more rows``."""
    return f"{n} {kind + ' ' if kind else ''}{_noun(n)}"


def _words(line: str) -> list[str]:
    """The words of a command line: quotes group words as in a shell, but a
    backslash is itself, so ids shown with escapes (``b\\nnew``) and Windows
    paths are typed as they are written."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=False)
    lexer.whitespace_split = True
    lexer.escape = ""
    lexer.commenters = ""
    return list(lexer)


class PlainSession:
    """Runs commands against a Session and writes plain lines to ``out``."""

    #: Commands refused so far: a script (input not a terminal) then exits 1.
    refused = 0

    def __init__(self, session: Session, out: TextIO) -> None:
        self.session = session
        self.out = out
        self._orders: RowOrder | None = None
        #: Each command plain mode takes (tui/commands.py), and what runs it.
        self.handlers: dict[type[Command], Handler] = {
            cmd.TypeThreshold: self.cmd_threshold,
            cmd.GroupNext: lambda args: self._move(args, lambda: self.session.group(1)),
            cmd.GroupPrev: lambda args: self._move(args, lambda: self.session.group(-1)),
            cmd.Lowest: lambda args: self._move(args, self.session.lowest),
            cmd.Step: self.cmd_step,
            cmd.Play: self.cmd_play,
            cmd.Status: lambda args: self._tell(args, lambda: [self.status()]),
            cmd.Rows: self.cmd_rows,
            cmd.Boundary: self.cmd_boundary,
            cmd.EditScore: self.cmd_set,
            cmd.SetLabel: self.cmd_label,
            cmd.AddRow: self.cmd_add,
            cmd.DeleteRow: self.cmd_delete,
            cmd.Undo: lambda args: self._change(args, self.session.undo),
            cmd.Redo: lambda args: self._change(args, self.session.redo),
            cmd.Reset: lambda args: self._change(args, self.session.reset),
            cmd.Presets: lambda args: (
                self.cmd_preset(args) if self._word == "preset" else self.cmd_presets(args)
            ),
            cmd.MoreMetrics: self.cmd_metrics,
            cmd.Explain: self.cmd_explain,
            cmd.Sweep: lambda args: self._tell(args, lambda: sweep_table(self._one("sweep"))),
            cmd.Roc: lambda args: self._tell(args, lambda: self._curve("roc")),
            cmd.Pr: lambda args: self._tell(args, lambda: self._curve("pr")),
            cmd.Intervals: self.cmd_intervals,
            cmd.Groups: lambda args: self._tell(args, self._groups),
            cmd.OwnThresholds: lambda args: self._change(args, self.session.toggle_own),
            cmd.GroupGoal: self.cmd_group_goal,
            cmd.Group: self.cmd_group,
            cmd.Models: lambda args: self._tell(args, self._models),
            cmd.Model: self.cmd_model,
            cmd.Compare: lambda args: self._tell(args, self._compare),
            cmd.Bootstrap: self.cmd_bootstrap,
            cmd.Calibration: self.cmd_calibration,
            cmd.Gains: lambda args: self._tell(
                args, lambda: gains_words(self.analysis.curves.gains, self.analysis)
            ),
            cmd.Ks: lambda args: self._tell(args, lambda: [ks_words(self.analysis.curves.ks)]),
            cmd.Readout: self.cmd_readout,
            cmd.PartialAuc: self.cmd_partial_auc,
            cmd.NetBenefit: self.cmd_net_benefit,
            cmd.UsefulRange: self.cmd_useful_range,
            cmd.Hull: lambda args: self._tell(args, lambda: cost_curve_lines(self.analysis)),
            cmd.Transform: self.cmd_transform,
            cmd.ClassList: lambda args: self._tell(args, self._classes),
            cmd.ShowClass: self.cmd_class,
            cmd.Classes: lambda args: self._tell(args, self._multiclass),
            cmd.Goal: self.cmd_goal,
            cmd.Prevalence: self.cmd_prevalence,
            cmd.Save: self.cmd_save,
            cmd.Help: self.cmd_help,
            cmd.Quit: lambda args: self.cmd_quit(args, self._word, force=False),
            cmd.QuitAnyway: lambda args: self.cmd_quit(args, self._word.rstrip("!"), force=True),
        }
        self.commands = {word: self.handlers[c] for word, c in plain_words().items()}
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

    def run_line(self, line: str) -> bool:
        """Run one command line; True means quit. Errors are one line, nothing changes;
        Ctrl-C stops the command, not the session."""
        try:
            return self._run_line(line)
        except KeyboardInterrupt:
            self.out.write("\n")
            self.say(f"Stopped {self._word or 'that'} (Ctrl-C). {self.status()}")
            return False

    def _run_line(self, line: str) -> bool:
        self._word = ""
        try:
            words = _words(line)
        except ValueError as exc:
            self.refused += 1
            self.say(f"error: cannot read that line ({exc}); type help for the commands")
            return False
        if not words:
            return False
        name, args = words[0].lower(), words[1:]
        command = self.commands.get(name)
        self._word = name
        if command is None:
            self.refused += 1
            self.say(f"error: unknown command {words[0]!r}; type help for the commands")
            return False
        before = self.session.analysis
        try:
            done = bool(command(args))
        except InputError as exc:
            self.refused += 1
            self.say(f"error: {exc}; nothing changed")
            return False
        moved = change_words(before, self.session.analysis)
        # model NAME shows other rows or another model's scores, which its own line says:
        # counts of two different things are not a move (all rows to fold 2 read "TP -101").
        if moved and name not in ("play", "model"):
            self.say(f"Moved: {moved}.")
        return done

    # --- operating points ----------------------------------------------------------

    def cmd_readout(self, args: list[str]) -> None:
        """``readout``: those asked for (--readout; by default the seven); ``readout fpr
        0.01,0.05`` or ``tpr 0.9``."""
        asked = parse_readouts(" ".join(args)) if args else self.session.asked.readouts
        self.say(*(readout_sentence(r) for r in readouts(self.analysis.sweep, asked)))

    def cmd_partial_auc(self, args: list[str]) -> None:
        """``partial auc fpr 0 0.1`` (or ``fpr:0-0.1``); ``partial auc`` alone: those
        --partial-auc asked for."""
        if not args or args[0].lower() != "auc":
            raise InputError("say partial auc, then the focus and the range: partial auc fpr 0 0.1")
        if len(args) == 1:
            found = self.session.asked.partial(self.analysis.sweep)
            if not found:
                raise InputError(
                    "partial auc: give the focus and the range, as in "
                    "partial auc fpr 0 0.1 (--partial-auc gave none)"
                )
            self.say(*(partial_auc_sentence(p) for p in found))
            return
        focus, low, high = parse_partial_auc(" ".join(args[1:]))
        self.say(partial_auc_sentence(partial_auc(self.analysis.sweep, focus, low, high)))

    # --- decision curves and costs --------------------------------------------------

    def cmd_net_benefit(self, args: list[str]) -> None:
        """``net benefit``: the decision curve on the --pt grid; ``net benefit 0.2``: at
        one pt, its counts filled in."""
        if not args or args[0].lower() != "benefit":
            raise InputError("say net benefit, or net benefit 0.2 for one threshold probability")
        d = self.session.decision_curve()
        if d.reason is not None:
            raise InputError(f"net benefit is undefined: {d.reason}")
        if len(args) == 1:
            self.say(*decision_curve_lines(d, self.session.sure))
            return
        if len(args) > 2:
            raise InputError(
                f"net benefit takes one threshold probability, not {' '.join(args[1:])!r}"
            )
        try:
            (pt,) = parse_pt(args[1])
        except InputError:
            raise InputError(
                f"net benefit {args[1]}: give one threshold probability strictly "
                "between 0 and 1, like net benefit 0.2"
            ) from None
        a = self.session.asked
        one = decision_curve(
            self.analysis.sweep, (pt,), harm=a.harm, prevalence=self.session.prevalence
        )
        self.say(net_benefit_sentence(one, one.grid[0], self.analysis.sweep))

    def cmd_useful_range(self, args: list[str]) -> None:
        """``useful range``: where acting on the model beats treating all and none."""
        if not args or args[0].lower() != "range" or len(args) > 1:
            raise InputError("say useful range")
        d = self.session.decision_curve()
        if d.reason is not None:
            raise InputError(f"net benefit is undefined: {d.reason}")
        self.say(useful_sentence(d)[0].upper() + useful_sentence(d)[1:] + ".")

    def _grouped(self) -> tuple[Report, int]:
        """The groups' report at the session's threshold (refused without groups)."""
        g = self.session.row_groups
        if g is None:
            raise InputError(
                "no groups: open a file with --group COL (a column naming each row's group)"
            )
        s = self.session
        return g.report(
            s.grouped_rows(),
            s.threshold,
            beta=s.beta,
            confidence=s.confidence,
            label=s.source,
            own=s.shown.own,
        )

    def _groups(self) -> list[str]:
        """``groups``: each group at the threshold, then the gaps."""
        r, added = self._grouped()
        c = r.contents
        assert c.group_column is not None
        lines = groups_lines(c.group_column, c.groups, c.gaps, r.threshold)
        if added:
            lines.append(
                f"({added} row{'s' if added != 1 else ''} added by an edit "
                f"{'have' if added != 1 else 'has'} no group and "
                f"{'are' if added != 1 else 'is'} left out.)"
            )
        return [line.strip() for line in lines if line.strip()]

    def cmd_group_goal(self, args: list[str]) -> None:
        """``group-goal CRITERION [E]``: per-group thresholds, each group's its own."""
        if not args or len(args) > 2:
            raise InputError(
                "say group-goal CRITERION [E], such as group-goal equal_opportunity 0.05"
            )
        self._said(self.session.solve_group_goal(args[0], args[1] if len(args) > 1 else None))

    def cmd_group(self, args: list[str]) -> None:
        """``group NAME``: one group's counts and every metric with its formula."""
        r, _ = self._grouped()
        names = [p.name for p in r.contents.groups]
        if not args:
            raise InputError(f"say group NAME; the groups are: {', '.join(names)}")
        name = " ".join(args)
        if name not in names:
            raise InputError(f"no group {name!r}; the groups are: {', '.join(names)}")
        part = r.contents.groups[names.index(name)]
        lines = [group_sentence(part)]
        lines += [m.formula for m in part.metrics().values() if m.value is not None]
        self.say(*lines)

    # --- helpers -------------------------------------------------------------------

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
        self.say(update.status, f"Now at {tie_group_text(update.analysis)}.")

    def _change(self, args: list[str], change: Callable[[], Update]) -> None:
        self._no_args(args)
        self._said(change())

    def _said(self, update: Update) -> None:
        """An edit's sentence, then the status sentence after it."""
        self.say(update.message, update.status)

    def _row(self, row_id: str) -> int:
        return self.session.row_index(row_id)

    @staticmethod
    def _expect(args: list[str], count: int, usage: str) -> None:
        if len(args) != count:
            raise InputError(f"expected {usage}")

    # --- commands ------------------------------------------------------------------

    def cmd_threshold(self, args: list[str]) -> None:
        self._expect(args, 1, "threshold T, such as threshold 0.5 or threshold above-all")
        update = self.session.set_threshold(parse_threshold(args[0]))
        self.say(update.status, f"Now at {tie_group_text(update.analysis)}.")

    def cmd_step(self, args: list[str]) -> None:
        self._expect(args, 1, "step N, such as step 1 or step -10")
        steps = parse_count(args[0], "step", signed=True)
        if steps is None:
            raise InputError(f"step {args[0]!r} is not a whole number")
        self.say(self.session.step(steps).status)

    def cmd_play(self, args: list[str]) -> None:
        self._no_args(args)
        update = self.session.set_threshold(None)
        self.say(step_sentence(update.analysis), update.status)
        while update.analysis.point < update.analysis.sweep.size - 1:
            update = self.session.group(1)
            self.say(step_sentence(update.analysis), update.status)

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

    def cmd_calibration(self, args: list[str]) -> None:
        bins, binning = BINS, "mass"
        for word in args:
            if word.lower() in BINNINGS:
                binning = word.lower()
            elif word.strip().lstrip("+-").isdigit():
                bins = parse_bins(word)
            else:
                raise InputError(
                    f"calibration takes a number of bins and mass or width, not {word!r}"
                )
        self.say(*calibration_words(self.analysis.curves.calibration(bins, binning)))

    def _classes(self) -> list[str]:
        s = self.session
        mc = s.multiclass
        if mc is None:
            return [
                "Two classes (a binary problem): class C and multiclass need a label column "
                "of class names and score_<class> columns."
            ]
        r = s.multiclass_summary()
        assert r is not None
        return classes_words(r, s.klass)

    def _multiclass(self) -> list[str]:
        r = self.session.multiclass_summary()
        if r is None:
            return self._classes()
        return multiclass_words(r)

    def cmd_class(self, args: list[str]) -> None:
        if len(args) != 1:
            raise InputError("expected class C (classes lists them)")
        self._said(self.session.set_class(args[0]))

    def cmd_transform(self, args: list[str]) -> None:
        if len(args) != 1:
            raise InputError(
                f"expected transform NAME, one of: {', '.join(TRANSFORMS)} (undo goes back)"
            )
        self._said(self.session.transform(args[0]))

    def cmd_set(self, args: list[str]) -> None:
        if len(args) != 3 or args[1].lower() != "score":
            raise InputError("expected set ID score S, such as set s2 score 0.7")
        i = self._row(args[0])
        self._said(self.session.set_score(i, args[2]))

    def cmd_label(self, args: list[str]) -> None:
        self._expect(args, 2, "label ID 0|1, such as label s2 1")
        i = self._row(args[0])
        self._said(self.session.set_label(i, args[1]))

    def cmd_add(self, args: list[str]) -> None:
        self._expect(args, 2, "add SCORE LABEL, such as add 0.3 1")
        self._said(self.session.add_row(args[0], args[1]))

    def cmd_delete(self, args: list[str]) -> None:
        self._expect(args, 1, "delete ID, such as delete s2")
        self._said(self.session.delete_row(self._row(args[0])))

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

    def cmd_presets(self, args: list[str]) -> None:
        self._no_args(args)
        self.say(*(f"{p.name}: {p.description}" for p in PRESETS.values()))

    def _sure(self) -> Sure | None:
        """The intervals to show, running the bootstrap first when one is wanted."""
        job = self.session.boot_job()
        if job is not None:
            self.say(f"Bootstrapping {job.replicates} replicates...")
            self.session.boot_done(job, job.run())
        return self.session.sure

    def _curve(self, kind: str) -> list[str]:
        a = self.analysis
        d = self.session.current().deciding
        goal = d.decision.index if d and d.decision and d.decision.feasible else None
        found = self.session.asked.read(a.sweep)
        lines = curve_words(a, kind, notable=notable_points(a, found, goal))
        q = self.session.quantisation
        if kind == "roc" and q is not None:
            lines += [line.strip() for line in quantised_lines(a, q)]
        sure = self._sure()
        if sure is None or len(lines) < 2:
            return lines
        return lines + curve_interval_words(a, kind, sure)

    def _models(self) -> list[str]:
        s = self.session
        if not s.models:
            return [
                "One model: these rows have one score column (open a file with score_A, "
                "score_B, ... or --score-column twice to compare models)."
            ]
        lines = [f"{len(s.models)} models of the same {s.data.n} rows:"]
        if s.pooled:
            parts = "folds" if s.folds else "groups"
            lines = [
                f"Every row pooled, then {len(s.models) - 1} {parts} by {s.group_by}, each "
                "its own rows (model NAME shows one):"
            ]
        elif not s.paired:
            lines = [
                f"{len(s.models)} groups by {s.group_by}, each its own rows (model NAME shows one):"
            ]
        own = s.shown.own
        for row in s.model_rows():
            at = "threshold " + format_threshold(s.threshold)
            if own is not None:
                at = (
                    "each group's own threshold"
                    if row.name not in own
                    else "threshold " + format_threshold(own[row.name])
                )
            shown = " (shown)" if row.shown else ""
            q = s.quantised.get(row.name)
            if q is not None:
                shown += f" ({q.words()})"
            k = row.metrics
            lines.append(
                f"{row.name}{shown}: ROC AUC {_v(row.auc)}, average precision {_v(row.ap)}; "
                f"at {at}, precision {_v(k['precision'])}, recall {_v(k['recall'])}, "
                f"F1 {_v(k['f1'])}."
            )
        return lines

    def cmd_model(self, args: list[str]) -> None:
        self._expect(args, 1, "model NAME (models lists them)")
        self._said(self.session.set_model(args[0]))

    def _compare(self) -> list[str]:
        s = self.session
        if not s.models:
            return self._models()
        lines = []
        if s.dirty:
            lines.append("(The models as loaded: the edits to the rows shown are not included.)")
        for c in s.comparisons():
            lines += [line.strip() for line in c.detail_lines()]
        return lines

    def cmd_intervals(self, args: list[str]) -> None:
        self._expect(args, 1, "intervals on, intervals off, or intervals C (a confidence like 0.9)")
        self._said(self.session.set_intervals(args[0]))

    def cmd_bootstrap(self, args: list[str]) -> None:
        sure = self.session.sureness
        before = (sure.replicates, sure.seed, sure.intervals)
        try:
            self._bootstrap(args)
        except KeyboardInterrupt:  # stopped before it finished: as it was before
            sure.replicates, sure.seed, sure.intervals = before
            raise

    def _bootstrap(self, args: list[str]) -> None:
        usage = "bootstrap B (replicates, such as 1000), bootstrap B seed S, or bootstrap off"
        if len(args) == 3 and args[1].lower() == "seed":
            self._said(self.session.set_bootstrap(args[0], args[2]))
        elif len(args) == 1:
            self._said(self.session.set_bootstrap(args[0]))
        else:
            raise InputError(f"expected {usage}")
        if self.session.replicates is not None:
            sure = self._sure()
            a = self.analysis
            if sure is not None:
                self.say(*boot_summary_words(a, sure))

    def cmd_metrics(self, args: list[str]) -> None:
        self._no_args(args)
        a = self.analysis
        if isinstance(a, PooledAnalysis):
            pooled = a.pooled_words()
            where = f"Metrics of {pooled[:1].lower()}{pooled[1:]} ({a.thresholds_words()})"
        else:
            where = f"Metrics at threshold {threshold_words(a.threshold, a.sweep.thresholds)}"
        self.say(f"{where}:")
        self.say(*metrics_section(a, self._sure(), "bootstrap B"))
        at = self.session.current().at_prevalence
        prevalence = self.session.prevalence
        if at is not None and prevalence is not None:
            self.say(*prevalence_section(at, prevalence))

    def cmd_explain(self, args: list[str]) -> None:
        key = metric_key(" ".join(args)) if args else None
        if key is None:
            names = ", ".join([*METRIC_NAMES, *SUMMARY_WORDS])
            got = f" {' '.join(args)!r}" if args else ""
            raise InputError(f"explain what{got}? metrics are: {names} (any case, spaces allowed)")
        self.say(explain(self.analysis, key))

    def cmd_goal(self, args: list[str]) -> None:
        if not args:
            d = self.session.current().deciding
            if d is None or d.goal is None:
                self.say("No goal is set; for example: goal max precision where recall >= 0.9")
            elif d.decision is None:
                self.say(f"Goal {d.goal.text()}: {d.problem}.")
            else:
                self.say(decision_sentence(d.decision, self.analysis.sweep))
            return
        self._said(self.session.set_goal(" ".join(args)))

    def cmd_prevalence(self, args: list[str]) -> None:
        self._expect(args, 1, "prevalence P (0 < P < 1, such as 0.05 or 1/20), or prevalence off")
        self._said(self.session.set_prevalence(args[0]))

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


def run_plain(
    session: Session,
    lines: Iterable[str],
    out: TextIO,
    *,
    prompt: bool,
    err: TextIO | None = None,
    script: bool | None = None,
    opening: str = "",
) -> int:
    """Read commands until quit or end of input. The exit status is 0, or 1 when
    input ended with unsaved edits (a warning says so on ``err``, stderr by default)
    or when ``script`` (by default: without a prompt) and any command was refused,
    so a script can tell."""
    script = not prompt if script is None else script
    stream = sys.stderr if err is None else err
    try:
        return _read(PlainSession(session, out), lines, prompt, stream, script, opening)
    except HangUp as hang:
        return hang.recover(session, stream)


def _read(
    plain: PlainSession,
    typed: Iterable[str],
    prompt: bool,
    stream: TextIO,
    script: bool,
    opening: str,
) -> int:
    """:func:`run_plain`'s loop: greet, then run each line (Ctrl-C at the prompt
    leaves, after asking when there are unsaved edits)."""
    session, out = plain.session, plain.out
    plain.say(
        f"threshold-lab plain mode: {session.source}, {session.data.n} rows. "
        "Type help for the commands, quit to leave."
    )
    plain.say(plain.status())
    if opening:  # what the command line's --transform did, a recovery file found
        plain.say(opening)
    if prompt:
        out.write("> ")
        out.flush()
    lines = iter(typed)
    interrupted = False  # the last thing typed was Ctrl-C at the prompt
    while True:
        try:
            line = next(lines)
        except StopIteration:
            break
        except KeyboardInterrupt:
            line = INTERRUPT
        if line == INTERRUPT:
            out.write("\n")
            if not session.dirty or interrupted:
                _lost(session, stream)
                return 130
            interrupted = True
            plain.say(
                "There are unsaved edits: Ctrl-C again or quit! to leave and lose "
                "them, save PATH to keep them."
            )
        else:
            interrupted = False
            if plain.run_line(line.rstrip("\n")):
                return 1 if script and plain.refused else 0
        if prompt:
            out.write("> ")
            out.flush()
    if session.dirty:
        if prompt:
            out.write("\n")
            out.flush()
        stream.write(UNSAVED_WARNING + "\n")
        stream.flush()
        return 1
    return 1 if script and plain.refused else 0


#: The line the typed-lines reader gives for Ctrl-C at the prompt.
INTERRUPT = "\x03"


def _lost(session: Session, stream: TextIO) -> None:
    """Leaving on Ctrl-C: say so when edits go with it."""
    if session.dirty:
        stream.write("threshold-lab: interrupted; the unsaved edits were not saved\n")
        stream.flush()


class HangUp(BaseException):
    """SIGHUP or SIGTERM arrived: unwind to :func:`run_plain`, which keeps the edits.

    A BaseException, so no ``except Exception`` on the way swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum

    def recover(self, session: Session, stream: TextIO) -> int:
        """Write unsaved edits to a recovery file, say so (if stderr is still there)
        and give the exit status a signal's end has (128 + its number)."""
        said = recovery.kept(session.recover, self.signum)
        if said:
            with contextlib.suppress(OSError, ValueError):
                stream.write(f"threshold-lab: {said}\n")
                stream.flush()
        return 128 + self.signum


def _hang_up(signum: int, frame: object) -> None:
    raise HangUp(signum)


def _typed_lines() -> Iterator[str]:
    """Lines typed at a terminal, with line editing and history (``readline``,
    where Python has it): arrows recall and edit earlier commands."""
    with contextlib.suppress(ImportError):
        import readline  # noqa: F401 -- importing it gives input() editing and history
    while True:
        try:
            yield input("> ") + "\n"
        except (EOFError, OSError) as end:
            # The terminal hung up with no SIGHUP here (it went to the process the
            # terminal belongs to, make under `make run`): the edits are kept as on
            # SIGHUP. Ctrl-D on a terminal still there is the end of input as before.
            if hung_up(sys.stdin):
                raise HangUp(signal.SIGHUP) from None
            if isinstance(end, OSError):
                raise
            sys.stdout.write("\n")
            return
        except KeyboardInterrupt:
            yield INTERRUPT


def main_plain(session: Session, opening: str = "") -> int:
    """Plain mode on the process's stdin/stdout; on a terminal, a prompt with line
    editing and history. A hang-up (SIGHUP, SIGTERM) keeps unsaved edits in a
    recovery file."""
    for sig in (signal.SIGHUP, signal.SIGTERM):
        signal.signal(sig, _hang_up)
    if sys.stdin.isatty():
        return run_plain(
            session, _typed_lines(), sys.stdout, prompt=False, script=False, opening=opening
        )
    return run_plain(session, sys.stdin, sys.stdout, prompt=False, opening=opening)


def _v(m: Metric) -> str:
    return m.short() if m.value is not None else "undefined"
