"""Comparing two models as a ratio to one model's sweep.

Aim: DeLong's paired test of two models at 10^7 rows (their placements, the
covariance, the test) in under 3x the time of one model's exact sweep. Each time is
the best of two runs.

Usage: python bench/compare.py [--rows 10000000]
"""

from __future__ import annotations

import argparse

import numpy as np
from threshold_lab.core.compare.paired import mcnemar, paired_delong
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from timing import timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**7)
    args = parser.parse_args()
    n = args.rows
    rng = np.random.default_rng(15)
    labels = rng.random(n) < 0.1
    a = rng.normal(labels * 1.5, 1.0)
    b = a + rng.normal(0, 0.5, n)
    data = make_dataset(a, labels)
    sweep_s = timed(lambda: build_sweep(data), repeat=2)
    delong_s = timed(lambda: paired_delong(a, b, labels), repeat=2)
    mcnemar_s = timed(lambda: mcnemar(a >= 1.0, b >= 1.0, labels), repeat=2)
    print(f"one model's sweep at {n:,} rows: {sweep_s:.2f} s")
    print(
        f"paired DeLong of two models: {delong_s:.2f} s = {delong_s / sweep_s:.2f}x the sweep "
        "(aim < 3x)"
    )
    print(f"McNemar at a threshold: {mcnemar_s:.2f} s = {mcnemar_s / sweep_s:.2f}x the sweep")


if __name__ == "__main__":
    main()
