"""The headless paths (report, plain mode) never import Textual, Rich or plotext."""

from __future__ import annotations

import json
import subprocess
import sys

from tests.paths import ROOT


def _fresh(script: str, *args: str, typed: str = "") -> subprocess.CompletedProcess[str]:
    """``script`` run in a fresh interpreter (the test session itself has imported
    Textual, pandas and the rest), ``typed`` on its stdin."""
    return subprocess.run(
        [sys.executable, "-c", script, *args],
        input=typed,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


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
    proc = _fresh(SCRIPT, typed="status\nnext\nquit\n")
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
    proc = _fresh(LAZY)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stderr) == {"code": 0, "loaded": []}
    assert json.loads(proc.stdout)["schema"] == 1


# pyarrow's to_numpy imports pandas wherever it is installed (a quarter to half a
# second and some 45 MiB): reading a file's numbers goes round it.
FILES = """
import json, sys
from pathlib import Path
from threshold_lab.tui.cli import main

folder = Path(sys.argv[1])
codes = [main(["report", str(folder / "rows.parquet"), "--json"]),
         main(["report", str(folder / "rows.csv"), "--positive", "yes"]),
         main(["report", str(folder / "zeros.csv"), "--points", "0"])]
sys.stderr.write(json.dumps({"codes": codes, "pandas": "pandas" in sys.modules}))
"""


def test_a_report_of_a_file_loads_no_pandas(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import importlib.util

    import pyarrow as pa
    import pyarrow.parquet as pq

    assert importlib.util.find_spec("pandas") is not None  # the test environment has it
    rows = {"score": [0.9, 0.8, 0.8, 0.3, 0.1], "label": [1, 0, 1, 1, 0], "weight": [1, 2, 1, 1, 3]}
    pq.write_table(pa.table(rows), tmp_path / "rows.parquet")
    (tmp_path / "rows.csv").write_text("id,score,label\na1,0.9,yes\na2,0.8,no\na3,0.4,yes\n")
    # Past the exact reader's size, with scores of 0: the fast path looks at each 0's
    # text (a number too small for a double reads as 0), through a filter of its own.
    many = "".join(f"0.{i:05d},{i % 2}\n" for i in range(1, 8000))
    (tmp_path / "zeros.csv").write_text("score,label\n0,0\n0.0,1\n" + many)
    proc = _fresh(FILES, str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stderr) == {"codes": [0, 0, 0], "pandas": False}
    report, end = json.JSONDecoder().raw_decode(proc.stdout)
    assert (report["n"], report["positives"], report["negatives"]) == (5, 3, 5)  # weighted
    assert "ROC AUC, trapezoid over the exact sweep: 1/2" in proc.stdout[end:]  # the CSV
