"""Loading in the background: progress, cancel, help while loading, Parquet fast path."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from threshold_lab.core.data import progress
from threshold_lab.core.data.loaders import load_file
from threshold_lab.core.session.opening import Opened
from threshold_lab.core.session.session import Session
from threshold_lab.tui.app import ThresholdLab
from threshold_lab.tui.screens.loading import LoadingScreen


def test_tracked_reads_count_bytes_and_stop_on_cancel(tmp_path: Path) -> None:
    f = tmp_path / "rows.csv"
    f.write_text("score,label\n" + "0.5,1\n" * 50_000)
    p = progress.Progress()
    with progress.tracking(p):
        data = load_file(f)
    assert data.n == 50_000 and p.done >= f.stat().st_size - 1 and p.fraction == 1.0
    stopped = progress.Progress()
    stopped.cancel()
    with progress.tracking(stopped), pytest.raises(progress.Cancelled):
        load_file(f)


def test_parquet_clean_columns_and_aggregated_tables(tmp_path: Path) -> None:
    f = tmp_path / "rows.parquet"
    pq.write_table(
        pa.table({"id": ["a", "b", "c"], "score": [0.9, 0.8, 0.1], "label": [1, 0, 1]}), f
    )
    data = load_file(f)
    assert data.scores.tolist() == [0.9, 0.8, 0.1] and data.labels.tolist() == [1, 0, 1]
    assert [data.row_id(i) for i in range(3)] == ["a", "b", "c"]
    agg = tmp_path / "agg.parquet"
    pq.write_table(pa.table({"score": [0.9, 0.1], "positives": [2, 1], "negatives": [0, 3]}), agg)
    summed = load_file(agg)
    assert summed.positives == 3 and summed.negatives == 3
    dup = tmp_path / "dup.parquet"
    pq.write_table(pa.table({"id": ["a", "a"], "score": [0.9, 0.8], "label": [1, 0]}), dup)
    with pytest.raises(Exception, match="row 2, column 'id': id 'a' repeats row 1"):
        load_file(dup)


async def test_help_and_cancel_while_loading() -> None:
    release = threading.Event()

    def slow() -> Opened:
        while not release.wait(0.01):
            progress.step("reading")  # a cancel lands here
        raise AssertionError("not reached")

    app = ThresholdLab(loader=("big.csv (1 MiB)", slow))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LoadingScreen)
        await pilot.press("question_mark")
        assert "Cancel load" in str(app.screen.query_one("Static").render())
        await pilot.press("escape", "escape")  # close help, then cancel
        for _ in range(100):
            await pilot.pause(0.02)
            if app.exit_note:
                break
        release.set()
    assert app.exit_note == "Loading cancelled; nothing was loaded."
    assert app.return_code == 1


async def test_the_explorer_opens_when_the_rows_are_in() -> None:
    rng = np.random.default_rng(2)
    from threshold_lab.core.data.dataset import make_dataset

    data = make_dataset(rng.random(1000), rng.random(1000) < 0.5)
    app = ThresholdLab(loader=("rows", lambda: Opened(Session(data, 0.5, source="generated"))))
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(100):
            await pilot.pause(0.02)
            if app._main is not None and app.screen is app.main:
                break
        assert app.main.session.data is data
        await pilot.press("right_square_bracket")
        assert app.main.analysis is not None and app.main.analysis.point > 0


def test_a_large_csv_without_pyarrow_says_it_is_slower(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from threshold_lab.core.data import fast_csv, loaders
    from threshold_lab.tui.cli import main

    p = tmp_path / "preds.csv"
    p.write_text("score,label\n0.9,1\n0.2,0\n")
    monkeypatch.setattr(loaders, "SLOW_NOTE_BYTES", 10)
    assert loaders.slow_reader_note(p) is None  # pyarrow is installed here
    monkeypatch.setattr(fast_csv, "available", lambda: False)
    note = loaders.slow_reader_note(p)
    assert note is not None and "without pyarrow" in note and "[parquet]" in note
    assert loaders.slow_reader_note(tmp_path / "rows.parquet") is None
    assert main(["report", str(p), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == f"threshold-lab: note: {note}\n" and out.startswith('{"schema": 1')


async def test_the_loading_screen_shows_a_note() -> None:
    release = threading.Event()

    def slow() -> Opened:
        progress.tell("read without pyarrow: several times slower")
        while not release.wait(0.01):
            progress.step("reading")
        raise AssertionError("not reached")

    app = ThresholdLab(loader=("big.csv (9 MiB)", slow))
    async with app.run_test(size=(100, 30)) as pilot:
        for _ in range(50):
            await pilot.pause(0.05)
            text = str(app.screen.query_one("#load-phase").render())
            if "without pyarrow" in text:
                break
        assert "read without pyarrow: several times slower" in text
        await pilot.press("escape")
        for _ in range(100):
            await pilot.pause(0.02)
            if app.exit_note:
                break
        release.set()
