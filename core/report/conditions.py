"""The conditions that decide ``report``'s exit status, as one list: each
``--require`` requirement, then the ``--check`` goal (it must be feasible), then each
``--max-gap``, in the order they are evaluated.

The exit status, the stderr lines, the JUnit file and the JSON's ``conditions`` are
all made from this one list, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from threshold_lab.core.metrics.metric import Metric, format_count
from threshold_lab.core.threshold import format_threshold

# A report without requirements, a goal to check, or groups has no conditions: their
# modules are imported where a condition of theirs is made.
if TYPE_CHECKING:
    from threshold_lab.core.decide.band import Band
    from threshold_lab.core.decide.solve import Decision
    from threshold_lab.core.groups.gaps import Gap
    from threshold_lab.core.report.gate import Outcome

#: The kinds of condition, in the order they are evaluated.
KINDS = ("requirement", "goal", "band", "max_gap")


@dataclass(frozen=True)
class Condition:
    """One condition evaluated: its ``kind`` (one of :data:`KINDS`), its ``name`` (the
    requirement, the goal, ``GAP <= LIMIT``), whether it ``passed``, and a ``message``
    saying the value and the bound either way."""

    kind: str
    name: str
    passed: bool
    message: str
    #: The stderr line when it fails (``requirement not met: ...``).
    note: str

    def as_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "name": self.name,
            "passed": self.passed,
            "message": self.message,
        }

    def line(self) -> str:
        """The condition in one line: its name, then its message (a requirement's
        message already starts with it)."""
        return self.message if self.kind == "requirement" else f"{self.name}: {self.message}"


def requirement(o: Outcome) -> Condition:
    """A requirement evaluated, its message the line the JUnit file has always had."""
    note = f"requirement not met: {o.expr}: {o.detail()}"
    return Condition("requirement", o.expr.strip() or "(empty)", o.passed, o.line(), note)


def _metric(m: Metric) -> str:
    from threshold_lab.core.report.gate import number_said

    if m.value is None:
        return f"undefined ({m.reason})"
    return number_said(m.exact if m.exact is not None else m.value)


def goal(d: Decision) -> Condition:
    """The ``--check`` goal: it must be feasible; the message gives each constraint's
    value and bound at the point chosen (infeasible: the closest one), or the
    objective's value where there are none."""
    from threshold_lab.core.decide.goal import number_text

    where = f"at threshold {format_threshold(d.threshold)}: "
    if d.slacks:
        where += ", ".join(
            f"{s.constraint.metric} {_metric(s.value)} (bound {number_text(s.constraint.bound)})"
            for s in d.slacks
        )
    else:
        where += f"{d.goal.metric} {_metric(d.objective)}"
    note = f"goal not met: {d.reason}"
    if d.feasible:
        return Condition("goal", d.goal.text(), True, f"feasible {where}", note)
    return Condition("goal", d.goal.text(), False, f"not feasible: {d.reason}; {where}", note)


def band(b: Band) -> Condition:
    """The ``--check`` band: some band must decide rows while meeting its bounds
    (reviewing every row always meets them, so that alone is the band failing)."""
    goal = b.goal.text()
    counts = b.counts
    where = (
        f"accepted {format_count(counts.accepted)}, rejected "
        f"{format_count(counts.rejected)}, reviewed {format_count(counts.reviewed)}"
    )
    if b.decides or not b.goal.constraints:
        return Condition("band", goal, True, f"decides rows: {where}", "")
    said = "no band decides any row while meeting its bounds: every row is reviewed"
    return Condition("band", goal, False, said, f"band not met: {said}")


def max_gap(name: str, limit: float, gap: Gap) -> Condition:
    """One ``--max-gap``: the gap within its limit."""
    from threshold_lab.core.groups.gaps import gap_bound, gap_within

    passed, said = gap_within(gap, limit)
    note = f"gap not within --max-gap: {said}"
    return Condition("max_gap", gap_bound(name, limit), passed, said, note)


def conditions(
    outcomes: Sequence[Outcome],
    *,
    decision: Decision | None = None,
    gaps: Mapping[str, Gap] | None = None,
    check: bool = False,
    max_gaps: Sequence[tuple[str, float]] = (),
    review: Band | None = None,
) -> tuple[Condition, ...]:
    """Every condition, in the order evaluated: the requirements, then with ``check``
    the goal (when there is one), the band (when there is one) and each of
    ``max_gaps`` (when there are groups)."""
    out = [requirement(o) for o in outcomes]
    if check and decision is not None:
        out.append(goal(decision))
    if check and review is not None:
        out.append(band(review))
    if check and max_gaps:
        assert gaps is not None, "--max-gap is refused without groups"
        out += [max_gap(name, limit, gaps[name]) for name, limit in max_gaps]
    return tuple(out)
