"""Readouts and partial AUCs said in words: the report's section, plain mode's lines."""

from __future__ import annotations

from threshold_lab.core.curves.operating import PartialAUC, Readout
from threshold_lab.core.metrics.metric import format_count
from threshold_lab.core.threshold import format_threshold


def readout_sentence(r: Readout, ci: str | None = None) -> str:
    """The readout's point (its rate, threshold, the other rate and the counts), then the
    polyline's value at exactly the limit, said to be interpolated; ``ci`` the rate's
    interval, when a bootstrap gave one.

    >>> from threshold_lab.core.curves.operating import readout
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> from threshold_lab.core.data.presets import preset
    >>> s = build_sweep(preset("canonical").data)
    >>> print(readout_sentence(readout(s, "tpr_at_fpr", 0.3)))
    TPR at FPR <= 0.3: 1/3 ≈ 0.3333 at threshold 0.9 (FPR 0/2 = 0; ...: 8/15 ≈ 0.5333
    """
    if r.counts is None:
        return f"{r.asked}: undefined: {r.reason}"
    k, c = r.counts, format_count
    other = r.fpr if r.kind == "tpr_at_fpr" else r.tpr
    axis = "FPR" if r.kind == "tpr_at_fpr" else "TPR"
    where = (
        "above all scores" if r.threshold is None else f"threshold {format_threshold(r.threshold)}"
    )
    sure = "" if ci is None else f" ({ci})"
    return (
        f"{r.asked}: {r.value.value_text()}{sure} at {where} ({other.name} {other.value_text()}; "
        f"TP {c(k.tp)}, FP {c(k.fp)}, TN {c(k.tn)}, FN {c(k.fn)}); interpolated at {axis} = "
        f"{r.limit:g} exactly: {r.interpolated.value_text()}"
    )


def partial_auc_sentence(p: PartialAUC, ci: str | None = None) -> str:
    """The area (with ``ci``, its interval, when a bootstrap gave one), the most it
    could be, and McClish's standardised value (or why not).

    >>> from threshold_lab.core.curves.operating import partial_auc
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> from threshold_lab.core.data.presets import preset
    >>> s = build_sweep(preset("canonical").data)
    >>> print(partial_auc_sentence(partial_auc(s, "fpr", 0, 0.5)))
    Partial AUC, FPR 0 to 0.5 (∫ TPR dFPR): 1/4 ... at most 0.5; McClish standardised: 2/3 ≈ 0.6667
    """
    formula = "∫ TPR dFPR" if p.focus == "fpr" else "∫ (1 − FPR) dTPR"
    head = f"Partial AUC, {p.asked} ({formula})"
    if p.area.value is None:
        return f"{head}: {p.area.undefined_text()}"
    sure = "" if ci is None else f" ({ci})"
    return (
        f"{head}: {p.area.value_text()}{sure} of at most {p.high - p.low:g}; McClish standardised: "
        f"{p.standardised.value_or_reason()}"
    )


def partial_auc_short(p: PartialAUC) -> str:
    """The partial AUC in a few words, for a panel beside the AUC.

    >>> from threshold_lab.core.curves.operating import partial_auc
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> from threshold_lab.core.data.presets import preset
    >>> partial_auc_short(partial_auc(build_sweep(preset("canonical").data), "fpr", 0, 0.5))
    'partial AUC FPR 0 to 0.5: 1/4 = 0.25 (standardised 2/3 ≈ 0.6667)'
    """
    if p.area.value is None:
        return f"partial AUC {p.asked}: undefined"
    std = p.standardised.value_text() if p.standardised.value is not None else "undefined"
    return f"partial AUC {p.asked}: {p.area.value_text()} (standardised {std})"
