"""The one timing helper of the benchmarks: figures are compared side by side in
one run (the machine is shared and noisy), never against a fixed time.

- :func:`timed`: best of ``repeat`` runs of a function, in this process;
- :func:`in_turns`: several functions run in turns, the median of each;
- :func:`child`: a piece of code in a fresh Python, with its peak memory;
- :func:`command`: a command's seconds and peak memory, started from a small process.
"""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

from threshold_lab import _kernels as kernels


def once(fn: Callable[[], object]) -> float:
    """Seconds one call of ``fn`` takes."""
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def timed(fn: Callable[[], object], repeat: int = 3) -> float:
    """The best of ``repeat`` runs of ``fn``, in seconds (the least disturbed one)."""
    return min(once(fn) for _ in range(repeat))


def in_turns(repeats: int, *fns: Callable[[], object]) -> list[float]:
    """Median seconds of each function, run in turns ``repeats`` times: each run of
    one is beside a run of the others, so a busy spell hits them alike."""
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(repeats):
        for fn, slot in zip(fns, times, strict=True):
            slot.append(once(fn))
    return [statistics.median(t) for t in times]


def child(code: str, *args: str) -> tuple[float, float, str]:
    """Run ``code`` in a fresh Python (``sys.argv[1:]`` is ``args``): its seconds (to
    the end, or to where it sets ``done = time.perf_counter()``), its peak resident
    MiB (its own or a child's), and its stdout."""
    # Its own peak is the kernel's high-water mark of its own memory (VmHWM), not
    # getrusage's: a process started from a large one (this bench, holding its data)
    # inherits the starter's peak in ru_maxrss across fork and exec.
    wrapper = (
        "import resource, sys, time\n"
        "start = time.perf_counter()\n"
        f"{code}\n"
        "took = globals().get('done', time.perf_counter()) - start\n"
        "with open('/proc/self/status') as status:\n"
        "    peak = next(int(line.split()[1]) for line in status\n"
        "                if line.startswith('VmHWM:')) / 1024\n"
        "kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024\n"
        "print(f'@@ {took} {max(peak, kids)}')\n"
    )
    proc = subprocess.run([sys.executable, "-c", wrapper, *args], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"bench step failed ({' '.join(args)}):\n{proc.stderr}")
    out = proc.stdout
    tail = [line for line in out.splitlines() if line.startswith("@@ ")][-1].split()
    return float(tail[1]), float(tail[2]), out


def ratio(a: float, b: float) -> str:
    """``2.31x`` (a over b)."""
    return f"{a / b:.2f}x" if b > 0 else "inf"


# A small process starts the command and reads its rusage: started from the bench
# itself, the command's ru_maxrss would include the bench's own peak (see child).
_TRAMPOLINE = """
import os, subprocess, sys, time
with open(sys.argv[1], "wb") as out:
    start = time.perf_counter()
    proc = subprocess.Popen(sys.argv[2:], stdout=out)
    _, status, usage = os.wait4(proc.pid, 0)
    took = time.perf_counter() - start
print(f"@@ {os.waitstatus_to_exitcode(status)} {took} {usage.ru_maxrss / 1024}")
"""


def command(argv: list[str], out: str = os.devnull) -> tuple[float, float, int]:
    """Seconds, peak resident MiB and exit status of one run of ``argv`` in a fresh
    process, its standard output written to ``out``."""
    proc = subprocess.run(
        [sys.executable, "-c", _TRAMPOLINE, out, *argv], capture_output=True, text=True
    )
    if proc.returncode != 0:
        raise SystemExit(f"bench step failed ({' '.join(argv[:4])}):\n{proc.stderr}")
    tail = [line for line in proc.stdout.splitlines() if line.startswith("@@ ")][-1].split()
    return float(tail[2]), float(tail[3]), int(tail[1])


def processor() -> str:
    """The processor's name, its widest vector instructions (numpy's sorts run about
    twice as fast with AVX-512 as with AVX2, but for AMD Zen 4, where the command
    turns them off: :mod:`threshold_lab._kernels`), and the cores."""
    info = kernels._cpuinfo()
    fields = kernels.first_processor(info)
    name = fields.get("model name") or platform.processor() or "unknown"
    flags = fields.get("flags", "").split()
    simd = "AVX-512" if "avx512f" in flags else ("AVX2" if "avx2" in flags else "no AVX2")
    if kernels.zen4(info):
        simd += ", AMD Zen 4: the command runs numpy's AVX2 kernels"
    return f"{name} ({simd}, {os.cpu_count()} cores)"
