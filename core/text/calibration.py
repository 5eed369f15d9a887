"""What the scores mean, in words and tables: calibration, gains, KS and a transform."""

from __future__ import annotations

import numpy as np
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.calibration.gains import KS, Gains
from threshold_lab.core.calibration.reliability import Calibration
from threshold_lab.core.intervals.closed import percent
from threshold_lab.core.metrics.metric import Metric, format_count
from threshold_lab.core.text.scores import threshold_words
from threshold_lab.core.threshold import format_threshold


def _num(x: float) -> str:
    return f"{x:.4g}"


def _d(m: Metric) -> str:
    """A decimal for a sum of terms (one ≈ marks them all)."""
    return "undefined" if m.value is None else f"{m.value:.4g}"


def brier_terms(c: Calibration) -> str:
    """``0.1244 − 0.25 + 0.25``: reliability − resolution + uncertainty, as decimals."""
    return f"{_d(c.reliability)} − {_d(c.resolution)} + {_d(c.uncertainty)}"


def brier_total(c: Calibration) -> str:
    """The Brier score the three terms make, as a decimal (``undefined`` without them)."""
    return _brier(c)


def _brier(c: Calibration) -> str:
    parts = (c.reliability.value, c.resolution.value, c.uncertainty.value)
    if any(p is None for p in parts):
        return "undefined"
    r, res, u = (float(p or 0.0) for p in parts)
    return f"{r - res + u:.4g}"


def calibration_lines(c: Calibration) -> list[str]:
    """The reliability table, ECE, MCE and the Brier decomposition, for the report."""
    how = "equal-mass" if c.binning == "mass" else "equal-width"
    head = (
        f"Calibration ({c.requested_bins} {how} bins; tie groups never split; empty bins left out)"
    )
    if c.reason is not None:
        return [head, f"  undefined: {c.reason}"]
    rows = [["bin", "rows", "mean score", "observed rate", "95% CI", "scores"]]
    for i, b in enumerate(c.bins, 1):
        ci = "" if b.interval is None else f"{b.interval.low:.2f} to {b.interval.high:.2f}"
        rows.append(
            [
                str(i),
                format_count(b.n),
                _num(b.mean_score),
                b.positive_rate.short(),
                ci,
                f"{b.low_score!r} to {b.high_score!r}",
            ]
        )
    if c.bins and c.bins[0].interval is not None:
        rows[0][4] = f"{percent(c.bins[0].interval.confidence)} CI"
    widths = [max(len(r[k]) for r in rows) for k in range(len(rows[0]))]
    table = [
        "  " + "  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows
    ]
    return [
        head,
        *table,
        f"  ECE (expected calibration error) = {c.ece.formula} {c.ece.value_or_reason()}",
        f"  MCE (maximum calibration error) = {c.mce.formula} {c.mce.value_or_reason()}",
        f"  Brier = reliability − resolution + uncertainty (by distinct score, not by bin) "
        f"≈ {brier_terms(c)} = {_brier(c)}",
    ]


def calibration_words(c: Calibration) -> list[str]:
    """The same in sentences, one a bin (plain mode)."""
    how = "equal-mass" if c.binning == "mass" else "equal-width"
    if c.reason is not None:
        return [f"Calibration is undefined: {c.reason}."]
    out = [
        f"Calibration in {len(c.bins)} {how} bins (of {c.requested_bins} asked for; "
        "tie groups never split, empty bins left out):"
    ]
    for i, b in enumerate(c.bins, 1):
        ci = "" if b.interval is None else f" ({b.interval.short()})"
        rows = "row" if b.n == 1 else "rows"
        out.append(
            f"Bin {i}: {format_count(b.n)} {rows}, scores {b.low_score!r} to {b.high_score!r}, "
            f"mean score {_num(b.mean_score)}, observed positive rate "
            f"{b.positive_rate.value_text()}{ci}."
        )
    out.append(
        f"ECE {c.ece.value_or_reason()}, MCE {c.mce.value_or_reason()}: the share-weighted "
        "and the largest gap between a bin's observed rate and its mean score."
    )
    out.append(
        f"Brier score = reliability − resolution + uncertainty ≈ {brier_terms(c)} = "
        f"{_brier(c)} (grouped by distinct "
        "score, not by bin)."
    )
    return out


def ks_words(ks: KS) -> str:
    """``KS = max (TPR − FPR) = 5/8 = 0.625, at threshold 0.55 ...``."""
    if ks.value.value is None:
        return f"KS is undefined: {ks.value.undefined_text().removeprefix('undefined: ')}."
    shown = ks.value.value_text()
    return (
        f"KS = {ks.value.formula} {shown if shown.startswith('≈') else '= ' + shown}, at threshold "
        f"{format_threshold(ks.threshold)} (the first point attaining it, fewest predicted "
        "positive); it equals the maximum Youden index, TPR + TNR − 1."
    )


def gains_words(g: Gains | None, a: Analysis) -> list[str]:
    """The cumulative gains curve read at each tenth of the rows, and at the threshold:
    the rows predicted positive and the positives captured, as counts of their wholes."""
    if g is None:
        return ["No gains curve: there are no actual positives to capture."]
    s = a.sweep
    c = format_count
    n, positives = c(s.positives + s.negatives), c(s.positives)
    out = [
        "Cumulative gains (the actual positives captured against the rows predicted "
        "positive, along the exact sweep; random: the diagonal; perfect: every positive "
        f"first, all {positives} captured by the first {positives} of the {n} rows):"
    ]
    seen: set[int] = set()
    for q in np.linspace(0.1, 1.0, 10):
        # The last operating point predicting at most this share of the rows positive.
        k = g.x.last_at_most(q + 1e-12)
        if k in seen:
            continue
        seen.add(k)
        t = threshold_words(s.threshold_at(k), s.thresholds)
        out.append(
            f"up to {q:.0%} of the rows: threshold {t} predicts {c(s.tp[k] + s.fp[k])} of {n} "
            f"rows positive and captures {c(s.tp[k])} of {positives} positives"
        )
    k = a.point
    out.append(
        f"At the threshold {threshold_words(a.threshold, s.thresholds)}: "
        f"{c(s.tp[k] + s.fp[k])} of {n} rows predicted positive, capturing {c(s.tp[k])} of "
        f"{positives} positives; lift (precision over the base rate) "
        f"{a.metrics['lift'].value_or_reason()}."
    )
    return out
