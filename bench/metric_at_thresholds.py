"""``tl.metric_at_thresholds`` against scikit-learn 1.9's ``metric_at_thresholds``,
side by side in one run.

Run by hand (``make bench``), never in CI. F1 at every distinct score, on scores with
1,000 and with 100 distinct values: threshold-lab with the metric named (``"f1"``, read
off the sweep's counts in one pass) and with scikit-learn's ``f1_score`` called at each
score (as scikit-learn does), against scikit-learn's own. In turns, median of three.

Usage: python bench/metric_at_thresholds.py [--rows 100000]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from sklearn.metrics import f1_score
from sklearn.metrics import metric_at_thresholds as sk_metric_at_thresholds

import threshold_lab as tl

sys.path.insert(0, str(Path(__file__).parent))
from headline import processor
from timing import in_turns, ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    args = parser.parse_args()
    print(f"processor: {processor()}; rows: {args.rows:,}; in turns, median of three")
    rng = np.random.default_rng(20261206)
    y = rng.integers(0, 2, args.rows)
    raw = 1.0 / (1.0 + np.exp(-rng.normal(loc=y * 1.2 - 0.6)))
    for decimals, distinct in ((3, "1,000"), (2, "100")):
        s = np.round(raw, decimals)
        named, called, theirs = in_turns(
            3,
            lambda s=s: tl.metric_at_thresholds(y, s, "f1"),
            lambda s=s: tl.metric_at_thresholds(y, s, f1_score),
            lambda s=s: sk_metric_at_thresholds(y, s, f1_score),
        )
        print(f"  {distinct} distinct scores:")
        faster = f"{theirs / named:,.0f}x faster"
        print(f"    named 'f1' (the counts)         {named:8.3f} s  {faster}")
        print(f"    f1_score called at each score   {called:8.3f} s  {ratio(called, theirs)}")
        print(f"    scikit-learn's                  {theirs:8.3f} s  1.00x")


if __name__ == "__main__":
    main()
