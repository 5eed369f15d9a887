"""Decision curves and cost curves in words: where a model is worth acting on, net
benefit at a few threshold probabilities, and the cheapest point at each cost ratio."""

from __future__ import annotations

from fractions import Fraction

from threshold_lab.core.analysis import Analysis
from threshold_lab.core.curves.hull import pc_text, standing, standing_counts
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.decide.goal import number_text
from threshold_lab.core.decide.net_benefit import DecisionCurve, NetBenefit, net_benefit_key
from threshold_lab.core.intervals import IntervalsShown
from threshold_lab.core.metrics.metric import format_count, format_decimal, from_fraction
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
    closed = d.useful_closed or ((False, False),) * len(d.useful_range)
    for (lo, hi), (lo_in, hi_in) in zip(d.useful_range, closed, strict=True):
        # An end the model is useful at (the rule is >=) is a row where it is.
        inside = [
            i
            for i, pt in enumerate(pts)
            if (lo < pt or (lo_in and lo == pt)) and (pt < hi or (hi_in and pt == hi))
        ]
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
    """Each interval of the useful range in words, each end open (``<``) or closed
    (``<=``) by whether the model is useful at that pt itself: ``0.5 < pt < ≈ 0.6667``,
    ``0.8 < pt <= 0.9``. A closed end is a score, written exactly as it is read."""
    closed = d.useful_closed or ((False, False),) * len(d.useful_range)
    out = []
    for (lo, hi), (lo_in, hi_in) in zip(d.useful_range, closed, strict=True):
        low = f"{lo!r} <=" if lo_in else f"{_rounded(lo)} <"
        high = f"<= {hi!r}" if hi_in else f"< {_rounded(hi)}"
        out.append(f"{low} pt {high}")
    return out


def _rate_text(exact: Fraction | None, value: float) -> str:
    """FPR or TPR in the hull's table: the exact fraction (``1/3``, ``0``) while it is
    readable, else the decimal marked as rounded."""
    if exact is None:
        return f"≈ {format_decimal(value)}"
    return from_fraction(exact, 0.0).short()


def cost_curve_lines(a: Analysis) -> list[str]:
    """The cost curves' envelope: the hull's vertices and the PC(+) each is cheapest at,
    how many points lie on an edge or strictly inside, and where the active point
    stands (see :func:`~threshold_lab.core.curves.hull.standing`)."""
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
        low, high = pc_text(v.pc_low_exact, v.pc_low), pc_text(v.pc_high_exact, v.pc_high)
        single = (
            v.pc_low_exact == v.pc_high_exact
            if v.pc_low_exact is not None
            else not v.pc_low < v.pc_high
        )
        rows.append(
            [
                "above all" if v.threshold is None else f"{v.threshold!r}",
                _rate_text(v.fpr_exact, v.fpr),
                _rate_text(v.tpr_exact, v.tpr),
                f"only at {low} (tied)" if single else f"{low} to {high}",
            ]
        )
    out += table(
        ["  threshold", "FPR", "TPR", "cheapest for PC(+)"],
        [["  " + r[0], *r[1:]] for r in rows],
        left=(0, 3),
    )
    if len(cc.hull) > HULL_ROWS:
        out.append(f"  ({HULL_ROWS} of the {len(cc.hull)} vertices; --json lists every one)")
    n = format_count(a.sweep.size)
    counts = standing_counts(a.sweep, cc)
    repeats = counts.vertex - len(cc.hull)
    if repeats:
        out.append(
            f"  {_points(repeats, n, 'is', 'are')} at a vertex's FPR and TPR (rows of "
            "weight 0 repeat it): cheapest where that vertex is."
        )
    if counts.edge == 1:
        out.append(
            f"  1 of the {n} points lies on a hull edge between two vertices: it is "
            "cheapest only at the PC(+) where they tie."
        )
    elif counts.edge:
        out.append(
            f"  {format_count(counts.edge)} of the {n} points lie on hull edges between "
            "two vertices: each is cheapest only at the PC(+) where its edge's vertices tie."
        )
    if counts.inside:
        out.append(
            f"  The other {_points(counts.inside, n, 'is', 'are')} never the cheapest at "
            "any cost ratio (strictly inside the hull)."
        )
    else:
        out.append(
            f"  None of the {n} points is strictly inside the hull: each is the cheapest, "
            "alone or tied, at some PC(+)."
        )
    here = standing(a.sweep, cc, a.point)
    if here is not None:
        if a.threshold is None:
            at = "Above all scores the point"
        else:
            acts = a.sweep.threshold_at(a.point)
            from_ = "nothing predicted positive" if acts is None else f"acting from {acts!r}"
            at = f"At threshold {a.threshold!r} the point"
            if acts != a.threshold:
                at += f" ({from_})"
        out.append(f"  {at} is {here.words()}.")
    return out


def _points(count: int, total: str, one: str, many: str) -> str:
    """``1 of the 5 points is``, ``7 of the 11 points are``: a count of the sweep's
    points and the verb that agrees with it."""
    return f"{format_count(count)} of the {total} points {one if count == 1 else many}"


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
