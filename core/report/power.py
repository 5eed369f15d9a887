"""``threshold_lab.power``: one ROC curve's power and sample size from Python, the
options the command line's ``power`` takes (one table declares them)."""

from __future__ import annotations

from threshold_lab.core.intervals.power import Power, power_from
from threshold_lab.core.report.option import keywords_checked
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
        if value is not None:
            option = OPTIONS[name]
            given[name] = (
                option.parse(str(value))
                if option.parse and not isinstance(value, float | int)
                else value
            )
    return power_from(given)
