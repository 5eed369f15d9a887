"""``threshold-lab exercise``: a small fixture meeting exact targets, written as CSV,
and (``--answers``) each target's answer with its derivation. Headless: core only."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from threshold_lab.core.errors import InputError
from threshold_lab.core.lessons.exercise import make_exercise
from threshold_lab.core.output import output, stream, write_text
from threshold_lab.core.session.edits import to_csv
from threshold_lab.tui.cli.args import PROG, Parser, add_options, given


def parser() -> Parser:
    p = Parser(
        prog=f"{PROG} exercise",
        description="Make a small fixture that meets exact targets (AUC, AP, the PR "
        "trapezoid, precision, recall or F1 at a threshold, the tie groups), by searching "
        "every way its rows can fall into tie groups; the seed picks one.",
        epilog="Example: threshold-lab exercise --make 'auc 7/12' --make 'ap >= 3/4' "
        "--rows 5 --ties --seed 1 --out ex.csv --answers",
    )
    add_options(p, "exercise")
    return p


def run(args: argparse.Namespace) -> int:
    g = given(args, "exercise")
    if Path(g["out"]).suffix.lower() != ".csv":
        raise InputError(f"--out {g['out']}: an exercise's rows are CSV: name a .csv file")
    out = output(g["out"], "--out")  # checked before the search
    ex = make_exercise(g["make"], g.get("rows", 6), ties=bool(g.get("ties")), seed=g.get("seed", 1))
    written = write_text(out, to_csv(ex.data))
    which = "the one fixture" if ex.found == 1 else f"one of {ex.found} fixtures"
    groups = f"{len(ex.groups)} tie group{'s' * (len(ex.groups) != 1)}"
    lines = [
        f"Wrote {written}: {ex.data.n} rows in {groups}, {which} "
        f"meeting every target (of {ex.searched} searched)."
    ]
    if g.get("answers"):
        lines += ["", "Answers:", *ex.answer_lines()]
    stream(["\n".join(lines) + "\n"], sys.stdout)
    return 0
