"""What the engines share: the label rules, messages that name the file and the
summary of a run (OUT is written by :mod:`threshold_lab.core.output`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from threshold_lab.core.data.cells import Columns
from threshold_lab.core.data.labels import LabelProblem, truth_of
from threshold_lab.core.data.loaders import load_counts, load_file
from threshold_lab.core.data.quantise import Rule
from threshold_lab.core.engines.plan import Plan, Scan
from threshold_lab.core.errors import InputError
from threshold_lab.core.output import NO_SPACE

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
    >>> bad_count("nan")
    "'nan' is not a finite number"
    """
    try:
        x = float(str(value).strip())
    except ValueError:
        return f"{value!r} must be a number, finite and not negative"
    if not math.isfinite(x):
        return f"{value!r} is not a finite number"
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


#: The loaders' words for weights (or counts) whose total no double can hold: the
#: file written would be refused by every command that opens it.
PAST_LARGEST = (
    "take the total weight past the largest float (about 1.8e308): scale the weights down"
)


def check_sums(plan: Plan, totals: Sequence[tuple[object, float]]) -> None:
    """Refuse a group whose weighted total (positives plus negatives) overflowed to
    infinity, as the loaders refuse the file: a sum past the largest double is no
    count. ``totals`` is each group's (name, total). A single small CSV gets the
    loader's message, naming the line where the total overflows."""
    for name, total in totals:
        if not math.isinf(total):
            continue
        files = plan.files
        if len(files) == 1:
            exact_message(str(files[0]), plan)
        where = str(files[0]) if len(files) == 1 else f"the {len(files)} input files"
        weights = [w for s in row_scans(plan) if (w := s.column("weight"))]
        column, what = (weights[0], "weights") if weights else ("positives/negatives", "counts")
        group = f" of group {str(name)!r}" if plan.by is not None else ""
        raise InputError(f"{where}, column {column!r}: the {what}{group} {PAST_LARGEST}")


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


def full_disk(text: str, tmp: Path) -> bool:
    """Whether an engine's error ``text`` is a full disk while writing ``tmp`` (the
    temporary OUT): it says so and names ``tmp``'s folder, so a full disk elsewhere
    (an engine's own spill folder) is not blamed on OUT."""
    return NO_SPACE.lower() in text.lower() and tmp.parent.name in text
