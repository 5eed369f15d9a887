"""ASCII-only output for the Linux console, old terminals and fonts without
braille or box drawing.

``to_ascii`` rewrites the explorer's own text (formulas, arrows, signs)
readably, several characters where needed. ``AsciiFilter`` is the safety
net on every rendered line: it replaces anything still outside ASCII
(borders, scrollbars, block glyphs) cell for cell, so layout is unchanged.
"""

from __future__ import annotations

import locale
import os
import unicodedata

from rich.cells import cell_len
from rich.segment import Segment
from textual.color import Color
from textual.filter import LineFilter

# Readable rewrites for text the explorer writes itself (lengths may change).
_WORDS = {
    "≈": "~",
    "·": "*",
    "−": "-",
    "√": "sqrt",
    "²": "^2",
    "β": "beta",
    "Σ": "sum ",
    "ₖ₋₁": "(k-1)",
    "ₖ": "k",
    "′": "'",
    "←": "<-",
    "→": "->",
    "…": "...",
    "⇧": "shift+",
}

# One cell for one cell: box drawing, blocks, arrows and marks in rendered lines.
_CELLS = {
    **dict.fromkeys("─━═╌╍┄┅┈┉▔▁╴╶╸╺", "-"),
    **dict.fromkeys("│┃║╎╏┆┇┊┋▏▕▎▍▌▋▊▉╵╷╹╻", "|"),
    **dict.fromkeys("┌┐└┘├┤┬┴┼╭╮╯╰┏┓┗┛┣┫┳┻╋╔╗╚╝╠╣╦╩╬", "+"),
    **dict.fromkeys("█▇▆▅▄▃▂▀▐░▒▓■▪", "#"),
    "←": "<",
    "→": ">",
    "↑": "^",
    "↓": "v",
    "≈": "~",
    "·": ".",
    "•": "*",
    "−": "-",
    "…": ".",
    "▶": ">",
    "◀": "<",
    "🔎": "?",
}


def to_ascii(text: str) -> str:
    """Rewrite ``text`` in ASCII, readably.

    >>> to_ascii("F2 = (1+β²)TP = 2/3 ≈ 0.6667, MCC = 1/√4")
    'F2 = (1+beta^2)TP = 2/3 ~ 0.6667, MCC = 1/sqrt4'

    A ``·`` between spaces separates items, and is ``|`` (a ``.`` reads as a full
    stop, a ``*`` as a product); one between numbers multiplies:

    >>> to_ascii("Threshold 0.5 · positive if score >= 0.5 · F1 = 2·2/6")
    'Threshold 0.5 | positive if score >= 0.5 | F1 = 2*2/6'
    """
    text = text.replace(" · ", " | ")
    for old, new in _WORDS.items():
        text = text.replace(old, new)
    return "".join(_cell(ch) if ord(ch) > 127 else ch for ch in text)


def _cell(ch: str) -> str:
    """One non-ASCII character as ASCII of the same width."""
    if ch in _CELLS:
        return _CELLS[ch]
    if "\u2800" <= ch <= "\u28ff":  # braille patterns draw chart lines
        return "*" if ch != "\u2800" else " "
    base = unicodedata.normalize("NFKD", ch).encode("ascii", "ignore").decode()
    width = cell_len(ch)
    if base and len(base) == width:
        return base
    return "?" * max(width, 1)


class AsciiFilter(LineFilter):
    """Replace every non-ASCII cell of every rendered line, keeping widths."""

    def apply(self, segments: list[Segment], background: Color) -> list[Segment]:
        out = []
        for text, style, control in segments:
            if control or text.isascii():
                out.append(Segment(text, style, control))
            else:
                fixed = "".join(_cell(ch) if ord(ch) > 127 else ch for ch in _separators(text))
                out.append(Segment(_ellipsis(text, fixed), style, control))
        return out


def _separators(text: str) -> str:
    """Each ``·`` with a space (or the segment's end) on both sides as ``|``: it
    separates items, and ``.`` would read as a full stop.

    >>> _separators(" · tie group 2 · "), _separators("2·2"), _separators("·")
    (' | tie group 2 | ', '2·2', '|')
    """
    if "·" not in text:
        return text
    cells = list(text)
    for i, ch in enumerate(cells):
        if ch == "·":
            before = text[i - 1] if i > 0 else " "
            after = text[i + 1] if i + 1 < len(text) else " "
            if before == " " and after == " ":
                cells[i] = "|"
    return "".join(cells)


def _ellipsis(original: str, fixed: str) -> str:
    """A cut-off text's "…" as "...", same width: the word it cut goes too, so
    "AUC 7/12 ≈ 0.58…" reads "AUC 7/12 ~ ...", never "0.58." as if that were
    the value.

    >>> _ellipsis("AUC ≈ 0.58…", "AUC ~ 0.58.")
    'AUC ~ ...  '
    >>> _ellipsis("a b…", "a b.")
    'a...'
    >>> _ellipsis("ab", "ab")
    'ab'
    """
    if "…" not in original or cell_len(original) != len(original):
        return fixed  # wide characters: cells and characters differ, leave it
    cells = list(fixed)
    for i, ch in enumerate(original):
        if ch == "…":
            start = original.rfind(" ", 0, i) + 1  # the cut word's first cell
            if i + 1 - start < 3:
                start = max(0, i - 2)
            cells[start : i + 1] = list("...".ljust(i + 1 - start))
    return "".join(cells)


def locale_wants_ascii(environ: dict[str, str] | None = None) -> bool:
    """True when the locale is not UTF-8, so box drawing and braille may not show.

    >>> locale_wants_ascii({"LC_ALL": "C"}), locale_wants_ascii({"LANG": "en_GB.UTF-8"})
    (True, False)
    """
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_CTYPE", "LANG"):
        value = env.get(name)
        if value:
            return "utf-8" not in value.lower() and "utf8" not in value.lower()
    if environ is not None:
        return True
    return "utf" not in locale.getpreferredencoding(False).lower()
