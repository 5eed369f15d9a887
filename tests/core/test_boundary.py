"""core/ is pure numpy: importing all of it (or the package's face) must not import
textual or the tui."""

import pkgutil
import subprocess
import sys

import threshold_lab.core

from tests.paths import ROOT


def test_importing_core_never_imports_textual() -> None:
    modules = [
        m.name for m in pkgutil.walk_packages(threshold_lab.core.__path__, "threshold_lab.core.")
    ]
    assert "threshold_lab.core.curves.sweep" in modules
    code = (
        "import importlib, sys\n"
        f"for m in {['threshold_lab', *modules]!r}: importlib.import_module(m)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'textual_plotext', "
        "'plotext', 'rich') or m.startswith('threshold_lab.tui')]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    )
    assert out.stdout.strip() == ""
