"""The precision-recall curve of a sweep and its two summaries.

Average precision (step-weighted, not interpolated) and the trapezoidal area
under the precision-recall points are different numbers; both are here, each
named for what it is.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import numpy.typing as npt
from threshold_lab.core.blocks import blocks, dot, shifted
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.metrics.metric import Metric, from_fraction, undefined

#: Exact fractions for the PR summaries are summed term by term; beyond this
#: many recall steps only the decimal is given (the value itself is unaffected).
EXACT_STEP_LIMIT = 2000

FloatArray = npt.NDArray[np.float64]


def precision_recall_points(
    sweep: Sweep,
) -> tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]] | None:
    """(recall, precision, defined) at every operating point; None without positives.

    Precision is undefined (``defined`` False, value NaN) where nothing is
    predicted positive, as at the above-all point.
    """
    if sweep.positives == 0:
        return None
    predicted = sweep.tp + sweep.fp
    defined = predicted > 0
    precision = np.full(predicted.shape[0], np.nan)
    np.divide(sweep.tp, predicted, out=precision, where=defined)
    recall = np.asarray(sweep.tp / float(sweep.positives), dtype=np.float64)
    return recall, np.asarray(precision, dtype=np.float64), defined


def _no_positives(name: str, formula: str) -> Metric:
    return undefined(
        "No actual positives (TP+FN=0): recall is undefined", name=name, formula=formula
    )


def average_precision(sweep: Sweep) -> Metric:
    """Step-weighted average precision: Σ (R_k − R_{k−1}) · P_k over the sweep.

    Not interpolated. Tied rows enter together, so a tie between a positive
    and a negative is one step at their joint precision.

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> average_precision(build_sweep(preset("ap-vs-trapezoid").data)).value_text()
    '5/6 ≈ 0.8333'
    """
    name, formula = "average precision", "Σ (Rₖ−Rₖ₋₁)·Pₖ"
    if sweep.positives == 0:
        return _no_positives(name, formula)
    tp, fp = sweep.tp, sweep.fp
    steps = _rises(sweep, 1)  # points where recall rises
    if steps is not None and sweep.whole_counts():
        return _ap_exact(sweep, steps)
    value, pos = 0.0, float(sweep.positives)
    first = first_defined(sweep)  # before it TP + FP = 0: no precision, and no rise
    for b in blocks(1, sweep.size):
        gain, here = tp[b] - tp[shifted(b, -1)], tp[b]
        # Precision at every point, unmasked (a masked division runs element by element,
        # at half the speed): where recall does not rise its step is 0 and the product
        # is 0, as it was; the points before ``first`` (0/0) are set to 0.
        with np.errstate(invalid="ignore"):
            precision = here / (here + fp[b])
        if b.start < first:
            precision[: first - b.start] = 0.0
        # The recall step (a rate, in [0, 1]) first: weighted sums may be tiny or huge.
        value += dot(gain / pos, precision)
    return Metric(value, None, None, name, formula)


def _ap_exact(sweep: Sweep, steps: npt.NDArray[np.intp]) -> Metric:
    """Average precision as a fraction, from the points where recall rises."""
    tp, fp = sweep.tp, sweep.fp
    total = sum(
        (
            Fraction(int(tp[k] - tp[k - 1]), 1) * Fraction(int(tp[k]), int(tp[k] + fp[k]))
            for k in steps
        ),
        Fraction(0),
    )
    return from_fraction(
        total / int(sweep.positives), 0.0, name="average precision", formula="Σ (Rₖ−Rₖ₋₁)·Pₖ"
    )


def _trapezoid_exact(sweep: Sweep, first: int, later: npt.NDArray[np.intp]) -> Metric:
    """The PR trapezoid area as a fraction: the first segment from recall 0,
    precision 1 to point ``first``, then those where recall rises (``later``)."""
    tp, fp = sweep.tp, sweep.fp
    tp0, pred0 = tp[first], tp[first] + fp[first]
    total = int(tp0) * (1 + Fraction(int(tp0), int(pred0))) / 2
    for k in later:
        prev = Fraction(int(tp[k - 1]), int(tp[k - 1] + fp[k - 1]))
        here = Fraction(int(tp[k]), int(tp[k] + fp[k]))
        total += int(tp[k] - tp[k - 1]) * (prev + here) / 2
    return from_fraction(
        total / int(sweep.positives),
        0.0,
        name="PR trapezoid area",
        formula="Σ (Rₖ−Rₖ₋₁)·(Pₖ+Pₖ₋₁)/2",
    )


def _rises(sweep: Sweep, first: int) -> npt.NDArray[np.intp] | None:
    """Points ``k >= first`` where TP rises from point ``k - 1``, or None when there
    are more than :data:`EXACT_STEP_LIMIT` (then only a decimal is summed)."""
    found: list[npt.NDArray[np.intp]] = []
    count = 0
    for b in blocks(first, sweep.size):
        hits = np.flatnonzero(sweep.tp[b] > sweep.tp[shifted(b, -1)]) + b.start
        count += hits.shape[0]
        if count > EXACT_STEP_LIMIT:
            return None
        found.append(hits)
    return np.concatenate(found) if found else np.zeros(0, dtype=np.intp)


def pr_trapezoid_area(sweep: Sweep) -> Metric:
    """Trapezoidal area under the precision-recall points.

    Starts from the conventional point recall 0, precision 1 (as
    scikit-learn's ``auc(recall, precision)`` does) and joins every defined
    operating point with straight lines. This interpolates, so it generally
    differs from :func:`average_precision`.

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> pr_trapezoid_area(build_sweep(preset("ap-vs-trapezoid").data)).value_text()
    '19/24 ≈ 0.7917'
    """
    name, formula = "PR trapezoid area", "Σ (Rₖ−Rₖ₋₁)·(Pₖ+Pₖ₋₁)/2"
    if sweep.positives == 0:
        return _no_positives(name, formula)
    tp, fp = sweep.tp, sweep.fp
    # Points with a defined precision (TP+FP > 0) are a suffix: TP+FP only grows.
    first = first_defined(sweep)  # a point exists: the last has TP = P > 0
    tp0, pred0 = tp[first], tp[first] + fp[first]
    if sweep.whole_counts():
        later = _rises(sweep, first + 1)
        if later is not None:
            # Only segments where recall rises have width. The first starts at
            # recall 0, precision 1.
            return _trapezoid_exact(sweep, first, later)
    pos = float(sweep.positives)
    # Recall steps (rates, in [0, 1]) rather than weighted sums, which may be tiny or huge.
    value = float(tp0) / pos * (1.0 + float(tp0) / float(pred0)) / 2
    for b in blocks(first + 1, sweep.size):
        both = slice(b.start - 1, b.stop)  # each point and the one before it
        precision = tp[both] / (tp[both] + fp[both])
        width = (tp[b] - tp[shifted(b, -1)]) / pos
        value += dot(width, precision[1:] + precision[:-1]) / 2
    return Metric(value, None, None, name, formula)


def first_defined(sweep: Sweep) -> int:
    """The first point where something is predicted positive (TP+FP > 0)."""
    for b in blocks(0, sweep.size):
        hits = np.flatnonzero((sweep.tp[b] + sweep.fp[b]) > 0)
        if hits.shape[0]:
            return int(b.start) + int(hits[0])
    return sweep.size


def pr_from_sums(sweep: Sweep, ap: float, trap: float, first: int) -> tuple[Metric, Metric]:
    """:func:`pr_summaries` of ``sweep`` (whole counts, some positives) from the sums
    of one pass over its groups: Σ ΔTP·Pₖ (``ap``) and Σ ΔTP·(Pₖ + Pₖ₋₁) (``trap``)
    over the points after ``first``, the first with a precision. Where the recall
    steps are few, each is its exact fraction, as :func:`pr_summaries` gives it."""
    steps = _rises(sweep, 1)
    if steps is not None:
        return _ap_exact(sweep, steps), _trapezoid_exact(sweep, first, steps[steps > first])
    pos = float(sweep.positives)
    tp0, pred0 = float(sweep.tp[first]), float(sweep.tp[first] + sweep.fp[first])
    ap_value = ap / pos + tp0 / pos * (tp0 / pred0)
    trap_value = trap / 2 / pos + tp0 / pos * (1.0 + tp0 / pred0) / 2
    return (
        Metric(ap_value, None, None, "average precision", "Σ (Rₖ−Rₖ₋₁)·Pₖ"),
        Metric(trap_value, None, None, "PR trapezoid area", "Σ (Rₖ−Rₖ₋₁)·(Pₖ+Pₖ₋₁)/2"),
    )


def pr_summaries(sweep: Sweep) -> tuple[Metric, Metric]:
    """:func:`average_precision` and :func:`pr_trapezoid_area` together. Both are
    sums over the same recall steps of the same precisions (AP's at each step's end;
    the trapezoid's the mean of its two ends), so where they are decimals one pass
    over the points gives both: each block's precisions are divided once and read by
    both sums. Where the counts are whole and the steps few, each is its exact
    fraction, as the two functions give it.

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> [m.value_text() for m in pr_summaries(build_sweep(preset("ap-vs-trapezoid").data))]
    ['5/6 ≈ 0.8333', '19/24 ≈ 0.7917']
    """
    if sweep.positives == 0:
        return average_precision(sweep), pr_trapezoid_area(sweep)
    first = first_defined(sweep)
    steps = _rises(sweep, 1) if sweep.whole_counts() else None
    if steps is not None:  # one search for the steps, read by both fractions
        return _ap_exact(sweep, steps), _trapezoid_exact(sweep, first, steps[steps > first])
    tp, fp = sweep.tp, sweep.fp
    pos = float(sweep.positives)
    tp0, pred0 = float(tp[first]), float(tp[first] + fp[first])
    # Unweighted counts are summed as counts and divided once (the products stay well
    # inside a double); weights as rates, which cannot overflow or underflow.
    scale = 1.0 if sweep.weighted else pos
    ap = trap = 0.0
    for b in blocks(first + 1, sweep.size):
        both = slice(b.start - 1, b.stop)  # each point and the one before it
        precision = tp[both] / (tp[both] + fp[both])
        gain = (tp[b] - tp[shifted(b, -1)]).astype(np.float64)
        if sweep.weighted:
            gain /= pos
        here = dot(gain, precision[1:])
        ap += here
        trap += (here + dot(gain, precision[:-1])) / 2
    ap, trap = ap / scale, trap / scale
    ap += tp0 / pos * (tp0 / pred0)
    trap += tp0 / pos * (1.0 + tp0 / pred0) / 2
    return (
        Metric(ap, None, None, "average precision", "Σ (Rₖ−Rₖ₋₁)·Pₖ"),
        Metric(trap, None, None, "PR trapezoid area", "Σ (Rₖ−Rₖ₋₁)·(Pₖ+Pₖ₋₁)/2"),
    )
