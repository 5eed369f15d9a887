"""The gate from Python: ``threshold_lab.gate(report, baseline, requirements)``.

The same evaluation as ``report --baseline BASE.json --require EXPR``: the report's
headline numbers read from its own JSON against the baseline's, each requirement
evaluated exactly (a readout, partial AUC or net benefit it reads computed for it),
and one list of conditions that the result's ``passed``, ``failures`` and JUnit file
are all made from, as the command line's exit status and ``--junit`` file are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.output import output
from threshold_lab.core.report.conditions import Condition
from threshold_lab.core.report.gate import Gate, Outcome
from threshold_lab.core.report.junit import write_junit
from threshold_lab.core.report.report import Report, regated
from threshold_lab.core.report.table import OPTIONS


@dataclass(frozen=True)
class GateResult:
    """A gate evaluated: every condition in the order evaluated (``conditions``), the
    changes against the baseline and each requirement's outcome (``gate``), and the
    report it is of (``source``)."""

    conditions: tuple[Condition, ...]
    gate: Gate | None
    source: str

    @property
    def passed(self) -> bool:
        """Whether every condition holds (True with none): the command line's exit
        status 0."""
        return all(c.passed for c in self.conditions)

    @property
    def failures(self) -> tuple[Condition, ...]:
        """The conditions that do not hold, in the order evaluated."""
        return tuple(c for c in self.conditions if not c.passed)

    @property
    def requirements(self) -> tuple[Outcome, ...]:
        """Each requirement evaluated (``value``, ``bound``, ``passed``)."""
        return () if self.gate is None else self.gate.outcomes

    def to_junit(self, path: str | PathLike[str]) -> Path:
        """Write the conditions as a JUnit XML file (``report --junit``'s), whole or
        not at all; the path written."""
        out = output(Path(path), "to_junit()")
        write_junit(out, self.conditions, self.source, 0.0)
        return out.path

    def lines(self) -> list[str]:
        """The gate as the text report ends with it: the changes, then each condition."""
        head = [] if self.gate is None else self.gate.lines()
        if self.gate is not None and self.gate.outcomes:
            return head
        return head + [c.line() for c in self.conditions]

    def __repr__(self) -> str:
        said = "passed" if self.passed else f"failed {len(self.failures)}"
        return (
            f"<GateResult of {self.source}: {said} of {len(self.conditions)} conditions"
            + "".join(f"; {c.line()}" for c in self.failures)
            + ">"
        )


def gate(
    report: Report,
    baseline: str | PathLike[str] | Mapping[str, Any] | Report | None = None,
    requirements: str | Sequence[str] | None = None,
) -> GateResult:
    """``report`` against ``baseline`` (an earlier report: its JSON's path, text or
    dict, or a Report) and ``requirements`` (``"auc >= baseline.auc - 0.01"``, or a
    list), evaluated as ``report --baseline --require`` evaluates them.

    Raises InputError (a ValueError) for a requirement that does not parse or names a
    number neither report has, as the command line does.
    """
    if not isinstance(report, Report):
        raise InputError(
            f"gate(): report {quoted(report)} is not a Report (make one with "
            "threshold_lab.report or from_frame)"
        )
    base = None if baseline is None else OPTIONS["baseline"].read(baseline)
    reqs = () if requirements is None else OPTIONS["require"].read(requirements)
    contents = regated(report, base, tuple(reqs))
    return GateResult(contents.conditions, contents.gate, contents.source)


__all__ = ["GateResult", "gate"]
