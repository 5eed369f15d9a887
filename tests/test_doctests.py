"""The examples in the package's, core's and tui's docstrings run, under their
installed names."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest
import threshold_lab.core
import threshold_lab.tui

import threshold_lab

MODULES = sorted(
    [
        "threshold_lab",
        # The package's own modules (threshold_lab._kernels); __main__ would run the command.
        *(
            m.name
            for m in pkgutil.iter_modules(threshold_lab.__path__, "threshold_lab.")
            if m.name != "threshold_lab.__main__"
        ),
        *(
            m.name
            for m in pkgutil.walk_packages(threshold_lab.core.__path__, "threshold_lab.core.")
        ),
        *(m.name for m in pkgutil.walk_packages(threshold_lab.tui.__path__, "threshold_lab.tui.")),
    ]
)


def test_every_package_is_walked() -> None:
    assert {
        "threshold_lab._kernels",
        "threshold_lab.core.analysis",
        "threshold_lab.tui.plain",
    } <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=True, verbose=False)
    assert result.failed == 0
