"""Resolve what a user names on the command line: a file path or a preset."""

from __future__ import annotations

import dataclasses
import stat
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.data.aggregated import (
    Counts,
    Quantised,
    dataset_of,
    example_groups,
    is_aggregated,
)
from threshold_lab.core.data.cells import fail, matching
from threshold_lab.core.data.class_files import load_multiclass
from threshold_lab.core.data.classes import Multiclass
from threshold_lab.core.data.dataset import Dataset, Model
from threshold_lab.core.data.delimited import header_of
from threshold_lab.core.data.extra import numeric_column, text_column
from threshold_lab.core.data.generated import is_generated
from threshold_lab.core.data.groups import group_codes, split_groups
from threshold_lab.core.data.loaders import Columns, load_counts, load_file
from threshold_lab.core.data.models import join_models, load_models
from threshold_lab.core.data.presets import PRESET_NAMES, PRESETS, preset
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.threshold import Threshold


@dataclass(frozen=True)
class Source:
    """Loaded data, where it came from, and the threshold it opens at."""

    data: Dataset
    label: str
    threshold: Threshold = 0.5
    path: Path | None = None
    #: Numeric columns kept for a goal's costs, by name (one value per row).
    columns: Mapping[str, npt.NDArray[np.float64]] = field(default_factory=dict)
    #: Several models of the same rows (``data`` is the first's), or none.
    models: tuple[Model, ...] = ()
    #: Several classes (``data`` is one class against the rest), or None.
    multiclass: Multiclass | None = None
    #: Which class ``data`` is, against the rest (an index into the classes).
    klass: int = 0
    #: Quantised aggregated counts: the rule and AUC bound, by model (group) name,
    #: or under "" with one model.
    quantised: Mapping[str, Quantised] = field(default_factory=dict)
    #: The column whose groups ``models`` are (an aggregated file's ``--by``): they
    #: are different examples, not several models' scores of the same rows.
    group_by: str | None = None
    #: Rows split by a group column (``--group COL``, ``groups=``): its name (None
    #: without groups) and each group's name and rows (the first model's scores).
    group_column: str | None = None
    groups: tuple[tuple[str, Dataset], ...] = ()
    #: Each loaded row's index into ``groups`` (None without groups).
    group_codes: npt.NDArray[np.intp] | None = None
    #: Cross-validation folds (``--fold COL``, ``folds=``): the column, each fold's
    #: name, and each row's index into them (the same rows for every model).
    fold_column: str | None = None
    fold_names: tuple[str, ...] = ()
    fold_codes: npt.NDArray[np.intp] | None = None
    #: Scores an estimator gave (``from_estimator``): its response method and the
    #: class scored as positive (None: scores given as they are).
    response: tuple[str, object] | None = None

    @property
    def paired(self) -> bool:
        """Whether the models score the same rows (not groups of different ones)."""
        return self.group_by is None


def with_groups(src: Source, column: str, values: Any, *, where: str | None = None) -> Source:
    """``src`` with its rows split by ``values`` (one group name a row), named
    ``column``; refused for several classes, and with one group only."""
    said = where or column
    if src.multiclass is not None:
        raise InputError(
            f"{said}: groups are for two classes (use --class C for one class against the rest)"
        )
    names, codes = group_codes(values, src.data.n, where=said)
    if len(names) < 2:
        raise InputError(
            f"{said}: every row is in group {quoted(names[0])}; groups need at least two"
        )
    return dataclasses.replace(
        src, group_column=column, group_codes=codes, groups=split_groups(src.data, names, codes)
    )


def with_folds(src: Source, column: str, values: Any, *, where: str | None = None) -> Source:
    """``src`` with each row's fold (``values``, one fold name a row), named ``column``;
    refused for several classes, with groups, and with one fold only."""
    said = where or column
    if src.multiclass is not None:
        raise InputError(
            f"{said}: folds are for two classes; a file of several classes is "
            "not split into folds (not even with --class)"
        )
    if src.group_column is not None or src.group_by is not None:
        raise InputError(
            f"{said}: a fold column and a group column do not combine (the "
            "folds' spread and the groups' gaps are two different questions: "
            "report each on its own)"
        )
    names, codes = group_codes(values, src.data.n, where=said, part="fold")
    if len(names) < 2:
        raise InputError(
            f"{said}: every row is in fold {quoted(names[0])}; folds need at least two"
        )
    return dataclasses.replace(src, fold_column=column, fold_names=tuple(names), fold_codes=codes)


def open_source(
    name: str,
    cols: Columns = Columns(),
    *,
    aggregated: bool | None = None,
    keep: Sequence[str] = (),
    scores: Sequence[str] = (),
    compare: str | None = None,
    class_scores: Sequence[str] = (),
    multiclass: bool = False,
    klass: str | None = None,
    by: str | None = None,
    group: str | None = None,
    as_models: bool = False,
    fold: str | None = None,
) -> Source:
    """A file when ``name`` is an existing path, else a preset of that name.
    ``compare``: a second file of the same examples, joined on id (each file one model).

    >>> open_source("canonical").data.n
    5
    """
    path = Path(name)
    if fold is not None:
        if group is not None or by is not None:
            raise InputError(
                f"--fold {fold} and --group {group or by}: a fold column and a "
                "group column do not combine (the folds' spread and the groups' "
                "gaps are two different questions: report each on its "
                "own)"
            )
        if not _there(path):
            raise InputError(
                f"--fold {fold}: {name} is a preset, with no fold column "
                "(presets have scores and labels only)"
            )
        if _regular(path) and _counts_file(path, aggregated):
            raise fail(
                path,
                f"--fold {fold}: aggregated counts (score, positives, negatives) "
                "have no rows to split into folds; give the rows file",
            )
        src = open_source(
            name,
            cols,
            aggregated=aggregated,
            keep=keep,
            scores=scores,
            compare=compare,
            class_scores=class_scores,
            multiclass=multiclass,
            klass=klass,
        )
        if src.multiclass is not None:
            raise InputError(
                f"--fold {fold}: folds are for two classes; a file of several "
                "classes is not split into folds (not even with --class)"
            )
        values = text_column(path, fold, src.data.n, purpose="the folds")
        return with_folds(src, fold, values, where=f"{path}, column {quoted(fold)}")
    if _there(path) and _regular(path) and _counts_file(path, aggregated):
        classes = bool(class_scores) or multiclass or klass is not None
        return _counts_source(path, by, group, keep, scores, compare, classes, as_models)
    if by is not None:
        raise InputError(
            f"{name}: --by is for aggregated files (score, positives, negatives "
            "and a group column, as threshold-lab aggregate --by writes)"
        )
    if group is not None:
        if not _there(path):
            raise InputError(
                f"--group {group}: {name} is a preset, with no group column "
                "(presets have scores and labels only)"
            )
        src = open_source(
            name,
            cols,
            aggregated=aggregated,
            keep=keep,
            scores=scores,
            compare=compare,
            class_scores=class_scores,
            multiclass=multiclass,
            klass=klass,
        )
        values = text_column(path, group, src.data.n, purpose="the groups")
        return with_groups(src, group, values, where=f"{path}, column {quoted(group)}")
    if _there(path) and not aggregated and len(scores) < 2 and compare is None:
        mc = load_multiclass(path, cols, class_scores, force=multiclass)
        if mc is not None:
            if keep:
                raise InputError(
                    f"{path}: a goal's cost column is for binary rows, not "
                    "several classes (use --class C for one class)"
                )
            c = class_index(mc, klass, path)
            return Source(
                data=mc.one_vs_rest(c), label=str(path), path=path, multiclass=mc, klass=c
            )
    if (klass is not None or class_scores or multiclass) and name not in PRESETS:
        raise InputError(
            f"{name}: not several classes: --class, --class-score and --multiclass need a "
            "label column of class names and one score column a class (score_<class>)"
        )
    if _there(path):
        models = load_models(path, cols, scores, aggregated)
        data = models[0].data if models else load_file(path, cols, aggregated=aggregated)
        if compare is not None:
            models = _joined(path, data, models, compare, cols, aggregated)
        kept = {}
        if keep and (aggregated or (aggregated is None and _aggregated(path))):
            raise InputError(
                f"{path}: a cost column (@{keep[0]}) needs one row per example; "
                "aggregated counts have none"
            )
        for column in keep:
            kept[column] = numeric_column(path, column, data.n)
        return Source(data=data, label=str(path), path=path, columns=kept, models=models)
    if name in PRESETS or is_generated(name):
        p = preset(name)
        name = p.name
        if keep:
            raise InputError(
                f"preset {name} has no column {quoted(keep[0])} for the goal's cost "
                "(presets have scores and labels only)"
            )
        if len(scores) >= 2:
            raise InputError(f"preset {name} has no score columns to choose from")
        if compare is not None:
            raise InputError(
                f"--compare joins two files on id; preset {name} is not a file (save it "
                "with s in the explorer first)"
            )
        if p.multiclass is not None:
            c = class_index(p.multiclass, klass, Path(f"preset {name}"))
            return Source(
                data=p.multiclass.one_vs_rest(c),
                label=f"preset {name}",
                threshold=p.threshold,
                multiclass=p.multiclass,
                klass=c,
            )
        if klass is not None:
            raise InputError(f"preset {name} has two classes; --class is for several")
        return Source(data=p.data, label=f"preset {name}", threshold=p.threshold, models=p.models)
    raise InputError(
        f"{name}: no such file, and no preset has that name (presets: {', '.join(PRESET_NAMES)}; "
        "generated: binormal:d=D,prevalence=P,n=N,seed=S and beta:...)"
    )


def _regular(path: Path) -> bool:
    """A regular file we may stat (a pipe, a folder or an unsearchable place: the
    loader reads it, or says why it cannot)."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


def _counts_file(path: Path, aggregated: bool | None) -> bool:
    """Whether a regular file is aggregated counts (by ``aggregated``, else its header)."""
    if aggregated is not None:
        return aggregated and path.suffix.lower() != ".json"
    suffix = path.suffix.lower()
    if suffix == ".json":
        return False
    if suffix in (".parquet", ".pq"):
        try:
            import pyarrow.parquet as pq

            return is_aggregated(pq.read_schema(str(path)).names)
        except Exception:  # no pyarrow, or not Parquet: the loader says which
            return False
    return is_aggregated(header_of(path))


def _counts_source(
    path: Path,
    by: str | None,
    group: str | None,
    keep: Sequence[str],
    scores: Sequence[str],
    compare: str | None,
    classes: bool,
    as_models: bool = False,
) -> Source:
    """An aggregated file: one table; with a group column, the rows pooled and split
    into groups (``group``: the column, or one group's rows alone), or with
    ``as_models`` each group a model of its own rows."""
    if keep:
        raise InputError(
            f"{path}: a cost column (@{keep[0]}) needs one row per example; "
            "aggregated counts have none"
        )
    if compare is not None:
        raise fail(
            path,
            "aggregated counts (score, positives, negatives) have no rows to "
            "join; --compare needs one row per example in each file",
        )
    if len(scores) >= 2:
        raise fail(
            path,
            "aggregated counts (score, positives, negatives) hold one model; "
            "several models need one row per example",
        )
    if classes:
        raise InputError(
            f"{path}: not several classes: --class, --class-score and --multiclass need a "
            "label column of class names and one score column a class (score_<class>)"
        )
    counts = load_counts(path, by)
    names = counts.group_names()
    if not names:
        if group is not None:
            raise fail(path, f"--group {group}: the file has no group column")
        q = counts.quantised()
        return Source(
            data=dataset_of(path, counts),
            label=str(path),
            path=path,
            quantised={"": q} if q else {},
        )
    column = counts.by or "group"
    if group is not None and not as_models and not matching([column], group):
        if group not in names:
            shown = ", ".join(names[:20]) + (", ..." if len(names) > 20 else "")
            raise fail(
                path,
                f"--group {group}: neither the group column ({quoted(column)}) nor a "
                f"group in it; the groups are: {shown}",
            )
        # One group's rows alone (its report, as a file of those rows alone gives).
        part = counts.part(group)
        q = part.quantised()
        return Source(
            data=dataset_of(path, part),
            label=f"{path} ({column} = {group})",
            path=path,
            quantised={"": q} if q else {},
        )
    if as_models:
        return _group_models(path, counts, names, group)
    q = counts.pooled_quantised()
    src = Source(
        data=dataset_of(path, counts), label=str(path), path=path, quantised={"": q} if q else {}
    )
    each = example_groups(counts)
    if len(names) < 2 or np.unique(each).shape[0] < 2:  # a group of zero counts has no rows
        return src
    return with_groups(src, column, each, where=f"{path}, column {quoted(column)}")


def _group_models(path: Path, counts: Counts, names: list[str], group: str | None) -> Source:
    """``--as-models``: each group a model of its own rows (different examples)."""
    if group is not None and group in names:
        names.remove(group)
        names.insert(0, group)
    elif group is not None:
        shown = ", ".join(names[:20]) + (", ..." if len(names) > 20 else "")
        raise fail(
            path, f"no group {quoted(group)} in column {quoted(counts.by)}; the groups are: {shown}"
        )
    models = []
    quantised = {}
    for g in names:
        part = counts.part(g)
        try:
            models.append(Model(g, dataset_of(path, part)))
        except InputError as exc:
            raise InputError(f"{exc} (group {quoted(g)})") from None
        q = part.quantised()
        if q is not None:
            quantised[g] = q
    return Source(
        data=models[0].data,
        label=str(path),
        path=path,
        models=tuple(models) if len(models) > 1 else (),
        quantised=quantised
        if len(models) > 1
        else ({"": quantised[names[0]]} if names[0] in quantised else {}),
        group_by=counts.by if len(models) > 1 else None,
    )


def class_index(mc: Multiclass, name: str | None, path: Path) -> int:
    """The index of class ``name`` (the first class when None)."""
    if name is None:
        return 0
    if name not in mc.classes:
        raise InputError(
            f"{path}: no class {quoted(name)}; the classes are: {', '.join(mc.classes)}"
        )
    return mc.classes.index(name)


def _joined(
    path: Path,
    data: Dataset,
    models: tuple[Model, ...],
    other: str,
    cols: Columns,
    aggregated: bool | None,
) -> tuple[Model, ...]:
    """``path``'s rows and ``other``'s, one model each, joined on id."""
    other_path = Path(other)
    if not _there(other_path):
        raise InputError(f"--compare {other}: no such file")
    if models:
        raise fail(path, "holds several models already; --compare joins files of one model each")
    if aggregated or (aggregated is None and _aggregated(path)):
        raise fail(
            path,
            "aggregated counts (score, positives, negatives) have no rows to "
            "join; --compare needs one row per example in each file",
        )
    if _aggregated(other_path):
        raise fail(
            other_path,
            "aggregated counts (score, positives, negatives) have no "
            "rows to join; --compare needs one row per example in each file",
        )
    return join_models(path, data, other_path, cols)


def _there(path: Path) -> bool:
    """Whether ``path`` names something, even something we may not read (then
    :func:`load_file` says why, rather than the name being taken for a preset)."""
    try:
        path.stat()
    except (FileNotFoundError, NotADirectoryError):
        return False
    except OSError:
        return True
    return True


def _aggregated(path: Path) -> bool:
    """Whether a delimited file's header makes it aggregated input."""
    if path.suffix.lower() in (".json", ".parquet", ".pq"):
        return False
    return is_aggregated(header_of(path))
