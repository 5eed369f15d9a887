"""tui has layers, as core does: a module imports only its own layer and the layers
below it, bottom to top commands < state < widgets < screens < app, and no two folders
import each other. Beside that stack sit the other front ends (the command line, plain
mode, the Python API), each with what it may import; the explorer is handed a session
core opened.

Imports of the project inside a function or behind TYPE_CHECKING count as much as any
other, and only the command line and the Python API may make them: a command imports
only what it runs (``report`` loads no Textual, and starts at the speed of numpy), so
they reach the explorer's modules, which draw with Textual, from inside the function
that opens it. Anywhere else a hidden import would only hide a dependency, or a cycle.

Widgets draw; they do not compute. None imports core's intervals, goals and net
benefit, or comparisons, and drawing a chart from a frame computes no statistic: the
frame brought each one (:mod:`threshold_lab.tui.state.readings`).
"""

from __future__ import annotations

import ast
import dataclasses
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from threshold_lab.core import analysis as core_analysis
from threshold_lab.core.analysis import Curves, analyse, curves_for
from threshold_lab.core.drawing import decision as core_decision
from threshold_lab.core.drawing.decision import DecisionSeries
from threshold_lab.core.drawing.prepared import prepare
from threshold_lab.core.intervals import IntervalsShown
from threshold_lab.core.report import options as core_options
from threshold_lab.core.session import update as core_update
from threshold_lab.tui.app import ThresholdLab
from threshold_lab.tui.state.chart_modes import CHART_MODES
from threshold_lab.tui.state.frame import Frame
from threshold_lab.tui.widgets.charts import Chart, ChartPanel
from threshold_lab.tui.widgets.confusion import MetricsPanel

from tests.paths import ROOT
from tests.tui.helpers import file_app

#: The explorer's stack, bottom to top; each name is a module or a folder of tui.
STACK: list[set[str]] = [
    {"commands", "bindings", "ascii", "terminal"},  # what each key does; the terminal
    {"state"},  # the frame and what it reads, the layout arithmetic, the host
    {"widgets"},  # draw the frame
    {"screens", "explorer"},  # lay the widgets out and ask; the main screen's helpers
    {"app"},  # the wiring
]
LEVEL = {name: i for i, layer in enumerate(STACK) for name in layer}
EXPLORER = frozenset(LEVEL)

#: Beside the stack, and what each may import of tui. The stack imports none of them.
BESIDE: dict[str, frozenset[str]] = {
    "plain": frozenset({"commands", "terminal"}),  # plain mode: no Textual
    "cli": EXPLORER | {"plain"},  # the command line starts every front end
    "api": frozenset({"cli", "app", "ascii"}),  # threshold_lab.explore
}
#: Where a module may import the project inside a function (see the docstring).
LAZY = frozenset({"cli", "api"})

#: What a widget never imports: intervals, goals and net benefit, comparisons.
COMPUTING = (
    "threshold_lab.core.intervals",
    "threshold_lab.core.decide",
    "threshold_lab.core.compare",
)

TUI = ROOT / "tui"


def _modules() -> list[Path]:
    return sorted(p for p in TUI.rglob("*.py") if p != TUI / "__init__.py")


def _area_of(path: Path) -> str:
    return path.relative_to(TUI).parts[0].removesuffix(".py")


def _imports(path: Path) -> Iterator[tuple[int, str, bool]]:
    """Each import of the project in ``path``: (line, module, hidden), ``hidden`` when it
    sits inside a function or behind TYPE_CHECKING. ``from threshold_lab.tui import x``
    imports ``threshold_lab.tui.x``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    hidden: set[int] = set()
    for outer in ast.walk(tree):
        in_function = isinstance(outer, ast.FunctionDef | ast.AsyncFunctionDef)
        typing_only = isinstance(outer, ast.If) and "TYPE_CHECKING" in ast.unparse(outer.test)
        if in_function or typing_only:
            hidden |= {id(node) for node in ast.walk(outer)}
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "threshold_lab.tui":
                names = [f"{node.module}.{a.name}" for a in node.names]
            else:
                names = [node.module]
        for name in names:
            if name.startswith("threshold_lab"):
                yield getattr(node, "lineno", 0), name, id(node) in hidden


def _area(module: str) -> str | None:
    parts = module.split(".")
    return parts[2] if parts[:2] == ["threshold_lab", "tui"] and len(parts) > 2 else None


def _may_import(own: str, other: str) -> bool:
    if own in BESIDE:
        return other in BESIDE[own]
    if other in BESIDE:
        return False  # the stack is handed a session by core, never by a front end
    return LEVEL[other] <= LEVEL[own]


def test_every_part_of_tui_has_a_layer() -> None:
    assert {_area_of(p) for p in _modules()} == set(LEVEL) | set(BESIDE)


def test_nothing_in_tui_imports_a_layer_above_it() -> None:
    wrong = []
    for path in _modules():
        own = _area_of(path)
        for line, module, _ in _imports(path):
            other = _area(module)
            if other is not None and other != own and not _may_import(own, other):
                wrong.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    assert wrong == []


def test_only_the_command_line_and_the_api_hide_an_import_of_the_project() -> None:
    hidden = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in _modules()
        if _area_of(path) not in LAZY
        for line, module, lazy in _imports(path)
        if lazy
    ]
    assert hidden == []


def test_the_command_line_and_the_api_reach_the_explorer_only_from_a_function() -> None:
    # Their modules load for every command: the explorer's, which draw with Textual,
    # load only when one is opened.
    eager = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in _modules()
        if _area_of(path) in LAZY
        for line, module, lazy in _imports(path)
        if not lazy and _area(module) in EXPLORER
    ]
    assert eager == []


def _folder_graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {_area_of(p): set() for p in _modules()}
    for path in _modules():
        own = _area_of(path)
        for _, module, _ in _imports(path):
            other = _area(module)
            if other is not None and other != own:
                graph[own].add(other)
    return graph


def test_no_two_parts_of_tui_import_each_other_even_round_about() -> None:
    graph = _folder_graph()
    done: set[str] = set()

    def cycle_from(node: str, path: list[str]) -> list[str] | None:
        if node in path:
            return [*path[path.index(node) :], node]
        if node in done:
            return None
        for other in sorted(graph[node]):
            found = cycle_from(other, [*path, node])
            if found is not None:
                return found
        done.add(node)
        return None

    cycles = [c for node in sorted(graph) if (c := cycle_from(node, [])) is not None]
    assert cycles == []


def test_no_widget_imports_intervals_goals_or_comparisons() -> None:
    wrong = [
        f"{path.relative_to(ROOT)}:{line} imports {module}"
        for path in sorted((TUI / "widgets").rglob("*.py"))
        for line, module, _ in _imports(path)
        if module.startswith(COMPUTING)
    ]
    assert wrong == []


#: Core's statistics a widget once computed while it laid itself out or rendered:
#: (where it is looked up, its name). Each is counted while the widgets draw.
STATISTICS: tuple[tuple[Any, str], ...] = (
    (Curves, "calibration"),
    (core_options, "partial_aucs"),
    (core_options, "readouts"),
    (core_analysis, "ks_statistic"),
    (core_analysis, "ks_from_gap"),
    (core_analysis, "gains"),
    (core_analysis, "cost_curve"),
    (core_update, "f1_peak"),
    (core_decision, "decision_curve"),
    (DecisionSeries, "at"),
    (IntervalsShown, "estimate"),
)


def _counting(monkeypatch: pytest.MonkeyPatch, calls: list[str]) -> None:
    for owner, name in STATISTICS:
        real = getattr(owner, name)

        def counted(
            *args: Any, _real: Callable[..., Any] = real, _name: str = name, **kwargs: Any
        ) -> Any:
            calls.append(_name)
            return _real(*args, **kwargs)

        monkeypatch.setattr(owner, name, counted)


def _draw(app: ThresholdLab, frame: Frame) -> list[str]:
    """Hand ``frame`` to the chart panel, its charts and the metrics panel, lay them
    out and draw every chart shown afresh (its kept drawing thrown away): the kinds
    of chart drawn."""
    panel = app.main.query_one(ChartPanel)
    panel.frame = frame
    panel._layout()
    drawn = []
    for chart in panel.query(Chart):
        chart.frame = frame
        if chart.display:
            chart._base = None
            chart.replot()
            chart.render()
            drawn.append(chart.kind)
    metrics = app.main.query_one(MetricsPanel)
    metrics.frame = frame
    metrics.lines_at(metrics.content_region.width)
    return drawn


async def test_drawing_a_frame_twice_computes_no_statistic(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every chart, with a partial AUC asked for, a bootstrap's bands and the ROC hull:
    # the frame is made for rows swept afresh (nothing of them computed before), then
    # drawn twice while core's statistics are counted. Making it reads them; drawing
    # reads only what it brought.
    app = file_app("--preset", "good", "--partial-auc", "fpr:0-0.25")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("2", "h", "B")  # the chart pane alone, the hull, a bootstrap
        for _ in range(300):
            await pilot.pause(0.02)
            if not app.workers:
                break
        m = app.main
        assert m.session.sure is not None and m.session.sure.boot is not None
        for mode in CHART_MODES:
            m.chart_mode = mode
            await pilot.pause()
            await app.workers.wait_for_complete()
            await pilot.pause()
            old = m.frame
            assert old is not None
            a = old.analysis
            fresh = analyse(curves_for(a.data), a.threshold, beta=a.beta)
            update = dataclasses.replace(old.update, analysis=fresh)
            p = m.preparer
            prepared = prepare(
                fresh.curves,
                chart_columns=p.chart_columns,
                strip_columns=p.strip_columns,
                kinds=p.kinds,
            )
            made: list[str] = []
            with monkeypatch.context() as patched:
                _counting(patched, made)
                frame = Frame.of(update, prepared, mode=mode, hull=m.roc_hull)
            assert "partial_aucs" in made and "readouts" in made, mode
            drawing: list[str] = []
            with monkeypatch.context() as patched:
                _counting(patched, drawing)
                first, second = _draw(app, frame), _draw(app, frame)
            assert first and first == second, mode
            assert drawing == [], (mode, first)
