"""JSON fixtures: ``{"scores": [...], "labels": [...]}``, with optional ``weights`` and ``ids``."""

from __future__ import annotations

import json
from pathlib import Path

from core.data import progress
from core.data.cells import Columns, assemble, fail
from core.data.dataset import Dataset

#: Fixture key to the key :func:`~core.data.cells.assemble` takes the cells by.
_KEYS = (("scores", "scores"), ("labels", "labels"), ("weights", "weight"), ("ids", "id"))


def _lists(path: Path, doc: object) -> dict[str, list[object]]:
    """The fixture's lists by cell key, each checked to be a list as long as the scores."""
    if not isinstance(doc, dict):
        raise fail(path, 'expected an object like {"scores": [...], "labels": [...]}')
    for key in ("scores", "labels"):
        if key not in doc:
            raise fail(path, f'no "{key}" key: expected {{"scores": [...], "labels": [...]}}')
    cells: dict[str, list[object]] = {}
    for key, name in _KEYS:
        if key in doc:
            if not isinstance(doc[key], list):
                raise fail(path, f'"{key}" must be a list')
            cells[name] = doc[key]
    n = len(cells["scores"])
    for name, values in cells.items():
        if len(values) != n:
            raise fail(path, f'"{name}" has {len(values)} items but "scores" has {n}')
    return cells


def load_json(path: Path, cols: Columns) -> Dataset:
    """Read a fixture ``{"scores": [...], "labels": [...]}`` (optional weights, ids).

    Only ``cols.positive`` applies: a fixture's keys are fixed.
    """
    try:
        doc = json.loads(progress.read_bytes(path).decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise fail(path, "not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise fail(
            path, f"line {exc.lineno}, column {exc.colno}: not valid JSON ({exc.msg})"
        ) from None
    jcols = Columns(
        score="scores", label="labels", weight="weights", id="ids", positive=cols.positive
    )
    return assemble(path, _lists(path, doc), lambda i: f"item {i}", jcols)
