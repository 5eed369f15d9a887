"""Opening an exploring session: the one place a :class:`Session` is made from what a
front end asked for (the explorer, plain mode, ``threshold_lab.explore``).

A front end makes a :class:`~threshold_lab.core.report.request.Request` (its
options read and checked by the table) and hands it here; it never sets a
session's attributes itself.

>>> from threshold_lab.core.decide.goal import parse_goal
>>> asked = Request.from_command("explore", "canonical", {"goal": parse_goal("max f1")})
>>> opened = open_session(asked)
>>> opened.session.threshold, opened.session.goal.text()
(0.1, 'max f1')
"""

from __future__ import annotations

from dataclasses import dataclass

from threshold_lab.core.data.dataset import Dataset, Model
from threshold_lab.core.data.sources import Source
from threshold_lab.core.report.request import Request
from threshold_lab.core.session.groups import RowGroups
from threshold_lab.core.session.session import Session
from threshold_lab.core.threshold import Threshold
from threshold_lab.core.transform import Transform, apply, transform_rows


@dataclass(frozen=True)
class Opened:
    """A session as opened, and its first sentence (what ``--transform`` did, the
    groups it opened with, a goal solved per group, earlier edits recovered; or "")."""

    session: Session
    opening: str = ""


def open_session(request: Request, src: Source | None = None) -> Opened:
    """The session ``request`` asks for (of ``src`` when its rows are open already:
    a large file loaded in the background), every option applied (InputError when
    one cannot be: a goal the rows cannot meet, per-group thresholds with no groups)."""
    if src is None:
        src = request.open()
    options = request.options(src)
    said: list[str] = []
    data, models = src.data, src.models
    if options.transform is not None:  # part of loading: the rows open transformed
        data, models, what = _transformed(options.transform, data, models, options.threshold)
        said.append(what)
    row_groups, quantised, by, folds = None, src.quantised, src.group_by, False
    if src.fold_codes is not None and models:  # said, not dropped in silence
        said.append(
            f"--fold {src.fold_column}: with several models the explorer shows the models; "
            "each model's folds are in report --fold"
        )
    if src.fold_codes is not None and src.fold_column is not None and not models:
        # Every row pooled, then each fold: a line and a curve each, M shows one.
        split = RowGroups(src.fold_column, list(src.fold_names), src.fold_codes)
        models, by, folds = split.models(data), src.fold_column, True
    if src.group_column is not None and src.group_codes is not None:
        row_groups = RowGroups(src.group_column, [n for n, _ in src.groups], src.group_codes)
        if not models:  # every row pooled, then each group: a line each, M shows one
            models, by = row_groups.models(data), src.group_column
            whole = quantised.get("")  # the pooled rows' bound: the "all" line's
            quantised = {} if whole is None else {models[0].name: whole}
    session = Session(
        data,
        options.threshold,
        source=src.label,
        path=src.path,
        options=options,
        columns=src.columns,
        models=models,
        multiclass=src.multiclass,
        klass=src.klass,
        quantised=quantised,
        group_by=by,
        pooled=folds or (row_groups is not None and not src.models),
        row_groups=row_groups,
        folds=folds,
    )
    if options.goal is not None:
        session.set_goal(options.goal)  # the threshold opens at the goal's point
    if options.band_goal is not None:
        said.append(session.set_band(options.band_goal).message)  # at its accept threshold
    if row_groups is not None:
        col = src.group_column
        alone = (
            ""
            if src.models
            else " M shows one group alone (its rows, matrix and curves), O gives each "
            "group its own threshold;"
        )
        said.append(
            f"{len(src.groups)} groups by {col}: every row is shown pooled;{alone} E "
            "(in plain mode, groups) shows each group and the gaps."
        )
    if options.group_goal is not None:
        said.append(session.solve_group_goal(options.group_goal, options.tolerance).message)
    said.append(session.recovery_notice())  # an earlier session hung up with edits
    return Opened(session, " ".join(s for s in said if s))


def _transformed(
    t: Transform, data: Dataset, models: tuple[Model, ...], threshold: Threshold
) -> tuple[Dataset, tuple[Model, ...], str]:
    """``data`` (and every model's rows) with transform ``t`` applied, and the sentence
    saying what it changed at ``threshold``."""
    new, said, _ = transform_rows(t, data, threshold)
    if models:
        models = (
            Model(models[0].name, new),
            *(Model(m.name, m.data.with_scores(apply(t, m.data).scores)) for m in models[1:]),
        )
    return new, models, said.sentence()
