"""The headless paths (report, plain mode) never import Textual, Rich or plotext."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.paths import ROOT

# Runs in a fresh interpreter: the test session itself has imported Textual.
SCRIPT = """
import contextlib, json, sys
from threshold_lab.tui.cli import main

codes = [
    main(["report", "canonical"]),
    main(["report", "good", "--json", "--points", "0"]),
    main(["--plain", "--preset", "canonical"]),  # reads the commands on stdin
]
with contextlib.suppress(SystemExit):
    main(["--help"])
heavy = sorted(
    m for m in sys.modules
    if m.split(".")[0].startswith("textual") or m.split(".")[0] in ("plotext", "rich")
)
sys.stderr.write(json.dumps({"codes": codes, "heavy": heavy}))
"""


def test_report_and_plain_mode_load_no_textual() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        input="status\nnext\nquit\n",
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    result = json.loads(proc.stderr)
    assert result == {"codes": [0, 0, 0], "heavy": []}
    out = proc.stdout
    assert "ROC AUC, trapezoid over the exact sweep: 7/12" in out  # the text report
    assert '{"schema": 1' in out  # the JSON report
    assert "threshold-lab plain mode: preset canonical, 5 rows." in out
    assert "Now at tie group 3 of 4 (score 0.4, 1 row)." in out  # plain mode's next
    assert "report" in out and "screenshot" in out and "serve" in out  # --help


# What a five-row report must not load (so that it starts in at most twice the time
# of importing numpy): the engines, Arrow, the explorer and its session, the other
# commands, and the sections it was not asked for (a band, folds' stability, groups,
# a comparison, classes, a gate, a figure, a transform, the text report, JUnit).
LAZY = """
import json, sys
from threshold_lab.tui.cli import main

code = main(["report", "canonical", "--json"])
loaded = sorted(
    m for m in sys.modules
    if m.split(".")[0] in ("duckdb", "pyspark", "pyarrow", "textual", "textual_serve",
                           "plotext", "rich")
    or m.startswith(("threshold_lab.core.engines", "threshold_lab.core.session",
                     "threshold_lab.core.drawing", "threshold_lab.tui.cli.aggregate",
                     "threshold_lab.tui.cli.explore", "threshold_lab.tui.cli.serve",
                     "threshold_lab.tui.plain", "threshold_lab.core.decide.band",
                     "threshold_lab.core.decide.stability",
                     "threshold_lab.core.decide.risk_coverage", "threshold_lab.core.groups.",
                     "threshold_lab.core.compare.", "threshold_lab.core.multiclass.",
                     "threshold_lab.core.report.gate", "threshold_lab.core.figures",
                     "threshold_lab.core.folds", "threshold_lab.core.transform",
                     "threshold_lab.core.report.as_text", "threshold_lab.core.report.junit",
                     "threshold_lab.core.curves.sound", "threshold_lab.core.curves.braille",
                     "threshold_lab.core.intervals.power"))
)
sys.stderr.write(json.dumps({"code": code, "loaded": loaded}))
"""


def test_a_report_of_a_preset_loads_only_what_it_uses() -> None:
    proc = subprocess.run(
        [sys.executable, "-c", LAZY],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stderr) == {"code": 0, "loaded": []}
    assert json.loads(proc.stdout)["schema"] == 1
