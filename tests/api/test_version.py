"""The version a user can ask for (``threshold_lab.__version__``, ``threshold-lab
--version``) is the installed distribution's, and the package says it is typed."""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import subprocess
import sys
from typing import Any

import threshold_lab as tl
from tests.paths import ROOT


def test_the_version_is_the_distributions() -> None:
    assert tl.__version__ == importlib.metadata.version("threshold-lab")


def test_the_command_line_says_its_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "threshold_lab", "--version"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"threshold-lab {importlib.metadata.version('threshold-lab')}"


def test_the_package_is_marked_typed_and_ships_the_marker() -> None:
    """PEP 561: py.typed at the top of the one import name (it covers core and tui,
    installed under it), listed as package data so the wheel carries it."""
    assert importlib.resources.files("threshold_lab").joinpath("py.typed").is_file()
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert '"threshold_lab" = ["py.typed"]' in pyproject


def test_the_public_api_annotates_what_a_user_passes() -> None:
    """No ``object`` on a parameter a user passes, and ``Any`` only where the value is a
    third party's duck type (a data frame, an estimator and its X, matplotlib axes,
    metric_params' values)."""
    import inspect

    import threshold_lab as tl

    duck = {"frame", "estimator", "X", "y", "ax"}
    functions: list[Any] = [
        tl.report,
        tl.from_frame,
        tl.Report.from_estimator,
        tl.explore,
        tl.gate,
        tl.metric_at_thresholds,
        tl.Report.figure,
        tl.Report.plot,
        tl.Report.at,
        tl.Report.to_frame,
        tl.Report.to_arrow,
        tl.Report.classifier,
        tl.Report.metric_at_thresholds,
    ]
    for f in functions:
        for name, p in inspect.signature(f).parameters.items():
            if name in ("self", "cls"):
                continue
            text = str(p.annotation)
            assert p.annotation is not inspect.Parameter.empty, (f, name)
            assert "object" not in text.split(" | "), (f.__qualname__, name, text)
            if text == "Any":
                assert name in duck, (f.__qualname__, name)
