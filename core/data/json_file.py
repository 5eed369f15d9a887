"""JSON fixtures: ``{"scores": [...], "labels": [...]}``, with optional ``weights`` and ``ids``."""

from __future__ import annotations

import json
import re
from pathlib import Path

from threshold_lab.core.data import progress
from threshold_lab.core.data.cells import Columns, assemble, fail
from threshold_lab.core.data.dataset import Dataset
from threshold_lab.core.doubles import underflows
from threshold_lab.core.errors import quoted

#: Fixture key to the key :func:`~threshold_lab.core.data.cells.assemble` takes the cells by.
_KEYS = (("scores", "score"), ("labels", "label"), ("weights", "weight"), ("ids", "id"))


class _LongInteger:
    """An integer literal too large for a float (past 4300 digits, even for a
    Python int), kept as its text so it can be named instead of crashing."""

    def __init__(self, text: str) -> None:
        self.text = text

    def digits(self) -> int:
        return len(self.text.lstrip("-"))

    def __repr__(self) -> str:
        return f"{self.text[:8]}...{self.text[-4:]} ({self.digits()} digits)"

    __str__ = __repr__


def _float(text: str) -> float | str:
    """A JSON number with a point or exponent; its text where a double would make a
    non-zero number 0 (``1e-400``), so the cell's check refuses it naming the row."""
    return text if underflows(text) else float(text)


def _integer(text: str) -> int | _LongInteger:
    """A JSON integer literal: an int, or a :class:`_LongInteger` when no float holds it."""
    try:
        value = int(text)
        float(value)
    except (ValueError, OverflowError):
        return _LongInteger(text)
    return value


def _no_long_integers(path: Path, cells: dict[str, list[object]]) -> None:
    """Refuse a score, label or weight too large for a number; keep a long id as text."""
    fixture_key = {name: key for key, name in _KEYS}
    for name, values in cells.items():
        if name == "id":
            cells[name] = [v.text if isinstance(v, _LongInteger) else v for v in values]
            continue
        for i, v in enumerate(values):
            if isinstance(v, _LongInteger):
                what = "label" if name == "label" else "number"
                raise fail(
                    path,
                    f"item {i}, column {quoted(fixture_key[name])}: the integer {quoted(v)} "
                    f"is too large to be a {what}",
                )


def _too_deep(path: Path, text: str) -> Exception:
    """The error for JSON nested beyond the parser's limit, naming its deepest point."""
    depth = deepest = 0
    where = 0
    for m in re.finditer(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', text):
        c = m.group()
        if c in "[{":
            depth += 1
            if depth > deepest:
                deepest, where = depth, m.start()
        elif c in "]}":
            depth -= 1
    line = text.count("\n", 0, where) + 1
    column = where - (text.rfind("\n", 0, where) + 1) + 1
    return fail(
        path,
        f"line {line}, column {column}: lists and objects nested {deepest} deep; "
        "too deeply nested to read",
    )


def model_lists(path: Path, doc: object) -> dict[str, list[object]] | None:
    """Several models' scores, ``{"scores": {"A": [...], "B": [...]}}``, by model name;
    None when ``"scores"`` is one list."""
    if not isinstance(doc, dict) or not isinstance(doc.get("scores"), dict):
        return None
    models = doc["scores"]
    if not models:
        raise fail(path, '"scores" names no model: give {"A": [...], "B": [...]} or a list')
    for name, values in models.items():
        if not isinstance(values, list):
            raise fail(path, f'"scores" of model {quoted(name)} must be a list')
    return dict(models)


def read_doc(path: Path) -> object:
    """The fixture parsed (long integers kept as text to be named, not crash)."""
    try:
        text = progress.read_bytes(path).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise fail(path, "not UTF-8 text") from None
    try:
        return json.loads(text, parse_int=_integer, parse_float=_float)
    except json.JSONDecodeError as exc:
        raise fail(
            path, f"line {exc.lineno}, column {exc.colno}: not valid JSON ({exc.msg})"
        ) from None
    except RecursionError:
        raise _too_deep(path, text) from None


def _lists(path: Path, doc: object) -> dict[str, list[object]]:
    """The fixture's lists by cell key, each checked to be a list as long as the scores
    (with several models' scores, the first model's)."""
    if not isinstance(doc, dict):
        raise fail(path, 'expected an object like {"scores": [...], "labels": [...]}')
    for key in ("scores", "labels"):
        if key not in doc:
            raise fail(path, f'no "{key}" key: expected {{"scores": [...], "labels": [...]}}')
    models = model_lists(path, doc)
    if models is not None:
        doc = {**doc, "scores": next(iter(models.values()))}
    cells: dict[str, list[object]] = {}
    for key, name in _KEYS:
        if key in doc:
            if not isinstance(doc[key], list):
                raise fail(path, f'"{key}" must be a list')
            cells[name] = doc[key]
    n = len(cells["score"])
    for key, name in _KEYS:
        if name in cells and len(cells[name]) != n:
            raise fail(path, f'"{key}" has {len(cells[name])} items but "scores" has {n}')
    return cells


def load_json(path: Path, cols: Columns) -> Dataset:
    """Read a fixture ``{"scores": [...], "labels": [...]}`` (optional weights, ids).

    Only ``cols.positive`` applies: a fixture's keys are fixed.
    """
    doc = read_doc(path)
    jcols = Columns(
        score="scores", label="labels", weight="weights", id="ids", positive=cols.positive
    )
    cells = _lists(path, doc)
    _no_long_integers(path, cells)
    try:
        return assemble(path, cells, lambda i: f"item {i}", jcols)
    except RecursionError:
        # Nesting the parser took, but too deep to turn into text for a message.
        raise fail(path, "an item holds lists or objects nested too deeply to read") from None
