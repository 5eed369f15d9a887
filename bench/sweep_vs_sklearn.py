"""Full sweep (ROC points, PR points, AUC, AP) against scikit-learn, as ratios.

Run by hand (``make bench``), never in CI. Each line is one run on this
machine: threshold-lab's time, scikit-learn's roc_curve + precision_recall_curve
+ roc_auc_score + average_precision_score on the same rows, and one
``numpy.sort`` of the scores (the floor any exact sweep pays). Each time is
the best of three runs, for every side alike.

Usage: python bench/sweep_vs_sklearn.py [--sizes 1000000 10000000]
"""

from __future__ import annotations

import argparse

import numpy as np
from sklearn import metrics as skm
from threshold_lab.core.curves.pr import average_precision, precision_recall_points
from threshold_lab.core.curves.roc import roc_auc, roc_points
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from timing import timed


def ours(data) -> None:  # type: ignore[no-untyped-def]
    sweep = build_sweep(data)
    roc_points(sweep)
    precision_recall_points(sweep)
    roc_auc(sweep)
    average_precision(sweep)


def sklearn_all(y: np.ndarray, s: np.ndarray) -> None:
    skm.roc_curve(y, s, drop_intermediate=False)
    skm.precision_recall_curve(y, s)
    skm.roc_auc_score(y, s)
    skm.average_precision_score(y, s)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10**6, 10**7])
    args = parser.parse_args()
    rng = np.random.default_rng(20261129)
    print(
        f"{'rows':>10} {'scores':<10} {'ours s':>8} {'sklearn s':>10} {'speed-up':>9} "
        f"{'sort s':>7} {'ours/sort':>9}"
    )
    for n in args.sizes:
        y = (rng.random(n) < 0.3).astype(np.int8)
        base = rng.normal(loc=y * 1.2, scale=1.0)
        for kind, s in (("continuous", base), ("tied", np.round(base, 1))):
            data = make_dataset(s, y)
            t_ours = timed(lambda data=data: ours(data))
            t_sk = timed(lambda s=s, y=y: sklearn_all(y, s))
            t_sort = timed(lambda s=s: np.sort(s))
            distinct = build_sweep(data).size - 1
            print(
                f"{n:>10} {kind:<10} {t_ours:>8.3f} {t_sk:>10.3f} {t_sk / t_ours:>8.1f}x "
                f"{t_sort:>7.3f} {t_ours / t_sort:>8.1f}x   ({distinct} distinct scores)"
            )


if __name__ == "__main__":
    main()
