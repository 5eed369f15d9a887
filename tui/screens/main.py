"""The main screen: the explorer's keys, its layout, and one flow of state.

Every Session operation returns one Update; the screen makes it a Frame (with
its prepared drawing), holds it in its one ``frame`` reactive and hands it
down with ``data_bind``. Widgets report intent with messages; the dialog
flows live in :mod:`threshold_lab.tui.screens.asking`, playback, the demo tour and
the bootstrap's worker in :mod:`threshold_lab.tui.explorer`."""

from __future__ import annotations

import collections
import dataclasses
import io
from collections.abc import Callable
from typing import Any, ClassVar, Literal

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.geometry import Offset
from textual.message import Message
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.curves.smooth import METHODS as SMOOTH_METHODS
from threshold_lab.core.curves.smooth import Smoothed
from threshold_lab.core.curves.walk import entered_rows, step_words
from threshold_lab.core.drawing.prepared import Prepared
from threshold_lab.core.errors import InputError
from threshold_lab.core.lessons.lesson import Lesson
from threshold_lab.core.lessons.words import PARTS
from threshold_lab.core.session.session import Later, Session
from threshold_lab.core.session.update import Update
from threshold_lab.core.text.sentences import change_words, tie_group_text
from threshold_lab.tui.bindings import bindings
from threshold_lab.tui.commands import CHARTS
from threshold_lab.tui.explorer.bootstrapping import Bootstrapper
from threshold_lab.tui.explorer.keys import KeyLine, every_key
from threshold_lab.tui.explorer.lesson import LessonPlayer
from threshold_lab.tui.explorer.playback import Playback
from threshold_lab.tui.screens import asking
from threshold_lab.tui.screens.dialogs import Dialog, ValueDialog
from threshold_lab.tui.screens.help import HelpScreen, MessageLogScreen
from threshold_lab.tui.screens.palette import OncePalette
from threshold_lab.tui.state.chart_modes import CHART_MODES, ChartMode, chart_mode
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.state.lesson_text import LessonText
from threshold_lab.tui.state.preparing import Preparer
from threshold_lab.tui.widgets.band_line import BandLine
from threshold_lab.tui.widgets.charts import Chart, ChartPanel, CurveChart
from threshold_lab.tui.widgets.charts.braille import CURVE_OF, NAMES, BrailleStrip
from threshold_lab.tui.widgets.confusion import ConfusionMatrix, MetricsPanel
from threshold_lab.tui.widgets.goal_line import GoalLine
from threshold_lab.tui.widgets.lesson_line import LessonLine
from threshold_lab.tui.widgets.model_line import ModelLine
from threshold_lab.tui.widgets.panes import PANE_WORDS, PANES, Pane, PaneBar, WholeFooter, pane
from threshold_lab.tui.widgets.row_table import RowTable
from threshold_lab.tui.widgets.score_strip import ScoreStrip
from threshold_lab.tui.widgets.sweep_table import SweepTable
from threshold_lab.tui.widgets.text import MessageLine, StatusLine
from threshold_lab.tui.widgets.threshold_bar import ThresholdBar

#: Below either size only one pane is shown at a time (an 80x24 SSH session).
COMPACT_WIDTH, COMPACT_HEIGHT = 100, 30
#: From this height the score strip and the key line join the other panes.
TALL_HEIGHT = 50


#: How many messages the log keeps.
LOG_SIZE = 50


#: What a row edit worked out in a thread is said to be doing meanwhile.
_DOING = {
    "delete": "Removing row {}...",
    "flip": "Flipping the label of row {}...",
    "undo": "Undoing...",
    "redo": "Redoing...",
}


def _letting_go(work: Callable[[], None]) -> Callable[[], None]:
    """``work``, let go of once it has run. A finished Textual worker sits in a reference
    cycle (its task, its frames) until Python's cycle collector runs, and kept its work,
    and so the rows and sweeps the work's closure held: at 10^7 rows each edit's copies
    (hundreds of MB) stayed until then, and every edit wrote to fresh memory, several
    times more slowly than to memory already in use."""
    held = [work]

    def run() -> None:
        try:
            held[0]()
        finally:
            held.clear()

    return run


#: The row table's keys that edit a row, as said when no rows are shown.
ROW_KEYS = {
    "enter": "Enter (edit its score)",
    "space": "Space (flip its label)",
    "delete": "Delete (remove it)",
}


class MainScreen(Screen[None]):
    """Threshold, rows, matrix, metrics, charts, strip and sweep on one screen."""

    #: From this many rows a delete, flip, undo or redo is worked out in a thread
    #: (its copies of the rows and the sweep take longer than a key may): the screen
    #: answers at once, and keys pressed meanwhile wait their turn, in order.
    LATER_ROWS: ClassVar[int] = 1_000_000

    class UndoRedo(Message):
        """Undo (``kind`` ``undo``) or redo, asked by a key: queued behind the row keys
        pressed before it, so each edit happens in the order of the keys."""

        def __init__(self, kind: Literal["undo", "redo"]) -> None:
            super().__init__()
            self.kind: Literal["undo", "redo"] = kind

    class EditReady(Message):
        """A row edit worked out in a thread, to be made the state."""

        def __init__(self, job: Later) -> None:
            super().__init__()
            self.job = job

    #: The explorer's keys, from the commands' declarations (tui/commands.py).
    BINDINGS = bindings("screen")

    # repaint=False: the widgets bound to these repaint themselves; repainting the
    # whole screen on every key would cost a full frame.
    frame: reactive[Frame | None] = reactive(None, init=False, repaint=False)
    """The one state every widget draws: the last Update and its prepared drawing."""
    chart_mode: reactive[ChartMode] = reactive("roc", repaint=False)
    """Which chart the chart panel shows: ``roc``, ``pr``, ``both`` (side by side),
    ``metrics`` (against the threshold), ``reliability``, ``gains`` or ``det``; ``c``
    cycles."""
    log_fpr: reactive[bool] = reactive(False, repaint=False)
    """The ROC chart's FPR on a log scale."""
    roc_hull: reactive[bool] = reactive(False, repaint=False)
    """The ROC chart draws its convex hull."""
    roc_smooth: reactive[str] = reactive("", repaint=False)
    """The method of the smoothed curve the ROC chart draws beside the exact one
    (``z`` cycles binormal, density, normal, none), or ""."""
    """Whether the ROC chart has FPR on a log scale (``l``)."""
    braille_line: reactive[bool] = reactive(False, repaint=False)
    """The braille line of the shown curve above the chart (``b``)."""
    fold_curve: reactive[int] = reactive(0, repaint=False)
    """With folds, the fold whose curve the curve charts draw (``F``; 0: none chosen)."""
    message: reactive[str] = reactive("", repaint=False)
    """The sentence the last action said."""
    ascii: reactive[bool] = reactive(False, repaint=False)
    """ASCII only: formulas and chart marks without signs or braille."""
    boot_progress: reactive[str] = reactive("", repaint=False)
    """How far a bootstrap under way is (``bootstrap 450/1000``), or ""."""
    decimals: reactive[bool] = reactive(False, repaint=False)
    """Whether the sweep table shows its rates as decimals (``x``); off, each rate is
    its counts while they fit the column, as ``8/14``."""
    pane: reactive[Pane] = reactive("all", repaint=False)
    """The pane asked for (1-4, or 0 for all): ``matrix``, ``chart``, ``rows``,
    ``sweep`` or ``all``. Where only one fits, ``all`` shows the matrix."""

    def validate_chart_mode(self, mode: str) -> ChartMode:
        return chart_mode(mode)

    def validate_pane(self, name: str) -> Pane:
        return pane(name)

    def __init__(
        self,
        session: Session,
        *,
        playback_seconds: float = 1.0,
        lesson: Lesson | None = None,
        lesson_step: int = 0,
        ascii: bool = False,
        opening: str = "",
    ) -> None:
        super().__init__()
        self.session = session
        #: What the screen says first (what the command line's --transform did).
        self.opening = opening
        #: The last transform applied (the transform dialog offers it again).
        self.last_transform: str | None = None
        #: Everything said, the last :data:`LOG_SIZE` messages (``L`` shows them).
        self.said: collections.deque[str] = collections.deque(maxlen=LOG_SIZE)
        self.playback = Playback(self, playback_seconds)
        self.lessons = LessonPlayer(self, playback_seconds)
        self._start_lesson = lesson, lesson_step
        self.preparer = Preparer(session, self._thread("prepare"), self.post_message)
        self.bootstrapper = Bootstrapper(self, self._thread("bootstrap"), self.post_message)
        self.set_reactive(MainScreen.ascii, ascii)
        #: The row edit being worked out in a thread, if any; what was asked meanwhile.
        self.working: Later | None = None
        self.waiting: collections.deque[Callable[[], object]] = collections.deque()

    def compose(self) -> ComposeResult:
        frame, ascii = MainScreen.frame, MainScreen.ascii
        yield ThresholdBar(id="threshold-bar").data_bind(frame)
        yield PaneBar(id="pane-bar")
        yield LessonLine(id="lesson-line")
        yield GoalLine(id="goal-line").data_bind(frame)
        yield BandLine(id="band-line").data_bind(frame)
        yield ModelLine(id="model-line").data_bind(frame)
        with Horizontal(id="top"):
            with Vertical(id="left"):
                yield ConfusionMatrix(id="matrix").data_bind(frame)
                yield MetricsPanel(id="metrics").data_bind(
                    frame, ascii, progress=MainScreen.boot_progress
                )
            yield ChartPanel(id="charts").data_bind(
                frame,
                ascii,
                MainScreen.log_fpr,
                MainScreen.roc_hull,
                MainScreen.roc_smooth,
                MainScreen.fold_curve,
                mode=MainScreen.chart_mode,
                braille=MainScreen.braille_line,
            )
        yield ScoreStrip(id="strip").data_bind(frame)
        with Horizontal(id="bottom"):
            yield RowTable(id="rows").data_bind(frame)
            yield SweepTable(id="sweep").data_bind(frame, MainScreen.decimals)
        yield MessageLine(id="message").data_bind(MainScreen.message)
        yield StatusLine(id="status").data_bind(frame)
        yield KeyLine(self.all_bindings(), id="more-keys")
        yield WholeFooter()

    def on_mount(self) -> None:
        first = self.session.current()
        if self.opening:  # what --transform did
            first = dataclasses.replace(first, message=self.opening)
        self.show(first)
        self.query_one(RowTable).focus()
        lesson, step = self._start_lesson
        if lesson is not None:
            self.lessons.start(lesson, step)

    @classmethod
    def all_bindings(cls) -> list[Binding]:
        """Every key of the explorer, in the order help lists them."""
        sweep = [b for b in SweepTable.BINDINGS if isinstance(b, Binding)]
        return every_key(cls.BINDINGS, RowTable.BINDINGS) + sweep

    @property
    def compact(self) -> bool:
        """Whether only one pane fits (80x24, or any screen under 100x30)."""
        return self.size.width < COMPACT_WIDTH or self.size.height < COMPACT_HEIGHT

    @property
    def view(self) -> Pane:
        """The pane shown: the one asked for, or the matrix where all do not fit."""
        return "matrix" if self.pane == "all" and self.compact else self.pane

    def on_resize(self) -> None:
        self._lay_out()

    def watch_pane(self) -> None:
        self._lay_out()

    def _lay_out(self) -> None:
        """Classes for the layout (app.tcss): ``-one`` with ``-view-<pane>`` for a
        single pane, ``-tall`` where the strip and the key line fit beside the rest."""
        view, compact = self.view, self.compact
        # One batch: each class changed on its own restyled the whole screen again
        # (Textual restyles a node's subtree at once on each change).
        classes = {
            "-one": view != "all",
            "-compact": compact,
            "-tall": self.size.height >= TALL_HEIGHT,
        }
        classes.update((f"-view-{name}", view == name) for _, name, _label in PANES)
        self.update_classes(classes)
        bar = self.query_one(PaneBar)
        bar.view, bar.compact = view, compact
        # Narrow (or spelled out in ASCII): the footer's keys closer together, and the
        # palette's key left to help, so ? Help and q Quit and the rest stay on it whole.
        footer = self.query_one(Footer)
        footer.compact = self.size.width < COMPACT_WIDTH or self.ascii
        footer.show_command_palette = self.size.width >= COMPACT_WIDTH
        # Keys go to a table that is shown: the sweep table in its own pane, else
        # the rows (a hidden widget keeps no focus).
        if view == "sweep":
            self.query_one(SweepTable).focus()
        elif view == "rows" or (view == "all" and self.focused is None):
            self.query_one(RowTable).focus()
        elif view in ("matrix", "chart"):
            self.set_focus(None)
        self.call_after_refresh(self.place_cursor)

    def place_cursor(self) -> None:
        """Put the terminal's cursor where a screen magnifier or braille display should
        follow: a focused table puts it on its selected line itself; else on the active
        point's cell of the braille line where it is shown, on the chart pane on the
        active point as drawn, and otherwise on the threshold's value."""
        if self.focused is not None or self.app.screen is not self:
            return
        strip = self.query_one(BrailleStrip)
        at = strip.active_offset() if strip.display else None
        if at is not None:
            self.app.cursor_position = at
            return
        if self.view == "chart":
            for chart in self.query(Chart):
                at = chart.active_offset()
                if at is not None:
                    self.app.cursor_position = at
                    return
        bar = self.query_one(ThresholdBar).content_region
        self.app.cursor_position = Offset(bar.x + len("Threshold "), bar.y)

    def action_pane(self, name: str) -> None:
        if name == "all" and self.compact:
            w, h = self.size
            self.say(
                f"All panes need at least {COMPACT_WIDTH}x{COMPACT_HEIGHT}; this "
                f"screen is {w}x{h}, so 1-4 show one pane each."
            )
            return
        self.pane = pane(name)
        key = next((k for k, n, _ in PANES if n == name), "0")
        words = PANE_WORDS[name]
        if name == "chart":
            words = f"the chart, now {CHARTS[self.chart_mode][1]} (c for the next)"
        self.say(f"Pane {key}: {words}.")

    def on_key(self, event: events.Key) -> None:
        # A running lesson takes its keys first (space, n, p, g, a, Esc).
        self.lessons.key(event)

    def row_key_elsewhere(self, key: str) -> bool:
        """A row's key (Enter, space, Delete) where no rows are shown (panes 1 and 2
        at 80x24) acts on no row the user cannot see: it says where the rows are
        instead. Whether ``key`` was one (the app asks, once the key has reached it:
        a key typed after one that opened a dialog is the dialog's)."""
        shown = self.view in ("matrix", "chart")
        if key not in ROW_KEYS or self.focused is not None or not shown:
            return False
        self.say(f"{ROW_KEYS[key]} acts on the selected row: 3 shows the rows.")
        return True

    def _thread(self, group: str) -> Callable[[Callable[[], None]], Callable[[], object]]:
        """How a helper starts its work in a thread worker of this screen's (one at a
        time per ``group``): it gets a way to cancel it."""

        def start(work: Callable[[], None]) -> Callable[[], object]:
            worker = self.run_worker(
                _letting_go(work), thread=True, group=group, exclusive=True, exit_on_error=False
            )
            return worker.cancel

        return start

    # --- the host: what the helpers may ask (see tui.state.host) ------------------------

    @property
    def rows_return(self) -> bool:
        return bool(getattr(self.app, "rows_return", False))

    def ask(self, dialog: Screen[Any], done: Callable[[Any], None] | None = None) -> None:
        self.app.push_screen(dialog, done)

    @property
    def web(self) -> bool:
        return bool(self.app.is_web)

    def deliver(self, data: bytes, name: str) -> None:
        self.app.deliver_binary(io.BytesIO(data), save_filename=name, mime_type="audio/wav")

    def select_row(self, index: int) -> None:
        self.query_one(RowTable).select(index)

    def show_view(self, pane_name: str, chart: ChartMode | None) -> None:
        if chart is not None:
            self.chart_mode = chart
        if self.view not in ("all", pane_name):
            self.pane = pane(pane_name)

    def stop_playback(self) -> None:
        self.playback.stop()

    def offer_sound(self, kind: str) -> None:
        asking.sound_file(self, kind)

    def hide_parts(self, parts: frozenset[str]) -> None:
        self.update_classes({f"-hide-{part}": part in parts for part in PARTS})
        self.query_one(StatusLine).counts_only = "metrics" in parts
        self._hide_metric_chart()

    def dialog_open(self) -> bool:
        return self.app.screen is not self

    def show_lesson(self, text: LessonText | None) -> None:
        self.query_one(LessonLine).lesson = text
        self.set_class(text is not None, "-lesson")

    def ask_text(
        self,
        title: str,
        read: Callable[[str], object],
        done: Callable[[object], None],
        *,
        hint: str = "",
        enter: str = "applies",
    ) -> None:
        self.ask(ValueDialog(title, "", read, hint=hint, enter=enter), done)

    def quit(self) -> None:
        self.app.exit()

    def every(self, seconds: float, tick: Callable[[], None]) -> Timer:
        return self.set_interval(seconds, tick)

    def later(self, seconds: float, tick: Callable[[], None]) -> Timer:
        return self.set_timer(seconds, tick)

    # --- the one flow of state --------------------------------------------------------

    def _frame(self, update: Update, prepared: Prepared | None) -> Frame:
        """``update`` and its drawing as a frame, with what the widgets read of it for
        the chart shown (the frame before lends what it read that still holds)."""
        return Frame.of(
            update,
            prepared,
            mode=self.chart_mode,
            hull=self.roc_hull,
            smooth=self.roc_smooth,
            before=self.frame,
        )

    def watch_chart_mode(self) -> None:
        self._reread()
        self._hide_metric_chart()

    def _hide_metric_chart(self) -> None:
        """While a lesson hides the metrics, the charts that plot metric values (the
        metrics chart, PR, decision and cost) hide too; ROC and DET show rates."""
        charts = ("metrics", "pr", "both", "decision", "cost", "gains", "reliability")
        hide = self.has_class("-hide-metrics") and self.chart_mode in charts
        self.set_class(hide, "-hide-metric-chart")

    def watch_roc_hull(self) -> None:
        self._reread()

    def watch_roc_smooth(self) -> None:
        self._reread()

    def _reread(self) -> None:
        """The chart shown changed: the frame again when the new chart reads what the
        frame did not. It runs before the chart panel hears of the change (a screen's
        own watcher comes before those bound to it), and keeps what the frame read, so
        the panel finds what it reads whichever chart it lays out."""
        frame = self.frame
        if frame is None:
            return
        again = self._frame(frame.update, frame.prepared)
        # Another smoothing reads the same names: compared by what was read, too.
        if (
            again.readings.read != frame.readings.read
            or again.readings.smoothed is not frame.readings.smoothed
        ):
            self.frame = again

    def show(self, update: Update) -> None:
        """Hand ``update`` down: the frame changes once, and its message is said."""
        before = None if self.frame is None else self.frame.analysis
        self.frame = self._frame(update, self.preparer.prepared_for(update.analysis.curves))
        # Said or not, the last action's sentence goes: it belongs to that action. An
        # action with nothing of its own to say (a threshold move) says what moved,
        # so a listener need not compare two long status sentences.
        hidden = self.has_class("-hide-metrics")  # a lesson asks for them: counts only
        moved = (
            ""
            if before is None or update.fresh
            else change_words(before, update.analysis, metrics=not hidden)
        )
        said = update.message or (f"Moved: {moved}." if moved else "")
        if hidden and not update.fresh and moved:
            said = f"Moved: {moved}."
        if (
            not said
            and before is not None
            and not update.fresh
            and before.data is update.analysis.data
        ):
            # A key that moved nothing says so, rather than leaving the line blank.
            where = tie_group_text(update.analysis)
            if before.threshold == update.analysis.threshold:
                said = f"Already at {where}: the threshold cannot go further that way."
            else:
                said = f"No prediction changed: still {where}."
        self.say(said)
        self.bootstrapper.follow()
        self.call_after_refresh(self.place_cursor)

    def run(self, change: Callable[[], Update]) -> Update | None:
        """Apply one session operation and show it; a refusal is said, nothing changes.
        While a row edit is worked out in a thread, it waits its turn (and gives None)."""
        if self.working is not None:
            self.waiting.append(lambda: self.run(change))
            return None
        try:
            update = change()
        except InputError as exc:
            self.say(f"Refused: {exc}.")
            return None
        self.show(update)
        return update

    def edit_rows(self, kind: Literal["delete", "flip", "undo", "redo"], row: int = -1) -> None:
        """A delete or flip of data row ``row``, an undo or a redo: on large data worked
        out in a thread (the screen says what it is doing at once), else at once."""
        if self.working is not None:
            self.waiting.append(lambda: self.edit_rows(kind, row))
            return
        job = self.session.later(kind, row)
        if self.session.data.n < self.LATER_ROWS:
            self.run(job.finish)
            return
        self.working = job
        self.say(_DOING[kind].format(self.session.data.shown_id(row) if row >= 0 else ""))

        def work() -> None:
            job.work()
            self.post_message(self.EditReady(job))

        self.run_worker(_letting_go(work), thread=True, group="edit", exit_on_error=False)

    @on(EditReady)
    def _worked(self, event: EditReady) -> None:
        if event.job is not self.working:
            return
        self.working = None
        self.run(event.job.finish)
        while self.waiting and self.working is None:  # in the order they were asked
            self.waiting.popleft()()

    def say(self, text: str) -> None:
        """Say ``text`` on the message line, and keep it in the log (``L``) in full."""
        if text:
            self.said.append(text)
        self.message = text

    def action_message_log(self) -> None:
        self.app.push_screen(MessageLogScreen(list(self.said)))

    def _reframe(self) -> None:
        """Hand the current frame down again, prepared at the current widths, with the
        model rows whose sweeps are done since."""
        frame = self.frame
        if frame is None:
            return
        prepared = self.preparer.prepared_for(frame.analysis.curves)
        update = self.preparer.models_in(frame.update)
        if prepared is not frame.prepared or update is not frame.update:
            self.frame = self._frame(update, prepared)

    @on(RowTable.Say)
    def _row_said(self, event: RowTable.Say) -> None:
        self.say(event.text)

    @on(ChartPanel.Needs)
    def _charts_need(self, event: ChartPanel.Needs) -> None:
        if self.preparer.wanted(event.columns, event.kinds, None):
            self._reframe()

    @on(ScoreStrip.Resized)
    def _strip_resized(self, event: ScoreStrip.Resized) -> None:
        if self.preparer.wanted(None, None, event.columns):
            self._reframe()

    @on(Preparer.Ready)
    def _prepared(self, event: Preparer.Ready) -> None:
        self.preparer.arrived(event.prepared)
        frame = self.frame
        if frame is not None and frame.analysis.curves is event.prepared.curves:
            self.frame = self._frame(self.preparer.models_in(frame.update), event.prepared)
        else:
            self._reframe()  # the rows changed meanwhile; that change's own work follows

    @on(Bootstrapper.Progress)
    def _boot_progress(self, event: Bootstrapper.Progress) -> None:
        self.boot_progress = event.text

    @on(Bootstrapper.Counted)
    def _boot_counted(self, event: Bootstrapper.Counted) -> None:
        self.bootstrapper.counted(event.job, event.done, event.total)

    @on(Bootstrapper.Finished)
    def _boot_finished(self, event: Bootstrapper.Finished) -> None:
        self.bootstrapper.finished(event.job, event.result, self.message)

    @property
    def analysis(self) -> Analysis | None:
        return None if self.frame is None else self.frame.analysis

    @property
    def status_text(self) -> str:
        """The plain sentence describing the active policy."""
        return "" if self.frame is None else self.frame.update.status

    def action_step(self, steps: int) -> None:
        self.run(lambda: self.session.step(steps))

    def action_group(self, delta: int) -> None:
        """The next or previous tie group; with a curve's chart shown, a walk along it:
        the message says the step as plain ``walk`` does (coordinates as counts,
        direction, slope, threshold, the rows that entered)."""
        kind = self.walked_curve()
        if kind is None:
            self.run(lambda: self.session.group(delta))
            return
        before = self.analysis

        def walk() -> Update:
            update = self.session.group(delta)
            a = update.analysis
            if update.message or (before is not None and before.point == a.point):
                return update  # nothing walked: said as any threshold key says it
            rows, count = entered_rows(a.data, a.sweep, a.point)
            words = step_words(a.sweep, kind, a.point, rows, count)
            return dataclasses.replace(update, message=words)

        self.run(walk)

    def walked_curve(self) -> str | None:
        """The curve ``[`` and ``]`` walk: the ROC, PR or DET chart shown (ROC when both
        are side by side), or None when no curve's chart is on the screen."""
        if self.view not in ("all", "chart"):
            return None
        return {"roc": "roc", "both": "roc", "pr": "pr", "det": "det"}.get(self.chart_mode)

    def action_above_all(self) -> None:
        self.run(lambda: self.session.set_threshold(None))

    def action_lowest(self) -> None:
        self.run(self.session.lowest)

    def action_type_threshold(self) -> None:
        asking.type_threshold(self)

    @on(RowTable.RowRequest)
    def _row_request(self, event: RowTable.RowRequest) -> None:
        if self.working is not None:
            # Asked while a row edit is worked out: it waits its turn, and then (the
            # rows having changed) acts on the row selected, as below.
            self.waiting.append(lambda: self._row_request(event))
            return
        s = self.session
        if event.data is not s.data:
            # Asked before the rows changed (keys faster than the screen): its index
            # may have moved or gone, so it acts on the row selected now, as the key
            # would have once the change was shown; nothing when the table is behind.
            table = self.query_one(RowTable)
            again, a = table.selected_row, table.analysis
            if again is None or a is None or a.data is not s.data:
                return
            event = type(event)(again, a.data)
        top, row = self.app.screen, event.row
        if top is not self and not (isinstance(top, Dialog | OncePalette) and top.answered):
            return  # asked for before a dialog or help opened: that one has the keys now
        if isinstance(event, RowTable.EditScore):
            asking.edit_score(self, row)
        else:
            self.edit_rows("flip" if isinstance(event, RowTable.FlipLabel) else "delete", row)

    def action_add_row(self) -> None:
        asking.add_row(self)

    def action_undo(self) -> None:
        self.post_message(self.UndoRedo("undo"))

    def action_redo(self) -> None:
        self.post_message(self.UndoRedo("redo"))

    @on(UndoRedo)
    def _travel(self, event: UndoRedo) -> None:
        self.edit_rows(event.kind)

    def action_reset(self) -> None:
        self.playback.stop()
        self.run(self.session.reset)

    def _reveal_chart(self) -> str:
        """Show the chart pane if it is hidden (one pane at a time, and another shown),
        so a chart key never changes a chart that cannot be seen: what to say of it."""
        if self.view in ("all", "chart"):
            return ""
        self.pane = "chart"
        return "Pane 2 shown. "

    def action_cycle_chart(self) -> None:
        self.call_after_refresh(self.place_cursor)
        shown_pane = self._reveal_chart()
        self.chart_mode = CHART_MODES[(CHART_MODES.index(self.chart_mode) + 1) % len(CHART_MODES)]
        shown = CHARTS[self.chart_mode][1]
        keys = "c for the next"
        if self.chart_mode in ("roc", "both"):
            shown += ", FPR on a log scale" if self.log_fpr else ""
            keys += "; l: FPR linear" if self.log_fpr else "; l: log FPR"
            if self.chart_mode == "roc":  # side by side the line has no room at 80 columns
                keys += "; h: no hull" if self.roc_hull else "; h: hull"
                keys += "; z: smooth"
        if self.chart_mode in CURVE_OF and not (self.braille_line or self.ascii):
            keys += "; b: braille line"
        self.say(f"{shown_pane}Chart: {shown} ({keys}).")

    def action_braille_line(self) -> None:
        """``b``: the shown curve as a braille line above the chart, the cursor on the
        active point's cell (the keys leave the tables so the cursor can stay there)."""
        if self.braille_line:
            self.braille_line = False
            self.say("Braille line hidden (b: show it again).")
            self.call_after_refresh(self.place_cursor)
            return
        if self.ascii:
            self.say(
                "The braille line is Unicode braille, which --ascii does not draw; plain "
                "mode's braille command and report --braille print it."
            )
            return
        shown_pane = self._reveal_chart()
        if self.chart_mode not in CURVE_OF:
            self.chart_mode = "roc"
        self.braille_line = True
        if self.focused is not None:
            self.set_focus(None)  # the cursor goes to the line; tab gives a table the keys
        self.call_after_refresh(self._braille_shown, shown_pane)

    def _braille_shown(self, shown_pane: str) -> None:
        strip = self.query_one(BrailleStrip)
        line, kind = strip.line(), strip.kind
        if line is None or kind is None:
            return
        self.say(
            f"{shown_pane}Braille line of the {NAMES[kind]} curve above the chart, the cursor "
            f"on the active point's cell (b: hide; S: the curve as sound); {line.scale}."
        )
        self.place_cursor()

    def action_sound(self) -> None:
        """``S``: the curve shown (PR on the PR chart, else ROC) as a WAV file."""
        asking.sound_file(self, "pr" if self.chart_mode == "pr" else "roc")

    def action_log_fpr(self) -> None:
        shown_pane = self._reveal_chart()
        self.log_fpr = not self.log_fpr
        if self.chart_mode not in ("roc", "both"):
            self.chart_mode = "roc"
        if self.log_fpr:
            extras = [
                w for w, on in (("hull", self.roc_hull), ("smoothed curve", self.roc_smooth)) if on
            ]
            apart = f"; the {' and the '.join(extras)} show with FPR linear" if extras else ""
            self.say(
                f"{shown_pane}ROC chart: FPR on a log scale, decades down to the smallest FPR "
                f"above 0; points at FPR 0 sit on the axis{apart} (l: linear again)."
            )
        else:
            self.say(f"{shown_pane}ROC chart: FPR on a linear scale again (l: log scale).")

    def action_roc_hull(self) -> None:
        shown_pane = self._reveal_chart()
        self.roc_hull = not self.roc_hull
        if self.chart_mode not in ("roc", "both"):
            self.chart_mode = "roc"
        if self.roc_hull:
            linear = "; drawn with FPR on the linear scale (l)" if self.log_fpr else ""
            self.say(
                f"{shown_pane}ROC chart: its convex hull (=), the points ever cheapest, and "
                f"ROCCH AUC{linear} (h: hide)."
            )
        else:
            self.say(f"{shown_pane}ROC chart: the convex hull hidden (h: show it).")

    def action_roc_smooth(self) -> None:
        shown_pane = self._reveal_chart()
        if self.chart_mode not in ("roc", "both"):
            self.chart_mode = "roc"
        order = ("", *SMOOTH_METHODS)
        self.roc_smooth = order[(order.index(self.roc_smooth) + 1) % len(order)]
        if not self.roc_smooth:
            self.say(f"{shown_pane}ROC chart: the smoothed curve hidden (z: binormal).")
            return
        smoothed = None if self.frame is None else self.frame.readings.smoothed
        nxt = order[(order.index(self.roc_smooth) + 1) % len(order)] or "none"
        if smoothed is None:
            words = "drawn once these rows are prepared"
        elif self.has_class("-hide-metrics") and isinstance(smoothed, Smoothed):
            words = f"~ {smoothed.label}, a model of the scores beside the exact curve"
        else:
            words = smoothed.words()
        if self.log_fpr and isinstance(smoothed, Smoothed):
            words += "; drawn with FPR on the linear scale (l)"
        self.say(f"{shown_pane}ROC chart: {words} (z: {nxt}).")

    def action_fold_curve(self) -> None:
        rows = () if self.frame is None else self.frame.update.models
        if self.frame is None or not self.frame.update.folds or len(rows) < 2:
            self.say("F draws one fold's curve at a time on rows opened with --fold COL.")
            return
        shown_pane = self._reveal_chart()
        if self.chart_mode not in ("roc", "pr", "both", "det"):
            self.chart_mode = "roc"
        self.fold_curve = (self.fold_curve + 1) % len(rows)
        shown = {"pr": "#pr-chart", "det": "#det-chart"}.get(self.chart_mode, "#roc-chart")
        chart = self.query_one(shown, CurveChart)
        self.say(f"{shown_pane}{chart.fold_sentence()}")

    def action_decimals(self) -> None:
        self.decimals = not self.decimals
        if self.decimals:
            self.say("Sweep table: rates as decimals (x: as counts again).")
        else:
            self.say(
                "Sweep table: rates as their counts, such as 8/14, while they fit (x: decimals)."
            )

    def action_goal(self) -> None:
        asking.set_goal(self)

    def action_band(self) -> None:
        asking.set_band(self)

    def action_band_low(self, delta: int) -> None:
        """Move the band's reject threshold a tie group (-1 up, 1 down)."""
        self.run(lambda: self.session.move_band_low(delta))

    def action_regenerate(self, what: str, step: int) -> None:
        """Generated rows made again: ``overlap`` or ``balance`` a step up or down."""
        self.run(lambda: self.session.regenerate(what, step))

    def action_transform(self) -> None:
        asking.set_transform(self)

    def action_next_class(self) -> None:
        self.run(self.session.next_class)

    def action_classes(self) -> None:
        asking.multiclass_summary(self)

    def action_next_model(self) -> None:
        self.run(self.session.next_model)

    def action_prevalence(self) -> None:
        asking.set_prevalence(self)

    def action_intervals(self) -> None:
        self.run(lambda: self.session.set_intervals("off" if self.session.intervals else "on"))

    def action_bootstrap(self) -> None:
        self.bootstrapper.toggle()

    def action_next_readout(self) -> None:
        self._reveal_chart()  # the readout is a point on the ROC chart
        self.run(self.session.next_readout)

    def action_more_metrics(self) -> None:
        if self.has_class("-hide-metrics"):
            self.say("The metrics are hidden until the lesson shows them.")
            return
        asking.all_metrics(self)

    def action_groups(self) -> None:
        asking.groups_summary(self)

    def action_own_thresholds(self) -> None:
        self.run(self.session.toggle_own)

    def action_play(self) -> None:
        self.playback.toggle()

    def action_speed(self, direction: int) -> None:
        self.playback.speed(direction)

    def action_playback(self, delta: int) -> None:
        self.playback.step(delta)

    def load_preset(self, name: str) -> None:
        asking.load_preset(self, name)

    def action_pick_preset(self) -> None:
        asking.pick_preset(self)

    def action_save(self) -> None:
        asking.save(self)

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.all_bindings(), ascii=self.ascii))

    def action_quit_app(self) -> None:
        asking.quit_app(self)
