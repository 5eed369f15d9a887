"""Start-up: ``threshold-lab report canonical --json`` against ``python -c "import numpy"``.

Run by hand (``make bench``), never in CI. Each command runs in a fresh Python, the
commands in turns (so a busy spell hits them alike), and the best of ``--repeat``
wall times of each is compared: the report of five rows should cost at most twice
importing numpy, which is the floor of anything that computes with it.
``python -c pass`` is printed beside, for the interpreter's own start.

Byte-compiled modules are what an installed wheel has (pip compiles them at
install), so the first run of each command, which writes them, is not counted, and
``PYTHONDONTWRITEBYTECODE`` is dropped from the children's environment.

``--python OTHER`` times the report with another interpreter too (an older
checkout's ``.venv/bin/python``, or a venv made from a pyenv-built Python with the
wheel installed), in the same turns. Every command runs from the temporary folder,
so that no interpreter finds the repository's ``threshold_lab`` folder on its path.

A five-row CSV file's report and a five-row Parquet file's are timed beside, without a
target: Parquet needs pyarrow, whose own import is a floor of its own (pandas, where
installed, must not be loaded by either).

Usage: python bench/startup.py [--repeat 5] [--python OTHER ...]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time

ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def seconds(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, stdout=subprocess.DEVNULL, check=True, env=ENV, cwd=tempfile.gettempdir())
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--python", nargs="*", default=[])
    args = parser.parse_args()
    report = ["-m", "threshold_lab", "report", "canonical", "--json"]
    folder = tempfile.mkdtemp(prefix="tl-startup-")
    rows = "score,label\n0.9,1\n0.8,0\n0.8,1\n0.3,1\n0.1,0\n"
    csv = os.path.join(folder, "five.csv")
    with open(csv, "w") as fh:
        fh.write(rows)
    parquet = os.path.join(folder, "five.parquet")
    import pyarrow.csv as pv
    import pyarrow.parquet as pq

    pq.write_table(pv.read_csv(csv), parquet)
    # Each interpreter's report against its own numpy import.
    pythons = [(sys.executable, "")] + [(other, f" ({other})") for other in args.python]
    commands: dict[str, list[str]] = {"python -c pass": [sys.executable, "-c", "pass"]}
    for python, named in pythons:
        commands[f"python -c 'import numpy'{named}"] = [python, "-c", "import numpy"]
        commands[f"report canonical --json{named}"] = [python, *report]
    commands["report five.csv --json"] = [sys.executable, *report[:3], csv, "--json"]
    commands["report five.parquet --json"] = [sys.executable, *report[:3], parquet, "--json"]
    commands["python -c 'import numpy, pyarrow.parquet'"] = [
        sys.executable,
        "-c",
        "import numpy, pyarrow.parquet",
    ]
    for argv in commands.values():
        seconds(argv)  # writes the byte-compiled modules; not counted
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(args.repeat):
        for name, argv in commands.items():
            times[name].append(seconds(argv))
    print(f"best of {args.repeat}, in turns")
    for name, t in times.items():
        named = name[name.index(" (") :] if name.endswith(")") else ""
        numpy = min(times[f"python -c 'import numpy'{named}"])
        print(f"  {name:<56} {min(t) * 1000:7.1f} ms  {min(t) / numpy:5.2f}x import numpy")
    print("  target: report canonical --json at most 2.00x import numpy")


if __name__ == "__main__":
    main()
