"""Monotone score transforms: the ranking (so ROC AUC, AP and the sweep's counts)
stays, the decisions at a fixed threshold move.

Only strictly increasing transforms are allowed, and each is checked on the scores it
is given, in double precision: a score outside its domain (log of 0, logit of 1, the
square of a negative score), a result that is not finite, or two distinct scores the
floating-point result would merge into one (which would change the ranking) is
refused naming the row. So a transform that is allowed keeps every tie group and
its order exactly.

The threshold that reproduces the old decisions on the new scores is f(t), the
transformed threshold (any value above f of the next lower score and at most f of the
operating point's score does too); where f(t) itself is not defined or not finite
(log of a threshold of 0), f of the operating point's score is reported.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Analysis, analyse
from threshold_lab.core.choices import TRANSFORMS as NAMES
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.errors import InputError
from threshold_lab.core.metrics.metric import Metric
from threshold_lab.core.threshold import Threshold, format_threshold

FloatArray = npt.NDArray[np.float64]


def _expit(x: FloatArray) -> FloatArray:
    out: FloatArray = np.empty_like(x)
    pos = x >= 0
    out[pos] = 1.0 / (1.0 + np.exp(-x[pos]))
    e = np.exp(x[~pos])
    out[~pos] = e / (1.0 + e)
    return out


@dataclass(frozen=True)
class Transform:
    """A strictly increasing map of scores: its name, the function, and the scores
    it is defined and increasing on (``domain`` says which, in words)."""

    name: str
    f: Callable[[FloatArray], FloatArray]
    allowed: Callable[[FloatArray], npt.NDArray[np.bool_]]
    domain: str


def _affine(text: str) -> Transform:
    body = text.split(":", 1)[1] if ":" in text else ""
    parts = [p.strip() for p in body.split(",")]
    try:
        if len(parts) != 2:
            raise ValueError
        a, b = float(parts[0]), float(parts[1])
    except ValueError:
        raise InputError(
            f"affine takes two numbers, affine:A,B (A > 0): s becomes A·s + B; not {text!r}"
        ) from None
    if not (math.isfinite(a) and math.isfinite(b)):
        raise InputError(f"affine:A,B needs finite numbers, not {text!r}")
    if a <= 0:
        raise InputError(f"affine:A,B needs A > 0 (A·s + B must increase with s); A is {a:g}")
    return Transform(
        f"affine:{a:g},{b:g}", lambda s: a * s + b, lambda s: np.ones(s.shape, bool), "any score"
    )


def parse_transform(text: str) -> Transform:
    """A transform by name (see :data:`NAMES`); raises InputError naming the choices.

    >>> float(parse_transform("square").f(np.array([0.7]))[0])
    0.48999999999999994
    """
    word = text.strip()
    key = word.lower()
    if key.startswith("affine"):
        return _affine(word)
    table: dict[str, Transform] = {
        "square": Transform("square", np.square, lambda s: s >= 0, "scores >= 0"),
        "sqrt": Transform("sqrt", np.sqrt, lambda s: s >= 0, "scores >= 0"),
        "log": Transform("log", np.log, lambda s: s > 0, "scores > 0"),
        "logit": Transform(
            "logit",
            lambda s: np.log(s) - np.log1p(-s),
            lambda s: (s > 0) & (s < 1),
            "scores strictly between 0 and 1",
        ),
        "expit": Transform("expit", _expit, lambda s: np.ones(s.shape, bool), "any score"),
        "rank": Transform("rank", _rank_placeholder, lambda s: np.ones(s.shape, bool), "any score"),
    }
    if key not in table:
        raise InputError(f"no transform {word!r}; the transforms are: {', '.join(NAMES)}")
    return table[key]


def _rank_placeholder(s: FloatArray) -> FloatArray:  # pragma: no cover - replaced
    raise AssertionError("rank is applied to a whole column (see apply)")


def average_ranks(scores: FloatArray) -> FloatArray:
    """Each score's average rank (1 = lowest; ties share the mean of their ranks),
    scaled to (0, 1] by the number of rows.

    >>> average_ranks(np.array([0.9, 0.1, 0.4, 0.4])).tolist()
    [1.0, 0.25, 0.625, 0.625]
    """
    n = scores.shape[0]
    order = np.argsort(scores, kind="stable")
    s = scores[order]
    first = np.r_[True, s[1:] != s[:-1]]
    starts = np.flatnonzero(first)
    ends = np.r_[starts[1:], n]
    mean_rank = (starts + 1 + ends) / 2.0  # ranks starts+1 .. ends, averaged
    ranks: FloatArray = np.empty(n)
    ranks[order] = np.repeat(mean_rank, ends - starts)
    ranks /= n
    return ranks


@dataclass(frozen=True)
class Applied:
    """A transform applied to a dataset: the new scores, and the map a threshold
    takes (f on single values; for rank, through the scores it was applied to)."""

    transform: Transform
    scores: FloatArray
    old: FloatArray

    def equivalent_threshold(self, t: Threshold) -> Threshold:
        """The threshold on the new scores that makes the decisions ``t`` made on the
        old ones: f(t), or f of the operating point's score where f(t) is not finite
        or not defined; None (above all) stays None."""
        if t is None:
            return None
        old = self.old
        at_or_above = old >= t
        if not at_or_above.any():
            return None  # nothing predicted positive: still above all the new scores
        if self.transform.name != "rank" and bool(self.transform.allowed(np.array([t]))[0]):
            with np.errstate(all="ignore"):
                ft = float(self.transform.f(np.array([float(t)]))[0])
            lower = old[~at_or_above]
            # f(t) must still lie above f of the next lower score: exact maths says so,
            # floating point nearly always; else fall back to the operating point's.
            below_ok = lower.size == 0 or ft > float(self.scores[~at_or_above][np.argmax(lower)])
            if math.isfinite(ft) and below_ok:
                return _shortest(ft, self._valid(at_or_above))
        k = int(np.argmin(np.where(at_or_above, old, np.inf)))  # the operating point
        return float(self.scores[k])

    def _valid(self, at_or_above: npt.NDArray[np.bool_]) -> tuple[float, float]:
        """(f of the next lower score, f of the operating point's score): a threshold
        on the new scores above the first and at most the second decides alike."""
        low = self.scores[~at_or_above]
        return (float(low.max()) if low.size else -math.inf, float(self.scores[at_or_above].min()))


def _shortest(x: float, valid: tuple[float, float]) -> float:
    """The shortest decimal within four units in the last place of ``x`` that decides
    alike (0.49 for 0.7² = 0.48999999999999994), else ``x``."""
    lo, hi = valid
    ulp = math.ulp(x)
    for places in range(1, 18):
        r = round(x, places)
        if abs(r - x) <= 4 * ulp and lo < r <= hi:
            return r
    return x


def apply(transform: Transform, data: Dataset) -> Applied:
    """``transform`` applied to ``data``'s scores, checked (see the module): raises
    InputError naming a row where the transform is not defined, not finite, or would
    merge two distinct scores."""
    s = data.scores
    if transform.name == "rank":
        return Applied(transform, average_ranks(s), s)
    ok = transform.allowed(s)
    if not ok.all():
        i = int(np.flatnonzero(~ok)[0])
        raise InputError(
            f"{transform.name} is defined and increasing on {transform.domain} only; row "
            f"{data.shown_id(i)} has score {float(s[i])!r}"
        )
    with np.errstate(all="ignore"):
        new = np.asarray(transform.f(s), dtype=np.float64)
    bad = ~np.isfinite(new)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(
            f"{transform.name} of row {data.shown_id(i)}'s score {float(s[i])!r} is "
            f"{float(new[i])!r}, not a finite number"
        )
    # Distinct scores must stay distinct and in order (the maths says so; floating
    # point may round two neighbours onto one value).
    order = np.argsort(s, kind="stable")
    so, no = s[order], new[order]
    distinct = so[1:] != so[:-1]
    merged = distinct & ~(no[1:] > no[:-1])
    if merged.any():
        j = int(np.flatnonzero(merged)[0])
        a, b = int(order[j]), int(order[j + 1])
        raise InputError(
            f"{transform.name} would merge two distinct scores in double precision: rows "
            f"{data.shown_id(a)} ({float(s[a])!r}) and {data.shown_id(b)} ({float(s[b])!r}) "
            f"both become {float(new[b])!r}, which would change the ranking"
        )
    return Applied(transform, new, s)


@dataclass(frozen=True)
class Kept:
    """What a transform did with the threshold kept: the summaries before and after
    (the same, by construction), how many rows' decisions changed at the threshold,
    and the threshold on the new scores that reproduces the old decisions."""

    name: str
    threshold: Threshold
    equivalent_threshold: Threshold
    auc: tuple[object, object]
    ap: tuple[object, object]
    decisions_changed: int

    def as_json(self) -> dict[str, object]:

        def js(m: object) -> object:
            return m.as_json() if isinstance(m, Metric) else None

        return {
            "name": self.name,
            "equivalent_threshold": self.equivalent_threshold,
            "threshold": self.threshold,
            "decisions_changed": self.decisions_changed,
            "roc_auc_before": js(self.auc[0]),
            "roc_auc_after": js(self.auc[1]),
            "average_precision_before": js(self.ap[0]),
            "average_precision_after": js(self.ap[1]),
        }

    def sentence(self) -> str:
        """``square: ROC AUC 13/16 and AP 7/10 are unchanged (the ranking is); at
        threshold 0.7, 1 row's decision changed; threshold 0.49 = f(0.7) makes the old
        decisions again.``"""

        def short(m: object) -> str:
            return m.short() if isinstance(m, Metric) else "undefined"

        t = format_threshold(self.threshold)
        auc, ap = short(self.auc[1]), short(self.ap[1])
        same = (
            f"ROC AUC and AP are unchanged, {auc} and {ap} before and after (the ranking "
            "is the same); log loss, Brier and calibration are not"
        )
        n = self.decisions_changed
        rows = (
            "no row's decision changed"
            if n == 0
            else (f"{n:,} row's decision changed" if n == 1 else f"{n:,} rows' decisions changed")
        )
        if self.threshold is None:
            return f"Scores transformed by {self.name}: above all scores nothing changes; {same}."
        eq = format_threshold(self.equivalent_threshold)
        return (
            f"Scores transformed by {self.name}: at threshold {t} (kept) {rows}, and "
            f"threshold {eq} = {self.name}({t}) makes the old decisions again; {same}."
        )


def kept(applied: Applied, threshold: Threshold, before: Analysis, after: Analysis) -> Kept:
    """:class:`Kept` for ``applied`` with ``threshold`` kept; ``before`` and ``after`` are
    the analyses of the old and new scores."""
    sb, sa = before.curves.summaries, after.curves.summaries
    if threshold is None:
        changed = 0
    else:
        changed = int(np.count_nonzero((applied.old >= threshold) != (applied.scores >= threshold)))
    return Kept(
        applied.transform.name,
        threshold,
        applied.equivalent_threshold(threshold),
        (sb.roc_auc, sa.roc_auc),
        (sb.average_precision, sa.average_precision),
        changed,
    )


def transform_rows(
    transform: Transform, data: Dataset, threshold: Threshold, *, beta: float = 2.0
) -> tuple[Dataset, Kept, Analysis]:
    """``data`` with ``transform`` applied (raises InputError naming a row), what that
    did with ``threshold`` kept, and the analysis of the new rows there (its sweep made
    once, for the caller to keep)."""

    applied = apply(transform, data)
    new = data.with_scores(applied.scores)
    after = analyse(new, threshold, beta=beta)
    said = kept(applied, threshold, analyse(data, threshold, beta=beta), after)
    return new, said, after
