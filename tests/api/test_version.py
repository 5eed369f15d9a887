"""The version a user can ask for (``threshold_lab.__version__``, ``threshold-lab
--version``) is the installed distribution's, and the package says it is typed."""

from __future__ import annotations

import importlib.metadata
import importlib.resources
import subprocess
import sys

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
