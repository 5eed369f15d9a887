"""core has layers: a module imports only what sits below it (or beside it in its own
folder), wherever the import stands. Lazy imports of optional third-party packages
(pyarrow, DuckDB, Spark) are allowed: a command imports only what it uses. So are the
report's of the project's own modules (inside a function, or behind TYPE_CHECKING for
annotations), and only the report's: every command loads the report, and a run loads
the band, groups, folds, comparison, gate, figure or text modules only when asked for
them (tests/tui/cli/test_headless.py holds what a report of a preset loads). Anywhere
else a hidden import would only hide a dependency, or a cycle."""

from __future__ import annotations

import ast
from pathlib import Path

from tests.paths import ROOT

#: Bottom to top; each name is a module or a folder of core. A module may import the
#: layers below its own, and its own folder's modules.
LAYERS: list[set[str]] = [
    {"errors", "version", "choices"},
    {"doubles"},
    {"threshold", "blocks", "output"},
    {"data"},
    {"metrics"},
    {"curves", "engines"},
    {"intervals"},
    {"calibration"},
    {"analysis"},
    {"measures", "decide", "multiclass", "transform", "compare"},
    {"groups", "folds"},
    {"drawing"},
    {"text"},
    {"figures"},
    {"report"},
    {"session"},
    {"lessons"},
]
LEVEL = {name: i for i, layer in enumerate(LAYERS) for name in layer}
CORE = ROOT / "core"


def _area(module: str) -> str | None:
    parts = module.split(".")
    if parts[:2] != ["threshold_lab", "core"] or len(parts) < 3:
        return None
    return parts[2]


def _modules() -> list[Path]:
    return sorted(p for p in CORE.rglob("*.py") if p.name != "__init__.py" or p.parent != CORE)


def test_every_part_of_core_has_a_layer() -> None:
    areas = {p.relative_to(CORE).parts[0].removesuffix(".py") for p in _modules()}
    assert areas == set(LEVEL)


def test_nothing_in_core_imports_a_layer_above_it() -> None:
    wrong = []
    for path in _modules():
        own = path.relative_to(CORE).parts[0].removesuffix(".py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                other = _area(node.module)
                if other is not None and other != own and LEVEL[other] >= LEVEL[own]:
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} imports {node.module}")
    assert wrong == []


#: The areas whose modules may import the project's own modules late.
LATE = {"report"}


def test_no_import_of_the_project_hides_in_a_function() -> None:
    hidden = []
    for path in _modules():
        if path.relative_to(CORE).parts[0] in LATE:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for outer in ast.walk(tree):
            inside_function = isinstance(outer, ast.FunctionDef | ast.AsyncFunctionDef)
            typing_only = isinstance(outer, ast.If) and "TYPE_CHECKING" in ast.unparse(outer.test)
            if not (inside_function or typing_only):
                continue
            for node in ast.walk(outer):
                module = node.module if isinstance(node, ast.ImportFrom) else None
                if isinstance(node, ast.Import):
                    module = node.names[0].name
                if module is not None and module.startswith("threshold_lab"):
                    line = getattr(node, "lineno", 0)
                    hidden.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert sorted(set(hidden)) == []
