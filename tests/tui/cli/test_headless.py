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
