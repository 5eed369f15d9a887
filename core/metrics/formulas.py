"""Every threshold metric's formula, once: its numerator and denominator in the four
counts, the words of the formula, and why it is undefined when the denominator is 0.

The same functions serve every caller: the metrics of one confusion matrix (on exact
fractions), the goal solver (on arrays of counts over the whole sweep, as floats, and
on fractions at a few points), the bootstrap (on one replicate's floats) and the
sweep's rates. Numerators and denominators use only ``+``, ``-`` and ``*`` of the
counts, so they work alike on ints, floats, Fractions and numpy arrays; a metric
whose value has a square root (MCC) gives the square of its denominator
(:attr:`Formula.root`).

>>> c = Cells(tp=2, fp=1, tn=1, fn=1)
>>> FORMULAS["precision"].parts(c, 1), FORMULAS["precision"].text
((2, 3), 'TP/(TP+FP)')
>>> FORMULAS["mcc"].parts(c, 1)  # (TP·N − FP·P, and (TP+FP)(TN+FN)·P·N)
(1, 36)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import cached_property
from typing import Any

from threshold_lab.core.metrics.metric import format_count

NO_PRED_POS = "No predicted positives (TP+FP=0)"
NO_PRED_NEG = "No predicted negatives (TN+FN=0)"
NO_ACTUAL_POS = "No actual positives (TP+FN=0)"
NO_ACTUAL_NEG = "No actual negatives (FP+TN=0)"
NO_ROWS = "No rows (n=0)"


class Cells:
    """The four counts of one point (numbers or Fractions) or of many (arrays), and
    the class totals; TN and FN are worked out only when a formula needs them, and a
    caller that knows the totals (the sweep's) gives them, so no pass adds them up."""

    def __init__(
        self,
        tp: Any,
        fp: Any,
        tn: Any = None,
        fn: Any = None,
        *,
        pos: Any = None,
        neg: Any = None,
    ) -> None:
        self.tp, self.fp = tp, fp
        self._tn, self._fn, self._pos, self._neg = tn, fn, pos, neg

    @cached_property
    def tn(self) -> Any:
        if self._tn is None and self._neg is None:
            raise ValueError("these cells have neither TN nor the negatives")
        return self._neg - self.fp if self._tn is None else self._tn

    @cached_property
    def fn(self) -> Any:
        if self._fn is None and self._pos is None:
            raise ValueError("these cells have neither FN nor the positives")
        return self._pos - self.tp if self._fn is None else self._fn

    @cached_property
    def pos(self) -> Any:
        """Actual positives, TP + FN."""
        return self.tp + self.fn if self._pos is None else self._pos

    @cached_property
    def neg(self) -> Any:
        """Actual negatives, FP + TN."""
        return self.fp + self.tn if self._neg is None else self._neg

    @cached_property
    def n(self) -> Any:
        """Every row: the four cells' sum (in Counts.total's order), or the totals'."""
        if self._tn is not None and self._fn is not None:
            return self.tp + self.fp + self._tn + self._fn
        return self.pos + self.neg

    def total(self, terms: tuple[str, ...]) -> Any:
        """The sum of the named cells (``n`` is every row), from the totals where it is
        one of them."""
        wanted = frozenset(terms)
        if wanted == {"tp", "fn"}:
            return self.pos
        if wanted == {"fp", "tn"}:
            return self.neg
        if wanted == {"n"}:
            return self.n
        out = getattr(self, terms[0])
        for t in terms[1:]:
            out = out + getattr(self, t)
        return out


def scaled_beta(b2: Fraction) -> tuple[int, int]:
    """β² as r/s in whole numbers, so that F-beta stays in sums of whole counts."""
    return b2.numerator, b2.denominator


@dataclass(frozen=True)
class Formula:
    """One metric: ``parts(cells, b2)`` is its (numerator, denominator), b2 being β²
    (for F-beta) as a Fraction; ``text`` its formula in words; ``why(cells)`` the
    reason it is undefined where the denominator is 0. With ``root``, the value is
    numerator / √denominator."""

    key: str
    name: str
    text: str
    parts: Callable[[Cells, Fraction], tuple[Any, Any]]
    why: Callable[[Cells], str]
    root: bool = False


@dataclass(frozen=True)
class Rate(Formula):
    """A proportion: a sum of cells over a sum of cells (``n`` being every row)."""

    numerator: tuple[str, ...] = ()
    denominator: tuple[str, ...] = ()

    def filled(self, c: Cells) -> str:
        """The formula with the counts filled in: ``2/(2+1)``."""
        return f"{_terms(c, self.numerator)}/{_terms(c, self.denominator)}"


def _terms(c: Cells, terms: tuple[str, ...]) -> str:
    shown = "+".join(format_count(getattr(c, t)) for t in terms)
    return shown if len(terms) == 1 else f"({shown})"


def _words(terms: tuple[str, ...]) -> str:
    shown = "+".join("n" if t == "n" else t.upper() for t in terms)
    return shown if len(terms) == 1 else f"({shown})"


def _rate(key: str, name: str, num: tuple[str, ...], den: tuple[str, ...], reason: str) -> Rate:
    return Rate(
        key=key,
        name=name,
        text=f"{_words(num)}/{_words(den)}",
        parts=lambda c, _b2: (c.total(num), c.total(den)),
        why=lambda _c: reason,
        numerator=num,
        denominator=den,
    )


RATES: dict[str, Rate] = {
    r.key: r
    for r in (
        _rate("precision", "precision", ("tp",), ("tp", "fp"), NO_PRED_POS),
        _rate("recall", "recall", ("tp",), ("tp", "fn"), NO_ACTUAL_POS),
        _rate("specificity", "specificity", ("tn",), ("tn", "fp"), NO_ACTUAL_NEG),
        _rate("fpr", "FPR", ("fp",), ("fp", "tn"), NO_ACTUAL_NEG),
        _rate("fnr", "FNR", ("fn",), ("fn", "tp"), NO_ACTUAL_POS),
        _rate("npv", "NPV", ("tn",), ("tn", "fn"), NO_PRED_NEG),
        _rate("accuracy", "accuracy", ("tp", "tn"), ("n",), NO_ROWS),
        _rate("prevalence", "prevalence", ("tp", "fn"), ("n",), NO_ROWS),
        _rate("queue_rate", "queue rate", ("tp", "fp"), ("n",), NO_ROWS),
        _rate(
            "jaccard",
            "Jaccard index",
            ("tp",),
            ("tp", "fp", "fn"),
            "No actual or predicted positives (TP+FP+FN=0)",
        ),
    )
}


def _f_beta(c: Cells, b2: Fraction) -> tuple[Any, Any]:
    r, s = scaled_beta(b2)  # (1+β²)TP / ((1+β²)TP + β²FN + FP), times s
    num = (r + s) * c.tp
    if r == s == 1:  # F1: over arrays, a pass saved per product by one
        return num, num + c.fn + c.fp
    return num, num + r * c.fn + s * c.fp


def _f1(c: Cells, _b2: Fraction) -> tuple[Any, Any]:
    return _f_beta(c, Fraction(1))


def _class_missing(c: Cells, fallback: str) -> str:
    if not _nonzero(c.pos):
        return NO_ACTUAL_POS
    if not _nonzero(c.neg):
        return NO_ACTUAL_NEG
    return fallback


def _nonzero(x: Any) -> bool:
    try:
        return bool(x != 0)
    except ValueError:  # an array: the caller reads each point itself
        return True


def _mcc_square(c: Cells) -> Any:
    """(TP+FP)(TN+FN)·P·N, the square of MCC's denominator, with TN+FN = n − (TP+FP)."""
    predicted = c.tp + c.fp
    return predicted * (c.n - predicted) * (c.pos * c.neg)


def _mcc_why(c: Cells) -> str:
    margins = (("TP+FP", c.tp + c.fp), ("TP+FN", c.pos), ("TN+FP", c.neg), ("TN+FN", c.tn + c.fn))
    empty = [label for label, v in margins if not _nonzero(v)]
    return "A margin of the confusion matrix is empty (" + ", ".join(f"{e}=0" for e in empty) + ")"


FORMULAS: dict[str, Formula] = {
    **RATES,
    "tpr": RATES["recall"],
    "f1": Formula(
        "f1",
        "F1",
        "2TP/(2TP+FP+FN)",
        _f1,
        lambda _c: "No actual or predicted positives (2TP+FP+FN=0)",
    ),
    "fbeta": Formula(
        "fbeta",
        "F-beta",
        "(1+β²)TP/((1+β²)TP+β²FN+FP)",
        _f_beta,
        lambda _c: "No actual or predicted positives (TP+FP+FN=0)",
    ),
    # (TP/P + TN/N)/2 as one division.
    "balanced_accuracy": Formula(
        "balanced_accuracy",
        "balanced accuracy",
        "(TPR+TNR)/2",
        lambda c, _b2: (c.tp * c.neg + c.tn * c.pos, 2 * c.pos * c.neg),
        lambda c: _class_missing(c, NO_ACTUAL_POS),
    ),
    "youden": Formula(
        "youden",
        "Youden's J",
        "TPR−FPR",
        lambda c, _b2: (c.tp * c.neg - c.fp * c.pos, c.pos * c.neg),
        lambda c: _class_missing(c, NO_ACTUAL_POS),
    ),
    # TP·TN − FP·FN = TP·N − FP·P, and (TP+FN)(TN+FP) = P·N: fewer passes over arrays.
    "mcc": Formula(
        "mcc",
        "MCC",
        "(TP·TN−FP·FN)/√((TP+FP)(TP+FN)(TN+FP)(TN+FN))",
        lambda c, _b2: (c.tp * c.neg - c.fp * c.pos, _mcc_square(c)),
        _mcc_why,
        root=True,
    ),
    # Ratios of two rates: TPR/FPR = (TP·N)/(FP·P), FNR/TNR = (FN·N)/(TN·P).
    "lr_plus": Formula(
        "lr_plus",
        "LR+",
        "TPR/FPR",
        lambda c, _b2: (c.tp * c.neg, c.fp * c.pos),
        lambda c: _class_missing(c, "FPR is 0, so the ratio has a zero denominator"),
    ),
    "lr_minus": Formula(
        "lr_minus",
        "LR−",
        "FNR/TNR",
        lambda c, _b2: (c.fn * c.neg, c.tn * c.pos),
        lambda c: _class_missing(c, "specificity is 0, so the ratio has a zero denominator"),
    ),
    # precision / prevalence = (TP/(TP+FP)) / (P/n).
    "lift": Formula(
        "lift",
        "lift",
        "precision/prevalence",
        lambda c, _b2: (c.tp * c.n, (c.tp + c.fp) * c.pos),
        lambda c: (
            f"{NO_PRED_POS}: precision is undefined"
            if not _nonzero(c.tp + c.fp)
            else f"{NO_ACTUAL_POS}: the prevalence is 0"
        ),
    ),
    # Agreement beyond chance: (p_o − p_e)/(1 − p_e), as one division of the counts.
    "cohen_kappa": Formula(
        "cohen_kappa",
        "Cohen's kappa",
        "2(TP·TN−FP·FN)/((TP+FP)(FP+TN)+(TP+FN)(FN+TN))",
        lambda c, _b2: (
            2 * (c.tp * c.tn - c.fp * c.fn),
            (c.tp + c.fp) * c.neg + c.pos * (c.fn + c.tn),
        ),
        lambda _c: "Every row is in one class, actual and predicted (the chance agreement is 1)",
    ),
    # TPR + TNR − 1 (Youden's J, named as informedness).
    "informedness": Formula(
        "informedness",
        "informedness",
        "TPR+TNR−1",
        lambda c, _b2: (c.tp * c.neg - c.fp * c.pos, c.pos * c.neg),
        lambda c: _class_missing(c, NO_ACTUAL_POS),
    ),
    # PPV + NPV − 1 = (TP·TN − FP·FN) / ((TP+FP)(TN+FN)).
    "markedness": Formula(
        "markedness",
        "markedness",
        "PPV+NPV−1",
        lambda c, _b2: (c.tp * c.tn - c.fp * c.fn, (c.tp + c.fp) * (c.tn + c.fn)),
        lambda c: NO_PRED_POS if not _nonzero(c.tp + c.fp) else NO_PRED_NEG,
    ),
    "diagnostic_odds_ratio": Formula(
        "diagnostic_odds_ratio",
        "diagnostic odds ratio",
        "(TP·TN)/(FP·FN)",
        lambda c, _b2: (c.tp * c.tn, c.fp * c.fn),
        lambda c: (
            ("FP is 0" if not _nonzero(c.fp) else "FN is 0")
            + ", so the odds ratio has a zero denominator"
        ),
    ),
    # √(PPV·TPR) = TP/√((TP+FP)(TP+FN)).
    "fowlkes_mallows": Formula(
        "fowlkes_mallows",
        "Fowlkes-Mallows index",
        "√(PPV·TPR)",
        lambda c, _b2: (c.tp, (c.tp + c.fp) * c.pos),
        lambda c: NO_PRED_POS if not _nonzero(c.tp + c.fp) else NO_ACTUAL_POS,
        root=True,
    ),
    "predicted_positives": Formula(
        "predicted_positives",
        "predicted positives",
        "TP+FP",
        lambda c, _b2: (c.tp + c.fp, 1),
        lambda _c: "never",
    ),
}
