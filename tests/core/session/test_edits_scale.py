"""Edits that scale: each is one array copy plus an O(m) sweep update, the history
keeps inverse edits, and row names follow their rows without a list of all of them.

The oracle is a plain Python list of rows edited alongside, and the sweep built
from scratch; they must agree after every edit, undo and redo.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from threshold_lab.core.curves.sweep import Sweep, build_sweep, sweep_with, sweep_without
from threshold_lab.core.data.dataset import Dataset, make_dataset
from threshold_lab.core.data.rownames import RowNames
from threshold_lab.core.errors import InputError
from threshold_lab.core.session.session import Session

scores = st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0])  # many ties
operations = st.lists(
    st.tuples(
        st.sampled_from(["score", "flip", "add", "delete", "undo", "redo", "reset"]),
        st.floats(0, 1, allow_nan=False),
        scores,
        st.booleans(),
    ),
    max_size=25,
)


Row = tuple[str, float, bool, float]
"""A row as the oracle keeps it: name, score, label, weight."""


def rows_of(data: Dataset) -> list[Row]:
    w = data.weights if data.weights is not None else np.ones(data.n)
    return [
        (data.row_id(i), float(data.scores[i]), bool(data.labels[i]), float(w[i]))
        for i in range(data.n)
    ]


def same_sweep(a: Sweep, b: Sweep, weighted: bool) -> None:
    assert a.thresholds.tolist() == b.thresholds.tolist()
    if weighted:
        np.testing.assert_allclose(a.tp, b.tp, rtol=1e-9, atol=1e-9)
        np.testing.assert_allclose(a.fp, b.fp, rtol=1e-9, atol=1e-9)
        assert a.positives == pytest.approx(b.positives) and a.negatives == pytest.approx(
            b.negatives
        )
    else:
        assert a.tp.tolist() == b.tp.tolist() and a.fp.tolist() == b.fp.tolist()
        assert (a.positives, a.negatives) == (b.positives, b.negatives)
        assert a.tp.dtype == b.tp.dtype == np.int64


@settings(max_examples=400, deadline=None)
@example(  # back to the loaded scores by edits, then reset: still an undoable step
    [(0.0, False)],
    "none",
    [
        ("score", 0.0, 0.1, False),
        ("score", 0.0, 0.0, False),
        ("reset", 0.0, 0.0, False),
        ("undo", 0.0, 0.0, False),
    ],
)
@given(
    st.lists(st.tuples(scores, st.booleans()), min_size=1, max_size=12),
    st.sampled_from(["none", "ids", "weights"]),
    operations,
)
def test_edits_undo_redo_match_a_list_of_rows_and_a_fresh_sweep(
    rows: list[tuple[float, bool]], kind: str, ops: list[tuple[str, float, float, bool]]
) -> None:
    s_, y_ = zip(*rows, strict=True)
    ids = [f"r{i}" for i in range(len(rows))] if kind == "ids" else None
    weights = [1.5 + i % 3 for i in range(len(rows))] if kind == "weights" else None
    data = make_dataset(list(s_), list(y_), ids=ids, weights=weights)
    session = Session(data, 0.5, source="test")
    session.analysis  # noqa: B018 -- build the sweep once, so edits update it
    history = [rows_of(data)]  # the states the undo stack can reach
    position = 0
    loaded = rows_of(data)
    for op, where, score, label in ops:
        n = session.data.n
        i = min(int(where * n), n - 1)
        before = rows_of(session.data)
        at_loaded = session.data is data  # a reset is a step only away from these rows
        try:
            if op == "score":
                session.set_score(i, repr(score))
            elif op == "flip":
                session.flip_label(i)
            elif op == "add":
                session.add_row(repr(score), "1" if label else "0")
            elif op == "delete":
                session.delete_row(i)
            elif op == "undo":
                if session.undo().message.startswith("Undone"):
                    position -= 1
                    assert rows_of(session.data) == history[position]
                continue
            elif op == "redo":
                if session.redo().message.startswith("Redone"):
                    position += 1
                    assert rows_of(session.data) == history[position]
                continue
            elif op == "reset":
                session.reset()
                assert rows_of(session.data) == loaded
        except InputError:
            assert rows_of(session.data) == before  # refused: nothing changed
            continue
        after = rows_of(session.data)
        expected = list(before)
        if op == "score":
            expected[i] = (before[i][0], score, before[i][2], before[i][3])
        elif op == "flip":
            expected[i] = (before[i][0], before[i][1], not before[i][2], before[i][3])
        elif op == "add":
            expected.append((after[-1][0], score, label, 1.0))
            assert after[-1][0] not in {r[0] for r in before}
        elif op == "delete":
            del expected[i]
        if op != "reset" or not at_loaded:
            history = [*history[: position + 1], after]
            position += 1
        if op != "reset":
            assert after == expected
        same_sweep(session.analysis.sweep, build_sweep(session.data), kind == "weights")
        names = [r[0] for r in after]
        assert len(set(names)) == len(names)
        for k, name in enumerate(names):
            assert session.row_index(name) == k
    same_sweep(session.analysis.sweep, build_sweep(session.data), kind == "weights")
    while session.undo().message.startswith("Undone"):
        pass
    assert rows_of(session.data) == rows_of(data) and not session.dirty


def test_edits_share_what_they_do_not_change() -> None:
    data = make_dataset([0.9, 0.5, 0.1], [1, 0, 1], ids=["a", "b", "c"])
    s = Session(data, 0.5, source="t")
    s.flip_label(1)
    assert s.data.scores is data.scores and s.data.ids is data.ids
    s.set_score(0, "0.7")
    assert s.data.labels is not data.labels and not s.data.scores.flags.writeable
    s.delete_row(1)
    assert isinstance(s.data.ids, RowNames) and list(s.data.ids) == ["a", "c"]
    assert s.row_index("c") == 1
    with pytest.raises(InputError, match="no row 'b'"):
        s.row_index("b")


def test_dirty_follows_the_saved_version(tmp_path) -> None:  # type: ignore[no-untyped-def]
    s = Session(make_dataset([0.9, 0.1], [1, 0]), 0.5, source="t")
    assert not s.dirty
    s.flip_label(0)
    assert s.dirty
    s.undo()
    assert not s.dirty  # back at the loaded version, though a new Dataset object
    s.redo()
    s.save(tmp_path / "x.csv")
    assert not s.dirty
    s.undo()
    assert s.dirty  # the file on disk has the flip


def test_positional_names_stay_with_their_rows() -> None:
    s = Session(make_dataset([0.9, 0.5, 0.1], [1, 0, 1]), 0.5, source="t")
    s.delete_row(0)
    assert [s.data.row_id(i) for i in range(2)] == ["2", "3"]
    assert s.row_index("3") == 1
    s.add_row("0.2", "1")
    assert s.data.row_id(2) == "new3"  # "new<n+1>", free
    s.undo()
    s.undo()
    assert [s.data.row_id(i) for i in range(3)] == ["1", "2", "3"]


def test_sweep_updates_insert_and_remove_points() -> None:
    data = make_dataset([0.9, 0.8, 0.8, 0.4, 0.1], [1, 0, 1, 0, 1])
    base = build_sweep(data)
    grown = sweep_with(base, 0.6, False)
    assert grown.thresholds.tolist() == [0.9, 0.8, 0.6, 0.4, 0.1]
    assert grown.fp.tolist() == [0, 0, 1, 2, 3, 3] and grown.negatives == 3
    joined = sweep_with(base, 0.8, True)  # joins the tie group
    assert joined.thresholds.tolist() == base.thresholds.tolist()
    assert joined.tp.tolist() == [0, 1, 3, 3, 4]
    half = sweep_without(base, 0.8, True, keep_point=True)
    assert half.tp.tolist() == [0, 1, 1, 1, 2]
    with pytest.raises(ValueError, match="no sweep point"):
        sweep_without(base, 0.3, True, keep_point=False)
