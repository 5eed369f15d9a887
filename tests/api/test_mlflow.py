"""``r.log_to_mlflow()`` against MLflow itself (a local file store): each defined
headline number as a metric equal to the report's, an undefined one as a tag with its
reason (never a 0), the threshold as a param, the JSON report and the figures as
artifacts; without mlflow, an ImportError naming the extra."""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import threshold_lab as tl

mlflow = pytest.importorskip("mlflow")


@pytest.fixture
def tracking(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    monkeypatch.setenv("MLFLOW_ALLOW_FILE_STORE", "true")
    store = tmp_path / "mlruns"
    mlflow.set_tracking_uri(store.as_uri())
    mlflow.set_experiment("threshold-lab tests")
    yield store
    if mlflow.active_run() is not None:
        mlflow.end_run()


def test_the_report_is_logged_to_the_active_run(tracking: Path) -> None:
    r = tl.report([1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1], threshold=0.95)
    with mlflow.start_run() as run:
        assert r.log_to_mlflow(charts=("roc", "pr"), prefix="val_") == run.info.run_id
    client = mlflow.tracking.MlflowClient()
    got = client.get_run(run.info.run_id).data
    assert got.metrics["val_roc_auc"] == float(r.roc_auc) == 7 / 12
    assert got.metrics["val_recall"] == 0.0  # 0 of 3 positives found: a defined 0
    assert "val_precision" not in got.metrics  # nothing predicted positive: undefined
    assert "TP+FP=0" in got.tags["threshold-lab.undefined.val_precision"]
    assert got.params["val_threshold"] == "0.95"
    artifacts = {a.path for a in client.list_artifacts(run.info.run_id, "threshold-lab")}
    assert artifacts == {
        "threshold-lab/report.json",
        "threshold-lab/roc.png",
        "threshold-lab/pr.png",
    }
    local = client.download_artifacts(run.info.run_id, "threshold-lab/report.json")
    assert json.loads(Path(local).read_text()) == r.to_dict(points=0)


def test_without_mlflow_an_import_error_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mlflow", None)
    r = tl.report([1, 0, 1, 0], [0.9, 0.4, 0.6, 0.2])
    with pytest.raises(ImportError, match=r"threshold-lab\[mlflow\]"):
        r.log_to_mlflow(charts=())
