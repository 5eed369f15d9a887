"""threshold-lab: exact, tie-aware metrics of a classifier's threshold.

>>> import threshold_lab as tl
>>> r = tl.report([1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1], threshold=0.5)
>>> r.metrics["precision"].exact, r.roc_auc.exact
(Fraction(2, 3), Fraction(7, 12))

The one import name of the distribution: ``threshold_lab.core`` is the engine
(pure numpy; the folder ``core/`` of the repository) and ``threshold_lab.tui``
the explorer and the command line (the folder ``tui/``). Importing this package
never imports Textual; :func:`explore` does, when called.

:func:`report` is :meth:`Report.from_predictions` and :func:`from_frame` is
:meth:`Report.from_frame`: every option keyword-only, typed, and the same option
as the command line's flag of that name (one table declares them all).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from threshold_lab import _kernels
from threshold_lab.core.errors import InputError, MissingDependency, UnknownOption

if TYPE_CHECKING:
    from threshold_lab.core.measures import Measure
    from threshold_lab.core.report.at_thresholds import metric_at_thresholds
    from threshold_lab.core.report.gating import GateResult, gate
    from threshold_lab.core.report.power import power
    from threshold_lab.core.report.report import Report, Sweep
    from threshold_lab.tui.api import Explored, explore

    #: The report of labels and scores at one threshold (see :meth:`Report.from_predictions`).
    report = Report.from_predictions
    #: The report of a data frame's columns (see :meth:`Report.from_frame`).
    from_frame = Report.from_frame
    #: The installed version (read when asked; see :func:`__getattr__`).
    __version__: str

# numpy first, from the package itself, so that it is imported near the bottom of the
# call stack: imported at the end of a long chain of this package's own imports, its
# two hundred modules' import calls keep crossing an edge of the interpreter's frame
# stack, where CPython 3.11 maps and unmaps a 16 KiB chunk at each crossing (some
# 20 ms of every command's start-up). Everything here computes with numpy anyway. The
# command line chooses numpy's kernels first, where its AVX-512 sorts are slow
# (threshold_lab._kernels); a Python session's numpy is left as it is. Neither
# module imported above imports numpy.
_kernels.import_numpy()

__all__ = [
    "Explored",
    "GateResult",
    "InputError",
    "Measure",
    "MissingDependency",
    "Report",
    "Sweep",
    "UnknownOption",
    "explore",
    "from_frame",
    "gate",
    "metric_at_thresholds",
    "power",
    "report",
]

#: Each public name and the module that holds it, imported when first asked: the
#: command line imports this package too (``threshold_lab.tui.cli`` is inside it), and
#: a command pays only for the modules it uses.
_LAZY = {
    "Measure": "threshold_lab.core.measures",
    "metric_at_thresholds": "threshold_lab.core.report.at_thresholds",
    "GateResult": "threshold_lab.core.report.gating",
    "gate": "threshold_lab.core.report.gating",
    "power": "threshold_lab.core.report.power",
    "Report": "threshold_lab.core.report.report",
    "Sweep": "threshold_lab.core.report.report",
    "explore": "threshold_lab.tui.api",
    "Explored": "threshold_lab.tui.api",
}


def __getattr__(name: str) -> Any:
    # The version, read from the installed distribution only when asked (start-up
    # stays numpy's); every other public name from its module when first asked (the
    # explorer's without importing the session).
    if name == "__version__":
        from threshold_lab.core.version import version

        return version()
    if name in ("report", "from_frame"):
        from threshold_lab.core.report.report import Report

        value = Report.from_predictions if name == "report" else Report.from_frame
    elif name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
    else:
        raise AttributeError(f"module 'threshold_lab' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
