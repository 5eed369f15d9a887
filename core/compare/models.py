"""Models side by side: each model's analysis, and what tells each pair apart."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.analysis import Analysis
from threshold_lab.core.compare.paired import (
    UNPAIRED,
    AreaTest,
    BootstrapTest,
    McNemar,
    PairedDeLong,
    RateTest,
    mcnemar,
    paired_ap_bootstrap,
    paired_delong,
    paired_draws,
    paired_net_benefit_bootstrap,
    rate_test,
    resampled_test,
    unpaired_auc_bootstrap,
    unpaired_delong,
    unpaired_draws,
)
from threshold_lab.core.compare.venkatraman import (
    Venkatraman,
    venkatraman,
    venkatraman_unpaired,
)
from threshold_lab.core.curves.coordinates import READS, Given, coordinate
from threshold_lab.core.curves.operating import partial_auc
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.data.dataset import Dataset, Model
from threshold_lab.core.intervals.closed import CONFIDENCE, Interval
from threshold_lab.core.metrics.metric import (
    Metric,
    format_fraction,
    from_fraction,
    undefined,
)
from threshold_lab.core.threshold import Threshold, format_threshold


def predictions(data: Dataset, threshold: Threshold) -> npt.NDArray[np.bool_]:
    """Each row predicted positive (``score >= threshold``; none above all)."""
    if threshold is None:
        return np.zeros(data.n, dtype=bool)
    out: npt.NDArray[np.bool_] = data.scores >= threshold
    return out


def difference(a: Metric, b: Metric, name: str) -> Metric:
    """``a − b``: exact when both are, undefined (naming which) when either is."""
    if a.value is None or b.value is None:
        which = a if a.value is None else b
        return undefined(f"{which.name or 'a summary'} is undefined", name=name)
    exact = a.exact - b.exact if a.exact is not None and b.exact is not None else None
    return from_fraction(exact, a.value - b.value, name=name, formula="A − B")


@dataclass(frozen=True)
class NetBenefitDifference:
    """NB(a) − NB(b) at one threshold probability, with its paired bootstrap interval
    (None and why, or both None without a bootstrap)."""

    pt: Fraction
    value: Metric
    interval: Interval | None = None
    reason: str | None = None

    def as_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"pt": float(self.pt), "value": self.value.value}
        if self.interval is not None:
            out["interval"] = self.interval.as_json()
        elif self.reason is not None:
            out["interval"], out["interval_reason"] = None, self.reason
        return out


@dataclass(frozen=True)
class Comparison:
    """Models ``a`` and ``b`` (each at its own analysis) compared."""

    a: str
    b: str
    auc: tuple[Metric, Metric]
    ap: tuple[Metric, Metric]
    auc_difference: Metric
    delong: PairedDeLong | None
    delong_reason: str | None
    ap_difference: Metric
    summaries_disagree: bool | None
    mcnemar: McNemar | None
    mcnemar_reason: str | None
    thresholds: tuple[Threshold, Threshold]
    #: The AP difference's paired bootstrap interval (or None and why; both None
    #: when no bootstrap was asked for).
    ap_interval: tuple[Interval | None, str | None] = (None, None)
    #: pROC's bootstrap test of the AUC difference, from the same paired replicates
    #: (None when no bootstrap was asked for).
    auc_bootstrap: BootstrapTest | None = None
    #: Venkatraman's permutation test that the two curves are the same (None when not
    #: asked for; ``venkatraman_reason`` why it could not be run).
    venkatraman: Venkatraman | None = None
    venkatraman_reason: str | None = None
    #: Net benefit of a less b at each pt of the decision curve's grid (empty where
    #: either curve is undefined).
    net_benefit_difference: tuple[NetBenefitDifference, ...] = ()
    #: pROC's bootstrap tests of the sensitivities at a specificity and the
    #: specificities at a sensitivity (--test sensitivity, specificity).
    rate_tests: tuple[RateTest, ...] = ()
    #: pROC's bootstrap test of the two partial AUCs over each region asked for
    #: (--test bootstrap with --partial-auc).
    area_tests: tuple[AreaTest, ...] = ()

    def __repr__(self) -> str:
        """One short line: the two AUCs, their difference with DeLong's interval and
        p, and the AP difference."""
        d = self.delong
        test = "" if d is None else f" ({d.interval.text()}, {d.p.text()})"
        return (
            f"<Comparison {self.a} − {self.b}: ROC AUC {self.auc[0].short()} vs "
            f"{self.auc[1].short()}, difference {self.auc_difference.short()}{test}; "
            f"AP difference {self.ap_difference.short()}>"
        )

    def as_json(self) -> dict[str, Any]:
        auc = self.auc_difference.as_json()
        if self.delong is not None:
            d = self.delong
            auc.update(
                {
                    "se": d.se,
                    "interval": d.interval.as_json(),
                    "z": d.z,
                    **d.p.as_json(),
                    "method": d.method,
                    "alternative": d.alternative,
                    # pROC's var() of each AUC and cov() of the two (DeLong's).
                    "var": {self.a: d.var_a, self.b: d.var_b},
                    "cov": d.cov,
                }
            )
            if not d.paired:
                auc["df"] = d.df  # Student's t, Welch–Satterthwaite (null when the SE is 0)
            if d.z is None:
                auc["z_reason"] = d.z_reason
            if self.auc_bootstrap is not None:
                auc["bootstrap"] = self.auc_bootstrap.as_json()
        elif self.auc_difference.value is not None:
            auc.update(
                {
                    "se": None,
                    "interval": None,
                    "p_value": None,
                    "p_value_log10": None,
                    "interval_reason": self.delong_reason,
                }
            )
        if self.venkatraman is not None:
            auc["venkatraman"] = self.venkatraman.as_json()
        elif self.venkatraman_reason is not None:
            auc["venkatraman"] = None
            auc["venkatraman_reason"] = self.venkatraman_reason
        at: dict[str, Any] = {
            "thresholds": {self.a: self.thresholds[0], self.b: self.thresholds[1]}
        }
        if self.mcnemar is not None:
            m = self.mcnemar
            at["mcnemar"] = {"b": m.b, "c": m.c, **m.p.as_json(), "alternative": m.alternative}
            at["decided_differently"] = m.decided_differently
        else:
            at["mcnemar"], at["mcnemar_reason"] = None, self.mcnemar_reason
            at["decided_differently"] = None
        return {
            "a": self.a,
            "b": self.b,
            "auc_difference": auc,
            "ap_difference": self._ap_json(),
            "summaries_disagree": self.summaries_disagree,
            "at_threshold": at,
            "net_benefit_difference": [d.as_json() for d in self.net_benefit_difference],
            **{f"{t.rate}_difference": t.as_json() for t in self.rate_tests},
            **(
                {"partial_auc_difference": [t.as_json() for t in self.area_tests]}
                if self.area_tests
                else {}
            ),
        }

    def _ap_json(self) -> dict[str, Any]:
        out = self.ap_difference.as_json()
        interval, reason = self.ap_interval
        if interval is not None:
            out["interval"] = interval.as_json()
        elif reason is not None:
            out["interval"], out["interval_reason"] = None, reason
        return out

    def detail_lines(self) -> list[str]:
        """The pair's numbers, one a line, for the text report and plain mode."""
        lines = [self.sentence()]
        d = self.delong
        diff = self.auc_difference
        if d is not None:
            test = "" if d.df is None else f", Student's t on {d.df:.4g} df"
            lines.append(
                f"  ROC AUC {self.a} − {self.b} {_equals(diff.brief())}: "
                f"{'paired' if d.paired else 'unpaired'} DeLong SE {d.se:.4g}, "
                f"{d.interval.text()}, {d.p.text()}{_sided(d.alternative, self.a, self.b)}{test}"
            )
        elif diff.value is not None:
            lines.append(
                f"  ROC AUC {self.a} − {self.b} {_equals(_signed(diff))}: no DeLong test "
                f"({self.delong_reason})"
            )
        if self.auc_bootstrap is not None:
            sided = _sided(self.auc_bootstrap.alternative, self.a, self.b)
            lines.append(f"  ROC AUC {self.a} − {self.b}: {self.auc_bootstrap.text()}{sided}")
        lines += [f"  {t.text(self.a, self.b)}" for t in self.rate_tests]
        lines += [f"  {t.text(self.a, self.b)}" for t in self.area_tests]
        if self.venkatraman is not None:
            lines.append(f"  Curves {self.a} and {self.b}: {self.venkatraman.text()}")
        elif self.venkatraman_reason is not None:
            why = self.venkatraman_reason
            lines.append(f"  Curves {self.a} and {self.b}: no Venkatraman test ({why})")
        ap_line = f"  AP {self.a} − {self.b} {_equals(_signed(self.ap_difference))}"
        interval, reason = self.ap_interval
        if interval is not None:
            ap_line += f": paired bootstrap {interval.text()}"
        elif reason is not None:
            ap_line += f": no interval ({reason})"
        lines.append(ap_line)
        m = self.mcnemar
        ta, tb = (_threshold_words(t) for t in self.thresholds)
        where = f"at {ta}" if ta == tb else f"{self.a} at {ta}, {self.b} at {tb}"
        if m is not None:
            lines.append(
                f"  Decisions {where}: {_examples(m.decided_differently)} decided differently; "
                f"{m.b} only {self.a} gets right, {m.c} only {self.b} gets right "
                f"(McNemar's exact test, {m.p.text(4)}{_sided(m.alternative, self.a, self.b)})"
            )
        else:
            lines.append(f"  Decisions {where}: {self.mcnemar_reason}")
        return lines

    def sentence(self) -> str:
        """``B ranks better by AUC (7/8 vs 13/16, difference 1/16, p = 0.62), A by average
        precision (7/10 vs 7/12): the two summaries disagree.``"""
        (auc_a, auc_b), (ap_a, ap_b) = self.auc, self.ap
        if auc_a.value is None or auc_b.value is None:
            return f"{self.a} and {self.b}: ROC AUC is undefined ({auc_a.reason or auc_b.reason})."
        p = "" if self.delong is None else f", {self.delong.p.text()}"
        diff = self.auc_difference
        if auc_a.value == auc_b.value:
            by_auc = f"{self.a} and {self.b} tie by AUC ({auc_a.brief()})"
        else:
            hi = self.a if auc_a.value > auc_b.value else self.b
            x, y = (auc_a, auc_b) if hi == self.a else (auc_b, auc_a)
            size = _abs_short(diff)
            by_auc = f"{hi} ranks better by AUC ({x.brief()} vs {y.brief()}, difference {size}{p})"
        if ap_a.value is None or ap_b.value is None:
            return by_auc + "; average precision is undefined."
        if ap_a.value == ap_b.value:
            return by_auc + f"; they tie by average precision ({ap_a.brief()})."
        hi = self.a if ap_a.value > ap_b.value else self.b
        x, y = (ap_a, ap_b) if hi == self.a else (ap_b, ap_a)
        by_ap = f"average precision ({x.brief()} vs {y.brief()})"
        if self.summaries_disagree:
            return f"{by_auc}, {hi} by {by_ap}: the two summaries disagree."
        if auc_a.value == auc_b.value:
            return f"{by_auc}; {hi} ranks better by {by_ap}."
        return f"{by_auc} and by {by_ap}: the two summaries agree."


def _sided(alternative: str, a: str, b: str) -> str:
    """`` one-sided, H1: A > B`` for a one-sided test, nothing for a two-sided one."""
    if alternative == "two-sided":
        return ""
    return f" one-sided, H1: {a} {'>' if alternative == 'greater' else '<'} {b}"


def _equals(value: str) -> str:
    """``= 1/16`` for an exact value, ``≈ 0.0737`` for a decimal (not ``= ≈ 0.0737``)."""
    return value if value.startswith("≈") else f"= {value}"


def _signed(m: Metric) -> str:
    return m.brief() if m.value is not None else m.undefined_text()


def _threshold_words(t: Threshold) -> str:
    return "above all scores" if t is None else f"threshold {format_threshold(t)}"


def _abs_short(m: Metric) -> str:
    """The size of a difference: its fraction while short (as :func:`_short`), else
    a decimal."""
    if m.exact is not None and m.exact.denominator < 1000:
        return format_fraction(abs(m.exact))
    return f"≈ {abs(m.value or 0.0):.4g}"


def compare(
    a: Model,
    a_an: Analysis,
    b: Model,
    b_an: Analysis,
    confidence: float = CONFIDENCE,
    boot: tuple[int, int] | None = None,
    *,
    paired: bool = True,
    alternative: str = "two-sided",
    permutations: tuple[int, int] | None = None,
    rates: tuple[tuple[Given, float], ...] = (),
    areas: tuple[tuple[str, float, float], ...] = (),
) -> Comparison:
    """Compare two models, each at the threshold of its own analysis; ``boot``
    (replicates, seed) adds a paired bootstrap interval to the AP difference.
    ``paired=False``: the two are different examples (an aggregated file's ``--by``
    groups, or ``--unpaired``), compared as independent samples; their decisions are
    not paired. ``alternative``: two-sided, greater (a above b) or less, for DeLong's
    test and McNemar's. ``permutations`` (count, seed): Venkatraman's test too.
    ``rates``: (given, at) coordinates whose rates are tested over ``boot``'s
    replicates (``("specificity", 0.9)``: the sensitivities at specificity 0.9);
    ``areas``: (focus, low, high) regions whose partial AUCs are."""
    tests = _rate_tests(a, a_an, b, b_an, boot, alternative, rates, paired)
    area_tests = _area_tests(a, a_an, b, b_an, boot, alternative, areas, paired)
    if not paired:
        done = _unpaired(a, a_an, b, b_an, confidence, boot, alternative, permutations)
        return dataclasses.replace(done, rate_tests=tests, area_tests=area_tests)
    sa, sb = a_an.curves.summaries, b_an.curves.summaries
    auc_diff = difference(sa.roc_auc, sb.roc_auc, "ROC AUC difference")
    ap_diff = difference(sa.average_precision, sb.average_precision, "AP difference")
    ap_interval: tuple[Interval | None, str | None] = (None, None)
    auc_test = None
    if boot is not None and ap_diff.value is not None:
        interval, why, auc_test = paired_ap_bootstrap(
            a.data,
            b.data,
            replicates=boot[0],
            seed=boot[1],
            confidence=confidence,
            alternative=alternative,
            auc_difference=auc_diff.value,
        )
        ap_interval = (interval, why)
    labels, weights = a.data.labels, a.data.weights
    delong, why = (None, None)
    if auc_diff.value is not None:
        delong, why = paired_delong(
            a.data.scores, b.data.scores, labels, weights, confidence, alternative
        )
    disagree = None
    if auc_diff.value is not None and ap_diff.value is not None:
        disagree = auc_diff.value * ap_diff.value < 0
    test, test_why = mcnemar(
        predictions(a.data, a_an.threshold),
        predictions(b.data, b_an.threshold),
        labels,
        weights,
        alternative,
    )
    return Comparison(
        a.name,
        b.name,
        (sa.roc_auc, sb.roc_auc),
        (sa.average_precision, sb.average_precision),
        auc_diff,
        delong,
        why,
        ap_diff,
        disagree,
        test,
        test_why,
        (a_an.threshold, b_an.threshold),
        ap_interval,
        auc_test,
        *_venkatraman(a.data, b.data, auc_diff, permutations),
        rate_tests=tests,
        area_tests=area_tests,
    )


def _draws(
    a: Model, b: Model, sweeps: tuple[Sweep, Sweep], boot: tuple[int, int], paired: bool
) -> Any:
    """A fresh run of replicates from the seed: the same examples in both models'
    (paired), or each model's own (unpaired)."""
    count, seed = boot
    if paired:
        return paired_draws(a.data, b.data, count, seed)
    return unpaired_draws(sweeps[0], sweeps[1], count, seed)


def _area_tests(
    a: Model,
    a_an: Analysis,
    b: Model,
    b_an: Analysis,
    boot: tuple[int, int] | None,
    alternative: str,
    areas: tuple[tuple[str, float, float], ...],
    paired: bool,
) -> tuple[AreaTest, ...]:
    """The bootstrap test of each partial AUC asked for, each over its own replicates
    from the seed (as pROC runs each roc.test apart)."""
    if not areas or boot is None:
        return ()
    count, seed = boot
    sweeps = (a_an.curves.sweep, b_an.curves.sweep)
    out = []
    for focus, low, high in areas:

        def area(s: Sweep, f: Any = focus, lo: float = low, hi: float = high) -> float:
            v = partial_auc(s, f, lo, hi).area.value
            return math.nan if v is None else float(v)

        drawn = _draws(a, b, sweeps, boot, paired)
        values = (
            partial_auc(sweeps[0], focus, low, high).area,  # type: ignore[arg-type]
            partial_auc(sweeps[1], focus, low, high).area,  # type: ignore[arg-type]
        )
        test, dropped = resampled_test(
            area,
            values,
            sweeps,
            drawn,
            replicates=count,
            seed=seed,
            alternative=alternative,
            method="paired bootstrap" if paired else UNPAIRED,
        )
        out.append(AreaTest(focus, low, high, values, test, dropped))
    return tuple(out)


def _rate_tests(
    a: Model,
    a_an: Analysis,
    b: Model,
    b_an: Analysis,
    boot: tuple[int, int] | None,
    alternative: str,
    rates: tuple[tuple[Given, float], ...],
    paired: bool,
) -> tuple[RateTest, ...]:
    """Each rate test asked for, each over its own replicates from the seed (as
    pROC runs each roc.test apart)."""
    if not rates or boot is None:
        return ()
    count, seed = boot
    sweeps = (a_an.curves.sweep, b_an.curves.sweep)
    out = []
    for given, at in rates:
        drawn = _draws(a, b, sweeps, boot, paired)
        (rate,) = READS[given]
        out.append(
            rate_test(
                given,
                at,
                (
                    coordinate(sweeps[0], given, at).values[rate],
                    coordinate(sweeps[1], given, at).values[rate],
                ),
                sweeps,
                drawn,
                replicates=count,
                seed=seed,
                alternative=alternative,
                method="paired bootstrap" if paired else UNPAIRED,
            )
        )
    return tuple(out)


def _venkatraman(
    a: Dataset,
    b: Dataset,
    auc_diff: Metric,
    permutations: tuple[int, int] | None,
    *,
    paired: bool = True,
) -> tuple[Venkatraman | None, str | None]:
    """Venkatraman's test when asked for (paired, or Venkatraman and Begg's unpaired
    form for different examples), or why it cannot be run."""
    if permutations is None:
        return None, None
    if a.weights is not None or b.weights is not None:
        return None, "it ranks examples one by one, and these rows are weighted"
    if auc_diff.value is None:
        return None, "it needs actual positives and negatives"
    count, seed = permutations
    if not paired:
        test = venkatraman_unpaired(
            a.scores, a.labels, b.scores, b.labels, permutations=count, seed=seed
        )
        return test, None
    return venkatraman(a.scores, b.scores, a.labels, permutations=count, seed=seed), None


#: Why different examples (groups, or --unpaired) get no McNemar test or paired bootstrap.
NOT_PAIRED = (
    "the two are compared as different examples (groups, or --unpaired); it needs the "
    "same examples in both"
)


def _unpaired(
    a: Model,
    a_an: Analysis,
    b: Model,
    b_an: Analysis,
    confidence: float,
    boot: tuple[int, int] | None,
    alternative: str = "two-sided",
    permutations: tuple[int, int] | None = None,
) -> Comparison:
    sa, sb = a_an.curves.summaries, b_an.curves.summaries
    auc_diff = difference(sa.roc_auc, sb.roc_auc, "ROC AUC difference")
    ap_diff = difference(sa.average_precision, sb.average_precision, "AP difference")
    delong, why = (None, None)
    if auc_diff.value is not None:
        # n each set's examples: its rows, or its counts' total when aggregated.
        delong, why = unpaired_delong(a_an.curves.sweep, b_an.curves.sweep, confidence, alternative)
    disagree = None
    if auc_diff.value is not None and ap_diff.value is not None:
        disagree = auc_diff.value * ap_diff.value < 0
    ap_interval = (None, f"no paired bootstrap: {NOT_PAIRED}") if boot else (None, None)
    auc_test = None
    if boot is not None and auc_diff.value is not None:
        auc_test = unpaired_auc_bootstrap(
            a_an.curves.sweep,
            b_an.curves.sweep,
            auc_diff.value,
            replicates=boot[0],
            seed=boot[1],
            alternative=alternative,
        )
    return Comparison(
        a.name,
        b.name,
        (sa.roc_auc, sb.roc_auc),
        (sa.average_precision, sb.average_precision),
        auc_diff,
        delong,
        why,
        ap_diff,
        disagree,
        None,
        f"McNemar's test: {NOT_PAIRED}",
        (a_an.threshold, b_an.threshold),
        ap_interval,
        auc_test,
        *_venkatraman(a.data, b.data, auc_diff, permutations, paired=False),
    )


def _examples(n: int) -> str:
    return f"{n:,} example" if n == 1 else f"{n:,} examples"


def pairs(models: Sequence[Model]) -> list[tuple[int, int]]:
    """Every pair, in order: (0, 1), (0, 2), ..., (1, 2), ..."""
    return [(i, j) for i in range(len(models)) for j in range(i + 1, len(models))]


def net_benefit_differences(
    a: Model,
    b: Model,
    rows_a: Sequence[tuple[Fraction, Metric]],
    rows_b: Sequence[tuple[Fraction, Metric]],
    weights: tuple[float, float],
    *,
    paired: bool,
    confidence: float = CONFIDENCE,
    boot: tuple[int, int] | None = None,
) -> tuple[NetBenefitDifference, ...]:
    """NB(a) − NB(b) at each pt of the two decision curves' grid (``rows_*``: each pt
    and its net benefit), with a paired bootstrap interval each when ``boot``
    (replicates, seed) is given and the models score the same examples; ``weights``:
    what a positive and a negative count weigh in net benefit (see
    :func:`paired_net_benefit_bootstrap`)."""
    rows = list(zip(rows_a, rows_b, strict=True))
    intervals: list[Interval] | None = None
    reason: str | None = None
    if boot is not None:
        if not paired:
            reason = f"no paired bootstrap: {NOT_PAIRED}"
        else:
            pts = np.asarray([float(pt) for (pt, _), _ in rows])
            intervals, reason = paired_net_benefit_bootstrap(
                a.data,
                b.data,
                pts,
                weights,
                replicates=boot[0],
                seed=boot[1],
                confidence=confidence,
            )
    out = []
    for i, ((pt, nb_a), (_, nb_b)) in enumerate(rows):
        value = difference(nb_a, nb_b, "net benefit difference")
        interval = None if intervals is None else intervals[i]
        out.append(NetBenefitDifference(pt, value, interval, reason))
    return tuple(out)
