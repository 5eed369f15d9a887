"""Solving a goal against building the sweep it is solved over, as ratios.

The aim: a goal is one vectorised pass over the sweep, under 10% of the
time the sweep itself takes at 10^7 rows. Each time is the best of three runs.

Usage: python bench/goal_vs_sweep.py [--sizes 1000000 10000000]
"""

from __future__ import annotations

import argparse

import numpy as np
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.decide.goal import parse_goal
from threshold_lab.core.decide.solve import Setting, solve
from timing import timed

GOALS = (
    "max f1",
    "max precision where recall >= 0.9",
    "min fpr where recall >= 0.95 and precision >= 0.5",
    "max recall where predicted_positives <= 500",
    "min cost fp=1 fn=20",
    "max mcc",
    "max recall",  # a plateau: every point past the last positive
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10**6, 10**7])
    args = parser.parse_args()
    rng = np.random.default_rng(20261130)
    print(
        f"{'rows':>10} {'scores':<10} {'sweep s':>8}  {'goal':<52} {'goal s':>7} {'goal/sweep':>10}"
    )
    for n in args.sizes:
        labels = rng.random(n) < 0.1
        for kind in ("continuous", "tied"):
            base = rng.normal(labels * 1.5, 1.0)
            scores = np.round(base, 2) if kind == "tied" else base
            data = make_dataset(scores, labels)
            sweep_s = timed(lambda: build_sweep(data))  # noqa: B023
            sweep = build_sweep(data)
            for text in GOALS:
                goal = parse_goal(text)
                goal_s = timed(lambda: solve(Setting(sweep, 2.0), goal))  # noqa: B023
                print(
                    f"{n:>10} {kind:<10} {sweep_s:>8.3f}  {text:<52} {goal_s:>7.3f} "
                    f"{goal_s / sweep_s:>9.1%}"
                )


if __name__ == "__main__":
    main()
