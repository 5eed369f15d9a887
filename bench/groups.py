"""Groups against one binary report, side by side in one run.

Run by hand (``make bench``), never in CI.

At 10^6 rows in 10 groups (scores with a tenth rounded to 3 decimals;
each group with its own prevalence and shift), in turns, median of three, each report
built and rendered whole (``to_json``, as ``report --json``):

- one binary report of all the rows (``tl.report``, no groups): the yardstick;
- the report with ``groups=`` (every group's report and the gaps);
- the report with per-group thresholds for demographic parity, equal opportunity and
  predictive parity (max accuracy; and max F1, by Dinkelbach's iteration);
- the target: 10 groups at 10^6 rows solved in under 20x one binary report.

Equalised odds searches pairs of low ends (O(G·V_TPR·V_FPR)); at these sizes it is
refused as too large, and is timed here on scores rounded to 2 decimals.

Usage: python bench/groups.py [--rows 1000000] [--groups 10]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

import threshold_lab as tl

sys.path.insert(0, str(Path(__file__).parent))
from timing import in_turns, ratio


def rows(n: int, k: int, seed: int = 20261202) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    g = rng.integers(0, k, n)
    prevalence = 0.15 + 0.3 * (np.arange(k) / max(k - 1, 1))
    y = rng.random(n) < prevalence[g]
    shift = np.linspace(-0.3, 0.3, k)[g]
    p = 1.0 / (1.0 + np.exp(-rng.normal(loc=y * 1.2 - 0.6 + shift, scale=1.0)))
    tenth = rng.random(n) < 0.1
    p[tenth] = np.round(p[tenth], 3)
    names = np.array([f"site{i:02d}" for i in range(k)], dtype=object)[g]
    return p, y.astype(np.int8), names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**6)
    parser.add_argument("--groups", type=int, default=10)
    args = parser.parse_args()
    p, y, g = rows(args.rows, args.groups)
    print(f"{args.rows:,} rows in {args.groups} groups; in turns, median of three")

    # Each report is rendered whole (its JSON, as report --json writes it), so every
    # section is computed: the yardstick is what one binary report costs a user.
    def plain() -> object:
        return tl.report(y, p).to_json(points=0)

    def grouped() -> object:
        return tl.report(y, p, groups=g).to_json(points=0)

    def solved(criterion: str, goal: str = "max accuracy") -> object:
        return tl.report(y, p, groups=g, group_goal=criterion, goal=goal).to_json(points=0)

    fns = [
        plain,
        grouped,
        lambda: solved("demographic_parity"),
        lambda: solved("equal_opportunity"),
        lambda: solved("predictive_parity"),
        lambda: solved("equal_opportunity", "max f1"),
    ]
    names = [
        "one binary report (all rows)",
        "groups= (each group's report and the gaps)",
        "per-group thresholds, demographic parity, max accuracy",
        "per-group thresholds, equal opportunity, max accuracy",
        "per-group thresholds, predictive parity, max accuracy",
        "per-group thresholds, equal opportunity, max F1 (Dinkelbach)",
    ]
    times = in_turns(3, *fns)
    base = times[0]
    for name, t in zip(names, times, strict=True):
        print(f"  {name:<62} {t:7.2f} s  {ratio(t, base)}")
    worst = max(times[2:])
    print(
        f"  target: per-group thresholds under 20x one binary report: worst {ratio(worst, base)}"
        f" ({'met' if worst < 20 * base else 'NOT met'})"
    )

    q = np.round(p, 2)

    def odds() -> object:
        return tl.report(y, q, groups=g, group_goal="equalized_odds").to_json(points=0)

    def plain_q() -> object:
        return tl.report(y, q).to_json(points=0)

    t_odds, t_q = in_turns(3, odds, plain_q)
    print(
        f"  equalised odds on scores rounded to 2 decimals: {t_odds:.2f} s, "
        f"{ratio(t_odds, t_q)} one binary report of those scores"
    )


if __name__ == "__main__":
    main()
