"""Plain mode's commands that describe: the metrics and their explanations, the
curves, calibration, intervals and the bootstrap, the classes."""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path

from threshold_lab.core.calibration.reliability import BINNINGS, BINS, parse_bins
from threshold_lab.core.curves.braille import WIDTH as BRAILLE_WIDTH
from threshold_lab.core.curves.braille import braille_line
from threshold_lab.core.curves.braille import parse_kind as parse_braille_kind
from threshold_lab.core.curves.braille import parse_width as parse_braille_width
from threshold_lab.core.curves.describe import describe
from threshold_lab.core.curves.describe import parse_kind as parse_describe_kind
from threshold_lab.core.curves.operating import (
    parse_partial_auc,
    parse_readouts,
)
from threshold_lab.core.curves.smooth import NotSmoothed, parse_bandwidth
from threshold_lab.core.curves.smooth import parse_method as parse_smooth_method
from threshold_lab.core.curves.sound import SECONDS, check_wav, parse_seconds, sonify, write_wav
from threshold_lab.core.curves.sound import parse_kind as parse_sound_kind
from threshold_lab.core.curves.walk import entered_rows, next_chance, next_hull, step_words
from threshold_lab.core.curves.walk import parse_kind as parse_walk_kind
from threshold_lab.core.decide.goal import parse_goal
from threshold_lab.core.decide.solve import Setting, solve
from threshold_lab.core.errors import InputError
from threshold_lab.core.metrics.threshold_metrics import METRIC_NAMES
from threshold_lab.core.report.as_text import (
    metrics_section,
    prevalence_section,
    quantised_lines,
)
from threshold_lab.core.session.groups import PooledAnalysis
from threshold_lab.core.session.update import Update
from threshold_lab.core.text.calibration import calibration_words
from threshold_lab.core.text.intervals import boot_summary_words, curve_interval_words
from threshold_lab.core.text.multiclass import classes_words, multiclass_words
from threshold_lab.core.text.notable import notable_points
from threshold_lab.core.text.operating import partial_auc_sentence, readout_sentence
from threshold_lab.core.text.scores import threshold_words
from threshold_lab.core.text.sentences import (
    SUMMARY_WORDS,
    curve_words,
    explain,
    metric_key,
)
from threshold_lab.tui.plain.speaker import Speaker


class Describing(Speaker):
    """The commands that describe the metrics, curves, calibration and classes."""

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

    def _curve(self, kind: str) -> list[str]:
        a = self.analysis
        d = self.session.current().deciding
        goal = d.decision.index if d and d.decision and d.decision.feasible else None
        found = self.session.readouts()
        lines = curve_words(a, kind, notable=notable_points(a, found, goal))
        q = self.session.quantisation
        if kind == "roc" and q is not None:
            lines += [line.strip() for line in quantised_lines(a, q)]
        sure = self._sure()
        if sure is None or len(lines) < 2:
            return lines
        return lines + curve_interval_words(a, kind, sure)

    def cmd_braille(self, args: list[str]) -> None:
        """``braille roc|pr|det [WIDTH]``: the curve as one line of braille cells, then
        the scale in words."""
        if not args or len(args) > 2:
            raise InputError("say braille roc, braille pr or braille det, and a width if not 40")
        kind = parse_braille_kind(args[0])
        width = parse_braille_width(args[1]) if len(args) == 2 else BRAILLE_WIDTH
        line = braille_line(self.analysis.sweep, kind, width)
        self.say(line.cells, line.scale)

    def cmd_describe(self, args: list[str]) -> None:
        """``describe roc|pr``: the curve's shape, a sentence a claim."""
        if len(args) != 1:
            raise InputError("say describe roc or describe pr")
        a = self.analysis
        kind = parse_describe_kind(args[0])
        hull = sorted(a.curves.cost_curve.points())
        name, others = self.session.other_models() if kind == "roc" else ("", [])
        d = describe(a.sweep, kind, hull, name=name, others=others)
        if d.reason is not None:
            self.say(f"No description of the {d.kind.upper()} curve: {d.reason}.")
            return
        self.say(*d.sentences)

    def cmd_smooth(self, args: list[str]) -> None:
        """``smooth binormal|density|normal[,...] [BANDWIDTH]``: the ROC curve smoothed
        by a model (a density's bandwidth nrd0, nrd or a number)."""
        if len(args) not in (1, 2):
            raise InputError(
                "say smooth binormal, smooth density or smooth normal (comma-separated for "
                "several; smooth density nrd or smooth density 0.05 for a bandwidth)"
            )
        methods = parse_smooth_method(args[0])
        bandwidth = parse_bandwidth(args[1]) if len(args) == 2 else "nrd0"
        if len(args) == 2 and "density" not in methods:
            raise InputError("a bandwidth is the density smoothing's: say smooth density nrd")
        for method in methods:
            smoothed = self.analysis.curves.smoothed(method, bandwidth)
            if isinstance(smoothed, NotSmoothed):
                self.say(f"No {smoothed.label} curve: {smoothed.reason}.")
            else:
                self.say(smoothed.sentence())

    def cmd_sound(self, args: list[str]) -> None:
        """``sound roc|pr FILE.wav [SECONDS] [overwrite]``: the curve as a WAV file, said
        in one line (no audio device is used: listen to the file). A file already there
        is replaced only with ``overwrite``, as ``save`` does."""
        overwrite = len(args) > 2 and args[-1].lower() == "overwrite"
        given = args[:-1] if overwrite else args
        if len(given) not in (2, 3):
            raise InputError(
                "say sound roc FILE.wav (or sound pr), and seconds a point if not 0.25; "
                "overwrite at the end to replace a file"
            )
        kind = parse_sound_kind(given[0])
        seconds = parse_seconds(given[2], "sound: seconds") if len(given) == 3 else SECONDS
        out = check_wav(Path(given[1]).expanduser(), "sound")  # the name checked first
        if not overwrite and out.real.is_file():
            again = shlex.join([*given, "overwrite"])
            raise InputError(f"sound {given[1]}: already exists. To replace it: sound {again}")
        made = sonify(self.analysis.sweep, kind, seconds)
        self.say(made.sentence(write_wav(out, made)))

    #: The curve being walked (walk roc|pr|det), or None.
    _walking: str | None = None

    def cmd_walk(self, args: list[str]) -> None:
        """``walk roc|pr|det`` starts a walk at the active point; ``walk off`` stops;
        ``walk to readout fpr 0.01 | hull | chance`` jumps and says the point."""
        if not args:
            raise InputError("say walk roc, walk pr or walk det (walk off to stop)")
        word = args[0].lower()
        if word == "off":
            self._no_args(args[1:])
            was, self._walking = self._walking, None
            self.say("The walk stopped." if was else "No walk was on.")
            return
        if word == "to":
            self._walk_to(args[1:])
            return
        self._no_args(args[1:])
        kind = parse_walk_kind(word)
        self._check_walkable(kind)
        self._walking = kind
        self.say(
            f"Walking the {self._walking.upper()} curve: next and prev (n, p) move "
            "one point, first and last to the ends, walk off stops."
        )
        self.say(self._step_words())

    def _check_walkable(self, kind: str) -> None:
        """Refuse a walk along a curve the rows do not have (a class missing)."""
        s = self.analysis.sweep
        if float(s.positives) <= 0 or (kind != "pr" and float(s.negatives) <= 0):
            missing = "positives" if float(s.positives) <= 0 else "negatives"
            raise InputError(
                f"walk {kind}: the rows have no actual {missing}: the curve is undefined"
            )

    def _walk_to(self, args: list[str]) -> None:
        a = self.analysis
        self._check_walkable(self._walking or "roc")
        if not args:
            raise InputError(
                "say walk to readout fpr 0.01, walk to hull, walk to chance or walk to best GOAL"
            )
        where = args[0].lower()
        if where == "readout":
            if len(args) < 3:
                raise InputError(
                    "walk to readout: give a rate, as walk to readout fpr 0.01 (TPR at FPR "
                    "0.01) or walk to readout tpr 0.9 (FPR at TPR 0.9)"
                )
            asked = parse_readouts(" ".join(args[1:]))
            if len(asked) > 1:
                raise InputError(
                    f"walk to readout {' '.join(args[1:])}: one rate at a time, as walk to "
                    f"readout {args[1]} {args[2].split(',')[0]}"
                )
            (found,) = self.session.readouts(asked[:1]) if asked else (None,)
            if found is None or found.point is None:
                raise InputError("walk to readout: no point reaches that readout")
            target: int | None = found.point
        elif where == "best":
            if len(args) < 2:
                raise InputError("walk to best: give the goal, as walk to best max f1")
            goal = parse_goal(" ".join(args[1:]))
            decision = solve(Setting(a.sweep, beta=a.beta), goal)
            if not decision.feasible:
                raise InputError(f"walk to best {goal.text()}: {decision.reason}")
            target = decision.index
        elif where in ("hull", "chance"):
            self._no_args(args[1:])
            finder = next_hull if where == "hull" else next_chance
            target = finder(a.sweep, a.point)
            if target is None:
                raise InputError(f"walk to {where}: no {where} point after this one")
        else:
            raise InputError(f"walk to {where!r}: give readout, hull, chance or best")
        self._walking = self._walking or "roc"
        assert target is not None
        self.session.to_point(target)
        self.say(self._step_words())

    def _walk_move(self, args: list[str], move: Callable[[], Update]) -> None:
        """next, prev, n, p, first, last: a walk's step said when walking, else the move
        said as ever."""
        if self._walking is None:
            self._move(args, move)
            return
        self._no_args(args)
        before = self.analysis.point
        move()
        a = self.analysis
        if a.point == before:  # at an end: said so, not the same point again as a step
            end = "first" if before == 0 else "last"
            self.say(
                f"The walk is already at its {end} point, point {before + 1} of {a.sweep.size}."
            )
            return
        self.say(self._step_words())

    def _step_words(self) -> str:
        a = self.analysis
        assert self._walking is not None
        rows, count = entered_rows(a.data, a.sweep, a.point)
        return step_words(a.sweep, self._walking, a.point, rows, count)

    def cmd_readout(self, args: list[str]) -> None:
        """``readout``: those asked for (--readout; by default the seven); ``readout fpr
        0.01,0.05`` or ``tpr 0.9``."""
        asked = parse_readouts(" ".join(args)) if args else None
        self.say(*(readout_sentence(r) for r in self.session.readouts(asked)))

    def cmd_partial_auc(self, args: list[str]) -> None:
        """``partial auc fpr 0 0.1`` (or ``fpr:0-0.1``); ``partial auc`` alone: those
        --partial-auc asked for."""
        if not args or args[0].lower() != "auc":
            raise InputError("say partial auc, then the focus and the range: partial auc fpr 0 0.1")
        if len(args) == 1:
            found = self.session.partial_aucs()
            if not found:
                raise InputError(
                    "partial auc: give the focus and the range, as in "
                    "partial auc fpr 0 0.1 (--partial-auc gave none)"
                )
            self.say(*(partial_auc_sentence(p) for p in found))
            return
        asked = (parse_partial_auc(" ".join(args[1:])),)
        self.say(*(partial_auc_sentence(p) for p in self.session.partial_aucs(asked)))

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

    def cmd_intervals(self, args: list[str]) -> None:
        self._expect(args, 1, "intervals on, intervals off, or intervals C (a confidence like 0.9)")
        self._said(self.session.set_intervals(args[0]))

    def cmd_bootstrap(self, args: list[str]) -> None:
        with self.session.bootstrap_undone_on_interrupt():  # stopped: as it was before
            self._bootstrap(args)

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
