"""The words of plain mode's lines: a line split into words, a count typed, a
number of rows said, a metric's value in short."""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable

from threshold_lab.core.errors import InputError
from threshold_lab.core.metrics.metric import Metric

#: What runs one plain command: its arguments in, True to quit.
Handler = Callable[[list[str]], bool | None]


#: The largest count ``rows`` or ``step`` takes: a typed number is never turned
#: into a huge integer (Python refuses more than 4300 digits with a ValueError).
MAX_COUNT = 10**9


_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)


UNSAVED_WARNING = "threshold-lab: warning: input ended with unsaved edits; they were not saved"


#: Rows listed at most by ``rows`` and ``boundary`` unless a count is given.
ROWS_SHOWN = 100


def parse_count(word: str, what: str, *, signed: bool) -> int | None:
    """``word`` as a whole number in ASCII digits, or None when it is not one.

    A number outside ``-MAX_COUNT..MAX_COUNT`` is refused (InputError) before it
    is converted, so a line of thousands of digits costs nothing.

    >>> parse_count("12", "rows", signed=False), parse_count("\u00b2", "rows", signed=False)
    (12, None)
    >>> parse_count("-3", "step", signed=True), parse_count("-3", "rows", signed=False)
    (-3, None)
    """
    if _WHOLE.fullmatch(word) is None or (not signed and word[0] in "+-"):
        return None
    digits = word.lstrip("+-").lstrip("0")
    if len(digits) > len(str(MAX_COUNT)) or int(digits or "0") > MAX_COUNT:
        shown = word if len(word) <= 20 else f"{word[:12]}... ({len(digits)} digits)"
        limit = f"-{MAX_COUNT} to {MAX_COUNT}" if signed else f"1 to {MAX_COUNT}"
        raise InputError(f"{what} {shown} is too large: use a whole number from {limit}")
    return int(word)


PLAIN_ORDERS = {"file": "file", "high": "score-desc", "low": "score-asc"}


def _noun(n: int) -> str:
    return "row" if n == 1 else "rows"


def _rows(n: int, kind: str = "") -> str:
    """``1 row``, ``3 rows``, ``2 more rows``."""
    return f"{n} {kind + ' ' if kind else ''}{_noun(n)}"


def _words(line: str) -> list[str]:
    """The words of a command line: quotes group words as in a shell, but a
    backslash is itself, so ids shown with escapes (``b\\nnew``) and Windows
    paths are typed as they are written."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=False)
    lexer.whitespace_split = True
    lexer.escape = ""
    lexer.commenters = ""
    return list(lexer)


def _v(m: Metric) -> str:
    return m.short() if m.value is not None else "undefined"
