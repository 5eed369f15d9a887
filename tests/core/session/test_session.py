"""The Session both front ends drive: threshold moves, edits, history, presets, save."""

from __future__ import annotations

from pathlib import Path

import pytest
from threshold_lab.core.data.presets import preset
from threshold_lab.core.errors import InputError
from threshold_lab.core.metrics.confusion import Counts
from threshold_lab.core.session.session import Session


def canonical() -> Session:
    p = preset("canonical")
    return Session(p.data, p.threshold, source="preset canonical")


def test_steps_and_tie_groups() -> None:
    s = canonical()
    s.step(1)
    assert s.threshold == 0.51
    s.set_threshold(None)
    s.step(1)
    assert s.threshold is None  # up from above all stays put
    s.step(-1)
    assert s.threshold == 0.9  # down admits the top tie group
    s.group(1)
    assert s.threshold == 0.8 and s.analysis.counts == Counts(2, 1, 1, 1)
    s.group(-5)
    assert s.threshold is None
    s.lowest()
    assert s.threshold == 0.1


def test_edits_history_and_refusals_change_nothing() -> None:
    s = canonical()
    before = s.data
    with pytest.raises(InputError, match="outside \\[0, 1\\]"):
        s.set_score(0, "2")
    with pytest.raises(InputError, match="not a number"):
        s.add_row("x", "1")
    with pytest.raises(InputError, match="label '7' is not 0 or 1"):
        s.set_label(0, "7")
    with pytest.raises(InputError, match="no row 'zz'"):
        s.row_index("zz")
    assert s.data is before and not s.dirty
    assert s.set_label(0, "1").message == "Row s1: actual label is already 1."
    assert s.set_score(s.row_index("s2"), "0.3").message == "Row s2: score from 0.8 to 0.3."
    assert s.add_row("0.6", "0").message.startswith("Added row new6")
    assert s.delete_row(0).message == "Removed row s1. Undo brings it back."
    assert s.data.n == 5 and s.dirty
    assert [s.undo().message, s.undo().message, s.redo().message] == [
        "Undone: removed row s1.",
        "Undone: added row new6: score 0.6, label 0.",
        "Redone: added row new6: score 0.6, label 0.",
    ]
    assert s.data.n == 6
    assert s.reset().message == "Reset to preset canonical as loaded, threshold 0.5."
    assert s.data is before and s.threshold == 0.5
    # A reset is itself undoable.
    assert s.undo().message == "Undone: reset to preset canonical as loaded."
    assert s.data.n == 6


def test_only_row_cannot_be_deleted() -> None:
    s = canonical()
    for _ in range(4):
        s.delete_row(0)
    with pytest.raises(InputError, match="cannot remove the only row"):
        s.delete_row(0)


def test_presets_clear_history() -> None:
    s = canonical()
    s.flip_label(0)
    assert s.load_preset("good").message.startswith("Loaded preset good")
    assert s.undo().message == "Nothing to undo."
    assert s.data.n == 20 and s.threshold == 0.5


def test_save_refuses_to_overwrite_unless_told(tmp_path: Path) -> None:
    s = canonical()
    target = tmp_path / "rows.csv"
    s.flip_label(0)
    assert s.save(target).message == f"Saved 5 rows to {target}."
    assert not s.dirty
    assert target.read_text().splitlines()[1] == "s1,0.9,0"
    with pytest.raises(InputError, match="is an existing file; nothing written"):
        s.save(target)
    s.flip_label(0)
    s.save(target, overwrite=True)
    assert target.read_text().splitlines()[1] == "s1,0.9,1"


def test_tie_group_steps_admit_scores_closer_than_twelve_decimals() -> None:
    # Rounding a tie group's threshold to 12 places once lifted it above its own
    # score, so "next group" did nothing on dense real-valued scores.
    from threshold_lab.core.data.dataset import make_dataset

    scores = [0.49999812345678901, 0.49999812345678, 0.3]
    s = Session(make_dataset(scores, [1, 0, 1]), None, source="dense")
    for expected in (1, 2, 3):
        s.group(1)
        assert s.analysis.point == expected
        assert s.analysis.counts.tp + s.analysis.counts.fp == expected
