"""A report's requirements as a JUnit XML file, which CI systems show as tests.

One ``testsuite`` (the strict form Apache Ant's schema asks for: properties, the
test cases, system-out and system-err), one ``testcase`` a requirement; a failed
requirement holds a ``failure`` whose message is the line ``report`` prints.
"""

from __future__ import annotations

import socket
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import UTC, datetime

from threshold_lab.core.report.gate import Outcome

#: The class name every requirement's test case has.
CLASSNAME = "threshold-lab.requirements"


def junit_xml(
    outcomes: Sequence[Outcome],
    *,
    suite: str,
    properties: Sequence[tuple[str, str]] = (),
    seconds: float = 0.0,
    now: datetime | None = None,
) -> str:
    """The JUnit XML document of ``outcomes`` (a suite named ``suite``)."""
    stamp = (now or datetime.now(UTC)).strftime("%Y-%m-%dT%H:%M:%S")
    failed = sum(not o.passed for o in outcomes)
    root = ET.Element("testsuite", {
        "name": suite or "threshold-lab report",
        "timestamp": stamp,
        "hostname": socket.gethostname() or "localhost",
        "tests": str(len(outcomes)),
        "failures": str(failed),
        "errors": "0",
        "skipped": "0",
        "time": f"{seconds:.3f}",
    })  # fmt: skip
    props = ET.SubElement(root, "properties")
    for name, value in properties:
        ET.SubElement(props, "property", {"name": name, "value": value})
    for o in outcomes:
        case = ET.SubElement(root, "testcase", {"name": o.expr.strip() or "(empty)",
                                                "classname": CLASSNAME, "time": "0"})  # fmt: skip
        if not o.passed:
            failure = ET.SubElement(case, "failure", {"message": o.line(), "type": "requirement"})
            failure.text = o.line()
    ET.SubElement(root, "system-out").text = "\n".join(o.line() for o in outcomes)
    ET.SubElement(root, "system-err").text = ""
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
