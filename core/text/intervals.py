"""Intervals in words, for the plain line mode: the curves' and the bootstrap's."""

from __future__ import annotations

import numpy as np
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.intervals import IntervalsShown
from threshold_lab.core.intervals.bootstrap import Bands
from threshold_lab.core.intervals.closed import percent
from threshold_lab.core.measures import auc_interval_text
from threshold_lab.core.metrics.metric import Metric
from threshold_lab.core.text.scores import threshold_words

#: Where the bands are read aloud: FPR (ROC) or recall (PR).
SPOKEN_GRID = (0.1, 0.25, 0.5, 0.75)


def band_words(bands: Bands, kind: str, confidence: float, replicates: int) -> str:
    """``95% band (bootstrap, B = 1000): TPR at FPR 0.1 is 0.31 to 0.52; ...``."""
    pct = percent(confidence)
    parts = []
    for at in SPOKEN_GRID:
        if kind == "roc":
            i = int(np.argmin(np.abs(bands.fpr - at)))
            lo, hi = bands.tpr_low[i], bands.tpr_high[i]
            parts.append(f"TPR at FPR {at:g} is {lo:.2f} to {hi:.2f}")
        else:
            i = int(np.argmin(np.abs(bands.recall - at)))
            lo, hi = bands.precision_low[i], bands.precision_high[i]
            parts.append(f"precision at recall {at:g} is {lo:.2f} to {hi:.2f}")
    return f"{pct} pointwise band (bootstrap, B = {replicates}): " + "; ".join(parts) + "."


def curve_interval_words(a: Analysis, kind: str, sure: IntervalsShown) -> list[str]:
    """The intervals of a curve's summaries, and its band when a bootstrap ran."""
    sm = a.curves.summaries
    lines: list[str] = []
    b = sure.boot
    if kind == "roc":
        text = auc_interval_text(a, sure)
        if text is not None:
            lines.append(f"ROC AUC {text}.")
    else:
        for name, m in (
            ("average_precision", sm.average_precision),
            ("pr_trapezoid_area", sm.pr_trapezoid_area),
        ):
            if m.value is None:
                continue
            e = sure.estimate(name)
            said = e.interval.text() if e.interval is not None else f"no interval ({e.reason})"
            lines.append(f"{m.name[0].upper()}{m.name[1:]} {m.short()}: {said}.")
    if b is not None and b.bands is not None:
        lines.append(band_words(b.bands, kind, sure.confidence, b.replicates))
    return lines


def boot_summary_words(a: Analysis, sure: IntervalsShown) -> list[str]:
    """What a finished bootstrap found, one number a line."""
    b = sure.boot
    if b is None:
        return []
    sm = a.curves.summaries
    lines = [
        f"Bootstrap: {b.replicates} replicates, seed {b.seed}, positives and negatives "
        f"resampled separately; {percent(b.confidence)} percentile intervals."
    ]
    rows: list[tuple[str, Metric, int | None]] = [
        ("roc_auc", sm.roc_auc, None),
        ("average_precision", sm.average_precision, None),
        ("pr_trapezoid_area", sm.pr_trapezoid_area, None),
        ("f1", a.metrics["f1"], a.point),
        ("fbeta", a.metrics["fbeta"], a.point),
        ("mcc", a.metrics["mcc"], a.point),
    ]
    where = f" at threshold {threshold_words(a.threshold, a.sweep.thresholds)}"
    for name, m, point in rows:
        label = m.name[0].upper() + m.name[1:]
        at = where if point is not None else ""
        if m.value is None:
            lines.append(f"{label}{at}: {m.value_or_reason()}.")
            continue
        e = sure.estimate(name, point)
        said = e.interval.text() if e.interval is not None else f"no interval ({e.reason})"
        lines.append(f"{label} {m.short()}{at}: {said}.")
    g = b.estimate("goal_threshold")
    if g is not None:
        said = g.interval.text() if g.interval is not None else f"no interval ({g.reason})"
        lines.append(f"The goal's chosen threshold: {said}.")
    return lines
