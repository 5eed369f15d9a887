"""A bootstrap tells its progress by the clock and hears a cancel between
small pieces of work, and neither the pieces nor the clock change its replicates.

The clocks here are fakes (a reading is a fixed step on from the last), so nothing
depends on this machine's speed."""

from __future__ import annotations

import time

import numpy as np
import pytest
import threshold_lab.core.intervals.bootstrap as bs
from threshold_lab.core.curves.sweep import Sweep, build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.data.presets import preset
from threshold_lab.core.decide.goal import parse_goal
from threshold_lab.core.decide.solve import Setting, threshold_statistic

from tests.golden_cases import same_float


class Clock:
    """A clock ``step`` seconds on at every reading; counts its readings."""

    def __init__(self, step: float) -> None:
        self.step, self.now, self.reads = step, 0.0, 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


class Told:
    """A progress callback that keeps what it was told and when (by ``clock``)."""

    def __init__(self, clock: Clock | None = None) -> None:
        self.clock = clock
        self.calls: list[tuple[int, int]] = []
        self.at: list[float] = []

    def __call__(self, done: int, total: int) -> bool:
        self.calls.append((done, total))
        if self.clock is not None:
            self.at.append(self.clock.now)
        return True


def _sweep(n: int, seed: int = 11, decimals: int | None = None) -> Sweep:
    """``n`` rows, 30% positives, scores tied to ``decimals`` places (None: untied)."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.random(n) + 0.6 * y
    return build_sweep(make_dataset(np.round(s, decimals) if decimals else s, y))


# --- by the clock, not by the count --------------------------------------------------------


def test_a_clock_that_stands_still_hears_only_the_end() -> None:
    """A count-based pace called every B/200 replicates (200 calls here); by the clock, a
    run that takes no time at all is told once, at its end."""
    s = build_sweep(preset("good").data)
    told = Told()
    bs.bootstrap(s, 5, replicates=5000, progress=told, clock=lambda: 0.0)
    assert told.calls == [(5000, 5000)]


def test_a_slow_clock_hears_every_piece_of_work() -> None:
    """Each piece (a class's rows, a replicate's end) reads the clock once; 0.6 s a
    piece is past :data:`REPORT_EVERY`, so every reading after the first reports, and
    the end reports once more: far more than 200 reports."""
    s = build_sweep(preset("good").data)
    clock = Clock(0.6)
    told = Told()
    bs.bootstrap(s, 5, replicates=2000, progress=told, clock=clock)
    assert len(told.calls) == clock.reads - 1 + 1 > 200
    done = [d for d, _ in told.calls]
    assert done == sorted(done) and told.calls[-1] == (2000, 2000)
    assert all(t == 2000 for _, t in told.calls)


def test_reports_are_a_report_interval_apart_by_the_clock() -> None:
    s = _sweep(300)
    clock = Clock(0.013)
    told = Told(clock)
    bs.bootstrap(s, s.size // 2, replicates=1000, bands=True, progress=told, clock=clock)
    # The end reports whatever the time (and the bands' reports follow it).
    gaps = np.diff([at for at, (done, _) in zip(told.at, told.calls, strict=True) if done < 1000])
    assert len(gaps) > 50
    assert gaps.min() >= bs.REPORT_EVERY - 1e-9
    assert gaps.max() <= bs.REPORT_EVERY + 0.013 + 1e-9


def test_a_large_class_is_asked_about_between_pieces_of_its_rows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Rows drawn :data:`ROW_PIECE` at a time: a replicate of many rows reads the clock
    between pieces, so even one slow replicate hears a cancel."""
    monkeypatch.setattr(bs, "ROW_PIECE", 10)
    s = _sweep(100)
    clock = Clock(0.0)
    bs.bootstrap(s, 3, replicates=1, progress=Told(), clock=clock)
    pieces = -(-s.positives // 10) + -(-s.negatives // 10)
    # The start, the two steps of setting up, each piece and the replicate's end.
    assert clock.reads == 1 + 2 + pieces + 1


# --- a cancel --------------------------------------------------------------------------------


def test_a_cancel_after_the_first_report_stops_within_one_piece() -> None:
    """The flag is set once the first report is told; the run raises at the next
    reading of the clock, after at most one more piece of work."""
    s = _sweep(400)
    clock = Clock(1.0)
    state = {"cancel": False, "reads_at_cancel": 0}

    def progress(done: int, total: int) -> bool:
        if state["cancel"]:
            return False
        state["cancel"], state["reads_at_cancel"] = True, clock.reads
        return True

    with pytest.raises(bs.Cancelled):
        bs.bootstrap(s, 100, replicates=100_000, bands=True, progress=progress, clock=clock)
    assert clock.reads - state["reads_at_cancel"] == 1


def test_a_cancel_is_heard_while_the_bands_are_read() -> None:
    """After the last replicate the bands' percentiles (half a second at B = 100,000)
    still ask between groups of grid points."""
    s = _sweep(200)
    told: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> bool:
        told.append((done, total))
        return told.count((total, total)) < 2  # the end says yes, the bands' first no

    with pytest.raises(bs.Cancelled):
        bs.bootstrap(s, 50, replicates=300, bands=True, progress=progress, clock=Clock(1.0))
    assert told[-2:] == [(300, 300), (300, 300)]


def test_without_progress_the_clock_is_never_read() -> None:
    clock = Clock(1.0)
    bs.bootstrap(_sweep(100), 20, replicates=200, bands=True, clock=clock)
    assert clock.reads == 0


# --- the same replicates whatever the pieces or the clock ---------------------------------


def _run(s: Sweep, progress: bs.Progress | None = None, clock: Clock | None = None) -> bs.Bootstrap:
    """A run with bands and a goal's threshold: every kind of work a replicate does."""
    goal = threshold_statistic(parse_goal("max f1"), Setting(s, 2.0))
    return bs.bootstrap(
        s,
        s.size // 3,
        replicates=150,
        seed=7,
        bands=True,
        goal=goal,
        progress=progress,
        clock=clock or time.monotonic,
    )


def _same(a: bs.Bootstrap, b: bs.Bootstrap) -> bool:
    assert a.bands is not None and b.bands is not None
    fields = ("tpr_low", "tpr_high", "precision_low", "precision_high")
    bands = all(np.array_equal(getattr(a.bands, f), getattr(b.bands, f)) for f in fields)
    return a.estimates == b.estimates and bands


@pytest.mark.parametrize("decimals", [None, 2])
def test_the_same_seed_gives_the_same_replicates_whatever_the_pieces(
    monkeypatch: pytest.MonkeyPatch, decimals: int | None
) -> None:
    s = _sweep(700, decimals=decimals)
    whole = _run(s)
    for piece, columns in ((1, 1), (7, 3), (64, 101)):
        monkeypatch.setattr(bs, "ROW_PIECE", piece)
        monkeypatch.setattr(bs, "BAND_COLUMNS", columns)
        assert _same(_run(s, progress=Told(), clock=Clock(0.3)), whole), (piece, columns)


def test_the_group_draw_path_is_the_same_with_or_without_a_clock(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Above :data:`ROW_DRAW_LIMIT` rows a class is drawn as one multinomial: no pieces,
    but the clock read between the classes does not touch the generator."""
    monkeypatch.setattr(bs, "ROW_DRAW_LIMIT", 0)
    s = _sweep(300, decimals=2)
    assert _same(_run(s, progress=Told(), clock=Clock(0.3)), _run(s))


@pytest.mark.parametrize(
    ("decimals", "want"),
    [
        (None, (0.862163219637561, 0.8897149477405328, 0.5724216450211801, 0.6339222601222347)),
        (2, (0.8595407766881995, 0.8873619026551581, 0.6490009718889664, 0.6965466636795342)),
    ],
)
def test_the_replicates_are_the_ones_drawn_before_the_pieces(
    decimals: int | None, want: tuple[float, float, float, float]
) -> None:
    """AP's and MCC's intervals as drawing each class's rows in one call gives them:
    the pieces change no draw. To the last bits the CPU allows (its SIMD and BLAS
    kernels move a float by an ulp or two; another draw moves it by 10^-3)."""
    s = _sweep(3000, decimals=decimals)
    b = bs.bootstrap(s, s.size // 3, replicates=200, seed=7, bands=True)
    ap, mcc = b.estimates["average_precision"].interval, b.estimates["mcc"].interval
    assert ap is not None and mcc is not None
    got = (ap.low, ap.high, mcc.low, mcc.high)
    assert all(same_float(w, g) for w, g in zip(want, got, strict=True)), got
