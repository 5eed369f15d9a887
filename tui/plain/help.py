"""Plain mode's help, made from the commands' declarations: the topics, each
command's usage and what it does, and the small languages some take."""

from __future__ import annotations

import textwrap
from collections.abc import Iterable

from threshold_lab.core.decide.goal import GOAL_METRICS, GRAMMAR
from threshold_lab.core.errors import InputError
from threshold_lab.core.metrics.metric import lower_first
from threshold_lab.tui import commands as cmd
from threshold_lab.tui.commands import GROUPS, Command, plain_commands, plain_words


def help_text(
    width: int = 96,
    commands: Iterable[type[Command]] | None = None,
    heading: str = "Commands (one per line):",
) -> str:
    """The commands plain mode takes (all of them by default), from the commands'
    declarations: each one's usage, then what it does, wrapped under itself."""
    lines = [heading] if heading else []
    chosen = plain_commands() if commands is None else list(commands)
    for c in sorted(chosen, key=lambda c: GROUPS.index(c.GROUP)):
        usage, said = c.PLAIN or "", textwrap.wrap(lower_first(c.plain_help()), width - 38)
        if len(usage) <= 35:
            lines.append(f"  {usage:<36}{said[0]}")
            said = said[1:]
        else:
            lines.append(f"  {usage}")
        lines += [" " * 38 + more for more in said]
    return "\n".join(lines)


#: Commands whose words another command's line already says (``quit!`` is in quit's),
#: so that help lists each command once; ``help quit!`` says that line.
SAID_WITH: dict[type[Command], type[Command]] = {cmd.QuitAnyway: cmd.Quit}


def topics() -> dict[str, list[type[Command]]]:
    """``help TOPIC``'s topics: each group of commands in help's order, by its first
    word in lower case (``how-sure`` for How sure); a command another's line says
    (:data:`SAID_WITH`) is left out."""
    found: dict[str, list[type[Command]]] = {}
    for c in sorted(plain_commands(), key=lambda c: GROUPS.index(c.GROUP)):
        if c not in SAID_WITH:
            found.setdefault(_topic_word(c.GROUP), []).append(c)
    return found


def _topic_word(group: str) -> str:
    return "how-sure" if group == "How sure" else group.split()[0].lower()


def topic_list() -> str:
    """What ``help`` alone says: the topics and the commands, each a word to ask for,
    in the topics' order."""
    words = [
        usage.split()[0]
        for group in topics().values()
        for c in group
        for usage in (c.PLAIN or "").split(" | ")
        if not usage.endswith("!")
    ]
    words = list(dict.fromkeys(words))
    return "\n".join(
        [
            "Help: help TOPIC for a group of commands, help COMMAND for one, help all for every "
            "command.",
            *textwrap.wrap(f"Topics: {', '.join(topics())}.", 96),
            *textwrap.wrap(f"Commands: {', '.join(words)}.", 96),
        ]
    )


def help_on(word: str) -> str:
    """``help WORD``: a topic's commands, or one command with what it takes (a goal's
    grammar and metrics, a transform's names); InputError for a word that is neither."""
    key = word.lower()
    if key == "all":
        return "\n".join(
            [
                "Every command, topic by topic (help TOPIC for one topic):",
                *(
                    help_text(commands=group, heading=f"{group[0].GROUP}:")
                    for group in topics().values()
                ),
            ]
        )
    if key in topics():
        group = topics()[key][0].GROUP
        return help_text(commands=topics()[key], heading=f"{group}:")
    command = plain_words().get(key.rstrip("!"))
    if command is None:
        raise InputError(
            f"help: no topic or command {word!r}; topics: {', '.join(topics())} "
            "(help alone lists the commands too)"
        )
    more = [line for text in DETAILS.get(command, []) for line in textwrap.wrap(text, 96)]
    return "\n".join([help_text(commands=[command], heading=""), *more])


#: What ``help COMMAND`` adds for the commands that take a small language.
DETAILS: dict[type[Command], list[str]] = {
    cmd.Goal: [
        f"A goal: {GRAMMAR}.",
        "Metrics: " + ", ".join(GOAL_METRICS) + ", and cost (min cost).",
        "Numbers are decimals (0.9, 1e-3) or one fraction (9/10), 0 or from 1e-300 to 1e300 "
        "in size; a cost is a number or @column (each row's own value in that column).",
        "Examples: goal max precision where recall >= 0.9; goal min cost fp=1 fn=5; "
        "goal max f1; goal off.",
    ],
    cmd.Prevalence: [
        "The prevalence is a decimal or a fraction from 1e-300 to 1 − 1e-300 (prevalence "
        "1/20); prevalence off drops it.",
    ],
    cmd.Intervals: [
        "A confidence is from 0.5 to 0.9999999999999998 (intervals 0.9); on and off "
        "show or hide the intervals.",
    ],
}
