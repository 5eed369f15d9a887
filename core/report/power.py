"""``threshold_lab.power``: one ROC curve's power and sample size from Python, the
options the command line's ``power`` takes (one table declares them)."""

from __future__ import annotations

from typing import Any

from threshold_lab.core.analysis import curves_for
from threshold_lab.core.errors import InputError
from threshold_lab.core.intervals.power import Power, power_one
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
) -> Power:
    """Solve for the one left out of ``auc``, the sample size (``cases`` and
    ``controls``, or one of them with ``kappa`` controls per case), ``sig_level``
    (0.05 unless the other three are given) and ``power``: pROC's
    ``power.roc.test`` for one ROC curve. ``from_file`` (a file or a preset) gives
    the AUC and the controls per case from its rows.

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
    ):
        if value is None:
            continue
        option = OPTIONS[name]
        if name == "alternative" and str(value) in ("one.sided", "one-sided", "two.sided"):
            value = "two-sided" if str(value) == "two.sided" else "greater"  # pROC's words
        typed = option.parse is not None and not isinstance(value, float | int)
        try:
            given[name] = option.parse(str(value)) if typed and option.parse else value
        except ValueError as exc:
            raise InputError(f"threshold_lab.power(): {name}={value!r}: {exc}") from None
    return power_from(given)


def power_from(given: dict[str, Any]) -> Power:
    """A power calculation from the options as the front door reads them (``auc``,
    ``cases``, ``controls``, ``kappa``, ``sig_level``, ``power``, ``alternative``,
    ``from_file``): with a source, its rows are read (:func:`power_with`)."""
    source = given.get("from_file")
    rows = None
    if source is not None:
        data = Request.from_command("report", str(source), {}).open().data
        auc = curves_for(data).summaries.roc_auc.value
        rows = (auc, float(data.positives), float(data.negatives))
    return power_with(given, rows)


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
