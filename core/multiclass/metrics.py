"""Multiclass metrics, each one binary problem per class and then averaged.

- **Decisions**: each row's predicted class is the argmax of its scores; a tie for
  the maximum goes to the class first in the class order, and how many rows were
  decided by such a tie is counted.
- **Per class** c (one against the rest): precision = TP/(TP+FP), recall =
  TP/(TP+FN), F1, support (rows, or weight, labelled c). Undefined with the reason
  where a denominator is 0, never 0 silently.
- **Averages**: macro (the plain mean over the classes where the metric is defined),
  weighted (by support, over the same classes), micro (pool every class's TP, FP and
  FN, then divide once; with one label per row that is accuracy). Each average names
  the classes it used, and says which it left out and why.
- **Balanced accuracy** = the macro average of per-class recall (chance level: 1/k).
- **One-vs-rest ranking**: per-class ROC AUC and AP of class c's score against
  "label == c", their macro and support-weighted averages, and the micro averages over
  all k·n (score, is-this-class) pairs pooled.
- **One-vs-one ranking** (Hand and Till's AUC, scikit-learn's ``multi_class="ovo"``):
  for each unordered pair of classes {i, j}, (A(i|j) + A(j|i))/2, where A(i|j) is the
  ROC AUC of class i's score column on the rows labelled i or j alone, "label == i"
  positive (ties half, the Mann-Whitney count). Macro: the plain mean over the pairs;
  weighted: each pair by its prevalence, the rows (or weight) labelled i or j. With
  sample weights, each A(i|j) is the weighted AUC (pairs of rows counted by the product
  of their weights), and a pair weighs the weight of its two classes' rows: whole
  weights are the same as repeated rows. A pair with a class without rows (or of weight
  0) is undefined and left out, with that class named.
- **Probability metrics** when every row's scores are in [0, 1] and sum to 1: log
  loss = −mean ln p(true class), Brier = mean Σ_c (p_c − [y = c])². A row within 1e-9
  of 1 (float rounding) is used as it is; one further off but within 1e-6 a class (k ×
  10^-6 for k classes: what scores written to six decimals allow) is divided by its
  sum, and the report says how many were; past that the row is named with its sum as
  its written digits add up.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import dot
from threshold_lab.core.curves.pr import average_precision
from threshold_lab.core.curves.roc import roc_auc
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.classes import Multiclass
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.metrics.formulas import FORMULAS, Cells
from threshold_lab.core.metrics.metric import Metric, from_fraction, ratio, undefined

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.int64]

#: Float rounding: a row whose scores sum this close to 1 is used as it is.
SUM_TOLERANCE = 1e-9
#: Written rounding, a class: six-decimal scores are each within 0.5e-6 of what they
#: round, so a row of k sums within k × 0.5e-6 of 1. A row off by more than
#: :data:`SUM_TOLERANCE` and at most k × this is normalised; past that it is refused.
PER_CLASS_TEXT = "1e-6"
PER_CLASS = Decimal(PER_CLASS_TEXT)


def decide(mc: Multiclass) -> tuple[IntArray, int]:
    """Each row's predicted class (argmax, ties to the first class) and how many rows
    had a tie for the maximum."""
    pred = np.argmax(mc.scores, axis=1).astype(np.int64)  # numpy's argmax: the first
    top = mc.scores[np.arange(mc.n), pred]
    ties = int(np.count_nonzero((mc.scores == top[:, None]).sum(axis=1) > 1))
    return pred, ties


def confusion(mc: Multiclass, pred: IntArray) -> FloatArray:
    """The k×k matrix: row = actual class, column = predicted class (weighted)."""
    k = mc.k
    flat = np.bincount(mc.labels * k + pred, weights=mc.weight(), minlength=k * k)
    out: FloatArray = flat.astype(np.float64).reshape(k, k)
    return out


def _ratio(num: float, den: float, whole: bool, reason: str, name: str) -> Metric:
    """``num / den``: with whole counts exact, the counts kept (567/791, not 81/113)."""
    if den == 0:
        return undefined(reason, name=name)
    if whole:
        return ratio(round(num), round(den), reason=reason, name=name)
    return Metric(num / den, None, None, name)


def _rate(key: str, cells: Cells, whole: bool, reason: str, name: str) -> Metric:
    """The formula table's ``key`` (precision, recall, F1) at one class's counts."""
    num, den = FORMULAS[key].parts(cells, _ONE)
    return _ratio(num, den, whole, reason, name)


_ONE = Fraction(1)


def _f1(tp: float, fp: float, fn: float, whole: bool) -> Metric:
    return _rate(
        "f1",
        Cells(tp, fp, fn=fn),
        whole,
        "No actual or predicted rows of the class (2TP+FP+FN=0)",
        "F1",
    )


@dataclass(frozen=True)
class PerClass:
    """One class against the rest at the argmax decisions, and its ranking summaries."""

    name: str
    tp: float
    fp: float
    fn: float
    support: float
    precision: Metric
    recall: Metric
    f1: Metric
    roc_auc: Metric
    average_precision: Metric

    def as_json(self) -> dict[str, Any]:
        return {
            "precision": self.precision.as_json(),
            "recall": self.recall.as_json(),
            "f1": self.f1.as_json(),
            "support": _count(self.support),
            "roc_auc": self.roc_auc.as_json(),
            "average_precision": self.average_precision.as_json(),
        }


def _count(x: float) -> int | float:
    return int(x) if float(x).is_integer() else float(x)


@dataclass(frozen=True)
class Average:
    """An average of a per-class metric: its value, the classes it used, and the
    classes it left out with why."""

    metric: Metric
    used: tuple[str, ...]
    left_out: tuple[tuple[str, str], ...] = ()

    def as_json(self) -> dict[str, Any]:
        out = self.metric.as_json()
        out["classes"] = list(self.used)
        if self.left_out:
            out["left_out"] = {c: why for c, why in self.left_out}
        return out


def _mean(
    values: Sequence[Metric], names: Sequence[str], weights: Sequence[float] | None, whole: bool
) -> Average:
    """The (weighted) mean over the classes where the metric is defined."""
    used = [i for i, m in enumerate(values) if m.value is not None]
    left = tuple((names[i], str(values[i].reason)) for i, m in enumerate(values) if m.value is None)
    if not used:
        return Average(undefined("undefined for every class"), (), left)
    w = [1.0] * len(values) if weights is None else list(weights)
    total = sum(w[i] for i in used)
    if total == 0:  # weighted by support, and every class it is defined for has none
        none = tuple((names[i], f"no actual rows of {names[i]} (support 0)") for i in used)
        return Average(undefined("the classes it is defined for have no support"), (), left + none)
    exact = whole and all(values[i].exact is not None for i in used)
    if exact:
        f = sum((Fraction(round(w[i])) * values[i].exact for i in used), Fraction(0))  # type: ignore[operator]
        f /= Fraction(round(total))
        m = from_fraction(f, float(f))
    else:
        m = Metric(sum(w[i] * float(values[i].value or 0.0) for i in used) / total, None, None)
    return Average(m, tuple(names[i] for i in used), left)


@dataclass(frozen=True)
class MulticlassReport:
    """Everything the multiclass summary shows."""

    classes: tuple[str, ...]
    confusion: FloatArray
    argmax_ties: int
    per_class: tuple[PerClass, ...]
    averages: dict[str, dict[str, Average]]
    accuracy: Metric
    balanced_accuracy: Average
    log_loss: Metric
    brier: Metric
    n: float
    normalised_rows: int = 0

    @property
    def probability_note(self) -> str | None:
        """Said once, where log loss and Brier are: how many rows were normalised."""
        n = self.normalised_rows
        if n == 0:
            return None
        rows = "1 row's probabilities" if n == 1 else f"{n} rows' probabilities"
        return (
            f"{rows} summed to within {PER_CLASS_TEXT} a class of 1 and were normalised "
            "(divided by their sum) for log loss and Brier"
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "classes": list(self.classes),
            "confusion": [[_count(x) for x in row] for row in self.confusion.tolist()],
            "argmax_ties": self.argmax_ties,
            "per_class": {p.name: p.as_json() for p in self.per_class},
            "averages": {
                kind: {name: a.as_json() for name, a in avgs.items()}
                for kind, avgs in self.averages.items()
            },
            "accuracy": self.accuracy.as_json(),
            "balanced_accuracy": self.balanced_accuracy.as_json(),
            "log_loss": self.log_loss.as_json(),
            "brier": self.brier.as_json(),
            "normalised_rows": self.normalised_rows,
        }


@dataclass(frozen=True)
class Probabilities:
    """The scores log loss and Brier use: each row as it is, or divided by its sum
    where written rounding left it off 1 (``normalised`` rows); or why there are none."""

    scores: FloatArray | None
    normalised: int = 0
    problem: str | None = None


def probabilities(mc: Multiclass) -> Probabilities:
    """``mc``'s scores as probabilities (see the module), or the first row that is not."""
    s = mc.scores
    bad = np.flatnonzero(~np.all((s >= 0) & (s <= 1), axis=1))
    if bad.size:
        i = int(bad[0])
        return Probabilities(None, 0, f"row {_row_name(mc, i)} has a score outside [0, 1]")
    sums = s.sum(axis=1)
    far = np.flatnonzero(_too_far(s, sums))
    if far.size:
        i = int(far[0])
        allowed = format((mc.k * PER_CLASS).normalize(), "e")
        return Probabilities(
            None,
            0,
            (
                f"row {_row_name(mc, i)}'s scores sum to {_sum_text(s[i])}, not 1 (within "
                f"{PER_CLASS_TEXT} a class: {allowed} for {mc.k} classes): they are not "
                "probabilities"
            ),
        )
    off = np.flatnonzero(np.abs(sums - 1.0) > SUM_TOLERANCE)
    if not off.size:
        return Probabilities(s)
    scores = s.copy()
    scores[off] /= sums[off, None]
    return Probabilities(scores, int(off.size))


def _too_far(s: FloatArray, sums: FloatArray) -> npt.NDArray[np.bool_]:
    """Rows whose scores sum further from 1 than k × :data:`PER_CLASS`. The float sums
    decide, except within float error of the bound, where the written digits do: a
    row of 0.999999 and 0.000003 is exactly 2e-6 off, and allowed for two classes."""
    k = s.shape[1]
    bound = k * float(PER_CLASS)
    off = np.abs(sums - 1.0)
    far: npt.NDArray[np.bool_] = ~(off <= bound) | ~(sums > 0)  # NaN too
    for i in np.flatnonzero(np.abs(off - bound) <= k * 1e-12).tolist():
        far[i] = abs(_written_sum(s[i]) - 1) > k * PER_CLASS
    return far


def _written_sum(row: FloatArray) -> Decimal:
    """The exact sum of a row's scores as written (each float's shortest repr, which is
    the file's text for up to 15 significant digits), not the float sum's noise."""
    with localcontext() as ctx:
        ctx.prec = 400  # enough for any k floats in [0, 1] to add exactly
        return sum((Decimal(repr(float(x))) for x in row), Decimal(0))


def _sum_text(row: FloatArray) -> str:
    """``0.9``, not ``0.9000000000000001``: the written sum, without trailing zeros."""
    with localcontext() as ctx:
        ctx.prec = 400
        return format(_written_sum(row).normalize(), "f")


def probability_problem(mc: Multiclass) -> str | None:
    """Why the scores are not probabilities (naming the row), or None."""
    return probabilities(mc).problem


def _row_name(mc: Multiclass, i: int) -> str:
    return str(mc.ids[i]) if mc.ids is not None else str(i + 1)


def _probability(mc: Multiclass) -> tuple[Metric, Metric, int]:
    """Log loss, Brier, and how many rows were normalised for them."""
    probs = probabilities(mc)
    if probs.scores is None:
        why = str(probs.problem)
        return (
            undefined(why, name="log loss", formula="−mean ln p(true class)"),
            undefined(why, name="Brier score", formula="mean Σ_c (p_c − [y = c])²"),
            0,
        )
    scores = probs.scores
    w = mc.weight()
    total = float(w.sum())
    p_true = scores[np.arange(mc.n), mc.labels]
    if np.any((p_true == 0) & (w > 0)):
        i = int(np.flatnonzero((p_true == 0) & (w > 0))[0])
        loss = undefined(
            f"row {_row_name(mc, i)} gives its actual class probability 0: log loss is infinite",
            name="log loss",
            formula="−mean ln p(true class)",
        )
    else:
        with np.errstate(divide="ignore"):
            logs = np.where(w > 0, np.log(np.where(p_true > 0, p_true, 1.0)), 0.0)
        loss = Metric(-dot(w, logs) / total, None, None, "log loss", "−mean ln p(true class)")
    onehot = np.zeros_like(scores)
    onehot[np.arange(mc.n), mc.labels] = 1.0
    per_row = ((scores - onehot) ** 2).sum(axis=1)
    brier = Metric(dot(w, per_row) / total, None, None, "Brier score", "mean Σ_c (p_c − [y = c])²")
    return loss, brier, probs.normalised


def _ranking(mc: Multiclass) -> tuple[list[Metric], list[Metric], Metric, Metric, list[int]]:
    """Per-class one-vs-rest ROC AUC and AP, the micro averages (all k·n pairs), and
    how many distinct scores each class's column has (its sweep's thresholds)."""
    aucs, aps, distinct = [], [], []
    for c in range(mc.k):
        sweep = build_sweep(mc.one_vs_rest(c))
        aucs.append(roc_auc(sweep))
        aps.append(average_precision(sweep))
        distinct.append(sweep.size - 1)
    k = mc.k
    pooled = make_dataset(
        mc.scores.reshape(-1),
        (mc.labels[:, None] == np.arange(k)[None, :]).reshape(-1),
        weights=None if mc.weights is None else np.repeat(mc.weights, k),
    )
    sweep = build_sweep(pooled)
    return aucs, aps, roc_auc(sweep), average_precision(sweep), distinct


#: A pair's whole counts below this total (its two classes' rows or weight) keep twice its
#: Mann-Whitney count (at most 2·P·N) inside int64: exact, as :func:`roc_auc` is.
_INT64_SAFE = 2**31


@dataclass(frozen=True)
class _OneVsOne:
    """Every ordered pair (c, j) of classes: ``area[c, j]`` = A(c|j), the AUC of class
    c's scores, positives labelled c, negatives labelled j (NaN where either class has
    no weight); ``twice[c, j]`` twice its Mann-Whitney count (pairs of rows weighted by
    the product of their weights, ties half) where counts are whole, so that A(c|j) =
    twice / (2 · W_c · W_j) exactly (``exact[c, j]``); ``support`` is each W_c."""

    area: FloatArray
    twice: IntArray
    exact: npt.NDArray[np.bool_]
    support: FloatArray


def _seen(pos: npt.NDArray[Any], new: npt.NDArray[np.bool_]) -> npt.NDArray[Any]:
    """Each row of a sorted column: the positives' weight (``pos``, each row's, 0 for
    a negative) up to the end of its tie group plus that before the group's start,
    so that 2P minus it is twice the positives above the row and half those tied
    with it (``new`` marks each group's first row)."""
    cum = np.cumsum(pos)
    if new.all():  # no ties (continuous scores): each row is its own group
        cum += cum - pos
        return cum
    starts = np.flatnonzero(new)
    sizes = np.diff(starts, append=pos.shape[0])
    up_to = cum[starts + sizes - 1]
    up_to += cum[starts] - pos[starts]
    return np.repeat(up_to, sizes)


#: Keeps the sign of an int64 and flips its other bits: a float's bits, so flipped
#: where the float is below 0, order as int64 as the floats do.
_BELOW_ZERO = np.int64(2**63 - 1)


def _label_sorted(
    column: FloatArray, small: npt.NDArray[np.integer[Any]], k: int, distinct: int | None
) -> tuple[npt.NDArray[np.integer[Any]], npt.NDArray[np.bool_]] | None:
    """The labels of a column's rows in score order, and where each tie group starts,
    from one value sort (far faster than an argsort) of 64-bit keys: the score's
    order in the top bits and the label in the lowest ⌈log2 k⌉, which the score gives
    up. That is exact while no two distinct scores differ only in those bits: the
    keys then have as many distinct tops as the column has distinct scores
    (``distinct``, the one-vs-rest sweep's count). Else None (and the caller
    argsorts)."""
    if distinct is None:
        return None
    bits = max(1, (k - 1).bit_length())
    mask = np.int64((1 << bits) - 1)
    key = (column + 0.0).view(np.int64)  # + 0.0: -0.0 is 0.0, as the sweep has it
    key ^= (key >> np.int64(63)) & _BELOW_ZERO
    key &= ~mask
    key |= small
    key.sort()
    lab = (key & mask).astype(small.dtype)
    key >>= np.int64(bits)
    new = np.empty(key.shape[0], dtype=np.bool_)
    new[0] = True
    np.not_equal(key[1:], key[:-1], out=new[1:])
    if int(np.count_nonzero(new)) != distinct:
        return None
    return lab, new


def _one_vs_one(mc: Multiclass, distinct: Sequence[int] | None = None) -> _OneVsOne:
    """A(c|j) for every pair, one sort of each score column for all j at once.

    In class c's column, sorted ascending, a row of label j is above the positives
    (label c) below its tie group and half those in it: summed over the rows labelled
    j, each times its weight, that is A(c|j)'s count of (positive, negative) pairs,
    for every j from the one order (:func:`_seen` gives it, twice, taken from 2P); the
    rows of c itself go to the unused diagonal. Counts are in integers where they are
    whole (exact, as :func:`roc_auc`'s are, while a pair's total is under 2^31), else
    as rates in [0, 1], so that no weighted sum overflows or underflows. Unweighted,
    the order is a value sort of the labels packed with the scores
    (:func:`_label_sorted`, given each column's ``distinct`` scores), else an argsort."""
    k, n = mc.k, mc.n
    labels = mc.labels
    support = np.bincount(labels, weights=mc.weights, minlength=k).astype(np.float64)
    whole = mc.whole
    area = np.full((k, k), np.nan)
    twice = np.zeros((k, k), dtype=np.int64)
    present = support > 0
    exact = whole & (support[:, None] + support[None, :] < _INT64_SAFE)
    exact &= present[:, None] & present[None, :]
    np.fill_diagonal(exact, False)
    if n == 0:
        return _OneVsOne(area, twice, exact, support)
    small = labels.astype(np.min_scalar_type(k))  # less to gather at each sort
    weights = mc.weights
    counts = None if weights is None or not whole else weights.astype(np.int64)
    for c in np.flatnonzero(present).tolist():
        positives = float(support[c])
        column = np.ascontiguousarray(mc.scores[:, c])  # a strided column sorts slower
        packed = None
        if weights is None and distinct is not None:
            packed = _label_sorted(column, small, k, distinct[c])
        order = None
        if packed is None:
            order = np.argsort(column)  # the ties are grouped: their order does not matter
            ranked = column[order]
            new = np.empty(n, dtype=np.bool_)
            new[0] = True
            np.not_equal(ranked[1:], ranked[:-1], out=new[1:])
            del ranked
            lab = small[order]
        else:
            lab, new = packed
        del column
        is_c = lab == c
        others = present.copy()
        others[c] = False
        if whole:
            w = None if counts is None or order is None else counts[order]
            seen = _seen(is_c.astype(np.int64) if w is None else np.where(is_c, w, 0), new)
            if w is not None:
                seen *= w
            sums = np.zeros(k, dtype=np.int64)
            np.add.at(sums, lab, seen)
            js = np.flatnonzero(others & exact[c])
            both = 2 * int(positives) * support[js].astype(np.int64)  # under 2^61
            twice[c, js] = both - sums[js]
            area[c, js] = twice[c, js] / both
            others &= ~exact[c]
            if not others.any():
                continue
        fw = mc.weight() if order is None else mc.weight()[order]
        seen_rate = _seen(np.where(is_c, fw, 0.0) / positives, new)
        seen_rate *= fw
        mean_seen = np.bincount(lab, weights=seen_rate, minlength=k)
        js = np.flatnonzero(others)
        area[c, js] = np.clip(1.0 - mean_seen[js] / (2 * support[js]), 0.0, 1.0)
    return _OneVsOne(area, twice, exact, support)


def _ovo_averages(mc: Multiclass, ovo: _OneVsOne) -> tuple[Average, Average]:
    """Hand and Till's AUC, macro and weighted (see the module), over the pairs of
    classes that both have rows; exact when every pair's counts are."""
    names = mc.classes
    used = [c for c in range(mc.k) if ovo.support[c] > 0]
    left = tuple((names[c], _no_pairs(mc, c)) for c in range(mc.k) if ovo.support[c] <= 0)
    if len(used) < 2:
        why = "Hand and Till's AUC needs rows of at least two classes; " + (
            f"only {names[used[0]]} has any" if used else "there are none"
        )
        return Average(undefined(why), (), left), Average(undefined(why), (), left)
    pairs = [(i, j) for a, i in enumerate(used) for j in used[a + 1 :]]
    w = ovo.support
    scores = [(ovo.area[i, j] + ovo.area[j, i]) / 2 for i, j in pairs]
    prevalence = [float(w[i] + w[j]) for i, j in pairs]
    macro = Metric(math.fsum(scores) / len(pairs), None, None)
    weighted = Metric(
        math.fsum(p * s for p, s in zip(prevalence, scores, strict=True)) / math.fsum(prevalence),
        None,
        None,
    )
    if all(bool(ovo.exact[i, j]) for i, j in pairs):
        macro, weighted = _ovo_exact(ovo, used, len(pairs))
    classes = tuple(names[c] for c in used)
    return Average(macro, classes, left), Average(weighted, classes, left)


def _ovo_exact(ovo: _OneVsOne, used: Sequence[int], pairs: int) -> tuple[Metric, Metric]:
    """The two averages as fractions. Pair {i, j} scores V/(4·W_i·W_j), V = twice[i, j]
    + twice[j, i]; over L = lcm(W), with a_i = L/W_i, the macro mean is Σ V·a_i·a_j /
    (4·L²·pairs) and the weighted one (pair weight W_i + W_j, over pairs totalling
    (u − 1)·ΣW for u classes) Σ V·(a_i + a_j) / (4·L·(u − 1)·ΣW): integers throughout,
    however many pairs (a sum of Fractions over 500 classes' 124,750 pairs would
    reduce at every step)."""
    w = [int(ovo.support[c]) for c in used]
    twice = ovo.twice[np.ix_(used, used)]
    v = (twice + twice.T).tolist()
    lcm = math.lcm(*w)
    a = [lcm // x for x in w]
    u = len(used)
    cross = sum(a[i] * sum(v[i][j] * a[j] for j in range(i + 1, u)) for i in range(u))
    macro = Fraction(cross, 4 * lcm * lcm * pairs)
    spread = sum(a[i] * (sum(v[i]) - v[i][i]) for i in range(u))
    weighted = Fraction(spread, 4 * lcm * (u - 1) * sum(w))
    return from_fraction(macro, 0.0), from_fraction(weighted, 0.0)


def _no_pairs(mc: Multiclass, c: int) -> str:
    """Why a class's pairs are left out of the one-vs-one AUC."""
    name = mc.classes[c]
    head = (
        f"the rows labelled {name} weigh 0 in all"
        if np.any(mc.labels == c)
        else f"no rows labelled {name}"
    )
    return f"{head}: its pairs with the other classes have no AUC (ROC needs both classes)"


def multiclass_report(mc: Multiclass) -> MulticlassReport:
    """The multiclass summary of ``mc`` (see the module)."""
    pred, ties = decide(mc)
    cm = confusion(mc, pred)
    whole = mc.whole
    names = mc.classes
    tp = np.diag(cm)
    predicted = cm.sum(axis=0)
    support = cm.sum(axis=1)
    fp, fn = predicted - tp, support - tp
    aucs, aps, micro_auc, micro_ap, distinct = _ranking(mc)
    per = []
    for c, name in enumerate(names):
        per.append(
            PerClass(
                name,
                float(tp[c]),
                float(fp[c]),
                float(fn[c]),
                float(support[c]),
                _rate(
                    "precision",
                    Cells(tp[c], fp[c], fn=fn[c]),
                    whole,
                    f"No rows predicted {name} (TP+FP=0)",
                    "precision",
                ),
                _rate(
                    "recall",
                    Cells(tp[c], fp[c], fn=fn[c]),
                    whole,
                    f"No rows labelled {name} (TP+FN=0)",
                    "recall",
                ),
                _f1(tp[c], fp[c], fn[c], whole),
                _named(aucs[c], name),
                _named(aps[c], name),
            )
        )
    weights = [float(s) for s in support]
    averages: dict[str, dict[str, Average]] = {"macro": {}, "weighted": {}, "micro": {}}
    for metric in ("precision", "recall", "f1", "roc_auc", "average_precision"):
        values = [getattr(p, metric) for p in per]
        averages["macro"][metric] = _mean(values, names, None, whole)
        averages["weighted"][metric] = _mean(values, names, weights, whole)
    ovo_macro, ovo_weighted = _ovo_averages(mc, _one_vs_one(mc, distinct))
    averages["macro"]["roc_auc_ovo"] = ovo_macro
    averages["weighted"]["roc_auc_ovo"] = ovo_weighted
    stp, sfp, sfn = float(tp.sum()), float(fp.sum()), float(fn.sum())
    all_names = tuple(names)
    averages["micro"] = {
        "precision": Average(
            _rate("precision", Cells(stp, sfp, fn=sfn), whole, "No rows (ΣTP+ΣFP=0)", "precision"),
            all_names,
        ),
        "recall": Average(
            _rate("recall", Cells(stp, sfp, fn=sfn), whole, "No rows (ΣTP+ΣFN=0)", "recall"),
            all_names,
        ),
        "f1": Average(_f1(stp, sfp, sfn, whole), all_names),
        "roc_auc": Average(micro_auc, all_names),
        "average_precision": Average(micro_ap, all_names),
    }
    n = float(cm.sum())
    accuracy = _ratio(stp, n, whole, "No rows (n=0)", "accuracy")
    recalls = [p.recall for p in per]
    balanced = _mean(recalls, names, None, whole)
    loss, brier, normalised = _probability(mc)
    return MulticlassReport(
        tuple(names), cm, ties, tuple(per), averages, accuracy, balanced, loss, brier, n, normalised
    )


def _named(m: Metric, name: str) -> Metric:
    """A one-vs-rest summary's reason names its class."""
    if m.value is not None or m.reason is None:
        return m
    return undefined(f"class {name}: {m.reason[0].lower()}{m.reason[1:]}", name=m.name)
