"""docs/options.md, the reference of every option: made from core's option table by
`make docs` (``python -m tests.docs.options_page``) and held equal to it by
tests/api/test_front_door.py, so the page can never go stale."""

from __future__ import annotations

import sys

from threshold_lab.core.report.option import COMMANDS, PYTHON, Option
from threshold_lab.core.report.table import OPTIONS

from tests.paths import ROOT

PAGE = ROOT / "docs" / "options.md"

#: The page's sections, in the order it lists them, with the table's section names.
SECTIONS = [
    ("The threshold and what is read there", ("options",)),
    ("Deciding", ("deciding",)),
    ("How sure", ("how sure",)),
    ("Operating points", ("operating points",)),
    ("Models", ("models",)),
    ("Calibration", ("calibration",)),
    ("Groups", ("groups",)),
    ("The gate", ("gate",)),
    ("What report prints", ("output",)),
    ("Figures", ("figure",)),
    ("Sound", ("sound",)),
    ("Power and sample size", ("power",)),
    ("Exercises", ("exercise",)),
    ("The explorer", ("explorer",)),
    ("Reading the rows", ("source",)),
]


def _where(o: Option) -> str:
    commands = [c for c in COMMANDS if c in o.fronts]
    python = [p for p in PYTHON if p in o.fronts]
    said = []
    if commands:
        said.append("command line: " + ", ".join(commands))
    if python:
        said.append("Python: " + ", ".join(python))
    if "plain" in o.fronts:
        said.append(f"plain mode: option {o.plain}")
    return "; ".join(said)


def _name(o: Option) -> str:
    names = []
    if o.flag and o.fronts & set(COMMANDS):
        names.append(
            f"`{o.flag}`" + (f" `{o.metavar}`" if o.metavar and o.kind != "switch" else "")
        )
    if o.keyword and o.fronts & set(PYTHON):
        names.append(f"`{o.keyword}=`")
        names += [f"`{a}=`" for a in o.aliases]
    return " / ".join(names)


def page() -> str:
    """The page's text."""
    lines = [
        "# Options",
        "",
        "Every option threshold-lab takes, from one table in core "
        "(`core/report/table.py`): the command line's flag, the Python keyword and plain "
        "mode's `option` word are the same option, read by the same parser, with the same "
        "default. A combination one front end refuses, each refuses with the same message "
        "(the rules are in `core/report/request.py`). This page is made from the table.",
        "",
        "Python front ends: `report()` is `threshold_lab.report` and "
        "`Report.from_predictions`, `from_frame()` is `threshold_lab.from_frame`, "
        "`from_estimator()` is `Report.from_estimator`, `explore()` is "
        "`threshold_lab.explore`, `figure()` is `Report.figure` and `Report.plot`.",
    ]
    for title, sections in SECTIONS:
        chosen = [o for o in OPTIONS.values() if o.section in sections]
        if not chosen:
            continue
        lines += ["", f"## {title}", ""]
        for o in chosen:
            default = o.cli_default or (None if o.default in (None, False) else str(o.default))
            said = o.help[0].upper() + o.help[1:]
            if default is not None and "default" not in o.help:
                said += f" (default: {default})"
            lines.append(f"- {_name(o)}: {said}. *{_where(o)}.*")
    return "\n".join(lines) + "\n"


def main() -> int:
    PAGE.write_text(page(), encoding="utf-8")
    sys.stdout.write(f"wrote {PAGE}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
