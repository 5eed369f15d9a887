"""The Python API against the command line on the same rows: ``tl.report(y, s).to_json()``
on numpy arrays beside ``threshold-lab report FILE.parquet --json``, each in a fresh
Python (imports included), run in turns; prints each median and their ratio.

    python bench/api_vs_cli.py [--rows 1000000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from timing import child, ratio

API = """
import numpy as np
import threshold_lab as tl
rows = np.load(sys.argv[1])
text = tl.report(rows["label"], rows["score"]).to_json()
done = time.perf_counter()
print(len(text))
"""

CLI = """
import subprocess
with open(sys.argv[2], "wb") as out:
    subprocess.run([sys.executable, "-m", "threshold_lab", "report", sys.argv[1], "--json"],
                   stdout=out, check=True)
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**6)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(20261201)
    y = rng.random(args.rows) < 0.3
    s = 1 / (1 + np.exp(-(rng.normal(0, 1, args.rows) + 1.2 * y - 0.6)))
    with tempfile.TemporaryDirectory() as tmp:
        npz, parquet, out = Path(tmp, "rows.npz"), Path(tmp, "rows.parquet"), Path(tmp, "out")
        np.savez(npz, label=y, score=s)
        pq.write_table(pa.table({"score": s, "label": y}), parquet)
        api, cli = [], []
        for _ in range(args.repeats):
            api.append(child(API, str(npz))[0])
            cli.append(child(CLI, str(parquet), str(out))[0])
    a, c = statistics.median(api), statistics.median(cli)
    print(f"{args.rows:,} rows, median of {args.repeats} in turns (imports included):")
    print(f"  tl.report(y, s).to_json() on numpy arrays   {a:6.2f} s")
    print(f"  threshold-lab report FILE.parquet --json    {c:6.2f} s")
    print(f"  API / command line: {ratio(a, c)} (aim: at most 1.00x)")


if __name__ == "__main__":
    sys.exit(main())
