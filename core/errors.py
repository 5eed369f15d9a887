"""The one exception type for problems a user can cause."""

from __future__ import annotations

import re


def printable(text: str) -> str:
    """``text`` with every character that is not printable (newlines, tabs, escape
    sequences, bidi overrides, lone surrogates) spelled as Python spells it in a
    string, so what a file or a user typed cannot move the cursor, colour the
    terminal or hide text.

    >>> printable("a"), printable("b\\nnew"), printable("\\x1b[31mred"), printable("x\\u202ey")
    ('a', 'b\\\\nnew', '\\\\x1b[31mred', 'x\\\\u202ey')
    """
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)


#: The most of a value a message quotes: a 5,000-digit number stays one short line.
QUOTED = 60


def quoted(value: object) -> str:
    """``value`` as a message quotes it: its repr, cut to :data:`QUOTED` characters.

    >>> quoted("ok"), quoted("9" * 100)
    ("'ok'", "'99999999999999999999999999999999999999999999999999999999... (102 characters)")
    """
    try:
        text = repr(value)
    except ValueError:  # an integer past Python's own limit on digits
        return f"an integer of {int(value).bit_length()} bits"  # type: ignore[call-overload]
    if len(text) <= QUOTED:
        return text
    return f"{text[: QUOTED - 3]}... ({len(text)} characters)"


class InputError(ValueError):
    """Bad user input: a file, a column, a value, a threshold or a command.

    The message is complete and meant to be shown as it is, with no traceback.
    It names what is wrong and where (file, line, column or row id). It is always
    one line: runs of whitespace (a library's multi-line message) become one
    space and other unprintable characters are escaped.

    >>> str(InputError("bad file (Invalid data\\n)\\x1b"))
    'bad file (Invalid data )\\\\x1b'
    """

    def __init__(self, message: str) -> None:
        if not message.isprintable():
            message = printable(re.sub(r"\s*[\r\n]+\s*", " ", message).strip())
        super().__init__(message)


class MissingDependency(InputError, ImportError):
    """An optional dependency is not installed: an :class:`ImportError`, as Python's
    tools expect, whose message is the ``pip install`` line that adds it (and an
    :class:`InputError`: the command line says it in one line, exit status 2)."""


class UnknownOption(InputError, TypeError):
    """A keyword no function of the Python API takes: an :class:`InputError` with the
    command line's kind of message, and a ``TypeError`` as Python's own is."""
