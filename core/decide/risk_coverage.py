"""The risk-coverage frontier of review bands: how few errors each coverage can cost.

A band (see :mod:`.band`) decides ``d`` rows automatically (accepted plus rejected)
and gets ``FP(kh) + FN(kl)`` of them wrong; its coverage is d/n and its selective
risk the errors over d. The frontier here is the bands that are best at some price of
a review: for a price λ, the band minimising errors + λ·reviewed. Those are the
vertices of the lower convex hull of (decided, errors) over every pair of points, and
they are found exactly without trying the pairs:

- errors and decided split into an accepted part and a rejected part: accepting the
  top ``a`` rows costs FP, rejecting the bottom ``r`` rows costs FN, and a band decides
  ``a + r`` rows (any a and r with a + r <= n make a band);
- the lowest FP for each accepted count, convexified, runs along the ROC curve's upper
  convex hull from (0, 0); the lowest FN for each rejected count along the same hull
  from its other end (FP against TP+FP and FN against TN+FN are linear images of the
  ROC points);
- so the frontier is the sum of two convex chains: their edges merged in order of
  slope (the errors each edge adds per row decided), from reviewing every row until
  the two sides meet at the hull vertex with fewest errors (one threshold, no review).

Between two vertices no band reaches the straight line joining them (that needs a coin
flip), so the vertices are the frontier's bands. Slopes are compared exactly, as cross
products of whole counts (of doubles where weights are not whole).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from threshold_lab.core.curves.hull import hull_vertices
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.metrics.metric import Metric, count_json, ratio
from threshold_lab.core.threshold import format_threshold


@dataclass(frozen=True)
class FrontierBand:
    """One vertex of the frontier: the band's points, thresholds and counts."""

    index_high: int
    index_low: int
    t_high: float | None  # None: above all scores (nothing accepted)
    t_low: float | None  # None: above all scores (every row rejected)
    errors: Any  # FP accepted + FN rejected
    accepted: Any
    rejected: Any
    total: Any

    @property
    def decided(self) -> Any:
        return self.accepted + self.rejected

    def coverage(self) -> Metric:
        return ratio(
            self.decided,
            self.total,
            reason="there are no rows",
            name="coverage",
            formula="decided/n",
        )

    def risk(self) -> Metric:
        return ratio(
            self.errors,
            self.decided,
            reason="nothing is decided (accepted+rejected=0)",
            name="selective risk",
            formula="(FP+FN)/(accepted+rejected)",
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "t_high": self.t_high,
            "t_low": self.t_low,
            "index_high": self.index_high,
            "index_low": self.index_low,
            "errors": count_json(self.errors),
            "accepted": count_json(self.accepted),
            "rejected": count_json(self.rejected),
            "decided": count_json(self.decided),
            "coverage": self.coverage().as_json(),
            "risk": self.risk().as_json(),
        }


def _num(x: Any, whole: bool) -> Any:
    return round(float(x)) if whole else float(x)


def risk_coverage(sweep: Sweep) -> tuple[FrontierBand, ...]:
    """The frontier's bands from reviewing every row (coverage 0) to the one threshold
    with fewest errors (coverage 1), coverage rising; empty without both classes.

    >>> from threshold_lab.core.data.presets import preset
    >>> from threshold_lab.core.curves.sweep import build_sweep
    >>> [(b.decided, b.errors) for b in risk_coverage(build_sweep(preset("canonical").data))]
    [(0, 0), (1, 0), (5, 2)]
    """
    verts = [int(v) for v in hull_vertices(sweep).tolist()]
    if len(verts) < 2:
        return ()
    whole = sweep.whole_counts(limit=2**62)
    tp = [_num(sweep.tp[v].item(), whole) for v in verts]
    fp = [_num(sweep.fp[v].item(), whole) for v in verts]
    pos, neg = _num(sweep.positives, whole), _num(sweep.negatives, whole)
    total = pos + neg
    h = len(verts) - 1
    i, j = 0, h  # accepted down to vertex i, rejected below vertex j
    out = [_band(sweep, verts, tp, fp, pos, neg, i, j, total)]
    while i < j:
        # The next accepted edge adds ΔFP errors over Δmade rows; the next rejected
        # edge (from vertex j back to j − 1) adds ΔTP errors (its positives, now
        # rejected) over its Δmade rows. The cheaper per row goes first.
        da, ea = (tp[i + 1] + fp[i + 1]) - (tp[i] + fp[i]), fp[i + 1] - fp[i]
        dr, er = (tp[j] + fp[j]) - (tp[j - 1] + fp[j - 1]), tp[j] - tp[j - 1]
        if ea * dr < er * da:  # equal: reject first (fewest accepted, as bands choose)
            i += 1
        else:
            j -= 1
        out.append(_band(sweep, verts, tp, fp, pos, neg, i, j, total))
    return _vertices(out)


def _vertices(bands: list[FrontierBand]) -> tuple[FrontierBand, ...]:
    """The merged chain without the points inside a straight stretch of it (two edges
    of one slope, one from each side): each band kept is a corner, best alone at some
    price; one inside a stretch is beaten at every price by the stretch's ends (at
    no errors, 6 decided beside 13 decided)."""
    kept = [bands[0]]
    for k in range(1, len(bands) - 1):
        a, b, c = kept[-1], bands[k], bands[k + 1]
        # Collinear in (decided, errors): the cross product of the two steps is 0.
        if (b.decided - a.decided) * (c.errors - b.errors) != (c.decided - b.decided) * (
            b.errors - a.errors
        ):
            kept.append(b)
    if len(bands) > 1:
        kept.append(bands[-1])
    return tuple(kept)


def _band(
    sweep: Sweep,
    verts: list[int],
    tp: list[Any],
    fp: list[Any],
    pos: Any,
    neg: Any,
    i: int,
    j: int,
    total: Any,
) -> FrontierBand:
    kh, kl = verts[i], verts[j]
    accepted = tp[i] + fp[i]
    rejected = total - (tp[j] + fp[j])
    errors = fp[i] + (pos - tp[j])
    return FrontierBand(
        kh,
        kl,
        None if kh == 0 else float(sweep.thresholds[kh - 1]),
        None if kl == 0 else float(sweep.thresholds[kl - 1]),
        errors,
        accepted,
        rejected,
        total,
    )


def frontier_lines(bands: tuple[FrontierBand, ...], most: int = 12) -> list[str]:
    """The frontier in lines: each band's coverage and selective risk with its counts
    and its thresholds (the first and last ``most // 2`` when there are more)."""
    if not bands:
        return ["Risk-coverage frontier: undefined: it needs both actual classes"]
    out = [
        f"Risk-coverage frontier: {len(bands)} bands, each the fewest errors at its coverage "
        "for some price of a review (errors are FP accepted + FN rejected)"
    ]
    shown = list(bands)
    cut = len(shown) > most
    if cut:
        shown = shown[: most // 2] + shown[-(most // 2) :]
    for n, b in enumerate(shown):
        if cut and n == most // 2:
            out.append(f"  ... {len(bands) - most} more (every band in the JSON and the chart)")
        hi = "accept no row" if b.index_high == 0 else f"accept >= {format_threshold(b.t_high)}"
        if b.index_low == 0:
            lo = "reject every row"
        elif float(b.rejected) == 0:
            lo = "reject no row"
        else:
            lo = f"reject < {format_threshold(b.t_low)}"
        risk = b.risk()
        said = risk.short() if risk.value is not None else "undefined (nothing decided)"
        out.append(f"  coverage {b.coverage().short()}, risk {said}: {hi}; {lo}")
    return out
