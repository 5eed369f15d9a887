"""One front door: every option is declared once (core's option table) and every
front end reads it. The command line's help, the Python API's signatures, plain
mode's ``option`` command and docs/options.md each list exactly the table's options,
and a combination one front end refuses, every front end refuses with the same
message."""

from __future__ import annotations

import ast
import inspect
import io
import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd  # type: ignore[import-untyped]  # no pandas-stubs installed
import pytest
from sklearn.linear_model import LogisticRegression
from threshold_lab.core.data.presets import preset
from threshold_lab.core.errors import InputError
from threshold_lab.core.report.option import COMMANDS, PYTHON
from threshold_lab.core.report.report import Report
from threshold_lab.core.report.request import RULES, Rule
from threshold_lab.core.report.table import OPTIONS
from threshold_lab.core.session.session import Session
from threshold_lab.tui import api
from threshold_lab.tui.cli import COMMANDS as CLI_COMMANDS
from threshold_lab.tui.cli import main
from threshold_lab.tui.cli import parser as explorer_parser
from threshold_lab.tui.plain import run_plain

import threshold_lab as tl
from tests.docs.options_page import PAGE, page
from tests.paths import ROOT

#: Each Python front end, the function that is it, and its own parameters (the data it
#: takes first), which are not options.
FUNCTIONS: dict[str, list[tuple[Callable[..., Any], set[str]]]] = {
    "report()": [(Report.from_predictions, {"y_true", "y_score"})],
    "from_frame()": [(Report.from_frame, {"frame"})],
    "from_estimator()": [(Report.from_estimator, {"estimator", "X", "y"})],
    "explore()": [(api.explore, {"y_true", "y_score"})],
    "figure()": [
        (Report.figure, {"chart", "threshold"}),
        (Report.plot, {"chart", "path", "ax", "threshold"}),
    ],
    "power()": [(tl.power, set())],
}


def test_the_python_names_are_the_constructors() -> None:
    assert tl.report == Report.from_predictions
    assert tl.from_frame == Report.from_frame
    assert tl.explore is api.explore


@pytest.mark.parametrize("front", PYTHON)
def test_each_python_signature_is_the_table(front: str) -> None:
    table = OPTIONS.by_keyword(front)
    assert set(FUNCTIONS) == set(PYTHON)
    for function, own in FUNCTIONS[front]:
        params = inspect.signature(function).parameters
        options = {n: p for n, p in params.items() if n not in own | {"cls", "self"}}
        assert set(options) == set(table), function
        for name, p in options.items():
            o = table[name]
            assert p.kind is inspect.Parameter.KEYWORD_ONLY, name
            assert p.default == o.default, name
            assert p.annotation == o.annotation, name


@pytest.mark.parametrize("command", COMMANDS)
def test_each_commands_help_lists_its_options_and_only_those(command: str) -> None:
    p = explorer_parser() if command == "explore" else CLI_COMMANDS[command].parser()
    flags = {a for action in p._actions for a in action.option_strings}
    # The parser's own: help, and the program's --version (no option of a report).
    flags -= {"-h", "--help", "--version"} | {f"--no-{f[2:]}" for f in list(flags)}
    assert flags == {o.flag for o in OPTIONS.taken_by(command)}
    text = p.format_help()
    for o in OPTIONS.taken_by(command):
        assert str(o.flag) in text


def test_docs_options_page_is_the_table() -> None:
    assert PAGE.read_text(encoding="utf-8") == page(), "make docs writes docs/options.md"
    for o in OPTIONS.values():
        assert (o.flag and f"`{o.flag}" in page()) or f"`{o.keyword}=`" in page()


def test_plain_mode_lists_and_sets_every_option_it_takes() -> None:
    plain = [o for o in OPTIONS.values() if "plain" in o.fronts]
    assert {o.plain for o in plain} == set(OPTIONS.by_plain())
    assert all(o.plain for o in plain)
    out = io.StringIO()
    p = preset("canonical")
    lines = ["options\n"] + [f"option {o.plain}\n" for o in plain]
    run_plain(Session(p.data, p.threshold, source="preset"), lines, out, prompt=False)
    said = out.getvalue()
    assert "error" not in said
    for o in plain:
        assert f"  {o.plain}: " in said and f"Option {o.plain} is " in said


# --- the rules between options ----------------------------------------------------------

#: An option's value as typed on the command line and as a Python caller gives it.
EXAMPLE: dict[str, tuple[str | None, Any]] = {
    "seed": ("7", 7),
    "tolerance": ("0.1", 0.1),
    "randomised": (None, True),
    "check": (None, True),
    "max_gap": ("equalized_odds_difference 0.1", None),
    "format": ("csv", None),
    "braille": ("roc", None),
    "curve": ("roc", None),
    "json": (None, True),
    "junit": ("out.xml", None),
    "baseline_rows": ("rows.csv", None),
    "baseline_scores": (None, [0.5, 0.4, 0.3, 0.2, 0.1]),
    "folds": (None, ["a", "a", "b", "b", "b"]),
    "groups": (None, ["x", "y", "x", "y", "x"]),
    "fold": ("fold", "f"),
    "group": ("site", "g"),
    "cv_goal": ("max f1", "max f1"),
    "stable_within": ("0.05", 0.05),
    "stable_in": ("2", 2),
    "step": ("2", 2),
    "lesson": ("tour", "tour"),
    "demo": (None, True),
    "record": ("keys.txt", None),
    "test": ("venkatraman", "venkatraman"),
    "permutations": ("100", 100),
    "at_specificity": ("0.9", 0.9),
    "at_sensitivity": ("0.9", 0.9),
    "bandwidth": ("0.1", 0.1),
    "plain": (None, True),
}
Y, S = [1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1]
FRAME = pd.DataFrame({"label": Y, "score": S})


def _breaking(rule: Rule) -> list[str]:
    return [rule.option] + ([rule.excludes] if rule.excludes else [])


def _cli_message(command: str, names: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    argv = [command] if command != "explore" else []
    argv += ["canonical", *(["x.svg"] if command == "screenshot" else [])]
    if command == "plot":
        argv += ["--chart", "roc", "--out", "x.png"]
    for name in names:
        text, _ = EXAMPLE[name]
        argv += [str(OPTIONS[name].flag), *([] if text is None else [text])]
    if command == "explore":
        argv.append("--plain")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("threshold-lab: error: ") and err.count("\n") == 1, err
    return err.removeprefix("threshold-lab: error: ").rstrip("\n")


def _python_message(front: str, names: list[str]) -> str:
    kw = {str(OPTIONS[n].keyword): EXAMPLE[n][1] for n in names}
    frame = pd.DataFrame({"score": S, "label": Y, "f": list("aabbb"), "g": list("xyxyx")})
    call: dict[str, Callable[[], Any]] = {
        "report()": lambda: tl.report(Y, S, **kw),
        "from_frame()": lambda: tl.from_frame(frame, **kw),
        "from_estimator()": lambda: Report.from_estimator(
            LogisticRegression().fit([[s] for s in S], Y), [[s] for s in S], Y, **kw
        ),
        "explore()": lambda: tl.explore(Y, S, **kw),
    }
    with pytest.raises(InputError) as refused:
        call[front]()
    return str(refused.value)


@pytest.mark.parametrize("rule", RULES, ids=lambda r: f"{r.option}-{r.excludes or r.needs[0]}")
def test_each_rule_is_one_refusal_with_one_message_everywhere(
    rule: Rule, capsys: pytest.CaptureFixture[str]
) -> None:
    names = _breaking(rule)
    fronts = set.intersection(*(set(OPTIONS[n].fronts) for n in names)) & set(rule.fronts)
    said = set()
    for command in sorted(fronts & set(COMMANDS)):
        said.add(_cli_message(command, names, capsys))
    for front in sorted(fronts & set(PYTHON)):
        said.add(_python_message(front, names))
    assert fronts and len(said) == 1, said
    assert said == {rule.broken({n: True for n in names})}


def test_an_unknown_keyword_names_the_function_and_the_nearest_option() -> None:
    said = "threshold_lab.report(): thershold= is not an option; did you mean threshold=?"
    with pytest.raises(tl.InputError, match=re.escape(said)) as caught:
        tl.report(Y, S, thershold=0.3)  # type: ignore[call-arg]
    assert isinstance(caught.value, TypeError)  # as Python's own would be
    calls: list[tuple[Callable[[], object], str]] = [
        (lambda: tl.from_frame(FRAME, foldz="f"), "threshold_lab.from_frame()"),  # type: ignore[call-arg]
        (lambda: tl.report(Y, S).figure(colour="red"), "Report.figure()"),  # type: ignore[call-arg]
        (lambda: tl.explore(Y, S, harms=0.1), "threshold_lab.explore(): harms= "),  # type: ignore[call-arg]
    ]
    for call, shown in calls:
        with pytest.raises(tl.InputError, match=re.escape(shown)):
            call()


def test_the_cli_and_the_api_give_one_report_for_the_same_options(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    argv = ["--goal", "max f1", "--prevalence", "1/20", "--readout", "fpr 0.1", "--harm", "0.01"]
    assert main(["report", "canonical", "--json", *argv]) == 0
    cli = json.loads(capsys.readouterr().out)
    r = tl.report(
        Y,
        S,
        goal="max f1",
        prevalence="1/20",
        readout="fpr 0.1",
        harm=0.01,
        ids=["s1", "s2", "s3", "s4", "s5"],
        source="preset canonical",
    )
    assert r.to_dict() == cli
    assert (ROOT / "docs" / "options.md").exists()


# --- a Session is opened and changed only by core ----------------------------------------


def _assigned_attributes(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        for target in targets:
            for part in ast.walk(target):
                if isinstance(part, ast.Attribute):
                    owner = ast.unparse(part.value).split(".")
                    if {"session", "sureness", "policy", "shown", "history"} & set(owner):
                        found.append(f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', 0)}")
    return found


def test_no_front_end_sets_a_sessions_attributes() -> None:
    fronts = [*sorted((ROOT / "tui").rglob("*.py")), ROOT / "threshold_lab" / "__init__.py"]
    assert [where for path in fronts for where in _assigned_attributes(path)] == []


def test_no_front_end_makes_a_session_itself() -> None:
    made = [
        f"{path.relative_to(ROOT)}"
        for path in sorted((ROOT / "tui").rglob("*.py"))
        if "Session(" in path.read_text(encoding="utf-8").replace("PlainSession(", "")
    ]
    assert made == []


def test_the_session_stays_small() -> None:
    # The session is the front of its parts (history, what is shown, the policy, the
    # intervals) and of its layers (the operating point, the edits): under 300 lines.
    lines = (ROOT / "core" / "session" / "session.py").read_text(encoding="utf-8")
    assert len(lines.splitlines()) < 300


def test_each_parser_the_table_imports_late_is_there() -> None:
    # The table names its parsers by module and name (a command imports only the
    # modules of the options it is given): each must be a function its module has.
    import importlib

    from threshold_lab.core.report import option, table

    late = [
        fn
        for module in (table, option)
        for fn in vars(module).values()
        if callable(fn) and "imported when first called" in (fn.__doc__ or "")
    ]
    assert len(late) >= 35
    for fn in late:
        found = getattr(importlib.import_module(fn.__module__), fn.__name__, None)
        assert callable(found), f"{fn.__module__}:{fn.__name__}"
