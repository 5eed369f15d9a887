"""Peak memory of ``threshold-lab report`` on a 10^7-row file, against the 1 GiB target.

Run by hand (``make bench``), never in CI. A file of probabilities, 0/1 labels
and string ids is generated in a temporary folder, as CSV and as Parquet. Each
report runs in its own child process (a fresh interpreter, as a user would run
it), and the peak resident memory of that child is read from the kernel's
accounting (``getrusage``), so nothing the parent allocated is counted.

Usage: python bench/report_memory.py [--rows 10000000] [--all-points]

``--all-points`` adds ``--points all``, which streams every sweep point
(about a minute and 4 GB of JSON at 10^7 rows); the output goes to /dev/null.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pv
import pyarrow.parquet as pq
from timing import child

LIMIT_MIB = 1024

# The command's own process is a child of the measuring one: its peak is counted.
_MEASURE = """
import subprocess
with open(sys.argv[1], "wb") as out:
    code = subprocess.run(sys.argv[2:], stdout=out).returncode
print("exit", code)
"""


def write(folder: Path, n: int) -> tuple[Path, Path]:
    rng = np.random.default_rng(20261129)
    y = rng.random(n) < 0.3
    p = 1.0 / (1.0 + np.exp(-rng.normal(loc=y * 1.2 - 0.6, scale=1.0)))
    table = pa.table(
        {"id": pa.array(np.char.add("row-", np.arange(n).astype(str))), "score": p, "label": y}
    )
    csv, parquet = folder / "preds.csv", folder / "preds.parquet"
    pv.write_csv(table, csv)
    pq.write_table(table, parquet)
    return csv, parquet


def measure(args: list[str], out: Path) -> tuple[int, float, float]:
    """(exit status, peak MiB, seconds) of ``threshold-lab`` with ``args``."""
    command = [sys.executable, "-m", "threshold_lab", *args]
    seconds, mib, said = child(_MEASURE, str(out), *command)
    code = int(next(line for line in said.splitlines() if line.startswith("exit ")).split()[1])
    return code, mib, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**7)
    parser.add_argument("--all-points", action="store_true")
    args = parser.parse_args()
    print(
        f"{'rows':>10} {'report':<32} {'peak MiB':>9} {'of 1 GiB':>9} {'seconds':>8} "
        f"{'output MB':>10}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        csv, parquet = write(Path(tmp), args.rows)
        out = Path(tmp) / "out"
        cases = [
            ("CSV, --json", [str(csv), "--json"]),
            ("Parquet, --json", [str(parquet), "--json"]),
            ("CSV, text", [str(csv)]),
        ]
        if args.all_points:
            cases.append(
                ("Parquet, --json --points all", [str(parquet), "--json", "--points", "all"])
            )
        for name, case in cases:
            code, mib, seconds = measure(["report", *case], out)
            if code != 0:
                raise SystemExit(f"report {name} exited with {code}")
            print(
                f"{args.rows:>10} {name:<32} {mib:>9.0f} {mib / LIMIT_MIB:>8.2f}x "
                f"{seconds:>8.1f} {out.stat().st_size / 1e6:>10.1f}"
            )


if __name__ == "__main__":
    main()
