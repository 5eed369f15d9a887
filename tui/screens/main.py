"""The main screen: every key of the explorer.

The state is a core Session (rows, threshold, history); the screen mirrors
its rows and threshold as reactives, and one watcher turns them into an
Analysis that is handed down to the widgets through ``data_bind``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.reactive import reactive
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Footer, Static

from core.analysis import Analysis
from core.data.dataset import Dataset
from core.errors import InputError
from core.metrics.confusion import predict
from core.metrics.threshold_metrics import METRIC_NAMES
from core.session import edits
from core.session.rowview import NOTHING_CHANGED, Changed
from core.session.session import Session
from core.text.sentences import status_sentence, step_sentence
from core.threshold import Threshold, format_threshold, parse_threshold
from tui.screens.dialogs import ConfirmDialog, PresetPicker, ValueDialog
from tui.screens.help import HelpScreen, MetricsScreen, key_names
from tui.widgets.charts import CHART_MODES, ChartPanel
from tui.widgets.confusion import ConfusionMatrix, MetricsPanel, metric_text
from tui.widgets.row_table import RowTable
from tui.widgets.score_strip import ScoreStrip
from tui.widgets.sweep_table import SweepTable
from tui.widgets.text import TextLines
from tui.widgets.threshold_bar import ThresholdBar

#: The scripted tour of --demo: (caption, what to do), one step at a time.
DEMO: tuple[tuple[str, Callable[[Session], object]], ...] = (
    (
        "Demo 1/9: five hand-authored rows at threshold 0.5; precision, recall and F1 are "
        "all 2/3, but their denominators differ.",
        lambda s: s.load_preset("canonical"),
    ),
    (
        "Demo 2/9: raise the threshold to 0.81: precision rises to 1, recall falls to 1/3.",
        lambda s: s.set_threshold(0.81),
    ),
    (
        "Demo 3/9: above all scores nothing is predicted positive: precision is undefined, "
        "with its reason, never 0.",
        lambda s: s.set_threshold(None),
    ),
    (
        "Demo 4/9: lower the threshold one tie group: the 0.9 positive enters; the ROC "
        "point moves up.",
        lambda s: s.group(1),
    ),
    (
        "Demo 5/9: the two 0.8 rows, one of each class, enter together: one diagonal ROC "
        "step, never split.",
        lambda s: s.group(1),
    ),
    (
        "Demo 6/9: the lowest score: everything is predicted positive, the ROC point (1, 1).",
        lambda s: s.lowest(),
    ),
    (
        "Demo 7/9: average precision 5/6 and the trapezoid PR area 19/24 summarise the same "
        "points differently.",
        lambda s: s.load_preset("ap-vs-trapezoid"),
    ),
    (
        "Demo 8/9: 4 positives, 16 negatives: accuracy 0.8, exactly what always saying "
        "negative scores.",
        lambda s: s.load_preset("imbalanced"),
    ),
    (
        "Demo 9/9: model B has the higher AUC (7/8) but the lower AP (7/12) than model A. "
        "Press any key to explore; ? lists every key.",
        lambda s: s.load_preset("delivery-b"),
    ),
)

#: Playback speeds offered by + and - (seconds per tie group).
PLAY_SPEEDS = (0.25, 0.5, 1.0, 2.0, 4.0)


class MainScreen(Screen[None]):
    """Threshold, rows, matrix, metrics, charts, strip and sweep on one screen."""

    BINDINGS = [
        Binding("left", "step(-1)", "-0.01", id="threshold-down"),
        Binding("right", "step(1)", "+0.01", id="threshold-up"),
        Binding("shift+left", "step(-10)", "-0.1", show=False, id="threshold-down-big"),
        Binding("shift+right", "step(10)", "+0.1", show=False, id="threshold-up-big"),
        Binding(
            "left_square_bracket",
            "group(-1)",
            "Prev group",
            show=False,
            id="group-prev",
            tooltip="Previous tie group (threshold up to the next distinct score)",
        ),
        Binding(
            "right_square_bracket",
            "group(1)",
            "Next group",
            show=False,
            id="group-next",
            tooltip="Next tie group (the next distinct score enters, ties together)",
        ),
        Binding(
            "home",
            "above_all",
            "Above all",
            show=False,
            id="above-all",
            tooltip="Above all scores: nothing predicted positive",
        ),
        Binding(
            "end",
            "lowest",
            "Lowest",
            show=False,
            id="lowest",
            tooltip="The lowest score: everything predicted positive",
        ),
        Binding("t", "type_threshold", "Type t", id="type-threshold"),
        Binding(
            "enter",
            "edit_score",
            "Edit",
            show=False,
            id="edit-score",
            tooltip="Edit the selected row's score",
        ),
        Binding(
            "space",
            "flip_label",
            "Flip",
            show=False,
            id="flip-label",
            tooltip="Flip the selected row's actual label",
        ),
        Binding("a", "add_row", "Add", show=False, id="add-row", tooltip="Add a row"),
        Binding(
            "delete",
            "delete_row",
            "Delete",
            show=False,
            id="delete-row",
            tooltip="Remove the selected row",
        ),
        Binding("ctrl+z", "undo", "Undo", show=False, id="undo", tooltip="Undo the last edit"),
        Binding("ctrl+y", "redo", "Redo", show=False, id="redo", tooltip="Redo an undone edit"),
        Binding("r", "reset", "Reset", id="reset"),
        Binding("c", "cycle_chart", "Chart", id="cycle-chart"),
        Binding(
            "m",
            "more_metrics",
            "Metrics",
            show=False,
            id="more-metrics",
            tooltip="Every metric with its formula and counts",
        ),
        Binding("p", "play", "Play", id="play"),
        Binding(
            "n",
            "playback(1)",
            "Step",
            show=False,
            id="step-forward",
            tooltip="Playback: step to the next tie group",
        ),
        Binding(
            "N",
            "playback(-1)",
            "Back",
            show=False,
            id="step-back",
            tooltip="Playback: step back one tie group",
        ),
        Binding(
            "plus", "speed(-1)", "Faster", show=False, id="play-faster", tooltip="Playback faster"
        ),
        Binding(
            "minus", "speed(1)", "Slower", show=False, id="play-slower", tooltip="Playback slower"
        ),
        Binding("P", "pick_preset", "Presets", id="presets"),
        Binding("s", "save", "Save", id="save"),
        Binding("question_mark", "help", "Help", id="help"),
        Binding("q", "quit_app", "Quit", id="quit"),
    ]

    # repaint=False: the widgets bound to these repaint themselves; repainting the
    # whole screen on every key would cost a full frame.
    data: reactive[Dataset | None] = reactive(None, init=False, repaint=False)
    threshold: reactive[Threshold] = reactive(0.5, init=False, repaint=False)
    analysis: reactive[Analysis | None] = reactive(None, init=False, repaint=False)
    chart_mode: reactive[str] = reactive("roc", repaint=False)
    changed: reactive[Changed] = reactive(NOTHING_CHANGED, repaint=False)
    message: reactive[str] = reactive("", repaint=False)

    def __init__(
        self, session: Session, *, playback_seconds: float = 1.0, demo: bool = False
    ) -> None:
        super().__init__()
        self.session = session
        self.playback_seconds = playback_seconds
        self._demo_step = 0 if demo else None
        self._demo_timer: Timer | None = None
        self._player: Timer | None = None
        self.set_reactive(MainScreen.data, session.data)
        self.set_reactive(MainScreen.threshold, session.threshold)

    # --- layout ------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield ThresholdBar(id="threshold-bar").data_bind(MainScreen.analysis)
        with Horizontal(id="top"):
            with Vertical(id="left"):
                yield ConfusionMatrix(id="matrix").data_bind(MainScreen.analysis)
                yield MetricsPanel(id="metrics").data_bind(MainScreen.analysis)
            yield ChartPanel(id="charts").data_bind(MainScreen.analysis, mode=MainScreen.chart_mode)
        yield ScoreStrip(id="strip").data_bind(MainScreen.analysis)
        with Horizontal(id="bottom"):
            yield RowTable(id="rows").data_bind(MainScreen.analysis, MainScreen.changed)
            yield SweepTable(id="sweep").data_bind(MainScreen.analysis)
        yield TextLines(id="message")
        yield TextLines(id="status")
        yield Static(self._more_keys(), id="more-keys")
        yield Footer()

    @classmethod
    def all_bindings(cls) -> list[Binding]:
        """Every key of the explorer: this screen's, then the row table's."""
        return [b for b in (*cls.BINDINGS, *RowTable.BINDINGS) if isinstance(b, Binding)]

    def _more_keys(self, width: int = 118) -> Text:
        """The keys the footer has no room for, generated from the bindings (plain, not
        markup), wrapped at ``width`` between keys, never inside one. The row table's
        arrows and pages go without saying; its view keys do not."""
        hidden = [b for b in self.all_bindings() if not b.show and b.action.split("(")[0] != "move"]
        lines: list[str] = []
        for entry in (f"{key_names(b.key)} {b.description}" for b in hidden):
            if lines and len(lines[-1]) + 2 + len(entry) <= width:
                lines[-1] += "  " + entry
            else:
                lines.append(entry)
        return Text("\n".join(lines))

    def on_resize(self) -> None:
        # Below 36 rows (an 80x24 SSH session) the strip and tables shrink.
        self.set_class(self.size.height < 36, "-short")
        self.query_one("#more-keys", Static).update(self._more_keys(max(self.size.width - 2, 20)))

    def on_mount(self) -> None:
        self._recompute(self.data, self.threshold)
        self.query_one(RowTable).focus()
        if self._demo_step is not None:
            self._demo_next()
            self._demo_timer = self.set_interval(3 * self.playback_seconds, self._demo_next)

    # --- demo ----------------------------------------------------------------------

    def _demo_next(self) -> None:
        """Show the next step of the tour; after the last one the tour ends by itself."""
        if self._demo_step is None or self._demo_step >= len(DEMO):
            self._demo_stop()
            return
        caption, act = DEMO[self._demo_step]

        def step() -> None:
            act(self.session)

        self._run(step)
        self.say(caption)
        self._demo_step += 1

    def _demo_stop(self) -> None:
        if self._demo_timer is not None:
            self._demo_timer.stop()
            self._demo_timer = None
        self._demo_step = None

    @property
    def demo_running(self) -> bool:
        return self._demo_step is not None

    def on_key(self, event: events.Key) -> None:
        # Any key ends the tour and does nothing else, so nothing changes by surprise.
        if self.demo_running:
            event.stop()
            event.prevent_default()
            self._demo_stop()
            self.say("Demo stopped. Explore freely; ? lists every key.")

    # --- state -> analysis ---------------------------------------------------------

    def watch_data(self, old: Dataset | None, new: Dataset | None) -> None:
        self._recompute(old, self.threshold)

    def watch_threshold(self, old: Threshold, new: Threshold) -> None:
        self._recompute(self.data, old)

    def _recompute(self, old_data: Dataset | None, old_threshold: Threshold) -> None:
        data = self.data
        if data is None:
            return
        self.analysis = self.session.analysis
        if old_data is data:
            # A threshold move: the changed rows are a score band, found without a pass.
            self.changed = Changed.band(old_threshold, self.threshold)
        elif (
            old_data is not None
            and old_data.scores is data.scores
            and old_threshold == self.threshold
        ):
            # Only labels changed (a flip): no prediction did, and no pass is needed.
            self.changed = NOTHING_CHANGED
        elif old_data is not None and old_data.n == data.n:
            before = predict(old_data, old_threshold)
            after = predict(data, self.threshold)
            self.changed = Changed.listed(np.flatnonzero(before != after))
        else:
            self.changed = NOTHING_CHANGED
        self.query_one("#status", TextLines).show(self.status_text, sticky=True)

    def _sync(self) -> None:
        """Mirror the session's rows and threshold into the reactives."""
        self.data = self.session.data
        self.threshold = self.session.threshold

    def _run(self, change: Callable[[], str | None]) -> None:
        """Apply one session change; a refusal is said and nothing changes."""
        try:
            note = change()
        except InputError as exc:
            self.say(f"Refused: {exc}.")
            return
        self._sync()
        if note:
            self.say(note)

    @property
    def status_text(self) -> str:
        """The plain sentence describing the active policy."""
        return status_sentence(self.analysis) if self.analysis else ""

    def watch_message(self, text: str) -> None:
        self.query_one("#message", TextLines).show(text)

    def say(self, text: str) -> None:
        self.message = text

    # --- threshold ---------------------------------------------------------------

    def _set_threshold(self, t: Threshold) -> None:
        self._run(lambda: self.session.set_threshold(t))

    def action_step(self, steps: int) -> None:
        self._run(lambda: self.session.step(steps))

    def action_group(self, delta: int) -> None:
        self._run(lambda: self.session.group(delta))

    def action_above_all(self) -> None:
        self._set_threshold(None)

    def action_lowest(self) -> None:
        self._run(self.session.lowest)

    def action_type_threshold(self) -> None:
        current = "above-all" if self.threshold is None else format_threshold(self.threshold)

        def done(value: object) -> None:
            if value is None:
                self.say("Threshold unchanged.")
            else:
                self._set_threshold(None if value == "above-all" else value)  # type: ignore[arg-type]

        def check(text: str) -> object:
            t = parse_threshold(text)
            return "above-all" if t is None else t

        self.app.push_screen(
            ValueDialog(
                "Threshold",
                current,
                check,
                hint="A number such as 0.5, or above-all. Positive if score >= t.",
            ),
            done,
        )

    # --- rows --------------------------------------------------------------------

    def _row(self) -> int | None:
        return self.query_one(RowTable).selected_row

    def action_edit_score(self) -> None:
        i = self._row()
        data = self.data
        if i is None or data is None:
            return
        rid = data.row_id(i)

        def check(text: str) -> str:
            edits.check_score(data, text)
            return text

        def done(value: object) -> None:
            if value is None:
                self.say(f"Edit of row {rid} cancelled; nothing changed.")
            else:
                self._run(lambda: self.session.set_score(i, str(value)))

        self.app.push_screen(
            ValueDialog(
                f"Score of row {rid}",
                repr(float(data.scores[i])),
                check,
                hint="A finite number" + (" in [0, 1]" if data.are_probabilities else ""),
            ),
            done,
        )

    def action_flip_label(self) -> None:
        i = self._row()
        if i is not None:
            self._run(lambda: self.session.flip_label(i))

    def action_add_row(self) -> None:
        data = self.data
        if data is None:
            return

        def check(text: str) -> tuple[str, str]:
            parts = text.replace(",", " ").split()
            if len(parts) != 2 or parts[1] not in ("0", "1"):
                raise InputError("type a score and a label 0 or 1, such as: 0.3 1")
            edits.check_score(data, parts[0])
            return parts[0], parts[1]

        def done(value: object) -> None:
            if value is not None:
                score, label = value  # type: ignore[misc]
                self._run(lambda: self.session.add_row(score, label))
                self.query_one(RowTable).select(self.session.data.n - 1)

        self.app.push_screen(
            ValueDialog("Add a row: score and label", "0.5 1", check, hint="For example: 0.3 1"),
            done,
        )

    def action_delete_row(self) -> None:
        i = self._row()
        if i is not None:
            self._run(lambda: self.session.delete_row(i))

    def action_undo(self) -> None:
        self._run(self.session.undo)

    def action_redo(self) -> None:
        self._run(self.session.redo)

    def action_reset(self) -> None:
        self._stop()
        self._run(self.session.reset)

    @property
    def dirty(self) -> bool:
        return self.session.dirty

    # --- views -------------------------------------------------------------------

    def action_cycle_chart(self) -> None:
        self.chart_mode = CHART_MODES[(CHART_MODES.index(self.chart_mode) + 1) % 3]

    def action_more_metrics(self) -> None:
        a = self.analysis
        if a is not None:
            title = f"All metrics at threshold {format_threshold(a.threshold)}"
            ascii = getattr(self.app, "ascii", False)
            self.app.push_screen(MetricsScreen(title, metric_text(a, METRIC_NAMES, ascii=ascii)))

    # --- playback ----------------------------------------------------------------

    def action_play(self) -> None:
        if self._player is not None:
            self._stop()
            self.say("Playback paused. n / N step; p resumes.")
            return
        if self.analysis is None:
            return
        if self.analysis.point == self.analysis.sweep.size - 1:
            self._set_threshold(None)
        self._player = self.set_interval(self.playback_seconds, self._tick)
        self.say("Playing the sweep from above all scores down; p pauses.")

    def action_speed(self, direction: int) -> None:
        """Play faster (-1) or slower (1): the next speed on the list."""
        slower = [v for v in PLAY_SPEEDS if v > self.playback_seconds]
        faster = [v for v in PLAY_SPEEDS if v < self.playback_seconds]
        if direction > 0 and slower:
            self.playback_seconds = slower[0]
        elif direction < 0 and faster:
            self.playback_seconds = faster[-1]
        if self._player is not None:  # apply it now, keeping the place in the sweep
            self._player.stop()
            self._player = self.set_interval(self.playback_seconds, self._tick)
        self.say(f"Playback: {self.playback_seconds:g} s per tie group (+ faster, - slower).")

    def _tick(self) -> None:
        a = self.analysis
        if a is None or a.point >= a.sweep.size - 1:
            self._stop()
            self.say("Playback finished at the lowest score.")
            return
        self.action_playback(1)

    def _stop(self) -> None:
        if self._player is not None:
            self._player.stop()
            self._player = None

    def action_playback(self, delta: int) -> None:
        a = self.analysis
        if a is None:
            return
        self._run(lambda: self.session.group(delta))
        if self.analysis is not None:
            self.say(step_sentence(self.analysis))

    # --- presets, files, help, quit ---------------------------------------------

    def load_preset(self, name: str) -> None:
        self._stop()
        self._run(lambda: self.session.load_preset(name))

    def action_pick_preset(self) -> None:
        def done(name: str | None) -> None:
            if name:
                self.load_preset(name)

        self.app.push_screen(PresetPicker(), done)

    def action_save(self) -> None:
        def check(text: str) -> Path:
            if not text.strip():
                raise InputError("type a file name, such as rows.csv")
            return Path(text.strip()).expanduser()

        def write(target: Path, overwrite: bool) -> None:
            try:
                self.say(self.session.save(target, overwrite=overwrite))
            except InputError as exc:
                self.say(f"Not saved: {exc}.")

        def done(value: object) -> None:
            if value is None:
                self.say("Save cancelled; nothing written.")
                return
            target = Path(value)  # type: ignore[arg-type]
            if not target.exists():
                write(target, overwrite=False)
                return
            same = self.session.path is not None and target.resolve() == self.session.path.resolve()
            what = "the source file" if same else "an existing file"
            self.app.push_screen(
                ConfirmDialog(f"{target} is {what}. Overwrite it?"),
                lambda yes: write(target, overwrite=True) if yes else self.say("Not saved."),
            )

        default = str(self.session.default_save_path())
        self.app.push_screen(
            ValueDialog("Save rows as CSV", default, check, hint="Written atomically."), done
        )

    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.all_bindings()))

    def action_quit_app(self) -> None:
        if not self.dirty:
            self.app.exit()
            return

        def done(yes: bool | None) -> None:
            if yes:
                self.app.exit()

        self.app.push_screen(ConfirmDialog("There are unsaved edits. Quit and lose them?"), done)
