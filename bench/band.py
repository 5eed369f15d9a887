"""A review band beside the sweep it is solved on, in one run.

Run by hand (``make bench``), never in CI. At 10^7 rows, on two shapes (continuous
scores, every pair of 10^7 thresholds a candidate; and scores on 1,000 levels): the
exact sweep (``curves_for``), then three band goals solved on it (max coverage under
precision and NPV bounds, min review, min cost with a review price), the
risk-coverage frontier the report lists beside a band, and the best band at every
coverage (found where its pairs fit the budget, else refused with its reason: the
time to say so), in turns, median of three. Target: each band under 0.2x the sweep.

Usage: python bench/band.py [--rows 10000000]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.decide.band import parse_band_goal, solve_band
from threshold_lab.core.decide.risk_coverage import risk_coverage, risk_coverage_steps

sys.path.insert(0, str(Path(__file__).parent))
from headline import processor
from timing import in_turns, ratio

GOALS = (
    "band: max coverage where precision >= 0.95 and npv >= 0.95",
    "band: min review where precision >= 0.9",
    "band: min cost fp=10 fn=50 review=1",
)
TARGET = 0.2


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**7)
    args = parser.parse_args()
    print(f"processor: {processor()}; rows: {args.rows:,}; in turns, median of three")
    rng = np.random.default_rng(20261206)
    worst = 0.0
    for shape in ("continuous", "levels"):
        y = rng.random(args.rows) < 0.3
        scores = rng.normal(loc=y * 2.0)
        if shape == "levels":
            scores = np.round(scores, 2)
        sweep = curves_for(make_dataset(scores, y)).sweep
        goals = [parse_band_goal(g) for g in GOALS]

        def sweep_again(s: np.ndarray = scores, labels: np.ndarray = y) -> object:
            return curves_for(make_dataset(s, labels)).sweep

        solves = [lambda g=g, s=sweep: solve_band(s, g, frontier=False) for g in goals]
        times = in_turns(
            3,
            sweep_again,
            *solves,
            lambda s=sweep: risk_coverage(s),
            lambda s=sweep: risk_coverage_steps(s),
        )
        print(f"{shape}: {sweep.size - 1:,} distinct scores")
        print(f"  the sweep (the yardstick)                  {times[0]:7.3f} s  1.00x")
        for text, t in zip(GOALS, times[1:-2], strict=True):
            print(f"  {text[6:46]:<42} {t:7.3f} s  {ratio(t, times[0])}")
            worst = max(worst, t / times[0])
        t = times[-2]
        print(f"  {'the risk-coverage frontier (every band)':<42} {t:7.3f} s  {ratio(t, times[0])}")
        steps = risk_coverage_steps(sweep)
        said = f"{len(steps.bands)} steps" if not steps.reason else "left out"
        t = times[-1]
        print(
            f"  {'the best band at every coverage':<42} {t:7.3f} s  {ratio(t, times[0])}  ({said})"
        )
    print(f"  target: each under {TARGET}x the sweep: {'met' if worst < TARGET else 'NOT met'}")


if __name__ == "__main__":
    main()
