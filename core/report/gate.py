"""A CI gate: a report's headline numbers against a baseline report's, and
requirements such as ``auc >= baseline.auc - 0.01``, each evaluated exactly.

The headline numbers are read from the report's JSON (the current report's and
the baseline's alike), by name: ``auc``, ``average_precision``, each metric at
the threshold (``recall``), each readout (``tpr at fpr 0.01``, ``fpr at tpr
0.9``), the goal's ``objective`` and each metric at the goal (``recall at
goal``). A requirement compares two sums of those names, ``baseline.NAME`` and
decimal numbers; where every number in it is a fraction of counts the comparison
is between fractions (``0.01`` is 1/100), else between doubles.
"""

from __future__ import annotations

import decimal
import difflib
import json
import math
import operator
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from threshold_lab.core.curves.operating import Focus, Kind
from threshold_lab.core.doubles import read_double
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.groups.gaps import GAPS
from threshold_lab.core.metrics.metric import format_fraction
from threshold_lab.core.metrics.threshold_metrics import METRIC_NAMES

Exact = Fraction | float

#: The comparisons a requirement may use, longest first (so ``>=`` is not ``>``).
COMPARISONS: dict[str, Callable[[Any, Any], bool]] = {
    ">=": operator.ge,
    "<=": operator.le,
    "==": operator.eq,
    "!=": operator.ne,
    ">": operator.gt,
    "<": operator.lt,
}

#: The summaries read by name (besides the metrics, readouts and goal).
SUMMARIES = (
    "auc",
    "hull_auc",
    "average_precision",
    "pr_trapezoid_area",
    "log_loss",
    "brier",
    "ks",
    "ece",
    "mce",
)
#: The fairness gaps read by name (a report with groups), Fairlearn's names.
GAP_NAMES = tuple(GAPS)
#: Partial AUCs, named with their range: ``partial_auc fpr 0 0.1`` (the area) and
#: ``standardised_partial_auc fpr 0 0.1`` (McClish's standardisation).
PARTIAL = {"partial_auc": "area", "standardised_partial_auc": "standardised"}

#: Other spellings of a name, as other tools write it (scikit-learn's ``roc_auc``).
ALIASES = {"roc_auc": "auc"}

#: How the names are spelled, for a message refusing one.
NAMES_HELP = (
    "the names are "
    + ", ".join(SUMMARIES)
    + " (roc_auc for auc too), each metric by its JSON name (precision, "
    "recall, f1, mcc, ...), objective (the goal's), METRIC at goal, tpr at fpr X, fpr at "
    "tpr Y, partial_auc fpr LOW HIGH, net_benefit at pt X, each gap between groups "
    "(demographic_parity_difference, ...), and baseline.NAME"
)
#: Every single-word name, for a suggestion when one is mistyped.
_WORDS = (*SUMMARIES, *METRIC_NAMES, *GAPS, "objective", "roc_auc", *PARTIAL, "net_benefit")


@dataclass(frozen=True)
class Number:
    """One headline number: its double (None: undefined, with ``reason``) and its
    exact fraction where it is one."""

    value: float | None
    exact: Fraction | None = None
    reason: str | None = None

    @classmethod
    def of_json(cls, m: Any) -> Number:
        """A report JSON's ``{"value", "reason", "exact"}`` (or a bare number)."""
        if m is None:
            return cls(None, None, "not in the report")
        if isinstance(m, bool):
            raise InputError(f"{quoted(m)} is not a number")
        if isinstance(m, int | float):
            return cls(_finite_float(m))
        if not isinstance(m, Mapping):
            raise InputError(f"{_kind(m)} is not a number or a measure")
        value = m.get("value")
        if value is None:
            return cls(None, None, str(m.get("reason") or "undefined"))
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InputError(f"value {quoted(value)} is not a number")
        exact = None
        text = m.get("exact")
        if text is not None and not isinstance(text, str):
            raise InputError(f"exact {quoted(text)} is not a fraction's text")
        if isinstance(text, str):
            if len(text) > _EXACT_CHARS or not _FRACTION.fullmatch(text.strip()):
                raise InputError(f"exact {quoted(text)} is not a fraction")
            try:
                exact = Fraction(text)
            except (ValueError, ZeroDivisionError):
                raise InputError(f"exact {quoted(text)} is not a fraction") from None
        return cls(_finite_float(value), exact)

    @property
    def number(self) -> Exact | None:
        """The exact fraction where there is one, else the double (None: undefined)."""
        return self.exact if self.exact is not None else self.value


#: An exact fraction as a report writes it (``7/12``, ``-1/3``, ``1``), and the most
#: characters one may have (Python reads integers of up to 4,300 digits).
_FRACTION = re.compile(r"-?[0-9]+(?:/[0-9]+)?", re.ASCII)
_EXACT_CHARS = 4000


def _finite_float(x: int | float) -> float:
    try:
        value = float(x)
    except OverflowError:
        raise InputError(f"{quoted(x)} is beyond a double's range") from None
    if not math.isfinite(value):
        raise InputError(f"{quoted(value)} is not a finite number")
    return value


def _text(x: Exact | None) -> str | None:
    """An exact number as a fraction's text (``7/12``), None otherwise."""
    return None if not isinstance(x, Fraction) else format_fraction(x)


def _float(x: Exact | None) -> float | None:
    """The double nearest ``x`` (None: undefined, or past a double's range)."""
    if x is None:
        return None
    try:
        f = float(x)
    except OverflowError:
        return None
    return f if math.isfinite(f) else None


def limit_text(limit: float) -> str:
    """A readout's rate as its name spells it: ``0.01``, ``0.9`` (the double's
    shortest text)."""
    return repr(float(limit))


#: Where each headline number of a report can lie: rates and areas from 0 to 1, the
#: correlations from -1 to 1, ratios and the log loss from 0 up.
_SIGNED = frozenset({"mcc", "cohen_kappa", "informedness", "markedness"})
_UNBOUNDED = frozenset({"lr_plus", "lr_minus", "lift", "diagnostic_odds_ratio", "log_loss"})


def _range(name: str) -> tuple[float, float]:
    if name.startswith(("net_benefit", "standardised_partial_auc")):
        return -math.inf, 1.0  # a model worse than treating everyone, or than chance
    base = name.removesuffix(" at goal")
    if base in _SIGNED:
        return -1.0, 1.0
    if base in _UNBOUNDED:
        return 0.0, math.inf
    return 0.0, 1.0


def _section(d: Mapping[str, Any], key: str) -> Mapping[str, Any]:
    """A report's ``key`` object ({} when absent or null); anything else is refused."""
    got = d.get(key)
    if got is None:
        return {}
    if not isinstance(got, Mapping):
        raise InputError(f'"{key}" is {_kind(got)}, not an object')
    return got


def _kind(x: object) -> str:
    if isinstance(x, list):
        return "a list"
    if isinstance(x, str):
        return f"the text {quoted(x)}"
    return quoted(x)


def _number(name: str, where: str, m: Any) -> Number:
    """``m`` read as the headline number ``name`` (at ``where`` in the JSON), its value
    within the number's range and its exact fraction equal to it."""
    try:
        n = Number.of_json(m)
    except InputError as exc:
        raise InputError(f"{where}: {exc}") from None
    if n.value is None:
        return n
    lo, hi = _range(name)
    shown = _text(n.exact) or repr(n.value)
    if not (lo <= n.value <= hi) or (n.exact is not None and not lo <= n.exact <= hi):
        span = f"{lo:g} to {hi:g}" if math.isfinite(hi) else f"{lo:g} or more"
        raise InputError(f"{where} is {quoted(shown)}, outside {span}")
    if n.exact is not None and abs(float(n.exact) - n.value) > 1e-9 * max(1.0, abs(n.value)):
        raise InputError(
            f"{where}: its exact {quoted(_text(n.exact))} is not its value {quoted(n.value)}"
        )
    return n


def headline(d: Mapping[str, Any]) -> dict[str, Number]:
    """Every headline number of a report's JSON, by name, in the report's order: each
    checked for its shape and range (raises InputError naming the field)."""
    out: dict[str, Number] = {}
    roc, pr = _section(d, "roc"), _section(d, "pr")
    prob = _section(d, "probability")
    ks = d.get("ks")
    for name, where, m in (
        ("auc", "roc.auc", roc.get("auc")),
        ("hull_auc", "roc.hull_auc", roc.get("hull_auc")),
        ("average_precision", "pr.average_precision", pr.get("average_precision")),
        ("pr_trapezoid_area", "pr.trapezoid_area", pr.get("trapezoid_area")),
        ("log_loss", "probability.log_loss", prob.get("log_loss")),
        ("brier", "probability.brier", prob.get("brier")),
        ("ks", "ks.value", ks.get("value") if isinstance(ks, Mapping) else None),
        ("ece", "calibration.ece", _section(d, "calibration").get("ece")),
        ("mce", "calibration.mce", _section(d, "calibration").get("mce")),
    ):
        if m is not None:
            out[name] = _number(name, where, m)
    gaps = _section(d, "gaps")
    for name in GAP_NAMES:
        if name in gaps:
            out[name] = _number(name, f"gaps.{name}", gaps[name])
    out.update(_listed(d))
    metrics = _section(d, "metrics")
    for name in METRIC_NAMES:
        if name in metrics:
            out[name] = _number(name, f"metrics.{name}", metrics[name])
    readouts = d.get("readouts")
    readouts = () if readouts is None else readouts
    if not isinstance(readouts, list | tuple):
        raise InputError(f'"readouts" is {_kind(readouts)}, not a list')
    for i, r in enumerate(readouts):
        if not isinstance(r, Mapping):
            raise InputError(f"readouts[{i}] is {_kind(r)}, not an object")
        kind, limit = r.get("kind"), r.get("limit")
        if kind == "tpr_at_fpr" and isinstance(limit, int | float):
            key = f"tpr at fpr {limit_text(limit)}"
            out[key] = _number(key, f"readouts[{i}].tpr", r.get("tpr"))
        elif kind == "fpr_at_tpr" and isinstance(limit, int | float):
            key = f"fpr at tpr {limit_text(limit)}"
            out[key] = _number(key, f"readouts[{i}].fpr", r.get("fpr"))
    goal = d.get("goal")
    if goal is not None and not isinstance(goal, Mapping):
        raise InputError(f'"goal" is {_kind(goal)}, not an object')
    if isinstance(goal, Mapping):
        feasible = bool(goal.get("feasible"))
        why = f"the goal is infeasible: {goal.get('reason')}"
        out["objective"] = (
            Number.of_json(goal.get("objective")) if feasible else Number(None, None, why)
        )
        # The metrics at the goal: the report's own when it stands at the goal's
        # threshold (at the deployment prevalence when one was given, as the goal is).
        shown = d.get("at_prevalence")
        at = (shown.get("metrics") if isinstance(shown, Mapping) else metrics) or {}
        if feasible and goal.get("threshold") != d.get("threshold"):
            feasible, why = False, "the report is not at its goal's threshold"
        for name in METRIC_NAMES:
            if name in at:
                key = f"{name} at goal"
                out[key] = (
                    _number(key, f"metrics.{name}", at[name])
                    if feasible
                    else Number(None, None, why)
                )
    return out


def _listed(d: Mapping[str, Any]) -> dict[str, Number]:
    """The partial AUCs (``partial_auc fpr 0 0.1``) and the net benefits on the
    decision curve's grid (``net_benefit at pt 0.2``) of a report's JSON."""
    out: dict[str, Number] = {}
    partial = d.get("partial_auc") or ()
    if not isinstance(partial, list | tuple):
        raise InputError(f'"partial_auc" is {_kind(partial)}, not a list')
    for i, p in enumerate(partial):
        if not isinstance(p, Mapping):
            raise InputError(f"partial_auc[{i}] is {_kind(p)}, not an object")
        focus, low, high = p.get("focus"), p.get("low"), p.get("high")
        if (
            focus in ("fpr", "tpr")
            and isinstance(low, int | float)
            and isinstance(high, int | float)
        ):
            span = f"{focus} {limit_text(low)} {limit_text(high)}"
            for name, field_name in PARTIAL.items():
                key = f"{name} {span}"
                out[key] = _number(key, f"partial_auc[{i}].{field_name}", p.get(field_name))
    curve = d.get("decision_curve")
    grid = curve.get("grid") if isinstance(curve, Mapping) else None
    if grid is not None and not isinstance(grid, list | tuple):
        raise InputError(f'"decision_curve.grid" is {_kind(grid)}, not a list')
    for i, g in enumerate(grid or ()):
        if not isinstance(g, Mapping):
            raise InputError(f"decision_curve.grid[{i}] is {_kind(g)}, not an object")
        pt = g.get("pt")
        if isinstance(pt, int | float) and not isinstance(pt, bool):
            key = f"net_benefit at pt {limit_text(pt)}"
            out[key] = _number(key, f"decision_curve.grid[{i}].net_benefit", g.get("net_benefit"))
    return out


# --- requirements: parsing ----------------------------------------------------------

_TOKEN = re.compile(
    r"[ \t]*(?:(?P<number>(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)"
    r"|(?P<op>>=|<=|==|!=|>|<|[-+*/().]))"
)


@dataclass(frozen=True)
class _Token:
    kind: str  # number, name, op, end
    text: str
    at: int  # the column it starts at (0-based)


def _tokens(expr: str) -> list[_Token]:
    out, i = [], 0
    while i < len(expr):
        if expr[i:].strip(" \t") == "":
            break
        m = _TOKEN.match(expr, i)
        if m is None or m.end() == i:
            start = len(expr) - len(expr[i:].lstrip(" \t"))
            raise _Malformed(f"{quoted(expr[start])} is not part of a requirement", start)
        kind = m.lastgroup or "op"
        out.append(_Token(kind, m.group(kind), m.start(kind)))
        i = m.end()
    out.append(_Token("end", "", len(expr)))
    return out


class _Malformed(Exception):
    def __init__(self, what: str, at: int, hint: str = "") -> None:
        super().__init__(what)
        self.what, self.at, self.hint = what, at, hint


@dataclass(frozen=True)
class Num:
    value: Fraction


@dataclass(frozen=True)
class Ref:
    name: str
    baseline: bool = False

    def __str__(self) -> str:
        return f"baseline.{self.name}" if self.baseline else self.name


@dataclass(frozen=True)
class Neg:
    operand: Node


@dataclass(frozen=True)
class Bin:
    op: str
    left: Node
    right: Node


Node = Num | Ref | Neg | Bin


@dataclass(frozen=True)
class Requirement:
    """``left op right``, as typed in ``expr``."""

    expr: str
    left: Node
    op: str
    right: Node

    def refs(self) -> Iterator[Ref]:
        def walk(n: Node) -> Iterator[Ref]:
            if isinstance(n, Ref):
                yield n
            elif isinstance(n, Neg):
                yield from walk(n.operand)
            elif isinstance(n, Bin):
                yield from walk(n.left)
                yield from walk(n.right)

        yield from walk(self.left)
        yield from walk(self.right)


_METRICS = frozenset(METRIC_NAMES)
_RATES = {"tpr": "fpr", "fpr": "tpr"}  # a readout's rate, and the rate it is read at


#: Bounds of a requirement: its length, how deeply parentheses and signs nest, how many
#: terms it joins, and how many digits a number has. Far past any real gate, they keep
#: a hostile one from exhausting the stack or the exact arithmetic.
MAX_LENGTH = 1000
MAX_DEPTH = 32
MAX_TERMS = 64
MAX_DIGITS = 400


class _Parser:
    def __init__(self, expr: str) -> None:
        if len(expr) > MAX_LENGTH:
            raise _Malformed(f"longer than {MAX_LENGTH} characters ({len(expr)})", MAX_LENGTH)
        self.expr = expr
        self.toks = _tokens(expr)
        self.i = 0
        self.depth = 0
        self.terms = 0

    def deeper(self, t: _Token) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.fail(f"more than {MAX_DEPTH} parentheses or signs nested here", t)

    def joined(self, t: _Token) -> None:
        self.terms += 1
        if self.terms > MAX_TERMS:
            raise self.fail(f"more than {MAX_TERMS} terms joined by + - * /", t)

    @property
    def tok(self) -> _Token:
        return self.toks[self.i]

    def take(self) -> _Token:
        t = self.toks[self.i]
        self.i += 1
        return t

    def fail(self, what: str, t: _Token | None = None, hint: str = "") -> _Malformed:
        t = t or self.tok
        return _Malformed(what, t.at, hint)

    def requirement(self) -> Requirement:
        left = self.sum()
        t = self.tok
        if t.kind != "op" or t.text not in COMPARISONS:
            said = "the end" if t.kind == "end" else repr(t.text)
            raise self.fail(f"expected a comparison (>=, >, <=, <, ==, !=), found {said}")
        self.take()
        right = self.sum()
        if self.tok.kind != "end":
            t = self.tok
            what = "a second comparison" if t.text in COMPARISONS else repr(t.text)
            raise self.fail(f"{what} after the requirement's end (one comparison a --require)")
        return Requirement(self.expr, left, t.text, right)

    def sum(self) -> Node:
        node = self.product()
        while self.tok.kind == "op" and self.tok.text in "+-":
            self.joined(self.tok)
            op = self.take().text
            node = Bin(op, node, self.product())
        return node

    def product(self) -> Node:
        node = self.factor()
        while self.tok.kind == "op" and self.tok.text in "*/":
            self.joined(self.tok)
            op = self.take().text
            at = self.tok
            right = self.factor()
            if op == "/" and _literal_zero(right):
                raise self.fail("a division by zero", at)
            node = Bin(op, node, right)
        return node

    def factor(self) -> Node:
        t = self.tok
        if t.kind == "op" and t.text == "-":
            self.take()
            self.deeper(t)
            node: Node = Neg(self.factor())
            self.depth -= 1
            return node
        if t.kind == "op" and t.text == "(":
            self.take()
            self.deeper(t)
            node = self.sum()
            if self.tok.text != ")" or self.tok.kind != "op":
                raise self.fail(f"expected ')' to close the '(' at column {t.at + 1}")
            self.take()
            self.depth -= 1
            return node
        if t.kind == "number":
            self.take()
            mantissa = t.text.lower().partition("e")[0]
            if len(mantissa) > MAX_DIGITS:
                raise self.fail(
                    f"{quoted(t.text)} has more than {MAX_DIGITS} digits (a double keeps 17)", t
                )
            try:
                double = read_double(t.text)  # too small to be told from 0, or too large
            except ValueError as exc:
                raise self.fail(str(exc).replace(repr(t.text), quoted(t.text)), t) from None
            if double == 0:
                return Num(Fraction(0))
            value = Fraction(t.text)  # exact: the double's range bounds the exponent
            return Num(value)
        if t.kind == "name":
            return self.reference()
        said = "the end" if t.kind == "end" else repr(t.text)
        raise self.fail(f"expected a number or a name, found {said}", hint=NAMES_HELP)

    def reference(self) -> Ref:
        t = self.take()
        word = t.text.lower()
        if word == "baseline":
            if self.tok.text != ".":
                raise self.fail("'baseline' is followed by '.' and a name (baseline.auc)")
            self.take()
            if self.tok.kind != "name":
                raise self.fail("expected a name after 'baseline.' (baseline.auc)")
            return Ref(self.name(self.take()), baseline=True)
        return Ref(self.name(t))

    def rate(self, what: str, low: float = 0.0, high: float = 1.0) -> float:
        """A number from ``low`` to ``high`` (both ends allowed), said as ``what``."""
        n = self.tok
        if n.kind != "number":
            raise self.fail(f"expected {what} (a number from {low:g} to {high:g})")
        self.take()
        value = float(n.text)
        if not low <= value <= high:
            raise self.fail(f"{n.text} is not from {low:g} to {high:g}", n)
        return value

    def name(self, t: _Token) -> str:
        word = t.text.lower()
        if word in PARTIAL:
            focus = self.tok
            if focus.kind != "name" or focus.text.lower() not in _RATES:
                raise self.fail(
                    f"expected fpr or tpr and a range after {quoted(t.text)} ({word} fpr 0 0.1)"
                )
            self.take()
            low = self.rate("the range's low end")
            at = self.tok
            high = self.rate("the range's high end")
            if not low < high:
                raise self.fail(f"the range's high end is not above its low end {low:g}", at)
            return f"{word} {focus.text.lower()} {limit_text(low)} {limit_text(high)}"
        if word == "net_benefit" and self.tok.kind == "name" and self.tok.text.lower() == "at":
            self.take()
            if self.tok.kind != "name" or self.tok.text.lower() != "pt":
                raise self.fail("expected 'pt' after 'net_benefit at' (net_benefit at pt 0.2)")
            self.take()
            n = self.tok
            pt = self.rate("the threshold probability pt")
            if not 0 < pt < 1:
                raise self.fail(f"{n.text} is not a probability strictly between 0 and 1", n)
            return f"net_benefit at pt {limit_text(pt)}"
        if self.tok.kind == "name" and self.tok.text.lower() == "at":
            at = self.take()
            nxt = self.tok
            if nxt.kind == "name" and nxt.text.lower() == "goal":
                self.take()
                if word not in _METRICS:
                    raise self.fail(
                        f"{quoted(t.text)} is not a metric ('METRIC at goal': "
                        f"{', '.join(METRIC_NAMES)})",
                        t,
                    )
                return f"{word} at goal"
            if word in _RATES and nxt.kind == "name" and nxt.text.lower() == _RATES[word]:
                self.take()
                n = self.tok
                if n.kind != "number":
                    raise self.fail(
                        f"expected the {_RATES[word].upper()} after "
                        f"'{word} at {_RATES[word]}' (as 0.01)"
                    )
                self.take()
                limit = float(n.text)
                if not 0 < limit < 1:
                    raise self.fail(f"{n.text} is not a rate strictly between 0 and 1", n)
                return f"{word} at {_RATES[word]} {limit_text(limit)}"
            if word in _RATES:
                raise self.fail(
                    f"expected '{_RATES[word]} RATE' after '{word} at' "
                    f"({word} at {_RATES[word]} 0.01)",
                    nxt,
                )
            raise self.fail(
                f"'{t.text} at ...': only a metric is read at the goal "
                "(recall at goal) and a rate at a rate (tpr at fpr 0.01)",
                at,
            )
        word = ALIASES.get(word, word)
        if word in SUMMARIES or word in _METRICS or word in GAPS or word == "objective":
            return word
        near = difflib.get_close_matches(word, _WORDS, n=1, cutoff=0.75)
        hint = f"did you mean {near[0]}? " if near else ""
        raise self.fail(f"{quoted(t.text)} is not a name", t, hint + NAMES_HELP)


def _literal_zero(n: Node) -> bool:
    """Whether ``n`` is the number 0 as typed (``0``, ``-0``, ``(0)``)."""
    while isinstance(n, Neg):
        n = n.operand
    return isinstance(n, Num) and n.value == 0


def parse_requirement(expr: str) -> Requirement:
    """``auc >= baseline.auc - 0.01`` as a :class:`Requirement` (raises InputError
    naming the part that did not parse, and the names allowed).

    >>> r = parse_requirement("tpr at fpr 0.01 >= 0.6")
    >>> [str(x) for x in r.refs()], r.op
    (['tpr at fpr 0.01'], '>=')
    """
    if not isinstance(expr, str):
        raise InputError(f"require: {quoted(expr)} is not a text such as 'auc >= 0.8'")
    try:
        return _Parser(expr).requirement()
    except _Malformed as exc:
        hint = f"; {exc.hint}" if exc.hint else ""
        raise InputError(
            f"--require {quoted(expr)}: {exc.what} (column {exc.at + 1}){hint}"
        ) from None


def needed_readouts(reqs: Sequence[Requirement]) -> tuple[tuple[Kind, float], ...]:
    """The readouts the requirements read (``tpr at fpr 0.01``: TPR at FPR 0.01)."""
    out: list[tuple[Kind, float]] = []
    for r in reqs:
        for ref in r.refs():
            parts = ref.name.split(" ")
            if len(parts) == 4 and parts[0] in _RATES:
                kind: Kind = "tpr_at_fpr" if parts[0] == "tpr" else "fpr_at_tpr"
                item = (kind, float(parts[3]))
                if item not in out:
                    out.append(item)
    return tuple(out)


def needed_partial_aucs(reqs: Sequence[Requirement]) -> tuple[tuple[Focus, float, float], ...]:
    """The partial AUCs the requirements read (``partial_auc fpr 0 0.1``)."""
    out: list[tuple[Focus, float, float]] = []
    for r in reqs:
        for ref in r.refs():
            parts = ref.name.split(" ")
            if parts[0] in PARTIAL and len(parts) == 4:
                focus: Focus = "fpr" if parts[1] == "fpr" else "tpr"
                item = (focus, float(parts[2]), float(parts[3]))
                if item not in out:
                    out.append(item)
    return tuple(out)


def needed_pts(reqs: Sequence[Requirement]) -> tuple[Fraction, ...]:
    """The threshold probabilities whose net benefit the requirements read."""
    out: list[Fraction] = []
    for r in reqs:
        for ref in r.refs():
            if ref.name.startswith("net_benefit at pt "):
                pt = Fraction(ref.name.rsplit(" ", 1)[1])
                if pt not in out:
                    out.append(pt)
    return tuple(out)


def check_available(
    reqs: Sequence[Requirement],
    current: Mapping[str, Number],
    baseline: Baseline | None,
    now: Mapping[str, Any] | None = None,
) -> None:
    """Refuse (InputError) a requirement naming a number neither report has: a goal's
    without ``--goal``, ``baseline.X`` without ``--baseline`` or not in it; ``now``:
    what this report is of (:func:`facts`), to say why a number is missing."""
    for r in reqs:
        for ref in r.refs():
            if ref.baseline:
                if baseline is None:
                    raise InputError(
                        f"--require {quoted(r.expr)}: {ref} needs --baseline BASE.json "
                        "(an earlier report --json)"
                    )
                if ref.name not in baseline.numbers:
                    raise InputError(
                        f"--require {quoted(r.expr)}: the baseline {baseline.source} "
                        f"has no {ref.name}{why_missing(ref.name, baseline.facts)}"
                    )
            elif ref.name not in current:
                raise InputError(
                    f"--require {quoted(r.expr)}: this report has no "
                    f"{ref.name}{why_missing(ref.name, now or {})}"
                )


def why_missing(name: str, facts: Mapping[str, Any] | None = None) -> str:
    """Why a report has no number ``name``, its ``facts`` (:func:`facts`) telling what
    it can: a decision curve undefined for its scores has no net benefit at any pt."""
    undefined = (facts or {}).get("decision_curve_reason")
    if name.startswith("net_benefit") and undefined:
        return f" (its decision curve is undefined: {undefined})"
    if name == "objective" or name.endswith(" at goal"):
        return " (it was made without --goal)"
    if name.startswith(("tpr at", "fpr at")):
        return " (its readouts do not include that rate: --readout)"
    if name in GAPS:
        return " (it was made without groups: --group COLUMN)"
    if name.startswith(tuple(PARTIAL)) or name.startswith("net_benefit"):
        return " (it was made without it: --partial-auc, --pt)"
    if name in ("ece", "mce"):
        return " (it has no reliability diagram)"
    return ""


# --- requirements: evaluating ---------------------------------------------------------


class _Undefined(Exception):
    pass


def _value(n: Node, current: Mapping[str, Number], base: Mapping[str, Number]) -> Exact:
    if isinstance(n, Num):
        return n.value
    if isinstance(n, Ref):
        number = (base if n.baseline else current).get(n.name)
        if number is None or number.number is None:
            why = "not in the report" if number is None else number.reason
            raise _Undefined(f"{n} is undefined: {why}")
        return number.number
    if isinstance(n, Neg):
        return -_value(n.operand, current, base)
    a, b = _value(n.left, current, base), _value(n.right, current, base)
    if n.op == "+":
        return a + b
    if n.op == "-":
        return a - b
    if n.op == "*":
        return a * b
    if b == 0:
        raise _Undefined("a division by zero")
    return a / b


@dataclass(frozen=True)
class Outcome:
    """A requirement evaluated: its two sides (None: undefined, with ``reason``)."""

    expr: str
    value: Exact | None
    bound: Exact | None
    passed: bool
    reason: str | None = None

    def as_json(self) -> dict[str, Any]:
        return {
            "expr": self.expr,
            "value": _float(self.value),
            "bound": _float(self.bound),
            "passed": self.passed,
            "value_exact": _text(self.value),
            "bound_exact": _text(self.bound),
            "reason": self.reason,
        }

    def line(self) -> str:
        """``auc >= 0.8: failed, value 7/12 ≈ 0.5833, bound 4/5 = 0.8``."""
        verdict = "passed" if self.passed else "failed"
        return f"{self.expr}: {verdict}, {self.detail()}"

    def detail(self) -> str:
        """``value 7/12 ≈ 0.583333, bound 4/5 = 0.8`` (or why it is undefined)."""
        if self.reason is not None:
            return self.reason
        digits = _apart(self.value, self.bound)
        return f"value {_said(self.value, digits=digits)}, bound {_said(self.bound, digits=digits)}"


def _apart(a: Exact | None, b: Exact | None) -> int:
    """The significant digits that tell ``a`` and ``b`` apart as decimals (6 where
    they already differ there, or are equal; at most 17, a double's)."""
    if a is None or b is None or a == b:
        return 6
    for digits in range(6, 18):
        if _decimal(a, digits) != _decimal(b, digits):
            return digits
    return 17


def _decimal(x: Exact, digits: int) -> str:
    """``x`` to ``digits`` significant digits, exactly rounded (a fraction is not first
    made a double: 7/12 and 0.5833333333333334 are one double, two numbers)."""
    if isinstance(x, Fraction) and digits > 15:  # past what a double tells exactly
        with decimal.localcontext() as context:
            context.prec = digits
            return format(decimal.Decimal(x.numerator) / decimal.Decimal(x.denominator), "g")
    return f"{float(x):.{digits}g}"


def _said(x: Exact | None, *, signed: bool = False, digits: int = 6) -> str:
    """``7/12 ≈ 0.583333``, ``3/5 = 0.6``, ``≈ 0.816497`` (``signed``: ``+1/12 ≈ ...``)."""
    if x is None:
        return "undefined"
    try:
        f = float(x)
    except OverflowError:
        return "a number beyond a double's range"
    plus = "+" if signed and x > 0 else ""
    if isinstance(x, Fraction):
        if x.denominator == 1:
            return f"{plus}{x.numerator}"
        approx = _decimal(x, digits)
        sign = "=" if Fraction(approx) == x else "≈"
        if x.denominator < 10**6:
            return f"{plus}{format_fraction(x)} {sign} {plus}{approx}"
        if sign == "=":  # a decimal as typed: 0.5833333333333334
            return f"{plus}{approx}"
    return f"≈ {plus}{f:.{digits}g}"


def number_said(x: Exact | None) -> str:
    """A number as a failed requirement says it: ``7/8 = 0.875``, ``29/44 ≈ 0.659091``,
    ``≈ 0.816497``."""
    return _said(x)


def evaluate(r: Requirement, current: Mapping[str, Number], base: Mapping[str, Number]) -> Outcome:
    """The requirement's two sides and whether it holds; a side that reads an
    undefined number fails it, saying which."""
    try:
        left = _value(r.left, current, base)
        right = _value(r.right, current, base)
    except _Undefined as exc:
        return Outcome(r.expr, None, None, False, str(exc))
    except OverflowError:  # a huge literal meeting a double
        return Outcome(r.expr, None, None, False, "a number too large for a double")
    if isinstance(left, float) and not math.isfinite(left):
        return Outcome(r.expr, left, right, False, "the value is not finite")
    if isinstance(right, float) and not math.isfinite(right):
        return Outcome(r.expr, left, right, False, "the bound is not finite")
    return Outcome(r.expr, left, right, bool(COMPARISONS[r.op](left, right)))


# --- the baseline ---------------------------------------------------------------------


@dataclass(frozen=True)
class Baseline:
    """An earlier report's headline numbers, and where they were read."""

    source: str
    numbers: Mapping[str, Number]
    #: The source the earlier report itself named (its file or preset).
    report_source: str | None = None
    #: What it was a report of: its rows, threshold, goal and models (:func:`facts`).
    facts: Mapping[str, Any] = field(default_factory=dict)


#: The report JSON's schema this version reads and writes.
SCHEMA = 1


def facts(d: Mapping[str, Any]) -> dict[str, Any]:
    """What a report's JSON was a report of: rows, positives, threshold, goal, models."""
    goal = d.get("goal")
    models = d.get("models")
    curve = d.get("decision_curve")
    return {
        "decision_curve_reason": curve.get("reason") if isinstance(curve, Mapping) else None,
        "n": d.get("n"),
        "positives": d.get("positives"),
        "threshold": d.get("threshold"),
        "goal": goal.get("text") if isinstance(goal, Mapping) else None,
        "models": [m.get("name") for m in models if isinstance(m, Mapping)]
        if isinstance(models, list)
        else [],
    }


def notes(baseline: Baseline | None, now: Mapping[str, Any]) -> list[str]:
    """What makes the two reports' numbers not like for like, in words (none: [])."""
    out = []
    models = now.get("models") or []
    if len(models) > 1:
        out.append(
            f"this report holds {len(models)} models ({', '.join(map(str, models))}): "
            f"the names read the first's ({models[0]})"
        )
    if baseline is None:
        return out
    was = baseline.facts
    if was.get("n") is not None and (was.get("n"), was.get("positives")) != (
        now.get("n"),
        now.get("positives"),
    ):
        out.append(
            f"the baseline was a report of {was.get('n')} rows ({was.get('positives')} "
            f"positive), this one of {now.get('n')} ({now.get('positives')}): not the "
            "same rows, so their numbers are of different examples"
        )
    if was.get("goal") != now.get("goal"):
        said = {
            k: f"{quoted(v)}" if v else "none"
            for k, v in (("was", was.get("goal")), ("now", now.get("goal")))
        }
        out.append(
            f"the baseline's goal was {said['was']}, this report's is {said['now']}: "
            "the objective and the metrics at the goal are of different goals"
        )
    elif was.get("threshold") != now.get("threshold") and "threshold" in was:
        t = {
            k: "above all" if v is None else f"{v:g}"
            for k, v in (("was", was.get("threshold")), ("now", now.get("threshold")))
        }
        out.append(
            f"the baseline is at threshold {t['was']}, this report at {t['now']}: the "
            "metrics at the threshold are of two operating points"
        )
    return out


def baseline_of(given: object, *, name: str = "baseline") -> Baseline:
    """A baseline from a path to an earlier ``report --json`` (str or Path), its
    text (``Report.to_json()``), its parsed dict, or a Report (raises InputError
    saying what is wrong)."""
    if isinstance(given, str) and given.lstrip().startswith("{"):  # to_json()'s text
        try:
            d = _loads(given, name)
        except json.JSONDecodeError as exc:
            raise InputError(
                f"{name}: the JSON text given is not JSON at line {exc.lineno}, "
                f"column {exc.colno}: {exc.msg}"
            ) from None
        source = name
    elif isinstance(given, str | Path):
        path = Path(given)
        source = str(given)
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            raise InputError(f"--baseline {source}: no such file") from None
        except IsADirectoryError:
            raise InputError(f"--baseline {source}: is a folder, not a report's JSON") from None
        except UnicodeDecodeError:
            raise InputError(
                f"--baseline {source}: is not text (an earlier report --json)"
            ) from None
        except OSError as exc:
            raise InputError(
                f"--baseline {source}: cannot read it: {exc.strerror or exc}"
            ) from None
        try:
            d = _loads(text, f"--baseline {source}")
        except json.JSONDecodeError as exc:
            raise InputError(
                f"--baseline {source}: not JSON at line {exc.lineno}, column "
                f"{exc.colno}: {exc.msg} (give an earlier report "
                "--json)"
            ) from None
    elif isinstance(given, Mapping):
        source, d = name, given
    elif hasattr(given, "to_dict"):
        source, d = getattr(given, "source", name), given.to_dict(points=0)
    else:
        raise InputError(
            f"baseline: give a path to an earlier report --json, its dict or a "
            f"Report, not {type(given).__name__}"
        )
    schema = d.get("schema") if isinstance(d, Mapping) else None
    if (
        isinstance(d, Mapping)
        and "schema" in d
        and (isinstance(schema, bool) or schema != SCHEMA or not isinstance(schema, int))
    ):
        kind = "the text " if isinstance(schema, str) else ""
        raise InputError(
            f"--baseline {source}: its schema is {kind}{quoted(schema)}; this version "
            f"reads reports of schema {SCHEMA} (the number)"
        )
    if not isinstance(d, Mapping) or "schema" not in d or "roc" not in d:
        raise InputError(
            f"--baseline {source}: not a threshold-lab report's JSON (no schema "
            "and roc fields): give the output of report --json or "
            "to_json()"
        )
    try:
        numbers = headline(d)
    except (InputError, AttributeError, TypeError) as exc:
        raise InputError(f"--baseline {source}: {exc}") from None
    said = d.get("source")
    return Baseline(source, numbers, said if isinstance(said, str) else None, facts(d))


def _loads(text: str, named: str) -> Any:
    """JSON text as Python; nesting deeper than the reader can follow is refused in one
    line (a report nests four levels)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise InputError(
            f"{named}: its JSON nests deeper than a report's (not an earlier report --json)"
        ) from None


@dataclass(frozen=True)
class Change:
    """One headline number now and in the baseline."""

    name: str
    baseline: Number
    value: Number

    @property
    def difference(self) -> Exact | None:
        a, b = self.value.number, self.baseline.number
        return None if a is None or b is None else a - b

    def as_json(self) -> dict[str, Any]:
        d = self.difference
        return {
            "name": self.name,
            "baseline": _float(self.baseline.number),
            "value": _float(self.value.number),
            "difference": _float(d),
            "baseline_exact": _text(self.baseline.number),
            "value_exact": _text(self.value.number),
            "difference_exact": _text(d),
            "reason": self.value.reason or self.baseline.reason,
        }

    def line(self) -> str:
        d = self.difference
        if d is None:
            why = self.value.reason or self.baseline.reason
            return (
                f"{self.name}: baseline {_said(self.baseline.number)}, now "
                f"{_said(self.value.number)} ({why})"
            )
        return (
            f"{self.name}: baseline {_said(self.baseline.number)}, now "
            f"{_said(self.value.number)}, change {_said(d, signed=True)}"
        )


def changes(base: Mapping[str, Number], current: Mapping[str, Number]) -> tuple[Change, ...]:
    """Every headline number both reports have, in the current report's order (the
    names a requirement may read besides: gaps, partial AUCs, net benefits, ECE and
    MCE, are not listed)."""
    return tuple(
        Change(k, base[k], v) for k, v in current.items() if k in base and not _only_read(k)
    )


def _only_read(name: str) -> bool:
    """A name a requirement reads that the changes do not list."""
    return (
        name in GAPS
        or name in ("ece", "mce")
        or name.startswith(("net_benefit at pt ", *(f"{p} " for p in PARTIAL)))
    )


@dataclass(frozen=True)
class AucTest:
    """The paired test of the AUC's change: DeLong's, over the rows joined on id."""

    rows: int
    baseline_rows: str
    delong: Any  # a PairedDeLong

    def as_json(self) -> dict[str, Any]:
        d = self.delong
        return {
            "method": d.method,
            "baseline_rows": self.baseline_rows,
            "rows": self.rows,
            "auc": d.auc_a,
            "baseline_auc": d.auc_b,
            "difference": d.difference,
            "se": d.se,
            "interval": d.interval.as_json(),
            "z": d.z,
            **d.p.as_json(),
        }

    def line(self) -> str:
        d = self.delong
        low, high = d.interval.low, d.interval.high
        return (
            f"AUC change {d.difference:+.4f} (DeLong's paired test over {self.rows:,} rows "
            f"joined with {self.baseline_rows}: SE {d.se:.4f}, {d.interval.confidence:.0%} "
            f"interval {low:+.4f} to {high:+.4f}, {d.p.text()})"
        )


@dataclass(frozen=True)
class Gate:
    """What ``--baseline`` and ``--require`` add to a report."""

    baseline: Baseline | None
    changes: tuple[Change, ...]
    outcomes: tuple[Outcome, ...]
    auc_test: AucTest | None = None
    auc_test_reason: str | None = None
    #: What makes the numbers not like for like (other rows, goal, threshold, models).
    notes: tuple[str, ...] = ()

    @property
    def passed(self) -> bool:
        return all(o.passed for o in self.outcomes)

    @property
    def failed(self) -> tuple[Outcome, ...]:
        return tuple(o for o in self.outcomes if not o.passed)

    def baseline_json(self) -> dict[str, Any] | None:
        if self.baseline is None:
            return None
        return {
            "source": self.baseline.source,
            "report_source": self.baseline.report_source,
            "changes": [c.as_json() for c in self.changes],
            "auc_test": None if self.auc_test is None else self.auc_test.as_json(),
            "auc_test_reason": self.auc_test_reason,
            "notes": list(self.notes),
        }

    def requirements_json(self) -> list[dict[str, Any]]:
        return [o.as_json() for o in self.outcomes]

    def lines(self) -> list[str]:
        """The report's text section: the changes, the AUC's test, the requirements."""
        out: list[str] = []
        if self.baseline is not None:
            out.append(
                f"Against the baseline {self.baseline.source}"
                + (
                    f" (a report of {self.baseline.report_source})"
                    if self.baseline.report_source
                    else ""
                )
                + ":"
            )
            out += [f"  note: {n}" for n in self.notes]
            same = [c.name for c in self.changes if c.difference == 0]
            out += [f"  {c.line()}" for c in self.changes if c.difference != 0]
            if same:
                out.append(f"  unchanged: {', '.join(same)}")
            if self.auc_test is not None:
                out.append(f"  {self.auc_test.line()}")
            elif self.auc_test_reason is not None:
                out.append(f"  AUC change: no test ({self.auc_test_reason})")
        if self.outcomes:
            passed = sum(o.passed for o in self.outcomes)
            out.append(f"Requirements: {passed} of {len(self.outcomes)} met")
            if self.baseline is None:
                out += [f"  note: {n}" for n in self.notes]
            out += [f"  {o.line()}" for o in self.outcomes]
        return out


#: Why the AUC's change has no test with several models in the report.
SEVERAL = "the report holds several models; the paired test compares one model's rows"

#: Why the AUC's change has no test without the baseline's rows.
NO_ROWS = (
    "give --baseline-rows BASE_FILE, the baseline model's scores of the same rows, for "
    "DeLong's paired test"
)


def gate(
    current: Mapping[str, Number],
    baseline: Baseline | None,
    reqs: Sequence[Requirement],
    auc_test: AucTest | None = None,
    auc_test_reason: str | None = None,
    now: Mapping[str, Any] | None = None,
) -> Gate:
    """The changes against ``baseline`` and each requirement's outcome; ``now``: what
    this report is of (:func:`facts`), for the notes."""
    check_available(reqs, current, baseline, now)
    base = {} if baseline is None else baseline.numbers
    found = () if baseline is None else changes(base, current)
    outcomes = tuple(evaluate(r, current, base) for r in reqs)
    said = notes(baseline, now or {})
    if baseline is not None and auc_test is None and auc_test_reason is None:
        several = len((now or {}).get("models") or []) > 1
        auc_test_reason = SEVERAL if several else NO_ROWS
    return Gate(baseline, found, outcomes, auc_test, auc_test_reason, tuple(said))


def parse_requirements(given: object) -> tuple[Requirement, ...]:
    """``require=``: one text or a list of them."""
    if isinstance(given, str):
        return (parse_requirement(given),)
    if isinstance(given, list | tuple) and all(isinstance(g, str) for g in given):
        return tuple(parse_requirement(g) for g in given)
    raise InputError(
        f"require: give a text such as 'auc >= 0.8' or a list of them, not {quoted(given)}"
    )
