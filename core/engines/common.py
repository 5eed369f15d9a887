"""What the engines share: the label rules, messages that name the file, the
summary of a run, and writing OUT whole or not at all."""

from __future__ import annotations

import contextlib
import math
import os
import shutil
import tempfile
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from threshold_lab.core.data.cells import Columns
from threshold_lab.core.data.labels import LabelProblem, truth_of
from threshold_lab.core.data.loaders import load_counts, load_file
from threshold_lab.core.data.quantise import Rule
from threshold_lab.core.engines.plan import Plan, Scan
from threshold_lab.core.errors import InputError

#: A delimited file at most this large is read again by the exact loader when an
#: engine finds a problem in it, so the message names the line as opening it would.
EXACT_MESSAGE_BYTES = 64 * 2**20


@dataclass(frozen=True)
class Group:
    """One group of the output (the whole output without ``--by``)."""

    name: str | None
    scores: int
    positives: float
    negatives: float
    #: The quantisation bound on AUC (None when not quantised or undefined).
    bound: float | None


@dataclass(frozen=True)
class Result:
    """What a run wrote."""

    out: Path
    files: int
    rows: int
    shards: int
    groups: tuple[Group, ...]
    rule: Rule | None
    engine: str

    @property
    def scores(self) -> int:
        return sum(g.scores for g in self.groups)


def positive_keys(
    labels: Sequence[tuple[str | None, str]],
    plan: Plan,
    label_column: dict[str, str],
    locate: Callable[[str, str | None], str | None] = lambda file, key: None,
) -> list[str]:
    """The label keys that are positive, by the loaders' rules, from the distinct
    (key, first file) pairs an engine found. A problem names a file holding the label
    and, where ``locate(file, key)`` finds it, its row; a small CSV gets the exact
    loader's message, naming the line."""

    def bad(file: str, key: str | None, text: str) -> InputError:
        exact_message(file, plan)
        col = label_column.get(file, "label")
        row = locate(file, key)
        return InputError(f"{file}{', ' + row if row else ''}, column {col!r}: {text}")

    for key, file in labels:
        if key is None:
            raise bad(file, None, "the label is missing (null or empty)")
    keys = [k for k, _ in labels if k is not None]
    try:
        truth = truth_of(keys, plan.cols.positive)
    except LabelProblem as problem:
        if problem.at is None:
            files = {f for _, f in labels}
            where = files.pop() if len(files) == 1 else "the inputs' labels"
            raise InputError(f"{where}: {problem.text}") from None
        file = labels[problem.at][1]
        raise bad(file, keys[problem.at], problem.text) from None
    return [k for k in keys if truth[k]]


def bad_count(value: object) -> str:
    """Why a weight or count cannot be counted with, in the loaders' words.

    >>> bad_count("-2"), bad_count("x")
    ('-2.0 is negative; weights must be 0 or more', "'x' must be a number, finite and not negative")
    """
    try:
        x = float(str(value).strip())
    except ValueError:
        return f"{value!r} must be a number, finite and not negative"
    if x < 0:
        return f"{x!r} is negative; weights must be 0 or more"
    return f"{value!r} must be a number, finite and not negative"


def given(plan: Plan, file: str) -> str:
    """A file as the inputs named it (engines may report it resolved, or as a URL)."""
    bare = file.removeprefix("file://").removeprefix("file:")
    for f in plan.files:
        if str(f) == bare or str(f.resolve()) == bare:
            return str(f)
    return bare


def exact_message(file: str, plan: Plan) -> None:
    """Raise the exact loader's message for ``file`` when it is a small delimited
    file whose problem the loader finds; return quietly otherwise."""

    file = given(plan, file)
    path = Path(file)
    try:
        if path.suffix.lower() in (".parquet", ".pq") or path.stat().st_size > EXACT_MESSAGE_BYTES:
            return
    except OSError:
        return
    cols = plan.cols
    scan = next((s for s in plan.scans if any(str(f) == file for f in s.files)), None)
    if scan is not None and not scan.aggregated:
        cols = Columns(
            score=scan.column("score") or cols.score,
            label=scan.column("label") or cols.label,
            weight=scan.column("weight"),
            positive=cols.positive,
        )
    try:
        if scan is not None and scan.aggregated:
            # As counts, with the shard's group column: the loader's own refusal of a
            # grouped file ("holds 2 groups") is not this file's problem.

            load_counts(path, scan.by if scan.by in scan.header else None)
        else:
            load_file(path, cols, aggregated=scan.aggregated if scan is not None else None)
    except InputError:
        raise
    except Exception:
        return


def not_a_number(value: object) -> str:
    """Why an engine could not read a cell as a finite number.

    >>> not_a_number("abc"), not_a_number("nan"), not_a_number("\u0661")
    ('is not a number', 'is not a finite number', 'is not a plain number (ASCII digits, ., e)')
    """
    try:
        x = float(str(value).strip())
    except ValueError:
        return "is not a number"
    if not math.isfinite(x):
        return "is not a finite number"
    return "is not a plain number (ASCII digits, ., e)"


#: Parquet types read as text (then parsed like a text file's cells).
TEXT_TYPES = ("string", "large_string", "string_view")

#: Why a round is refused: past 2^53, score · 10^D is no longer exact in a double.
TOO_LARGE = "is too large to round to {d} digits exactly (|score| · 10^{d} must stay below 2^53)"


def bad_cell(plan: Plan, file: str, place: str, role: str, value: object) -> InputError:
    """The message for the first bad cell an engine found: in ``file`` (at ``place``,
    "row N" or nothing), of ``role`` (score, weight, positives/negatives, merged, by).
    A small CSV gets the exact loader's message instead, naming the line."""
    file = given(plan, file)
    exact_message(file, plan)
    column = column_name(plan, file, role)
    where = f"{file}{', ' + place if place else ''}, column {column!r}"
    if role == "by":
        return InputError(f"{where}: the group is missing")
    if value is None or str(value).strip() == "":
        return InputError(f"{where}: the cell is empty")
    if role in ("weight", "positives/negatives"):
        return InputError(f"{where}: {bad_count(value)}")
    if role == "merged":
        return InputError(f"{where}: {value!r} is not true or false")
    return InputError(f"{where}: {value!r} {not_a_number(value)}")


def column_name(plan: Plan, file: str, role: str) -> str:
    """The name of ``role``'s column in ``file``, for messages."""
    for scan in plan.scans:
        if any(str(f) == file or str(f.resolve()) == file for f in scan.files):
            if role == "by":
                return scan.by or "by"
            if role == "positives/negatives":
                return role
            return scan.column(role) or role
    return role


def check_total(plan: Plan, total: float) -> None:
    """Refuse inputs whose examples all weigh nothing, as the loaders do."""
    if not total > 0:
        files = plan.files
        where = str(files[0]) if len(files) == 1 else f"the {len(files)} input files"
        raise InputError(f"{where}: every weight is zero: at least one row must count")


def label_columns(plan: Plan) -> dict[str, str]:
    """Each file's label column name, for messages."""
    return {str(f): s.column("label") or "label" for s in plan.scans for f in s.files}


def row_scans(plan: Plan) -> list[Scan]:
    return [s for s in plan.scans if not s.aggregated]


def shard_scans(plan: Plan) -> list[Scan]:
    return [s for s in plan.scans if s.aggregated]


def out_format(out: Path) -> tuple[str, str]:
    """("parquet", "") or ("csv", delimiter) by OUT's extension."""
    suffix = out.suffix.lower()
    if suffix in (".parquet", ".pq"):
        return "parquet", ""
    if suffix in (".tsv", ".tab"):
        return "csv", "\t"
    if suffix == ".csv":
        return "csv", ","
    raise InputError(f"-o {out}: name the output .parquet, .csv or .tsv")


@contextlib.contextmanager
def whole_or_nothing(out: Path) -> Iterator[Path]:
    """A temporary path beside ``out``: moved onto ``out`` when the block ends
    well, removed (with anything written there) when it fails."""
    parent = out.parent if str(out.parent) else Path(".")
    if not parent.is_dir():
        raise InputError(f"-o {out}: no folder {parent}")
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".partial", dir=parent))
    target = tmp / out.name
    try:
        yield target
        os.replace(target, out)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
