"""Plain mode's ``options`` and ``option WORD VALUE``: every option the option table
gives plain mode, listed with its value and set by its parser, as the command line's
flag of the same name would set it."""

from __future__ import annotations

from threshold_lab.core.errors import InputError
from threshold_lab.core.report.option import shown_value
from threshold_lab.core.report.table import OPTIONS
from threshold_lab.tui.plain.speaker import Speaker


class Settings(Speaker):
    """The commands that list and set the options."""

    def cmd_options(self, args: list[str]) -> None:
        self._no_args(args)
        now = self.session.options
        self.say("Options (option WORD VALUE sets one; option WORD default puts it back):")
        for word, option in OPTIONS.by_plain().items():
            self.say(f"  {word}: {self._value(option.name, now)}. {_help(option.help)}")

    def cmd_option(self, args: list[str]) -> None:
        if not args:
            raise InputError("say option WORD VALUE, or options to list them")
        word = args[0].lower()
        option = OPTIONS.by_plain().get(word)
        if option is None:
            raise InputError(
                f"option: no option {args[0]!r}; the options are: {', '.join(OPTIONS.by_plain())}"
            )
        if len(args) == 1:
            value = self._value(option.name, self.session.options)
            self.say(f"Option {word} is {value}: {_help(option.help)}")
            return
        self._said(self.session.set_option(word, " ".join(args[1:])))

    def _value(self, name: str, now: object) -> str:
        option = OPTIONS[name]
        field = option.field or name
        return shown_value(option, getattr(now, field, None))


def _help(text: str) -> str:
    return text[0].upper() + text[1:] + "."
