"""What the commands share: the parser, the one error path, and the options, each
generated from its entry in core's option table
(:data:`threshold_lab.core.report.table.OPTIONS`).

A command declares its positional arguments and calls :func:`add_options`; what
the user gave comes back from :func:`given` as the option values core's
:class:`~threshold_lab.core.report.request.Request` takes. Nothing here reads,
checks or combines an option itself.

Only core is imported here: the report and plain mode run without Textual.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import sys
import textwrap
from collections.abc import Sequence
from typing import Any, NoReturn

from threshold_lab.core.errors import InputError
from threshold_lab.core.report.option import Option
from threshold_lab.core.report.table import OPTIONS

PROG = "threshold-lab"

#: The sections of a command's help, in the order they are listed.
SECTIONS = {
    "options": None,
    "deciding": "deciding (a goal, a deployment prevalence, the decision curve)",
    "how sure": "how sure (intervals and the bootstrap)",
    "operating points": "operating points (readouts at fixed rates, partial AUCs)",
    "models": "models (comparing several)",
    "calibration": "calibration",
    "groups": "groups (per-group thresholds)",
    "gate": "gate (against a baseline, in CI)",
    "output": "output",
    "figure": "the figure",
    "sound": "the sound",
    "power": "power and sample size (one ROC curve or two paired ones, as pROC's power.roc.test)",
    "exercise": "the exercise (targets met exactly, by search)",
    "explorer": "the explorer",
    "source": "reading the rows",
}


def _columns() -> int:
    """The terminal's width as argparse would find it (COLUMNS, the terminal, else
    80), without importing shutil, which every command paid for at start-up."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    out = sys.__stdout__
    try:
        return (os.get_terminal_size(out.fileno()).columns if out else 0) or 80
    except (ValueError, OSError):
        return 80


class _Formatter(argparse.HelpFormatter):
    """Argparse's formatter, except that descriptions keep their line breaks: each
    line is wrapped on its own, and an indented table row hangs under its text."""

    def __init__(
        self,
        prog: str,
        indent_increment: int = 2,
        max_help_position: int = 24,
        width: int | None = None,
    ) -> None:
        super().__init__(prog, indent_increment, max_help_position, width or _columns() - 2)

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


def read(option: Option, text: str) -> Any:
    """One typed value read by the option's parser; its message (InputError) starts
    with the flag."""
    assert option.parse is not None
    try:
        return option.parse(text)
    except ValueError as exc:
        said = str(exc)
        words = option.name.replace("_", " ")  # "band goal: ..." names it already
        if said.startswith(f"{words}:"):
            said = said[len(words) + 1 :].lstrip()
        if not said.startswith(str(option.flag)):
            said = f"{option.flag}: {said}"
        if option.kind == "optional" and not text.strip().lstrip("+-").isdigit():
            # Most often SOURCE taken for the value: say where the flag goes.
            said += (
                f" (give {option.flag} after SOURCE, or with a number: "
                f"{option.flag} {option.const})"
            )
        raise InputError(said) from None


def _help(option: Option) -> str:
    default = option.cli_default
    if default is None and option.default not in (None, False) and "default" not in option.help:
        value = option.default
        default = "x".join(f"{v:g}" for v in value) if isinstance(value, tuple) else str(value)
    return option.help if default is None else f"{option.help} (default: {default})"


def add_options(parser: argparse.ArgumentParser, command: str) -> None:
    """Every option ``command`` takes, as the table declares it, in help's sections."""
    groups: dict[str, argparse._ArgumentGroup] = {}
    for option in OPTIONS.taken_by(command):
        assert option.flag is not None, option.name
        section = SECTIONS[option.section]
        target: Any = parser
        if section is not None:
            if option.section not in groups:
                groups[option.section] = parser.add_argument_group(section)
            target = groups[option.section]
        # Left out of the namespace when not given: "all" (--points all) is None.
        kwargs: dict[str, Any] = {
            "dest": option.name,
            "help": _help(option),
            "default": argparse.SUPPRESS,
        }
        if option.kind == "switch":
            kwargs.update(action="store_const", const=True)
        elif option.kind == "both":
            kwargs.update(action=argparse.BooleanOptionalAction)
        else:
            kwargs.update(metavar=option.metavar or "X")
            if option.kind == "list":
                kwargs.update(action="append")
            elif option.kind == "optional":
                kwargs.update(nargs="?", const=option.const)
            elif option.once:
                kwargs.update(action=Once)
            if option.required:
                kwargs.update(required=True)
        target.add_argument(option.flag, **kwargs)


def given(args: argparse.Namespace, command: str) -> dict[str, Any]:
    """The options the user gave ``command``, each typed value read by its parser (a
    repeated option's values joined), by name (InputError naming a bad value)."""
    out: dict[str, Any] = {}
    for option in OPTIONS.taken_by(command):
        if not hasattr(args, option.name):
            continue
        value = getattr(args, option.name)
        if option.kind == "list":
            value = tuple(itertools.chain.from_iterable(read(option, v) for v in value))
        elif isinstance(value, str):
            value = read(option, value)
        out[option.name] = value
    return out
