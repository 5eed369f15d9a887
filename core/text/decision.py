"""Decision curves and cost curves in words: where a model is worth acting on, net
benefit at a few threshold probabilities, and the cheapest point at each cost ratio."""

from __future__ import annotations

from threshold_lab.core.analysis import Analysis
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.decide.goal import number_text
from threshold_lab.core.decide.net_benefit import DecisionCurve, NetBenefit, net_benefit_key
from threshold_lab.core.intervals import IntervalsShown
from threshold_lab.core.metrics.metric import format_count, format_decimal
from threshold_lab.core.text.table import table


def _interval(sure: IntervalsShown | None, name: str) -> str | None:
    """A bootstrap estimate's interval in words, or None."""
    if sure is None or sure.boot is None:
        return None
    e = sure.estimate(name)
    return None if e.interval is None else e.interval.text()


#: Rows of the decision curve's grid the text lists at most (JSON lists every one).
DECISION_ROWS = 10
#: Hull vertices the text lists at most.
HULL_ROWS = 12


def _thinned(n: int, most: int) -> list[int]:
    """At most ``most`` of ``n`` rows, evenly spaced, the first and the last among them."""
    if n <= most:
        return list(range(n))
    return sorted({round(i * (n - 1) / (most - 1)) for i in range(most)})


#: The threshold probabilities a long grid is shown at, where it has them: those a
#: decision is usually weighed at.
ROUND_PT = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.8)


def shown_rows(d: DecisionCurve, most: int = DECISION_ROWS) -> list[int]:
    """The grid rows the text shows: all of a short grid; of a long one the first, the
    last, the first and last inside each useful range (always: the rows where the
    model is worth acting on), then those at :data:`ROUND_PT`, or evenly spaced rows
    where it has few of them, while there is room."""
    n = len(d.grid)
    if n <= most:
        return list(range(n))
    pts = [float(r.pt) for r in d.grid]
    chosen = {0, n - 1}
    for lo, hi in d.useful_range:
        inside = [i for i, pt in enumerate(pts) if lo < pt < hi]
        chosen |= {inside[0], inside[-1]} if inside else set()
    at = {pt: i for i, pt in enumerate(pts)}
    more = [at[p] for p in ROUND_PT if p in at]
    for i in more if len(more) >= 3 else _thinned(n, most):
        if len(chosen) >= most:
            break
        chosen.add(i)
    return sorted(chosen)


def _rounded(x: float) -> str:
    """A decimal marked as rounded where it is: ``≈ 0.3455``, ``0.5``."""
    text = format_decimal(x)
    return text if float(text) == x else f"≈ {text}"


def decision_curve_lines(d: DecisionCurve | None, sure: IntervalsShown | None = None) -> list[str]:
    """The decision curve: where the model is useful, and net benefit at grid pts."""
    if d is None:
        return []
    head = "Decision curve (net benefit of acting on every case scored >= pt)"
    if d.reason is not None:
        return [head, f"  undefined: {d.reason}"]
    prevalence = f"{d.prevalence:.4g}" + (" (given)" if d.given_prevalence else "")
    harm = f", harm {float(d.harm):g}" if d.harm else ""
    out = [
        head,
        f"  prevalence {prevalence}{harm}; treating none has net benefit 0",
        "  " + useful_sentence(d),
    ]
    rows = []
    shown = shown_rows(d)
    for i in shown:
        r = d.grid[i]
        ci = _interval(sure, net_benefit_key(r.pt))
        rows.append(
            [
                f"{float(r.pt):g}",
                format_decimal(r.net_benefit.value or 0.0),
                format_decimal(r.treat_all.value or 0.0),
                format_decimal(r.interventions_avoided_per_100.value or 0.0, places=2),
                r.standardised.value_text()
                if r.standardised.value is None
                else format_decimal(r.standardised.value),
                "above all" if r.threshold is None else f"{r.threshold!r}",
                *([] if sure is None or sure.boot is None else [ci or ""]),
            ]
        )
    header = ["  pt", "net benefit", "treat all", "avoided/100", "standardised", "acts from"]
    if sure is not None and sure.boot is not None:
        header.append("net benefit's interval")
    out += table(header, [["  " + r[0], *r[1:]] for r in rows], left=(0, 5, 6))
    if len(shown) < len(d.grid):
        out.append(
            f"  ({len(shown)} of the {len(d.grid)} grid points, decimals rounded; --json "
            "lists every one)"
        )
    out.append(
        "  (for one pt, the threshold with the highest net benefit is the least-cost "
        'one with FP:FN costs pt : 1 − pt: --goal "max net_benefit at pt X")'
    )
    return out


def useful_sentence(d: DecisionCurve) -> str:
    """Where the model's net benefit beats treating everyone and treating no one."""
    if not d.useful_range:
        return (
            "useful nowhere: at every pt treating all or treating none has at least the "
            "model's net benefit"
        )
    return f"useful (beats treating all and treating none) where {' and '.join(useful_spans(d))}"


def useful_spans(d: DecisionCurve) -> list[str]:
    """Each interval of the useful range in words: ``0.05 < pt < 0.25``."""
    return [f"{_rounded(lo)} < pt < {_rounded(hi)}" for lo, hi in d.useful_range]


def cost_curve_lines(a: Analysis) -> list[str]:
    """The cost curves' envelope: the hull's vertices and the PC(+) each is cheapest at."""
    cc = a.curves.cost_curve
    head = "Cost curves (each point costs FNR·PC + FPR·(1 − PC) at probability-cost PC(+))"
    if cc.reason is not None:
        return [head, f"  undefined: {cc.reason}"]
    out = [
        head,
        f"  ROCCH AUC {cc.hull_auc.value_or_reason()}; the cheapest point at each "
        "PC(+) is a vertex of the ROC convex hull:",
    ]
    rows = []
    for i in _thinned(len(cc.hull), HULL_ROWS):
        v = cc.hull[i]
        rows.append(
            [
                "above all" if v.threshold is None else f"{v.threshold!r}",
                format_decimal(v.fpr),
                format_decimal(v.tpr),
                f"{format_decimal(v.pc_low)} to {format_decimal(v.pc_high)}",
            ]
        )
    out += table(
        ["  threshold", "FPR", "TPR", "cheapest for PC(+)"],
        [["  " + r[0], *r[1:]] for r in rows],
        left=(0, 3),
    )
    if len(cc.hull) > HULL_ROWS:
        out.append(f"  ({HULL_ROWS} of the {len(cc.hull)} vertices; --json lists every one)")
    never = a.sweep.size - len(cc.hull)
    out.append(
        f"  The other {format_count(never)} of the {format_count(a.sweep.size)} points "
        "are never the cheapest at any cost ratio."
    )
    return out


def net_benefit_sentence(d: DecisionCurve, row: NetBenefit, sweep: Sweep) -> str:
    """Net benefit at one pt in words, its formula with the counts filled in: where it
    acts from, against treating all and none, and whether the model is useful there."""
    pt = float(row.pt)
    k = row.point
    tp, fp = format_count(sweep.tp[k].item()), format_count(sweep.fp[k].item())
    n = format_count(sweep.positives + sweep.negatives)
    where = (
        "nothing is acted on (every score is below pt)"
        if row.threshold is None
        else f"from threshold {row.threshold!r}: TP {tp}, FP {fp} of {n}"
    )
    odds = f"{number_text(row.pt)}/{number_text(1 - row.pt)}"
    if d.given_prevalence:
        formula = f"TPR·P − FPR·(1 − P)·{odds} with P = {d.prevalence:g}"
    else:
        formula = f"TP/n − FP/n·{odds} = {tp}/{n} − {fp}/{n}·{odds}"
    if d.harm:
        formula += f" − harm {float(d.harm):g}"
    nb, everyone = row.net_benefit, row.treat_all
    beats = (
        nb.value is not None and everyone.value is not None and nb.value > max(everyone.value, 0.0)
    )
    verdict = (
        "useful here: it beats treating all and treating none"
        if beats
        else "not useful here: treating all or treating none does at least as well"
    )
    return (
        f"Net benefit at pt {pt:g} (acting on every case scored >= {pt:g}; {where}): "
        f"{formula} = {nb.value_text()}. Treating all: {everyone.value_text()}; treating "
        f"none: 0; {verdict}. Net interventions avoided per 100: "
        f"{row.interventions_avoided_per_100.value_text(places=2)}. Standardised net "
        f"benefit (NB/prevalence): {row.standardised.value_text()}."
    )
