"""Readouts at fixed rates and partial AUCs against the sweep they read, at 10^7 rows.

Run by hand (``make bench``), never in CI. The rows are a score and a 0/1
label, a tenth of the scores rounded to 3 decimals (ties, about 9·10^6 distinct
scores). In one process, best of three each: the sweep, the seven default readouts,
and the partial AUCs over FPR 0 to 0.1 and TPR 0.9 to 1, each as a share of the
sweep (the target: under 1% together).

Usage: python bench/operating_points.py [--rows 10000000]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

import numpy as np
from threshold_lab.core.curves.operating import DEFAULT_READOUTS, partial_auc, readouts
from threshold_lab.core.curves.roc import roc_auc
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset


def best(fn: Callable[[], object], repeat: int = 3) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**7)
    args = parser.parse_args()
    rng = np.random.default_rng(20261201)
    y = rng.random(args.rows) < 0.3
    p = 1.0 / (1.0 + np.exp(-rng.normal(loc=y * 1.2 - 0.6, scale=1.0)))
    tenth = rng.random(args.rows) < 0.1
    p[tenth] = np.round(p[tenth], 3)
    data = make_dataset(p, y)
    cold = build_sweep(data)
    sweep = build_sweep(data)
    roc_auc(sweep)  # as every report does first
    t_sweep = best(lambda: build_sweep(data))
    parts = {
        "seven readouts": lambda: readouts(sweep, DEFAULT_READOUTS),
        "partial AUC, FPR 0 to 0.1": lambda: partial_auc(sweep, "fpr", 0.0, 0.1),
        "partial AUC, TPR 0.9 to 1": lambda: partial_auc(sweep, "tpr", 0.9, 1.0),
    }
    print(f"{args.rows} rows, {sweep.size - 1} distinct scores: sweep {t_sweep:.3f} s")
    total = 0.0
    for name, fn in parts.items():
        t = best(fn)
        total += t
        print(f"  {name:<28} {t * 1000:8.2f} ms  {t / t_sweep:7.3%} of the sweep")
    print(f"  {'together':<28} {total * 1000:8.2f} ms  {total / t_sweep:7.3%} (target under 1%)")
    print("  without the AUC's running sums (every segment in the region read):")
    for name, focus, lo, hi in (
        ("FPR 0 to 0.1", "fpr", 0.0, 0.1),
        ("TPR 0.9 to 1", "tpr", 0.9, 1.0),
    ):
        t = best(lambda f=focus, a=lo, b=hi: partial_auc(cold, f, a, b))  # type: ignore[misc]
        print(f"  {'partial AUC, ' + name:<28} {t * 1000:8.2f} ms  {t / t_sweep:7.3%} of the sweep")


if __name__ == "__main__":
    main()
