"""The gaps between groups: for the selection rate, TPR, FPR, precision and
accuracy, the largest difference and the smallest ratio across groups, naming the
two groups, each difference with an interval.

Named as Fairlearn names them (``demographic_parity_difference`` is the selection
rate's, ``equal_opportunity_difference`` TPR's, ``equalized_odds_difference`` the
larger of TPR's and FPR's). A group where a rate is undefined (no positives for TPR,
no predicted positives for precision) is left out of that rate's gaps and named.

The interval of a difference is Newcombe's hybrid score interval (his method 10),
built from the two groups' Wilson intervals: for p1 − p2 with Wilson intervals
(l1, u1) and (l2, u2), from d − √((p1 − l1)² + (u2 − p2)²) to d + √((u1 − p1)² +
(p2 − l2)²). With a bootstrap, a percentile interval of the same statistic
recomputed on each replicate instead, drawn within each group and class (so every
group keeps its positives and negatives; the counts at the threshold are drawn as
binomials of the group's TP and FP rates).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
from threshold_lab.core.doubles import read_typed
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.intervals.closed import CONFIDENCE, Interval, wilson
from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.metrics.metric import Metric, format_count, from_fraction, undefined

#: The rates compared across groups: each one's name in the report and the metric
#: it is (the selection rate is the queue rate, (TP+FP)/n).
GAP_RATES: dict[str, str] = {
    "selection_rate": "queue_rate",
    "tpr": "recall",
    "fpr": "fpr",
    "precision": "precision",
    "accuracy": "accuracy",
}

#: Each gap's name (Fairlearn's where it has one) -> (the rates it reads, difference
#: or ratio). Equalised odds reads two rates and keeps the worse.
GAPS: dict[str, tuple[tuple[str, ...], str]] = {
    "demographic_parity_difference": (("selection_rate",), "difference"),
    "demographic_parity_ratio": (("selection_rate",), "ratio"),
    "equal_opportunity_difference": (("tpr",), "difference"),
    "equal_opportunity_ratio": (("tpr",), "ratio"),
    "false_positive_rate_difference": (("fpr",), "difference"),
    "false_positive_rate_ratio": (("fpr",), "ratio"),
    "equalized_odds_difference": (("tpr", "fpr"), "difference"),
    "equalized_odds_ratio": (("tpr", "fpr"), "ratio"),
    "predictive_parity_difference": (("precision",), "difference"),
    "predictive_parity_ratio": (("precision",), "ratio"),
    "accuracy_difference": (("accuracy",), "difference"),
    "accuracy_ratio": (("accuracy",), "ratio"),
}

#: How each rate is said in a sentence.
RATE_WORDS = {
    "selection_rate": "selection rate",
    "tpr": "TPR",
    "fpr": "FPR",
    "precision": "precision",
    "accuracy": "accuracy",
}


def rate_terms(rate: str, tp: Any, fp: Any, pos: Any, neg: Any) -> tuple[Any, Any]:
    """The numerator and denominator of ``rate`` with ``tp`` and ``fp`` predicted
    positive of ``pos`` positives and ``neg`` negatives (numbers or arrays of points)."""
    if rate == "selection_rate":
        return tp + fp, pos + neg
    if rate == "tpr":
        return tp, pos
    if rate == "fpr":
        return fp, neg
    if rate == "precision":
        return tp, tp + fp
    if rate == "accuracy":
        return tp + (neg - fp), pos + neg
    raise ValueError(rate)


def rate_parts(rate: str, c: Counts) -> tuple[float, float]:
    """The numerator and denominator of ``rate`` at counts ``c``."""
    if rate == "accuracy":  # as the metrics add them (tn, not neg - fp)
        return c.tp + c.tn, c.total
    if rate == "selection_rate":
        return c.tp + c.fp, c.total
    return rate_terms(rate, c.tp, c.fp, c.tp + c.fn, c.fp + c.tn)


@dataclass(frozen=True)
class GroupRates:
    """One group's counts at its threshold, as the gaps read them."""

    name: str
    counts: Counts
    #: Whether the counts are whole numbers (then fractions and Wilson intervals).
    whole: bool

    def rate(self, rate: str) -> tuple[float, float] | None:
        """(numerator, denominator), or None where the rate is undefined here."""
        k, n = rate_parts(rate, self.counts)
        return None if n == 0 else (k, n)


@dataclass(frozen=True)
class Gap:
    """One gap across groups: ``value`` (a difference or a ratio, exact where the
    counts are whole; undefined with its reason), the two ``groups`` it is between
    (the higher rate's first, then the lower's), the ``rate`` it reads (for equalised
    odds, the worse of TPR and FPR), its ``interval`` (differences only) or why none,
    and the groups ``left_out`` because the rate is undefined there."""

    name: str
    kind: str
    rate: str | None
    value: Metric
    groups: tuple[str, str] | None
    interval: Interval | None = None
    interval_reason: str | None = None
    left_out: tuple[tuple[str, str], ...] = ()
    #: The two groups' rates as (numerator, denominator): the higher's, the lower's.
    ends: tuple[tuple[float, float], tuple[float, float]] | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            **self.value.as_json(),
            "groups": None if self.groups is None else list(self.groups),
            "rate": self.rate,
            "kind": self.kind,
            "interval": None if self.interval is None else self.interval.as_json(),
            "rates": None
            if self.ends is None or self.groups is None
            else [
                {"group": g, "numerator": k, "denominator": n}
                for g, (k, n) in zip(self.groups, self.ends, strict=True)
            ],
        }
        if self.interval is None and self.kind == "difference":
            out["interval_reason"] = self.interval_reason
        out["left_out"] = [{"group": g, "reason": why} for g, why in self.left_out]
        return out

    def sentence(self) -> str:
        """``demographic parity difference = 6/10 − 2/10 = 2/5 ≈ 0.4 (selection rate
        of b minus a; 95% CI 0.02 to 0.67, Newcombe)``: the two groups' rates as their
        counts, the gap exact where they are whole."""
        words = self.name.replace("_", " ")
        if self.value.value is None:
            return f"{words}: undefined ({self.value.reason})"
        assert self.groups is not None and self.rate is not None and self.ends is not None
        hi, lo = self.groups
        (khi, nhi), (klo, nlo) = self.ends
        a, b = (
            f"{format_count(khi)}/{format_count(nhi)}",
            f"{format_count(klo)}/{format_count(nlo)}",
        )
        filled = f"{a} − {b}" if self.kind == "difference" else f"({b})/({a})"
        v = self.value
        shown = v.short() if v.exact is not None else f"{v.value:.4f}"
        approx = "" if v.exact is None or v.exact.denominator == 1 else f" ≈ {v.value:.4f}"
        if self.kind == "difference":
            between = f"{RATE_WORDS[self.rate]} of {hi} minus {lo}"
        else:
            between = f"{RATE_WORDS[self.rate]} of {lo} over {hi}"
        ci = ""
        if self.interval is not None:
            ci = f"; {self.interval.text('.3f')}"
        elif self.kind == "difference" and self.interval_reason:
            ci = f"; no interval: {self.interval_reason}"
        out = f"{words} = {filled} = {shown}{approx} ({between}{ci})"
        if self.left_out:
            out += "; left out: " + ", ".join(f"{g} ({why})" for g, why in self.left_out)
        return out


def _exact(k: float, n: float, whole: bool) -> Fraction | None:
    return Fraction(int(k), int(n)) if whole else None


def _reason(rate: str) -> str:
    return {
        "selection_rate": "the group has no rows",
        "tpr": "no actual positives in the group (TP+FN=0)",
        "fpr": "no actual negatives in the group (FP+TN=0)",
        "precision": "no predicted positives in the group (TP+FP=0)",
        "accuracy": "the group has no rows",
    }[rate]


def newcombe(
    k1: float, n1: float, k2: float, n2: float, confidence: float = CONFIDENCE
) -> tuple[float, float]:
    """Newcombe's hybrid score interval for p1 − p2 (method 10), from the two Wilson
    intervals."""
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, confidence)
    l2, u2 = wilson(k2, n2, confidence)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return max(-1.0, low), min(1.0, high)


@dataclass(frozen=True)
class _Spread:
    """One rate across the groups where it is defined: the highest and lowest."""

    rate: str
    defined: list[tuple[GroupRates, float, float]]
    left_out: tuple[tuple[str, str], ...]

    def ends(self) -> tuple[tuple[GroupRates, float, float], tuple[GroupRates, float, float]]:
        """(highest, lowest), each the first group in order among equals."""
        hi = lo = self.defined[0]
        for g in self.defined[1:]:
            if g[1] * hi[2] > hi[1] * g[2]:
                hi = g
            if g[1] * lo[2] < lo[1] * g[2]:
                lo = g
        return hi, lo

    def difference(self) -> tuple[Metric, tuple[str, str]]:
        (ghi, khi, nhi), (glo, klo, nlo) = self.ends()
        whole = ghi.whole and glo.whole
        if whole:
            exact = Fraction(int(khi), int(nhi)) - Fraction(int(klo), int(nlo))
            return from_fraction(exact, float(exact), name=self.rate), (ghi.name, glo.name)
        return Metric(khi / nhi - klo / nlo, None, None, self.rate), (ghi.name, glo.name)

    def ratio(self) -> tuple[Metric, tuple[str, str]]:
        (ghi, khi, nhi), (glo, klo, nlo) = self.ends()
        names = (ghi.name, glo.name)
        if khi == 0:
            return undefined(
                f"the {RATE_WORDS[self.rate]} is 0 in every group", name=self.rate
            ), names
        if ghi.whole and glo.whole:
            exact = Fraction(int(klo), int(nlo)) / Fraction(int(khi), int(nhi))
            return from_fraction(exact, float(exact), name=self.rate), names
        return Metric((klo / nlo) / (khi / nhi), None, None, self.rate), names


def _spread(groups: Sequence[GroupRates], rate: str) -> _Spread:
    defined, left = [], []
    for g in groups:
        r = g.rate(rate)
        if r is None:
            left.append((g.name, _reason(rate)))
        else:
            defined.append((g, r[0], r[1]))
    return _Spread(rate, defined, tuple(left))


def _too_few(name: str, kind: str, s: _Spread) -> Gap | None:
    if len(s.defined) >= 2:
        return None
    words = RATE_WORDS[s.rate]
    why = f"the {words} is defined in {len(s.defined)} group{'' if len(s.defined) == 1 else 's'}"
    why += ", and a gap needs two" if s.defined else ""
    return Gap(
        name,
        kind,
        s.rate,
        undefined(why, name=name),
        None,
        None,
        f"the gap is undefined ({why})",
        s.left_out,
    )


def _newcombe_of(s: _Spread, confidence: float) -> tuple[Interval | None, str | None]:
    (ghi, khi, nhi), (glo, klo, nlo) = s.ends()
    if not (ghi.whole and glo.whole):
        return None, "Wilson's interval needs whole counts (the weights are not whole)"
    low, high = newcombe(khi, nhi, klo, nlo, confidence)
    return Interval(low, high, "newcombe", confidence), None


def compute_gaps(
    groups: Sequence[GroupRates],
    *,
    confidence: float = CONFIDENCE,
    replicates: int | None = None,
    seed: int = 0,
) -> dict[str, Gap]:
    """Every gap of :data:`GAPS` across ``groups`` (two or more), with Newcombe's
    interval on each difference, or a stratified bootstrap's with ``replicates``."""
    spreads = {rate: _spread(groups, rate) for rate in GAP_RATES}
    booted = None
    if replicates is not None:
        booted = _bootstrap(groups, replicates, seed)
    out: dict[str, Gap] = {}
    for name, (rates, kind) in GAPS.items():
        gaps = []
        for rate in rates:
            s = spreads[rate]
            early = _too_few(name, kind, s)
            if early is not None:
                gaps.append(early)
                continue
            value, names = s.difference() if kind == "difference" else s.ratio()
            interval, why = None, None
            if kind == "difference":
                if booted is None:
                    interval, why = _newcombe_of(s, confidence)
                else:
                    interval, why = booted.interval(rate, confidence)
            value = _named(value, name)
            (_, khi, nhi), (_, klo, nlo) = s.ends()
            gaps.append(
                Gap(
                    name,
                    kind,
                    rate,
                    value,
                    names,
                    interval,
                    why,
                    s.left_out,
                    ((khi, nhi), (klo, nlo)),
                )
            )
        out[name] = _worse(gaps, kind, booted, confidence)
    return out


def _named(m: Metric, name: str) -> Metric:
    return dataclasses.replace(m, name=name)


def _worse(gaps: list[Gap], kind: str, booted: _Boot | None, confidence: float) -> Gap:
    """One rate's gap, or for equalised odds the worse of two: the larger difference
    or the smaller ratio (TPR's when they tie); undefined only if both are."""
    if len(gaps) == 1:
        return gaps[0]
    defined = [g for g in gaps if g.value.value is not None]
    if not defined:
        return gaps[0]
    if len(defined) < len(gaps):
        # One rate is undefined: the other stands for both, and the left-out are named.
        g = defined[0]
        missing = next(x for x in gaps if x.value.value is None)
        said = (f"the {RATE_WORDS[str(missing.rate)]} gap", str(missing.value.reason))
        return dataclasses.replace(g, left_out=(*g.left_out, said))
    a, b = defined
    va, vb = float(a.value.value or 0), float(b.value.value or 0)
    pick = a if (va >= vb if kind == "difference" else va <= vb) else b
    if kind == "difference" and booted is not None:
        interval, why = booted.interval_of_worst(confidence)
        return dataclasses.replace(pick, interval=interval, interval_reason=why)
    return pick


@dataclass(frozen=True)
class _Boot:
    """Each rate's largest difference across groups in every replicate (NaN where
    fewer than two groups have it defined)."""

    differences: Mapping[str, np.ndarray[Any, np.dtype[np.float64]]]
    replicates: int
    seed: int
    reason: str | None

    def _interval(
        self, d: np.ndarray[Any, np.dtype[np.float64]], confidence: float
    ) -> tuple[Interval | None, str | None]:
        if self.reason is not None:
            return None, self.reason
        kept = d[~np.isnan(d)]
        if kept.size == 0:
            return None, "undefined in every replicate"
        alpha = (1 - confidence) / 2
        low, high = np.quantile(kept, [alpha, 1 - alpha])
        return Interval(
            float(low),
            float(high),
            "bootstrap",
            confidence,
            replicates=self.replicates,
            seed=self.seed,
        ), None

    def interval(self, rate: str, confidence: float) -> tuple[Interval | None, str | None]:
        return self._interval(self.differences[rate], confidence)

    def interval_of_worst(self, confidence: float) -> tuple[Interval | None, str | None]:
        both = np.fmax(self.differences["tpr"], self.differences["fpr"])
        return self._interval(both, confidence)


def _bootstrap(groups: Sequence[GroupRates], replicates: int, seed: int) -> _Boot:
    """Draws within each group and class: a group's TP is Binomial(P, TP/P) and its FP
    Binomial(N, FP/N), so its positives and negatives stay as they are."""
    empty = {rate: np.full(replicates, np.nan) for rate in GAP_RATES}
    if not all(g.whole for g in groups):
        return _Boot(
            empty, replicates, seed, "the bootstrap draws whole rows (the weights are not whole)"
        )
    rng = np.random.default_rng(seed)
    tp, fp, pos, neg = [], [], [], []
    for g in groups:
        c = g.counts
        p, n = int(c.tp + c.fn), int(c.fp + c.tn)
        tp.append(
            rng.binomial(p, c.tp / p if p else 0.0, replicates) if p else np.zeros(replicates)
        )
        fp.append(
            rng.binomial(n, c.fp / n if n else 0.0, replicates) if n else np.zeros(replicates)
        )
        pos.append(p)
        neg.append(n)
    TP = np.array(tp, dtype=np.float64)  # groups x replicates
    FP = np.array(fp, dtype=np.float64)
    P = np.array(pos, dtype=np.float64)[:, None]
    N = np.array(neg, dtype=np.float64)[:, None]
    parts = {
        "selection_rate": (TP + FP, np.broadcast_to(P + N, TP.shape)),
        "tpr": (TP, np.broadcast_to(P, TP.shape)),
        "fpr": (FP, np.broadcast_to(N, TP.shape)),
        "precision": (TP, TP + FP),
        "accuracy": (TP + (N - FP), np.broadcast_to(P + N, TP.shape)),
    }
    out = {}
    with np.errstate(invalid="ignore", divide="ignore"):
        for rate, (k, den) in parts.items():
            r = np.where(den > 0, k / np.where(den > 0, den, 1), np.nan)
            enough = np.sum(~np.isnan(r), axis=0) >= 2
            d = np.nanmax(np.where(enough, r, 0.0), axis=0) - np.nanmin(
                np.where(enough, r, 0.0), axis=0
            )
            out[rate] = np.where(enough, d, np.nan)
    return _Boot(out, replicates, seed, None)


def parse_max_gap(text: str) -> tuple[str, float]:
    """``"equal_opportunity_difference 0.05"`` -> (name, limit): a gap named in
    :data:`GAPS` and a number, refused naming what is wrong."""
    parts = text.replace("=", " ").split()
    if len(parts) != 2:
        raise InputError(
            f"--max-gap {quoted(text)}: give a gap's name and a number, as "
            "'equal_opportunity_difference 0.05'"
        )
    name, number = parts
    if name not in GAPS:
        raise InputError(
            f"--max-gap {quoted(text)}: no gap named {quoted(name)}; the gaps are: "
            f"{', '.join(GAPS)}"
        )
    try:
        limit = read_typed(number)
    except ValueError:
        raise InputError(f"--max-gap {quoted(text)}: {quoted(number)} is not a number") from None
    if not math.isfinite(limit) or limit < 0:
        raise InputError(f"--max-gap {quoted(text)}: the limit must be a finite number >= 0")
    return name, limit


def gap_exceeded(gap: Gap, limit: float) -> str | None:
    """Why ``gap`` fails ``limit`` (a difference above it, a ratio below it), or None.
    An undefined gap fails too: nothing shows it is within the limit."""
    passed, said = gap_within(gap, limit)
    return None if passed else said


def gap_bound(gap_name: str, limit: float) -> str:
    """The condition ``--max-gap`` sets, as a test's name: ``equal_opportunity_difference
    <= 0.05``, ``demographic_parity_ratio >= 0.8``."""
    return f"{gap_name} {'>=' if GAPS[gap_name][1] == 'ratio' else '<='} {limit:g}"


def gap_within(gap: Gap, limit: float) -> tuple[bool, str]:
    """Whether ``gap`` is within ``limit`` (a difference at most it, a ratio at least
    it), and the value against the bound either way. Undefined fails: nothing shows
    it is within the limit."""
    v = gap.value.value
    words = gap.name.replace("_", " ")
    if v is None:
        return False, f"{gap.name} is undefined ({gap.value.reason}), so not within {limit:g}"
    assert gap.groups is not None
    hi, lo = gap.groups
    if gap.kind == "difference":
        sign = ">" if v > limit else "<="
        return v <= limit, f"{gap.name} = {v:.4g} {sign} {limit:g} ({words}: {hi} against {lo})"
    sign = "<" if v < limit else ">="
    return v >= limit, f"{gap.name} = {v:.4g} {sign} {limit:g} ({words}: {lo} against {hi})"
