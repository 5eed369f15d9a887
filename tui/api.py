"""The explorer on rows from a Python session: ``threshold_lab.explore(y_true, y_score)``.

It runs in the terminal the Python process runs in, and hands back where the user
left the threshold and the rows as they edited them.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.data.arrays import arrays_source
from threshold_lab.core.data.loaders import Columns
from threshold_lab.core.errors import InputError
from threshold_lab.core.metrics.metric import format_fraction
from threshold_lab.core.report.options import make_options
from threshold_lab.core.report.report import Report
from threshold_lab.core.threshold import Threshold
from threshold_lab.tui.cli.args import SourceArgs

NO_TERMINAL = (
    "explore needs a terminal (this Python's input and output are not one, as in a "
    "notebook or a pipe): run it from Python in a terminal, or open the rows in a "
    "browser with threshold-lab serve; threshold_lab.report(...) works anywhere"
)


@dataclass(frozen=True)
class Explored:
    """Where the explorer was left: the threshold (None: above all scores) and the
    rows as edited (labels as booleans, True positive)."""

    threshold: Threshold
    y_true: npt.NDArray[np.bool_]
    y_score: npt.NDArray[np.float64]
    sample_weight: npt.NDArray[np.float64] | None
    ids: tuple[str, ...] | None

    def report(self, **options: Any) -> Report:
        """The report of the edited rows at the threshold left (options as
        :func:`threshold_lab.report` takes them)."""
        options.setdefault("threshold", self.threshold)
        return Report.from_predictions(
            self.y_true, self.y_score, sample_weight=self.sample_weight, ids=self.ids, **options
        )


def explore(
    y_true: Any,
    y_score: Any,
    *,
    threshold: object = 0.5,
    sample_weight: Any = None,
    ids: Any = None,
    positive: object = None,
    classes: Any = None,
    goal: object = None,
    prevalence: object = None,
    confidence: object = 0.95,
    bootstrap: object = None,
    seed: object = None,
    beta: object = 2.0,
    transform: object = None,
    theme: str = "textual-dark",
    ascii: bool = False,
) -> Explored:
    """Open the explorer on these rows in this terminal; when the user quits, return
    the threshold left and the rows as edited (refused, InputError, without a
    terminal)."""
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise InputError(NO_TERMINAL)
    from threshold_lab.tui.app import ThresholdLab
    from threshold_lab.tui.cli.explore import check_theme

    check_theme(theme)
    # Every option checked as the report checks it, before a screen opens.
    o = make_options(
        threshold=threshold,
        beta=beta,
        goal=goal,
        prevalence=prevalence,
        confidence=confidence,
        bootstrap=bootstrap,
        seed=seed,
        transform=transform,
    )
    src = arrays_source(
        y_true, y_score, sample_weight=sample_weight, ids=ids, positive=positive, classes=classes
    )
    wanted = SourceArgs(
        name="arrays",
        typed=None,
        columns=Columns(),
        aggregated=None,
        threshold_text=None,
        beta=o.beta,
        goal_text=None if goal is None else str(goal),
        prevalence_text=None if o.prevalence is None else format_fraction(o.prevalence),
        transform=None if transform is None else str(transform),
        confidence=o.confidence,
        replicates=o.replicates,
        seed=o.seed,
    )
    session = wanted.session(src, o.threshold).session
    app = ThresholdLab(session, theme=theme, ascii=ascii, rows_return=True)
    app.run()
    data = session.data
    return Explored(
        threshold=session.threshold,
        y_true=np.array(data.labels),
        y_score=np.array(data.scores),
        sample_weight=None if data.weights is None else np.array(data.weights),
        ids=None if data.ids is None else tuple(data.ids),
    )
