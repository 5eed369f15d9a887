"""``--randomised``: Fairlearn's construction on top of per-group thresholds. Each group
hits one common rate exactly, by a mixture of two adjacent points of its own sweep
(a case scored between the two thresholds is decided positive with probability q),
so identical cases may be decided differently: off unless asked for.

For a rate that rises with the sweep point (the selection rate for demographic
parity, TPR for equal opportunity) and an objective that is a sum over the rows,
a group's best expected objective at rate r is its points' upper concave envelope at
r (a mixture of two points is the chord between them; the best chords are the
envelope's edges). The sum of the groups' envelopes is concave and piecewise linear,
so its maximum over r is at a vertex of one of them: every vertex's rate is tried,
and the best wins (ties: the smallest rate). Exact in fractions of the counts.

Equalised odds (a common point in two rates), predictive parity (precision is not
linear in the mixture) and ratio objectives (F1 of expected counts is not the
expected F1) are refused, naming what is supported.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.decide.goal import Goal
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.metrics.metric import from_fraction
from threshold_lab.core.threshold import Threshold

RANDOMISED = ("demographic_parity", "equal_opportunity")


@dataclass(frozen=True)
class Mixture:
    """One group's decision: ``low`` and ``high`` thresholds (the lower one predicts
    more positives), and ``q``, the probability of using the lower one (a case scored
    at least ``low`` but below ``high`` is positive with probability q)."""

    high: Threshold
    low: Threshold
    q: Fraction

    def as_json(self) -> dict[str, Any]:
        return {
            "high": self.high,
            "low": self.low,
            "q": float(self.q),
            "q_exact": f"{self.q.numerator}/{self.q.denominator}",
        }

    def sentence(self, name: str) -> str:
        def t(x: Threshold) -> str:
            return "above all" if x is None else repr(x)

        if self.q == 0 or self.low == self.high:
            return f"{name}: threshold {t(self.high)}"
        q = f"{self.q} ≈ {float(self.q):.4f}"
        return (
            f"{name}: threshold {t(self.high)}; a case scored from {t(self.low)} up to "
            f"{t(self.high)} is positive with probability {q}"
        )


@dataclass(frozen=True)
class Randomised:
    """The common rate every group hits, each group's mixture, and the expected
    objective on all rows pooled."""

    rate: Fraction
    mixtures: dict[str, Mixture]
    objective: Fraction

    def as_json(self) -> dict[str, Any]:
        return {
            "rate": float(self.rate),
            "rate_exact": f"{self.rate.numerator}/{self.rate.denominator}",
            "mixtures": {name: m.as_json() for name, m in self.mixtures.items()},
            "objective_value": from_fraction(self.objective, float(self.objective)).as_json(),
        }


def _hull(xs: list[Fraction], ys: list[Fraction]) -> list[int]:
    """Indices of the upper concave envelope of points (x rising; at one x, the best
    y and, among equals, the first point: the highest threshold)."""
    best: dict[Fraction, int] = {}
    for i, (x, y) in enumerate(zip(xs, ys, strict=True)):
        j = best.get(x)
        if j is None or y > ys[j]:
            best[x] = i
    pts = sorted(best.values(), key=lambda i: xs[i])
    hull: list[int] = []
    for i in pts:
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            # b is under (or on) the chord a-i: not a vertex of the upper envelope
            if (ys[b] - ys[a]) * (xs[i] - xs[a]) <= (ys[i] - ys[a]) * (xs[b] - xs[a]):
                hull.pop()
            else:
                break
        hull.append(i)
    return hull


def _at(
    hull: list[int], xs: list[Fraction], ys: list[Fraction], r: Fraction
) -> tuple[Fraction, int, int, Fraction] | None:
    """The envelope at r: (value, the vertex at or below r, the one above, the weight
    of the one above), or None outside the envelope's span."""
    if r < xs[hull[0]] or r > xs[hull[-1]]:
        return None
    for a, b in itertools.pairwise(hull):
        if xs[a] <= r <= xs[b]:
            if r == xs[a]:
                return ys[a], a, a, Fraction(0)
            if r == xs[b]:
                return ys[b], b, b, Fraction(0)
            w = (r - xs[a]) / (xs[b] - xs[a])
            return ys[a] + w * (ys[b] - ys[a]), a, b, w
    return ys[hull[0]], hull[0], hull[0], Fraction(0)


def solve_randomised(
    sweeps: Sequence[tuple[str, Sweep]],
    criterion: str,
    goal: Goal,
    coefficients: tuple[Fraction, Fraction, Fraction],
    sign: int,
) -> Randomised | str:
    """The best common rate and each group's mixture, or why there is none.
    ``coefficients`` (a, b, c): the pooled objective is a·ΣTP + b·ΣFP + c; ``sign``
    -1 when it is minimised."""
    if criterion not in RANDOMISED:
        raise InputError(
            f"--randomised: for {', '.join(RANDOMISED)} (one rate each group can "
            f"hit exactly by mixing two points), not {criterion}"
        )
    if not all(s.whole_counts() for _, s in sweeps):
        raise InputError(
            "--randomised: the weights must be whole numbers (the mixtures are "
            "found in exact fractions of the counts)"
        )
    a, b, c = coefficients
    groups = []
    for name, s in sweeps:
        tp = [Fraction(int(x)) for x in s.tp.tolist()]
        fp = [Fraction(int(x)) for x in s.fp.tolist()]
        pos, neg = Fraction(int(s.positives)), Fraction(int(s.negatives))
        if criterion == "demographic_parity":
            xs = [(t + f) / (pos + neg) for t, f in zip(tp, fp, strict=True)]
        else:
            if pos == 0:
                raise InputError(
                    f"--randomised: group {quoted(name)} has no actual positives (its TPR is "
                    "undefined)"
                )
            xs = [t / pos for t in tp]
        ys = [sign * (a * t + b * f) for t, f in zip(tp, fp, strict=True)]
        groups.append((name, s, xs, ys, _hull(xs, ys)))
    rates = sorted({xs[i] for _, _, xs, _, hull in groups for i in hull})
    best: tuple[Fraction, Fraction] | None = None
    for r in rates:
        total = Fraction(0)
        for _, _, xs, ys, hull in groups:
            at = _at(hull, xs, ys, r)
            if at is None:
                break
            total += at[0]
        else:
            if best is None or total > best[0]:
                best = (total, r)
    if best is None:
        return "no rate is reachable by every group"
    total, r = best
    mixtures = {}
    for name, s, xs, ys, hull in groups:
        at = _at(hull, xs, ys, r)
        assert at is not None
        _, lo_k, hi_k, w = at

        def t(k: int, s: Sweep = s) -> Threshold:
            return None if k == 0 else float(s.thresholds[k - 1])

        mixtures[name] = Mixture(t(lo_k), t(hi_k), w)
    return Randomised(r, mixtures, sign * total + c)
