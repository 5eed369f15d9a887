"""``threshold-lab power``: power and sample size for one ROC curve or two paired
ones (pROC's ``power.roc.test``), from numbers or from a file's rows. Headless: core
only."""

from __future__ import annotations

import argparse
import json
import sys

from threshold_lab.core.report.power import power_from
from threshold_lab.tui.cli.args import PROG, Parser, add_options, given


def parser() -> Parser:
    p = Parser(
        prog=f"{PROG} power",
        description="Solve for the one left out of the AUC, the sample size (cases and "
        "controls), the significance level and the power, for a test of one ROC curve's "
        "AUC against 0.5 (Obuchowski's variance), or of two paired curves' AUC difference, "
        "as pROC's power.roc.test.",
        epilog="--from SOURCE (a file or a preset) takes the AUC and the controls per case "
        "from its rows; with two models of the same rows, or with --a1 ... --delta, the "
        "test is of two curves' AUC difference.",
    )
    add_options(p, "power")
    return p


def run(args: argparse.Namespace) -> int:
    g = given(args, "power")
    result = power_from(g)
    if g.get("json"):
        sys.stdout.write(json.dumps(result.as_json(), allow_nan=False) + "\n")
    else:
        sys.stdout.write("\n".join(result.lines()) + "\n")
    return 0
