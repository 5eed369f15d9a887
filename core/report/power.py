"""``threshold_lab.power``: one ROC curve's power and sample size from Python, the
options the command line's ``power`` takes (one table declares them)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.compare.paired import paired_delong
from threshold_lab.core.curves.operating import partial_auc
from threshold_lab.core.curves.roc import roc_auc
from threshold_lab.core.curves.smooth import NoBinormalFit, binormal_fit
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.intervals.power import Power, power_one
from threshold_lab.core.intervals.power_two import (
    Covariances,
    TwoPower,
    from_parameters,
    power_two,
)
from threshold_lab.core.report.option import keywords_checked
from threshold_lab.core.report.request import Request
from threshold_lab.core.report.table import OPTIONS


@keywords_checked("threshold_lab.power")
def power(
    *,
    auc: float | None = None,
    cases: float | None = None,
    controls: float | None = None,
    kappa: float | None = None,
    sig_level: float | None = None,
    power: float | None = None,
    alternative: str = "two-sided",
    from_file: str | None = None,
    a1: float | None = None,
    b1: float | None = None,
    a2: float | None = None,
    b2: float | None = None,
    rn: float | None = None,
    ra: float | None = None,
    delta: float | None = None,
    partial_auc: str | Sequence[str] | None = None,
    power_method: str | None = None,
    a: str | tuple[float, float] | None = None,
    b: str | tuple[float, float] | None = None,
) -> Power | TwoPower:
    """Solve for the one left out of ``auc``, the sample size (``cases`` and
    ``controls``, or one of them with ``kappa`` controls per case), ``sig_level``
    (0.05 unless the other three are given) and ``power``: pROC's
    ``power.roc.test`` for one ROC curve. ``from_file`` (a file or a preset) gives
    the AUC and the controls per case from its rows; with two models' scores of the
    same rows, the power of their AUCs' difference. ``a1``, ``b1``, ``a2``, ``b2``,
    ``rn``, ``ra`` and ``delta`` give two binormal curves instead (``partial_auc``
    ``"fpr:0-0.2"``: their partial AUC).

    >>> round(power(auc=0.73, cases=41, controls=72).power, 7)
    0.9897453
    """
    given: dict[str, object] = {}
    for name, value in (
        ("auc", auc),
        ("cases", cases),
        ("controls", controls),
        ("kappa", kappa),
        ("sig_level", sig_level),
        ("power", power),
        ("alternative", alternative),
        ("from_file", from_file),
        *zip(PARAMETERS, (a1, b1, a2, b2, rn, ra, delta), strict=True),
        ("partial_auc", partial_auc),
        ("power_method", power_method),
        ("a", a),
        ("b", b),
    ):
        if value is None:
            continue
        option = OPTIONS[name]
        if name == "alternative" and str(value) in ("one.sided", "one-sided", "two.sided"):
            value = "two-sided" if str(value) == "two.sided" else "greater"  # pROC's words
        typed = option.parse is not None and not isinstance(value, float | int)
        try:
            if name in ("partial_auc", "a", "b"):
                given[name] = option.read(value)
                continue
            given[name] = option.parse(str(value)) if typed and option.parse else value
        except ValueError as exc:
            raise InputError(f"threshold_lab.power(): {name}={quoted(value)}: {exc}") from None
    return power_from(given)


def _fpr_range(partial: Sequence[tuple[str, float, float]]) -> tuple[float, float] | None:
    """The one partial AUC over FPR asked for, or None."""
    if not partial:
        return None
    if len(partial) != 1 or partial[0][0] != "fpr":
        raise InputError("power: give one partial AUC over FPR, as fpr:0-0.2")
    return partial[0][1], partial[0][2]


def _obuchowski_from_data(
    a: Dataset, b: Dataset, fpr: tuple[float, float] | None
) -> tuple[Covariances, tuple[float, float]]:
    """pROC's method = "obuchowski" from two models' rows: each curve's binormal fit
    (its intercept and slope taken as A and B, as pROC passes them), the Pearson
    correlations of the two models' scores among the cases and the controls, κ the
    rows' controls per case; the AUCs (partial, over ``fpr``, when asked for)."""
    if a.weights is not None:
        raise InputError(
            "power: --power-method obuchowski reads each row's score once; these rows are weighted"
        )
    sweeps = (build_sweep(a), build_sweep(b))
    fits = []
    for which, s in zip(("first", "second"), sweeps, strict=True):
        try:
            fits.append(binormal_fit(s)[:2])
        except NoBinormalFit as exc:
            raise InputError(
                f"power: --power-method obuchowski fits each curve's binormal line, and the "
                f"{which} model's {exc.reason}"
            ) from None
    labels = a.labels
    with np.errstate(invalid="ignore", divide="ignore"):  # a constant class: said below
        ra = float(np.corrcoef(a.scores[labels], b.scores[labels])[0, 1])
        rn = float(np.corrcoef(a.scores[~labels], b.scores[~labels])[0, 1])
    if not (math.isfinite(ra) and math.isfinite(rn)):
        raise InputError("power: a model's scores are all equal within a class; no correlation")
    kappa = float(a.negatives) / float(a.positives)
    # pROC's partial range runs from the higher FPR end to the lower (1 − its specificities).
    ends = None if fpr is None else (fpr[1], fpr[0])
    cv = from_parameters(fits[0], fits[1], rn, ra, ends)
    if fpr is None:
        aucs = tuple(float(roc_auc(s).value or 0.0) for s in sweeps)
    else:
        aucs = tuple(float(partial_auc(s, "fpr", *fpr).area.value or 0.0) for s in sweeps)
    return (lambda _k: cv(kappa)), (aucs[0], aucs[1])


#: The options naming a file's columns, which ``--from`` reads as a report would.
COLUMNS = ("score_column", "label_column", "weight_column", "id_column", "positive")

#: The parameters of two binormal curves (pROC's A1, B1, A2, B2, rn, ra, delta).
PARAMETERS = ("a1", "b1", "a2", "b2", "rn", "ra", "delta")


def power_from(given: dict[str, Any]) -> Power | TwoPower:
    """A power calculation from the options as the front door reads them (``auc``,
    ``cases``, ``controls``, ``kappa``, ``sig_level``, ``power``, ``alternative``,
    ``from_file``, the two curves' parameters, ``partial_auc``): with a source, its
    rows are read (:func:`power_with`); two models of the same rows, or the
    parameters, are two curves' test (:func:`power_of_two`)."""
    source = given.get("from_file")
    rows = None
    for pair, one, two in (("a", "a1", "a2"), ("b", "b1", "b2")):
        if pair in given:
            if one in given or two in given:
                raise InputError(
                    f"power: give --{pair} {one.upper()},{two.upper()} or --{one} and "
                    f"--{two}, not both"
                )
            given = {**given, one: given[pair][0], two: given[pair][1]}
    if any(n in given for n in PARAMETERS):
        if source is not None:
            raise InputError(
                "power: give two curves' parameters (--a1 ... --delta) or --from rows, not both"
            )
        return power_of_two(given)
    if source is not None:
        columns = {n: given[n] for n in COLUMNS if n in given}
        src = Request.from_command("report", str(source), columns).open()
        if len(src.models) >= 2 and src.group_by is None:
            if len(src.models) > 2:
                listed = ", ".join(m.name for m in src.models)
                raise InputError(
                    f"power: {source} has {len(src.models)} models ({listed}); the test is of "
                    "two: choose them with --score-column A --score-column B"
                )
            first, second = src.models[0], src.models[1]
            return power_of_two(given, first.data, second.data, names=(first.name, second.name))
        data = src.data
        auc = curves_for(data).summaries.roc_auc.value
        rows = (auc, float(data.positives), float(data.negatives))
    if given.get("partial_auc"):
        raise InputError(
            "power: --partial-auc is two curves' test from parameters (--a1 ... --delta); "
            "one curve's power is of its full AUC"
        )
    return power_with(given, rows)


def power_of_two(
    given: dict[str, Any],
    a: Dataset | None = None,
    b: Dataset | None = None,
    *,
    names: tuple[str, str] | None = None,
) -> TwoPower:
    """Two curves' power: of models ``a`` and ``b`` (the same rows: DeLong's variances
    and covariance, as pROC's power.roc.test(roc1, roc2)), or from the parameters."""
    if "auc" in given:
        raise InputError("power: --auc is one curve's; two curves' test is of their difference")
    alternative = str(given.get("alternative") or "two-sided")
    if alternative == "less":
        raise InputError("power: give the alternative two-sided, or greater (one-sided)")
    side = "two-sided" if alternative == "two-sided" else "one-sided"
    cases, controls, kappa = given.get("cases"), given.get("controls"), given.get("kappa")
    power, sig = given.get("power"), given.get("sig_level")
    partial = given.get("partial_auc") or ()
    fpr = _fpr_range(partial)
    if a is not None and b is not None:
        pos, neg = float(a.positives), float(a.negatives)
        if cases is None and controls is None:
            if kappa is None:
                kappa = neg / pos
            if power is None:  # the rows' own sample size: solve for the power
                cases, controls, kappa = pos, neg, None
        if sig is None and not (power is not None and (cases or controls)):
            sig = 0.05
        if given.get("power_method") == "obuchowski":
            covariances, aucs = _obuchowski_from_data(a, b, fpr)
            how = "Obuchowski and McClish's binormal variances from the data, as pROC"
        else:
            if fpr is not None:
                raise InputError(
                    "power: from data, DeLong's variances are of the full AUCs; give "
                    "--power-method obuchowski (or the parameters) for a partial AUC"
                )
            delong, why = paired_delong(a.scores, b.scores, a.labels, a.weights)
            if delong is None or delong.var_a is None or delong.var_b is None or delong.cov is None:
                raise InputError(f"power: the two models' AUCs have no DeLong variance: {why}")
            aucs = (float(delong.auc_a), float(delong.auc_b))
            scaled = (delong.var_a * pos, delong.var_b * pos, delong.cov * pos)
            covariances, how = (lambda _k: scaled), "DeLong's variances, as pROC"
        return power_two(
            covariances,
            aucs[0] - aucs[1],
            cases=cases,
            controls=controls,
            kappa=kappa,
            sig_level=sig,
            power=power,
            alternative=side,
            aucs=aucs,
            method=f"Two ROC curves power calculation ({how})",
            models=names,
            region=fpr,
        )
    if "power_method" in given:
        raise InputError("power: --power-method is for two models' data (--from)")
    left = [n for n in PARAMETERS if n not in given]
    if left:
        said = ", ".join("--" + n for n in left)
        raise InputError(
            f"power: two curves from parameters need all of --a1 ... --delta; give {said}"
        )
    v = [float(given[n]) for n in PARAMETERS]
    if cases is None and controls is None and kappa is None:
        kappa = 1.0
    if sig is None and not (power is not None and (cases or controls)):
        sig = 0.05
    return power_two(
        from_parameters((v[0], v[1]), (v[2], v[3]), v[4], v[5], fpr),
        v[6],
        cases=cases,
        controls=controls,
        kappa=kappa,
        sig_level=sig,
        power=power,
        alternative=side,
        method="Two ROC curves power calculation (Obuchowski and McClish's binormal "
        "variances, as pROC)",
        region=fpr,
    )


def power_with(
    given: dict[str, Any], rows: tuple[float | None, float, float] | None = None
) -> Power:
    """The power calculation ``given`` asks for (as :func:`power_from` reads it),
    with ``rows`` (their AUC, positives and negatives) giving the AUC and the controls
    per case unless given, and their cases and controls unless a sample size is being
    solved for; the significance level 0.05 unless it is the one left out."""
    auc, cases, controls = given.get("auc"), given.get("cases"), given.get("controls")
    kappa, power = given.get("kappa"), given.get("power")
    alternative = str(given.get("alternative") or "two-sided")
    if alternative == "less":
        raise InputError(
            "power: the test is of the AUC above 0.5: give the alternative greater "
            "(one-sided, pROC's one.sided) or two-sided"
        )
    side = "two-sided" if alternative == "two-sided" else "one-sided"
    if rows is not None:
        value, pos, neg = rows
        if auc is None and value is None:
            raise InputError("power: the rows' ROC AUC is undefined (one class); give the AUC")
        auc = value if auc is None else auc
        if cases is None and controls is None:
            if kappa is None:
                kappa = neg / pos
            if power is None:  # the rows' own sample size: solve for the power
                cases, controls, kappa = pos, neg, None
        elif kappa is None and (cases is None or controls is None):
            kappa = neg / pos  # one of them given: the other at the rows' ratio
    sig = given.get("sig_level")
    sizes = (cases is not None and (controls is not None or kappa is not None)) or (
        controls is not None and kappa is not None
    )
    if sig is None and not (auc is not None and sizes and power is not None):
        sig = 0.05
    return power_one(
        auc=auc,
        cases=cases,
        controls=controls,
        kappa=kappa,
        sig_level=sig,
        power=power,
        alternative=side,
    )
