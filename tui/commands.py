"""Every command of the explorer and of plain mode, declared once.

A command is a small class whose docstring is its label (help, the command palette,
a binding's tooltip). On it live its explorer key (``KEY``, Textual's names), the
binding's ``ID``, its footer text (``FOOTER``) and whether the footer shows it
(``SHOW``), the action it runs (``ACTION``, on the main screen, the row table or the
sweep table: ``ON``), its help section (``GROUP``), and plain mode's word
(``PLAIN``: its usage, the first word being the word typed) with a sentence of help
for plain mode where the label alone would not do (``PLAIN_HELP``). The explorer's
bindings, the command palette and help, and plain mode's words and help are all
made from :data:`COMMANDS`. Nothing here imports Textual: plain mode runs without it.

>>> [c.__name__ for c in COMMANDS if c.KEY == "ctrl+z"], Undo.label(), Undo.word()
(['Undo'], 'Undo the last edit', 'undo')
"""

from __future__ import annotations

import inspect
from typing import ClassVar

#: Help's sections, in the order people learn them.
GROUPS = (
    "Threshold",
    "Rows",
    "Edits",
    "Deciding",
    "Models",
    "Classes",
    "How sure",
    "Panes",
    "Views and playback",
    "Data and the app",
    "Describe",
    "Other keys",
)


#: The charts ``c`` cycles through, in its order: each chart mode's short name, and
#: what it shows (the message on reaching it says so). Help, the palette and the
#: messages read them here; :mod:`threshold_lab.tui.state.chart_modes` types them.
CHARTS: dict[str, tuple[str, str]] = {
    "roc": ("ROC", "the ROC curve"),
    "pr": ("PR", "the precision-recall curve"),
    "both": ("both", "ROC and precision-recall side by side"),
    "metrics": ("metrics", "precision, recall, F1 and queue rate against the threshold"),
    "reliability": (
        "reliability",
        "the reliability diagram (observed rate by mean score per bin)",
    ),
    "gains": ("gains", "cumulative gains (share of positives captured by share of rows)"),
    "det": ("DET", "the DET curve (FNR against FPR, both on probit axes)"),
    "decision": ("decision curve", "the decision curve (net benefit by pt)"),
    "cost": ("cost curves", "cost curves (expected cost by PC(+))"),
}
_CHART_LIST = ", ".join(name for name, _ in CHARTS.values())


class Command:
    """A command (the base class: its subclasses are the commands)."""

    KEY: ClassVar[str | None] = None
    ID: ClassVar[str] = ""
    FOOTER: ClassVar[str] = ""
    SHOW: ClassVar[bool] = False
    KEY_DISPLAY: ClassVar[str | None] = None
    ACTION: ClassVar[str] = ""
    #: Where the key is bound: the main ``screen``, the ``rows`` table or the ``sweep``.
    ON: ClassVar[str] = "screen"
    GROUP: ClassVar[str] = "Other keys"
    PLAIN: ClassVar[str | None] = None
    PLAIN_HELP: ClassVar[str | None] = None
    #: Whether the line of keys the footer has no room for lists it: not a key the
    #: footer already shows as part of a range (2, 3 and 4 are its "1-4 Panes").
    ON_KEY_LINE: ClassVar[bool] = True

    @classmethod
    def label(cls) -> str:
        """What it does, in a few words: the docstring's first paragraph."""
        doc = inspect.getdoc(cls) or ""
        return " ".join(doc.split("\n\n")[0].split())

    @classmethod
    def word(cls) -> str | None:
        """The word plain mode knows it by (None: the explorer's only)."""
        return None if cls.PLAIN is None else cls.PLAIN.split()[0]

    @classmethod
    def plain_help(cls) -> str:
        return cls.PLAIN_HELP or cls.label()


# --- the threshold ------------------------------------------------------------------


class StepDown(Command):
    """Threshold down by 0.01"""

    KEY = "left"
    ID = "threshold-down"
    FOOTER = "-0.01"
    SHOW = True
    ACTION = "step(-1)"
    GROUP = "Threshold"


class StepUp(Command):
    """Threshold up by 0.01"""

    KEY = "right"
    ID = "threshold-up"
    FOOTER = "+0.01"
    SHOW = True
    ACTION = "step(1)"
    GROUP = "Threshold"


class StepDownBig(Command):
    """Threshold down by 0.1"""

    KEY = "shift+left"
    ID = "threshold-down-big"
    FOOTER = "-0.1"
    ACTION = "step(-10)"
    GROUP = "Threshold"


class StepUpBig(Command):
    """Threshold up by 0.1"""

    KEY = "shift+right"
    ID = "threshold-up-big"
    FOOTER = "+0.1"
    ACTION = "step(10)"
    GROUP = "Threshold"


class GroupPrev(Command):
    """Previous tie group (threshold up to the next distinct score); with the ROC,
    PR or DET chart shown, a walk step back, said in words"""

    KEY = "left_square_bracket"
    ID = "group-prev"
    FOOTER = "Prev group"
    ACTION = "group(-1)"
    GROUP = "Threshold"
    PLAIN = "prev"
    PLAIN_HELP = "move to the previous tie group (a higher threshold)"


class GroupNext(Command):
    """Next tie group (the next distinct score enters, ties together); with the
    ROC, PR or DET chart shown, a walk step, said in words"""

    KEY = "right_square_bracket"
    ID = "group-next"
    FOOTER = "Next group"
    ACTION = "group(1)"
    GROUP = "Threshold"
    PLAIN = "next"
    PLAIN_HELP = "move to the next tie group (a lower threshold; tied rows enter together)"


class Walk(Command):
    """Walk a curve point by point, each step said in words"""

    PLAIN = "walk roc|pr|det|off, walk to readout|hull|chance|best ..."
    GROUP = "Describe"
    PLAIN_HELP = (
        "walk the curve from the active point: next and prev (n, p) move one point, "
        "first and last to the ends, each step said: its coordinates as counts, the "
        "step's direction and slope, the threshold and the rows that entered; walk to "
        "readout fpr 0.01, walk to hull (the next hull vertex), walk to chance (the next "
        "point on or below the diagonal), walk to best GOAL; walk off stops"
    )


class WalkN(Command):
    """Next point of the walk (next tie group)"""

    PLAIN = "n"
    GROUP = "Describe"
    PLAIN_HELP = "next, said shortly: the next point of a walk (the next tie group)"


class WalkP(Command):
    """Previous point of the walk (previous tie group)"""

    PLAIN = "p"
    GROUP = "Describe"
    PLAIN_HELP = "prev, said shortly: the previous point of a walk"


class WalkFirst(Command):
    """The first point: above all scores"""

    PLAIN = "first"
    GROUP = "Describe"
    PLAIN_HELP = "the curve's first point (above all scores, nothing predicted positive)"


class WalkLast(Command):
    """The last point: the lowest score"""

    PLAIN = "last"
    GROUP = "Describe"
    PLAIN_HELP = "the curve's last point (the lowest score: every row predicted positive)"


class AboveAll(Command):
    """Above all scores: nothing predicted positive"""

    KEY = "home"
    ID = "above-all"
    FOOTER = "Above all"
    ACTION = "above_all"
    GROUP = "Threshold"


class Lowest(Command):
    """The lowest score: everything predicted positive"""

    KEY = "end"
    ID = "lowest"
    FOOTER = "Lowest"
    ACTION = "lowest"
    GROUP = "Threshold"
    PLAIN = "lowest"


class NextReadout(Command):
    """Threshold to the next readout (TPR at an FPR, FPR at a TPR)

    Round the seven in turn: TPR at FPR <= 0.001, 0.01, 0.05, 0.1, then FPR at TPR >=
    0.9, 0.95, 0.99."""

    KEY = "R"
    ID = "next-readout"
    FOOTER = "Readout"
    ACTION = "next_readout"
    GROUP = "Threshold"


class TypeThreshold(Command):
    """Type a threshold (a number, or above-all)"""

    KEY = "t"
    ID = "type-threshold"
    FOOTER = "Threshold"
    SHOW = True
    ACTION = "type_threshold"
    GROUP = "Threshold"
    PLAIN = "threshold T | threshold above-all"
    PLAIN_HELP = "set the threshold (positive if score >= T), or above all scores"


class Step(Command):
    """Move the threshold by N × 0.01 (negative goes down)"""

    PLAIN = "step N"
    GROUP = "Threshold"


class EditScore(Command):
    """Edit the selected row's score"""

    KEY = "enter"
    ID = "edit-score"
    FOOTER = "Edit"
    ACTION = "request('edit-score')"
    ON = "rows"
    GROUP = "Edits"
    PLAIN = "set ID score S"
    PLAIN_HELP = (
        "set a row's score (ID: its id; a whole number no id matches is the row's number from 1)"
    )


class FlipLabel(Command):
    """Flip the selected row's actual label"""

    KEY = "space"
    ID = "flip-label"
    FOOTER = "Flip"
    ACTION = "request('flip-label')"
    ON = "rows"
    GROUP = "Edits"


class SetLabel(Command):
    """Set a row's actual label"""

    PLAIN = "label ID 0|1"
    GROUP = "Edits"
    PLAIN_HELP = "set a row's actual label (ID as for set: its id, else its number from 1)"


# --- the app (early in the footer: at 80 columns its end is cut off) ------------------


class Help(Command):
    """Every key, grouped, and what the marks mean"""

    KEY = "question_mark"
    ID = "help"
    FOOTER = "Help"
    SHOW = True
    ACTION = "help"
    GROUP = "Data and the app"
    PLAIN = "help | help TOPIC | help COMMAND | help all"
    PLAIN_HELP = "the topics; a topic's commands; one command; every command"


class Quit(Command):
    """Quit"""

    KEY = "q"
    ID = "quit"
    FOOTER = "Quit"
    SHOW = True
    ACTION = "quit_app"
    GROUP = "Data and the app"
    PLAIN = "quit | exit"
    PLAIN_HELP = "leave (refused while edits are unsaved); quit! or exit! leaves anyway"


# --- rows and edits -------------------------------------------------------------------


class AddRow(Command):
    """Add a row"""

    KEY = "a"
    ID = "add-row"
    FOOTER = "Add"
    ACTION = "add_row"
    GROUP = "Edits"
    PLAIN = "add SCORE LABEL"
    PLAIN_HELP = "add a row at the end, such as add 0.3 1"


class DeleteRow(Command):
    """Remove the selected row"""

    KEY = "delete"
    ID = "delete-row"
    FOOTER = "Delete"
    ACTION = "request('delete-row')"
    ON = "rows"
    GROUP = "Edits"
    PLAIN = "delete ID"
    PLAIN_HELP = "remove a row (ID as for set; undo brings it back)"


class Undo(Command):
    """Undo the last edit"""

    KEY = "ctrl+z"
    ID = "undo"
    FOOTER = "Undo"
    ACTION = "undo"
    GROUP = "Edits"
    PLAIN = "undo"


class Redo(Command):
    """Redo an undone edit"""

    KEY = "ctrl+y"
    ID = "redo"
    FOOTER = "Redo"
    ACTION = "redo"
    GROUP = "Edits"
    PLAIN = "redo"


# --- panes ------------------------------------------------------------------------------


class PaneMatrix(Command):
    """Pane 1: the confusion matrix and the metrics"""

    KEY = "1"
    ID = "pane-matrix"
    FOOTER = "Panes"
    SHOW = True
    ACTION = "pane('matrix')"
    GROUP = "Panes"
    KEY_DISPLAY = "1-4"


class PaneChart(Command):
    """Pane 2: the chart"""

    KEY = "2"
    ID = "pane-chart"
    ON_KEY_LINE = False  # the footer's "1-4 Panes"
    FOOTER = "Chart pane"
    ACTION = "pane('chart')"
    GROUP = "Panes"


PaneChart.__doc__ = f"Pane 2: the chart (c for the next of its {len(CHARTS)})"


class PaneRows(Command):
    """Pane 3: the rows and the score strip"""

    KEY = "3"
    ID = "pane-rows"
    ON_KEY_LINE = False  # the footer's "1-4 Panes"
    FOOTER = "Rows pane"
    ACTION = "pane('rows')"
    GROUP = "Panes"


class PaneSweep(Command):
    """Pane 4: the sweep table (up and down step through it)"""

    KEY = "4"
    ID = "pane-sweep"
    ON_KEY_LINE = False  # the footer's "1-4 Panes"
    FOOTER = "Sweep pane"
    ACTION = "pane('sweep')"
    GROUP = "Panes"


class PaneAll(Command):
    """Every pane at once, where the screen has room"""

    KEY = "0"
    ID = "pane-all"
    FOOTER = "All panes"
    ACTION = "pane('all')"
    GROUP = "Panes"


# --- deciding, models, classes, how sure -------------------------------------------------


class Goal(Command):
    """Decide: the threshold a goal chooses"""

    KEY = "d"
    ID = "goal"
    FOOTER = "Goal"
    SHOW = True
    ACTION = "goal"
    GROUP = "Deciding"
    PLAIN = "goal GOAL | goal | goal off"
    PLAIN_HELP = (
        "choose the threshold for a goal (max precision where recall >= 0.9; "
        "min cost fp=1 fn=5), say it, or drop it"
    )


class BandGoal(Command):
    """A review band: accept above one threshold, reject below another, review between"""

    KEY = "D"
    ID = "band"
    FOOTER = "Band"
    ACTION = "band"
    GROUP = "Deciding"
    ON_KEY_LINE = False  # no room on it at 200 columns; help, the palette and the band line say it
    PLAIN = "band GOAL | band up | band down | band off"
    PLAIN_HELP = (
        "two thresholds, solved exactly over every pair: accept rows at or above the upper "
        "(the threshold moves there), reject those below the lower, review the rest (band: "
        "max coverage where precision >= 0.99 and npv >= 0.995; band: min cost fp=10 fn=50 "
        "review=1); up and down move the lower a tie group; off drops the band"
    )


class BandLowUp(Command):
    """With a band: its reject threshold up a tie group (more rows rejected, fewer
    reviewed)"""

    KEY = "left_curly_bracket"
    ID = "band-low-up"
    FOOTER = "Reject up"
    ACTION = "band_low(-1)"
    GROUP = "Deciding"
    ON_KEY_LINE = False  # no room on it at 200 columns; help, the palette and the band line say it


class BandLowDown(Command):
    """With a band: its reject threshold down a tie group (fewer rows rejected, more
    reviewed)"""

    KEY = "right_curly_bracket"
    ID = "band-low-down"
    FOOTER = "Reject down"
    ACTION = "band_low(1)"
    GROUP = "Deciding"
    ON_KEY_LINE = False  # no room on it at 200 columns; help, the palette and the band line say it


class Stability(Command):
    """How stable a goal's threshold is over the folds"""

    GROUP = "Deciding"
    PLAIN = "stability [GOAL] [within E [in Q]]"
    PLAIN_HELP = (
        "opened with --fold: the goal (or the one set) solved on each fold, each fold's "
        "threshold used on the others (what it loses there), the one threshold best on "
        "average, and with within E the thresholds within E of the optimum on Q folds"
    )


class Prevalence(Command):
    """Every metric also at a deployment prevalence"""

    KEY = "w"
    ID = "prevalence"
    FOOTER = "What-if"
    ACTION = "prevalence"
    GROUP = "Deciding"
    PLAIN = "prevalence P | prevalence off"
    PLAIN_HELP = "the metrics also where positives are a share P (1/20)"


class Transform(Command):
    """Transform the scores (square, log, rank ...): one undoable edit"""

    KEY = "T"
    ID = "transform"
    FOOTER = "Transform"
    ACTION = "transform"
    GROUP = "Edits"
    PLAIN = "transform NAME"
    PLAIN_HELP = (
        "square, sqrt, log, logit, expit, rank or affine:A,B of every score (one "
        "edit: undo goes back)"
    )


class NextClass(Command):
    """Several classes: show the next class against the rest"""

    KEY = "C"
    ID = "next-class"
    FOOTER = "Class"
    ACTION = "next_class"
    GROUP = "Classes"


class Classes(Command):
    """Several classes: the k×k matrix, per-class metrics and averages"""

    KEY = "K"
    ID = "classes"
    FOOTER = "Classes"
    ACTION = "classes"
    GROUP = "Classes"
    PLAIN = "multiclass"
    PLAIN_HELP = "several classes: the summary (the matrix, per class, the averages)"


class NextModel(Command):
    """Show the next model, or the next group alone"""

    KEY = "M"
    ID = "next-model"
    FOOTER = "Model"
    ACTION = "next_model"
    GROUP = "Models"


class Reset(Command):
    """Reset to the rows and threshold as loaded (itself undoable)"""

    KEY = "r"
    ID = "reset"
    FOOTER = "Reset"
    SHOW = True
    ACTION = "reset"
    GROUP = "Edits"
    PLAIN = "reset"


class CycleChart(Command):
    """Chart: the next one"""

    KEY = "c"
    ID = "cycle-chart"
    FOOTER = "Chart"
    SHOW = True
    ACTION = "cycle_chart"
    GROUP = "Views and playback"


CycleChart.__doc__ = f"Chart: the next of {_CHART_LIST}"


class LogFpr(Command):
    """ROC chart: FPR on a log scale, or linear again"""

    KEY = "l"
    ID = "log-fpr"
    FOOTER = "Log FPR"
    ACTION = "log_fpr"
    GROUP = "Views and playback"
    #: The ROC chart's own message says it (c to the ROC chart); the key line has no
    #: room for one more at 200 columns without a third line.
    ON_KEY_LINE = False


class RocHull(Command):
    """ROC chart: its convex hull, shown or hidden"""

    KEY = "h"
    ID = "roc-hull"
    FOOTER = "Hull"
    ACTION = "roc_hull"
    GROUP = "Views and playback"
    #: The ROC chart's own message says it, as it says l.
    ON_KEY_LINE = False


class RocSmooth(Command):
    """ROC chart: a smoothed curve beside the exact one (binormal, density, normal, none)"""

    KEY = "z"
    ID = "roc-smooth"
    FOOTER = "Smooth"
    ACTION = "roc_smooth"
    GROUP = "Views and playback"
    PLAIN = "smooth"
    PLAIN_HELP = (
        "smooth binormal|density|normal: the ROC curve smoothed by a model (pROC's smooth), "
        "its AUC named with the method beside the exact one, and the model's parameters"
    )
    #: The ROC chart's own message says it, as it says h.
    ON_KEY_LINE = False


class FoldCurve(Command):
    """Folds' charts: the next fold's curve alone, beside all rows' and the folds' range"""

    KEY = "F"
    ID = "fold-curve"
    FOOTER = "Fold"
    ACTION = "fold_curve"
    GROUP = "Views and playback"
    #: Only with --fold COL: the chart's legend says it there, and no other file
    #: needs a place for it on the key line.
    ON_KEY_LINE = False


class MoreMetrics(Command):
    """Every metric with its formula and counts"""

    KEY = "m"
    ID = "more-metrics"
    FOOTER = "Metrics"
    ACTION = "more_metrics"
    GROUP = "Views and playback"
    PLAIN = "metrics"


class Decimals(Command):
    """Sweep table: rates as decimals, or as their counts while they fit"""

    KEY = "x"
    ID = "decimals"
    FOOTER = "Decimals"
    ACTION = "decimals"
    GROUP = "Views and playback"


class MessageLog(Command):
    """The last 50 messages, in full"""

    KEY = "L"
    ID = "message-log"
    FOOTER = "Messages"
    ACTION = "message_log"
    GROUP = "Views and playback"


class Options(Command):
    """Every option in force: its word, its value and what it does"""

    PLAIN = "options"
    GROUP = "Data and the app"
    PLAIN_HELP = (
        "list every option plain mode can set, with its value now: the same options as "
        "the command line's flags and the Python API's keywords"
    )


class SetOption(Command):
    """Set one option by its word"""

    PLAIN = "option WORD VALUE | option WORD default | option WORD"
    GROUP = "Data and the app"
    PLAIN_HELP = (
        "set an option as its command-line flag would (option harm 1/10, option readout "
        "fpr 0.01, option unpaired on); default puts it back; option WORD alone says its "
        "value and what it does"
    )


class Intervals(Command):
    """Show or hide the confidence intervals"""

    KEY = "i"
    ID = "intervals"
    FOOTER = "Intervals"
    ACTION = "intervals"
    GROUP = "How sure"
    PLAIN = "intervals on|off | intervals C"
    PLAIN_HELP = "show confidence intervals, or not (C: a confidence such as 0.9)"


class Bootstrap(Command):
    """Bootstrap AP, F1, MCC and curve bands (again: stop)"""

    KEY = "B"
    ID = "bootstrap"
    FOOTER = "Bootstrap"
    ACTION = "bootstrap"
    GROUP = "How sure"
    PLAIN = "bootstrap B [seed S] | bootstrap off"
    PLAIN_HELP = (
        "bootstrap intervals (B replicates) for AP, the PR area, F1, MCC, a goal's "
        "threshold, and curve bands"
    )


class Play(Command):
    """Play the sweep from above all scores down (again: pause)"""

    KEY = "p"
    ID = "play"
    FOOTER = "Play"
    SHOW = True
    ACTION = "play"
    GROUP = "Views and playback"
    PLAIN = "play"
    PLAIN_HELP = "replay the sweep from above all, one tie group a line"


class StepForward(Command):
    """Playback: step to the next tie group"""

    KEY = "n"
    ID = "step-forward"
    FOOTER = "Step"
    ACTION = "playback(1)"
    GROUP = "Views and playback"


class StepBack(Command):
    """Playback: step back one tie group"""

    KEY = "N"
    ID = "step-back"
    FOOTER = "Back"
    ACTION = "playback(-1)"
    GROUP = "Views and playback"


class PlayFaster(Command):
    """Playback faster"""

    KEY = "plus"
    ID = "play-faster"
    FOOTER = "Faster"
    ACTION = "speed(-1)"
    GROUP = "Views and playback"


class PlaySlower(Command):
    """Playback slower"""

    KEY = "minus"
    ID = "play-slower"
    FOOTER = "Slower"
    ACTION = "speed(1)"
    GROUP = "Views and playback"


class OverlapMore(Command):
    """Generated rows made again with more overlap of the classes (the same seed)"""

    KEY = "left_parenthesis"
    ID = "overlap-more"
    FOOTER = "Overlap+"
    ACTION = "regenerate('overlap', 1)"
    GROUP = "Data and the app"
    ON_KEY_LINE = False  # generated presets only: help, the palette and teaching.md say it


class OverlapLess(Command):
    """Generated rows made again with less overlap of the classes (the same seed)"""

    KEY = "right_parenthesis"
    ID = "overlap-less"
    FOOTER = "Overlap-"
    ACTION = "regenerate('overlap', -1)"
    GROUP = "Data and the app"
    ON_KEY_LINE = False


class BalanceDown(Command):
    """Generated rows made again with fewer positives (a prevalence step down)"""

    KEY = "less_than_sign"
    ID = "balance-down"
    FOOTER = "Fewer +"
    ACTION = "regenerate('balance', -1)"
    GROUP = "Data and the app"
    ON_KEY_LINE = False


class BalanceUp(Command):
    """Generated rows made again with more positives (a prevalence step up)"""

    KEY = "greater_than_sign"
    ID = "balance-up"
    FOOTER = "More +"
    ACTION = "regenerate('balance', 1)"
    GROUP = "Data and the app"
    ON_KEY_LINE = False


class Regenerate(Command):
    """Generated rows made again: more or less overlap, more or fewer positives"""

    PLAIN = "overlap up|down | balance up|down"
    GROUP = "Data and the app"
    PLAIN_HELP = (
        "a generated preset (binormal:..., beta:...) made again with the same seed: overlap "
        "up brings the classes' scores closer (AUC falls), overlap down moves them apart; "
        "balance up gives more positives (AP follows, AUC stays), balance down fewer"
    )


class Presets(Command):
    """Load a built-in fixture (the preset picker)"""

    KEY = "P"
    ID = "presets"
    FOOTER = "Presets"
    SHOW = True
    ACTION = "pick_preset"
    GROUP = "Data and the app"
    PLAIN = "preset NAME [force] | presets"
    PLAIN_HELP = (
        "load a built-in fixture (force: even over unsaved edits, losing them), or list them"
    )


class Save(Command):
    """Save the rows as CSV (asks before replacing a file)"""

    KEY = "s"
    ID = "save"
    FOOTER = "Save"
    SHOW = True
    ACTION = "save"
    GROUP = "Data and the app"
    PLAIN = "save PATH [overwrite]"
    PLAIN_HELP = "write the rows as CSV (never over a file unless told)"


# --- the row table's own keys -------------------------------------------------------------


class RowUp(Command):
    """Row up"""

    KEY = "up"
    ID = "row-up"
    FOOTER = "Row up"
    ACTION = "move(-1)"
    ON = "rows"
    GROUP = "Rows"


class RowDown(Command):
    """Row down"""

    KEY = "down"
    ID = "row-down"
    FOOTER = "Row down"
    ACTION = "move(1)"
    ON = "rows"
    GROUP = "Rows"


class RowPageUp(Command):
    """A page of rows up"""

    KEY = "pageup"
    ID = "row-page-up"
    FOOTER = "Page up"
    ACTION = "move(-20)"
    ON = "rows"
    GROUP = "Rows"


class RowPageDown(Command):
    """A page of rows down"""

    KEY = "pagedown"
    ID = "row-page-down"
    FOOTER = "Page down"
    ACTION = "move(20)"
    ON = "rows"
    GROUP = "Rows"


class FirstRow(Command):
    """The first row"""

    KEY = "g"
    ID = "row-first"
    FOOTER = "First row"
    ACTION = "first"
    ON = "rows"
    GROUP = "Rows"


class LastRow(Command):
    """The last row"""

    KEY = "G"
    ID = "row-last"
    FOOTER = "Last row"
    ACTION = "last"
    ON = "rows"
    GROUP = "Rows"


class Boundary(Command):
    """Jump to the next row either side of the threshold"""

    KEY = "j"
    ID = "row-boundary"
    FOOTER = "Boundary"
    ACTION = "boundary"
    ON = "rows"
    GROUP = "Rows"
    PLAIN = "boundary"
    PLAIN_HELP = "the rows with the scores either side of the threshold"


class RowOrder(Command):
    """Row order: file, score high to low, score low to high"""

    KEY = "o"
    ID = "row-order"
    FOOTER = "Order"
    ACTION = "cycle_order"
    ON = "rows"
    GROUP = "Rows"


class RowFilter(Command):
    """Show all rows, one cell, or rows models decide differently"""

    KEY = "f"
    ID = "row-filter"
    FOOTER = "Filter"
    ACTION = "cycle_filter"
    ON = "rows"
    GROUP = "Rows"


class Rows(Command):
    """List the rows"""

    PLAIN = "rows [TP|FP|TN|FN|differ] [file|high|low] [N]"
    GROUP = "Rows"
    PLAIN_HELP = (
        "rows: one cell only (or, with several models, the rows they decide "
        "differently), in file order or by score (high to low, low to high), at most "
        "N (100)"
    )


# --- the sweep table's own keys -------------------------------------------------------------


class SweepUp(Command):
    """Sweep table: the operating point above (a higher threshold)"""

    KEY = "up"
    ID = "sweep-up"
    FOOTER = "Point up"
    ACTION = "screen.group(-1)"
    ON = "sweep"
    GROUP = "Panes"


class SweepDown(Command):
    """Sweep table: the operating point below (a lower threshold)"""

    KEY = "down"
    ID = "sweep-down"
    FOOTER = "Point down"
    ACTION = "screen.group(1)"
    ON = "sweep"
    GROUP = "Panes"


class SweepPageUp(Command):
    """Sweep table: a page of operating points up"""

    KEY = "pageup"
    ID = "sweep-page-up"
    FOOTER = "Page up"
    ACTION = "page(-1)"
    ON = "sweep"
    GROUP = "Panes"


class SweepPageDown(Command):
    """Sweep table: a page of operating points down"""

    KEY = "pagedown"
    ID = "sweep-page-down"
    FOOTER = "Page down"
    ACTION = "page(1)"
    ON = "sweep"
    GROUP = "Panes"


# --- plain mode's own words -------------------------------------------------------------------


class Status(Command):
    """The active policy in one sentence"""

    PLAIN = "status"
    GROUP = "Describe"
    PLAIN_HELP = (
        "the active policy: the counts at the threshold in one sentence, then the goal, "
        "prevalence what-if, model, class, group or fold in force"
    )


class Explain(Command):
    """One metric, its formula and its denominator named"""

    PLAIN = "explain METRIC"
    GROUP = "Describe"


class Sweep(Command):
    """The sweep table"""

    PLAIN = "sweep"
    GROUP = "Describe"


class Roc(Command):
    """The ROC curve in words"""

    PLAIN = "roc"
    GROUP = "Describe"


class Pr(Command):
    """The precision-recall curve in words"""

    PLAIN = "pr"
    GROUP = "Describe"


class Braille(Command):
    """A curve as one line of braille cells, for a braille display"""

    KEY = "b"
    ID = "braille-line"
    FOOTER = "Braille"
    ACTION = "braille_line"
    ON_KEY_LINE = False  # no room on it at 200 columns; help and the palette list it
    PLAIN = "braille roc|pr|det [WIDTH]"
    GROUP = "Describe"
    PLAIN_HELP = (
        "the curve as WIDTH braille cells (40 unless given): two dot columns a cell, "
        "each the curve's height in quarters at its stretch of the x axis, then the scale"
    )


class DescribeCurve(Command):
    """A curve's shape in sentences, each a claim checked over the sweep"""

    PLAIN = "describe roc|pr"
    GROUP = "Describe"
    PLAIN_HELP = (
        "the curve's shape in a few sentences: how far it rises before the first false "
        "positive, where it lies below chance, its hull, its steepest and flattest "
        "stretches (PR: its first precision, its dips, its baseline)"
    )


class Sound(Command):
    """A curve as sound: a WAV file of one tone a point"""

    KEY = "S"
    ID = "sound-file"
    FOOTER = "Sound"
    ACTION = "sound"
    ON_KEY_LINE = False  # no room on it at 200 columns; b's message says it
    PLAIN = "sound roc|pr FILE.wav [SECONDS] [overwrite]"
    GROUP = "Describe"
    PLAIN_HELP = (
        "write the curve as a WAV file: one tone a point (0.25 s unless given), pitch "
        "its TPR or precision (220 Hz at 0, 880 Hz at 1), left to right its FPR or recall; "
        "overwrite replaces a file already there"
    )


class Calibration(Command):
    """Reliability bins, ECE, MCE and the Brier decomposition"""

    PLAIN = "calibration [N] [mass|width]"
    GROUP = "Describe"


class Gains(Command):
    """Cumulative gains at each tenth of the rows"""

    PLAIN = "gains"
    GROUP = "Describe"


class Ks(Command):
    """The KS statistic and its threshold"""

    PLAIN = "ks"
    GROUP = "Describe"


class Readout(Command):
    """Operating points at fixed rates: TPR at each FPR, FPR at each TPR"""

    PLAIN = "readout [fpr X,..|tpr Y,..]"
    GROUP = "Describe"
    PLAIN_HELP = (
        "the point with the highest TPR at FPR <= X (fpr 0.01,0.05) or the lowest "
        "FPR at TPR >= Y (tpr 0.9), its threshold and counts, and the ROC line's "
        "value interpolated at exactly X or Y (default: FPR 0.001, 0.01, 0.05, 0.1 "
        "and TPR 0.9, 0.95, 0.99)"
    )


class PartialAuc(Command):
    """The ROC area over a range of FPR or TPR, with McClish's standardised value"""

    PLAIN = "partial auc fpr|tpr A B"
    GROUP = "Describe"
    PLAIN_HELP = (
        "the ROC area over FPR (or TPR) from A to B, exact, and McClish's "
        "standardised value (partial auc fpr 0 0.1)"
    )


class NetBenefit(Command):
    """Net benefit at each threshold probability, beside treating all and none"""

    PLAIN = "net benefit [PT]"
    GROUP = "Deciding"
    PLAIN_HELP = (
        "the decision curve: net benefit TP/n − FP/n·pt/(1 − pt) at the --pt grid "
        "beside treating all and treating none, where the model is useful; net "
        "benefit 0.2 for one pt, its counts filled in"
    )


class UsefulRange(Command):
    """Where the model's net benefit beats treating all and treating none"""

    PLAIN = "useful range"
    GROUP = "Deciding"
    PLAIN_HELP = (
        "the threshold probabilities pt where acting on the model beats treating "
        "everyone and treating no one"
    )


class Hull(Command):
    """The ROC convex hull: the cheapest point at each cost ratio"""

    PLAIN = "hull"
    GROUP = "Deciding"
    PLAIN_HELP = (
        "the cost curves' envelope: the ROC convex hull's vertices, the range of "
        "probability-cost PC(+) each is cheapest over, and the hull's area"
    )


class PowerCommand(Command):
    """Power and sample size of one ROC curve's AUC test (pROC's power.roc.test)"""

    PLAIN = "power [models] [auc A] [cases N1] [controls N0] [kappa K] [sig_level S] [power P]"
    GROUP = "How sure"
    PLAIN_HELP = (
        "solve for the one left out of the AUC, the sample size, the significance level "
        "and the power; the AUC and the controls per case are these rows' unless given "
        "(power 0.9: the cases and controls needed); power models: the shown model's AUC "
        "against the next one's (method obuchowski, partial fpr:0-0.1 as for the command "
        "line); a1 b1 a2 b2 rn ra delta: two binormal curves"
    )


class LessonCommand(Command):
    """A lesson: steps that ask before they show, answers checked exactly"""

    PLAIN = "lesson FILE|NAME"
    GROUP = "Describe"
    PLAIN_HELP = (
        "run a lesson (a TOML file, or a shipped one: denominator, ap-vs-trapezoid, "
        "accuracy-trap, tour): each step said, its question read out and the typed answer "
        "checked exactly; an empty line goes on, back, go N, again, skip (a question) and "
        "leave steer it; other commands run as ever between steps"
    )


class Corners(Command):
    """The ROC curve's corners (pROC's local maxima)"""

    PLAIN = "corners"
    GROUP = "Deciding"
    PLAIN_HELP = (
        "the ROC curve's upper-left corners, pROC's local maxima: each point the curve "
        "rose into and goes right out of, with its threshold and counts"
    )


class Groups(Command):
    """Each group's numbers at the threshold and the gaps between groups"""

    KEY = "E"
    ID = "groups"
    FOOTER = "Groups"
    ACTION = "groups"
    # Not on the key line: one more key wrapped it to a third line at 200x60, a row
    # of the chart and a metric lost for everyone. Help, the palette and the line a
    # file opened with --group starts with say it.
    ON_KEY_LINE = False
    PLAIN = "groups"
    GROUP = "Models"
    PLAIN_HELP = (
        "with --group COL: each group at the threshold (its counts, rates with "
        "Wilson intervals, AUC with DeLong's) and the gaps between groups, as "
        "Fairlearn names them, with Newcombe's intervals"
    )


class OwnThresholds(Command):
    """Each group its own threshold (M moves one's), or one for all"""

    KEY = "O"
    ID = "own-thresholds"
    FOOTER = "Own"
    ACTION = "own_thresholds"
    ON_KEY_LINE = False  # as E: help, the palette and the grouped file's opening say it
    PLAIN = "own"
    GROUP = "Models"
    PLAIN_HELP = (
        "with --group COL: each group its own threshold (model NAME shows one "
        "to move its own; all rows' status and matrix are then the groups' "
        "pooled), or own again for one threshold"
    )


class GroupGoal(Command):
    """Per-group thresholds for a fairness criterion"""

    PLAIN = "group-goal CRITERION [E]"
    GROUP = "Models"
    PLAIN_HELP = (
        "with --group COL: one threshold a group for demographic_parity, "
        "equal_opportunity, equalized_odds, predictive_parity or same_goal (gap "
        "at most E, 0.01 by default), maximising the goal in force (max accuracy "
        "without one) on all rows pooled; each group then carries its own"
    )


class Group(Command):
    """One group's numbers at the threshold"""

    PLAIN = "group NAME"
    GROUP = "Models"
    PLAIN_HELP = "with --group COL: one group's counts and every metric with its formula"


class Models(Command):
    """Several models of the same rows: each one's summaries at the threshold"""

    PLAIN = "models"
    GROUP = "Models"
    PLAIN_HELP = (
        "several models of the same rows (or all rows and each group, with "
        "--group COL): each one's summaries"
    )


class Model(Command):
    """Show another model's scores of the same rows (or one group's rows alone)"""

    PLAIN = "model NAME"
    GROUP = "Models"


class Compare(Command):
    """Compare every pair of models (paired DeLong, McNemar at the threshold)"""

    PLAIN = "compare"
    GROUP = "Models"


class ClassList(Command):
    """Several classes: each class's ranking"""

    PLAIN = "classes"
    GROUP = "Classes"


class ShowClass(Command):
    """Several classes: one class against the rest"""

    PLAIN = "class C"
    GROUP = "Classes"


class QuitAnyway(Command):
    """Quit, losing unsaved edits"""

    PLAIN = "quit! | exit!"
    GROUP = "Data and the app"


#: Every command, in the order keys are listed (help, the key line, the palette).
COMMANDS: tuple[type[Command], ...] = tuple(
    c
    for c in list(globals().values())
    if isinstance(c, type) and issubclass(c, Command) and c is not Command
)


def keyed(on: str) -> list[type[Command]]:
    """The commands with a key on the ``screen``, the ``rows`` table or the ``sweep``."""
    return [c for c in COMMANDS if c.KEY is not None and on == c.ON]


def plain_commands() -> list[type[Command]]:
    """The commands plain mode knows, in the order its help lists them."""
    return [c for c in COMMANDS if c.PLAIN is not None]


def plain_words() -> dict[str, type[Command]]:
    """Every word plain mode takes (``quit`` and ``exit``, ``quit!`` ...) to its command."""
    words: dict[str, type[Command]] = {}
    for c in plain_commands():
        assert c.PLAIN is not None
        for usage in c.PLAIN.split(" | "):
            words.setdefault(usage.split()[0], c)
    return words
