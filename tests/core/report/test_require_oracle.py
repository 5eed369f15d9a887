"""``--require EXPR`` checked against a small exact evaluator written here from the
specification in docs/gate.md (not from gate.py): one comparison between two arithmetic
sides, every decimal literal an exact Fraction, names looked up in ``current`` and
``baseline.NAME`` in ``base``; an undefined name or a division by zero fails the
requirement with a reason, a malformed EXPR is an InputError naming the bad part."""

from __future__ import annotations

import ast
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.report.gate import Number, evaluate, parse_requirement
from threshold_lab.tui.cli import main

# --- the names, from the specification --------------------------------------------------

SUMMARIES = ("auc", "hull_auc", "average_precision", "pr_trapezoid_area", "log_loss", "brier", "ks")
METRICS = (
    "precision",
    "recall",
    "f1",
    "fbeta",
    "accuracy",
    "specificity",
    "fpr",
    "fnr",
    "npv",
    "balanced_accuracy",
    "mcc",
    "prevalence",
    "queue_rate",
    "lr_plus",
    "lr_minus",
    "lift",
    "cohen_kappa",
    "informedness",
    "markedness",
    "diagnostic_odds_ratio",
    "fowlkes_mallows",
    "jaccard",
)
PLAIN = frozenset((*SUMMARIES, *METRICS, "objective"))
RATES = (".5", "0.01", "0.010", "1e-2", "1E-3", "0.001", "0.25", "9e-1", "0.9", "0.05")
OPS = (">=", ">", "<=", "<", "==", "!=")
COMPARE: dict[str, Callable[[object, object], bool]] = {
    ">=": lambda a, b: a >= b,  # type: ignore[operator]
    ">": lambda a, b: a > b,  # type: ignore[operator]
    "<=": lambda a, b: a <= b,  # type: ignore[operator]
    "<": lambda a, b: a < b,  # type: ignore[operator]
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
}
CANONICAL_AUC = Fraction(7, 12)


# --- the oracle ---------------------------------------------------------------------------


class Malformed(Exception):
    """The oracle refuses the text (the implementation must raise InputError)."""


class Undefined(Exception):
    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


_NUM = r"(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?"
_LEX = re.compile(
    rf"""\s*(?:
      (?P<num>{_NUM})
    | (?P<base>baseline\.)?
      (?: (?P<rate>(?:tpr\s+at\s+fpr|fpr\s+at\s+tpr))\s+(?P<x>{_NUM})(?![\w.])
        | (?P<goal>[a-z_][a-z0-9_]*)\s+at\s+goal\b
        | (?P<word>[a-z_][a-z0-9_]*)\b )
    | (?P<op>>=|<=|==|!=|>|<|[-+*/()])
    )""",
    re.IGNORECASE | re.VERBOSE,
)


@dataclass(frozen=True)
class Parsed:
    tree: ast.Compare
    literals: list[Fraction]
    refs: list[tuple[bool, str]]  # (is a baseline ref, normalised key)


def oracle_tokens(text: str) -> list[re.Match[str]]:
    """The spec's tokens: numbers, names (one token each, spaces and all), operators."""
    pos, found = 0, []
    while text[pos:].strip():
        m = _LEX.match(text, pos)
        if m is None:
            raise Malformed(f"bad token at {pos}")
        found.append(m)
        pos = m.end()
    return found


def oracle_parse(text: str) -> Parsed:
    """Tokenise by the spec, then let Python's own parser do the precedence on a
    translation where each literal and each name is a placeholder identifier."""
    out: list[str] = []
    literals: list[Fraction] = []
    refs: list[tuple[bool, str]] = []
    for m in oracle_tokens(text):
        if m["num"]:
            literals.append(Fraction(m["num"]))
            out.append(f"L{len(literals) - 1}")
        elif m["op"]:
            out.append(m["op"])
        else:
            if m["rate"]:
                x = float(m["x"])
                if not 0 < x < 1:
                    raise Malformed("rate")
                key = f"{' '.join(m['rate'].lower().split())} {x!r}"
            elif m["goal"]:
                if m["goal"].lower() not in METRICS:
                    raise Malformed("not a metric")
                key = f"{m['goal'].lower()} at goal"
            elif m["word"].lower() in PLAIN:
                key = m["word"].lower()
            else:
                raise Malformed(f"not a name: {m['word']}")
            refs.append((bool(m["base"]), key))
            out.append(f"R{len(refs) - 1}")
    try:
        tree = ast.parse(" ".join(out), mode="eval").body  # spaces: '* *' is not '**'
    except SyntaxError:
        raise Malformed("syntax") from None
    if not isinstance(tree, ast.Compare) or len(tree.ops) != 1:
        raise Malformed("not exactly one comparison")
    allowed: tuple[type[ast.AST], ...] = (ast.Compare, ast.BinOp, ast.UnaryOp, ast.Name)
    allowed += (ast.Load, ast.USub, ast.Add, ast.Sub, ast.Mult, ast.Div, type(tree.ops[0]))
    for node in ast.walk(tree):
        if not isinstance(node, allowed):
            raise Malformed(f"not allowed: {type(node).__name__}")
        if isinstance(node, ast.Compare) and node is not tree:
            raise Malformed("a second comparison")
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            right = node.right
            while isinstance(right, ast.UnaryOp):  # -0 and --0 are a literal 0 too
                right = right.operand
            if (
                isinstance(right, ast.Name)
                and right.id.startswith("L")
                and literals[int(right.id[1:])] == 0
            ):
                raise Malformed("division by a literal 0")
    return Parsed(tree, literals, refs)


Exact = Fraction | float


def oracle_side(
    node: ast.expr, p: Parsed, cur: dict[str, Number], base: dict[str, Number]
) -> Exact:
    """Left to right, Python's own Fraction/float arithmetic (a float anywhere makes the
    rest of that operation a float); raises Undefined or ZeroDivisionError."""
    if isinstance(node, ast.Name):
        i = int(node.id[1:])
        if node.id[0] == "L":
            return p.literals[i]
        is_base, key = p.refs[i]
        n = (base if is_base else cur)[key]
        x = n.exact if n.exact is not None else n.value
        if x is None:
            raise Undefined(("baseline." if is_base else "") + key)
        return x
    if isinstance(node, ast.UnaryOp):
        return -oracle_side(node.operand, p, cur, base)
    assert isinstance(node, ast.BinOp)
    a = oracle_side(node.left, p, cur, base)
    b = oracle_side(node.right, p, cur, base)
    if isinstance(node.op, ast.Add):
        return a + b
    if isinstance(node.op, ast.Sub):
        return a - b
    if isinstance(node.op, ast.Mult):
        return a * b
    if b == 0:
        raise ZeroDivisionError
    return a / b


@dataclass(frozen=True)
class Expected:
    value: Exact | None
    bound: Exact | None
    passed: bool
    why: str | None  # None: a plain comparison; else a word the reason must contain


OP_TEXT = {ast.GtE: ">=", ast.Gt: ">", ast.LtE: "<=", ast.Lt: "<", ast.Eq: "==", ast.NotEq: "!="}


def oracle(text: str, cur: dict[str, Number], base: dict[str, Number]) -> Expected:
    p = oracle_parse(text)
    try:
        left = oracle_side(p.tree.left, p, cur, base)
        right = oracle_side(p.tree.comparators[0], p, cur, base)
    except Undefined as exc:
        return Expected(None, None, False, exc.name)
    except ZeroDivisionError:
        return Expected(None, None, False, "zero")
    # Not in the specification: a side that is not a finite number (a float overflow,
    # or inf/nan given) fails the requirement with a reason rather than comparing.
    if any(isinstance(x, float) and not math.isfinite(x) for x in (left, right)):
        return Expected(left, right, False, "finite")
    op = OP_TEXT[type(p.tree.ops[0])]
    return Expected(left, right, COMPARE[op](left, right), None)


def same(got: object, want: Exact | None) -> bool:
    """Equal, and of the same kind: a Fraction when every number was exact."""
    if want is None:
        return got is None
    if isinstance(want, float):
        if math.isnan(want):
            return isinstance(got, float) and math.isnan(got)
        return isinstance(got, float) and got == want
    return isinstance(got, Fraction) and got == want


def check(text: str, cur: dict[str, Number], base: dict[str, Number]) -> None:
    want = oracle(text, cur, base)
    out = evaluate(parse_requirement(text), cur, base)
    assert out.expr == text
    assert out.passed is want.passed, (out, want)
    if want.why is None:
        assert out.reason is None, out
        assert same(out.value, want.value) and same(out.bound, want.bound), (out, want)
    else:
        assert out.reason is not None and want.why in out.reason.lower(), (out, want)
        if want.why == "finite":
            assert same(out.value, want.value) and same(out.bound, want.bound), (out, want)
        else:
            assert out.value is None and out.bound is None, (out, want)


# --- the oracle's own sanity --------------------------------------------------------------


def test_the_oracle_reads_the_issues_examples() -> None:
    cur = {"auc": Number(0.8, Fraction(4, 5)), "recall at goal": Number(0.9, Fraction(9, 10))}
    cur["tpr at fpr 0.01"] = Number(0.6, Fraction(3, 5))
    cur["average_precision"] = Number(0.7)
    base = {"auc": Number(0.81, Fraction(81, 100)), "average_precision": Number(0.75)}
    assert oracle("auc >= baseline.auc - 0.01", cur, base) == Expected(
        Fraction(4, 5), Fraction(4, 5), True, None
    )
    assert oracle("tpr at fpr 0.01 >= 0.6", cur, base).passed
    assert oracle("2 - 1 - 1 == 0", {}, {}).passed  # left-associative
    assert oracle("1 / 2 / 4 == 1/8", {}, {}).passed
    assert oracle("-2 * 3 + 1 == -5", {}, {}).passed
    ap = oracle("average_precision >= baseline.average_precision * 0.98", cur, base)
    assert ap == Expected(0.7, 0.75 * 0.98, False, None)
    for bad in ("auc", "auc > 1 > 0", "(auc > 1", "+auc > 0", "() > 0", "auc ** 2 > 0"):
        with pytest.raises(Malformed):
            oracle_parse(bad)


# --- random expressions -----------------------------------------------------------------

CASES: tuple[Callable[[str], str], ...] = (str.lower, str.upper, str.title)


@st.composite
def literals(draw: st.DrawFn) -> str:
    """A non-zero decimal literal in one of its spellings: 3, 0.5, .5, 1e-3, 2.5E+1."""
    whole = str(draw(st.integers(0, 99)))
    frac = draw(st.text("0123456789", min_size=1, max_size=3))
    mantissa = draw(st.sampled_from((whole, f"{whole}.{frac}", f".{frac}")))
    if draw(st.booleans()):
        sign = draw(st.sampled_from(("", "+", "-")))
        mantissa += f"{draw(st.sampled_from('eE'))}{sign}{draw(st.integers(0, 3))}"
    return mantissa if Fraction(mantissa) != 0 else "7"


@st.composite
def names(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(("plain", "plain", "goal", "tpr", "fpr")))
    if kind == "plain":
        name = draw(st.sampled_from(sorted(PLAIN)))
    elif kind == "goal":
        name = f"{draw(st.sampled_from(METRICS))}{draw(st.sampled_from(('', ' ')))} at goal"
    else:
        other = "fpr" if kind == "tpr" else "tpr"
        name = (
            f"{kind} at{draw(st.sampled_from((' ', '  ')))}{other} {draw(st.sampled_from(RATES))}"
        )
    name = draw(st.sampled_from(CASES))(name)
    if draw(st.booleans()):
        name = draw(st.sampled_from(("baseline.", "BASELINE.", "Baseline."))) + name
    return name


def _gap() -> st.SearchStrategy[str]:
    return st.sampled_from(("", " ", " ", "  "))


def _combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    binop = st.tuples(children, _gap(), st.sampled_from("+-*/"), _gap(), children).map("".join)
    neg = st.tuples(st.just("-"), _gap(), children).map("".join)
    paren = st.tuples(st.just("("), _gap(), children, _gap(), st.just(")")).map("".join)
    return st.one_of(binop, binop, neg, paren)


sides = st.recursive(st.one_of(literals(), names(), names()), _combine, max_leaves=7)
requirements = st.tuples(sides, _gap(), st.sampled_from(OPS), _gap(), sides).map("".join)


def numbers(*, undefined: bool) -> st.SearchStrategy[Number]:
    fr = st.fractions(min_value=-5, max_value=5, max_denominator=60)
    exact = st.one_of(fr, st.sampled_from((Fraction(0), Fraction(1), Fraction(1, 2)))).map(
        lambda f: Number(float(f), f)
    )
    floats = st.one_of(
        st.floats(-10, 10).filter(lambda x: x == 0 or abs(x) >= 1e-3), st.just(0.0)
    ).map(Number)
    parts = [exact, exact, floats]
    if undefined:
        parts.append(st.just(Number(None, None, "no positives")))
    return st.one_of(parts)


def draw_values(
    draw: Callable[[st.SearchStrategy[Number]], Number], text: str, *, undefined: bool
) -> tuple[dict[str, Number], dict[str, Number]]:
    cur: dict[str, Number] = {}
    base: dict[str, Number] = {}
    for is_base, key in oracle_parse(text).refs:
        d = base if is_base else cur
        if key not in d:
            d[key] = draw(numbers(undefined=undefined))
    return cur, base


FAST = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(data=st.data(), text=requirements)
def test_random_requirements_agree_with_the_oracle(data: st.DataObject, text: str) -> None:
    cur, base = draw_values(data.draw, text, undefined=False)
    check(text, cur, base)


@FAST
@given(data=st.data(), text=requirements)
def test_random_requirements_with_undefined_names(data: st.DataObject, text: str) -> None:
    cur, base = draw_values(data.draw, text, undefined=True)
    check(text, cur, base)


@FAST
@given(
    data=st.data(),
    values=st.lists(st.fractions(-3, 3, max_denominator=20), min_size=3, max_size=3),
    op=st.sampled_from(OPS),
)
def test_exact_sides_stay_fractions(data: st.DataObject, values: list[Fraction], op: str) -> None:
    """Exact names and literals only: both sides are Fractions, compared exactly
    (0.1 + 0.2 == 0.3 holds, as it does not in doubles)."""
    text = f"auc + baseline.ks * 0.1 {op} (brier - 0.2) / (0.3 + .5e-1)"
    cur = {"auc": Number(float(values[0]), values[0]), "brier": Number(0.0, values[1])}
    base = {"ks": Number(-1.0, values[2])}  # the double is ignored when there is a fraction
    out = evaluate(parse_requirement(text), cur, base)
    left = values[0] + values[2] * Fraction(1, 10)
    right = (values[1] - Fraction(2, 10)) / Fraction(35, 100)
    assert isinstance(out.value, Fraction) and isinstance(out.bound, Fraction)
    assert (out.value, out.bound, out.passed) == (left, right, COMPARE[op](left, right))
    check(text, cur, base)


def test_decimal_literals_are_exact() -> None:
    out = evaluate(parse_requirement("0.1 + 0.2 == 0.3"), {}, {})
    assert (out.value, out.bound, out.passed) == (Fraction(3, 10), Fraction(3, 10), True)
    cur = {"auc": Number(0.8, Fraction(4, 5))}
    base = {"auc": Number(0.81, Fraction(81, 100))}
    out = evaluate(parse_requirement("auc >= baseline.auc - 0.01"), cur, base)
    assert (out.value, out.bound, out.passed) == (Fraction(4, 5), Fraction(4, 5), True)
    out = evaluate(parse_requirement("1E-3 == .001"), {}, {})
    assert out.value == Fraction(1, 1000) and out.passed


# --- a token the grammar does not know, put anywhere --------------------------------------


@FAST
@given(text=requirements, where=st.integers(0, 10**6), bad=st.sampled_from("$#@?;&[]{}'\"!%^~"))
def test_a_bad_character_is_named_with_its_column(text: str, where: int, bad: str) -> None:
    # between two characters that are not both inside a word or a number
    cuts = [i for i in range(len(text) + 1) if i in (0, len(text)) or text[i - 1] == " "]
    i = cuts[where % len(cuts)]
    broken = f"{text[:i]}{bad} {text[i:]}"
    with pytest.raises(InputError) as info:
        parse_requirement(broken)
    said = str(info.value)
    assert said.startswith(f"--require {quoted(broken)}: ")  # at most 60 characters of it
    assert bad in said and f"(column {i + 1})" in said, said


@FAST
@given(text=requirements, data=st.data())
def test_dropping_a_token_is_refused_exactly_when_the_oracle_refuses(
    text: str, data: st.DataObject
) -> None:
    """Delete, duplicate or swap tokens of a valid requirement: the implementation
    refuses the result exactly when the oracle's grammar does."""
    tokens = [m.group().strip() for m in oracle_tokens(text)]
    i = data.draw(st.integers(0, len(tokens) - 1))
    how = data.draw(st.sampled_from(("drop", "twice", "swap")))
    if how == "drop":
        tokens = tokens[:i] + tokens[i + 1 :]
    elif how == "twice":
        tokens = tokens[: i + 1] + tokens[i:]
    elif i + 1 < len(tokens):
        tokens[i], tokens[i + 1] = tokens[i + 1], tokens[i]
    mutated = " ".join(tokens)
    try:
        oracle_parse(mutated)
    except Malformed:
        with pytest.raises(InputError, match=r"^--require .*\(column \d+\)"):
            parse_requirement(mutated)
    else:
        assert parse_requirement(mutated).expr == mutated


# --- undefined, division by zero, not finite --------------------------------------------


def test_an_undefined_name_fails_naming_it() -> None:
    cur = {"auc": Number(0.5, Fraction(1, 2)), "mcc": Number(None, None, "no negatives")}
    out = evaluate(parse_requirement("auc >= mcc * 2"), cur, {})
    assert (out.passed, out.value, out.bound) == (False, None, None)
    assert out.reason is not None and "mcc" in out.reason
    base = {"recall at goal": Number(None, None, "the goal is not met")}
    cur = {"recall at goal": Number(0.9, Fraction(9, 10))}
    out = evaluate(parse_requirement("recall at goal >= baseline.recall at goal"), cur, base)
    assert (out.passed, out.value, out.bound) == (False, None, None)
    assert out.reason is not None and "baseline.recall at goal" in out.reason


@pytest.mark.parametrize("op", OPS)
def test_an_undefined_name_fails_every_comparison(op: str) -> None:
    """!= included: an undefined number is not 'different from 0.5'."""
    out = evaluate(parse_requirement(f"lr_plus {op} 0.5"), {"lr_plus": Number(None)}, {})
    assert (out.passed, out.value, out.bound) == (False, None, None)
    assert out.reason is not None and "lr_plus" in out.reason


@pytest.mark.parametrize(
    ("text", "cur"),
    [
        ("auc / ks >= 1", {"auc": Number(0.5, Fraction(1, 2)), "ks": Number(0, Fraction())}),
        ("auc / recall >= 1", {"auc": Number(0.5), "recall": Number(0.0)}),
        ("auc / recall >= 1", {"auc": Number(0.5), "recall": Number(-0.0)}),
        ("1 <= 2 / (ks - ks)", {"ks": Number(0.25)}),
        ("1 <= 2 / (ks - 1/4)", {"ks": Number(0.25, Fraction(1, 4))}),
        ("auc / (1 - 1) > 0", {"auc": Number(0.5)}),
    ],
)
def test_a_division_by_zero_from_names_fails_with_a_reason(
    text: str, cur: dict[str, Number]
) -> None:
    out = evaluate(parse_requirement(text), cur, {})
    assert out.passed is False and out.reason is not None and "zero" in out.reason
    assert oracle(text, cur, {}).why == "zero"


@pytest.mark.parametrize(
    ("text", "x", "reason"),
    [
        ("auc >= 1", float("inf"), "value"),
        ("auc <= 1", float("-inf"), "value"),
        ("auc != 1", float("nan"), "value"),
        ("1 <= auc", float("inf"), "bound"),
        ("auc * auc >= 1", 1e200, "value"),  # a float overflow
        ("auc - auc == 0", float("inf"), "value"),  # inf - inf is nan
    ],
)
def test_a_side_that_is_not_finite_fails(text: str, x: float, reason: str) -> None:
    # Not in the specification; the implementation fails such a requirement, saying
    # which side, even where the comparison would hold (inf >= 1).
    out = evaluate(parse_requirement(text), {"auc": Number(x)}, {})
    assert out.passed is False and out.reason is not None and "finite" in out.reason
    assert reason in out.reason
    check(text, {"auc": Number(x)}, {})


def test_float_only_numbers_make_their_side_a_float() -> None:
    cur = {"log_loss": Number(0.1), "brier": Number(0.2, Fraction(1, 5))}
    out = evaluate(parse_requirement("log_loss + 0.2 <= brier * 2"), cur, {})
    assert isinstance(out.value, float) and out.value == 0.1 + 0.2
    assert isinstance(out.bound, Fraction) and out.bound == Fraction(2, 5)
    assert out.passed is True
    check("log_loss + 0.2 <= brier * 2", cur, {})
    # compared exactly: the double 0.1 is a little above 1/10
    out = evaluate(parse_requirement("log_loss > 0.1"), cur, {})
    assert out.passed is True and out.value == 0.1 and out.bound == Fraction(1, 10)


def test_a_big_exact_product_stays_exact() -> None:
    out = evaluate(
        parse_requirement("auc * 1e300 * 1e300 >= 1e300 * 1e299"),
        {"auc": Number(0.5, Fraction(1, 2))},
        {},
    )
    assert out.value == Fraction(5 * 10**599) and out.bound == Fraction(10**599) and out.passed
    assert out.as_json()["value"] is None  # past a double: no double to give


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("auc >= 1e400", "too large for a double"),
        ("auc <= 1e999999999", "too large for a double"),
        ("auc > 1e-400", "too small for a double: it would read as 0"),
    ],
)
def test_a_literal_past_a_double_is_refused_before_anything(text: str, said: str) -> None:
    with pytest.raises(InputError, match=said):
        parse_requirement(text)


# A float-only number met by an exact product past the double range gives an outcome
# (failed, with its reason), never an OverflowError.
@pytest.mark.parametrize(
    "text", ["log_loss + 1e300 * 1e300 > 0", "log_loss * (1e300 * 1e300) >= 1"]
)
def test_a_float_meeting_a_literal_past_the_double_range_gives_an_outcome(text: str) -> None:
    out = evaluate(parse_requirement(text), {"log_loss": Number(0.5)}, {})
    assert not out.passed and out.reason == "a number too large for a double"


# --- malformed --------------------------------------------------------------------------

ALLOWED = "average_precision"


@pytest.mark.parametrize(
    ("text", "part", "column"),
    [
        ("auc", "comparison", 4),  # no comparison: found the end
        ("auc >= 0.5 >= 0.1", "second comparison", 12),
        ("auc >= 0.5 < 1", "second comparison", 12),
        ("aucc >= 0.5", "aucc", 1),
        ("auc >= Baseline.roc", "roc", 17),
        ("tpr >= 0.5", "tpr", 1),
        ("auc $ 1 > 0", "$", 5),
        ("auc >= 0.5 $", "$", 12),
        ("(auc > 1", ")", None),
        ("auc >= (1 - ks", ")", None),
        ("tpr at fpr 2 >= 0.5", "2", 12),
        ("tpr at fpr 1 >= 0.5", "1", 12),
        ("fpr at tpr 0 <= 0.5", "0", 12),
        ("baseline >= 0.5", "baseline", None),
        ("auc >= baseline", "baseline", None),
        ("auc / 0 > 1", "zero", 7),
        ("auc / 0.00 > 1", "zero", 7),
        ("auc > ks / (0)", "zero", None),
        ("", "end", 1),
        ("   ", "end", None),
        ("auc = 0.5", "=", 5),
        ("auc => 0.5", "=", 5),
        ("+auc > 0", "+", 1),
        ("auc ** 2 > 0", "*", 6),
        ("auc at goal > 0", "auc", 1),
        ("auc >= 1 2", "2", 10),
        ("() > 0", ")", 2),
    ],
)
def test_a_malformed_requirement_is_refused_naming_the_part(
    text: str, part: str, column: int | None
) -> None:
    with pytest.raises(Malformed):
        oracle_parse(text)
    with pytest.raises(InputError) as info:
        parse_requirement(text)
    said = str(info.value)
    assert said.startswith(f"--require {text!r}: ")
    assert part in said[len(f"--require {text!r}: ") :], said
    # The column, then (where a name or a number was wanted) the names allowed.
    assert re.search(r"\(column \d+\)(; (did you mean \w+\? )?the names are .*)?$", said), said
    if column is not None:
        assert f"(column {column})" in said, said


@pytest.mark.parametrize(
    ("text", "near"),
    [("aucc >= 0.5", "auc"), ("baseline.foo > 0", None), ("Precison >= 0.5", "precision")],
)
def test_an_unknown_name_lists_the_names_allowed(text: str, near: str | None) -> None:
    """The kinds of name, every summary by name and a metric's nearest name (the whole
    list of metrics would make the line too long to read: docs/gate.md has it)."""
    with pytest.raises(InputError) as info:
        parse_requirement(text)
    said = str(info.value)
    for name in (*SUMMARIES, "each metric by its JSON name", "objective", "at goal"):
        assert name in said, (name, said)
    for name in ("tpr at fpr", "partial_auc", "net_benefit at pt", "gap", "baseline."):
        assert name in said, (name, said)
    assert (f"did you mean {near}?" in said) if near else ("did you mean" not in said)
    assert len(said) < 600


# Division by a literal 0 is refused however it is typed: 0, (0), -0.
def test_division_by_a_negated_literal_zero_is_refused() -> None:
    with pytest.raises(InputError, match="zero"):
        parse_requirement("auc / -0 > 1")


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("TPR AT FPR 1E-2 > 0", "tpr at fpr 0.01"),
        ("tpr  at   fpr .010 > 0", "tpr at fpr 0.01"),
        ("Fpr At Tpr 9e-1 < 1", "fpr at tpr 0.9"),
        ("tpr at fpr 0.00001 > 0", "tpr at fpr 1e-05"),
        ("Recall At Goal > 0", "recall at goal"),
        ("AVERAGE_PRECISION > 0", "average_precision"),
    ],
)
def test_names_are_normalised(text: str, key: str) -> None:
    want = Fraction(1, 3)
    out = evaluate(parse_requirement(text), {key: Number(float(want), want)}, {})
    assert out.value == want and out.reason is None
    base_text = "baseline." + text
    out = evaluate(parse_requirement(base_text), {}, {key: Number(float(want), want)})
    assert out.value == want and out.reason is None


# --- the command line ---------------------------------------------------------------------


def run(capsys: pytest.CaptureFixture[str], *requires: str) -> tuple[int, str, str]:
    args = ["report", "canonical"]
    for r in requires:
        args += ["--require", r]
    try:
        code = main(args)
    except SystemExit as stop:
        code = stop.code  # type: ignore[assignment]
    got = capsys.readouterr()
    return int(code or 0), got.out, got.err


def test_cli_all_requirements_met_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "auc >= 0.5", "auc == 7/12", "precision == 2/3", "recall >= 2/3", "auc < 0.59"
    )
    assert code == 0 and "requirement not met" not in err and "Traceback" not in err
    assert "Requirements: 5 of 5 met" in out


def test_cli_a_failed_requirement_exits_1_one_line_each(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "auc >= 0.6", "precision == 2/3", "recall < 0.5", "auc > 7/12")
    assert code == 1
    lines = [x for x in err.splitlines() if "requirement not met" in x]
    assert lines == [
        "threshold-lab: note: requirement not met: auc >= 0.6: value 7/12 ≈ 0.583333, "
        "bound 3/5 = 0.6",
        "threshold-lab: note: requirement not met: recall < 0.5: value 2/3 ≈ 0.666667, "
        "bound 1/2 = 0.5",
        "threshold-lab: note: requirement not met: auc > 7/12: value 7/12 ≈ 0.583333, "
        "bound 7/12 ≈ 0.583333",
    ]
    assert "precision == 2/3" not in err
    assert "Requirements: 1 of 4 met" in out


def test_cli_exact_boundaries(capsys: pytest.CaptureFixture[str]) -> None:
    """7/12 is 0.58333...: a decimal bound just below or above it decides exactly."""
    assert run(capsys, "auc >= 0.5833333333333333")[0] == 0
    assert run(capsys, "auc >= 0.5833333333333334")[0] == 1
    assert run(capsys, "auc * 12 == 7", "auc - 7/12 == 0", "-auc <= -0.58")[0] == 0


@pytest.mark.parametrize(
    ("bad", "said"),
    [
        ("auc >= ", "--require 'auc >= ': expected a number or a name, found the end (column 8)"),
        ("auc >> 1", "'>'"),
        ("rocauc >= 0.5", "'rocauc' is not a name"),
        ("auc / 0 > 1", "division by zero"),
        ("tpr at fpr 2 > 0", "2 is not a rate strictly between 0 and 1"),
    ],
)
def test_cli_a_malformed_requirement_exits_2_before_the_report(
    capsys: pytest.CaptureFixture[str], bad: str, said: str
) -> None:
    code, out, err = run(capsys, "auc >= 0.5", bad)
    assert code == 2 and out == ""
    assert err.startswith("threshold-lab: error: --require ") and said in err
    assert err.count("\n") == 1 and "Traceback" not in err


# --- soak: any text at all -------------------------------------------------------------

_ALPHABET = "aucbselinprtgofy_. 0123456789e+-*/()<>=!&$\t"


@settings(max_examples=400, deadline=None)
@given(st.text(alphabet=_ALPHABET, max_size=40) | st.text(max_size=20))
def test_any_text_is_a_requirement_or_one_input_error(text: str) -> None:
    """Whatever is typed: a requirement that evaluates to an outcome, or InputError."""
    try:
        req = parse_requirement(text)
    except InputError as exc:
        assert str(exc).startswith("--require ")
        return
    numbers = {
        str(ref).removeprefix("baseline."): Number(0.25, Fraction(1, 4)) for ref in req.refs()
    }
    out = evaluate(req, numbers, numbers)
    assert isinstance(out.passed, bool)


def test_roc_auc_is_auc_spelled_as_scikit_learn_spells_it() -> None:
    """``roc_auc`` (scikit-learn's name) reads the same number as ``auc``: the canonical
    rows' 7/12, passing and failing where ``auc`` does, here and against a baseline."""
    import threshold_lab as tl

    labels, scores = [1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1]
    base = tl.report(labels, scores)
    for bound, passed in (("7/12", True), ("0.6", False)):
        both = [
            tl.report(labels, scores, require=[f"{name} >= {bound}"]).passed
            for name in ("auc", "roc_auc")
        ]
        assert both == [passed, passed]
    r = tl.report(labels, scores, baseline=base, require=["baseline.roc_auc - roc_auc <= 0"])
    assert r.passed
