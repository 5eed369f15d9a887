"""The Python API and the command line give one report: ``to_dict()`` equals the
``--json`` object field for field (the source's name aside) and ``text()`` the text
report, on every preset and on the golden cases whose rows arrays can hold."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest
from threshold_lab.core.data.sources import Source
from threshold_lab.core.report.request import Request
from threshold_lab.tui.cli import report as report_cli
from threshold_lab.tui.cli.args import given

import threshold_lab as tl
from tests.golden_cases import CASES, run_report

#: Cases arrays cannot hold: a goal's cost column (per row costs by name), an
#: aggregated file's groups read as models (different examples, not models of the
#: same rows), and a quantised file's bound.
NOT_ARRAYS = {"goal-cost-column", "groups", "groups-second", "aggregated-groups"}


def _call(case: str) -> tuple[Source, dict[str, Any]]:
    """The case's rows as the command line opens them, and the API's arguments for them."""
    args = report_cli.parser().parse_args(CASES[case])
    request = Request.from_command("report", args.source, given(args, "report"))
    src = request.open()
    # The options as typed (the API reads the same texts), by their Python keyword.
    typed = ["--threshold", "--beta", "--goal", "--prevalence", "--confidence", "--seed"]
    typed += ["--bootstrap", "--bins", "--binning", "--transform"]
    argv = [*CASES[case], "--"]
    options: dict[str, Any] = {
        a[2:]: argv[i + 1] if not argv[i + 1].startswith("--") else True
        for i, a in enumerate(argv[:-1])
        if a in typed
    }
    options.setdefault("threshold", src.threshold)
    options["source"] = src.label
    return src, options


def api_report(case: str) -> tl.Report:
    src, options = _call(case)
    d = src.data
    common = {"sample_weight": d.weights, "ids": d.ids, **options}
    mc = src.multiclass
    if mc is not None:
        names = list(mc.classes)
        y = [names[i] for i in mc.labels.tolist()]
        return tl.report(
            y,
            mc.scores,
            classes=names,
            positive=names[src.klass],
            sample_weight=mc.weights,
            ids=mc.ids,
            **options,
        )
    if src.group_column is not None and src.group_codes is not None:
        names = [name for name, _ in src.groups]
        common["groups"] = [names[c] for c in src.group_codes.tolist()]
        common["group_name"] = src.group_column
    if src.models:
        return tl.report(d.labels, {m.name: m.data.scores for m in src.models}, **common)
    return tl.report(d.labels, d.scores, **common)


def _points(case: str, default: int | None) -> int | None:
    args = report_cli.parser().parse_args(CASES[case])
    return given(args, "report").get("points", default)


ARRAY_CASES = sorted(set(CASES) - NOT_ARRAYS)


@pytest.mark.parametrize("case", ARRAY_CASES)
def test_to_dict_is_the_report_json(case: str) -> None:
    code, out = run_report([*CASES[case], "--json"])
    assert code == 0
    cli = json.loads(out)
    r = api_report(case)
    mine = r.to_dict(points=_points(case, 10_000))
    assert mine == cli
    assert json.loads(r.to_json(points=_points(case, 10_000))) == cli


@pytest.mark.parametrize("case", ARRAY_CASES)
def test_text_is_the_text_report(case: str) -> None:
    code, out = run_report(CASES[case])
    assert code == 0
    assert api_report(case).text(points=_points(case, 40)) == out


def test_the_source_is_named_arrays_unless_told() -> None:
    r = tl.report([1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1])
    assert r.to_dict()["source"] == "arrays"
    assert r.text().splitlines()[0] == "threshold-lab report: arrays"
    cli = json.loads(run_report(["canonical", "--json"])[1])
    mine = r.to_dict()
    assert {k: v for k, v in mine.items() if k != "source"} == {
        k: v for k, v in cli.items() if k != "source"
    }


def test_a_preset_through_numpy_arrays_of_each_kind() -> None:
    # float32 scores and int8 labels read as the doubles and booleans they hold.
    y = np.array([1, 0, 1, 0, 1], dtype=np.int8)
    s = np.array([0.9, 0.8, 0.8, 0.4, 0.1], dtype=np.float32)
    r = tl.report(y, s.astype(np.float64))
    assert r.to_dict()["counts"] == {"tp": 2, "fp": 1, "tn": 1, "fn": 1}
    assert tl.report(y.astype(bool), s).counts == r.counts
