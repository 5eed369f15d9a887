"""The explorer on rows from a Python session: ``threshold_lab.explore(y_true, y_score)``.

It runs in the terminal the Python process runs in, and hands back where the user
left the threshold and the rows as they edited them.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from numpy.typing import ArrayLike
from threshold_lab.core.errors import InputError
from threshold_lab.core.report.option import keywords_checked
from threshold_lab.core.report.report import Report
from threshold_lab.core.report.request import Request
from threshold_lab.core.session.opening import open_session
from threshold_lab.core.threshold import Threshold

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


@keywords_checked("threshold_lab.explore")
def explore(
    y_true: ArrayLike,
    y_score: ArrayLike | Mapping[str, ArrayLike],
    *,
    threshold: float | str | None = 0.5,
    goal: str | None = None,
    band_goal: str | None = None,
    prevalence: float | Fraction | str | None = None,
    beta: float = 2.0,
    confidence: float = 0.95,
    bootstrap: int | bool | None = None,
    seed: int | None = None,
    readout: str | Sequence[str] | None = None,
    partial_auc: str | Sequence[str] | None = None,
    pt: str | Sequence[float | str] | None = None,
    harm: float | Fraction | str | None = None,
    alternative: str = "two-sided",
    unpaired: bool = False,
    transform: str | None = None,
    group_goal: str | None = None,
    tolerance: float | Fraction | str | None = None,
    theme: str = "textual-dark",
    ascii: bool | None = None,
    playback_seconds: float = 1.0,
    positive: Hashable | None = None,
    pos_label: Hashable | None = None,
    sample_weight: ArrayLike | None = None,
    ids: ArrayLike | None = None,
    classes: Sequence[object] | None = None,
    groups: ArrayLike | None = None,
    group_name: str | None = None,
    folds: ArrayLike | None = None,
    fold_name: str | None = None,
    source: str | None = None,
) -> Explored:
    """Open the explorer on these rows in this terminal; when the user quits, return
    the threshold left and the rows as edited (refused, InputError, without a
    terminal). The options are :func:`threshold_lab.report`'s that the explorer
    has, and its look (``theme``, ``ascii``, ``playback_seconds``)."""
    keywords = {k: v for k, v in locals().items() if k not in ("y_true", "y_score")}
    request = Request.from_python("explore()", y_true, y_score, keywords)
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise InputError(NO_TERMINAL)
    from threshold_lab.tui.app import ThresholdLab
    from threshold_lab.tui.ascii import locale_wants_ascii
    from threshold_lab.tui.cli.explore import check_theme

    check_theme(request.get("theme"))
    opened = open_session(request)  # every option checked before a screen opens
    session = opened.session
    shown_ascii = request.get("ascii")
    app = ThresholdLab(
        session,
        opening=opened.opening,
        theme=request.get("theme"),
        ascii=locale_wants_ascii() if shown_ascii is None else shown_ascii,
        playback_seconds=request.get("playback_seconds"),
        rows_return=True,
    )
    app.run()
    data = session.data
    return Explored(
        threshold=session.threshold,
        y_true=np.array(data.labels),
        y_score=np.array(data.scores),
        sample_weight=None if data.weights is None else np.array(data.weights),
        ids=None if data.ids is None else tuple(data.ids),
    )
