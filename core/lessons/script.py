"""A recorded demo: the keys a presenter pressed, replayed keystroke for keystroke.

A script is text, a line at a time: key names (Textual's: ``n``, ``right``, ``enter``,
``question_mark``, ``ctrl+z``), several to a line separated by spaces or commas;
``type TEXT`` types the rest of its line a character at a time (an answer, a
threshold); ``wait S`` waits S seconds (0 to 600); ``#`` starts a comment (on a line
that is not ``type``). ``--record FILE`` writes one: each
key on its line, a pause of more than a moment as a ``wait``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from threshold_lab.core.errors import InputError

#: The longest wait a script may ask for.
LONGEST_WAIT = 600.0
#: A pause while recording shorter than this is the script's own pace, not a wait.
PAUSE = 0.5


@dataclass(frozen=True)
class Press:
    key: str
    line: int


@dataclass(frozen=True)
class Wait:
    seconds: float
    line: int


@dataclass(frozen=True)
class Type:
    text: str
    line: int


Item = Press | Wait | Type


def parse_script(text: str, source: str = "script") -> tuple[Item, ...]:
    """The script's items in order, each with its line (InputError naming the line).

    >>> [type(i).__name__ for i in parse_script("n n  # two steps\\nwait 1.5\\ntype 2/3\\nenter")]
    ['Press', 'Press', 'Wait', 'Type', 'Press']
    """
    items: list[Item] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        stripped = raw.strip()
        if stripped == "type":
            raise InputError(f"{source}, line {number}: type what? (type 2/3)")
        if stripped.startswith("type "):  # typed as it is: # and , are characters here
            items.append(Type(stripped[len("type ") :].strip(), number))
            continue
        line = stripped.split("#", 1)[0].strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        if word == "wait":
            try:
                seconds = float(rest)
            except ValueError:
                raise InputError(f"{source}, line {number}: wait S, S in seconds") from None
            if not math.isfinite(seconds) or not 0 <= seconds <= LONGEST_WAIT:
                raise InputError(
                    f"{source}, line {number}: wait {rest}: from 0 to {LONGEST_WAIT:g} seconds"
                )
            items.append(Wait(seconds, number))
            continue
        items.extend(Press(key, number) for key in line.replace(",", " ").split())
    if not items:
        raise InputError(f"{source}: no keys in it (a key name a line, type TEXT, wait S)")
    return tuple(items)


#: The keys that end the explorer, and those that confirm it.
QUITS = ("q", "ctrl+q")
CONFIRMS = ("y", "enter")


def script_text(pressed: Sequence[tuple[float, str, str | None]]) -> str:
    """A script of keys pressed at the times given (seconds), each with the character
    it typed into a field (None: a key): a key a line, what was typed into a field as
    one ``type`` line, a pause longer than :data:`PAUSE` as a ``wait``. The keys that
    quit at the end are left out, so a replay ends on the screen the demo ended on.

    >>> keys = [(0.0, "n", None), (0.2, "a", None), (0.4, "2", "2"), (0.5, "slash", "/")]
    >>> print(script_text([*keys, (0.6, "3", "3"), (3.7, "enter", None), (4.0, "q", None)]), end="")
    # threshold-lab --record: a key a line, type TEXT, wait S
    n
    a
    type 2/3
    wait 3.1
    enter
    """
    keys = list(pressed)
    quits = [i for i, (_, key, char) in enumerate(keys) if key in QUITS and char is None]
    if quits and all(key in CONFIRMS for _, key, _ in keys[quits[-1] + 1 :]):
        keys = keys[: quits[-1]]
    lines = ["# threshold-lab --record: a key a line, type TEXT, wait S"]
    last = keys[0][0] if keys else 0.0
    typing = ""
    for when, key, char in keys:
        gap = when - last
        if typing and (char is None or gap > PAUSE):
            lines.append(f"type {typing}")
            typing = ""
        if gap > PAUSE:
            lines.append(f"wait {gap:.1f}")
        if char is not None and char != " ":
            typing += char
        else:
            lines.append(key)
        last = when
    if typing:
        lines.append(f"type {typing}")
    return "\n".join(lines) + "\n"
