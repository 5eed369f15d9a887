"""Goals: which operating point to choose, in one small grammar.

    max METRIC | min METRIC [where METRIC >= x [and METRIC <= y ...]]
    min cost fp=A fn=B [tp=C] [tn=D]        (A ... a number, or @column)
    max net_benefit at pt X                  (0 < X < 1: a decision curve's best point)

Words are case-insensitive; numbers are decimals or fractions ``a/b``, read
exactly (``0.1`` is one tenth, not its binary neighbour). A malformed goal is
refused with one line naming the word that is wrong and what is allowed.
"""

from __future__ import annotations

import decimal
import re
from dataclasses import dataclass
from fractions import Fraction

from threshold_lab.core.doubles import DividesByZero, OutOfRange, read_exact
from threshold_lab.core.errors import InputError

#: The metrics a goal can name (threshold metrics core computes, plus two of its own).
GOAL_METRICS = (
    "precision",
    "recall",
    "f1",
    "fbeta",
    "accuracy",
    "balanced_accuracy",
    "specificity",
    "npv",
    "fpr",
    "fnr",
    "mcc",
    "queue_rate",
    "lr_plus",
    "lr_minus",
    "youden",
    "predicted_positives",
    "cohen_kappa",
    "informedness",
    "markedness",
    "diagnostic_odds_ratio",
    "fowlkes_mallows",
    "jaccard",
    "topleft",
)

#: The goal metrics that take pROC's ``best.weights`` (``cost=R prevalence=P``).
WEIGHTED = ("youden", "topleft")

#: Other spellings people use for the same metrics.
ALIASES = {
    "tpr": "recall",
    "sensitivity": "recall",
    "ppv": "precision",
    "tnr": "specificity",
    "lr+": "lr_plus",
    "lr-": "lr_minus",
    "lr−": "lr_minus",
    "j": "youden",
    "balanced-accuracy": "balanced_accuracy",
    "queue-rate": "queue_rate",
    "predicted-positives": "predicted_positives",
    "f-beta": "fbeta",
    "kappa": "cohen_kappa",
    "dor": "diagnostic_odds_ratio",
    "fmi": "fowlkes_mallows",
    "fowlkes-mallows": "fowlkes_mallows",
    "iou": "jaccard",
    "bm": "informedness",
    "mk": "markedness",
    "closest.topleft": "topleft",
    "closest_topleft": "topleft",
    "closest-topleft": "topleft",
}

#: The four cells a cost can be put on.
CELLS = ("fp", "fn", "tp", "tn")

#: How the grammar reads, for the messages that refuse a goal.
GRAMMAR = (
    "max|min METRIC [where METRIC >= x [and METRIC <= y ...]], min cost fp=A fn=B [tp=C] [tn=D], "
    "or max net_benefit at pt X"
)

#: How the net benefit objective is written (and its other spellings).
NET_BENEFIT = "net_benefit"
NET_BENEFIT_WORDS = ("net_benefit", "net-benefit", "netbenefit", "nb")

#: A run of comparison characters is one word (so ">>=" is refused as itself).
_TOKEN = re.compile(r"[<>=!]+|[^\s<>=!]+")


@dataclass(frozen=True)
class Constraint:
    """``metric >= bound`` (``at_least``) or ``metric <= bound``."""

    metric: str
    at_least: bool
    bound: Fraction

    def text(self) -> str:
        return f"{self.metric} {'>=' if self.at_least else '<='} {number_text(self.bound)}"


@dataclass(frozen=True)
class Cost:
    """What one example of a cell costs: a constant, or a numeric column's value."""

    value: Fraction | None = None
    column: str | None = None

    def text(self) -> str:
        return (
            f"@{self.column}" if self.column is not None else number_text(self.value or Fraction(0))
        )


@dataclass(frozen=True)
class Goal:
    """A parsed goal: maximise (``maximise``) or minimise ``metric`` (``cost`` for a cost
    goal, whose ``costs`` map cells to what each example of them costs)."""

    metric: str
    maximise: bool
    constraints: tuple[Constraint, ...] = ()
    costs: tuple[tuple[str, Cost], ...] = ()
    #: The threshold probability of a net benefit goal (``max net_benefit at pt X``).
    pt: Fraction | None = None
    #: pROC's ``best.weights`` of a youden or topleft goal: the relative cost of a false
    #: negative to a false positive, and the prevalence (None: unweighted).
    weights: tuple[Fraction, Fraction] | None = None

    @property
    def r(self) -> Fraction:
        """pROC's weight on specificity: (1 − prevalence)/(cost · prevalence), 1 when
        unweighted."""
        if self.weights is None:
            return Fraction(1)
        cost, prevalence = self.weights
        return (1 - prevalence) / (cost * prevalence)

    @property
    def is_cost(self) -> bool:
        return self.metric == "cost"

    @property
    def is_net_benefit(self) -> bool:
        return self.metric == NET_BENEFIT

    def columns(self) -> list[str]:
        """The numeric columns the goal's costs name (the loaders keep these)."""
        return [c.column for _, c in self.costs if c.column is not None]

    def text(self) -> str:
        """The goal written back in its canonical form."""
        if self.is_cost:
            return "min cost " + " ".join(f"{cell}={c.text()}" for cell, c in self.costs)
        if self.is_net_benefit:
            return f"max {NET_BENEFIT} at pt {number_text(self.pt or Fraction(0))}"
        head = f"{'max' if self.maximise else 'min'} {self.metric}"
        if self.weights is not None:
            cost, prevalence = self.weights
            head += f" cost={number_text(cost)} prevalence={number_text(prevalence)}"
        if self.constraints:
            head += " where " + " and ".join(c.text() for c in self.constraints)
        return head


def number_text(x: Fraction) -> str:
    """A bound as the user would write it: ``0.9``, ``1/3``, ``500``, ``1e-300``.

    >>> [number_text(Fraction(v)) for v in ("0.9", "1/3", "500", "1e-300", "2.5e40")]
    ['0.9', '1/3', '500', '1e-300', '2.5e40']
    """
    d = x.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d != 1:
        return f"{x.numerator}/{x.denominator}"
    # A terminating decimal, written out exactly: plainly where that is short, with
    # an exponent where it is very large or very small.
    with decimal.localcontext(decimal.Context(prec=1000)):
        exact = (decimal.Decimal(x.numerator) / decimal.Decimal(x.denominator)).normalize()
    if -7 < exact.adjusted() < 18:
        return format(exact, "f")
    return format(exact, "e").replace("e+", "e")


#: The magnitudes a goal's number may have: a double holds it as a normal number (or
#: it is 0), so every comparison and sum made in doubles stays finite and keeps its
#: digits.
LARGEST = Fraction(10) ** 300
SMALLEST = Fraction(1, 10**300)


def parse_number(word: str, what: str, where: str = "goal") -> Fraction:
    """A decimal (``0.9``, ``-2``, ``1e-3``) or one fraction of two (``9/10``),
    exactly, as every typed number is read (:func:`~threshold_lab.core.doubles.read_exact`);
    0 or from 1e-300 to 1e300 in size.

    >>> parse_number("9/10", "recall's bound"), parse_number("1e-3", "x")
    (Fraction(9, 10), Fraction(1, 1000))
    >>> parse_number("9/10/2", "recall's bound")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    threshold_lab.core.errors.InputError: goal: "9/10/2" is not a number for recall's bound ...
    """
    try:
        value = read_exact(word)
    except OutOfRange:
        said = short_word(word)
        raise InputError(f'{where}: "{said}" is out of range for {what}: {RANGE}') from None
    except DividesByZero:
        raise InputError(
            f'{where}: "{word}" is not a number for {what} (it divides by zero)'
        ) from None
    except ValueError:
        if word.endswith((",", ";")):  # two bounds joined by a comma, not by "and"
            raise InputError(
                f'{where}: "{word}" is not a number for {what}: join two bounds with "and", '
                "not a comma"
            ) from None
        raise InputError(
            f'{where}: "{word}" is not a number for {what} '
            "(write a decimal like 0.9 or 1e-3, or one fraction like 9/10)"
        ) from None
    if value and not SMALLEST <= abs(value) <= LARGEST:
        raise InputError(f'{where}: "{short_word(word)}" is out of range for {what}: {RANGE}')
    return value


def short_word(word: str) -> str:
    """A long word cut for a message: its first and last digits."""
    return word if len(word) <= 40 else f"{word[:20]}...{word[-8:]} ({len(word)} characters)"


#: The range, in the words the refusals use.
RANGE = "a number is 0 or from 1e-300 to 1e300 in size"


def metric_name(word: str) -> str:
    """The goal metric ``word`` names, refused with the list when it names none."""
    key = word.lower()
    key = ALIASES.get(key, key)
    if key in GOAL_METRICS:
        return key
    raise InputError(f'goal: "{word}" is not a metric; metrics: {", ".join(GOAL_METRICS)}')


def parse_goal(text: str) -> Goal:
    """Read a goal, or refuse it naming the word that is wrong.

    >>> parse_goal("max precision where recall >= 0.9").text()
    'max precision where recall >= 0.9'
    >>> parse_goal("MIN fpr WHERE recall>=19/20 and precision >= 0.5").constraints[0].bound
    Fraction(19, 20)
    >>> parse_goal("min cost fp=1 fn=@amount").text()
    'min cost fp=1 fn=@amount'
    >>> parse_goal("maximise recall")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    threshold_lab.core.errors.InputError: goal: "maximise" should be max or min (max|min METRIC ...)
    """
    words = _TOKEN.findall(text.strip())
    if not words:
        raise InputError(f"goal: empty; write {GRAMMAR}")
    head = words[0].lower()
    if head not in ("max", "min"):
        raise InputError(f'goal: "{words[0]}" should be max or min ({GRAMMAR})')
    if len(words) < 2:
        raise InputError(f'goal: "{words[0]}" of what? write {GRAMMAR}')
    if words[1].lower() == "cost":
        if head == "max":
            raise InputError('goal: "max cost": a cost is minimised (min cost fp=A fn=B ...)')
        return Goal("cost", False, costs=_costs(words[2:]))
    if words[1].lower() in NET_BENEFIT_WORDS:
        if head == "min":
            raise InputError(
                'goal: "min net_benefit": net benefit is maximised (max net_benefit at pt X)'
            )
        return Goal(NET_BENEFIT, True, pt=_at_pt(words[2:]))
    metric = metric_name(words[1])
    rest = words[2:]
    weights, rest = _weights(metric, words[1], rest)
    constraints: list[Constraint] = []
    if rest:
        if rest[0].lower() != "where":
            raise InputError(
                f'goal: "{rest[0]}" after "{head} {words[1]}" should be "where" '
                "followed by constraints like recall >= 0.9"
            )
        rest = rest[1:]
        if not rest:
            raise InputError('goal: nothing after "where"; write a constraint like recall >= 0.9')
        while rest:
            constraints.append(_constraint(rest[:3]))
            rest = rest[3:]
            if rest:
                if rest[0].lower() != "and":
                    raise InputError(f'goal: "{rest[0]}" should be "and" between constraints')
                rest = rest[1:]
                if not rest:
                    raise InputError('goal: nothing after "and"; write another constraint')
    return Goal(metric, head == "max", tuple(constraints), weights=weights)


def _weights(
    metric: str, said: str, words: list[str]
) -> tuple[tuple[Fraction, Fraction] | None, list[str]]:
    """pROC's ``best.weights`` after youden or topleft: ``cost=R`` (a false negative's
    cost relative to a false positive's, default 1) and ``prevalence=P`` (0 < P < 1,
    default 0.5); the words left."""
    given: dict[str, Fraction] = {}
    while words and words[0].lower() in ("cost", "prevalence"):
        key = words[0].lower()
        if metric not in WEIGHTED:
            raise InputError(
                f'goal: "{key}=" weighs youden or topleft (pROC\'s best.weights), not {said}'
            )
        if len(words) < 3 or words[1] != "=":
            raise InputError(f'goal: "{words[0]}" needs "=" and a number, e.g. {key}=2')
        if key in given:
            raise InputError(f'goal: "{key}" is given twice')
        value = parse_number(words[2], f"the weight {key}")
        if key == "cost" and not value > 0:
            raise InputError(f'goal: cost "{words[2]}" should be above 0')
        if key == "prevalence" and not 0 < value < 1:
            raise InputError(f'goal: prevalence "{words[2]}" should be strictly between 0 and 1')
        given[key] = value
        words = words[3:]
    if not given:
        return None, words
    return (given.get("cost", Fraction(1)), given.get("prevalence", Fraction(1, 2))), words


def _at_pt(words: list[str]) -> Fraction:
    """``at pt X`` after ``max net_benefit``: the threshold probability, 0 < X < 1."""
    if len(words) < 3 or [w.lower() for w in words[:2]] != ["at", "pt"]:
        said = " ".join(words) or "nothing"
        raise InputError(
            f'goal: "{said}" after "max net_benefit" should be "at pt X", a threshold '
            "probability between 0 and 1, e.g. max net_benefit at pt 0.2"
        )
    if len(words) > 3:
        raise InputError(f'goal: "{words[3]}" after "at pt {words[2]}": nothing more is taken')
    pt = parse_number(words[2], "the threshold probability pt")
    if not 0 < pt < 1:
        raise InputError(f'goal: pt "{words[2]}" is not strictly between 0 and 1')
    return pt


def _constraint(words: list[str]) -> Constraint:
    if len(words) < 3:
        shown = " ".join(words)
        raise InputError(
            f'goal: "{shown}" is not a whole constraint; write METRIC >= x or METRIC <= x'
        )
    metric = metric_name(words[0])
    op = words[1]
    if op not in (">=", "<=", "=>", "=<"):
        raise InputError(
            f'goal: "{op}" after "{words[0]}" should be >= or <= '
            "(a constraint is a bound: at least, or at most)"
        )
    bound = parse_number(words[2], f"{metric}'s bound")
    return Constraint(metric, op in (">=", "=>"), bound)


def _costs(words: list[str]) -> tuple[tuple[str, Cost], ...]:
    if not words:
        raise InputError("goal: min cost needs what each cell costs, e.g. min cost fp=1 fn=5")
    found: dict[str, Cost] = {}
    i = 0
    while i < len(words):
        cell = words[i].lower()
        if cell not in CELLS:
            raise InputError(
                f'goal: "{words[i]}" is not a cell; a cost is fp=, fn=, tp= or tn= '
                "followed by a number or @column"
            )
        if i + 2 >= len(words) or words[i + 1] != "=":
            raise InputError(f'goal: "{words[i]}" needs "=" and a cost, e.g. {cell}=5')
        if cell in found:
            raise InputError(f'goal: "{cell}" is given twice')
        value = words[i + 2]
        if value.startswith("@"):
            if len(value) == 1:
                raise InputError('goal: "@" needs a column name, e.g. fn=@amount')
            found[cell] = Cost(column=value[1:])
        else:
            found[cell] = Cost(value=parse_number(value, f"the cost of {cell.upper()}"))
        i += 3
    return tuple((cell, found[cell]) for cell in CELLS if cell in found)
