"""Exercises with exact answers: the smallest fixtures a teacher needs, made to order.

``make_exercise(["auc 7/12", "ap >= 3/4"], rows=6, ties=True, seed=1)`` searches every
way ``rows`` rows can fall into tie groups, from the top score down, each group some
positives and some negatives (both classes present), for those meeting every target
exactly; the seed picks one of them and the order of its rows. The groups are scored
in tenths from 0.9 down (hundredths past nine groups), each as high as the thresholds
named in the targets allow. Every number is worked out in exact fractions and checked
again by the analysis the rest of the program uses.

A target is ``MEASURE [OP] VALUE``: ``auc``, ``ap``, ``trapezoid`` (the PR trapezoid
area), ``precision at T``, ``recall at T``, ``f1 at T`` (the rule ``score >= T``; a
metric with an empty denominator is ``undefined``), ``groups`` (the tie groups); OP is
``=`` (the default), ``>=``, ``<=``, ``>``, ``<`` or ``!=``; VALUE a fraction or a
decimal, read exactly.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
from threshold_lab.core.analysis import analyse, curves_for
from threshold_lab.core.data.dataset import Dataset, make_dataset
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.lessons.answers import read_number, short_decimal
from threshold_lab.core.metrics.metric import Metric, format_fraction

#: The most rows searched: every arrangement of 10 rows is about 130,000 fixtures.
MOST_ROWS = 10
MEASURES = ("auc", "ap", "trapezoid", "precision", "recall", "f1", "groups")
AT = ("precision", "recall", "f1")
_OPS: dict[str, Callable[[Fraction, Fraction], bool]] = {
    "=": operator.eq,
    "==": operator.eq,
    ">=": operator.ge,
    "<=": operator.le,
    ">": operator.gt,
    "<": operator.lt,
    "!=": operator.ne,
}
_TARGET = re.compile(
    r"^\s*(?P<m>[a-z_][a-z0-9_]*)(?:\s+at\s+(?P<at>[^\s=<>!]+))?"
    r"(?:\s*(?P<op>>=|<=|==|!=|=|>|<)\s*|\s+)(?P<v>\S+)\s*$",
    re.IGNORECASE,
)
_ALIASES = {"roc_auc": "auc", "average_precision": "ap", "pr_trapezoid_area": "trapezoid"}
UNDEFINED = "undefined"
#: Tie groups from the top: (positives, negatives) in each.
Groups = tuple[tuple[int, int], ...]


@dataclass(frozen=True)
class Target:
    """One target: a measure (at a threshold), a comparison and an exact value (None:
    undefined)."""

    text: str
    measure: str
    op: str
    value: Fraction | None
    at: Fraction | None = None

    def met(self, got: Fraction | None) -> bool:
        if self.value is None or got is None:
            return self.op in ("=", "==") and got is self.value is None
        return _OPS[self.op](got, self.value)


@dataclass(frozen=True)
class Exercise:
    """A fixture meeting every target: its rows (in the seeded order), its tie groups,
    each target's answer and the lines that derive it, and how many fixtures met them."""

    data: Dataset
    groups: Groups
    scores: tuple[Fraction, ...]
    targets: tuple[Target, ...]
    answers: tuple[tuple[Fraction | None, tuple[str, ...]], ...]
    found: int
    searched: int

    def answer_lines(self) -> list[str]:
        """Each target, its answer, and the formula lines that derive it."""
        parts = []
        for (a, b), score in zip(self.groups, self.scores, strict=True):
            rows = [f"{a} positive{'s' * (a != 1)}"] * bool(a) + [
                f"{b} negative{'s' * (b != 1)}"
            ] * bool(b)
            parts.append(f"{short_decimal(score)}: {' and '.join(rows)}")
        out = [f"Tie groups from the top: {'; '.join(parts)}."]
        for target, (value, lines) in zip(self.targets, self.answers, strict=True):
            out.append(f"{target.text}: {_said(value)}")
            out.extend(f"  {line}" for line in lines)
        return out


def parse_target(text: str) -> Target:
    """One ``--make`` target, checked (the measure, the threshold, the value)."""
    m = _TARGET.match(text)
    if m is None:
        raise InputError(
            f"target {quoted(text)}: say MEASURE [OP] VALUE, such as 'auc 7/12', "
            "'ap >= 3/4' or 'precision at 0.5 = 2/3'"
        )
    measure = _ALIASES.get(m["m"].lower(), m["m"].lower())
    if measure not in MEASURES:
        raise InputError(
            f"target {quoted(text)}: {quoted(m['m'])} is not one of {', '.join(MEASURES)}"
        )
    at = None
    if measure in AT:
        if m["at"] is None:
            raise InputError(f"target {quoted(text)}: say {measure} at T, T the threshold")
        at = _fraction(m["at"], text, "threshold")
        if not 0 < at < 1:
            raise InputError(
                f"target {quoted(text)}: the threshold is strictly between 0 and 1 (the "
                "fixture's scores are)"
            )
    elif m["at"] is not None:
        raise InputError(f"target {quoted(text)}: {measure} takes no threshold")
    op = m["op"] or "="
    raw = m["v"]
    if raw.lower() == UNDEFINED:
        if measure != "precision" or op not in ("=", "=="):
            raise InputError(
                f"target {quoted(text)}: only precision can be undefined (= undefined): "
                "recall and F1 count the positives, which every fixture has"
            )
        return Target(text.strip(), measure, op, None, at)
    target = Target(text.strip(), measure, op, _fraction(raw, text, "value"), at)
    _reachable(target)
    return target


def _reachable(t: Target) -> None:
    """Refuse at once a value no fixture of any size has (AUC 2, AP 0, 2.5 groups)."""
    v = t.value
    assert v is not None
    low, high = (1, MOST_ROWS) if t.measure == "groups" else (0, 1)
    if t.measure == "groups" and t.op in ("=", "==") and v.denominator != 1:
        raise InputError(f"target {quoted(t.text)}: a number of tie groups is whole")
    never = {
        "=": not low <= v <= high,
        "==": not low <= v <= high,
        ">=": v > high,
        ">": v >= high,
        "<=": v < low,
        "<": v <= low,
    }.get(t.op, False)
    if t.measure == "ap" and t.op in ("=", "==", "<=") and v == 0:
        never = True  # a positive's precision is above 0 where it enters
    if never:
        what = (
            f"there are 1 to {MOST_ROWS} tie groups" if t.measure == "groups" else f"{t.measure} is"
        )
        if t.measure != "groups":
            what += f" from {low} to {high}" + (", and AP above 0" if t.measure == "ap" else "")
        raise InputError(f"target {quoted(t.text)}: no fixture has it ({what})")


def _fraction(raw: str, text: str, what: str) -> Fraction:
    value = read_number(raw)  # 2/3, 0.75, 75%, 3.5/6, as a lesson's answers read
    if value is None:
        raise InputError(f"target {quoted(text)}: the {what} {quoted(raw)} is not a number")
    if abs(value.numerator) > 10**12 or value.denominator > 10**12:
        raise InputError(f"target {quoted(text)}: the {what} {quoted(raw)} is too long")
    return value


def arrangements(rows: int) -> Iterator[Groups]:
    """Every way ``rows`` rows fall into tie groups from the top (a group: how many
    positives, how many negatives, at least one row)."""
    if rows == 0:
        yield ()
        return
    for size in range(1, rows + 1):
        for p in range(size + 1):
            for rest in arrangements(rows - size):
                yield ((p, size - p), *rest)


def make_exercise(
    targets: Sequence[str], rows: int = 6, *, ties: bool = False, seed: int = 1
) -> Exercise:
    """The fixture of ``rows`` rows the seed picks among all that meet ``targets``
    (InputError naming the search when none does)."""
    if not 2 <= rows <= MOST_ROWS:
        raise InputError(f"--rows {rows}: an exercise has 2 to {MOST_ROWS} rows")
    if not targets:
        raise InputError("give at least one target: --make 'auc 7/12'")
    parsed = tuple(parse_target(t) for t in targets)
    cuts = sorted({t.at for t in parsed if t.at is not None}, reverse=True)
    whole = [t for t in parsed if t.at is None]  # of the whole ranking
    at = [t for t in parsed if t.at is not None]  # at a threshold
    found: list[tuple[Groups, dict[Fraction, int]]] = []
    searched = 0
    for groups in arrangements(rows):
        p = sum(g[0] for g in groups)
        if p == 0 or p == rows:
            continue  # both classes, so every curve is defined
        if ties and not any(a and b for a, b in groups):
            continue
        searched += 1
        if not all(t.met(_summary(t.measure, groups, p, rows - p)) for t in whole):
            continue
        for splits in _splits(groups, cuts):
            if all(t.met(_at(t, groups, splits[t.at])) for t in at if t.at is not None):
                found.append((groups, splits))
    if not found:
        wanted = " and ".join(t.text for t in parsed)
        tie = " with a tie across classes" if ties else ""
        raise InputError(
            f"no fixture of {rows} rows{tie} meets {wanted} (every one of the {searched} "
            "ways the rows can fall into tie groups was tried); try more rows, or other targets"
        )
    rng = np.random.default_rng(seed)
    groups, splits = found[int(rng.integers(len(found)))]
    scores = _scores(groups, cuts, splits)
    data = _rows(groups, scores, rng)
    answers = tuple(_answer(t, groups, splits) for t in parsed)
    _check(data, parsed, answers)
    return Exercise(data, groups, scores, parsed, answers, len(found), searched)


def _splits(groups: Groups, cuts: list[Fraction]) -> Iterator[dict[Fraction, int]]:
    """Each way the thresholds named can cut the groups (how many groups score at or
    above each, more for a lower threshold), where a ladder of scores can keep it."""
    g = len(groups)
    if not cuts:
        yield {}
        return

    def cut(i: int, low: int) -> Iterator[dict[Fraction, int]]:
        if i == len(cuts):
            yield {}
            return
        for k in range(low, g + 1):
            for rest in cut(i + 1, k):
                yield {cuts[i]: k, **rest}

    for splits in cut(0, 0):
        if _feasible(len(groups), cuts, splits):
            yield splits


#: The score ladders tried, coarsest first: tenths where they do, then finer.
LADDERS = (Fraction(1, 10), Fraction(1, 20), Fraction(1, 100), Fraction(1, 1000))


def _bounds(i: int, cuts: list[Fraction], splits: dict[Fraction, int]) -> tuple[Fraction, Fraction]:
    """Group ``i``'s scores: at least the highest threshold it is at or over, below the
    lowest it is under (within (0, 1))."""
    floor = max((t for t in cuts if i < splits[t]), default=Fraction(0))
    top = min((t for t in cuts if i >= splits[t]), default=Fraction(1))
    return floor, top


def _points(floor: Fraction, top: Fraction, step: Fraction, cuts: list[Fraction]) -> int:
    """How many scores of the ladder (multiples of ``step`` in (0, 1), and the
    thresholds themselves) lie in [floor, top), floor excluded when it is 0."""
    low = floor / step
    first = int(low) + (0 if low.denominator == 1 and floor > 0 else 1)
    last = -(-top // step) - 1  # the largest multiple below top
    last = min(int(last), int(1 / step) - 1)
    ladder = max(0, last - first + 1)
    extra = sum(1 for t in cuts if floor <= t < top and (t / step).denominator != 1)
    return ladder + extra


def _feasible(g: int, cuts: list[Fraction], splits: dict[Fraction, int]) -> bool:
    """Whether the finest ladder can score ``g`` groups keeping each threshold's cut:
    each run of groups sharing bounds fits the scores between them."""
    runs: dict[tuple[Fraction, Fraction], int] = {}
    for i in range(g):
        key = _bounds(i, cuts, splits)
        runs[key] = runs.get(key, 0) + 1
    return all(_points(a, b, LADDERS[-1], cuts) >= n for (a, b), n in runs.items())


def _scores(
    groups: Groups, cuts: list[Fraction], splits: dict[Fraction, int]
) -> tuple[Fraction, ...]:
    """Each group's score, from the top: the groups between two thresholds take the
    coarsest ladder that has room for them there (tenths where they do), each the
    highest score of it below the one before."""
    out: list[Fraction] = []
    i = 0
    while i < len(groups):
        floor, top = _bounds(i, cuts, splits)
        j = i
        while j < len(groups) and _bounds(j, cuts, splits) == (floor, top):
            j += 1
        step = next((x for x in LADDERS if _points(floor, top, x, cuts) >= j - i), LADDERS[-1])
        ladder = sorted(
            {Fraction(k) * step for k in range(1, int(1 / step))} | set(cuts), reverse=True
        )
        fits = [x for x in ladder if floor <= x < top and x > 0]
        if len(fits) < j - i:  # the search checked the room: not expected
            raise AssertionError("no ladder scores these groups, though the search found one")
        out.extend(fits[: j - i])
        i = j
    return tuple(out)


def _counts(groups: Groups, k: int) -> tuple[int, int, int, int]:
    tp = sum(g[0] for g in groups[:k])
    fp = sum(g[1] for g in groups[:k])
    p = sum(g[0] for g in groups)
    n = sum(g[1] for g in groups)
    return tp, fp, n - fp, p - tp


def _summary(measure: str, groups: Groups, p: int, n: int) -> Fraction:
    """A whole-ranking measure of the groups, in exact fractions (the search's fast
    path: :func:`_answer` says the same with its derivation)."""
    if measure == "groups":
        return Fraction(len(groups))
    if measure == "auc":
        twice, below = 0, n
        for a, b in groups:
            below -= b
            twice += 2 * a * below + a * b
        return Fraction(twice, 2 * p * n)
    total = Fraction(0)
    tp = fp = 0
    before = Fraction(1)
    for a, b in groups:
        tp, fp = tp + a, fp + b
        if a:
            precision = Fraction(tp, tp + fp)
            total += a * (precision if measure == "ap" else (precision + before) / 2)
            before = precision
        else:
            before = Fraction(tp, tp + fp) if tp + fp else before
    return total / p


def _at(t: Target, groups: Groups, k: int) -> Fraction | None:
    """A threshold metric where ``k`` groups score at or above the threshold."""
    tp, fp, _tn, fn = _counts(groups, k)
    if t.measure == "precision":
        return None if tp + fp == 0 else Fraction(tp, tp + fp)
    if t.measure == "recall":
        return Fraction(tp, tp + fn)
    den = 2 * tp + fp + fn
    return None if den == 0 else Fraction(2 * tp, den)


def _answer(
    t: Target, groups: Groups, splits: dict[Fraction, int]
) -> tuple[Fraction | None, tuple[str, ...]]:
    """The target's value on these groups, and the lines that derive it."""
    p = sum(g[0] for g in groups)
    n = sum(g[1] for g in groups)
    if t.measure == "groups":
        return Fraction(len(groups)), (
            f"{len(groups)} distinct scores, so {len(groups)} tie groups",
        )
    if t.measure == "auc":
        wins = ties = 0
        below = n
        for a, b in groups:
            below -= b
            wins += a * below
            ties += a * b
        value = (Fraction(wins) + Fraction(ties, 2)) / (p * n)
        return value, (
            "ROC AUC = (pairs ranked right + tied pairs/2)/(P·N)",
            f"  = ({wins} + {ties}/2)/({p}·{n}) = {format_fraction(value)}",
        )
    if t.measure in ("ap", "trapezoid"):
        terms: list[str] = []
        total = Fraction(0)
        tp = fp = 0
        prev_r, prev_p = Fraction(0), Fraction(1)
        for a, b in groups:
            tp, fp = tp + a, fp + b
            r, prec = Fraction(tp, p), Fraction(tp, tp + fp)
            if a:
                dr = r - prev_r
                if t.measure == "ap":
                    total += dr * prec
                    terms.append(f"{format_fraction(dr)}·{format_fraction(prec)}")
                else:
                    total += dr * (prec + prev_p) / 2
                    terms.append(
                        f"{format_fraction(dr)}·({format_fraction(prec)}+{format_fraction(prev_p)})/2"
                    )
            prev_r, prev_p = r, prec
        head = (
            "AP = Σ (Rₖ−Rₖ₋₁)·Pₖ over the tie groups where recall rises"
            if t.measure == "ap"
            else "PR trapezoid = Σ (Rₖ−Rₖ₋₁)·(Pₖ+Pₖ₋₁)/2, from recall 0 at precision 1"
        )
        return total, (head, f"  = {' + '.join(terms)} = {format_fraction(total)}")
    assert t.at is not None
    k = splits[t.at]
    tp, fp, _tn, fn = _counts(groups, k)
    t_text = short_decimal(t.at)
    if t.measure == "precision":
        got: Fraction | None = None if tp + fp == 0 else Fraction(tp, tp + fp)
        line = f"precision at {t_text} = TP/(TP+FP) = {tp}/({tp}+{fp})"
    elif t.measure == "recall":
        got = Fraction(tp, tp + fn)
        line = f"recall at {t_text} = TP/(TP+FN) = {tp}/({tp}+{fn})"
    else:
        den = 2 * tp + fp + fn
        got = None if den == 0 else Fraction(2 * tp, den)
        line = f"F1 at {t_text} = 2TP/(2TP+FP+FN) = 2·{tp}/(2·{tp}+{fp}+{fn})"
    ending = f" = {format_fraction(got)}" if got is not None else " = 0/0: undefined"
    return got, (line + ending, f"  ({k} of {len(groups)} tie groups score {t_text} or more)")


def _said(value: Fraction | None) -> str:
    if value is None:
        return UNDEFINED
    return Metric(float(value), exact=value).value_text()


def _rows(groups: Groups, scores: tuple[Fraction, ...], rng: np.random.Generator) -> Dataset:
    s: list[float] = []
    y: list[int] = []
    for (a, b), score in zip(groups, scores, strict=True):
        s += [float(score)] * (a + b)
        y += [1] * a + [0] * b
    order = rng.permutation(len(s))
    return make_dataset(
        [s[i] for i in order], [y[i] for i in order], ids=[f"r{i + 1}" for i in range(len(s))]
    )


def _check(
    data: Dataset,
    targets: tuple[Target, ...],
    answers: Sequence[tuple[Fraction | None, tuple[str, ...]]],
) -> None:
    """The answers again, from the analysis the rest of the program uses."""
    curves = curves_for(data)  # one sweep, read at each target's threshold
    for t, (value, _) in zip(targets, answers, strict=True):
        a = analyse(curves, float(t.at) if t.at is not None else 0.5)
        s = a.curves.summaries
        got = {
            "auc": s.roc_auc.exact,
            "ap": s.average_precision.exact,
            "trapezoid": s.pr_trapezoid_area.exact,
            "groups": Fraction(a.sweep.size - 1),
        }.get(t.measure)
        if t.measure in AT:
            got = a.metrics[t.measure].exact
        if got != value:  # the search's arithmetic and the program's disagree: a bug
            raise AssertionError(f"exercise {t.text}: searched {value}, analysed {got}")
