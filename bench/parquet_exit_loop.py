"""Run ``threshold-lab report FILE.parquet --json`` many times and count aborts at exit.

By hand, not in CI (a few minutes)::

    .venv/bin/python bench/parquet_exit_loop.py [RUNS] [PROCESSES]

Handed a Python file object, pyarrow sometimes aborted the interpreter at exit
(``terminate called without an active exception``, status 134; about 3 in 200
runs). Prints e.g. ``200 runs: 0 aborts``: non-zero exits and stderr saying
``terminate called``.
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parents[1]


def one(path: Path) -> tuple[int, bool]:
    proc = subprocess.run(
        [sys.executable, "-m", "threshold_lab", "report", str(path), "--json"],
        capture_output=True,
        cwd=ROOT,
        timeout=120,
        check=False,
    )
    return proc.returncode, b"terminate called" in proc.stderr


def main() -> int:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    workers = int(sys.argv[2]) if len(sys.argv) > 2 else 2
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "scores.parquet"
        n = 1000
        pq.write_table(
            pa.table({"score": [i / n for i in range(n)], "label": [i % 3 == 0 for i in range(n)]}),
            path,
        )
        with ThreadPoolExecutor(workers) as pool:
            results = list(pool.map(one, [path] * runs))
    failed = sum(code != 0 for code, _ in results)
    terminated = sum(t for _, t in results)
    codes = sorted({code for code, _ in results if code != 0})
    print(
        f"{runs} runs: {failed} aborts"
        + (f" (exit statuses {codes}; {terminated} said 'terminate called')" if failed else "")
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
