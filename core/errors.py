"""The one exception type for problems a user can cause."""

from __future__ import annotations


class InputError(ValueError):
    """Bad user input: a file, a column, a value, a threshold or a command.

    The message is complete and meant to be shown as it is, with no traceback.
    It names what is wrong and where (file, line, column or row id).
    """
