"""Loading a CSV (and Parquet) file against pandas.read_csv of the same file, as ratios.

Run by hand (``make bench``), never in CI. Files are generated in a
temporary folder (probabilities, 0/1 labels, with and without an id
column). Each side reads each file ``--repeats`` times, the two sides taking
turns so both meet the same page cache and machine load; a line shows the
medians and their ratio.

Usage: python bench/load_vs_pandas.py [--rows 10000000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pv
import pyarrow.parquet as pq
from threshold_lab.core.data.loaders import load_file
from timing import in_turns


def write(folder: Path, n: int, with_ids: bool) -> tuple[Path, Path]:
    rng = np.random.default_rng(20261129)
    y = rng.random(n) < 0.3
    p = 1.0 / (1.0 + np.exp(-rng.normal(loc=y * 1.2 - 0.6, scale=1.0)))
    columns = {"score": p, "label": y.astype(np.int8)}
    if with_ids:
        columns = {"id": pa.array(np.arange(n).astype(str)), **columns}
    table = pa.table(columns)
    stem = folder / ("with-ids" if with_ids else "no-ids")
    pv.write_csv(table, stem.with_suffix(".csv"))
    pq.write_table(table, stem.with_suffix(".parquet"))
    return stem.with_suffix(".csv"), stem.with_suffix(".parquet")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**7)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    print(f"{'rows':>10} {'file':<18} {'ours s':>7} {'pandas s':>9} {'ours/pandas':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for with_ids in (False, True):
            csv, parquet = write(Path(tmp), args.rows, with_ids)
            name = "with ids" if with_ids else "no ids"
            t_pandas, t_csv, t_parquet = in_turns(
                args.repeats,
                lambda csv=csv: pd.read_csv(csv),
                lambda csv=csv: load_file(csv),
                lambda parquet=parquet: load_file(parquet),
            )
            print(
                f"{args.rows:>10} {'CSV, ' + name:<18} {t_csv:>7.2f} {t_pandas:>9.2f} "
                f"{t_csv / t_pandas:>11.2f}x"
            )
            print(
                f"{args.rows:>10} {'Parquet, ' + name:<18} {t_parquet:>7.2f} {t_pandas:>9.2f} "
                f"{t_parquet / t_pandas:>11.2f}x   (against pandas.read_csv)"
            )


if __name__ == "__main__":
    main()
