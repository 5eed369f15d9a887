"""The house style holds by test: the formatter governs the code, and core's own
imports of the standard library sit at the top of their module."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.paths import ROOT

CODE = [ROOT / "core", ROOT / "tui", ROOT / "threshold_lab", ROOT / "tests", ROOT / "bench"]


def _files() -> list[Path]:
    return sorted(p for folder in CODE for p in folder.rglob("*.py"))


def test_the_formatter_governs_no_line_opts_out() -> None:
    # ruff format's output is the house style: a line kept out of it needs a reason
    # strong enough to be written here, and none has one.
    marked = [
        f"{p.relative_to(ROOT)}:{i}"
        for p in _files()
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        if "# fmt: " + "skip" in line or "# fmt: " + "off" in line
    ]
    assert marked == []


def test_core_imports_the_standard_library_at_the_top() -> None:
    # An import inside a function hides a module's dependencies from its reader; core
    # may delay only optional third-party packages (pyarrow, DuckDB, Spark, matplotlib,
    # MLflow, ...).
    optional = (
        "pyarrow",
        "duckdb",
        "pyspark",
        "matplotlib",
        "pandas",
        "polars",
        "sklearn",
        "mlflow",
    )
    hidden = []
    for path in sorted((ROOT / "core").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for outer in ast.walk(tree):
            if not isinstance(outer, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(outer):
                names: list[str] = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    names = [node.module]
                line = getattr(node, "lineno", 0)  # an import's: every name found is one
                for name in names:
                    if not name.startswith(("threshold_lab", *optional)):
                        hidden.append(f"{path.relative_to(ROOT)}:{line} imports {name}")
    assert hidden == []
