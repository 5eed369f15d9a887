"""Plain mode's dispatcher: each line's first word to the command that runs it,
one line of error for anything refused, and what moved said after a change."""

from __future__ import annotations

from typing import TextIO

from threshold_lab.core.curves.corners import corner_lines
from threshold_lab.core.errors import InputError
from threshold_lab.core.session.rowview import (
    RowOrder,
)
from threshold_lab.core.session.session import Session
from threshold_lab.core.text.calibration import gains_words, ks_words
from threshold_lab.core.text.decision import (
    cost_curve_lines,
)
from threshold_lab.core.text.sentences import (
    change_words,
)
from threshold_lab.core.text.sweep_table import sweep_table
from threshold_lab.tui import commands as cmd
from threshold_lab.tui.commands import Command, plain_words
from threshold_lab.tui.plain.deciding import Deciding
from threshold_lab.tui.plain.describing import Describing
from threshold_lab.tui.plain.hangup import acted_on
from threshold_lab.tui.plain.lessons import Lessons
from threshold_lab.tui.plain.models import Models
from threshold_lab.tui.plain.rows import Rows
from threshold_lab.tui.plain.settings import Settings
from threshold_lab.tui.plain.words import (
    Handler,
    _words,
)


class PlainSession(Rows, Lessons, Describing, Deciding, Models, Settings):
    """Runs commands against a Session and writes plain lines to ``out``: each
    command's word (tui/commands.py) to its handler."""

    def __init__(self, session: Session, out: TextIO) -> None:
        self.session = session
        self.out = out
        self._orders: RowOrder | None = None
        #: Each command plain mode takes (tui/commands.py), and what runs it.
        self.handlers: dict[type[Command], Handler] = {
            cmd.TypeThreshold: self.cmd_threshold,
            cmd.GroupNext: lambda args: self._walk_move(args, lambda: self.session.group(1)),
            cmd.GroupPrev: lambda args: self._walk_move(args, lambda: self.session.group(-1)),
            cmd.WalkN: lambda args: self._walk_move(args, lambda: self.session.group(1)),
            cmd.WalkP: lambda args: self._walk_move(args, lambda: self.session.group(-1)),
            cmd.WalkFirst: lambda args: self._walk_move(args, lambda: self.session.to_point(0)),
            cmd.WalkLast: lambda args: self._walk_move(args, self.session.lowest),
            cmd.Walk: self.cmd_walk,
            cmd.Lowest: lambda args: self._move(args, self.session.lowest),
            cmd.Step: self.cmd_step,
            cmd.Play: self.cmd_play,
            cmd.Status: lambda args: self._tell(args, lambda: [self.status(), *self.in_force()]),
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
            cmd.Braille: self.cmd_braille,
            cmd.Sound: self.cmd_sound,
            cmd.DescribeCurve: self.cmd_describe,
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
            cmd.PowerCommand: lambda args: self.say(*self._power(args)),
            cmd.RocSmooth: self.cmd_smooth,
            cmd.Corners: lambda args: self._tell(
                args,
                lambda: corner_lines(self.analysis.sweep, self.analysis.curves.local_maxima),
            ),
            cmd.Transform: self.cmd_transform,
            cmd.ClassList: lambda args: self._tell(args, self._classes),
            cmd.ShowClass: self.cmd_class,
            cmd.Classes: lambda args: self._tell(args, self._multiclass),
            cmd.Goal: self.cmd_goal,
            cmd.BandGoal: self.cmd_band,
            cmd.Stability: self.cmd_stability,
            cmd.Prevalence: self.cmd_prevalence,
            cmd.Save: self.cmd_save,
            cmd.Options: self.cmd_options,
            cmd.SetOption: self.cmd_option,
            cmd.LessonCommand: self.cmd_lesson,
            cmd.Regenerate: self.cmd_regenerate,
            cmd.Help: self.cmd_help,
            cmd.Quit: lambda args: self.cmd_quit(args, self._word, force=False),
            cmd.QuitAnyway: lambda args: self.cmd_quit(args, self._word.rstrip("!"), force=True),
        }
        self.commands = {word: self.handlers[c] for word, c in plain_words().items()}
        #: The word of the command running (quit and exit, preset and presets share one).
        self._word = ""

    def cmd_regenerate(self, args: list[str]) -> None:
        """``overlap up|down``, ``balance up|down``: generated rows made again."""
        what = self._word
        if len(args) != 1 or args[0].lower() not in ("up", "down"):
            raise InputError(f"say {what} up or {what} down")
        step = 1 if args[0].lower() == "up" else -1
        self.say(self.session.regenerate(what, step).message)
        self.say(self.status())

    def run_line(self, line: str) -> bool:
        """Run one command line; True means quit. Errors are one line, nothing changes;
        Ctrl-C stops the command, not the session."""
        acted_on()  # a stop that came between commands is not this command's
        try:
            return self._run_line(line)
        except KeyboardInterrupt:
            acted_on()
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
        try:
            if self.lesson_line(words):  # a lesson takes its own words, and answers, first
                return False
        except InputError as exc:
            self.refused += 1
            self.say(f"error: {exc}")
            return False
        if not words:
            return False
        name, args = words[0].lower(), words[1:]
        command = self.commands.get(name)
        if command is None and name.endswith(":"):  # "band: max coverage ...", as a goal is written
            name = name[:-1]
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
        moved = change_words(before, self.session.analysis, metrics=not self.metrics_hidden())
        # model NAME shows other rows or another model's scores, and overlap, balance and
        # a lesson make other rows, which their own lines say:
        # counts of two different things are not a move (all rows to fold 2 read "TP -101").
        if moved and name not in ("play", "model", "overlap", "balance", "lesson"):
            self.say(f"Moved: {moved}.")
        return done
