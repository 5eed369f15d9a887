"""Closed-form intervals: Wilson's score interval for a proportion, and DeLong's
variance for ROC AUC (ties between a positive and a negative count one half).

Both count examples: with weights they apply only when every weight is whole
(weights are then multiplicities, as aggregated counts are); otherwise the
interval is None and the reason says why.
"""

from __future__ import annotations

import decimal
import math
from dataclasses import dataclass
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import blocks, dot, shifted
from threshold_lab.core.curves.roc import segment_sum
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.curves.tie_pass import Moments
from threshold_lab.core.doubles import read_typed
from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.metrics.formulas import RATES, Cells
from threshold_lab.core.metrics.metric import format_count

#: The confidence intervals are computed at unless asked otherwise.
CONFIDENCE = 0.95

NOT_WHOLE = "the weights are not whole numbers, so they are not counts of examples"


@dataclass(frozen=True)
class Interval:
    """A confidence interval: ``low`` to ``high`` at ``confidence``, by ``method``;
    ``n`` is the count it rests on (the proportion's denominator)."""

    low: float
    high: float
    method: str
    confidence: float
    n: float | None = None
    #: A bootstrap's replicates and seed.
    replicates: int | None = None
    seed: int | None = None
    #: Why a bootstrap interval has no width (its ends equal), from its replicates
    #: (:func:`same_value_words`); without it, what equal percentiles alone imply.
    same: str | None = None

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {
            "low": self.low,
            "high": self.high,
            "method": self.method,
            "confidence": self.confidence,
        }
        if self.replicates is not None:
            out["replicates"] = self.replicates
            out["seed"] = self.seed
        return out

    def digits(self) -> int:
        """Decimals enough to tell the ends apart: 2, or more for a narrow interval
        (two significant digits of its width), at most 6."""
        width = self.high - self.low
        if not (width > 0 and math.isfinite(width)):
            return 2
        return max(2, min(6, math.ceil(-math.log10(width)) + 1))

    def no_width(self) -> str | None:
        """Why a bootstrap interval's ends are equal (``every replicate gave the same
        value``), or None: it has width, or is not a bootstrap's."""
        if self.method != "bootstrap" or self.low != self.high:
            return None
        pct = percent(self.confidence)
        return self.same or f"the middle {pct} of replicates gave the same value"

    def _why(self) -> str:
        why = self.no_width()
        return "" if why is None else f"; {why}"

    def text(self, spec: str | None = None) -> str:
        """``95% CI 0.21 to 0.94, Wilson, n = 3``; a bootstrap says ``bootstrap, B = 1000``;
        a narrow interval gets more decimals (:meth:`digits`); a bootstrap's of no width
        says why (:meth:`no_width`)."""
        spec = spec or f".{self.digits()}f"
        pct = percent(self.confidence)
        names = {"wilson": "Wilson", "delong": "DeLong", "newcombe": "Newcombe"}
        name = names.get(self.method, self.method)
        if self.replicates is not None:
            name += f", B = {self.replicates}"
        n = "" if self.n is None else f", n = {_count(self.n)}"
        return f"{pct} CI {self.low:{spec}} to {self.high:{spec}}, {name}{n}{self._why()}"

    def short(self) -> str:
        """For a narrow screen: ``95% CI 0.21 to 0.94, n = 3`` (a bootstrap's says so)."""
        pct = percent(self.confidence)
        n = "" if self.n is None else f", n = {_count(self.n)}"
        how = ", bootstrap" if self.method == "bootstrap" else ""
        d = self.digits()
        return f"{pct} CI {self.low:.{d}f} to {self.high:.{d}f}{n}{how}{self._why()}"


def same_value_words(values: npt.NDArray[np.float64], confidence: float, undefined: int) -> str:
    """Why a percentile interval of ``values`` (the replicates with a value; ``undefined``
    more had none) has no width: every replicate agreed, or only its middle share did."""
    ok = values[np.isfinite(values)]
    some = " with a value" if undefined else ""
    if ok.size and bool(np.all(ok == ok[0])):
        return f"every replicate{some} gave the same value"
    return f"the middle {percent(confidence)} of replicates{some} gave the same value"


def _count(x: float) -> str:
    """``3``, ``193391``: written as the counts beside it are (``1178 of 5000``, ``TP
    791``), one number style in a line."""
    return format_count(x)


def z_for(confidence: float) -> float:
    """The standard normal quantile at 1 - (1 - c)/2 (1.959964 for 0.95)."""
    return NormalDist().inv_cdf(1 - (1 - confidence) / 2)


def parse_confidence(text: str) -> float:
    """A typed confidence: a number strictly between 0 and 1, a decimal or one fraction
    (19/20) (raises ValueError)."""
    if text.strip().endswith("%"):
        raise ValueError(f"confidence {text!r}: give a fraction like 0.95, not a percentage")
    try:
        c = read_typed(text)
    except ValueError:
        raise ValueError(f"confidence {text!r} is not a number") from None
    return check_confidence(c)


#: The highest confidence a double's normal quantile tells from 1: 1 − 2⁻⁵²; above
#: it 1 − (1 − c)/2 rounds to 1 and the quantile is infinite. (The lowest taken is
#: 0.5: an interval less likely than not to cover is no statement of sureness.)
HIGHEST_CONFIDENCE = 1 - 2**-52


def check_confidence(c: float) -> float:
    """``c`` if it is a confidence the intervals can be computed at (raises ValueError).

    >>> check_confidence(0.9999999999999999)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ValueError: confidence 0.9999999999999999 is out of range: give one from 0.5 to ...
    """
    if not (math.isfinite(c) and 0 < c < 1):
        raise ValueError(f"confidence {c} is not strictly between 0 and 1")
    if not 0.5 <= c <= HIGHEST_CONFIDENCE:
        raise ValueError(
            f"confidence {c!r} is out of range: give one from 0.5 to "
            f"{HIGHEST_CONFIDENCE!r} (closer to 1 its normal quantile is infinite)"
        )
    return c


def percent(c: float) -> str:
    """A confidence as a percentage, every digit kept: ``95%``, ``99.99999999999998%``.

    >>> percent(0.95), percent(0.999), percent(0.9999999999999998)
    ('95%', '99.9%', '99.99999999999998%')
    """
    exact = (decimal.Decimal(repr(c)) * 100).normalize()
    return format(exact, "f") + "%"


def wilson(k: float, n: float, confidence: float = CONFIDENCE) -> tuple[float, float]:
    """Wilson's score interval for ``k`` successes of ``n`` (n > 0).

    >>> [round(x, 4) for x in wilson(2, 3)]
    [0.2077, 0.9385]
    """
    z = z_for(confidence)
    p = k / n
    z2n = z * z / n
    centre = (p + z2n / 2) / (1 + z2n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z2n)
    # At k = 0 the low end is exactly 0 (and at k = n the high end 1): no float dust.
    low = 0.0 if k == 0 else max(0.0, centre - half)
    high = 1.0 if k == n else min(1.0, centre + half)
    return low, high


def proportion_interval(
    name: str, counts: Counts, *, whole: bool, confidence: float = CONFIDENCE
) -> tuple[Interval | None, str | None]:
    """The Wilson interval of proportion ``name`` at ``counts``, or None and why.
    Metrics that are not proportions have none here (None, None)."""
    if name == "lift":  # precision's interval over the prevalence (fixed by the design)
        p_interval, why = proportion_interval(
            "precision", counts, whole=whole, confidence=confidence
        )
        prevalence = (counts.tp + counts.fn) / counts.total if counts.total else 0
        if p_interval is None or not prevalence:
            return None, why or "the metric is undefined (the prevalence is 0)"
        return Interval(
            p_interval.low / prevalence,
            p_interval.high / prevalence,
            "wilson",
            confidence,
            p_interval.n,
        ), None
    rate = RATES.get(name)
    if rate is None:
        return None, None
    k, n = rate.parts(Cells(*counts.cells()), Fraction(1))
    if n == 0:
        return None, "the metric is undefined (its denominator is 0)"
    if not whole:
        return None, NOT_WHOLE
    low, high = wilson(float(k), float(n), confidence)
    return Interval(low, high, "wilson", confidence, float(n)), None


def auc_interval(auc: float, se: float, confidence: float = CONFIDENCE) -> Interval:
    """AUC ± z·SE, clipped to [0, 1] (pROC's default)."""
    z = z_for(confidence)
    return Interval(max(0.0, auc - z * se), min(1.0, auc + z * se), "delong", confidence)


def delong(
    sweep: Sweep, confidence: float = CONFIDENCE
) -> tuple[Interval | None, float | None, str | None]:
    """ROC AUC's DeLong interval: (interval, standard error, reason)."""
    auc, se, reason = delong_se(sweep)
    if auc is None or se is None:
        return None, None, reason
    return auc_interval(auc, se, confidence), se, None


def delong_from_moments(
    sweep: Sweep, auc: float, positives_fp: Moments, negatives_tp: Moments
) -> tuple[float | None, float | None, str | None]:
    """:func:`delong_se` from the spreads one pass over the groups gives: of FP + FP′
    over the positives and of TP + TP′ over the negatives (each twice a placement in
    counts), taken about their means here, where the AUC is known. Whole counts."""
    pos, neg = float(sweep.positives), float(sweep.negatives)
    if pos < 2 or neg < 2:
        return None, None, "DeLong's variance needs at least two actual positives and two negatives"
    # A positive's placement is (N − (FP + FP′)/2)/N about its mean 1 − AUC, so its
    # deviation is that of (FP + FP′) about 2·(1 − AUC)·N, halved; a negative's likewise.
    s10 = positives_fp.about(2 * (1.0 - auc) * neg) / 4 / (neg * neg)
    s01 = negatives_tp.about(2 * auc * pos) / 4 / (pos * pos)
    s10, s01 = s10 / (pos - 1), s01 / (neg - 1)
    return auc, math.sqrt(max(s10 / pos + s01 / neg, 0.0)), None


def delong_se(sweep: Sweep) -> tuple[float | None, float | None, str | None]:
    """ROC AUC and DeLong's standard error from the tie groups: (AUC, SE, reason).

    Every positive in a tie group has the same placement value (the share of
    negatives scored below it, ties counting one half), and so has every negative,
    so the structural components' variances are sums over groups: O(distinct scores).
    """
    pos, neg = float(sweep.positives), float(sweep.negatives)
    if not sweep.whole_counts():
        return None, None, NOT_WHOLE
    if pos < 2 or neg < 2:
        return None, None, "DeLong's variance needs at least two actual positives and two negatives"

    # The mean placement is the AUC itself, read exactly off the AUC's running sums
    # (one pass of integers when the AUC was not summed yet). Then one pass in
    # cache-sized blocks for the spread: within group g (points k − 1 to k) a
    # positive's placement less the AUC is ((1 − AUC)·N − (FP_k + FP_{k−1})/2) / N and
    # a negative's is ((TP_{k−1} + TP_k)/2 − AUC·P) / P, so no placement is formed.
    m = sweep.size - 1
    tp, fp = sweep.tp, sweep.fp
    if sweep.whole_counts(limit=2**31):  # Σ ΔFP·(TP + TP′) stays inside int64
        auc = float(Fraction(segment_sum(sweep, 1, m), 2 * int(pos) * int(neg)))
    else:  # the mean placement of the positives, in floats
        auc = 0.0
        for b in blocks(1, m + 1, 1 << 16):
            before = shifted(b, -1)
            v10 = (fp[b] + fp[before]).astype(np.float64)
            v10 *= -0.5
            v10 += neg
            auc += dot((tp[b] - tp[before]).astype(np.float64), v10)
        auc /= pos * neg
    c10, c01 = (1.0 - auc) * neg, auc * pos
    s10 = s01 = 0.0
    for b in blocks(1, m + 1, 1 << 16):
        before = shifted(b, -1)
        # Sums and differences in the counts' own type, then one conversion each: numpy
        # converting inside the sum (dtype=) took half as long again.
        x = (fp[b] + fp[before]).astype(np.float64)
        x *= -0.5
        x += c10
        x *= x
        s10 += dot((tp[b] - tp[before]).astype(np.float64), x)
        y = (tp[b] + tp[before]).astype(np.float64)
        y *= 0.5
        y -= c01
        y *= y
        s01 += dot((fp[b] - fp[before]).astype(np.float64), y)
    s10, s01 = s10 / (neg * neg), s01 / (pos * pos)
    s10, s01 = s10 / (pos - 1), s01 / (neg - 1)
    se = math.sqrt(max(s10 / pos + s01 / neg, 0.0))
    return auc, se, None
