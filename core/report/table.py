"""Every option, declared once: the front door of the command line, the Python API
and plain mode.

An :class:`Option` names what a user can ask for (its Python keyword, its
command-line flag, its plain-mode word), how a typed value is read (one of core's
``parse_*`` functions), its default, its help, which front ends take it and which
``Options`` field it sets. The command line's parsers are generated from
:data:`OPTIONS`; the Python API's signatures are written out and held equal to it by
a test; plain mode's ``option`` command reads it. Cross-option rules live in
:mod:`threshold_lab.core.report.request` (one ``check()``).

>>> OPTIONS["seed"].flag, OPTIONS["seed"].keyword, OPTIONS["seed"].parse("7")
('--seed', 'seed', 7)
>>> OPTIONS["unpaired"].plain, "plain" in OPTIONS["unpaired"].fronts
('unpaired', True)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from threshold_lab.core.calibration.reliability import BINS, MAX_BINS
from threshold_lab.core.choices import CHARTS, CRITERIA, TRANSFORMS
from threshold_lab.core.data.presets import PRESET_NAMES
from threshold_lab.core.intervals.bootstrap import REPLICATES, SEED
from threshold_lab.core.intervals.closed import CONFIDENCE
from threshold_lab.core.report.as_json import MIN_POINTS
from threshold_lab.core.report.option import (
    AUC_INTERVALS,
    COMMANDS,
    FRONTS,
    PYTHON,
    Option,
    Table,
    a_name,
    from_number,
    lazy,
    number_text,
    one_item,
    one_of,
    parse_dpi,
    parse_permutations,
    parse_points,
    parse_pt,
    parse_replicates,
    parse_rows,
    parse_seconds,
    parse_size,
    parse_step,
    parse_switch,
    parse_terminal_size,
    parse_tests,
    read_bootstrap,
    read_dpi,
    read_figure_size,
    read_grid,
    read_numbers,
    read_switch,
    read_texts,
    read_threshold,
    shown_value,
    taken_as_is,
)

__all__ = ["COMMANDS", "FRONTS", "OPTIONS", "PYTHON", "Option", "shown_value"]

# Each parser is imported when a value of its option is first read
# (:func:`~threshold_lab.core.report.option.lazy`).
parse_binning = lazy("threshold_lab.core.calibration.reliability:parse_binning")
parse_bins = lazy("threshold_lab.core.calibration.reliability:parse_bins")
parse_braille_kind = lazy("threshold_lab.core.curves.braille:parse_kind")
parse_rate = lazy("threshold_lab.core.curves.coordinates:parse_rate")
parse_rates = lazy("threshold_lab.core.curves.coordinates:parse_rates")
parse_thresholds = lazy("threshold_lab.core.curves.coordinates:parse_thresholds")
parse_describe_kinds = lazy("threshold_lab.core.curves.describe:parse_kinds")
parse_curve = lazy("threshold_lab.core.curves.export:parse_curve")
parse_partial_auc = lazy("threshold_lab.core.curves.operating:parse_partial_auc")
parse_readouts = lazy("threshold_lab.core.curves.operating:parse_readouts")
parse_bandwidth = lazy("threshold_lab.core.curves.smooth:parse_bandwidth")
parse_method = lazy("threshold_lab.core.curves.smooth:parse_method")
parse_sound_seconds = lazy("threshold_lab.core.curves.sound:parse_seconds")
parse_band_goal = lazy("threshold_lab.core.decide.band:parse_band_goal")
parse_goal = lazy("threshold_lab.core.decide.goal:parse_goal")
parse_harm = lazy("threshold_lab.core.decide.net_benefit:parse_harm")
parse_prevalence = lazy("threshold_lab.core.decide.solve:parse_prevalence")
parse_fold_count = lazy("threshold_lab.core.decide.stability:parse_fold_count")
parse_within = lazy("threshold_lab.core.decide.stability:parse_within")
read_typed = lazy("threshold_lab.core.doubles:read_typed")
parse_chart = lazy("threshold_lab.core.figures:parse_chart")
parse_max_gap = lazy("threshold_lab.core.groups.gaps:parse_max_gap")
parse_criterion = lazy("threshold_lab.core.groups.thresholds:parse_criterion")
parse_tolerance = lazy("threshold_lab.core.groups.thresholds:parse_tolerance")
parse_seed = lazy("threshold_lab.core.intervals.bootstrap:parse_seed")
parse_confidence = lazy("threshold_lab.core.intervals.closed:parse_confidence")
parse_pair = lazy("threshold_lab.core.intervals.power:parse_pair")
parse_power_number = lazy("threshold_lab.core.intervals.power:parse_power_number")
read_pair = lazy("threshold_lab.core.intervals.power:read_pair")
parse_alternative = lazy("threshold_lab.core.intervals.pvalues:parse_alternative")
check_beta = lazy("threshold_lab.core.metrics.threshold_metrics:check_beta")
baseline_of = lazy("threshold_lab.core.report.gate:baseline_of")
parse_requirement = lazy("threshold_lab.core.report.gate:parse_requirement")
parse_threshold = lazy("threshold_lab.core.threshold:parse_threshold")
parse_transform = lazy("threshold_lab.core.transform:parse_transform")

# --- the table ------------------------------------------------------------------------

_EVERY_RUN = frozenset(
    {
        "explore",
        "screenshot",
        "report",
        "plot",
        "report()",
        "from_frame()",
        "from_estimator()",
        "explore()",
    }
)
_SESSION = frozenset({"explore", "screenshot", "explore()", "plain"})
_ONE_RUN = frozenset({"report", "plot", "report()", "from_frame()", "from_estimator()"})
_EXPLORER_CLI = frozenset({"explore", "screenshot"})
_FILES = frozenset({"explore", "screenshot", "report", "plot"})
_ARRAYS = frozenset({"report()", "explore()"})


def _entries() -> Iterator[Option]:
    """The table, in the order help lists it."""
    yield Option(
        "threshold",
        "the threshold: a row is predicted positive when its score >= T; a number (0.5, or a "
        "fraction such as 1/3), or above-all (nothing predicted positive)",
        parse_threshold,
        _EVERY_RUN | {"plain"},
        default=0.5,
        plain="threshold",
        metavar="T",
        python=read_threshold,
        field="threshold",
        annotation="float | str | None",
        cli_default="the preset's, else 0.5",
    )
    yield Option(
        "goal",
        "choose the threshold for a goal: 'max precision where recall >= 0.9', "
        "'min cost fp=1 fn=5', 'min cost fp=1 fn=@amount' (a cost column)",
        parse_goal,
        _EVERY_RUN | {"plain"},
        plain="goal",
        metavar="GOAL",
        field="goal",
        section="deciding",
    )
    yield Option(
        "band_goal",
        "a review band: accept rows scored at or above one threshold, reject those below "
        "another, review the rest; 'band: max coverage where precision >= 0.99 and npv >= "
        "0.995', 'band: min review where ...', 'band: min cost fp=10 fn=50 review=1', solved "
        "exactly over every pair of thresholds",
        parse_band_goal,
        _ONE_RUN | _SESSION,
        plain="band",
        metavar="GOAL",
        field="band_goal",
        section="deciding",
    )
    yield Option(
        "cv_goal",
        "with folds: the one threshold whose objective averaged over the folds is best "
        "(feasible on every fold), searched over every fold's distinct scores, beside the "
        "goal on all rows pooled; 'max f1', 'min cost fp=1 fn=5'",
        parse_goal,
        _ONE_RUN - {"plot"},
        metavar="GOAL",
        field="cv_goal",
        section="deciding",
    )
    yield Option(
        "stable_within",
        "with folds and --goal: the thresholds within E of the optimum (and feasible) on "
        "at least --in folds, as ranges of scores",
        parse_within,
        _ONE_RUN - {"plot"},
        metavar="E",
        python=from_number(parse_within, "stable_within"),
        field="stable_within",
        annotation="float | Fraction | str | None",
        section="deciding",
    )
    yield Option(
        "stable_in",
        "with --stable-within: on how many folds (default all)",
        parse_fold_count,
        _ONE_RUN - {"plot"},
        flag="--in",
        metavar="Q",
        python=from_number(parse_fold_count, "stable_in"),
        field="stable_in",
        annotation="int | None",
        section="deciding",
    )
    yield Option(
        "prevalence",
        "every metric (and the goal) also where the positive class has prevalence P "
        "(0 < P < 1, a decimal or a fraction like 1/20), keeping TPR and FPR",
        parse_prevalence,
        _EVERY_RUN | {"plain"},
        plain="prevalence",
        metavar="P",
        python=from_number(parse_prevalence, "prevalence"),
        field="prevalence",
        annotation="float | Fraction | str | None",
        section="deciding",
    )
    yield Option(
        "beta",
        "beta of the F-beta metric",
        lambda text: check_beta(read_typed(text)),
        _EVERY_RUN | {"plain"},
        default=2.0,
        plain="beta",
        metavar="B",
        python=lambda v: check_beta(read_typed(number_text(v, "beta"))),
        field="beta",
        annotation="float",
    )
    yield Option(
        "confidence",
        "the intervals' confidence, from 0.5 to just under 1",
        parse_confidence,
        _EVERY_RUN | {"plain"},
        default=CONFIDENCE,
        plain="confidence",
        metavar="C",
        python=from_number(parse_confidence, "confidence"),
        field="confidence",
        annotation="float",
        section="how sure",
    )
    yield Option(
        "bootstrap",
        "bootstrap intervals (ROC AUC beside DeLong's, average precision, PR area, F1, "
        "F-beta, MCC, a goal's "
        f"threshold) and curve bands from B replicates (B left out: {REPLICATES:,}; in "
        f"Python True for {REPLICATES:,})",
        parse_replicates,
        _EVERY_RUN | {"plain"},
        kind="optional",
        const=REPLICATES,
        plain="bootstrap",
        metavar="B",
        python=read_bootstrap,
        field="replicates",
        annotation="int | bool | None",
        section="how sure",
        cli_default="none",
    )
    yield Option(
        "auc_interval",
        "the ROC AUC's interval: delong (always given) or bootstrap (also the stratified "
        "bootstrap's percentile interval beside it, pROC's ci.auc(method = \"bootstrap\"); "
        f"--bootstrap B replicates, else {REPLICATES:,})",
        one_of("auc-interval", AUC_INTERVALS),
        _ONE_RUN,
        metavar="delong|bootstrap",
        field="auc_interval",
        annotation="str | None",
        cli_default="delong",
        section="how sure",
    )
    yield Option(
        "ci_se",
        "a bootstrap interval of the sensitivity at each specificity S, read on the ROC "
        "line between its points as pROC's ci.se does; comma-separated or repeatable "
        f"(--bootstrap B replicates, else {REPLICATES:,})",
        lambda text: parse_rates(text, "--ci-se"),
        _ONE_RUN,
        kind="list",
        metavar="S,..",
        python=read_numbers(lambda text: parse_rates(text, "ci_se"), "ci_se"),
        field="ci_se",
        annotation="float | str | Sequence[float | str] | None",
        section="how sure",
    )
    yield Option(
        "ci_sp",
        "a bootstrap interval of the specificity at each sensitivity S (pROC's ci.sp), as --ci-se",
        lambda text: parse_rates(text, "--ci-sp"),
        _ONE_RUN,
        kind="list",
        metavar="S,..",
        python=read_numbers(lambda text: parse_rates(text, "ci_sp"), "ci_sp"),
        field="ci_sp",
        annotation="float | str | Sequence[float | str] | None",
        section="how sure",
    )
    yield Option(
        "ci_thresholds",
        "bootstrap intervals of the sensitivity and the specificity at each threshold T "
        "(score >= T; pROC's ci.thresholds), as --ci-se",
        parse_thresholds,
        _ONE_RUN,
        kind="list",
        metavar="T,..",
        python=read_numbers(parse_thresholds, "ci_thresholds"),
        field="ci_thresholds",
        annotation="float | str | Sequence[float | str] | None",
        section="how sure",
    )
    yield Option(
        "seed",
        f"the random seed, so results reproduce: the bootstrap's (default {SEED}), or "
        "which fixture an exercise picks and the order of its rows",
        parse_seed,
        _EVERY_RUN | {"plain", "exercise"},
        plain="seed",
        metavar="S",
        python=from_number(parse_seed, "seed"),
        field="seed",
        annotation="int | None",
        section="how sure",
    )
    yield Option(
        "readout",
        "operating points at fixed rates: TPR at each FPR <= X ('fpr X,..') or FPR at "
        "each TPR >= Y ('tpr Y,..'); repeatable, replacing the default "
        "'fpr 0.001,0.01,0.05,0.1' and 'tpr 0.9,0.95,0.99'",
        parse_readouts,
        _EVERY_RUN | {"plain"},
        kind="list",
        plain="readout",
        metavar="'fpr X,..'|'tpr Y,..'",
        python=read_texts(parse_readouts, "fpr 0.01,0.05"),
        field="readouts",
        annotation="str | Sequence[str] | None",
        section="operating points",
    )
    yield Option(
        "smooth",
        "a smoothed ROC curve beside the exact one, its AUC named with its method and "
        "never replacing the exact AUC: binormal (a line on the normal deviate scale), "
        "density (kernel densities of each class) or normal (a normal distribution a "
        "class), as pROC's smooth; comma-separated or repeatable",
        parse_method,
        _ONE_RUN,
        kind="list",
        metavar="binormal|density|normal",
        python=read_texts(parse_method, "binormal"),
        field="smooth",
        annotation="str | Sequence[str] | None",
        section="operating points",
    )
    yield Option(
        "bandwidth",
        "--smooth density: the kernel's bandwidth, nrd0 (Silverman's rule, the default), "
        "nrd (Scott's) or a positive number in score units",
        parse_bandwidth,
        _ONE_RUN,
        metavar="nrd0|nrd|H",
        python=from_number(parse_bandwidth, "bandwidth"),
        field="bandwidth",
        annotation="float | str | None",
        cli_default="nrd0",
        section="operating points",
    )
    yield Option(
        "partial_auc",
        "the ROC area over FPR (or TPR) from A to B, with McClish's standardised value; "
        "repeatable (default none); power: two curves' partial AUC over FPR A to B (from "
        "parameters, or from data by --power-method obuchowski)",
        one_item(parse_partial_auc),
        _EVERY_RUN | {"plain", "power", "power()"},
        kind="list",
        plain="partial-auc",
        metavar="fpr:A-B|tpr:A-B",
        python=read_texts(one_item(parse_partial_auc), "fpr:0-0.1"),
        field="partial_aucs",
        annotation="str | Sequence[str] | None",
        section="operating points",
    )
    yield Option(
        "pt",
        "the decision curve's threshold probabilities: a range START:END:STEP or a list "
        "(default 0.01:0.99:0.01)",
        parse_pt,
        _EVERY_RUN | {"plain"},
        plain="pt",
        metavar="A:B:S|a,b,..",
        python=read_grid,
        field="pt",
        annotation="str | Sequence[float | str] | None",
        section="deciding",
    )
    yield Option(
        "harm",
        "what acting costs every case, in net benefit, subtracted from the model's net "
        "benefit (default 0)",
        parse_harm,
        _EVERY_RUN | {"plain"},
        plain="harm",
        metavar="H",
        python=from_number(parse_harm, "harm"),
        field="harm",
        annotation="float | Fraction | str | None",
        section="deciding",
    )
    yield Option(
        "alternative",
        "comparing models: the alternative of DeLong's and McNemar's tests (greater: "
        "the first model's AUC above the second's); power: greater or less is one-sided",
        parse_alternative,
        _EVERY_RUN | {"plain", "power", "power()"},
        default="two-sided",
        plain="alternative",
        metavar="two-sided|greater|less",
        field="alternative",
        annotation="str",
        section="models",
    )
    yield Option(
        "test",
        "comparing models: tests beside DeLong's, pROC's roc.test methods: bootstrap (the "
        "AUC difference, and each --partial-auc's, over its bootstrap sd; --bootstrap B "
        "replicates, else "
        f"{REPLICATES:,}), venkatraman (the curves the same anywhere, by --permutations), "
        "sensitivity (at --at-specificity S) and specificity (at --at-sensitivity S), each "
        "a bootstrap test of the difference; repeatable or comma-separated",
        parse_tests,
        _ONE_RUN,
        kind="list",
        metavar="delong|bootstrap|venkatraman|sensitivity|specificity",
        field="tests",
        python=read_texts(parse_tests, "venkatraman"),
        annotation="str | Sequence[str] | None",
        section="models",
    )
    yield Option(
        "permutations",
        "Venkatraman's test (--test venkatraman): how many permutations (default 2,000, "
        "pROC's), seeded by --seed",
        parse_permutations,
        _ONE_RUN,
        metavar="B",
        field="permutations",
        python=from_number(parse_permutations, "permutations"),
        annotation="int | None",
        section="models",
        cli_default="2,000",
    )
    yield Option(
        "at_specificity",
        "--test sensitivity: the specificity at which the models' sensitivities are "
        'compared (read on each ROC line, as pROC\'s roc.test(method = "specificity"))',
        parse_rate,
        _ONE_RUN,
        metavar="S",
        field="at_specificity",
        python=from_number(parse_rate, "at_specificity"),
        annotation="float | str | None",
        section="models",
    )
    yield Option(
        "at_sensitivity",
        "--test specificity: the sensitivity at which the models' specificities are "
        'compared (pROC\'s roc.test(method = "sensitivity"))',
        parse_rate,
        _ONE_RUN,
        metavar="S",
        field="at_sensitivity",
        python=from_number(parse_rate, "at_sensitivity"),
        annotation="float | str | None",
        section="models",
    )
    yield Option(
        "unpaired",
        "comparing models: treat the score sets as different examples (DeLong's "
        "unpaired test, Student's t with Welch-Satterthwaite df); automatic for groups",
        parse_switch,
        _EVERY_RUN | {"plain"},
        default=False,
        kind="switch",
        plain="unpaired",
        metavar="on|off",
        python=read_switch("unpaired"),
        field="unpaired",
        annotation="bool",
        section="models",
    )
    yield Option(
        "transform",
        f"a strictly increasing map of every score ({', '.join(TRANSFORMS)}); the "
        "threshold is kept, and what changed is said",
        parse_transform,
        _EVERY_RUN | {"plain"},
        plain="transform",
        metavar="NAME",
        field="transform",
    )
    yield Option(
        "bins",
        f"calibration's reliability bins, from 1 to {MAX_BINS}",
        parse_bins,
        _ONE_RUN,
        default=BINS,
        metavar="N",
        python=from_number(parse_bins, "bins"),
        field="bins",
        annotation="int",
        section="calibration",
    )
    yield Option(
        "binning",
        "calibration's bins: equal-mass (tie groups never split) or equal-width",
        parse_binning,
        _ONE_RUN,
        default="mass",
        metavar="mass|width",
        field="binning",
        annotation="str",
        section="calibration",
    )
    # --- groups and fairness
    yield Option(
        "group_goal",
        "one threshold a group, maximising --goal's objective (default max accuracy) on "
        "all rows pooled with the criterion's gap <= --tolerance: "
        f"{', '.join(CRITERIA)} (same_goal: each group solves --goal on its own rows)",
        parse_criterion,
        _EVERY_RUN - {"plot"} | {"plain"},
        plain="group-goal",
        metavar="CRITERION",
        field="group_goal",
        section="groups",
    )
    yield Option(
        "tolerance",
        "with --group-goal: the largest gap allowed (default 0.01)",
        parse_tolerance,
        _EVERY_RUN - {"plot"} | {"plain"},
        plain="tolerance",
        metavar="E",
        python=from_number(parse_tolerance, "tolerance"),
        field="tolerance",
        annotation="float | Fraction | str | None",
        section="groups",
    )
    yield Option(
        "randomised",
        "with --group-goal demographic_parity or equal_opportunity: also each group's "
        "mixture of two thresholds hitting one common rate exactly (Fairlearn's "
        "construction: identical cases may be decided differently)",
        parse_switch,
        _ONE_RUN - {"plot"},
        default=False,
        kind="switch",
        python=read_switch("randomised"),
        field="randomised",
        annotation="bool",
        section="groups",
    )
    yield Option(
        "check",
        "exit 1 (and say why on stderr, a line each) when the goal is infeasible "
        "(--goal) or a gap between groups exceeds its --max-gap",
        None,
        frozenset({"report"}),
        default=False,
        kind="switch",
        section="gate",
    )
    yield Option(
        "max_gap",
        "with --group and --check: the largest gap allowed, as "
        "'equal_opportunity_difference 0.05' (a ratio: the smallest allowed, as "
        "'demographic_parity_ratio 0.8'); repeatable",
        one_item(parse_max_gap),
        frozenset({"report"}),
        kind="list",
        metavar="'GAP LIMIT'",
        section="gate",
    )
    # --- the gate
    yield Option(
        "baseline",
        "an earlier report --json (or a Report's to_json()): the report gains the change "
        "of every headline number; from Python also its text, dict or a Report",
        baseline_of,
        _ONE_RUN - {"plot"},
        metavar="BASE.json",
        python=baseline_of,
        field="baseline",
        annotation="str | PathLike[str] | Mapping[str, Any] | Report | None",
        section="gate",
        file="in",
    )
    yield Option(
        "baseline_rows",
        "with --baseline: the baseline model's scores of the same rows (joined on id), "
        "for DeLong's paired test of the AUC's change",
        a_name("--baseline-rows"),
        frozenset({"report"}),
        metavar="BASE_FILE",
        section="gate",
        file="in",
    )
    yield Option(
        "baseline_scores",
        "with baseline=: the baseline model's scores of these rows, in their order, for "
        "DeLong's paired test of the AUC's change",
        None,
        _ONE_RUN - {"plot", "report"},
        annotation="ArrayLike | None",
        section="gate",
    )
    yield Option(
        "require",
        "a requirement, as 'auc >= 0.80', 'auc >= baseline.auc - 0.01', 'recall at goal "
        ">= 0.9', 'tpr at fpr 0.01 >= 0.6': the run fails when one fails, a line each; "
        "repeatable",
        one_item(parse_requirement),
        _ONE_RUN - {"plot"},
        kind="list",
        metavar="EXPR",
        python=read_texts(one_item(parse_requirement), "auc >= 0.8"),
        field="requirements",
        annotation="str | Sequence[str] | None",
        section="gate",
    )
    yield Option(
        "junit",
        "with --require or --check: write each requirement, the goal and each --max-gap "
        "as a JUnit test case, for CI, in the order evaluated",
        a_name("--junit"),
        frozenset({"report"}),
        metavar="OUT.xml",
        section="gate",
        file="out",
    )
    # --- what report prints
    yield Option(
        "json",
        "print exactly one JSON object (sonify: its segments)",
        None,
        frozenset({"report", "sonify", "power"}),
        default=False,
        kind="switch",
        section="output",
    )
    yield Option(
        "points",
        f"sweep points to list: all, 0, or at least {MIN_POINTS} (default: the notable "
        "points, the ends and evenly spaced ones in text; in JSON, enough to keep the ROC "
        "curve's shape)",
        parse_points,
        frozenset({"report"}),
        metavar="N|all",
        section="output",
    )
    yield Option(
        "curve",
        "instead of the report, write the curve's exact points (threshold, counts, rates "
        "as doubles and fractions) in --format csv on stdout, for other plotting tools",
        parse_curve,
        frozenset({"report"}),
        metavar="roc|pr|det",
        section="output",
    )
    yield Option(
        "describe",
        "the curve's shape in a few sentences, each a claim checked over the exact sweep: a "
        'Shape paragraph in the text, "description" in the JSON; repeatable, replacing the '
        "default roc and pr; none for no description",
        parse_describe_kinds,
        _ONE_RUN - {"plot"},
        kind="list",
        metavar="roc|pr|none",
        python=read_texts(parse_describe_kinds, "roc"),
        field="describe",
        annotation="str | Sequence[str] | None",
        section="output",
    )
    yield Option(
        "braille",
        "after the text report, the curve as one line of braille cells (40) and its scale, "
        "for a braille display; repeatable",
        one_item(parse_braille_kind),
        frozenset({"report"}),
        kind="list",
        metavar="roc|pr|det",
        section="output",
    )
    yield Option(
        "format",
        "with --curve: the format of its points (csv)",
        one_of("format", ("csv",)),
        frozenset({"report"}),
        metavar="csv",
        section="output",
    )
    # --- figures
    yield Option(
        "chart",
        f"the chart to draw: {', '.join(CHARTS)} (sonify: roc or pr)",
        parse_chart,
        frozenset({"plot", "sonify"}),
        metavar="|".join(CHARTS),
        section="figure",
        required=True,
    )
    yield Option(
        "out",
        "the file written: plot's figure (the format follows the suffix: .png, .svg or "
        ".pdf), sonify's .wav, an exercise's rows (CSV)",
        a_name("--out"),
        frozenset({"plot", "sonify", "exercise"}),
        metavar="FILE",
        section="figure",
        required=True,
        file="out",
    )
    yield Option(
        "size",
        "width x height in inches",
        parse_size,
        frozenset({"plot", "figure()"}),
        default=(6.0, 4.0),
        metavar="WxH",
        python=read_figure_size,
        annotation="tuple[float, float] | str",
        section="figure",
        cli_default="6x4",
    )
    yield Option(
        "dpi",
        "dots per inch of a PNG",
        parse_dpi,
        frozenset({"plot", "figure()"}),
        default=150,
        metavar="N",
        python=read_dpi,
        annotation="int",
        section="figure",
    )
    yield Option(
        "title",
        "the figure's title (default: the chart and the source)",
        a_name("--title"),
        frozenset({"plot", "figure()"}),
        metavar="TITLE",
        section="figure",
    )
    # --- exercises
    exercise = frozenset({"exercise"})
    yield Option(
        "make",
        "a target the exercise's fixture meets exactly: MEASURE [OP] VALUE, such as "
        "'auc 7/12', 'ap >= 3/4', 'precision at 0.5 = 2/3', 'groups 4' (auc, ap, trapezoid, "
        "precision/recall/f1 at T, groups; = >= <= > < !=); repeatable",
        one_item(a_name("--make", "give a target such as 'auc 7/12'")),
        exercise,
        kind="list",
        metavar="TARGET",
        section="exercise",
        required=True,
    )
    yield Option(
        "rows",
        "the fixture's rows, 2 to 10: every way they can fall into tie groups is searched",
        parse_rows,
        exercise,
        default=6,
        metavar="N",
        section="exercise",
    )
    yield Option(
        "ties",
        "the fixture has a tie across classes (a tie group of both)",
        None,
        exercise,
        default=False,
        kind="switch",
        section="exercise",
    )
    yield Option(
        "answers",
        "print each target's answer with the formula lines that derive it (for the teacher)",
        None,
        exercise,
        default=False,
        kind="switch",
        section="exercise",
    )
    # --- power and sample size
    power = frozenset({"power", "power()"})
    yield Option(
        "auc",
        "power: the ROC AUC to detect against 0.5 (above 0.5, below 1)",
        parse_power_number,
        power,
        metavar="A",
        annotation="float | None",
        section="power",
    )
    yield Option(
        "cases",
        "power: the actual positives (cases)",
        parse_power_number,
        power,
        metavar="N1",
        annotation="float | None",
        section="power",
    )
    yield Option(
        "controls",
        "power: the actual negatives (controls)",
        parse_power_number,
        power,
        metavar="N0",
        annotation="float | None",
        section="power",
    )
    yield Option(
        "kappa",
        "power: controls per case, with one of --cases and --controls (1 by default)",
        parse_power_number,
        power,
        metavar="K",
        annotation="float | None",
        section="power",
    )
    yield Option(
        "sig_level",
        "power: the significance level (0.05 unless solved for: left out when the AUC, "
        "the sample size and the power are all given)",
        parse_power_number,
        power,
        metavar="ALPHA",
        annotation="float | None",
        section="power",
    )
    yield Option(
        "power",
        "power: the power (1 − β) to reach",
        parse_power_number,
        power,
        metavar="P",
        annotation="float | None",
        section="power",
    )
    for name, said in (
        ("a", "both curves' binormal a as A1,A2 (or --a1 and --a2)"),
        ("b", "both curves' binormal b as B1,B2 (or --b1 and --b2)"),
    ):
        yield Option(
            name,
            f"power of two paired curves from parameters: {said}",
            parse_pair,
            power,
            metavar=f"{name.upper()}1,{name.upper()}2",
            annotation="str | tuple[float, float] | None",
            python=read_pair,
            section="power",
        )
    for name, said in (
        (
            "a1",
            "the first curve's binormal a (Φ⁻¹(TPR) = a + b·Φ⁻¹(FPR)); with --b1, --a2, "
            "--b2, --rn, --ra and --delta, Obuchowski and McClish's variances, as pROC's "
            "power.roc.test(list(A1, B1, A2, B2, rn, ra, delta))",
        ),
        ("b1", "the first curve's binormal b"),
        ("a2", "the second curve's binormal a"),
        ("b2", "the second curve's binormal b"),
        ("rn", "the correlation of the two models' scores among the controls"),
        ("ra", "the correlation of the two models' scores among the cases"),
        ("delta", "the difference of the two AUCs to detect"),
    ):
        yield Option(
            name,
            f"power of two paired curves from parameters: {said}",
            parse_power_number,
            power,
            metavar=name.upper(),
            annotation="float | None",
            section="power",
        )
    yield Option(
        "power_method",
        "power of two curves from data: the AUCs' variances and covariance by delong "
        "(the default) or obuchowski (each curve's binormal fit and the scores' "
        "correlations, Obuchowski and McClish's; also for --partial-auc), pROC's method",
        one_of("power-method", ("delong", "obuchowski")),
        power,
        metavar="delong|obuchowski",
        annotation="str | None",
        section="power",
        cli_default="delong",
    )
    yield Option(
        "from_file",
        "power: take the AUC and the controls per case (and, unless given, the cases and "
        "controls) from a file's or preset's rows; with two models' scores of the same rows, "
        "the power of their AUCs' difference (DeLong's variances and covariance, as "
        "pROC's power.roc.test(roc1, roc2))",
        str,
        power,
        flag="--from",
        metavar="SOURCE",
        section="power",
    )
    # --- sound
    yield Option(
        "seconds",
        "sonify: each curve point's tone, in seconds (0.05 to 2)",
        parse_sound_seconds,
        frozenset({"sonify"}),
        default=0.25,
        metavar="S",
        section="sound",
    )
    yield Option(
        "reference",
        "sonify: add the chance diagonal as a second, quieter tone",
        None,
        frozenset({"sonify"}),
        default=False,
        kind="switch",
        section="sound",
    )
    # --- the explorer
    yield Option(
        "preset",
        f"open a built-in fixture: {', '.join(PRESET_NAMES)}",
        one_of("preset", PRESET_NAMES),
        _EXPLORER_CLI,
        metavar="NAME",
        section="source",
    )
    yield Option(
        "theme",
        "colour theme; ansi-dark and ansi-light use the terminal's own palette. "
        "NO_COLOR in the environment turns colour off",
        a_name("--theme"),
        _EXPLORER_CLI | {"explore()"},
        default="textual-dark",
        metavar="NAME",
        annotation="str",
        section="explorer",
    )
    yield Option(
        "ascii",
        "ASCII only (borders, rules, chart markers, signs); chosen by itself when the "
        "locale is not UTF-8, and --no-ascii overrides that",
        parse_switch,
        _EXPLORER_CLI | {"explore()"},
        kind="both",
        python=read_switch("ascii"),
        annotation="bool | None",
        section="explorer",
        cli_default="from the locale",
    )
    yield Option(
        "playback_seconds",
        "seconds per tie group in sweep playback (+ and - change it)",
        parse_seconds,
        _EXPLORER_CLI | {"explore()"},
        default=1.0,
        metavar="S",
        python=from_number(parse_seconds, "playback_seconds"),
        annotation="float",
        section="explorer",
    )
    yield Option(
        "lesson",
        "run a lesson: a TOML file of steps that ask before they show, or a shipped one "
        "(denominator, ap-vs-trapezoid, accuracy-trap, tour); space pauses, n and p step, "
        "g goes to a step, Esc leaves; with --plain, as text (docs/teaching.md)",
        str,
        _EXPLORER_CLI,
        metavar="FILE",
        section="explorer",
        file="in",
    )
    yield Option(
        "script",
        "replay a recorded demo keystroke for keystroke: a file of key names (Textual's: n, "
        "right, enter), 'type TEXT' and 'wait S' lines (--record writes one); with --plain, "
        "a file of commands, run first, each said after a >",
        a_name("--script"),
        frozenset({"explore"}),
        metavar="FILE",
        section="explorer",
        file="in",
    )
    yield Option(
        "record",
        "write every key pressed to FILE as a script when the explorer closes (--script "
        "replays it: a demo that cannot go wrong live)",
        a_name("--record"),
        frozenset({"explore"}),
        metavar="FILE",
        section="explorer",
        file="out",
    )
    yield Option(
        "step",
        "with --lesson: the step to draw (1 is the first), as entering it makes it",
        parse_step,
        frozenset({"screenshot"}),
        default=1,
        metavar="N",
        python=None,
        annotation="int",
        section="explorer",
    )
    yield Option(
        "demo",
        "the tour lesson (presets, threshold moves, tie groups), a caption a step and no "
        "questions; space pauses, n and p step, Esc leaves it",
        None,
        _EXPLORER_CLI,
        default=False,
        kind="switch",
        section="explorer",
    )
    yield Option(
        "plain",
        "plain line mode for screen readers and pipes: one command per line in, plain "
        "sentences out, no screen (type help there)",
        None,
        frozenset({"explore"}),
        default=False,
        kind="switch",
        section="explorer",
    )
    yield Option(
        "press",
        "keys to press first, comma-separated Textual key names, such as right,right,c or home,n,n",
        str,
        frozenset({"screenshot"}),
        metavar="KEYS",
        section="explorer",
    )
    yield Option(
        "terminal_size",
        "the terminal's size in cells",
        parse_terminal_size,
        frozenset({"screenshot"}),
        default=(120, 40),
        flag="--size",
        metavar="WxH",
        section="explorer",
        cli_default="120x40",
    )
    # --- reading the rows
    yield from _source_entries()


def _source_entries() -> Iterator[Option]:
    """How the rows are read: from a file (the command line) or from arrays (Python)."""
    yield Option(
        "score_column",
        "column holding the scores (default: score); give it again for each model to "
        "compare, or name the columns score_A, score_B, ...",
        one_item(a_name("--score-column")),
        _FILES | {"sonify", "power"},
        kind="list",
        metavar="NAME",
        section="source",
    )
    yield Option(
        "class_score",
        "several classes: the column holding CLASS's scores (give one per class; or name "
        "the columns score_<class>)",
        one_item(a_name("--class-score")),
        _FILES,
        kind="list",
        metavar="CLASS=COLUMN",
        section="source",
    )
    yield Option(
        "multiclass",
        "read score_<class> columns as classes even when the labels have two values",
        None,
        _FILES,
        default=False,
        kind="switch",
        section="source",
    )
    yield Option(
        "klass",
        "several classes: open (or report) class C against the rest",
        a_name("--class"),
        _FILES,
        flag="--class",
        metavar="C",
        section="source",
    )
    yield Option(
        "by",
        "an aggregated file's group column, when it has several other columns (one is "
        "found by itself); the groups open as with --group COL",
        a_name("--by"),
        _FILES,
        metavar="COLUMN",
        section="source",
    )
    yield Option(
        "as_models",
        "an aggregated file with groups: open each group as a model of its own rows "
        "(compared as different examples: unpaired DeLong) instead of as groups",
        None,
        _FILES,
        default=False,
        kind="switch",
        section="source",
    )
    yield Option(
        "group",
        "the column naming each row's group (site, age band, device): every group's "
        "numbers and the gaps between groups (an aggregated file's group column is read "
        "by itself); an aggregated file: --group NAME opens that group's rows alone (with "
        "--as-models: that group first)",
        a_name("--group"),
        _FILES | {"from_frame()"},
        metavar="COL|NAME",
        section="source",
    )
    yield Option(
        "fold",
        "the column naming each row's cross-validation fold: each fold's curve, AUC, AP "
        "and readouts, their mean and standard deviation, beside the pooled AUC of all "
        "rows (not with --group)",
        a_name("--fold"),
        _FILES | {"from_frame()"},
        metavar="COL",
        section="source",
    )
    yield Option(
        "compare",
        "a second file of the same examples, scored by another model: the two are joined "
        "on id and compared (each named after its file)",
        a_name("--compare"),
        _FILES,
        metavar="OTHER_FILE",
        section="source",
        once=True,
        file="in",
    )
    yield Option(
        "label_column",
        "column holding the actual labels (default: label)",
        a_name("--label-column"),
        _FILES | {"sonify", "power"},
        metavar="NAME",
        section="source",
    )
    yield Option(
        "weight_column",
        "column of non-negative row weights (default: 'weight' if present)",
        a_name("--weight-column"),
        _FILES | {"sonify", "power"},
        metavar="NAME",
        section="source",
    )
    yield Option(
        "id_column",
        "column of row ids (default: 'id' if present)",
        a_name("--id-column"),
        _FILES | {"sonify", "power"},
        metavar="NAME",
        section="source",
    )
    yield Option(
        "positive",
        "the label value that means positive, when labels are not 0/1 or true/false "
        "(with classes=: the class against the rest)",
        a_name("--positive"),
        _FILES | _ARRAYS | {"from_frame()", "from_estimator()"} | {"sonify", "power"},
        metavar="NAME",
        python=taken_as_is,
        annotation="Hashable | None",
        section="source",
        aliases=("pos_label",),
    )
    yield Option(
        "aggregated",
        "the file is score,positives,negatives per row (detected from the header when not given)",
        parse_switch,
        _FILES | {"sonify"},
        kind="both",
        section="source",
    )
    # From Python: the arrays beside y_true and y_score.
    for name, annotation, said in (
        ("sample_weight", "ArrayLike | None", "one non-negative weight a row"),
        ("ids", "ArrayLike | None", "one id a row (names the rows in messages and edits)"),
        ("classes", "Sequence[object] | None", "the class of each column of a 2-D y_score"),
        (
            "groups",
            "ArrayLike | None",
            "one group name a row: every number per group and the gaps between groups",
        ),
        (
            "group_name",
            "str | None",
            "what the groups' column is called in the report (a Series' own name, else group)",
        ),
        (
            "folds",
            "ArrayLike | None",
            "one cross-validation fold name a row: each fold's "
            "curve and summaries, their mean and spread",
        ),
        ("fold_name", "str | None", "what the folds' column is called (else fold)"),
        ("source", "str | None", "the name the report gives the rows"),
    ):
        fronts = _ARRAYS | {"from_frame()", "from_estimator()"}
        if name in ("sample_weight", "ids"):
            fronts = _ARRAYS | {"from_estimator()"}
        if name == "classes":
            fronts = _ARRAYS
        yield Option(
            name, said, None, fronts, keyword=name, annotation=annotation, section="source"
        )
    # From a data frame: its columns.
    for name, default, said in (
        ("score", "score", "the score column, or a list of them (several models)"),
        ("label", "label", "the label column"),
        ("weight", None, "the weight column"),
        ("id", None, "the id column"),
    ):
        yield Option(
            name,
            said,
            None,
            frozenset({"from_frame()"}),
            default=default,
            keyword=name,
            annotation={"score": "str | Sequence[str]", "label": "str"}.get(name, "str | None"),
            section="source",
        )


OPTIONS = Table(_entries())

#: Options a test reads off ``Options`` fields: every field one option sets.
FIELDS: Mapping[str, str] = {o.field: o.name for o in OPTIONS.values() if o.field}
