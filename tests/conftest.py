"""Shared test setup: snapshots live in the top-level snapshots/ folder."""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest
import pytest_textual_snapshot
from pytest_textual_snapshot import SVGImageExtension
from syrupy.location import PyTestLocation

SNAPSHOTS = Path(__file__).resolve().parent.parent / "snapshots"


# pytest-textual-snapshot ships no type information, so its base class is Any.
class TopLevelSVGExtension(SVGImageExtension):  # type: ignore[misc]
    """pytest-textual-snapshot's SVG extension, writing to snapshots/<test file>/."""

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        return str(SNAPSHOTS / Path(test_location.filepath).stem)


# snap_compare looks the extension up by this module-level name at call time.
pytest_textual_snapshot.SVGImageExtension = TopLevelSVGExtension


# The garbage collector's passes, every 50,000 allocations rather than 700, from the
# start: importing and collecting (a few million objects) made a full pass over a
# growing heap again and again. See pytest_collection_finish below.
GC_THRESHOLD = (50_000, 20, 20)
gc.set_threshold(*GC_THRESHOLD)

# pytest-xdist's workers set COLUMNS=80 and LINES=24, which a child process (an
# explorer on its own pseudo-terminal, a report's text) would take over the
# terminal's real size: the tests run the same in one process and in two.
for _name in ("COLUMNS", "LINES"):
    os.environ.pop(_name, None)

# The tests' JVMs (the Spark group's session, and the command that starts its own)
# compile Java with the quick compiler only, on one compiler thread, and collect
# garbage on the thread that allocates: each query of a test is small and runs once,
# and the optimising compiler's work on code that never runs long cost the Spark tests
# a third more CPU; the compiler and collector threads then cost another tenth, time
# the other workers' tests lose on two cores. Results are the same
# (the JIT and the collector change speed, not arithmetic); users' JVMs keep Java's
# defaults.
TEST_JVM = ("-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:+UseSerialGC")
os.environ["JAVA_TOOL_OPTIONS"] = " ".join(
    filter(None, (os.environ.get("JAVA_TOOL_OPTIONS"), *TEST_JVM))
)


#: The longest tests (a file's, or one test's by its name), each seconds of a worker:
#: they run first, so that the end of a run is short tests on every worker rather than
#: one worker finishing a long one while the others wait (the workers take tests in
#: the order collected; the Spark group goes before all, being the largest).
LONGEST = (
    "tests/tui/widgets/test_ticks.py",
    "tests/tui/test_soak.py::test_key_mash_soak",
    "tests/api/test_explore.py",
    "tests/docs/test_examples.py",
    "tests/tui/test_pilot.py::test_no_crash_on_a_storm_of_keys",
    "tests/tui/test_edits_in_thread.py",
    "tests/tui/test_signals.py",
    "tests/core/groups/test_groups_oracle.py",
    "tests/tui/test_plain_soak.py",
    "tests/tui/test_snapshots.py",
)


def _rank(item: pytest.Item) -> int:
    return next((i for i, p in enumerate(LONGEST) if item.nodeid.startswith(p)), len(LONGEST))


@pytest.hookimpl(tryfirst=True)  # before xdist reads the groups
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that runs Spark goes to one worker (make test runs three, ``--dist
    loadgroup``): one JVM, started and warmed once, where each worker starting its own
    cost both cores half a minute. The longest tests go first (see :data:`LONGEST`)."""
    for item in items:
        if "spark" in item.nodeid.lower() or "spark" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.xdist_group("spark"))
    items.sort(key=_rank)


@pytest.hookimpl(trylast=True)
def pytest_collection_finish(session: pytest.Session) -> None:
    """Python's cyclic garbage collector, tuned for a test process: what collection
    imported and built (Textual, numpy, pandas, scikit-learn, every test's parameters:
    a few million objects) is frozen out of its passes, which run after 50,000
    allocations rather than 700 (:data:`GC_THRESHOLD`, set on import). A Pilot-driven
    test makes hundreds of thousands of short-lived objects (widgets, styles, strips),
    and each young pass would walk them, each full one the whole heap: the snapshot
    tests take about a fifth less CPU so. Nothing a test
    checks depends on when garbage is collected (the one test that counts on it
    collects and disables it itself)."""
    gc.collect()
    gc.freeze()
