"""The braille line and the sound beside the sweep they are read from, in one run.

Run by hand (``make bench``), never in CI. At 10^7 rows of continuous scores: the
exact sweep (``curves_for``), then the braille line of ROC and PR (40 cells) and the
sound of ROC (a curve reduced to 400 tones of 0.05 s), each on that sweep, in turns,
median of three. Target: each under 1x the sweep.

Usage: python bench/accessible.py [--rows 10000000]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.curves.braille import braille_line
from threshold_lab.core.curves.sound import sonify
from threshold_lab.core.data.dataset import make_dataset

sys.path.insert(0, str(Path(__file__).parent))
from headline import processor
from timing import in_turns, ratio


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**7)
    args = parser.parse_args()
    print(f"processor: {processor()}; rows: {args.rows:,}; in turns, median of three")
    rng = np.random.default_rng(20261206)
    y = rng.random(args.rows) < 0.3
    scores = rng.normal(loc=y * 1.0)
    sweep = curves_for(make_dataset(scores, y)).sweep

    def sweep_again() -> object:  # the rows as given (in no order), as a report reads them
        return curves_for(make_dataset(scores, y)).sweep

    t_sweep, t_roc, t_pr, t_sound = in_turns(
        3,
        sweep_again,
        lambda: braille_line(sweep, "roc", 40),
        lambda: braille_line(sweep, "pr", 40),
        lambda: sonify(sweep, "roc", 0.05),
    )
    print(f"  the sweep (the yardstick)          {t_sweep:7.3f} s  1.00x")
    print(f"  braille line, ROC                  {t_roc:7.3f} s  {ratio(t_roc, t_sweep)}")
    print(f"  braille line, PR                   {t_pr:7.3f} s  {ratio(t_pr, t_sweep)}")
    print(f"  sound, ROC (400 tones)             {t_sound:7.3f} s  {ratio(t_sound, t_sweep)}")
    worst = max(t_roc, t_pr, t_sound)
    print(f"  target: each under 1x the sweep: {'met' if worst < t_sweep else 'NOT met'}")


if __name__ == "__main__":
    main()
