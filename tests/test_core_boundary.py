"""core/ is pure numpy: importing all of it must not import textual or tui."""

import pkgutil
import subprocess
import sys
from pathlib import Path

import core


def test_importing_core_never_imports_textual() -> None:
    modules = [m.name for m in pkgutil.walk_packages(core.__path__, "core.")]
    assert "core.curves.sweep" in modules
    code = (
        "import importlib, sys\n"
        f"for m in {modules!r}: importlib.import_module(m)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('textual', 'textual_plotext', "
        "'plotext', 'tui', 'rich')]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parent.parent,
    )
    assert out.stdout.strip() == ""
