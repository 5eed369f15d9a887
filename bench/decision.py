"""Decision curves and cost curves against what they read, side by side in one run.

Run by hand (``make bench``), never in CI.

- At 10^7 rows (scores with a tenth rounded to 3 decimals), each as a share of
  the sweep, best of three: net benefit over the default grid (0.01 to 0.99, 99 pt;
  target under 5%), the useful range (a pass over the sweep), the ROC convex hull and
  its cost ranges.
- At 10^6 rows, B = 1000: the report's bootstrap with and without the net benefit at
  the 99 grid pt read off each replicate, in turns (the band's cost against the
  report's bootstrap, whose target is 30 s); and the paired bootstrap of two
  models' net benefit difference.

Usage: python bench/decision.py [--rows 10000000] [--boot-rows 1000000] [--replicates 1000]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from threshold_lab.core.compare.paired import paired_net_benefit_bootstrap
from threshold_lab.core.curves.hull import cost_curve
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.decide.net_benefit import (
    DEFAULT_GRID,
    net_benefit_key,
    net_benefit_reader,
    net_benefit_row,
    useful_range,
    weights_of,
)
from threshold_lab.core.intervals.bootstrap import CurveStatistic, bootstrap

sys.path.insert(0, str(Path(__file__).parent))
from timing import in_turns, timed


def scores(n: int, seed: int = 20261201) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    p = 1.0 / (1.0 + np.exp(-rng.normal(loc=y * 1.2 - 0.6, scale=1.0)))
    tenth = rng.random(n) < 0.1
    p[tenth] = np.round(p[tenth], 3)
    return p, y


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**7)
    parser.add_argument("--boot-rows", type=int, default=10**6)
    parser.add_argument("--replicates", type=int, default=1000)
    args = parser.parse_args()

    p, y = scores(args.rows)
    data = make_dataset(p, y)
    sweep = build_sweep(data)
    t_sweep = timed(lambda: build_sweep(data))
    w = weights_of(sweep, None, DEFAULT_GRID[0] * 0)
    assert not isinstance(w, str)
    parts = {
        "net benefit at the 99 grid pt": lambda: [
            net_benefit_row(sweep, w, pt) for pt in DEFAULT_GRID
        ],
        "useful range (a pass)": lambda: useful_range(sweep, w),
        "ROC convex hull, cost ranges": lambda: cost_curve(sweep),
    }
    print(f"{args.rows} rows, {sweep.size - 1} distinct scores: sweep {t_sweep:.3f} s")
    for name, fn in parts.items():
        t = timed(fn)
        target = "  (target under 5%)" if name.startswith("net benefit") else ""
        print(f"  {name:<32} {t * 1000:9.2f} ms  {t / t_sweep:7.2%} of the sweep{target}")

    p, y = scores(args.boot_rows, seed=7)
    data = make_dataset(p, y)
    sweep = build_sweep(data)
    point = sweep.index_of(0.5)
    nb = CurveStatistic(
        net_benefit_reader(DEFAULT_GRID, DEFAULT_GRID[0] * 0, None),
        tuple(net_benefit_key(pt) for pt in DEFAULT_GRID),
        tuple(f"pt {float(pt)}" for pt in DEFAULT_GRID),
    )
    b = args.replicates

    def plain() -> object:
        return bootstrap(sweep, point, replicates=b, bands=True)

    def banded() -> object:
        return bootstrap(sweep, point, replicates=b, bands=True, curves=(nb,))

    without, with_nb = in_turns(2, plain, banded)
    print(f"{args.boot_rows} rows, B = {b} (median of 2, in turns):")
    print(f"  the report's bootstrap (bands)      {without:7.2f} s")
    print(
        f"  the same with net benefit at 99 pt  {with_nb:7.2f} s  "
        f"(+{with_nb - without:.2f} s, {with_nb / without:.2f}x; the report's "
        "bootstrap's target: 30 s)"
    )
    other = make_dataset(np.clip(p + np.random.default_rng(3).normal(0, 0.05, p.shape[0]), 0, 1), y)
    pts = np.asarray([float(pt) for pt in DEFAULT_GRID])
    n = float(sweep.positives + sweep.negatives)
    t = timed(
        lambda: paired_net_benefit_bootstrap(
            data, other, pts, (1 / n, 1 / n), replicates=b, seed=1
        ),
        repeat=1,
    )
    print(f"  paired bootstrap of two models' NB difference at 99 pt: {t:.2f} s")


if __name__ == "__main__":
    main()
