"""A report's requirements as a JUnit XML file, which CI systems show as tests.

One ``testsuite`` (the strict form Apache Ant's schema asks for: properties, the
test cases, system-out and system-err), one ``testcase`` a requirement; a failed
requirement holds a ``failure`` whose message is the line ``report`` prints.
"""

from __future__ import annotations

import re
import socket
import xml.etree.ElementTree as ET
from collections.abc import Sequence
from datetime import UTC, datetime

from threshold_lab.core.report.gate import Outcome

#: The class name every requirement's test case has.
CLASSNAME = "threshold-lab.requirements"


#: Characters XML 1.0 cannot hold (a requirement's text may carry one).
_ILLEGAL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _clean(text: str) -> str:
    return _ILLEGAL.sub("\ufffd", text)


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
    root = ET.Element(
        "testsuite",
        {
            "name": _clean(suite) or "threshold-lab report",
            "timestamp": stamp,
            "hostname": socket.gethostname() or "localhost",
            "tests": str(len(outcomes)),
            "failures": str(failed),
            "errors": "0",
            "skipped": "0",
            "time": f"{seconds:.3f}",
        },
    )
    props = ET.SubElement(root, "properties")
    for name, value in properties:
        ET.SubElement(props, "property", {"name": _clean(name), "value": _clean(value)})
    for o in outcomes:
        case = ET.SubElement(
            root,
            "testcase",
            {"name": _clean(o.expr.strip()) or "(empty)", "classname": CLASSNAME, "time": "0"},
        )
        if not o.passed:
            line = _clean(o.line())
            failure = ET.SubElement(case, "failure", {"message": line, "type": "requirement"})
            failure.text = line
    ET.SubElement(root, "system-out").text = _clean("\n".join(o.line() for o in outcomes))
    ET.SubElement(root, "system-err").text = ""
    ET.indent(root)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode") + "\n"
