"""The explorer's dialog flows: ask, check the answer with core, apply it.

Each flow opens a dialog whose answer is checked by a core parser (a refused
answer keeps the dialog open with the reason, so nothing typed is lost) and
hands the result to the screen as one Session operation. The flows see the main
screen as a :class:`~threshold_lab.tui.state.host.Host`, never by name.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from rich.text import Text
from threshold_lab.core.choices import TRANSFORMS as NAMES
from threshold_lab.core.curves.sound import check_wav, sonify, write_wav
from threshold_lab.core.decide.band import parse_band_goal
from threshold_lab.core.decide.goal import GOAL_METRICS, parse_goal
from threshold_lab.core.decide.solve import parse_prevalence
from threshold_lab.core.errors import InputError
from threshold_lab.core.metrics.metric import Metric
from threshold_lab.core.metrics.threshold_metrics import METRIC_NAMES
from threshold_lab.core.output import Output
from threshold_lab.core.report.as_text import metrics_section, prevalence_section
from threshold_lab.core.session import edits
from threshold_lab.core.session.session import NeedsOverwrite
from threshold_lab.core.text.calibration import calibration_words, ks_words
from threshold_lab.core.text.groups import groups_at_threshold
from threshold_lab.core.text.intervals import curve_interval_words
from threshold_lab.core.text.multiclass import multiclass_lines
from threshold_lab.core.text.operating import partial_auc_sentence, readout_sentence
from threshold_lab.core.text.sentences import tie_group_text
from threshold_lab.core.threshold import format_threshold, parse_threshold
from threshold_lab.core.transform import parse_transform
from threshold_lab.tui.ascii import to_ascii
from threshold_lab.tui.screens.dialogs import ConfirmDialog, PresetPicker, ValueDialog
from threshold_lab.tui.screens.help import MetricsScreen
from threshold_lab.tui.state.host import Host
from threshold_lab.tui.widgets.confusion import metric_text

#: The threshold dialog's answer for "above all scores" (None means cancelled).
_ABOVE_ALL = "above-all"


def type_threshold(host: Host) -> None:
    """Ask for a threshold: a number, or above-all."""
    t = host.session.threshold
    current = _ABOVE_ALL if t is None else format_threshold(t)

    def check(text: str) -> object:
        typed = parse_threshold(text)
        return _ABOVE_ALL if typed is None else typed

    def done(value: object) -> None:
        if (value == _ABOVE_ALL and t is None) or (isinstance(value, float) and value == t):
            where = tie_group_text(host.session.analysis)
            at = "" if t is None else f"{format_threshold(t)}, at "
            host.say(f"Threshold unchanged: {at}{where}.")
        elif isinstance(value, float):
            host.run(lambda: host.session.set_threshold(value))
        elif value == _ABOVE_ALL:
            host.run(lambda: host.session.set_threshold(None))
        else:
            host.say("Threshold unchanged.")

    hint = "A number such as 0.5, or above-all. Positive if score >= t."
    host.ask(ValueDialog("Threshold", current, check, hint=hint), done)


def edit_score(host: Host, row: int) -> None:
    """Ask for a new score of data row ``row``."""
    data = host.session.data
    rid = data.shown_id(row)

    def check(text: str) -> object:
        edits.check_score(data, text)
        return text

    def done(value: object) -> None:
        if value is None:
            host.say(f"Edit of row {rid} cancelled; nothing changed.")
        else:
            host.run(lambda: host.session.set_score(row, str(value)))

    hint = "A finite number" + (" in [0, 1]" if data.are_probabilities else "")
    dialog = ValueDialog(f"Score of row {rid}", repr(float(data.scores[row])), check, hint=hint)
    host.ask(dialog, done)


def add_row(host: Host) -> None:
    """Ask for a new row's score and label; the new row is selected."""
    data = host.session.data

    def done(value: object) -> None:
        if isinstance(value, tuple):
            score, label = value
            if host.run(lambda: host.session.insert_row(float(score), bool(label))):
                host.select_row(host.session.data.n - 1)

    dialog = ValueDialog(
        "Add a row: score and label",
        "0.5 1",
        lambda text: edits.parse_new_row(data, text),
        hint="For example: 0.3 1",
    )
    host.ask(dialog, done)


def load_preset(host: Host, name: str) -> None:
    """Load a built-in fixture; over unsaved edits, only after asking (a preset starts
    a new history, so the edits could not be undone)."""

    def load() -> None:
        host.stop_playback()
        host.run(lambda: host.session.load_preset(name))

    if not host.session.dirty:
        load()
        return
    question = f"There are unsaved edits. Load preset {name} and lose them?"
    host.ask(
        ConfirmDialog(question),
        lambda yes: load() if yes else host.say("Preset not loaded; the edits are kept."),
    )


def pick_preset(host: Host) -> None:
    """Choose a built-in fixture."""

    def done(name: str | None) -> None:
        if name:
            load_preset(host, name)

    host.ask(PresetPicker(), done)


def save(host: Host) -> None:
    """Ask for a file name and write the rows; asks before replacing a file."""
    session = host.session

    def check(text: str) -> object:
        if not text.strip():
            raise InputError("type a file name, such as rows.csv")
        return Path(text.strip()).expanduser()

    def write(target: Path, overwrite: bool) -> None:
        try:
            host.say(session.save(target, overwrite=overwrite).message)
        except NeedsOverwrite as question:
            host.ask(
                ConfirmDialog(question.question),
                lambda yes: write(target, overwrite=True) if yes else host.say("Not saved."),
            )
        except InputError as exc:
            host.say(f"Not saved: {exc}.")

    def done(value: object) -> None:
        if isinstance(value, Path):
            write(value, overwrite=False)
        else:
            host.say("Save cancelled; nothing written.")

    default = str(session.default_save_path())
    host.ask(
        ValueDialog(
            "Save rows as CSV",
            default,
            check,
            hint="Saved in one step: a failed save leaves an existing file as it was.",
            enter="saves",
        ),
        done,
    )


def sound_file(host: Host, kind: str) -> None:
    """The ``kind`` curve (roc or pr) as a WAV file: one tone a point (the contract of
    :mod:`threshold_lab.core.curves.sound`). In a terminal it asks for the file's name
    (and before replacing a file); served to a browser, the file is offered as a
    download instead, written nowhere on the server but a temporary folder."""
    try:
        made = sonify(host.session.analysis.sweep, kind)
    except InputError as exc:  # a curve of one class has no sound
        host.say(f"Refused: {exc}.")
        return
    name = f"{kind}.wav"
    if host.web:
        with tempfile.TemporaryDirectory(prefix="threshold-lab-") as folder:
            wav = write_wav(check_wav(Path(folder) / name, "sound"), made)
            data = wav.read_bytes()
        host.deliver(data, name)
        said = made.sentence(name).replace("wrote", "Offered", 1)
        host.say(f"{said}; the browser downloads it.")
        return

    def check(text: str) -> object:
        return check_wav(Path(text.strip()).expanduser(), "sound")

    def write(out: Output, overwrite: bool) -> None:
        if not overwrite and out.path.exists():
            host.ask(
                ConfirmDialog(f"{out.path} exists. Replace it with the sound?"),
                lambda yes: write(out, overwrite=True) if yes else host.say("Not written."),
            )
            return
        try:
            said = made.sentence(write_wav(out, made))
        except InputError as exc:
            host.say(f"Not written: {exc}.")
            return
        host.say(f"{said[0].upper()}{said[1:]}.")

    def done(value: object) -> None:
        if isinstance(value, Output):
            write(value, overwrite=False)
        else:
            host.say("Sound cancelled; nothing written.")

    host.ask(
        ValueDialog(
            f"The {kind.upper()} curve as sound (a WAV file)",
            name,
            check,
            hint="One tone a point, 0.25 s each: pitch its "
            + ("TPR" if kind == "roc" else "precision")
            + " (220 Hz at 0, 880 Hz at 1), left to right its "
            + ("FPR" if kind == "roc" else "recall")
            + ". Written whole or not at all.",
            enter="writes",
        ),
        done,
    )


def quit_app(host: Host) -> None:
    """Quit; with unsaved edits, only after asking (unless the rows go back to a
    Python caller, as ``threshold_lab.explore`` hands them back)."""
    if not host.session.dirty or host.rows_return:
        host.quit()
        return

    def done(yes: bool | None) -> None:
        if yes:
            host.quit()

    host.ask(ConfirmDialog("There are unsaved edits. Quit and lose them?"), done)


def all_metrics(host: Host) -> None:
    """Every metric of the current threshold, with its formula, on a screen of its own."""
    a = host.session.analysis
    title = f"All metrics at threshold {format_threshold(a.threshold)}"
    update = host.session.current()
    sure = update.sure
    if sure is None:
        body = metric_text(a, METRIC_NAMES, ascii=host.ascii)
    else:
        # With their intervals, named (Wilson's, the bootstrap's), as the report says.
        body = Text()
        lines = metrics_section(a, sure, "B")
        for i, line in enumerate(lines):
            name = METRIC_NAMES[i] if i < len(METRIC_NAMES) else None
            style = "bold" if name is not None and a.metrics[name].value is None else ""
            body.append(("\n" if i else "") + (to_ascii(line) if host.ascii else line), style)
    at, p = update.at_prevalence, host.session.prevalence
    if at is not None and p is not None:
        heading, *rest = prevalence_section(at, p)
        body.append("\n\n" + heading, style="bold")
        for line in rest:
            body.append("\n" + (to_ascii(line) if host.ascii else line))
    body.append("\n\nRanking summaries (every threshold at once)", style="bold")
    if a.curves.summaries_ready:
        s = a.curves.summaries
        for m in (s.roc_auc, s.average_precision, s.pr_trapezoid_area):
            body.append("\n" + _line(m, host.ascii), style="bold" if m.value is None else "")
        if sure is not None:
            for line in curve_interval_words(a, "roc", sure) + curve_interval_words(a, "pr", sure):
                if "band" not in line:
                    body.append("\n" + (to_ascii(line) if host.ascii else line))
        ks = ks_words(a.curves.ks)
        body.append("\n" + (to_ascii(ks) if host.ascii else ks))
        body.append("\n\nOperating points at fixed rates (R jumps to each in turn)", style="bold")
        for r in update.asked.read(a.sweep):
            line = readout_sentence(r)
            body.append("\n" + (to_ascii(line) if host.ascii else line))
        partial = update.asked.partial(a.sweep)
        if partial:
            body.append("\n\nPartial AUC (the ROC area over a range of FPR or TPR)", style="bold")
        for part in partial:
            line = partial_auc_sentence(part)
            body.append("\n" + (to_ascii(line) if host.ascii else line))
        body.append("\n\nProbability metrics (scores read as probabilities)", style="bold")
        for m in (s.log_loss, s.brier):
            body.append("\n" + _line(m, host.ascii), style="bold" if m.value is None else "")
        body.append("\n\nCalibration (c shows the reliability diagram)", style="bold")
        for line in calibration_words(a.curves.calibration()):
            body.append("\n" + (to_ascii(line) if host.ascii else line))
    else:
        body.append("\nstill being computed; m again shows them")
    host.ask(MetricsScreen(title, body))


def _line(m: Metric, ascii: bool) -> str:
    text = m.describe()
    return to_ascii(text) if ascii else text


#: What the goal dialog offers when no goal is set: the grammar by example.
GOAL_EXAMPLE = "max precision where recall >= 0.9"
GOAL_HINT = (
    "max|min METRIC [where METRIC >= x and METRIC <= y ...], or min cost fp=A fn=B "
    "[tp=C] [tn=D]. For example: max f1; max recall where fpr <= 0.05; min fpr where "
    "recall >= 0.95 and precision >= 0.5; min cost fp=1 fn=20. Metrics: "
    + ", ".join(GOAL_METRICS)
    + " (fbeta's beta is --beta, 2 by default). Type off to drop the goal."
)


def set_goal(host: Host) -> None:
    """Ask for a goal; the threshold moves to its point (``off`` drops it)."""
    goal = host.session.goal
    current = goal.text() if goal is not None else GOAL_EXAMPLE

    def check(text: str) -> object:
        if text.strip().lower() not in ("off", "none", "clear"):
            parse_goal(text)  # a malformed goal keeps the dialog open, saying why
        return text

    def done(value: object) -> None:
        if isinstance(value, str):
            host.run(lambda: host.session.set_goal(value))
        else:
            host.say("Goal unchanged.")

    dialog = ValueDialog("Goal: which threshold?", current, check, hint=GOAL_HINT, enter="solves")
    host.ask(dialog, done)


BAND_EXAMPLE = "max coverage where precision >= 0.99 and npv >= 0.99"
BAND_HINT = (
    "band: max coverage [where precision >= x and npv >= y], band: min review [where ...], "
    "or band: min cost fp=A fn=B review=C [where ...]. Rows at or above the upper threshold "
    "are accepted (the threshold moves there), rows below the lower rejected, the rest "
    "reviewed; { and } then move the lower one. Type off to drop the band."
)


def set_band(host: Host) -> None:
    """Ask for a band goal; the threshold moves to its accept threshold and the
    reject threshold to its own (``off`` drops the band)."""
    band = host.session.policy.band
    current = band[0] if band is not None and band[0] is not None else BAND_EXAMPLE

    def check(text: str) -> object:
        if text.strip().lower() not in ("off", "none", "clear"):
            parse_band_goal(text)  # a malformed goal keeps the dialog open, saying why
        return text

    def done(value: object) -> None:
        if isinstance(value, str):
            host.run(lambda: host.session.set_band(value))
        else:
            host.say("Band unchanged.")

    dialog = ValueDialog(
        "Review band: two thresholds", current, check, hint=BAND_HINT, enter="solves"
    )
    host.ask(dialog, done)


def set_prevalence(host: Host) -> None:
    """Ask for a deployment prevalence (``off`` to stop showing one)."""
    p = host.session.prevalence
    current = "1/20" if p is None else f"{p.numerator}/{p.denominator}"

    def check(text: str) -> object:
        if text.strip().lower() not in ("off", "none", "clear"):
            parse_prevalence(text)
        return text

    def done(value: object) -> None:
        if isinstance(value, str):
            host.run(lambda: host.session.set_prevalence(value))
        else:
            host.say("Prevalence unchanged.")

    hint = (
        "The share of positives where the model will be used, 0 < P < 1 (0.05 or 1/20): "
        "every metric is shown there too, keeping TPR and FPR. off stops it."
    )
    host.ask(ValueDialog("Deployment prevalence", current, check, hint=hint), done)


def set_transform(host: Host) -> None:
    """Ask for a monotone score transform; it applies as one undoable edit."""

    def check(text: str) -> object:
        parse_transform(text)  # an unknown name keeps the dialog open, saying why
        return text

    def done(value: object) -> None:
        if not isinstance(value, str):
            host.say("Scores unchanged.")
        elif host.run(lambda: host.session.transform(value)):
            host.last_transform = parse_transform(value).name

    hint = (
        f"A strictly increasing map of every score: {', '.join(NAMES)}. The ranking "
        "(AUC, AP) stays; decisions at the threshold may move. Undo with ctrl+z."
    )
    current = host.last_transform or "square"
    host.ask(ValueDialog("Transform the scores", current, check, hint=hint), done)


def groups_summary(host: Host) -> None:
    """E: each group at the threshold (a sentence each, with its intervals) and the
    gaps between groups, in the full-width scrolling screen."""
    s = host.session
    try:
        r, added = s.groups_report()
    except InputError as exc:
        host.say(f"Refused: {exc}.")
        return
    c = r.contents
    assert c.group_column is not None
    lines = groups_at_threshold(c.group_column, c.groups, c.gaps, r.threshold, added, table=False)
    shown = s.showing_group
    # Nothing to undo, or a reset back to them: the rows are as the file gave them.
    rows = "edited" if s.history.edited and s.data is not s.loaded[0] else "loaded"
    title = (
        f"{len(c.groups)} groups by {c.group_column}, the rows as {rows}"
        if shown is None
        else f"{len(c.groups)} groups by {c.group_column} (group {shown} is shown alone)"
    )
    if s.shown.own is not None:
        title += ", each at its own threshold"
    body = "\n".join(lines[1:]).strip("\n")
    host.ask(MetricsScreen(title, Text(to_ascii(body) if host.ascii else body)))


def multiclass_summary(host: Host) -> None:
    """The multiclass summary on a screen of its own (the matrix, per class, averages)."""
    r = host.session.multiclass_summary()
    if r is None:
        host.say(
            "Refused: these rows have two classes; open a file with a label column of class "
            "names and score_<class> columns for several."
        )
        return
    shown = r.classes[host.session.klass]
    title = (
        f"{len(r.classes)} classes, the rows as loaded (the main screen: {shown} against the "
        "rest; C: the next)"
    )
    body = "\n".join(multiclass_lines(r))
    text = Text(to_ascii(body) if host.ascii else body)
    host.ask(MetricsScreen(title, text))
