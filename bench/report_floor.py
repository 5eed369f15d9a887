"""The 10^7-row report against its floor: the sweep, one sort, one thread of BLAS.

Run by hand (``make bench``), never in CI. The file: 10^7 rows of a
score and a 0/1 label, a tenth of the scores rounded to 3 decimals (so there are
ties and about 9·10^6 distinct scores), as Parquet. Every figure is a ratio from
this one run:

- **sections**: in a fresh Python, the file is loaded and swept, then what the report
  computes after the sweep is timed as the report computes it (the summaries, DeLong,
  KS, calibration and gains of a fresh ``Curves``: one pass over the tie groups), as a
  share of the sweep's time: the figure held under 50% (best of three). Each
  section's own function is timed on its own beside it;
- **memory**: the peak resident memory of ``report FILE --json`` in a child process,
  against 700 MiB;
- **BLAS**: ``report FILE --json`` with the default environment and with
  ``OPENBLAS_NUM_THREADS=1``, in turns, while two other processes keep both cores
  busy (the trap was BLAS waking its thread pool on every small block).

``--python OTHER`` runs the same lines with another interpreter (an older checkout's
``.venv/bin/python``) beside this one's, in turns, so the two are compared on the
same machine at the same time.

Usage: python bench/report_floor.py [--rows 10000000] [--python OTHER ...] [--repeat 3]
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

MEMORY_TARGET_MIB = 700

# Loads and sweeps the file, then times what the report computes after the sweep as
# it computes it (a fresh Curves each time: the summaries, DeLong's SE, KS, the default
# reliability bins, gains), and each section's own function on its own (best of three).
_SECTIONS = r"""
import sys, time, json
from threshold_lab.core.analysis import Curves
from threshold_lab.core.data.sources import open_source
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.curves.roc import roc_auc
from threshold_lab.core.curves.pr import pr_summaries
from threshold_lab.core.curves.probabilities import probability_summaries
from threshold_lab.core.intervals.closed import delong_se
from threshold_lab.core.calibration.reliability import calibration
from threshold_lab.core.calibration.gains import gains, ks_statistic

def best(fn):
    t = []
    for _ in range(3):
        s = time.perf_counter(); fn(); t.append(time.perf_counter() - s)
    return min(t)

def as_the_report():
    c = Curves(data, sweep)
    c.summaries, c.auc_se, c.ks, c.calibration(), c.gains

data = open_source(sys.argv[1]).data
sweep = build_sweep(data)
out = {"sweep": best(lambda: build_sweep(data)), "report": best(as_the_report)}
for name, fn in [
    ("ROC AUC", lambda: roc_auc(sweep)),
    ("AP and PR trapezoid area (one pass)", lambda: pr_summaries(sweep)),
    ("log loss and Brier (one pass)", lambda: probability_summaries(data, sweep)),
    ("DeLong", lambda: delong_se(sweep)),
    ("calibration", lambda: calibration(sweep)),
    ("KS", lambda: ks_statistic(sweep)),
    ("gains", lambda: gains(sweep)),
]:
    out[name] = best(fn)
out["distinct"] = sweep.size - 1
print("@@" + json.dumps(out))
"""

# The command's own process is a child of this one: its peak is counted.
_PEAK = r"""
import resource, subprocess, sys
with open(sys.argv[1], "wb") as out:
    code = subprocess.run(sys.argv[2:], stdout=out).returncode
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
print(f"@@{code} {peak}")
"""


def write(folder: Path, n: int) -> Path:
    """Issue 29's file: score and label, a tenth of the scores rounded to 3 decimals."""
    rng = np.random.default_rng(20261201)
    y = rng.random(n) < 0.3
    p = 1.0 / (1.0 + np.exp(-rng.normal(loc=y * 1.2 - 0.6, scale=1.0)))
    tenth = rng.random(n) < 0.1
    p[tenth] = np.round(p[tenth], 3)
    path = folder / "scores.parquet"
    pq.write_table(pa.table({"score": p, "label": y}), path)
    return path


def run(python: str, code: str, *args: str, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(
        [python, "-c", code, *args], capture_output=True, text=True, env=env, check=False
    )
    if proc.returncode != 0:
        raise SystemExit(f"{python} failed:\n{proc.stderr}")
    return next(line for line in proc.stdout.splitlines() if line.startswith("@@"))[2:]


def report_seconds(python: str, path: Path, env: dict[str, str]) -> float:
    start = time.perf_counter()
    proc = subprocess.run(
        [python, "-m", "threshold_lab", "report", str(path), "--json"],
        stdout=subprocess.DEVNULL,
        env=env,
        check=False,
    )
    if proc.returncode != 0:
        raise SystemExit(f"report exited with {proc.returncode}")
    return time.perf_counter() - start


def _spin(stop: float) -> None:
    x = 0
    while time.time() < stop:
        x += 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10**7)
    parser.add_argument("--python", nargs="*", default=[], help="other interpreters beside")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    pythons = [sys.executable, *args.python]
    label = {p: ("this" if p == sys.executable else p) for p in pythons}
    with tempfile.TemporaryDirectory() as tmp:
        path = write(Path(tmp), args.rows)

        print(f"sections after the sweep, {args.rows} rows (best of three, share of the sweep)")
        for python in pythons:
            t = json.loads(run(python, _SECTIONS, str(path)))
            sweep, distinct, report = t.pop("sweep"), t.pop("distinct"), t.pop("report")
            print(f"  {label[python]}: sweep {sweep:.3f} s ({distinct} distinct scores)")
            print(
                f"    {'as the report computes them':<36} {report:7.3f} s  {report / sweep:6.1%}"
                "  (target 50%)"
            )
            print("    each section's own function, on its own:")
            for name, seconds in t.items():
                print(f"      {name:<34} {seconds:7.3f} s  {seconds / sweep:6.1%}")
            total = sum(t.values())
            print(f"      {'together':<34} {total:7.3f} s  {total / sweep:6.1%}")

        print(f"peak memory of report --json (target {MEMORY_TARGET_MIB} MiB)")
        for python in pythons:
            code, mib = run(
                python,
                _PEAK,
                str(Path(tmp) / "out"),
                python,
                "-m",
                "threshold_lab",
                "report",
                str(path),
                "--json",
            ).split()
            if code != "0":
                raise SystemExit(f"report exited with {code}")
            print(
                f"  {label[python]}: {float(mib):.0f} MiB  "
                f"{float(mib) / MEMORY_TARGET_MIB:.2f}x of the target"
            )

        print("report --json with both cores busy: default BLAS threads vs one (median, in turns)")
        one = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
        default = {k: v for k, v in os.environ.items() if k != "OPENBLAS_NUM_THREADS"}
        stop = time.time() + 3600
        spinners = [multiprocessing.Process(target=_spin, args=(stop,)) for _ in range(2)]
        for s in spinners:
            s.start()
        try:
            times: dict[tuple[str, str], list[float]] = {}
            for _ in range(args.repeat):
                for python in pythons:
                    for name, env in (("default", default), ("one", one)):
                        times.setdefault((python, name), []).append(
                            report_seconds(python, path, env)
                        )
        finally:
            for s in spinners:
                s.terminate()
        for python in pythons:
            d = statistics.median(times[(python, "default")])
            o = statistics.median(times[(python, "one")])
            print(
                f"  {label[python]}: default {d:.2f} s, one thread {o:.2f} s: "
                f"{d / o:.2f}x (target within 1.10x)"
            )


if __name__ == "__main__":
    main()
