"""What a front end asks for, checked once: the options given (each read by its
entry in :data:`~threshold_lab.core.report.table.OPTIONS`), the rules between them
(:func:`check`), and the rows they name: a file or preset (the command line, plain
mode) or arrays (the Python API).

Every front end makes a :class:`Request` and hands it to core:
:func:`~threshold_lab.core.report.report.build_report` for a report,
:func:`~threshold_lab.core.session.opening.open_session` for the
explorer and plain mode. A combination one front end refuses, every front end
refuses, with the same message.

>>> r = Request.from_python("report()", [1, 0, 1], [0.9, 0.4, 0.6], {"goal": "max f1"})
>>> r.options(r.open()).goal.text()
'max f1'
>>> check("report()", {"seed": 7})
Traceback (most recent call last):
...
threshold_lab.core.errors.InputError: --seed needs --bootstrap or --test or ...
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.data.arrays import ARRAYS, arrays_source, at, scores_of
from threshold_lab.core.data.loaders import Columns
from threshold_lab.core.data.models import join_models
from threshold_lab.core.data.sources import Source, open_source, with_folds, with_groups
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.intervals.bootstrap import REPLICATES
from threshold_lab.core.output import Output, output
from threshold_lab.core.report.options import BaselineRows, Options
from threshold_lab.core.report.table import COMMANDS, OPTIONS, PYTHON, Option

FloatArray = npt.NDArray[np.float64]

_ONE_RUN = frozenset({"report", "plot", "report()", "from_frame()", "from_estimator()"})
_EVERYWHERE = frozenset(OPTIONS["threshold"].fronts)


@dataclass(frozen=True)
class Rule:
    """Option ``option``, given, needs one of ``needs`` given too (or, with
    ``excludes``, must not be given with it), in the front ends ``fronts``."""

    option: str
    why: str
    needs: tuple[str, ...] = ()
    excludes: str | None = None
    fronts: frozenset[str] = _EVERYWHERE

    def broken(self, given: Mapping[str, object]) -> str | None:
        """The message when ``given`` breaks the rule, else None."""
        if self.option not in given:
            return None
        a = OPTIONS[self.option]
        if self.excludes is not None and self.excludes in given:
            return _both(a, OPTIONS[self.excludes], self.why)
        if self.needs and not any(n in given for n in self.needs):
            return _needs(a, [OPTIONS[n] for n in self.needs], self.why)
        return None


def _needs(a: Option, bs: Sequence[Option], why: str) -> str:
    """``--a needs --b (a= needs b= from Python): why``, each side as the front ends
    that take it spell it (a needed option the command line does not take, such as
    ``folds=``, is named on the Python side only)."""
    flagged = [b for b in bs if b.flag and b.fronts & set(COMMANDS)]
    keyed = [b for b in bs if b.keyword and b.fronts & set(PYTHON)]
    cli = a.fronts & set(COMMANDS) and flagged
    python = a.keyword and a.fronts & set(PYTHON) and keyed
    said = []
    if cli:
        said.append(f"{a.flag} needs {' or '.join(str(b.flag) for b in flagged)}")
    if python:
        keys = " or ".join(f"{b.keyword}=" for b in keyed)
        said.append(f"{a.keyword}= needs {keys}" + (" from Python" if cli else ""))
    text = said[0] + (f" ({said[1]})" if len(said) > 1 else "")
    return f"{text}: {why}"


def _both(a: Option, b: Option, why: str) -> str:
    cli = a.flag and b.flag and a.fronts & set(COMMANDS)
    python = a.keyword and b.keyword and a.fronts & set(PYTHON)
    said = []
    if cli:
        said.append(f"{a.flag} and {b.flag}")
    if python:
        said.append(f"{a.keyword}= and {b.keyword}=" + (" from Python" if cli else ""))
    text = said[0] + (f" ({said[1]})" if len(said) > 1 else "")
    return f"{text} do not combine: {why}"


_TUNED = "one threshold is tuned over the folds"
_COMPARED = "the thresholds are compared fold by fold"
_SPLIT = (
    "the folds' spread and the groups' gaps are two different questions: report each on its own"
)

#: Every rule between options, for every front end.
RULES: tuple[Rule, ...] = (
    Rule(
        "seed",
        "it seeds the bootstrap's resampling and --test's",
        needs=("bootstrap", "test", "ci_se", "ci_sp", "ci_thresholds", "auc_interval"),
        fronts=_ONE_RUN,
    ),
    Rule("permutations", "they are Venkatraman's test's (--test venkatraman)", needs=("test",)),
    Rule(
        "at_specificity",
        "the models' sensitivities are compared there (--test sensitivity)",
        needs=("test",),
    ),
    Rule(
        "at_sensitivity",
        "the models' specificities are compared there (--test specificity)",
        needs=("test",),
    ),
    Rule("bandwidth", "it is the density smoothing's (--smooth density)", needs=("smooth",)),
    Rule("tolerance", "it is the criterion's largest gap", needs=("group_goal",)),
    Rule("randomised", "it mixes each group's thresholds", needs=("group_goal",)),
    Rule("max_gap", "it is a limit for --check", needs=("check",)),
    Rule(
        "check",
        "it fails the run when the goal is infeasible (--goal), when no band decides a "
        "row within its bounds (--band-goal) or when a gap between groups is too large "
        "(--max-gap with --group)",
        needs=("goal", "band_goal", "max_gap"),
    ),
    Rule("format", "it is the format of --curve's points", needs=("curve",)),
    Rule(
        "curve",
        "--curve writes the curve's points as CSV, --json the whole report: give one",
        excludes="json",
    ),
    Rule(
        "braille",
        "--braille adds lines to the text report, --json prints one JSON object: give one",
        excludes="json",
    ),
    Rule(
        "braille",
        "--braille adds lines to the text report, --curve writes the points instead",
        excludes="curve",
    ),
    Rule(
        "junit",
        "it writes each --require, and what --check checks, as a test case",
        needs=("require", "check"),
    ),
    Rule("baseline_rows", "the earlier report whose model scored those rows", needs=("baseline",)),
    Rule(
        "baseline_scores", "the earlier report whose model scored these rows", needs=("baseline",)
    ),
    Rule("folds", _SPLIT, excludes="groups"),
    Rule("cv_goal", _TUNED, needs=("fold", "folds")),
    Rule("stable_within", _COMPARED, needs=("fold", "folds")),
    Rule("stable_in", "it counts the folds of --stable-within", needs=("stable_within",)),
    Rule("group", "give a column of the frame or one name a row, not both", excludes="groups"),
    Rule("fold", "give a column of the frame or one name a row, not both", excludes="folds"),
    Rule("fold", _SPLIT, excludes="group"),
    Rule("step", "it is the step of the lesson drawn", needs=("lesson",)),
    Rule("demo", "--demo runs the tour lesson; give one lesson", excludes="lesson"),
    Rule(
        "record",
        "--record writes the explorer's keys; in plain mode the input is the script",
        excludes="plain",
    ),
)


def check(front: str, given: Mapping[str, object]) -> None:
    """Refuse (InputError, one message every front end shares) options ``front``
    does not take, and any combination a rule forbids."""
    for name in given:
        if front not in OPTIONS[name].fronts:
            raise InputError(f"{OPTIONS[name].spelled} is not an option of {front}")
    for rule in RULES:
        if front in rule.fronts:
            said = rule.broken(given)
            if said is not None:
                raise InputError(said)
    _check_requirements(given)
    _check_tests(given)
    if "stable_within" in given and "goal" not in given and "cv_goal" not in given:
        raise InputError(
            "--stable-within needs --goal or --cv-goal (stable_within= needs goal= or "
            "cv_goal= from Python): each fold's optimum is the goal's"
        )


def _check_tests(given: Mapping[str, Any]) -> None:
    """A test at a coordinate names its coordinate, and a coordinate its test; a
    bandwidth is a density smoothing's."""
    if "venkatraman" in given.get("test", ()) and given.get("alternative") not in (
        None,
        "two-sided",
    ):
        raise InputError(
            "--test venkatraman is two-sided only (as pROC's): it tests whether the curves "
            "differ anywhere; leave --alternative two-sided"
        )
    if "bandwidth" in given and "density" not in given.get("smooth", ()):
        raise InputError(
            "--bandwidth (bandwidth=) is the density smoothing's: add --smooth density"
        )
    tests = given.get("test", ())
    for test, where, other in (
        ("sensitivity", "at_specificity", "specificity"),
        ("specificity", "at_sensitivity", "sensitivity"),
    ):
        a = OPTIONS[where]
        if test in tests and where not in given:
            raise InputError(
                f"--test {test} needs {a.flag} S ({a.keyword}= from Python): the {other} at "
                f"which the models' {test} is compared"
            )
        if where in given and test not in tests:
            raise InputError(
                f"{a.flag} ({a.keyword}=) is --test {test}'s: the {other} at which the "
                f"models' {test} is compared; add --test {test}"
            )


def _check_requirements(given: Mapping[str, Any]) -> None:
    """A requirement that reads the baseline needs one, and one read at the goal
    needs a goal (and the baseline must have what is read)."""
    baseline = given.get("baseline")
    for r in given.get("require", ()):
        for ref in r.refs():
            if ref.baseline and baseline is None:
                raise InputError(
                    f"--require {quoted(r.expr)}: {ref} needs --baseline BASE.json (baseline= from "
                    "Python: an earlier report)"
                )
            if ref.baseline and baseline is not None and ref.name not in baseline.numbers:
                from threshold_lab.core.report.gate import why_missing

                raise InputError(
                    f"--require {quoted(r.expr)}: the baseline {baseline.source} has no "
                    f"{ref.name}{why_missing(ref.name, baseline.facts)}"
                )
            at_goal = ref.name == "objective" or ref.name.endswith(" at goal")
            if not ref.baseline and at_goal and "goal" not in given:
                raise InputError(
                    f"--require {quoted(r.expr)}: {ref} needs --goal (goal= from Python: the goal "
                    "it is read at)"
                )


def given_from_python(front: str, keywords: Mapping[str, object]) -> dict[str, Any]:
    """The options a Python caller gave (None and False are not given; the
    threshold always is), each read by its table entry."""
    table = OPTIONS.by_keyword(front)
    given: dict[str, Any] = {}
    for keyword, value in keywords.items():
        option = table.get(keyword)
        if option is None:
            raise InputError(f"{front[:-2]}: no option {quoted(keyword)}")
        if option.name != "threshold" and (value is None or value is False):
            continue
        if option.name in given:  # an alias and its option, both given
            raise InputError(
                f"{front[:-2]}: {option.keyword}= and {keyword}= are one option; give one"
            )
        given[option.name] = option.read(value)
    return given


@dataclass(frozen=True, eq=False)
class Request:
    """What a front end asks core for: its name (``report``, ``report()``, ...), the
    options given (read), and the rows: a file or preset named (``source``), or
    arrays from Python (``arrays``: y_true and y_score)."""

    front: str
    given: Mapping[str, Any] = field(default_factory=dict)
    source: str | None = None
    arrays: tuple[Any, Any] | None = None
    #: ``source`` is a preset named by ``--preset`` (never a file of that name).
    preset: bool = False

    @classmethod
    def from_python(
        cls, front: str, y_true: Any, y_score: Any, keywords: Mapping[str, object]
    ) -> Request:
        """A Python caller's arrays and keywords, read and checked."""
        given = given_from_python(front, keywords)
        check(front, given)
        return cls(front, given, arrays=(y_true, y_score))

    @classmethod
    def from_command(cls, front: str, source: str | None, given: Mapping[str, Any]) -> Request:
        """A command's SOURCE and the options its parser read, checked."""
        given = dict(given)
        preset = given.pop("preset", None)
        if source and preset:
            raise InputError("give a SOURCE or --preset NAME, not both")
        check(front, given)
        return cls(front, given, source=preset or source or "canonical", preset=not source)

    def get(self, name: str) -> Any:
        """The value of option ``name``: as given, else its default."""
        return self.given.get(name, OPTIONS[name].default)

    def replace(self, **given: Any) -> Request:
        """This request with some options given anew (None: not given)."""
        merged = {**self.given, **given}
        return dataclasses.replace(self, given={k: v for k, v in merged.items() if v is not None})

    # --- the files ----------------------------------------------------------------------

    def inputs(self) -> tuple[str, ...]:
        """Every file the run reads: the source (a file, not a preset or arrays) and
        each file an option names (the option table marks them)."""
        files = []
        if self.arrays is None and not self.preset and self.source is not None:
            files.append(str(self.source))
        for name, value in self.given.items():
            if OPTIONS[name].file == "in":
                path = getattr(value, "source", value)  # a Baseline read from its file
                if isinstance(path, str | os.PathLike) and os.path.exists(path):
                    files.append(os.fspath(path))
        return tuple(files)

    def outputs(self) -> dict[str, Output]:
        """Every file the run writes, by option, checked before any work: never one of
        its inputs, never a folder (:func:`~threshold_lab.core.output.output`)."""
        inputs = self.inputs()
        return {
            name: output(value, OPTIONS[name].flag or f"{name}=", inputs=inputs)
            for name, value in self.given.items()
            if OPTIONS[name].file == "out" and value is not None
        }

    # --- the rows -----------------------------------------------------------------------

    def open(self) -> Source:
        """The rows asked for: the file or preset, or the arrays (InputError naming
        what is wrong)."""
        if self.arrays is not None:
            return self._arrays()
        goal = self.given.get("goal")
        g = self.get
        return open_source(
            str(self.source),
            self.columns(),
            aggregated=g("aggregated"),
            keep=goal.columns() if goal is not None else (),
            scores=tuple(g("score_column") or ()),
            compare=g("compare"),
            class_scores=tuple(g("class_score") or ()),
            multiclass=bool(g("multiclass")),
            klass=g("klass"),
            by=g("by"),
            group=g("group"),
            as_models=bool(g("as_models")),
            fold=g("fold"),
        )

    def columns(self) -> Columns:
        g = self.get
        return Columns(
            score=(g("score_column") or ("score",))[0],
            label=g("label_column") or "label",
            weight=g("weight_column"),
            id=g("id_column"),
            positive=g("positive"),
        )

    def _arrays(self) -> Source:
        assert self.arrays is not None
        y_true, y_score = self.arrays
        g = self.get
        classes, positive = g("classes"), g("positive")
        src = arrays_source(
            y_true,
            y_score,
            sample_weight=g("sample_weight"),
            ids=g("ids"),
            positive=None if classes is not None else positive,
            classes=classes,
            source=g("source") or _series_name(y_score) or ARRAYS,
        )
        if classes is not None and positive is not None and src.multiclass is not None:
            names = src.multiclass.classes
            if str(positive) not in names:
                raise InputError(
                    f"positive {quoted(positive)} is not one of the classes ({', '.join(names)})"
                )
            c = names.index(str(positive))
            src = dataclasses.replace(src, data=src.multiclass.one_vs_rest(c), klass=c)
        groups, folds = g("groups"), g("folds")
        if groups is not None:
            column = g("group_name") or _series_name(groups) or "group"
            src = with_groups(src, column, sequence(groups, "groups"), where="groups")
        if folds is not None:
            column = g("fold_name") or _series_name(folds) or "fold"
            src = with_folds(src, column, sequence(folds, "folds"), where="folds")
        goal = self.given.get("goal")
        if goal is not None and goal.columns():
            raise InputError(
                f"goal {quoted(goal.text())} names a cost column (@{goal.columns()[0]}); from "
                "arrays, give the costs as numbers (min cost fp=1 fn=5)"
            )
        return src

    # --- what is computed ---------------------------------------------------------------

    def options(self, src: Source) -> Options:
        """The report's options for the rows ``src`` (the threshold not given: the
        source's own), with the baseline's scores of these rows when asked for
        (InputError for an option these rows cannot have: per-group thresholds with
        no groups)."""
        self._check_groups(src)
        values: dict[str, Any] = {
            str(o.field): self.given[o.name] for o in _fields() if o.name in self.given
        }
        if "threshold" not in self.given:
            values["threshold"] = src.threshold
        wanted = any(n in self.given for n in ("ci_se", "ci_sp", "ci_thresholds"))
        if "replicates" not in values and (wanted or values.get("auc_interval") == "bootstrap"):
            values["replicates"] = REPLICATES  # intervals only a bootstrap gives
        rows = self._baseline_rows(src)
        return Options(**values, baseline_rows=rows)

    def _check_groups(self, src: Source) -> None:
        if src.group_column is not None:
            return
        alone = f" ({src.label} opened as one group's rows)" if "group" in self.given else ""
        for name, why in (
            ("group_goal", "one threshold a group"),
            ("max_gap", "gaps are between groups"),
        ):
            if name in self.given:
                python = " (group_goal= needs groups= from Python)" if name == "group_goal" else ""
                raise InputError(f"{OPTIONS[name].flag} needs --group COL{python}: {why}{alone}")

    def _baseline_rows(self, src: Source) -> BaselineRows | None:
        if "baseline_scores" in self.given:
            return BaselineRows("baseline_scores", _scores(self.given["baseline_scores"]))
        name = self.given.get("baseline_rows")
        if name is None:
            return None
        return baseline_rows(name, src, self.columns())


def _fields() -> list[Option]:
    return [o for o in OPTIONS.values() if o.field is not None]


def baseline_rows(name: str, src: Source, columns: Columns) -> BaselineRows:
    """The baseline model's scores of ``src``'s rows, from a file of the same rows
    joined on id (raises InputError naming what does not match)."""
    flag = "--baseline-rows"
    if src.path is None:
        raise InputError(f"{flag} joins two files on id; {src.label} is not a file")
    if src.models or src.multiclass is not None:
        raise InputError(
            f"{flag} compares one model's rows with the baseline's; "
            f"{src.label} holds several models or classes"
        )
    if src.quantised or src.group_by is not None:
        raise InputError(f"{flag}: {src.label} is aggregated counts, with no rows to join")
    path = Path(name)
    if not path.exists():
        raise InputError(f"{flag} {name}: no such file")
    models = join_models(src.path, src.data, path, columns, flag)
    return BaselineRows(name, models[1].data.scores)


def sequence(values: Any, where: str = "groups") -> Any:
    """Group (or fold) names from anything list-like: a list, a numpy array, a pandas
    or polars Series (each read through ``tolist``, keeping its values' own types)."""
    if isinstance(values, str | bytes):
        raise InputError(f"{where}: give one name a row (a list or an array), not one string")
    if isinstance(values, set | frozenset | Iterator):
        why = (
            "a set has no order"
            if isinstance(values, set | frozenset)
            else "an iterator is read once"
        )
        raise InputError(f"{where}: give a list or an array, one name a row ({why})")
    tolist: Callable[[], Any] | None = getattr(values, "to_list", None) or getattr(
        values, "tolist", None
    )
    out = tolist() if callable(tolist) else values
    if not isinstance(out, Sequence) or isinstance(out, str | bytes):
        raise InputError(
            f"{where}: give one name a row (a list or an array), not {_shown_type(values)}"
        )
    return list(out)


def _shown_type(values: Any) -> str:
    name = type(values).__name__
    return f"an {name}" if name[:1] in "aeiou" else f"a {name}"


def _series_name(values: Any) -> str | None:
    named = getattr(values, "name", None)  # a pandas or polars Series' name
    return named if isinstance(named, str) and named else None


def _scores(values: Any) -> FloatArray:
    """``baseline_scores=``: one finite number a row, read as ``y_score`` is."""
    a = scores_of(values, "baseline_scores")
    bad = np.flatnonzero(~np.isfinite(a))
    if bad.size:
        raise InputError(
            f"{at('baseline_scores', int(bad[0]))} is {a[bad[0]]}, not a finite number"
        )
    return a
