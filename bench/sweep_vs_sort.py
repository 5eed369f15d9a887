"""The sweep against its floor: one ``np.sort`` of the same float64 scores.

Run by hand (``make bench``), never in CI. For 10^6 and 10^7 rows, continuous
scores (every one distinct), tied ones (rounded to 2 decimals), partly tied ones (a
tenth rounded to 3 decimals, as the headline's file) and logits (scores of both
signs, which the sweep puts on one centred scale), the sweep of unweighted rows and
one value sort of the scores run in turns in one fresh Python, the best of
``--repeat`` of each (the least disturbed run); the ratio is held at most 2.5x.

On a processor with AVX-512 it runs again with numpy's AVX-512 kernels off
(``NPY_DISABLE_CPU_FEATURES``): numpy's AVX2 kernels, the ones an AVX2 processor
runs, on this processor (its cache and clock stay this one's).

``--python OTHER`` runs the same in another interpreter (an older checkout's
``.venv/bin/python``) after this one, for the before and after.

Usage: python bench/sweep_vs_sort.py [--sizes 1000000 10000000] [--repeat 5]
       [--python OTHER ...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

from timing import processor

from threshold_lab import _kernels as kernels

_RUN = r"""
import sys, time
import numpy as np
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset

repeat = int(sys.argv[1])
rng = np.random.default_rng(20261201)
for n in map(int, sys.argv[2:]):
    y = rng.random(n) < 0.3
    p = 1.0 / (1.0 + np.exp(-rng.normal(loc=y * 1.2 - 0.6, scale=1.0)))
    partly = p.copy()
    partly[: n // 10] = np.round(partly[: n // 10], 3)
    kinds = (
        ("continuous", p),
        ("tied", np.round(p, 2)),
        ("partly", partly),
        ("logits", np.log(p / (1 - p))),
    )
    for kind, s in kinds:
        data = make_dataset(s, y)
        sweep_t, sort_t = [], []
        for _ in range(repeat):
            t = time.perf_counter(); build_sweep(data); sweep_t.append(time.perf_counter() - t)
            t = time.perf_counter(); np.sort(s); sort_t.append(time.perf_counter() - t)
        a, b = min(sweep_t), min(sort_t)
        m = build_sweep(data).size - 1
        print(f"{n:>10} {kind:<11} {a:8.3f} {b:8.3f} {a / b:8.2f}x   ({m} distinct)")
"""


def _kernels() -> list[tuple[str, str | None]]:
    """numpy's own choice of kernels, and on an AVX-512 processor its AVX2 kernels too
    (what an AVX2 processor runs, and what the command runs on AMD Zen 4): the sort's
    speed differs by about 2x between the two kinds of processor, and by 5x on Zen 4."""
    own = "numpy's own kernels"
    if "avx512f" not in kernels.first_processor(kernels._cpuinfo()).get("flags", "").split():
        return [(own, None)]
    names = kernels.avx512_names(kernels._numpy_version())
    avx2 = "AVX-512 off: numpy's AVX2 kernels, as on an AVX2 processor"
    return [(own + " (AVX-512)", None)] + ([(avx2, names)] if names else [])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10**6, 10**7])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--python", nargs="*", default=[])
    args = parser.parse_args()
    print(f"processor: {processor()}")
    for python in [sys.executable, *args.python]:
        for label, names in _kernels():
            env = {k: v for k, v in os.environ.items() if k != kernels.VARIABLE}
            if names:
                env[kernels.VARIABLE] = names
            who = "this" if python == sys.executable else python
            print(f"\n{who}, {label}  (target: at most 2.50x)")
            print(f"{'rows':>10} {'scores':<11} {'sweep s':>8} {'sort s':>8} {'sweep/sort':>9}")
            sys.stdout.flush()
            subprocess.run(
                [python, "-W", "ignore::ImportWarning", "-c", _RUN, str(args.repeat)]
                + [str(n) for n in args.sizes],
                check=True,
                env=env,
            )


if __name__ == "__main__":
    main()
