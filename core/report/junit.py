"""A report's conditions as a JUnit XML file, which CI systems show as tests.

One ``testsuite`` (the strict form Apache Ant's schema asks for: properties, the
test cases, system-out and system-err), one ``testcase`` a condition that decides the
exit status (each requirement, the ``--check`` goal, each ``--max-gap``), in the order
evaluated; a failed one holds a ``failure`` whose message says the value and the bound.
"""

from __future__ import annotations

import re
import socket
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import UTC, datetime

from threshold_lab.core.output import Output, write_text
from threshold_lab.core.report.conditions import Condition

#: The class name every requirement's test case has.
CLASSNAME = "threshold-lab.requirements"

#: Each kind of condition's class name and failure type.
CLASSNAMES = {
    "requirement": (CLASSNAME, "requirement"),
    "goal": ("threshold-lab.goal", "goal"),
    "band": ("threshold-lab.band", "band"),
    "max_gap": ("threshold-lab.max-gap", "max-gap"),
}


#: Characters XML 1.0 cannot hold (a requirement's text may carry one).
_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    return _ILLEGAL.sub("\ufffd", text)


def junit_xml(
    conditions: Sequence[Condition],
    *,
    suite: str,
    properties: Sequence[tuple[str, str]] = (),
    seconds: float = 0.0,
    now: datetime | None = None,
) -> str:
    """The JUnit XML document of ``conditions`` (a suite named ``suite``)."""

    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%S")
    failed = sum(not c.passed for c in conditions)
    root = ET.Element(
        "testsuite",
        {
            "name": _clean(suite) or "threshold-lab report",
            "timestamp": stamp,
            "hostname": socket.gethostname() or "localhost",
            "tests": str(len(conditions)),
            "failures": str(failed),
            "errors": "0",
            "skipped": "0",
            "time": f"{seconds:.3f}",
        },
    )
    props = ET.SubElement(root, "properties")
    for name, value in properties:
        ET.SubElement(props, "property", {"name": _clean(name), "value": _clean(value)})
    for c in conditions:
        classname, kind = CLASSNAMES[c.kind]
        case = ET.SubElement(
            root,
            "testcase",
            {"name": _clean(c.name) or "(empty)", "classname": classname, "time": "0"},
        )
        if not c.passed:
            message = _clean(c.message)
            failure = ET.SubElement(case, "failure", {"message": message, "type": kind})
            failure.text = message
    ET.SubElement(root, "system-out").text = _clean("\n".join(c.line() for c in conditions))
    ET.SubElement(root, "system-err").text = ""
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"


def write_junit(out: Output, conditions: Sequence[Condition], source: str, seconds: float) -> None:
    """Write the JUnit file of ``conditions`` (a report of ``source``), whole or not at
    all: ``report --junit`` and :meth:`GateResult.to_junit` alike."""
    text = junit_xml(
        conditions,
        suite=f"threshold-lab report {source}",
        properties=[("source", source)],
        seconds=seconds,
    )
    write_text(out, text)
