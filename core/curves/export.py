"""The exact curve points as CSV, for other plotting tools (``report --curve``).

One row an operating point of the sweep, thresholds descending, the first the
"above all scores" point (its threshold cell empty: no score is that high). Each
row has its threshold, the four counts, the curve's two rates as doubles and as
exact fractions (empty where the counts are weighted by non-whole weights, or
where a rate is undefined, as precision with nothing predicted positive):

- ``roc``: FPR = FP/N and TPR = TP/P at every point.
- ``pr``: recall = TP/P and precision = TP/(TP+FP) at every point.
- ``det``: FPR and FNR = FN/P from the last point with no false positives to the
  first with no false negatives (the DET curve's span), with their normal
  deviates Φ⁻¹ (empty at a rate of 0 or 1, which a probit axis cannot place).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.curves.det import det_span, probit
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.errors import InputError, quoted

CURVES = ("roc", "pr", "det")

_COLUMNS = {
    "roc": ("fpr", "tpr"),
    "pr": ("recall", "precision"),
    "det": ("fpr", "fnr"),
}


def curve_kind(what: str, text: object, kinds: Sequence[str] = CURVES) -> str:
    """``text`` as one of the curves ``kinds`` (any case, spaces round it ignored);
    anything else raises InputError naming ``what`` asked (a flag, a command) and the
    kinds: ``--curve 'lift': give roc, pr or det``."""
    name = text.strip().lower() if isinstance(text, str) else ""
    if name not in kinds:
        said = f"{', '.join(kinds[:-1])} or {kinds[-1]}" if len(kinds) > 1 else kinds[0]
        raise InputError(f"{what} {quoted(text)}: give {said}")
    return name


def parse_curve(text: str) -> str:
    """``roc``, ``pr`` or ``det`` (raises InputError naming the three)."""
    return curve_kind("--curve", text)


def missing_class(sweep: Sweep, curve: str) -> str | None:
    """The class whose absence leaves ``curve`` undefined on ``sweep`` (``positives``,
    ``negatives``), or None: ROC, DET and cost curves need both, PR the positives.

    >>> from threshold_lab.core.data.dataset import make_dataset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> s = build_sweep(make_dataset([0.9, 0.5], [1, 1]))
    >>> missing_class(s, "det"), missing_class(s, "pr")
    ('negatives', None)
    """
    if not sweep.positives:
        return "positives"
    if not sweep.negatives and curve != "pr":
        return "negatives"
    return None


def header(curve: str, labels: Sequence[str] = ()) -> list[str]:
    """The CSV's columns: ``labels`` first (``model``, ``fold``), then the point's."""
    a, b = _COLUMNS[curve]
    cols = ["point", "threshold", "tp", "fp", "tn", "fn", a, b]
    if curve == "det":
        cols += ["fpr_probit", "fnr_probit"]
    cols += [f"{a}_exact", f"{b}_exact"]
    return [*labels, *cols]


def _span(sweep: Sweep, curve: str) -> tuple[int, int]:
    if curve == "det":
        if not sweep.positives or not sweep.negatives:
            return 0, 0
        return det_span(sweep)
    return 0, sweep.size


def _fractions(num: npt.NDArray[Any], den: npt.NDArray[Any], whole: bool) -> list[str]:
    """``num/den`` reduced, as text ("" where den is 0 or the counts are not whole)."""
    den = np.broadcast_to(den, num.shape)
    defined = den != 0
    if not whole:
        return [""] * num.shape[0]
    n = np.where(defined, num, 0).astype(np.int64)
    d = np.where(defined, den, 1).astype(np.int64)
    g = np.gcd(n, d)
    g[g == 0] = 1
    return [
        f"{p}/{q}" if ok else ""
        for p, q, ok in zip((n // g).tolist(), (d // g).tolist(), defined.tolist(), strict=True)
    ]


def _cells(x: npt.NDArray[np.float64]) -> list[str]:
    """Doubles as their shortest text ("" for NaN and infinities)."""
    return [repr(v) if v == v and abs(v) != float("inf") else "" for v in x.tolist()]


def _counts(x: npt.NDArray[Any]) -> list[str]:
    if x.dtype.kind in "iu":
        return [str(v) for v in x.tolist()]
    return [repr(v) if v != int(v) else str(int(v)) for v in x.tolist()]


def curve_rows(
    sweep: Sweep, curve: str, *, labels: Sequence[str] = (), chunk: int = 65536
) -> Iterator[str]:
    """The CSV lines (each ending in a newline) of ``sweep``'s ``curve``, ``chunk``
    points at a time, each starting with the cells ``labels``."""
    first, stop = _span(sweep, curve)
    pos, neg = sweep.positives, sweep.negatives
    whole = sweep.whole_counts()
    prefix = "".join(_quoted(label) + "," for label in labels)
    for start in range(first, stop, chunk):
        end = min(stop, start + chunk)
        at = np.arange(start, end)
        tp, fp = sweep.tp[start:end], sweep.fp[start:end]
        tn, fn = neg - fp, pos - tp
        thresholds = [""] * at.shape[0]
        shown = sweep.thresholds[max(start, 1) - 1 : end - 1].tolist()
        thresholds[at.shape[0] - len(shown) :] = [repr(t) for t in shown]
        p_den = np.full(at.shape, pos)
        n_den = np.full(at.shape, neg)
        with np.errstate(divide="ignore", invalid="ignore"):
            if curve == "roc":
                a_num, a_den, b_num, b_den = fp, n_den, tp, p_den
            elif curve == "pr":
                a_num, a_den, b_num, b_den = tp, p_den, tp, tp + fp
            else:
                a_num, a_den, b_num, b_den = fp, n_den, fn, p_den
            a = np.where(a_den != 0, a_num / np.where(a_den != 0, a_den, 1), np.nan)
            b = np.where(b_den != 0, b_num / np.where(b_den != 0, b_den, 1), np.nan)
        columns: list[Sequence[str]] = [
            [str(i) for i in at.tolist()],
            thresholds,
            _counts(tp),
            _counts(fp),
            _counts(tn),
            _counts(fn),
            _cells(a),
            _cells(b),
        ]
        if curve == "det":
            columns += [_cells(probit(a)), _cells(probit(b))]
        columns += [_fractions(a_num, a_den, whole), _fractions(b_num, b_den, whole)]
        yield "".join(prefix + ",".join(row) + "\n" for row in zip(*columns, strict=True))


def _quoted(text: str) -> str:
    if any(c in text for c in ',"\n\r'):
        return '"' + text.replace('"', '""') + '"'
    return text


def curve_csv(
    sweeps: Sequence[tuple[Sequence[str], Sweep]],
    curve: str,
    *,
    labels: Sequence[str] = (),
    chunk: int = 65536,
) -> Iterator[str]:
    """The whole CSV: its header, then each sweep's rows, each sweep given with its
    cells for the columns ``labels`` (``model`` with several models, ``fold`` with
    folds; none with one sweep).

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> print("".join(curve_csv([((), build_sweep(preset("canonical").data))], "roc")), end="")
    point,threshold,tp,fp,tn,fn,fpr,tpr,fpr_exact,tpr_exact
    0,,0,0,2,3,0.0,0.0,0/1,0/1
    1,0.9,1,0,2,2,0.0,0.3333333333333333,0/1,1/3
    2,0.8,2,1,1,1,0.5,0.6666666666666666,1/2,2/3
    3,0.4,2,2,0,1,1.0,0.6666666666666666,1/1,2/3
    4,0.1,3,2,0,0,1.0,1.0,1/1,1/1
    """
    yield ",".join(header(curve, labels)) + "\n"
    for cells, sweep in sweeps:
        yield from curve_rows(sweep, curve, labels=cells, chunk=chunk)
