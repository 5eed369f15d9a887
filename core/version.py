"""The installed distribution's version (``threshold_lab.__version__``, and what
``threshold-lab --version`` says)."""

from __future__ import annotations

import importlib.metadata

#: The distribution's name, as pip and PyPI know it.
DISTRIBUTION = "threshold-lab"


def version() -> str:
    """The installed version, or ``0+unknown`` where the package runs uninstalled (from
    a source tree on the path)."""
    try:
        return importlib.metadata.version(DISTRIBUTION)
    except importlib.metadata.PackageNotFoundError:
        return "0+unknown"
