"""threshold-lab: exact, tie-aware metrics of a classifier's threshold.

>>> import threshold_lab as tl
>>> r = tl.report([1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1], threshold=0.5)
>>> r.metrics["precision"].exact, r.roc_auc.exact
(Fraction(2, 3), Fraction(7, 12))

The one import name of the distribution: ``threshold_lab.core`` is the engine
(pure numpy; the folder ``core/`` of the repository) and ``threshold_lab.tui``
the explorer and the command line (the folder ``tui/``). Importing this package
never imports Textual; :func:`explore` does, when called.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from threshold_lab.core.errors import InputError
from threshold_lab.core.measures import Measure
from threshold_lab.core.report.report import Report, Sweep

if TYPE_CHECKING:
    from threshold_lab.tui.api import Explored

__all__ = [
    "Explored",
    "InputError",
    "Measure",
    "Report",
    "Sweep",
    "explore",
    "from_frame",
    "report",
]


def report(y_true: Any, y_score: Any, **options: Any) -> Report:
    """The report of labels and scores at one threshold.

    ``y_true``: 0/1, booleans or true/false (two other values with
    ``positive="yes"``); ``y_score``: one number a row, a mapping of model name to
    scores (several models of the same rows), or a 2-D array of one column a class
    with ``classes=[...]``. Anything ``numpy.asarray`` takes: lists, numpy arrays,
    pandas or polars Series.

    Options (keyword only): ``threshold`` (0.5; None is above all scores),
    ``sample_weight``, ``ids``, ``positive``, ``classes``, ``goal`` ("max precision
    where recall >= 0.9"), ``prevalence`` (0.05 or "1/20"), ``confidence``,
    ``bootstrap`` (replicates), ``seed``, ``bins``, ``binning`` ("mass" or
    "width"), ``beta``, ``transform``, ``readout`` ("fpr 0.01,0.05" or a list, for
    the operating points at fixed rates), ``partial_auc`` ("fpr:0-0.1" or a list),
    ``alternative`` ("two-sided", "greater", "less": for comparing models),
    ``unpaired`` (True: models compared as different examples), ``pt`` (the decision
    curve's threshold probabilities: "0.01:0.99:0.01", the default, "0.05,0.1,0.2" or
    a list of numbers), ``harm`` (what acting costs every case, subtracted from net
    benefit), ``groups`` (one group name a row: every number per group and the gaps
    between groups, :attr:`Report.groups` and :attr:`Report.gaps`), ``group_name``
    (what the groups' column is called in the report: a Series' own name, else
    "group"), ``group_goal``, ``tolerance`` and ``randomised`` (per-group thresholds),
    ``folds`` (one cross-validation fold name a row: each fold's curve and summaries,
    their mean and spread, :attr:`Report.folds`) and ``fold_name``, ``baseline`` (an
    earlier report: a path to its JSON, its text, dict or a Report) with
    ``baseline_scores`` (the baseline model's scores of these rows, for DeLong's paired
    test), ``require`` (``"auc >= baseline.auc - 0.01"`` or a list:
    :attr:`Report.requirements`, :attr:`Report.passed`), ``source`` (the name the
    report gives).

    Bad input raises :class:`InputError` (a ValueError) with the message the
    command line gives.
    """
    return Report.from_predictions(y_true, y_score, **options)


def from_frame(
    frame: Any,
    *,
    score: str | list[str] = "score",
    label: str = "label",
    weight: str | None = None,
    id: str | None = None,
    group: str | None = None,
    fold: str | None = None,
    **options: Any,
) -> Report:
    """The report of a data frame's columns: pandas, polars, pyarrow or DuckDB (any
    frame with the Arrow PyCapsule stream or the dataframe interchange protocol,
    read through pyarrow). ``score`` may list several columns (several models);
    ``group`` names a column of each row's group (every number per group, and the
    gaps); ``fold`` a column of each row's cross-validation fold; the other options
    are :func:`report`'s."""
    return Report.from_frame(
        frame, score=score, label=label, weight=weight, id=id, group=group, fold=fold, **options
    )


def explore(y_true: Any, y_score: Any, **options: Any) -> Explored:
    """Open the explorer on these rows in this terminal; when the user quits, return
    the threshold left and the rows as edited (:class:`Explored`). Options are
    :func:`report`'s, with ``theme`` and ``ascii``."""
    from threshold_lab.tui.api import explore as run

    return run(y_true, y_score, **options)


def __getattr__(name: str) -> Any:
    if name == "Explored":  # the explorer's result type, without importing Textual
        from threshold_lab.tui.api import Explored

        return Explored
    raise AttributeError(f"module 'threshold_lab' has no attribute {name!r}")
