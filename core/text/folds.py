"""The folds' section of a report in words: a line a fold, their spread, and the
pooled AUC named as pooled."""

from __future__ import annotations

from threshold_lab.core.folds import FoldReport, Spread
from threshold_lab.core.metrics.metric import Metric
from threshold_lab.core.text.table import table


def _cell(m: Metric) -> str:
    return "undefined" if m.value is None else f"{m.value:.4f}"


def _spread(s: Spread) -> str:
    if s.mean is None:
        return "undefined"
    sd = "" if s.sd is None else f" ± {s.sd:.4f}"
    return f"{s.mean:.4f}{sd}"


def folds_lines(fr: FoldReport, model: str | None = None) -> list[str]:
    """``Folds (column fold): 5 folds, each its own rows`` and its table, the spread
    (mean ± sample standard deviation), the pooled AUC, the readouts averaged."""
    reads = [(i, r) for i, r in enumerate(fr.folds[0].readouts) if r.kind == "tpr_at_fpr"]
    header = ["fold", "rows", "positives", "AUC", "AP", *(f"TPR@FPR {r.limit:g}" for _, r in reads)]
    rows = [
        [
            f.name,
            f"{f.n:,}",
            f"{f.positives:g}",
            _cell(f.auc),
            _cell(f.average_precision),
            *(_cell(f.readouts[i].interpolated) for i, _ in reads),
        ]
        for f in fr.folds
    ]
    spreads = fr.readout_spreads()
    rows.append(
        [
            "mean ± sd",
            "",
            "",
            _spread(fr.auc),
            _spread(fr.average_precision),
            *(_spread(spreads[i][2]) for i, _ in reads),
        ]
    )
    of = f" of model {model}" if model else ""
    out = [
        f"Folds{of} (column {fr.column}): {len(fr.folds)} folds, each reported on its own "
        "rows; mean ± sample standard deviation (n − 1) across them"
    ]
    out += ["  " + line for line in table(header, rows)]
    pooled = fr.pooled_auc
    said = "undefined" if pooled.value is None else pooled.short()
    approx = "" if pooled.value is None or pooled.exact is None else f" ≈ {pooled.value:.4f}"
    out.append(f"Pooled AUC (every row together, one ranking; not the folds' mean): {said}{approx}")
    if reads:
        out.append(
            "TPR@FPR: each fold's ROC polyline at exactly that FPR (vertical averaging "
            "across folds)"
        )
    for kind, limit, s in spreads:
        if kind == "fpr_at_tpr":
            out.append(
                f"FPR@TPR {limit:g} (each fold's polyline at exactly that TPR, averaged "
                f"horizontally): {_spread(s)}"
            )
    for what, s in (("AUC", fr.auc), ("AP", fr.average_precision)):
        if s.reason:
            out.append(f"{what}: {s.reason}")
    return out
