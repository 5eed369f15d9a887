"""The headline: what users run at 10^7 rows, against what they would run instead.

Run by hand (``make bench``), never in CI. Four shapes of scored rows are written as
Parquet (and as .npy for the Python API), then, in turns, for each shape:

- ``threshold-lab report FILE --json`` and ``threshold-lab report FILE`` (text), each a
  fresh process, as a user runs them;
- ``tl.report(y, s).to_json()`` in a fresh Python that has loaded the arrays (the
  call is timed, the import and the load are not);
- a scikit-learn script computing the same headline numbers from the same file
  (roc_auc_score, average_precision_score, roc_curve, precision_recall_curve,
  log_loss, brier_score_loss, the confusion matrix and precision, recall, F1 and MCC
  at 0.5, calibration_curve), a fresh process;
- one ``numpy.sort`` of the scores, in this process: the floor.

Each figure is the median of ``--rounds`` turns; the ratios to scikit-learn's time and
to one sort, and each command's peak resident memory, are printed with the targets:
``report --json`` at most 0.15x scikit-learn's time on every shape and within 1.2x of
the text report; its peak under 700 MiB. The processor is named (AVX-512 and AVX2
machines differ by about 2x in sort speed).

The shapes (scores in (0, 1), so log loss and the Brier score are defined):
- ``runs``: score = U(0, 0.6) + 0.3·label, a tenth of the scores rounded to 3
  decimals: above 0.6 only positives and below 0.3 only negatives, two long straight
  runs of the ROC curve;
- ``continuous``: expit of a normal, 1.5 apart between the classes, no ties;
- ``separated``: half the positives above every negative, the rest mixed in;
- ``levels``: every score on one of 1,000 levels.

Usage: python bench/headline.py [--rows 10000000] [--rounds 3] [--folder DIR]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
from timing import command, processor

TARGET_SKLEARN = 0.15
TARGET_TEXT = 1.2
TARGET_MIB = 700

SKLEARN = r"""
import sys
import numpy as np
import pyarrow.parquet as pq
from sklearn.calibration import calibration_curve
from sklearn.metrics import (average_precision_score, brier_score_loss, confusion_matrix,
    f1_score, log_loss, matthews_corrcoef, precision_recall_curve, precision_score,
    recall_score, roc_auc_score, roc_curve)
t = pq.read_table(sys.argv[1])
y = t.column("label").to_numpy().astype(bool)
s = t.column("score").to_numpy()
pred = s >= 0.5
out = [roc_auc_score(y, s), average_precision_score(y, s), len(roc_curve(y, s)[0]),
       len(precision_recall_curve(y, s)[0]), log_loss(y, s), brier_score_loss(y, s),
       confusion_matrix(y, pred).ravel().tolist(), precision_score(y, pred),
       recall_score(y, pred), f1_score(y, pred), matthews_corrcoef(y, pred),
       len(calibration_curve(y, s, n_bins=10)[0])]
print(out)
"""

API = r"""
import sys, time
import numpy as np
import threshold_lab as tl
y = np.load(sys.argv[1])
s = np.load(sys.argv[2])
start = time.perf_counter()
text = tl.report(y, s).to_json()
print(f"@@ {time.perf_counter() - start}")
"""


def shapes(n: int, rng: np.random.Generator) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    out = {}
    y = rng.random(n) < 0.3
    s = rng.uniform(0, 0.6, n) + 0.3 * y
    tenth = rng.random(n) < 0.1
    s[tenth] = np.round(s[tenth], 3)
    out["runs"] = (y, s)
    y = rng.random(n) < 0.3
    out["continuous"] = (y, 1 / (1 + np.exp(-rng.normal(1.5 * y - 0.75, 1.0))))
    y = rng.random(n) < 0.3
    s = rng.uniform(0.05, 0.7, n)
    top = y & (rng.random(n) < 0.5)
    s[top] = rng.uniform(0.75, 0.99, int(top.sum()))
    out["separated"] = (y, s)
    y = rng.random(n) < 0.3
    levels = np.clip(np.round(rng.normal(0.4 + 0.2 * y, 0.15), 3), 0.001, 0.999)
    out["levels"] = (y, levels)
    return out


def run(argv: list[str], *, said: bool = False) -> tuple[float, float]:
    """Seconds and peak MiB of one fresh process; with ``said``, the seconds it
    printed itself (``@@ S``) rather than its wall time."""
    with tempfile.NamedTemporaryFile() as out:
        took, peak, status = command(argv, out.name)
        if status != 0:
            raise SystemExit(f"failed: {' '.join(argv[:4])}")
        if said:
            lines = Path(out.name).read_text().splitlines()
            took = float(next(ln for ln in lines if ln.startswith("@@ ")).split()[1])
    return took, peak


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--folder", type=Path, default=None)
    args = parser.parse_args()
    folder = args.folder or Path(tempfile.mkdtemp(prefix="tl-headline-"))
    folder.mkdir(parents=True, exist_ok=True)
    rng = np.random.default_rng(20261205)
    print(f"processor: {processor()}; rows: {args.rows:,}; rounds: {args.rounds}")
    files = {}
    for name, (y, s) in shapes(args.rows, rng).items():
        path = folder / f"{name}.parquet"
        pq.write_table(pa.table({"score": s, "label": y.astype(np.int8)}), path)
        np.save(folder / f"{name}-y.npy", y)
        np.save(folder / f"{name}-s.npy", s)
        files[name] = (path, s)
    tl = [sys.executable, "-m", "threshold_lab", "report"]
    met = True
    for name, (path, s) in files.items():
        ys, ss = folder / f"{name}-y.npy", folder / f"{name}-s.npy"
        kinds = {
            "report --json": lambda p=path: run([*tl, str(p), "--json"]),
            "report (text)": lambda p=path: run([*tl, str(p)]),
            "tl.report(y, s).to_json()": lambda a=ys, b=ss: run(
                [sys.executable, "-c", API, str(a), str(b)], said=True
            ),
            "scikit-learn script": lambda p=path: run([sys.executable, "-c", SKLEARN, str(p)]),
            "one numpy.sort": lambda v=s: (_sort(v), 0.0),
        }
        seen: dict[str, list[tuple[float, float]]] = {k: [] for k in kinds}
        kinds["report --json"]()  # untimed: the file in the page cache for every command
        order = list(kinds)
        for r in range(args.rounds):
            # Each round starts one command later: none always follows scikit-learn's
            # script (which frees 1.4 GiB the next command's pages wait on).
            for k in order[r % len(order) :] + order[: r % len(order)]:
                seen[k].append(kinds[k]())
        times = {k: statistics.median(t for t, _ in v) for k, v in seen.items()}
        peaks = {k: max(m for _, m in v) for k, v in seen.items()}
        sk, sort = times["scikit-learn script"], times["one numpy.sort"]
        print(f"\n{name}: {path.name}")
        for k, t in times.items():
            peak = f", peak {peaks[k]:,.0f} MiB" if peaks[k] else ""
            print(f"  {k:<27} {t:7.2f} s {t / sk:7.3f}x scikit-learn {t / sort:6.1f}x a sort{peak}")
        json_t, text_t = times["report --json"], times["report (text)"]
        peak = peaks["report --json"]
        checks = [
            (
                json_t / sk <= TARGET_SKLEARN,
                f"{json_t / sk:.3f}x scikit-learn (at most {TARGET_SKLEARN}x)",
            ),
            (
                json_t / text_t <= TARGET_TEXT,
                f"{json_t / text_t:.2f}x the text report (at most {TARGET_TEXT}x)",
            ),
            (peak < TARGET_MIB, f"peak {peak:,.0f} MiB (under {TARGET_MIB})"),
        ]
        for ok, said in checks:
            met = met and ok
            print(f"  {'met' if ok else 'MISSED'}: report --json {said}")
    print(f"\nevery target {'met' if met else 'NOT met'}")


def _sort(values: np.ndarray) -> float:
    start = time.perf_counter()
    np.sort(values)
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
