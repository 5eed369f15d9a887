"""What the commands share: the parser, the one error path, the source options,
and turning parsed arguments into a Source, a threshold and a Session.

Only core is imported here: the report and plain mode run without Textual.
"""

from __future__ import annotations

import argparse
import re
import sys
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

from threshold_lab.core.data.dataset import Dataset, Model
from threshold_lab.core.data.loaders import Columns
from threshold_lab.core.data.sources import Source, open_source
from threshold_lab.core.decide.goal import parse_goal
from threshold_lab.core.decide.solve import parse_prevalence
from threshold_lab.core.errors import InputError
from threshold_lab.core.intervals.bootstrap import REPLICATES, SEED, parse_replicates, parse_seed
from threshold_lab.core.intervals.closed import CONFIDENCE, parse_confidence
from threshold_lab.core.metrics.threshold_metrics import check_beta
from threshold_lab.core.threshold import Threshold, parse_threshold

if TYPE_CHECKING:  # the explorer's session: only the explorer's commands load it
    from threshold_lab.tui.opening import Opened

PROG = "threshold-lab"


class _Formatter(argparse.HelpFormatter):
    """Argparse's formatter, except that descriptions keep their line breaks: each
    line is wrapped on its own, and an indented table row hangs under its text."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        filled = []
        for line in text.splitlines():
            row = re.match(r"(\s*)(\S+\s{2,})?", line)
            assert row is not None  # the pattern matches every string
            hang = row.end() if row.group(1) and row.group(2) else len(row.group(1))
            filled.append(
                textwrap.fill(
                    line, width, initial_indent=indent, subsequent_indent=indent + " " * hang
                )
            )
        return "\n".join(filled)


class Parser(argparse.ArgumentParser):
    """A parser whose errors are one line on stderr and exit status 2."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(**kwargs)

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def fail(message: str) -> int:
    """The one way a user error ends a command: one line on stderr, status 2."""
    sys.stderr.write(f"{PROG}: error: {message}\n")
    return 2


def note(message: str) -> None:
    """A line on stderr that is not an error (the output is still coming)."""
    sys.stderr.write(f"{PROG}: note: {message}\n")


class Once(argparse.Action):
    """An option that may be given once: a second is refused, not silently kept in
    place of the first (``--compare B --compare C`` compared only C)."""

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        before = getattr(namespace, self.dest, None)
        if before is not None:
            raise argparse.ArgumentError(
                self, f"given twice ({before} and {values}); it takes one other file"
            )
        setattr(namespace, self.dest, values)


def beta(text: str) -> float:
    """An argparse type: the F-beta's beta, a positive finite number."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"beta {text!r} is not a number") from None
    try:
        return check_beta(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _typed(parse: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse type from a parser that raises ValueError with its message."""

    def run(text: str) -> Any:
        try:
            return parse(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    return run


def add_interval_options(p: argparse.ArgumentParser) -> None:
    """--confidence, --bootstrap [B] and --seed."""
    p.add_argument(
        "--confidence",
        type=_typed(parse_confidence),
        default=CONFIDENCE,
        metavar="C",
        help=f"the intervals' confidence, strictly between 0 and 1 (default {CONFIDENCE})",
    )

    def replicates(text: str) -> int:
        try:
            return parse_replicates(text)
        except ValueError as e:
            if text.strip().lstrip("+-").isdigit():
                raise
            # Most often SOURCE taken for B: say where --bootstrap goes.
            raise ValueError(
                f"{e} (give --bootstrap after SOURCE, or with a number: --bootstrap 1000)"
            ) from None

    p.add_argument(
        "--bootstrap",
        type=_typed(replicates),
        nargs="?",
        const=REPLICATES,
        default=None,
        metavar="B",
        help="add bootstrap intervals (average precision, PR area, F1, F-beta, MCC, a goal's "
        f"threshold) and curve bands from B replicates (default {REPLICATES}); give it "
        "after SOURCE",
    )
    p.add_argument(
        "--seed",
        type=_typed(parse_seed),
        default=None,
        metavar="S",
        help=f"the bootstrap's random seed (default {SEED}, so results reproduce)",
    )


def add_operating_options(p: argparse.ArgumentParser) -> None:
    """--readout "fpr 0.01,0.05" and --partial-auc fpr:0-0.1, each repeatable; the
    decision curve's --pt and --harm."""
    from threshold_lab.core.curves.operating import parse_partial_auc, parse_readouts
    from threshold_lab.core.decide.net_benefit import parse_harm, parse_pt

    p.add_argument(
        "--readout",
        action="append",
        type=_typed(parse_readouts),
        default=None,
        metavar="'fpr X,..'|'tpr Y,..'",
        help="operating points at fixed rates: TPR at each FPR <= X (fpr ...) or FPR at "
        "each TPR >= Y (tpr ...); repeatable, replacing the default "
        "'fpr 0.001,0.01,0.05,0.1' and 'tpr 0.9,0.95,0.99'",
    )
    p.add_argument(
        "--partial-auc",
        action="append",
        type=_typed(parse_partial_auc),
        default=None,
        metavar="fpr:A-B|tpr:A-B",
        help="the ROC area over FPR (or TPR) from A to B, with McClish's standardised "
        "value; repeatable (default none)",
    )
    p.add_argument(
        "--pt",
        type=_typed(parse_pt),
        default=None,
        metavar="A:B:S|a,b,..",
        help="the decision curve's threshold probabilities: a range START:END:STEP or a "
        "list (default 0.01:0.99:0.01)",
    )
    p.add_argument(
        "--harm",
        type=_typed(parse_harm),
        default=None,
        metavar="H",
        help="what acting costs every case, in net benefit, subtracted from the model's "
        "net benefit (default 0)",
    )


def add_test_options(p: argparse.ArgumentParser) -> None:
    """--alternative two-sided|greater|less and --unpaired, for comparing models."""
    from threshold_lab.core.intervals.pvalues import parse_alternative

    p.add_argument(
        "--alternative",
        type=_typed(parse_alternative),
        default="two-sided",
        metavar="two-sided|greater|less",
        help="comparing models: the alternative of DeLong's and McNemar's tests (greater: "
        "the first model's AUC above the second's; default two-sided)",
    )
    p.add_argument(
        "--unpaired",
        action="store_true",
        help="comparing models: treat the score sets as different examples (DeLong's "
        "unpaired test, Student's t with Welch-Satterthwaite df); automatic for groups",
    )


def operating_options(args: argparse.Namespace) -> dict[str, Any]:
    """The Options fields that --readout, --partial-auc, --alternative, --unpaired,
    --pt and --harm set (none given: defaults)."""
    out: dict[str, Any] = {}
    if getattr(args, "alternative", None):
        out["alternative"] = args.alternative
    if getattr(args, "unpaired", False):
        out["unpaired"] = True
    if getattr(args, "readout", None):
        out["readouts"] = tuple(r for given in args.readout for r in given)
    if getattr(args, "partial_auc", None):
        out["partial_aucs"] = tuple(args.partial_auc)
    if getattr(args, "pt", None):
        out["pt"] = args.pt
    if getattr(args, "harm", None) is not None:
        out["harm"] = args.harm
    return out


def add_meaning_options(p: argparse.ArgumentParser, *, bins: bool = True) -> None:
    """--transform NAME (and, where calibration is printed, --bins N and --binning)."""
    from threshold_lab.core.calibration.reliability import BINS, parse_binning, parse_bins
    from threshold_lab.core.transform import NAMES

    p.add_argument(
        "--transform",
        default=None,
        metavar="NAME",
        help=f"a strictly increasing map of every score ({', '.join(NAMES)}); the "
        "threshold is kept, and what changed is said",
    )
    if bins:
        p.add_argument(
            "--bins",
            type=_typed(parse_bins),
            default=BINS,
            metavar="N",
            help=f"calibration's reliability bins (default {BINS})",
        )
        p.add_argument(
            "--binning",
            type=_typed(parse_binning),
            default="mass",
            metavar="mass|width",
            help="equal-mass bins, tie groups never split (default), or equal-width",
        )


def add_source_options(p: argparse.ArgumentParser) -> None:
    """How to read a file (columns, labels, aggregation) and the F-beta's beta."""
    p.add_argument(
        "--score-column",
        action="append",
        default=None,
        metavar="NAME",
        help="column holding the scores (default: score); give it again for each model "
        "to compare, or name the columns score_A, score_B, ...",
    )
    p.add_argument(
        "--class-score",
        action="append",
        default=None,
        metavar="CLASS=COLUMN",
        help="several classes: the column holding CLASS's scores (give one per class; "
        "or name the columns score_<class>)",
    )
    p.add_argument(
        "--multiclass",
        action="store_true",
        help="read score_<class> columns as classes even when the labels have two values",
    )
    p.add_argument(
        "--class",
        dest="klass",
        default=None,
        metavar="C",
        help="several classes: open (or report) class C against the rest",
    )
    p.add_argument(
        "--by",
        default=None,
        metavar="COLUMN",
        help="an aggregated file's group column, when it has several other columns (one "
        "is found by itself); the groups open as with --group COL",
    )
    p.add_argument(
        "--as-models",
        action="store_true",
        help="an aggregated file with groups: open each group as a model of its own rows "
        "(compared as different examples: unpaired DeLong) instead of as groups",
    )
    p.add_argument(
        "--group",
        default=None,
        metavar="COL|NAME",
        help="the column naming each row's group (site, age band, device): report gives "
        "every group's numbers and the gaps between groups (an aggregated file's group "
        "column is read by itself); an aggregated file: --group NAME opens that group's "
        "rows alone (with --as-models: that group first)",
    )
    p.add_argument(
        "--fold",
        default=None,
        metavar="COL",
        help="the column naming each row's cross-validation fold: each fold's curve, AUC, AP "
        "and readouts, their mean and standard deviation, beside the pooled AUC of all rows "
        "(not with --group)",
    )
    p.add_argument(
        "--compare",
        default=None,
        action=Once,
        metavar="OTHER_FILE",
        help="a second file of the same examples, scored by another model: the two are "
        "joined on id and compared (each named after its file)",
    )
    p.add_argument(
        "--label-column",
        default="label",
        metavar="NAME",
        help="column holding the actual labels (default: label)",
    )
    p.add_argument(
        "--weight-column",
        default=None,
        metavar="NAME",
        help="column of non-negative row weights (default: 'weight' if present)",
    )
    p.add_argument(
        "--id-column",
        default=None,
        metavar="NAME",
        help="column of row ids (default: 'id' if present)",
    )
    p.add_argument(
        "--positive",
        default=None,
        metavar="NAME",
        help="the label value that means positive, when labels are not 0/1 or true/false",
    )
    p.add_argument(
        "--aggregated",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="the file is score,positives,negatives per row (detected from the "
        "header when not given)",
    )
    p.add_argument("--beta", type=beta, default=2.0, help="beta of the F-beta metric (default: 2)")


def transformed(
    name: str, data: Dataset, models: tuple[Model, ...], threshold: Threshold
) -> tuple[Dataset, tuple[Model, ...], str]:
    """``data`` (and every model's rows) with transform ``name`` applied, and the
    sentence saying what it changed at ``threshold`` (raises InputError)."""
    from threshold_lab.core.transform import apply, parse_transform, transform_rows

    t = parse_transform(name)
    new, said, _ = transform_rows(t, data, threshold)
    if models:
        models = (
            Model(models[0].name, new),
            *(Model(m.name, m.data.with_scores(apply(t, m.data).scores)) for m in models[1:]),
        )
    return new, models, said.sentence()


@dataclass(frozen=True)
class SourceArgs:
    """What the parsed arguments ask to open, and at which threshold."""

    #: A file path or a preset name; ``canonical`` when nothing was named.
    name: str
    #: The SOURCE argument as typed (None when --preset or nothing named the source).
    typed: str | None
    columns: Columns
    aggregated: bool | None
    #: The --threshold as typed; None means the source's own (a preset's, else 0.5).
    threshold_text: str | None
    beta: float
    #: --goal and --prevalence as typed, where the command has them.
    goal_text: str | None = None
    prevalence_text: str | None = None
    #: The explorer's --group-goal and --tolerance: each group opens at its own threshold.
    group_goal_text: str | None = None
    tolerance_text: str | None = None
    #: Every --score-column given (several: one model each).
    score_columns: tuple[str, ...] = ()
    #: --compare OTHER_FILE: a second file of the same examples, joined on id.
    compare: str | None = None
    #: --transform NAME, where the command has it.
    transform: str | None = None
    #: --class-score CLASS=COLUMN (every one), --multiclass and --class C.
    class_scores: tuple[str, ...] = ()
    multiclass: bool = False
    klass: str | None = None
    #: --by COLUMN and --group: an aggregated file's groups, and the one to open; a file
    #: of rows: the group column.
    by: str | None = None
    group: str | None = None
    #: --as-models: an aggregated file's groups as models of their own rows.
    as_models: bool = False
    #: --fold COL: the column naming each row's cross-validation fold.
    fold: str | None = None
    #: --confidence, --bootstrap and --seed, where the command has them.
    confidence: float = CONFIDENCE
    replicates: int | None = None
    seed: int | None = None
    #: --readout, --partial-auc, --alternative and --unpaired (the Options fields they
    #: set), where the command has them.
    asked: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def parse(cls, args: argparse.Namespace) -> SourceArgs:
        """Read the arguments of a command with SOURCE and the source options
        (and, where the command has it, --preset)."""
        source: str | None = args.source
        preset: str | None = getattr(args, "preset", None)
        if source and preset:
            raise InputError("give a SOURCE or --preset NAME, not both")
        return cls(
            name=preset or source or "canonical",
            typed=source or None,
            columns=Columns(
                score=(args.score_column or ["score"])[0],
                label=args.label_column,
                weight=args.weight_column,
                id=args.id_column,
                positive=args.positive,
            ),
            aggregated=args.aggregated,
            threshold_text=args.threshold,
            beta=args.beta,
            goal_text=getattr(args, "goal", None),
            prevalence_text=getattr(args, "prevalence", None),
            group_goal_text=getattr(args, "group_goal", None),
            tolerance_text=getattr(args, "tolerance", None),
            score_columns=tuple(args.score_column or ()),
            compare=getattr(args, "compare", None),
            transform=getattr(args, "transform", None),
            class_scores=tuple(getattr(args, "class_score", None) or ()),
            multiclass=bool(getattr(args, "multiclass", False)),
            klass=getattr(args, "klass", None),
            by=getattr(args, "by", None),
            group=getattr(args, "group", None),
            as_models=bool(getattr(args, "as_models", False)),
            fold=getattr(args, "fold", None),
            confidence=getattr(args, "confidence", CONFIDENCE),
            replicates=getattr(args, "bootstrap", None),
            seed=getattr(args, "seed", None),
            asked=tuple(operating_options(args).items()),
        )

    def threshold(self, default: Threshold) -> Threshold:
        """The typed threshold, or ``default`` when none was typed (raises InputError)."""
        return default if self.threshold_text is None else parse_threshold(self.threshold_text)

    def open(self, keep: Sequence[str] = ()) -> tuple[Source, Threshold]:
        """Load the source (with the numeric columns named in ``keep``, for a goal's
        costs) and resolve the opening threshold (raises InputError)."""
        if not keep and self.goal_text is not None:
            keep = parse_goal(self.goal_text).columns()  # a malformed goal: refused first
        if self.prevalence_text is not None:
            parse_prevalence(self.prevalence_text)
        src = open_source(
            self.name,
            self.columns,
            aggregated=self.aggregated,
            keep=keep,
            scores=self.score_columns,
            compare=self.compare,
            class_scores=self.class_scores,
            multiclass=self.multiclass,
            klass=self.klass,
            by=self.by,
            group=self.group,
            as_models=self.as_models,
            fold=self.fold,
        )
        return src, self.threshold(src.threshold)

    def session(self, src: Source, threshold: Threshold) -> Opened:
        """A new exploring session of an opened source (see :meth:`open`), and what a
        front end says first (what ``--transform`` did, or "")."""
        from threshold_lab.core.session.groups import RowGroups
        from threshold_lab.core.session.session import Session
        from threshold_lab.tui.opening import Opened

        data, models, opening = src.data, src.models, ""
        if self.transform is not None:  # part of loading: the rows open transformed
            data, models, opening = transformed(self.transform, data, models, threshold)
        row_groups, quantised, by = None, src.quantised, src.group_by
        pooled = False
        if src.fold_codes is not None and models:  # said, not dropped in silence
            opening = (opening + " " if opening else "") + (
                f"--fold {src.fold_column}: with several models the explorer shows the models; "
                "each model's folds are in report --fold"
            )
        if src.fold_codes is not None and src.fold_column is not None and not models:
            # Every row pooled, then each fold: a line and a curve each, M shows one.
            folds = RowGroups(src.fold_column, list(src.fold_names), src.fold_codes)
            models, by, pooled = folds.models(data), src.fold_column, True
        if src.group_column is not None and src.group_codes is not None:
            row_groups = RowGroups(src.group_column, [n for n, _ in src.groups], src.group_codes)
            if not models:  # every row pooled, then each group: a line each, M shows one
                models, by = row_groups.models(data), src.group_column
                whole = quantised.get("")  # the pooled rows' bound: the "all" line's
                quantised = {} if whole is None else {models[0].name: whole}
        session = Session(
            data,
            threshold,
            source=src.label,
            path=src.path,
            beta=self.beta,
            columns=src.columns,
            models=models,
            multiclass=src.multiclass,
            klass=src.klass,
            quantised=quantised,
            group_by=by,
            pooled=pooled or (row_groups is not None and not src.models),
        )
        session.row_groups = row_groups
        session.folds = pooled
        if pooled:
            session.shown.part = "fold"
        if self.prevalence_text is not None:
            session.set_prevalence(self.prevalence_text)
        if self.asked:
            session.set_asked(**dict(self.asked))
        if self.goal_text is not None:
            session.set_goal(self.goal_text)  # the threshold opens at the goal's point
        session.sureness.confidence = self.confidence
        if self.seed is not None:
            session.sureness.seed = self.seed  # for a bootstrap B starts later
        if self.replicates is not None:
            session.set_bootstrap(str(self.replicates))
        solved = ""
        if self.group_goal_text is not None:
            solved = session.solve_group_goal(self.group_goal_text, self.tolerance_text).message
        elif self.tolerance_text is not None:
            raise InputError("--tolerance needs --group-goal (it is the criterion's largest gap)")
        recovered = session.recovery_notice()  # an earlier session hung up with edits
        grouped = ""
        if row_groups is not None:
            col = src.group_column
            alone = (
                ""
                if src.models
                else " M shows one group alone (its rows, matrix and "
                "curves), O gives each group its own threshold;"
            )
            grouped = (
                f"{len(src.groups)} groups by {col}: every row is shown pooled;{alone} E "
                "(in plain mode, groups) shows each group and the gaps."
            )
        return Opened(session, " ".join(s for s in (opening, grouped, solved, recovered) if s))
