"""The curve as sound against its contract, read back from the WAV file: 16-bit PCM,
22,050 Hz, two channels; a segment a curve point in sweep order, each S seconds, its
frequency 220·2^(2·y) (found again by FFT), silence where precision is undefined, the
left channel at 0.5·(1 − x) of full scale and the right at 0.5·x, 5 ms fades (no
clicks), the chance diagonal as a 0.15 tone with --reference; at most 400 segments.
The command line, plain mode and the API write the same bytes."""

from __future__ import annotations

import io
import json
import wave
from pathlib import Path

import numpy as np
import pytest
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.curves.sound import RATE, sonify
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.data.presets import preset
from threshold_lab.core.session.session import Session
from threshold_lab.tui.cli import main
from threshold_lab.tui.plain import run_plain

import threshold_lab as tl

Y, S = [1, 0, 1, 0, 1], [0.9, 0.8, 0.8, 0.4, 0.1]


def _read(path: Path) -> np.ndarray:
    with wave.open(str(path), "rb") as w:
        assert (w.getnchannels(), w.getsampwidth(), w.getframerate()) == (2, 2, RATE)
        return np.frombuffer(w.readframes(w.getnframes()), dtype="<i2").reshape(-1, 2)


def _peak(block: np.ndarray) -> tuple[float, float]:
    """The strongest frequency of a mono block (parabolic between FFT bins) and its
    amplitude as a share of full scale."""
    n = block.shape[0]
    spectrum = np.abs(np.fft.rfft(block * np.hanning(n)))
    k = int(np.argmax(spectrum[1:])) + 1
    a, b, c = np.log(spectrum[k - 1 : k + 2] + 1e-12)
    shift = 0.5 * (a - c) / (a - 2 * b + c)
    return (k + shift) * RATE / n, float(np.abs(block).max()) / 32767


@pytest.mark.parametrize("kind", ["roc", "pr"])
def test_each_segment_is_its_point_s_tone_and_place(kind: str, tmp_path: Path) -> None:
    r = tl.report(Y, S)
    segments = r.sonify(kind, tmp_path / "c.wav", seconds=0.25)
    a = _read(tmp_path / "c.wav").astype(np.float64)
    n = round(0.25 * RATE)
    assert a.shape[0] == n * len(segments) == n * len(r.sweep)
    s = r.sweep
    pos, neg = s.tp[-1], s.fp[-1]
    for i, seg in enumerate(segments):
        tp, fp = s.tp[i], s.fp[i]
        x = tp / pos if kind == "pr" else fp / neg
        y = (
            None
            if kind == "pr" and tp + fp == 0
            else (tp / (tp + fp) if kind == "pr" else tp / pos)
        )
        assert seg["point"] == i and seg["x"] == pytest.approx(x)
        assert seg["start"] == pytest.approx(0.25 * i) and seg["seconds"] == 0.25
        block = a[i * n : (i + 1) * n]
        if y is None:
            assert seg["frequency"] is None and not block.any()  # silence, not a tone
            continue
        f = 220 * 2 ** (2 * y)
        assert seg["frequency"] == pytest.approx(f)
        assert _peak(block[:, 0] + block[:, 1])[0] == pytest.approx(f, abs=1.0)
        left, right = np.abs(block).max(axis=0) / 32767
        assert left == pytest.approx(0.5 * (1 - x), abs=2e-4)
        assert right == pytest.approx(0.5 * x, abs=2e-4)
        fade = round(0.005 * RATE)
        assert (block[0] == 0).all()  # each tone starts from silence: no click
        assert np.abs(block[: fade // 4]).max() <= 0.5 * 32767 * 0.26


def test_the_reference_is_the_chance_diagonal_quieter(tmp_path: Path) -> None:
    tl.report(Y, S).sonify("pr", tmp_path / "r.wav", seconds=0.5, reference=True)
    a = _read(tmp_path / "r.wav").astype(np.float64)
    n = round(0.5 * RATE)
    first = a[:n]  # the above-all point: no precision, recall 0: the reference alone
    freq, amplitude = _peak(first[:, 0])
    assert freq == pytest.approx(220.0, abs=1.0) and amplitude == pytest.approx(0.15, abs=1e-3)
    assert np.array_equal(first[:, 0], first[:, 1])


def test_a_long_curve_is_at_most_400_segments_both_ends_kept() -> None:
    rng = np.random.default_rng(4)
    y = rng.random(20_000) < 0.3
    data = make_dataset(rng.random(20_000) + 0.3 * y, y)
    sweep = curves_for(data).sweep
    made = sonify(sweep, "roc", 0.05)
    points = [s["point"] for s in made.segments]
    assert len(points) <= 400 and made.reduced
    assert points[0] == 0 and points[-1] == sweep.tp.shape[0] - 1
    assert points == sorted(set(points))


def test_every_front_end_writes_the_same_bytes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    segments = tl.report(Y, S).sonify("roc", tmp_path / "api.wav")
    assert main(["sonify", "canonical", "--chart", "roc", "--out", str(tmp_path / "cli.wav")]) == 0
    said = capsys.readouterr().out
    assert said.startswith(f"wrote {tmp_path / 'cli.wav'}: the ROC curve as 5 tones of 0.25 s")
    argv = ["sonify", "canonical", "--chart", "roc", "--out", str(tmp_path / "j.wav"), "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out) == segments
    out = io.StringIO()
    p = preset("canonical")
    line = f"sound roc {tmp_path / 'plain.wav'}\n"
    run_plain(Session(p.data, p.threshold, source="preset"), [line], out, prompt=False)
    wavs = [(tmp_path / name).read_bytes() for name in ("api.wav", "cli.wav", "plain.wav")]
    assert wavs[0] == wavs[1] == wavs[2]


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--chart", "det", "--out", "x.wav"], "give roc or pr"),
        (["--chart", "roc", "--out", "x.mp3"], "name a .wav file"),
        (["--chart", "roc", "--out", "x.wav", "--seconds", "3"], "from 0.05 to 2 seconds"),
        (["--chart", "roc"], "--out"),
    ],
)
def test_bad_requests_are_one_line(
    argv: list[str],
    said: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    try:
        status = main(["sonify", "canonical", *argv])
    except SystemExit as exc:  # argparse's own refusal (a required option left out)
        status = int(exc.code or 0)
    assert status == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1
    assert not list(tmp_path.iterdir())  # nothing written


def test_a_curve_of_one_class_is_refused_saying_why(tmp_path: Path) -> None:
    with pytest.raises(tl.InputError, match="no actual positives"):
        tl.report([0, 0], [0.2, 0.4]).sonify("roc", tmp_path / "x.wav")
    assert not (tmp_path / "x.wav").exists()


def test_plain_sound_replaces_a_file_only_when_told(tmp_path: Path) -> None:
    """A WAV already there is kept unless the command ends in overwrite, as save does."""
    target = tmp_path / "mine.wav"
    target.write_bytes(b"the user's own recording")
    p = preset("canonical")
    out = io.StringIO()
    run_plain(
        Session(p.data, p.threshold, source="preset"), [f"sound roc {target}\n"], out, prompt=False
    )
    assert target.read_bytes() == b"the user's own recording"
    assert f"sound {target}: already exists. To replace it: sound roc {target} overwrite" in (
        out.getvalue()
    )
    lines = [f"sound roc {target} 0.5 overwrite\n"]
    run_plain(Session(p.data, p.threshold, source="preset"), lines, out, prompt=False)
    assert target.read_bytes()[:4] == b"RIFF"


def test_plain_sound_names_its_seconds_in_its_own_words(tmp_path: Path) -> None:
    p = preset("canonical")
    out = io.StringIO()
    lines = [f"sound roc {tmp_path / 'a.wav'} 9\n", f"sound roc {tmp_path / 'a.wav'} soon\n"]
    run_plain(Session(p.data, p.threshold, source="preset"), lines, out, prompt=False)
    said = out.getvalue()
    assert "sound: seconds '9': from 0.05 to 2 seconds a point" in said
    assert "sound: seconds 'soon': give a number of seconds" in said and "--seconds" not in said
    assert not (tmp_path / "a.wav").exists()
