"""Aggregation on an engine vs the in-memory paths, in one run.

1. A 10^8-row Parquet file of continuous float32 scores (about 10^7 distinct values),
   made once in --data and kept. Each step runs in a child process, so its peak
   resident memory is its own:
   - DuckDB aggregation (`threshold-lab aggregate`, default memory limit 1.5 GB):
     aim, peak memory under 2 GiB;
   - threshold-lab's own in-memory path on the same file (load every row, sweep);
   - scikit-learn's `roc_curve` on the loaded arrays.
2. Spark in local mode on 10^7 rows, beside DuckDB on the same file.
3. Opening the aggregated result vs opening rows: `report --json` on an aggregated
   file of 10^7 distinct scores and on a row file of 10^7 rows.

Usage: python bench/aggregate.py [--rows 100000000] [--data bench/.data] [--no-spark]
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
from timing import child

CHUNK = 10**7


def make_rows(path: Path, rows: int, seed: int) -> None:
    """``rows`` rows of (score float32, label int8), written a chunk at a time."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    if path.exists():
        return
    rng = np.random.default_rng(seed)
    tmp = path.with_suffix(".partial")
    schema = pa.schema([("score", pa.float32()), ("label", pa.int8())])
    with pq.ParquetWriter(tmp, schema) as w:
        for start in range(0, rows, CHUNK):
            n = min(CHUNK, rows - start)
            y = rng.random(n) < 0.2
            s = 1 / (1 + np.exp(-(rng.normal(0, 1, n) + 1.2 * y - 1.0)))
            w.write_table(pa.table({"score": s.astype(np.float32), "label": y.astype(np.int8)}))
    tmp.rename(path)


AGGREGATE = """
from threshold_lab.tui.cli import main
rc = main(["aggregate", *sys.argv[1:], "--overwrite"])
assert rc == 0
"""

NUMPY = """
from threshold_lab.core.data.loaders import load_file
from threshold_lab.core.curves.sweep import build_sweep
d = load_file(sys.argv[1])
s = build_sweep(d)
print("points", s.size)
"""

SKLEARN = """
import numpy as np, pyarrow.parquet as pq
from sklearn.metrics import roc_curve
t = pq.read_table(sys.argv[1])
fpr, tpr, thr = roc_curve(t.column("label").to_numpy(), t.column("score").to_numpy(),
                          drop_intermediate=False)
print("points", len(thr))
"""

# Spark's JVM is a child of the driver: stopped and reaped before measuring, so its
# peak memory counts (the time stops before the stop).
SPARK = (
    AGGREGATE
    + """
done = time.perf_counter()
from pyspark import SparkContext
from pyspark.sql import SparkSession
gateway = SparkContext._gateway
SparkSession.getActiveSession().stop()
gateway.shutdown()
gateway.proc.stdin.close()
gateway.proc.wait(timeout=120)
"""
)

REPORT = """
from threshold_lab.tui.cli import main
import contextlib, io
with contextlib.redirect_stdout(io.StringIO()):
    assert main(["report", sys.argv[1], "--json"]) == 0
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**8)
    parser.add_argument("--data", type=Path, default=Path(__file__).parent / ".data")
    parser.add_argument("--no-spark", action="store_true")
    args = parser.parse_args()
    args.data.mkdir(parents=True, exist_ok=True)
    big = args.data / f"rows-{args.rows}.parquet"
    small = args.data / f"rows-{CHUNK}.parquet"
    print(f"making the inputs in {args.data} (kept for the next run)...", flush=True)
    make_rows(big, args.rows, seed=18)
    make_rows(small, CHUNK, seed=19)
    out = args.data / "agg.parquet"

    print(
        f"\n1. {args.rows:,} rows of float32 scores ({big.stat().st_size / 2**20:,.0f} MiB "
        "of Parquet)"
    )
    duck_s, duck_mb, _ = child(AGGREGATE, str(big), "-o", str(out), "--memory-limit", "1.5GB")
    import pyarrow.parquet as pq

    distinct = pq.read_metadata(out).num_rows
    print(
        f"  DuckDB aggregate: {duck_s:.1f} s, peak {duck_mb:,.0f} MiB "
        f"({duck_mb / 2048:.2f}x of 2 GiB; aim < 1), {distinct:,} distinct scores"
    )
    np_s, np_mb, _ = child(NUMPY, str(big))
    print(
        f"  threshold-lab in memory (load + sweep): {np_s:.1f} s, peak {np_mb:,.0f} MiB "
        f"= {np_s / duck_s:.2f}x DuckDB's time, {np_mb / duck_mb:.1f}x its memory"
    )
    sk_s, sk_mb, _ = child(SKLEARN, str(big))
    print(
        f"  scikit-learn roc_curve (read + curve): {sk_s:.1f} s, peak {sk_mb:,.0f} MiB "
        f"= {sk_s / duck_s:.2f}x DuckDB's time, {sk_mb / duck_mb:.1f}x its memory"
    )
    per_row = duck_s / args.rows
    print(
        f"  10^9 rows at this rate: DuckDB about {per_row * 1e9 / 60:.0f} min on this "
        "machine, in the same memory (it spills); the in-memory paths would need "
        f"about {np_mb * 1e9 / args.rows / 1024:.0f} GiB and {sk_mb * 1e9 / args.rows / 1024:.0f}"
        " GiB"
    )

    small_out = args.data / "agg-small.parquet"
    print(f"\n2. {CHUNK:,} rows, DuckDB beside Spark (local[*], this machine's cores)")
    d_s, d_mb, _ = child(AGGREGATE, str(small), "-o", str(small_out))
    print(f"  DuckDB: {d_s:.1f} s, peak {d_mb:,.0f} MiB")
    if not args.no_spark:
        spark_out = args.data / "agg-small-spark.parquet"
        s_s, s_mb, _ = child(SPARK, str(small), "-o", str(spark_out), "--engine", "spark")
        print(
            f"  Spark local: {s_s:.1f} s (with the JVM's start) = {s_s / d_s:.1f}x DuckDB's "
            f"time; peak {s_mb:,.0f} MiB (the JVM's)"
        )

    print(f"\n3. opening {CHUNK:,} distinct scores vs {CHUNK:,} rows (report --json)")
    # The best of two runs each: one run is noisy on a busy machine.
    rows_s, rows_mb, _ = min(child(REPORT, str(small)) for _ in range(2))
    agg_s, agg_mb, _ = min(child(REPORT, str(small_out)) for _ in range(2))
    n_agg = pq.read_metadata(small_out).num_rows
    print(
        f"  rows: {rows_s:.2f} s, peak {rows_mb:,.0f} MiB; aggregated ({n_agg:,} distinct "
        f"scores): {agg_s:.2f} s = {agg_s / rows_s:.2f}x (aim <= 1x), "
        f"peak {agg_mb:,.0f} MiB"
    )


if __name__ == "__main__":
    main()
