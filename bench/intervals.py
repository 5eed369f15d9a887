"""What the intervals cost, as ratios from one run.

1. Wilson's and DeLong's intervals against the rest of the report at 10^7 rows
   (the report's own work in memory: sweep, summaries, metrics, 10,000 listed
   points; reading the file would only add to the denominator). Aim: under 20%.
2. The stratified tie-group bootstrap of average precision, B = 1000 at 10^6 rows
   with continuous scores (aim: within 30 s on this 2-core machine), against a naive
   bootstrap that resamples rows and calls scikit-learn's average_precision_score,
   timed at a smaller size and scaled by n log n (aim: at least 20x).

Usage: python bench/intervals.py [--rows 10000000] [--boot-rows 1000000] [--replicates 1000]
"""

from __future__ import annotations

import argparse
import math

import numpy as np
from threshold_lab.core.analysis import analyse
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.intervals import IntervalsShown
from threshold_lab.core.intervals.bootstrap import bootstrap
from threshold_lab.core.intervals.closed import delong_se, proportion_interval
from threshold_lab.core.metrics.threshold_metrics import METRIC_NAMES
from threshold_lab.core.report.as_json import report_json
from timing import once


def data(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    labels = rng.random(n) < 0.1
    return rng.normal(labels * 1.5, 1.0), labels


def closed_form(n: int) -> None:
    scores, labels = data(n, 1)
    dataset = make_dataset(scores, labels)
    a = analyse(dataset, 1.0)
    total = once(
        lambda: report_json(
            analyse(dataset, 1.0), source="bench", points=10_000, sure=IntervalsShown()
        )
    )

    def closed() -> None:
        delong_se(a.sweep)
        for name in METRIC_NAMES:
            proportion_interval(name, a.counts, whole=True)

    # The intervals' own share, timed alone on the same sweep.
    intervals = once(closed)
    print(f"report at {n:,} rows: {total:.2f} s in all, of which Wilson + DeLong {intervals:.2f} s")
    share = intervals / (total - intervals)
    print(f"  intervals / the rest of the report: {share:.1%} (aim < 20%)")


def naive_ap(scores: np.ndarray, labels: np.ndarray, b: int, seed: int) -> float:
    from sklearn.metrics import average_precision_score

    rng = np.random.default_rng(seed)
    pos, neg = np.flatnonzero(labels), np.flatnonzero(~labels)

    def replicates() -> None:
        for _ in range(b):
            rows = np.concatenate([rng.choice(pos, pos.size), rng.choice(neg, neg.size)])
            average_precision_score(labels[rows], scores[rows])

    return once(replicates) / b


def boot(n: int, b: int) -> None:
    scores, labels = data(n, 2)
    sweep = build_sweep(make_dataset(scores, labels))
    point = sweep.size // 2
    runs = []
    ours = once(lambda: runs.append(bootstrap(sweep, point, replicates=b, seed=1)))
    result = runs[0]
    few = max(b // 10, 2)
    banded = once(lambda: bootstrap(sweep, point, replicates=few, seed=1, bands=True)) / few * b
    ap = result.estimates["average_precision"].interval
    print(f"bootstrap B = {b} at {n:,} rows (continuous scores): {ours:.1f} s (aim <= 30 s)")
    print(f"  with the curve bands too (the explorer's and the report's run): ~{banded:.1f} s")
    print(f"  AP interval {ap.low:.4f} to {ap.high:.4f}" if ap else "  no AP interval")
    small = max(n // 10, 1000)
    s_scores, s_labels = data(small, 3)
    per = naive_ap(s_scores, s_labels, 20, 4)
    scaled = per * (n * math.log(n)) / (small * math.log(small)) * b
    print(
        f"naive row resampling + sklearn average_precision_score: {per * 1000:.1f} ms per "
        f"replicate at {small:,} rows, scaled to {n:,} rows x {b}: ~{scaled:.0f} s"
    )
    print(f"  speed-up: {scaled / ours:.0f}x (aim >= 20x)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**7)
    parser.add_argument("--boot-rows", type=int, default=10**6)
    parser.add_argument("--replicates", type=int, default=1000)
    args = parser.parse_args()
    closed_form(args.rows)
    boot(args.boot_rows, args.replicates)


if __name__ == "__main__":
    main()
