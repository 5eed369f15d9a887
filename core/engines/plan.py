"""What an aggregation reads and does, whichever engine runs it.

:func:`plan` expands the inputs (files, globs, folders with hive partitions),
reads each file's header, finds its columns by the loaders' rules (so a missing
column gets the same message as when opening the file), and tells rows from
aggregated shards. Files with the same columns are read together, as one scan.
"""

from __future__ import annotations

import csv
import fnmatch
import glob
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from threshold_lab.core.data.aggregated import aggregated_columns, is_aggregated
from threshold_lab.core.data.cells import Columns, fail, find, names_wanted, optional
from threshold_lab.core.data.delimited import delimiter_of, header_of
from threshold_lab.core.data.quantise import Rule, parse_rule
from threshold_lab.core.errors import InputError, MissingDependency
from threshold_lab.core.output import Output, one_of

#: File name endings read as Parquet; every other file is delimited text.
PARQUET = (".parquet", ".pq")
#: Files found in a folder: these endings, not hidden, not Spark's _SUCCESS marks
#: (other text files, a readme, are not data; name one on its own to read it).
FOUND = (".csv", ".tsv", ".tab", *PARQUET)


@dataclass(frozen=True)
class Scan:
    """Files with the same format and columns, read as one scan.

    ``columns`` maps a role (score, label, weight; or score, positives, negatives,
    merged, quantisation) to the column's name in the files; ``types`` is each
    role's Parquet type as pyarrow names it ("string", "double", ...), empty for
    text files, whose cells are all read as text. ``by`` is the group column's
    name, in the files or a hive partition key.
    """

    files: tuple[Path, ...]
    parquet: bool
    delimiter: str
    aggregated: bool
    columns: tuple[tuple[str, str], ...]
    header: tuple[str, ...]
    types: tuple[tuple[str, str], ...] = ()
    by: str | None = None
    #: The folder given on the command line (for a Spark reader's partition discovery).
    root: Path | None = None
    #: The quantisation each file was written with (aggregated shards only).
    rules: tuple[Rule, ...] = ()

    def column(self, role: str) -> str | None:
        return dict(self.columns).get(role)

    def type_of(self, role: str) -> str:
        return dict(self.types).get(role, "string")


@dataclass(frozen=True)
class Plan:
    """Everything an engine needs."""

    scans: tuple[Scan, ...]
    out: Path
    cols: Columns
    by: str | None = None
    rule: Rule | None = None
    #: Why the rule applies without being asked for (merging rounded shards).
    rule_from: str = ""
    weighted: bool = False
    notes: tuple[str, ...] = field(default=())
    #: Replace OUT if it exists (``--overwrite``); without, OUT is never replaced, not
    #: even when it appears while the run works.
    overwrite: bool = False

    @property
    def output(self) -> Output:
        """OUT as :mod:`threshold_lab.core.output` writes it (checked by the command
        before the plan was made)."""
        real = Path(os.path.realpath(self.out))
        return Output(self.out, "-o", real, through=False, overwrite=self.overwrite)

    @property
    def quantised(self) -> bool:
        return self.rule is not None

    @property
    def files(self) -> tuple[Path, ...]:
        return tuple(f for s in self.scans for f in s.files)


@dataclass(frozen=True)
class Found:
    """A file to read, and the INPUT that named it (a file, a glob or a folder)."""

    path: Path
    given: str
    #: Found by searching (a folder or a glob), not named on its own.
    searched: bool


def expand(inputs: Sequence[str]) -> list[Found]:
    """Each file named by ``inputs`` (a file, a glob, or a folder searched through), once."""
    found: dict[Path, Found] = {}
    for text in inputs:
        p = Path(text)
        if any(ch in text for ch in "*?["):
            matches = sorted(glob.glob(text, recursive=True))
            files = [Path(m) for m in matches if Path(m).is_file()]
            for m in matches:
                if Path(m).is_dir():
                    files += _under(Path(m))
            if not files:
                raise InputError(f"{text}: no file matches")
            for f in files:
                found.setdefault(f.resolve(), Found(f, text, True))
        elif p.is_dir():
            under = _under(p)
            if not under:
                raise InputError(f"{p}: no CSV, TSV or Parquet files in this folder or below it")
            for f in under:
                found.setdefault(f.resolve(), Found(f, text, True))
        elif p.exists():
            found.setdefault(p.resolve(), Found(p, text, False))
        else:
            raise InputError(f"{p}: no such file")
    return list(found.values())


def _under(folder: Path) -> list[Path]:
    out = []
    for dirpath, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "_")))
        for name in sorted(filenames):
            if name.startswith((".", "_")) or not name.lower().endswith(FOUND):
                continue
            out.append(Path(dirpath) / name)
    return out


def _searched_over(out: Path, inputs: Sequence[str]) -> str | None:
    """The INPUT (a folder, or a glob) that a later run would find OUT by, if any."""
    real = out.resolve()
    for text in inputs:
        p = Path(text)
        if any(ch in text for ch in "*?["):
            if fnmatch.fnmatch(str(out), text) or fnmatch.fnmatch(str(real), text):
                return text
            base = Path(*_until_magic(p.parts) or ["."]).resolve()
            if "**" in text and base in real.parents:
                return text
        elif p.is_dir() and p.resolve() in real.parents:
            return text
    return None


def _until_magic(parts: Sequence[str]) -> list[str]:
    out = []
    for part in parts:
        if any(ch in part for ch in "*?["):
            break
        out.append(part)
    return out


def hive_keys(path: Path) -> dict[str, str]:
    """The ``key=value`` folders on ``path``'s way, as DuckDB and Spark read them.

    >>> hive_keys(Path("lake/model=a/day=2/part.parquet"))
    {'model': 'a', 'day': '2'}
    """
    return dict(part.split("=", 1) for part in path.parent.parts if "=" in part)


def hive_root(path: Path) -> Path | None:
    """The folder above the first ``key=value`` folder (Spark's ``basePath``), or None.

    >>> hive_root(Path("lake/model=a/day=2/part.parquet"))
    PosixPath('lake')
    """
    parts = path.parent.parts
    for i, part in enumerate(parts):
        if "=" in part:
            return Path(*parts[:i]) if i else Path(".")
    return None


def _schema(path: Path) -> tuple[list[str], dict[str, str]]:
    """A Parquet file's column names and their pyarrow types."""
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingDependency(
            f"{path}: reading Parquet needs pyarrow: pip install 'threshold-lab[engines]'"
        ) from None
    try:
        schema = pq.read_schema(str(path))
    except Exception as exc:  # pyarrow raises many types for a bad file
        raise fail(path, f"not a readable Parquet file ({exc})") from None
    return list(schema.names), {f.name: str(f.type) for f in schema}


def _read_header(path: Path) -> tuple[list[str], dict[str, str], str]:
    if path.suffix.lower() in PARQUET:
        names, types = _schema(path)
        return names, types, ","
    try:
        with path.open("rb") as fh:
            first = fh.readline(1 << 20)
    except OSError as exc:
        raise fail(path, f"cannot be read ({exc.strerror or exc})") from None
    if not first.strip():
        raise fail(path, "the file is empty: a header row is needed")
    header = header_of(path)
    if not header:
        raise fail(path, "the header row is not UTF-8 CSV/TSV text")
    return header, {}, delimiter_of(path, first.decode("utf-8", "replace"))


def plan(
    inputs: Sequence[str],
    out: Path,
    cols: Columns,
    *,
    by: str | None = None,
    rule: Rule | None = None,
    overwrite: bool = False,
) -> Plan:
    """Read every input's header and decide how each is read (``overwrite``: OUT may
    be replaced).

    Raises
    ------
    InputError
        A missing input or column, OUT among the inputs, or shards whose
        quantisations cannot be merged exactly.
    """
    found = expand(inputs)
    out_real = Path(os.path.realpath(out))
    over = _searched_over(out, inputs)
    if over is not None:
        raise InputError(
            f"-o {out}: is among what {over} finds, so a later run over {over} would read "
            "it as a shard and count its rows twice; write OUT outside the inputs"
        )
    kinds: dict[str, dict[bool, Path]] = {}
    groups: dict[tuple[object, ...], Scan] = {}
    weighted = False
    rules: dict[str, list[Path]] = {}
    exact: list[Path] = []
    for f in found:
        path, root = f.path, hive_root(f.path)
        if one_of(out_real, [path]) is not None:  # under any name: a link, a hard link
            raise InputError(f"{path}: is the output too; write OUT somewhere else")
        header, types, delim = _read_header(path)
        parquet = path.suffix.lower() in PARQUET
        aggregated = is_aggregated(header)
        if aggregated:
            roles = {k: header[i] for k, i in aggregated_columns(path, header).items()}
            taken = set(map(header.index, roles.values()))
            for name in ("merged", "quantisation"):
                i = optional(path, header, name, taken)
                if i is not None:
                    roles[name] = header[i]
            others = [h for h in header if h not in roles.values()]
            if by is None and others:
                raise fail(
                    path,
                    f"aggregated counts with another column, {others[0]!r}: if "
                    f"it names groups, keep them apart with --by {others[0]}",
                )
            if ("merged" in roles) != ("quantisation" in roles):
                raise fail(
                    path,
                    "a quantised file has both a 'merged' and a "
                    "'quantisation' column; this one has only one",
                )
        else:
            roles = names_wanted(path, header, cols)
            roles.pop("id", None)
            weighted = weighted or "weight" in roles
        if f.searched:
            kinds.setdefault(f.given, {}).setdefault(aggregated, path)
        group_col = None if by is None else _group_column(path, header, by)
        role_types = tuple(sorted((r, types[c]) for r, c in roles.items() if c in types))
        scan = Scan(
            files=(path,),
            parquet=parquet,
            delimiter=delim,
            aggregated=aggregated,
            columns=tuple(sorted(roles.items())),
            header=tuple(header),
            types=role_types,
            by=group_col,
            root=root,
        )
        rule_texts: list[str] = []
        if aggregated and "quantisation" in roles:
            rule_texts = _rules_of(path, roles["quantisation"], parquet, delim)
            for text in rule_texts:
                rules.setdefault(text, []).append(path)
        else:
            exact.append(path)
        key = (
            scan.parquet,
            scan.delimiter,
            scan.aggregated,
            scan.columns,
            scan.header,
            scan.types,
            scan.by,
            scan.root,
            tuple(rule_texts),
        )
        held = groups.get(key)
        scan = replace(scan, rules=tuple(parse_rule(t) for t in rule_texts))
        groups[key] = scan if held is None else replace(held, files=(*held.files, path))
    for given, seen in kinds.items():
        if len(seen) == 2:
            raise InputError(
                f"{given} holds rows ({seen[False]}) and aggregated counts ({seen[True]}): if "
                "those counts come from those rows, they would be counted twice; name the "
                "files to combine"
            )
    scans = list(groups.values())
    rule, why = _merged_rule(rules, exact, rule, len(found))
    return Plan(tuple(scans), out, cols, by, rule, why, weighted, overwrite=overwrite)


def _group_column(path: Path, header: list[str], by: str) -> str:
    """The ``--by`` column: one of the file's, else a hive partition key."""
    keys = hive_keys(path)
    if by.strip().lower() in [h.strip().lower() for h in header]:
        return header[find(path, header, by, "--by")]
    if by in keys:
        return by
    columns = ", ".join(repr(h) for h in header)
    parts = f"; partition keys: {', '.join(keys)}" if keys else ""
    raise fail(path, f"no column {by!r} for --by (columns: {columns}{parts})")


def _rules_of(path: Path, column: str, parquet: bool, delim: str) -> list[str]:
    """The distinct quantisation texts in a shard (one, written by ``aggregate``)."""
    if parquet:
        import pyarrow.compute as pc
        import pyarrow.parquet as pq

        try:
            col = pq.read_table(str(path), columns=[column]).column(0)
        except Exception as exc:
            raise fail(path, f"not a readable Parquet file ({exc})") from None
        values = [str(v) for v in pc.unique(col.cast("string")).to_pylist() if v is not None]
    else:
        with path.open(encoding="utf-8-sig", newline="") as fh:
            reader = csv.reader(fh, delimiter=delim)
            header = [h.strip() for h in next(reader)]
            i = header.index(column)
            values = sorted({row[i].strip() for row in reader if len(row) > i})
    if not values:
        return []
    if len(values) > 1:
        raise fail(
            path,
            f"column 'quantisation' holds more than one rule "
            f"({', '.join(values[:3])}); a shard is quantised one way",
        )
    parse_rule(values[0])
    return values


def _merged_rule(
    rules: dict[str, list[Path]], exact: list[Path], asked: Rule | None, n_files: int
) -> tuple[Rule | None, str]:
    """The rule the output is quantised by, when shards were quantised already.

    Rounded shards merge exactly only with shards rounded to the same digits (the
    rest are rounded alike); quantile bins are drawn per shard, so binned shards
    never line up with others.
    """
    if not rules:
        return asked, ""
    if len(rules) > 1:
        (a, pa), (b, pb) = list(rules.items())[:2]
        raise InputError(
            f"{pa[0]} is quantised as {a} but {pb[0]} as {b}: shards merge exactly only "
            "when quantised alike (aggregate the exact shards, then quantise once)"
        )
    ((text, paths),) = rules.items()
    have = parse_rule(text)
    if have.kind == "quantile_bins":
        if n_files > 1 or asked is not None:
            raise InputError(
                f"{paths[0]} is quantised in quantile bins ({text}), drawn from its own "
                "scores: it cannot be merged or quantised again exactly (aggregate the "
                "exact shards, then quantise once)"
            )
        return have, f"{paths[0]} is quantised as {text}"
    if asked is not None and asked != have:
        raise InputError(
            f"{paths[0]} is rounded ({text}); --{asked.kind.replace('_', '-')} "
            f"{asked.value} would not line up with it: use --round {have.value}, or "
            "aggregate the exact shards and quantise once"
        )
    why = f"{paths[0]} is rounded ({text})"
    if exact:
        why += f", so {exact[0]} and the other exact inputs are rounded alike"
    return have, why
