"""A report logged to an MLflow run: ``Report.log_to_mlflow()``.

What is logged: each headline number that is defined as a metric (the summaries,
then every metric at the threshold, by the JSON's names), the threshold as a param,
each undefined number as a tag saying why (MLflow metrics are numbers: an undefined
one is never logged as 0), the whole JSON report as an artifact, and each chart asked
for as a PNG figure. MLflow is optional (the ``[mlflow]`` extra); it is imported only
here, when asked.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from threshold_lab.core.errors import MissingDependency

INSTALL = "log_to_mlflow() needs mlflow: pip install 'threshold-lab[mlflow]' (or mlflow)"
#: Where the artifacts go within the run.
FOLDER = "threshold-lab"


def log(
    numbers: Mapping[str, float | None],
    reasons: Mapping[str, str],
    params: Mapping[str, str],
    document: Mapping[str, Any],
    figures: Mapping[str, Any],
) -> str:
    """Log to the active MLflow run (MLflow starts one when none is active, as its
    own ``log_*`` functions do); the run's id."""
    try:
        import mlflow
    except ImportError:
        raise MissingDependency(INSTALL) from None
    defined = {name: float(v) for name, v in numbers.items() if v is not None}
    mlflow.log_metrics(defined)
    mlflow.log_params(dict(params))
    if reasons:
        mlflow.set_tags({f"threshold-lab.undefined.{n}": why for n, why in reasons.items()})
    mlflow.log_dict(dict(document), f"{FOLDER}/report.json")
    for chart, figure in figures.items():
        mlflow.log_figure(figure, f"{FOLDER}/{chart}.png")
    run = mlflow.active_run()
    return "" if run is None else str(run.info.run_id)
