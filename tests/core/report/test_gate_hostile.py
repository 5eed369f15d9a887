"""A requirement or a baseline built to break the gate is one InputError naming the
field or column, never a traceback, a silently dropped number or a message of
thousands of characters; a failed requirement prints enough digits to see why."""

from __future__ import annotations

import json
from typing import Any

import pytest
from threshold_lab.core.errors import InputError
from threshold_lab.core.report.gate import MAX_DEPTH, MAX_LENGTH, MAX_TERMS, parse_requirement

import threshold_lab as tl

Y, S = [1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1]


def _refused(call: Any, said: str) -> str:
    with pytest.raises(InputError) as caught:
        call()
    message = str(caught.value)
    assert said in message, message
    assert "\n" not in message and len(message) < 300, message
    return message


@pytest.mark.parametrize(
    ("expr", "said"),
    [
        ("(" * 400 + "auc" + ")" * 400 + " >= 0.5", f"more than {MAX_DEPTH} parentheses"),
        ("-" * 400 + "auc >= 0.5", f"more than {MAX_DEPTH} parentheses or signs"),
        ("(" * 900 + "auc" + ")" * 900 + " >= 0.5", f"longer than {MAX_LENGTH} characters"),
        ("-" * 20000 + "auc >= 0.5", f"longer than {MAX_LENGTH} characters"),
        ("auc >= " + "+".join(["0.001"] * 100), f"more than {MAX_TERMS} terms"),
        ("auc >= " + "+".join(["0.1"] * 3000), "longer than"),
        ("auc >= " + "9" * 900, "has more than 400 digits"),
        ("auc >= " + "9" * 100_000, "longer than"),
        ("auc >= 1e-400", "'1e-400' is too small for a double: it would read as 0"),
        ("auc >= 2e308", "'2e308' is not a finite number (too large for a double)"),
        ("auc >= 1e99999999", "too large for a double"),
    ],
)
def test_a_hostile_requirement_is_one_short_line(expr: str, said: str) -> None:
    message = _refused(lambda: parse_requirement(expr), said)
    assert message.startswith("--require '")
    _refused(lambda: tl.report(Y, S, require=expr), said)  # the same from Python


def test_nesting_within_the_bounds_is_read() -> None:
    expr = "(" * 10 + "-" * 10 + "auc" + ")" * 10 + " <= 1"
    assert tl.report(Y, S, require=expr).passed
    assert tl.report(Y, S, require="auc >= 0e99999999").passed  # zero, however written


def _base() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(tl.report(Y, S).to_json())
    return loaded


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda d: d.update(roc=[]), '"roc" is a list, not an object'),
        (lambda d: d.update(metrics="x"), "\"metrics\" is the text 'x', not an object"),
        (lambda d: d.update(readouts={}), '"readouts" is {}, not a list'),
        (lambda d: d.update(goal=[1]), '"goal" is a list, not an object'),
        (lambda d: d["roc"].update(auc={"value": 7 / 3, "exact": "7/3"}), "roc.auc is '7/3'"),
        (lambda d: d["roc"].update(auc=5.0), "roc.auc is '5.0', outside 0 to 1"),
        (lambda d: d["pr"].update(average_precision=-0.1), "outside 0 to 1"),
        (lambda d: d["metrics"]["mcc"].update(value=-2.0, exact=None), "metrics.mcc is"),
        (lambda d: d["probability"].update(log_loss=-1.0), "outside 0 or more"),
        (lambda d: d["roc"].update(auc={"value": 0.5, "exact": "1/3"}), "is not its value"),
        (lambda d: d["roc"].update(auc={"value": 0.5, "exact": "1/" + "7" * 5000}), "characters)"),
        (lambda d: d["roc"].update(auc={"value": 0.5, "exact": "0x10"}), "is not a fraction"),
        (lambda d: d["roc"].update(auc={"value": True}), "is not a number"),
        (lambda d: d.update(schema="1"), "its schema is the text '1'; this version reads"),
        (lambda d: d.update(schema=2), "its schema is 2"),
    ],
)
def test_a_malformed_baseline_is_refused_naming_the_field(change: Any, said: str) -> None:
    d = _base()
    change(d)
    _refused(lambda: tl.report(Y, S, baseline=d), said)
    _refused(lambda: tl.report(Y, S, baseline=json.dumps(d)), said)


def test_a_deeply_nested_baseline_is_one_line(tmp_path: Any) -> None:
    text = '{"a": ' + "[" * 100_000 + "]" * 100_000 + "}"
    _refused(lambda: tl.report(Y, S, baseline=text), "nests deeper than a report's")
    path = tmp_path / "deep.json"
    path.write_text(text)
    _refused(lambda: tl.report(Y, S, baseline=path), "nests deeper than a report's")


def test_a_failed_requirement_tells_its_sides_apart() -> None:
    r = tl.report(Y, S, require="auc >= 0.5833333333333334")  # 7/12 is less
    assert not r.passed
    assert r.gate is not None
    assert r.gate.failed[0].detail() == (
        "value 7/12 ≈ 0.5833333333333333, bound 0.5833333333333334"
    )
    assert tl.report(Y, S, require="auc >= 0.5833333333333333").passed  # 7/12 is more
    far = tl.report(Y, S, require="auc >= 0.8")
    assert far.gate is not None
    assert far.gate.failed[0].detail() == "value 7/12 ≈ 0.583333, bound 4/5 = 0.8"
