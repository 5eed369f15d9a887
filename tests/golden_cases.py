"""The report's golden cases: every preset and the fixtures of the goal, interval,
compare, calibration and multiclass tests, each as ``report`` arguments.

Their outputs were written before the report moved into core (one Report that
every front end renders) and are held equal since: the JSON field for field (new
fields may be added, none renamed or dropped), the text byte for byte.

Byte for byte but for the last bits of a float: numpy's logarithm and BLAS's dot
product give results that differ by an ulp or two from one CPU to another (SIMD
kernels chosen when numpy starts), so a float (a JSON number, or a number of 12 or
more significant digits in the text) is the same when it is within
:data:`ULPS` units in the last place of the golden one, or of 1 (a difference of two
numbers near 1, such as two AUCs, keeps only their absolute accuracy). Any other difference (a
field, a word, a rounded figure, a count) fails.

``python -m tests.golden_cases`` writes the outputs anew: only for a change of
output that is meant, each one looked at.
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import re
import sys
from pathlib import Path
from typing import Any

from tests.paths import ROOT

GOLDEN = ROOT / "tests" / "data" / "golden"
DATA = "tests/data"

PRESETS = (
    "canonical",
    "predict-no-positives",
    "no-actual-positives",
    "one-actual-positive",
    "all-tied",
    "ap-vs-trapezoid",
    "good",
    "weak",
    "imbalanced",
    "delivery-a",
    "delivery-b",
    "deliveries",
    "triage",
)

#: name -> the report's arguments (without --json: each case runs as JSON and as text).
CASES: dict[str, list[str]] = {
    **{f"preset-{p}": [p] for p in PRESETS},
    "above-all": ["canonical", "--threshold", "above-all"],
    "beta": ["good", "--threshold", "0.42", "--beta", "0.5"],
    "goal-precision": ["good", "--goal", "max precision where recall >= 0.9"],
    "goal-cost": ["imbalanced", "--goal", "min cost fp=1 fn=5"],
    "goal-infeasible": ["weak", "--goal", "max recall where precision >= 0.99"],
    "goal-cost-column": [f"{DATA}/costs.csv", "--goal", "min cost fp=1 fn=@amount"],
    "prevalence": ["good", "--prevalence", "1/20"],
    "goal-at-prevalence": ["good", "--goal", "max f1", "--prevalence", "0.05"],
    "bootstrap": ["good", "--bootstrap", "200", "--seed", "3"],
    "bootstrap-goal": ["imbalanced", "--goal", "max f1", "--bootstrap", "200", "--seed", "5"],
    "confidence": ["weak", "--confidence", "0.9"],
    "compare-columns": ["deliveries"],
    "compare-bootstrap": ["deliveries", "--bootstrap", "200", "--seed", "7"],
    "compare-goal": ["deliveries", "--goal", "max f1"],
    "compare-files": [f"{DATA}/model-a.csv", "--compare", f"{DATA}/model-b.csv"],
    "asah": f"{DATA}/asah.csv --label-column outcome --positive Poor "
    "--score-column s100b --score-column wfns".split(),
    # slices.csv's groups by model, each a model of its own rows (--as-models).
    "groups": [f"{DATA}/slices.csv", "--as-models"],
    "groups-second": [f"{DATA}/slices.csv", "--group", "candidate", "--as-models"],
    # An aggregated file's groups open as groups: pooled, each group, the gaps.
    "aggregated-groups": [f"{DATA}/slices.csv"],
    "calibration-width": ["good", "--bins", "5", "--binning", "width"],
    "transform": ["good", "--transform", "square"],
    "transform-goal": ["good", "--transform", "logit", "--goal", "max f1"],
    "multiclass-file": [f"{DATA}/pets.csv"],
    "multiclass-class": [f"{DATA}/pets.csv", "--class", "fish", "--threshold", "0.3"],
    "multiclass-triage": ["triage", "--class", "urgent"],
    "points": ["good", "--points", "10"],
}

KINDS = ("json", "text")


def run_report(args: list[str]) -> tuple[int, str]:
    """``threshold-lab report ARGS`` in this process, from the repository's root: the
    exit status and what it wrote on stdout."""
    from threshold_lab.tui.cli import main

    out = io.StringIO()
    here = Path.cwd()
    os.chdir(ROOT)
    try:
        with contextlib.redirect_stdout(out):
            code = main(["report", *args])
    finally:
        os.chdir(here)
    return code, out.getvalue()


def output(case: str, kind: str) -> str:
    """The case's report output (JSON or text); a failing report is an error here."""
    args = CASES[case] + (["--json"] if kind == "json" else [])
    code, out = run_report(args)
    if code != 0:
        raise AssertionError(f"report {' '.join(args)} exited {code}")
    return out


def path(case: str, kind: str) -> Path:
    return GOLDEN / f"{case}.{'json' if kind == 'json' else 'txt'}"


#: How many units in the last place a float may move between CPUs.
ULPS = 8


def same_float(golden: float, new: float) -> bool:
    """``new`` is ``golden``, or within :data:`ULPS` units in the last place of the
    larger of the two or of 1.

    >>> same_float(0.39565361826049117, 0.3956536182604912), same_float(0.1, 0.1000001)
    (True, False)
    >>> same_float(-0.029126027773829402, -0.0291260277738295)
    True
    """
    if golden == new or (math.isnan(golden) and math.isnan(new)):
        return True
    return abs(golden - new) <= ULPS * math.ulp(max(abs(golden), abs(new), 1.0))


_LONG_NUMBER = re.compile(r"-?\d+\.\d+(?:e-?\d+)?")


def same_text(golden: str, new: str) -> bool:
    """The texts are equal, but for numbers of 12 or more significant digits that
    are within :data:`ULPS` of each other (last bits that depend on the CPU).

    >>> same_text("t 0.50579244858 with", "t 0.50579244857 with")
    False
    >>> same_text("t 0.3956536182604912 with", "t 0.39565361826049117 with")
    True
    """
    if golden == new:
        return True
    g_parts, n_parts = _LONG_NUMBER.split(golden), _LONG_NUMBER.split(new)
    g_numbers, n_numbers = _LONG_NUMBER.findall(golden), _LONG_NUMBER.findall(new)
    if g_parts != n_parts or len(g_numbers) != len(n_numbers):
        return False
    for g, n in zip(g_numbers, n_numbers, strict=True):
        digits = len(g.split("e")[0].replace("-", "").replace(".", "").lstrip("0"))
        if g != n and (digits < 12 or not same_float(float(g), float(n))):
            return False
    return True


def contains(golden: Any, new: Any, where: str = "") -> list[str]:
    """Where ``new`` differs from ``golden`` (a field dropped or changed); fields
    that ``new`` adds to an object are allowed."""
    if isinstance(golden, dict):
        if not isinstance(new, dict):
            return [f"{where or '.'}: an object became {type(new).__name__}"]
        out = []
        for key, value in golden.items():
            if key not in new:
                out.append(f"{where}.{key}: dropped")
            else:
                out += contains(value, new[key], f"{where}.{key}")
        return out
    if isinstance(golden, list):
        if not isinstance(new, list) or len(new) != len(golden):
            return [f"{where}: a list of {len(golden)} became {new!r:.80}"]
        return [
            d
            for i, (g, n) in enumerate(zip(golden, new, strict=True))
            for d in contains(g, n, f"{where}[{i}]")
        ]
    if isinstance(golden, float) and isinstance(new, float) and same_float(golden, new):
        return []
    if golden != new or type(golden) is not type(new):
        return [f"{where}: {golden!r:.80} became {new!r:.80}"]
    return []


def write_all() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        for kind in KINDS:
            text = output(case, kind)
            if kind == "json":
                json.loads(text)  # one object, or the report is broken
            path(case, kind).write_text(text, encoding="utf-8")
    print(f"wrote {len(CASES) * len(KINDS)} files to {GOLDEN}", file=sys.stderr)


if __name__ == "__main__":
    write_all()
