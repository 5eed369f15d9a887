"""The multiclass report as a ratio to one binary report of the same rows.

Aim: at 10^6 rows and 10 classes, the multiclass report (the first class against the
rest, as `report` prints it, plus the multiclass summary: argmax decisions, the k×k
matrix, per-class metrics, averages, one-vs-rest AUC and AP per class and micro over
all k·n pairs, log loss and Brier) in under 15x the time of one binary report of the
same rows. Each time is the best of two runs.

Usage: python bench/multiclass.py [--rows 1000000] [--classes 10]
"""

from __future__ import annotations

import argparse

import numpy as np
from threshold_lab.core.analysis import analyse
from threshold_lab.core.data.classes import Multiclass
from threshold_lab.core.multiclass.metrics import multiclass_report
from threshold_lab.core.report.as_json import report_json
from timing import timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**6)
    parser.add_argument("--classes", type=int, default=10)
    args = parser.parse_args()
    n, k = args.rows, args.classes
    rng = np.random.default_rng(17)
    labels = rng.integers(0, k, n)
    logits = rng.normal(0, 1, (n, k))
    logits[np.arange(n), labels] += 1.5
    scores = np.exp(logits)
    scores /= scores.sum(axis=1, keepdims=True)
    mc = Multiclass(tuple(f"c{i}" for i in range(k)), scores, labels.astype(np.int64))
    binary = mc.one_vs_rest(0)

    def one() -> object:
        return report_json(analyse(binary, 0.5), source="bench")

    def several() -> object:
        return report_json(analyse(mc.one_vs_rest(0), 0.5), source="bench"), multiclass_report(mc)

    one_s = timed(one, repeat=2)
    several_s = timed(several, repeat=2)
    print(f"one binary report at {n:,} rows: {one_s:.2f} s")
    print(
        f"the multiclass report, {k} classes: {several_s:.2f} s = {several_s / one_s:.1f}x "
        "(aim < 15x)"
    )


if __name__ == "__main__":
    main()
