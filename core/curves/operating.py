"""Operating points at fixed rates, and the area of a part of the ROC curve.

A **readout** answers "what recall at a 1% false-positive rate": among the sweep's
points (the above-all point included) with FPR <= x, the one with the highest TPR,
and among those the highest threshold (``tpr_at_fpr``); or, among the points with
TPR >= y, the lowest FPR, and among those the highest threshold (``fpr_at_tpr``).
That point is one a person can deploy: its threshold, its counts. Beside it, the
ROC polyline's value at exactly x (or y), linearly interpolated between two points,
which no single threshold attains.

A **partial AUC** is the exact area of the ROC polyline inside a region: for the
``fpr`` focus ∫ TPR dFPR over FPR in [A, B]; for the ``tpr`` focus ∫ (1 − FPR) dTPR
over TPR in [A, B], each with linear interpolation at A and B, and McClish's
standardisation (1 + (area − min)/(max − min))/2 with max = B − A and min the
chance line's area there.

Both need only binary searches on the sweep's counts (which never fall along the
sweep) and, for the area, one pass over the points inside the region: under 1% of
the sweep at 10^7 rows. With whole counts every number is an exact fraction.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Literal

import numpy as np
from threshold_lab.core.blocks import blocks, dot, shifted
from threshold_lab.core.curves.roc import segment_sum
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.doubles import read_typed
from threshold_lab.core.errors import InputError
from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.metrics.formulas import NO_ACTUAL_NEG, NO_ACTUAL_POS
from threshold_lab.core.metrics.metric import Metric, from_fraction, ratio, undefined
from threshold_lab.core.threshold import Threshold

Kind = Literal["tpr_at_fpr", "fpr_at_tpr"]
Focus = Literal["fpr", "tpr"]

#: The readouts every report shows: TPR at these FPRs, FPR at these TPRs.
DEFAULT_READOUTS: tuple[tuple[Kind, float], ...] = (
    ("tpr_at_fpr", 0.001),
    ("tpr_at_fpr", 0.01),
    ("tpr_at_fpr", 0.05),
    ("tpr_at_fpr", 0.1),
    ("fpr_at_tpr", 0.9),
    ("fpr_at_tpr", 0.95),
    ("fpr_at_tpr", 0.99),
)

_RATE = {"fpr": "tpr_at_fpr", "tpr": "fpr_at_tpr"}


def _rate(text: str, where: str) -> float:
    try:
        x = read_typed(text)
    except ValueError:
        raise InputError(f"{where}: {text!r} is not a number") from None
    if not 0.0 <= x <= 1.0:  # NaN fails too
        raise InputError(f"{where}: {text!r} is not a rate in [0, 1]")
    return x


def parse_readouts(text: str) -> tuple[tuple[Kind, float], ...]:
    """``"fpr 0.001,0.01"`` (TPR at each FPR) or ``"tpr 0.9,0.95"`` (FPR at each TPR).

    >>> parse_readouts("fpr 0.01, 0.1")
    (('tpr_at_fpr', 0.01), ('tpr_at_fpr', 0.1))
    >>> parse_readouts("recall 0.9")
    Traceback (most recent call last):
    ...
    threshold_lab.core.errors.InputError: readout 'recall 0.9': start with fpr (TPR at each FPR) ...
    """
    words = text.strip().split(None, 1)
    if len(words) != 2 or words[0].lower() not in _RATE:
        raise InputError(
            f"readout {text!r}: start with fpr (TPR at each FPR) or tpr (FPR at each TPR), "
            "then rates such as 0.01,0.05"
        )
    kind: Kind = "tpr_at_fpr" if words[0].lower() == "fpr" else "fpr_at_tpr"
    rates = [r.strip() for r in words[1].split(",")]
    if any(not r for r in rates):
        raise InputError(f"readout {text!r}: an empty rate between commas")
    return tuple((kind, _rate(r, f"readout {text!r}")) for r in rates)


def parse_partial_auc(text: str) -> tuple[Focus, float, float]:
    """``"fpr:0-0.1"`` (FPR from 0 to 0.1) or ``"tpr:0.9-1"``; also ``"fpr 0 0.1"``.

    >>> parse_partial_auc("fpr:0-0.1"), parse_partial_auc("tpr 0.9 1")
    (('fpr', 0.0, 0.1), ('tpr', 0.9, 1.0))
    >>> parse_partial_auc("fpr:0.2-0.1")
    Traceback (most recent call last):
    ...
    threshold_lab.core.errors.InputError: partial AUC 'fpr:0.2-0.1': the low end 0.2 is not ...
    """
    t = text.strip()
    focus, _, rest = t.partition(":") if ":" in t else t.partition(" ")
    focus = focus.strip().lower()
    rest = rest.strip()
    ends = rest.split("-") if "-" in rest and " " not in rest else rest.split()
    if focus not in ("fpr", "tpr") or len(ends) != 2:
        raise InputError(
            f"partial AUC {text!r}: give the focus and the range, as fpr:0-0.1 (FPR from 0 "
            "to 0.1) or tpr:0.9-1 (TPR from 0.9 to 1)"
        )
    where = f"partial AUC {text!r}"
    low, high = _rate(ends[0], where), _rate(ends[1], where)
    if not low < high:
        raise InputError(f"{where}: the low end {low!r} is not below the high end {high!r}")
    return ("fpr" if focus == "fpr" else "tpr"), low, high


@dataclass(frozen=True)
class Readout:
    """One readout: the deployable point (``point``, its threshold and counts, its TPR
    and FPR), and the polyline's ``interpolated`` value at exactly ``limit``."""

    kind: Kind
    limit: float
    point: int | None
    threshold: Threshold
    counts: Counts | None
    tpr: Metric
    fpr: Metric
    interpolated: Metric
    reason: str | None = None

    @property
    def asked(self) -> str:
        """``TPR at FPR <= 0.01`` or ``FPR at TPR >= 0.9``."""
        if self.kind == "tpr_at_fpr":
            return f"TPR at FPR <= {self.limit:g}"
        return f"FPR at TPR >= {self.limit:g}"

    @property
    def value(self) -> Metric:
        """The rate read out: TPR for ``tpr_at_fpr``, FPR for ``fpr_at_tpr``."""
        return self.tpr if self.kind == "tpr_at_fpr" else self.fpr


def _last_at_most(counts: Any, total: Any, x: float | Fraction, whole: bool) -> int:
    """The last point whose rate counts[k]/total is <= x (counts never fall)."""
    if whole:
        # counts[k] <= x·total exactly: the largest whole count not above it.
        bound = (_decimal(x) * int(total)).__floor__()
        return int(np.searchsorted(counts, bound, side="right")) - 1
    k = int(np.searchsorted(counts, x * float(total), side="right")) - 1
    # The rate as the metric computes it (a float division), never above x.
    while k > 0 and float(counts[k]) / float(total) > x:
        k -= 1
    while k + 1 < counts.shape[0] and float(counts[k + 1]) / float(total) <= x:
        k += 1
    return k


def _first_at_least(counts: Any, total: Any, y: float | Fraction, whole: bool) -> int:
    """The first point whose rate counts[k]/total is >= y (the last point has rate 1)."""
    if whole:
        bound = -((-_decimal(y) * int(total)).__floor__())  # the ceiling of y·total
        return int(np.searchsorted(counts, bound, side="left"))
    k = int(np.searchsorted(counts, y * float(total), side="left"))
    k = min(k, int(counts.shape[0]) - 1)
    while k > 0 and float(counts[k - 1]) / float(total) >= y:
        k -= 1
    while k + 1 < counts.shape[0] and float(counts[k]) / float(total) < y:
        k += 1
    return k


def _rate_metric(count: Any, total: Any, name: str, whole: bool) -> Metric:
    formula = "TP/(TP+FN)" if name == "TPR" else "FP/(FP+TN)"
    reason = NO_ACTUAL_POS if name == "TPR" else NO_ACTUAL_NEG
    return ratio(count, total, reason=reason, name=name, formula=formula, exact_ok=whole)


def _exact_or_float(value: Fraction | float, name: str, formula: str) -> Metric:
    if isinstance(value, Fraction):
        return from_fraction(value, float(value), name=name, formula=formula)
    return Metric(float(value), None, None, name, formula)


def _between(
    x: float | Fraction, x0: Any, x1: Any, y0: Any, y1: Any, whole: bool
) -> Fraction | float:
    """The line through (x0, y0) and (x1, y1) at x (x0 < x1), exact with whole counts."""
    if whole:
        fx = _decimal(x)
        return Fraction(y0) + (Fraction(y1) - Fraction(y0)) * (fx - Fraction(x0)) / (
            Fraction(x1) - Fraction(x0)
        )
    return float(y0) + (float(y1) - float(y0)) * (x - float(x0)) / (float(x1) - float(x0))


def readout(sweep: Sweep, kind: Kind, limit: float) -> Readout:
    """The readout ``kind`` at ``limit`` of ``sweep`` (see the module's rules).

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> r = readout(build_sweep(preset("canonical").data), "tpr_at_fpr", 0.5)
    >>> r.threshold, r.tpr.short(), r.fpr.short(), r.interpolated.short()
    (0.8, '2/3', '1/2', '2/3')
    """
    P, N = sweep.positives, sweep.negatives
    whole = sweep.whole_counts()
    name = "TPR" if kind == "tpr_at_fpr" else "FPR"
    missing = NO_ACTUAL_POS if P == 0 else NO_ACTUAL_NEG if N == 0 else None
    if missing is not None:
        why = f"{missing}: TPR and FPR are not both defined"
        u = undefined(why, name=name)
        return Readout(kind, limit, None, None, None, u, u, undefined(why), why)
    k, interp = _read(sweep, kind, limit, whole)
    how = f"the ROC polyline's {'TPR at FPR' if kind == 'tpr_at_fpr' else 'FPR at TPR'} = "
    how += f"{limit:g}, interpolated"
    counts = sweep.counts_at(k)
    return Readout(
        kind,
        limit,
        k,
        sweep.threshold_at(k),
        counts,
        _rate_metric(sweep.tp[k].item(), P, "TPR", whole),
        _rate_metric(sweep.fp[k].item(), N, "FPR", whole),
        _exact_or_float(interp, "interpolated " + name, how),
    )


def _read(
    sweep: Sweep, kind: Kind, limit: float | Fraction, whole: bool
) -> tuple[int, Fraction | float]:
    """The readout's point and the polyline's value at exactly ``limit`` (a Fraction
    is taken as it is; a float as the decimal written). Where the polyline is vertical
    at ``limit`` (several points share that FPR), the highest TPR; where it is
    horizontal (several share that TPR), the lowest FPR: pROC's ``coords`` picks the
    same."""
    P, N = sweep.positives, sweep.negatives
    tp, fp = sweep.tp, sweep.fp
    last = sweep.size - 1
    if kind == "tpr_at_fpr":
        k_max = _last_at_most(fp, N, limit, whole)  # FPR <= x: points 0..k_max
        k = _highest_threshold(tp, k_max)
        if k_max == last or _rate_of(fp[k_max], N, whole) == _exact(limit, whole):
            return k, _rate_of(tp[k_max], P, whole)
        # FPR crosses x on the segment from k_max to k_max + 1
        return k, _between(
            limit,
            _rate_of(fp[k_max], N, whole),
            _rate_of(fp[k_max + 1], N, whole),
            _rate_of(tp[k_max], P, whole),
            _rate_of(tp[k_max + 1], P, whole),
            whole,
        )
    k = _first_at_least(tp, P, limit, whole)  # TPR >= y from k on; FPR lowest at k
    if k == 0 or _rate_of(tp[k], P, whole) == _exact(limit, whole):
        return k, _rate_of(fp[k], N, whole)
    # TPR crosses y on the segment from k − 1 to k
    return k, _between(
        limit,
        _rate_of(tp[k - 1], P, whole),
        _rate_of(tp[k], P, whole),
        _rate_of(fp[k - 1], N, whole),
        _rate_of(fp[k], N, whole),
        whole,
    )


def interpolated(sweep: Sweep, kind: Kind, limit: float | Fraction) -> Fraction | float:
    """The ROC polyline's TPR at FPR = ``limit`` (``tpr_at_fpr``) or FPR at TPR =
    ``limit`` (``fpr_at_tpr``): exact with whole counts (``limit`` a Fraction, or a
    float read as its decimal); the sweep must have both classes.

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> interpolated(build_sweep(preset("canonical").data), "tpr_at_fpr", Fraction(1, 4))
    Fraction(1, 2)
    """
    return _read(sweep, kind, limit, sweep.whole_counts())[1]


def _decimal(x: float | Fraction) -> Fraction:
    """The rate as the person wrote it: 0.01 is 1/100, not the float nearest it (a
    Fraction is already exact)."""
    if isinstance(x, Fraction):
        return x
    return Fraction(repr(float(x)))


def _highest_threshold(tp: Any, k_max: int) -> int:
    """The first point with point ``k_max``'s TP (the highest threshold among them)."""
    return int(np.searchsorted(tp, tp[k_max], side="left"))


def readout_rates(sweep: Sweep, kind: Kind, limit: float) -> tuple[float, float]:
    """(TPR, FPR) of the readout's point, as floats (NaN without both classes): what
    a bootstrap replicate reads off its own curve, without the fractions.

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> readout_rates(build_sweep(preset("canonical").data), "tpr_at_fpr", 0.5)
    (0.6666666666666666, 0.5)
    """
    P, N = sweep.positives, sweep.negatives
    if P == 0 or N == 0:
        return math.nan, math.nan
    whole = sweep.whole_counts()
    if kind == "tpr_at_fpr":
        k = _highest_threshold(sweep.tp, _last_at_most(sweep.fp, N, limit, whole))
    else:
        k = _first_at_least(sweep.tp, P, limit, whole)
    return float(sweep.tp[k]) / float(P), float(sweep.fp[k]) / float(N)


def _exact(x: float | Fraction, whole: bool) -> Fraction | float:
    return _decimal(x) if whole else float(x)


def _rate_of(count: Any, total: Any, whole: bool) -> Fraction | float:
    if whole:
        return Fraction(int(count), int(total))
    return float(count) / float(total)


def readout_key(kind: Kind, limit: float, rate: str) -> str:
    """The name a readout's ``tpr`` or ``fpr`` has among a bootstrap's estimates."""
    return f"readout {kind} {limit!r} {rate}"


def partial_auc_key(focus: Focus, low: float, high: float, part: str) -> str:
    """The name a partial AUC's ``area`` or ``standardised`` value has among a
    bootstrap's estimates."""
    return f"partial_auc {focus} {low!r} {high!r} {part}"


def readouts(sweep: Sweep, asked: tuple[tuple[Kind, float], ...]) -> tuple[Readout, ...]:
    """Every readout asked for, in order."""
    return tuple(readout(sweep, kind, limit) for kind, limit in asked)


@dataclass(frozen=True)
class PartialAUC:
    """The ROC polyline's area inside ``focus`` in [low, high], and McClish's
    standardisation (undefined below the chance line)."""

    focus: Focus
    low: float
    high: float
    area: Metric
    standardised: Metric

    @property
    def asked(self) -> str:
        """``FPR 0 to 0.1``."""
        return f"{self.focus.upper()} {self.low:g} to {self.high:g}"


def _piece(sweep: Sweep, focus: Focus, k: int, x: float, whole: bool) -> Fraction | float:
    """The area along ``focus`` from point ``k``'s rate up to ``x`` on the segment
    from point k to k + 1 (k is the last point at or below x; the segment has width)."""
    if k >= sweep.size - 1:
        return Fraction(0) if whole else 0.0
    P, N = sweep.positives, sweep.negatives
    along, other = (sweep.fp, sweep.tp) if focus == "fpr" else (sweep.tp, sweep.fp)
    a_total, o_total = (N, P) if focus == "fpr" else (P, N)
    a0, a1 = _rate_of(along[k], a_total, whole), _rate_of(along[k + 1], a_total, whole)
    o0, o1 = _rate_of(other[k], o_total, whole), _rate_of(other[k + 1], o_total, whole)
    if focus == "tpr":
        o0, o1 = 1 - o0, 1 - o1
    ox = _between(x, a0, a1, o0, o1, whole)
    width = (_decimal(x) if whole else x) - a0
    return width * (o0 + ox) / 2


def _segments(sweep: Sweep, focus: Focus, first: int, last: int, whole: bool) -> Fraction | float:
    """The area of the polyline's segments ``first`` .. ``last`` (segment k joins
    point k − 1 to point k), one pass over those points only."""
    P, N = sweep.positives, sweep.negatives
    along, other = (sweep.fp, sweep.tp) if focus == "fpr" else (sweep.tp, sweep.fp)
    a_total, o_total = (N, P) if focus == "fpr" else (P, N)
    if whole:
        # Twice the area times P·N, in integers: for the fpr focus Σ Δfp·(tp + tp′);
        # for the tpr focus Σ Δtp·(2N − fp − fp′) = 2N·(tp_last − tp_first−1) − Σ Δtp·(fp + fp′).
        # Both come from the FPR focus's Σ ΔFP·(TP + TP′), which the AUC's pass keeps
        # running sums of: ΔTP·(FP + FP′) + ΔFP·(TP + TP′) = 2·(FP′·TP′ − FP·TP), so
        # over segments first..last the TPR focus's sum is the telescoped product
        # less the FPR focus's.
        twice = segment_sum(sweep, first, last)
        if focus == "tpr" and last >= first:
            fp, tp = sweep.fp, sweep.tp
            end = int(fp[last]) * int(tp[last]) - int(fp[first - 1]) * int(tp[first - 1])
            twice = 2 * end - twice
            twice = 2 * int(N) * (int(tp[last]) - int(tp[first - 1])) - twice
        return Fraction(twice, 2 * int(P) * int(N))
    total = 0.0
    for b in blocks(first, last + 1):
        before = shifted(b, -1)
        width = (along[b] - along[before]) / float(a_total)
        heights = (other[b] + other[before]) / float(o_total)
        if focus == "tpr":
            heights = 2.0 - heights
        total += dot(width, heights) / 2
    return total


def partial_auc(sweep: Sweep, focus: Focus, low: float, high: float) -> PartialAUC:
    """The partial AUC of ``sweep`` over ``focus`` in [low, high].

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> p = partial_auc(build_sweep(preset("canonical").data), "fpr", 0.0, 0.5)
    >>> p.area.short(), p.standardised.short()
    ('1/4', '2/3')
    """
    name = f"partial AUC, {focus.upper()} {low:g} to {high:g}"
    formula = "∫ TPR dFPR" if focus == "fpr" else "∫ (1 − FPR) dTPR"
    s_formula = "(1 + (area − min)/(max − min))/2"
    P, N = sweep.positives, sweep.negatives
    if P == 0 or N == 0:
        why = f"{NO_ACTUAL_POS if P == 0 else NO_ACTUAL_NEG}: there is no ROC curve"
        u = undefined(why, name=name, formula=formula)
        return PartialAUC(
            focus, low, high, u, undefined(why, name="standardised " + name, formula=s_formula)
        )
    whole = sweep.whole_counts(limit=2**30)  # each block's Σ Δfp·(tp + tp′) stays in int64
    along, a_total = (sweep.fp, N) if focus == "fpr" else (sweep.tp, P)
    k_low = _last_at_most(along, a_total, low, whole)
    k_high = _last_at_most(along, a_total, high, whole)
    # The whole segments between the two points, then the piece up to high, less the
    # piece up to low: only the points inside the region are read.
    area = (
        _segments(sweep, focus, k_low + 1, k_high, whole)
        + _piece(sweep, focus, k_high, high, whole)
        - _piece(sweep, focus, k_low, low, whole)
    )
    lo, hi = (_decimal(low), _decimal(high)) if whole else (low, high)
    width = hi - lo
    chance = (hi * hi - lo * lo) / 2 if focus == "fpr" else width - (hi * hi - lo * lo) / 2
    area_m = _exact_or_float(area, name, formula)
    if area < chance:
        standardised = undefined(
            f"the curve is below the chance line in {focus.upper()} {low:g} to {high:g} "
            f"(area {float(area):.4g} < {float(chance):.4g}): McClish's standardisation "
            "is not defined there",
            name="standardised " + name,
            formula=s_formula,
        )
    else:
        value = (1 + (area - chance) / (width - chance)) / 2
        standardised = _exact_or_float(value, "standardised " + name, s_formula)
    return PartialAUC(focus, low, high, area_m, standardised)


def partial_aucs(
    sweep: Sweep, asked: tuple[tuple[Focus, float, float], ...]
) -> tuple[PartialAUC, ...]:
    """Every partial AUC asked for, in order."""
    return tuple(partial_auc(sweep, focus, low, high) for focus, low, high in asked)
