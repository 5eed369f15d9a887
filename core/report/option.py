"""An option of a run, as every front end knows it: its Python keyword, its
command-line flag, its plain-mode word, how a typed or a Python value is read, its
default and help, and which front ends take it. The options themselves are declared
in :mod:`threshold_lab.core.report.table`.
"""

from __future__ import annotations

import difflib
import functools
import importlib
import inspect
import math
import numbers
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Literal, ParamSpec, TypeVar

from threshold_lab.core.errors import InputError, UnknownOption, quoted
from threshold_lab.core.intervals.bootstrap import REPLICATES
from threshold_lab.core.metrics.metric import fraction_text
from threshold_lab.core.report.as_json import MIN_POINTS

P = ParamSpec("P")
R = TypeVar("R")


def lazy(path: str) -> Callable[..., Any]:
    """The function at ``path`` (``module:function``), imported when it is first called.

    The option table names every option's parser; a run imports only the modules of
    the options it is given, so a command starts without loading the figures, bands,
    groups or gates it is not asked for."""
    module, _, name = path.partition(":")

    @functools.cache
    def loaded() -> Callable[..., Any]:
        fn: Callable[..., Any] = getattr(importlib.import_module(module), name)
        return fn

    def call(*args: Any, **kwargs: Any) -> Any:
        return loaded()(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__module__ = module
    call.__doc__ = f"{name}() of {module}, imported when first called."
    return call


parse_pt = lazy("threshold_lab.core.decide.net_benefit:parse_pt")
parse_dpi = lazy("threshold_lab.core.figures:parse_dpi")
parse_size = lazy("threshold_lab.core.figures:parse_size")
parse_replicates = lazy("threshold_lab.core.intervals.bootstrap:parse_replicates")


def keywords_checked(shown: str) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """A front door of the Python API whose unknown keywords are one
    :class:`~threshold_lab.core.errors.UnknownOption` naming ``shown`` (the function
    as the user calls it) and the nearest options, rather than Python's ``TypeError``
    naming an inner method. The signature stays the function's own."""

    def wrap(fn: Callable[P, R]) -> Callable[P, R]:
        names = [
            p.name
            for p in inspect.signature(fn).parameters.values()
            if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)
        ]
        known = frozenset(names)

        @functools.wraps(fn)
        def call(*args: P.args, **kwargs: P.kwargs) -> R:
            unknown = [k for k in kwargs if k not in known]
            if unknown:
                raise UnknownOption(_unknown(shown, unknown[0], names))
            return fn(*args, **kwargs)

        return call

    return wrap


def _unknown(shown: str, word: str, names: list[str]) -> str:
    near = difflib.get_close_matches(word, names, n=3, cutoff=0.6)
    if near:  # only those about as near as the nearest
        best = difflib.SequenceMatcher(None, word, near[0]).ratio()
        near = [n for n in near if difflib.SequenceMatcher(None, word, n).ratio() >= best - 0.1]
    hint = f"; did you mean {' or '.join(f'{n}=' for n in near)}?" if near else ""
    return f"{shown}(): {word}= is not an option{hint} (help({shown}) lists them)"


COMMANDS = ("explore", "screenshot", "report", "plot", "sonify", "power", "exercise")
PYTHON = ("report()", "from_frame()", "from_estimator()", "explore()", "figure()", "power()")
FRONTS = (*COMMANDS, *PYTHON, "plain")

#: How a flag takes its value: one value; a repeatable one (each value parsed, the
#: results joined); a switch with no value; a value that may be left out (``const``);
#: on or off (``--x``/``--no-x``).
Kind = Literal["value", "list", "switch", "optional", "both"]


@dataclass(frozen=True)
class Option:
    """One option of a run, as every front end knows it.

    ``parse`` reads one typed value (the command line's, plain mode's, a Python
    caller's text); for a ``list`` option it returns a tuple, and the tuples of each
    value given are joined. ``python`` reads a Python value that is not text (a
    number, a list, a Fraction, a dict); None: text only, or a value taken as it is.
    ``default`` is the value when the option is not given, as a Python caller would
    write it (the signatures' defaults). ``flag`` and ``keyword`` are the name's own
    (``--partial-auc``, ``partial_auc``) where the front ends that take it have them,
    unless declared otherwise. ``field`` is the
    :class:`~threshold_lab.core.report.options.Options` field it sets (None: it
    sets none, as a column name or a figure's size). ``annotation`` is the type in
    the Python signatures."""

    name: str
    help: str
    parse: Callable[[str], Any] | None
    fronts: frozenset[str]
    default: object = None
    kind: Kind = "value"
    flag: str | None = None
    keyword: str | None = None
    plain: str | None = None
    metavar: str | None = None
    const: object = None
    python: Callable[[object], Any] | None = None
    field: str | None = None
    annotation: str = "str | None"
    #: Help's section on the command line.
    section: str = "options"
    #: Said after the help on the command line: the default where it is not the
    #: Python default (``--threshold``: the preset's own).
    cli_default: str | None = None
    #: The command line refuses it given twice (rather than keeping the last).
    once: bool = False
    #: The command line requires it (``plot --chart``).
    required: bool = False
    #: Its value names a file the run reads (``in``) or writes (``out``): no output
    #: may be one of the run's inputs (:mod:`threshold_lab.core.output`).
    file: Literal["in", "out"] | None = None
    #: Other Python keywords for it: scikit-learn's name where it has another
    #: (``pos_label`` for ``positive``), taken by the same Python front ends.
    aliases: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        # The flag and the keyword are the name's own unless declared otherwise.
        if self.flag is None and self.fronts & set(COMMANDS):
            object.__setattr__(self, "flag", "--" + self.name.replace("_", "-"))
        if self.keyword is None and self.fronts & set(PYTHON):
            object.__setattr__(self, "keyword", self.name)

    @property
    def spelled(self) -> str:
        """How a message names it: ``--seed (seed=)``, ``--max-gap`` or ``ids=``."""
        flag = self.flag if self.fronts & set(COMMANDS) else None
        key = f"{self.keyword}=" if self.keyword and self.fronts & set(PYTHON) else None
        if flag and key:
            return f"{flag} ({key})"
        return flag or key or self.name

    def read(self, value: object) -> Any:
        """A value given from Python (or typed) as this option's value (InputError
        naming the option when it cannot be one)."""
        if isinstance(value, str) and self.parse is not None:
            return _named(self, lambda: self.parse(value) if self.parse else value)
        if self.python is not None:
            return _named(self, lambda: self.python(value) if self.python else value)
        if self.parse is None:
            return value
        raise InputError(
            f"{self.name}: give a text such as {quoted(self.example())}, not {quoted(value)}"
        )

    def example(self) -> str:
        return self.metavar or "..."


def _named(option: Option, read: Callable[[], Any]) -> Any:
    """``read()``; what it refuses is said as an InputError naming the option (unless
    the message names it already)."""
    try:
        return read()
    except (TypeError, ValueError, ArithmeticError) as exc:
        said = str(exc)
        names = (option.name, option.name.replace("_", " "), str(option.flag))
        raise InputError(said if said.startswith(names) else f"{option.name}: {said}") from None


# --- reading Python values ------------------------------------------------------------


def number_text(value: object, what: str) -> str:
    """A real number as the text its parser reads (a Fraction as ``a/b``, a float by
    its shortest repr); a bool or anything else is refused."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real | Decimal):
        raise InputError(f"{what} {quoted(value)} is not a number")
    if isinstance(value, numbers.Integral) and abs(int(value)) > 10**400:
        raise InputError(f"{what} {quoted(value)} is beyond a double's range (about 1e308)")
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else fraction_text(value)
    if isinstance(value, numbers.Integral):
        return str(int(value))
    if isinstance(value, Decimal):
        return str(value)
    return repr(float(value))


def from_number(parse: Callable[[str], Any], what: str) -> Callable[[object], Any]:
    return lambda value: parse(number_text(value, what))


def read_threshold(value: object) -> float | None:
    if value is None:
        return None
    text = number_text(value, "threshold")
    t = float(Fraction(text)) if "/" in text else float(text)
    if not math.isfinite(t):
        raise InputError(
            f"threshold {quoted(value)} is not a finite number (or None for above-all)"
        )
    return t


def read_bootstrap(value: object) -> int | None:
    if value is True:
        return REPLICATES
    if value is False or value is None:
        return None
    replicates: int = parse_replicates(number_text(value, "bootstrap replicates"))
    return replicates


def read_switch(name: str) -> Callable[[object], bool]:
    def read(value: object) -> bool:
        if isinstance(value, bool):
            return value
        if isinstance(value, numbers.Integral) and int(value) in (0, 1):  # numpy's bools
            return bool(value)
        raise InputError(f"{name}: give True or False, not {quoted(value)}")

    return read


def parse_switch(text: str) -> bool:
    """A switch typed in plain mode: on/off, yes/no, true/false, 1/0."""
    word = text.strip().lower()
    if word in ("on", "yes", "true", "1"):
        return True
    if word in ("off", "no", "false", "0"):
        return False
    raise InputError(f"{quoted(text.strip())} is not on or off")


def read_texts(parse: Callable[[str], tuple[Any, ...]], example: str) -> Callable[[object], Any]:
    """A list option from Python: one text or a list (tuple) of texts."""

    def read(value: object) -> tuple[Any, ...]:
        if isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
            return tuple(item for text in value for item in parse(text))
        raise InputError(
            f"give a text such as {quoted(example)} or a list of them, not {quoted(value)}"
        )

    return read


def read_grid(value: object) -> tuple[Fraction, ...]:
    """``pt=``: a list of numbers (a text goes to :func:`parse_pt`)."""
    if isinstance(value, list | tuple) and value:
        texts = [v if isinstance(v, str) else number_text(v, "pt") for v in value]
        grid: tuple[Fraction, ...] = parse_pt(",".join(texts))
        return grid
    raise InputError(
        f"give a text such as '0.01:0.99:0.01' or a list of numbers, not {quoted(value)}"
    )


def read_numbers(parse: Callable[[str], tuple[Any, ...]], what: str) -> Callable[[object], Any]:
    """A list option of numbers from Python: a number, or a list of numbers or texts
    (each read as typed, joined by commas)."""

    def read(value: object) -> tuple[Any, ...]:
        items = list(value) if isinstance(value, list | tuple) else [value]
        if not items:
            raise InputError(f"{what}: an empty list; give one or more numbers")
        return parse(",".join(v if isinstance(v, str) else number_text(v, what) for v in items))

    return read


def one_item(parse: Callable[[str], Any]) -> Callable[[str], tuple[Any, ...]]:
    """A parser of one item as a list option's parser (its one-item tuple)."""
    return lambda text: (parse(text),)


def a_name(what: str, empty: str = "give a name") -> Callable[[str], str]:
    """A name typed as it is (a column, a class, a file): only not empty (``empty``
    says what to give instead)."""

    def read(text: str) -> str:
        if not text.strip():
            raise InputError(f"{what} is empty: {empty}")
        return text

    return read


def taken_as_is(value: object) -> object:
    """``positive=``: the label value that means positive, taken as it is."""
    return value


def whole_number(noun: str, lowest: int, highest: int) -> Callable[[str], int]:
    """A parser of a whole number from ``lowest`` to ``highest`` in ASCII digits,
    refused as not ``noun`` (never turned into a huge integer first).

    >>> whole_number("a step number", 1, 9)("0")
    Traceback (most recent call last):
    ...
    threshold_lab.core.errors.InputError: '0' is not a step number: give a whole number from 1 to 9
    """

    def read(text: str) -> int:
        t = text.strip()
        ok = t.isascii() and t.isdigit() and len(t) <= len(str(highest))
        if not ok or not lowest <= int(t) <= highest:
            raise InputError(
                f"{text!r} is not {noun}: give a whole number from {lowest} to {highest:,}"
            )
        return int(t)

    return read


#: ``--step N``: a lesson's step (the lesson says how many it has).
parse_step = whole_number("a step number", 1, 999_999)
#: ``--rows N``: an exercise's rows (the search says how many it takes).
parse_rows = whole_number("a number of rows", 0, 999_999)
#: ``--permutations B``: Venkatraman's test's permutations.
parse_permutations = whole_number("a number of permutations", 1, 1_000_000)


#: The tests of two models --test takes (DeLong's is always given).
TESTS = ("delong", "bootstrap", "venkatraman", "sensitivity", "specificity")
#: The ROC AUC's intervals: DeLong's always; the bootstrap's beside it.
AUC_INTERVALS = ("delong", "bootstrap")


def parse_tests(text: str) -> tuple[str, ...]:
    """``--test bootstrap,venkatraman``: pROC's methods of roc.test beside DeLong's."""
    words = tuple(w.strip().lower() for w in text.split(",") if w.strip())
    bad = [w for w in words if w not in TESTS]
    if bad or not words:
        raise InputError(f"{text!r} is not a test: give {', '.join(TESTS)} (comma-separated)")
    return tuple(w for w in words if w != "delong")


def parse_seconds(text: str) -> float:
    """``--playback-seconds S``: from 0.05 to 60 seconds a tie group."""
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{quoted(text)} is not a number of seconds") from None
    if not (math.isfinite(value) and 0.05 <= value <= 60):
        raise InputError(f"{quoted(text)} must be between 0.05 and 60 seconds")
    return value


def parse_terminal_size(text: str) -> tuple[int, int]:
    """``--size WxH`` of a screenshot: a terminal from 40x12 to 400x200 cells."""
    try:
        width, height = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise InputError(f"size {quoted(text)} is not WIDTHxHEIGHT, such as 120x40") from None
    if not (40 <= width <= 400 and 12 <= height <= 200):
        raise InputError(f"size {quoted(text)} is outside 40x12 .. 400x200")
    return width, height


def parse_points(text: str) -> int | None:
    """``--points N|all``: ``all`` (None), 0, or at least :data:`MIN_POINTS`."""
    if text.strip().lower() == "all":
        return None
    try:
        n = int(text)
    except ValueError:
        n = -1
    if n == 0 or n >= MIN_POINTS:
        return n
    raise InputError(
        f"{quoted(text)} is not a number of points: give all, 0, or a whole number of at least "
        f"{MIN_POINTS}"
    )


def read_figure_size(value: object) -> tuple[float, float]:
    if isinstance(value, list | tuple) and len(value) == 2:
        size: tuple[float, float] = parse_size(
            f"{number_text(value[0], 'size')}x{number_text(value[1], 'size')}"
        )
        return size
    raise InputError(f"size: give (width, height) in inches or '6x4', not {quoted(value)}")


def read_dpi(value: object) -> int:
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        dpi: int = parse_dpi(str(int(value)))
        return dpi
    raise InputError(f"dpi: give a whole number of dots per inch, as 150, not {quoted(value)}")


def one_of(what: str, choices: tuple[str, ...]) -> Callable[[str], str]:
    def read(text: str) -> str:
        word = text.strip()
        if word not in choices:
            raise InputError(f"--{what} {quoted(text)}: give one of {', '.join(choices)}")
        return word

    return read


def shown_value(option: Option, value: object) -> str:
    """An option's value in words, as ``options`` lists it and as it could be typed
    again (``fpr 0.01,0.1``, ``1/20``, ``on``, ``none``)."""
    if value is None:
        return "none" if option.default is None else shown_value(option, option.default)
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else fraction_text(value)
    if isinstance(value, float):
        return repr(value)
    if option.name == "readout" and isinstance(value, tuple):
        kinds = [("fpr", "tpr_at_fpr"), ("tpr", "fpr_at_tpr")]
        said = [f"{w} " + ",".join(f"{x:g}" for k, x in value if k == kind) for w, kind in kinds]
        return "; ".join(t for t in said if "," in t or t[-1].isdigit()) or "none"
    if option.name == "partial_auc" and isinstance(value, tuple):
        return "; ".join(f"{f}:{lo:g}-{hi:g}" for f, lo, hi in value) or "none"
    if option.name == "pt" and isinstance(value, tuple):
        texts = [fraction_text(p) for p in value]
        if len(texts) > 6:
            return f"{texts[0]} to {texts[-1]} ({len(texts)} values)"
        return ",".join(texts)
    text = getattr(value, "text", None)
    if callable(text):  # a goal
        return str(text())
    return str(getattr(value, "name", value))


class Table(Mapping[str, Option]):
    """The options by name, in help's order."""

    def __init__(self, entries: Iterator[Option]) -> None:
        self._by_name: dict[str, Option] = {}
        for o in entries:
            assert o.name not in self._by_name, f"option {o.name} declared twice"
            assert o.fronts <= set(FRONTS), f"option {o.name}: unknown front"
            self._by_name[o.name] = o

    def __getitem__(self, name: str) -> Option:
        return self._by_name[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._by_name)

    def __len__(self) -> int:
        return len(self._by_name)

    def taken_by(self, front: str) -> list[Option]:
        """The options ``front`` takes, in help's order."""
        return [o for o in self._by_name.values() if front in o.fronts]

    def by_keyword(self, front: str) -> dict[str, Option]:
        """Each Python keyword ``front`` takes (aliases included) and its option."""
        out = {o.keyword: o for o in self.taken_by(front) if o.keyword is not None}
        for o in self.taken_by(front):
            if o.keyword is not None:
                out.update(dict.fromkeys(o.aliases, o))
        return out

    def by_plain(self) -> dict[str, Option]:
        return {o.plain: o for o in self._by_name.values() if o.plain is not None}
