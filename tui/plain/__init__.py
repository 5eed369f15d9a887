"""Plain line mode: one command per line in, plain sentences out.

For screen readers, braille displays and pipes: no escape codes, no redraws, no
colour. It drives the same core Session as the explorer, so every change is
described by the same status sentence. A bad command gets one line saying what was
wrong and what would work; nothing changes.

Its parts: :mod:`~.dispatch` (each line's word to its handler), the handlers by
topic (:mod:`~.rows`, :mod:`~.describing`, :mod:`~.deciding`, :mod:`~.models`,
sharing :mod:`~.speaker`), :mod:`~.help`, :mod:`~.reading` (the input loop) and
:mod:`~.hangup`.
"""

from __future__ import annotations

from threshold_lab.tui.plain.dispatch import PlainSession
from threshold_lab.tui.plain.help import help_on, help_text, topic_list, topics
from threshold_lab.tui.plain.reading import main_plain, run_plain
from threshold_lab.tui.plain.words import UNSAVED_WARNING, parse_count

__all__ = [
    "UNSAVED_WARNING",
    "PlainSession",
    "help_on",
    "help_text",
    "main_plain",
    "parse_count",
    "run_plain",
    "topic_list",
    "topics",
]
