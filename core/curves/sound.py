"""A curve as sound: a WAV file of one tone a curve point, for a listener.

The contract (so the file can be checked, and listened to knowing what each sound
means): 16-bit PCM, 22,050 Hz, two channels. One tone segment per curve point in sweep
order, the above-all point first (a curve of more than 400 points is reduced to at most
400 as the charts reduce it; the segments say which points are kept), each ``seconds``
long (0.25 unless given; 0.05 to 2). A segment's frequency is 220·2^(2·y) Hz for y the
point's TPR (ROC) or precision (PR; a point with no precision is silence): two octaves
from 220 Hz at 0 to 880 Hz at 1. It is a pure sine with 5 ms linear fades at each end
(no clicks). Its place between the ears is x (FPR or recall): the left channel's
amplitude is 0.5·(1 − x) of full scale and the right's 0.5·x. ``reference`` adds the
chance diagonal as a second, quieter tone of amplitude 0.15 in each channel, at
frequency 220·2^(2·x), in the same segments.
"""

from __future__ import annotations

import wave
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
from threshold_lab.core.curves.export import curve_kind
from threshold_lab.core.curves.reduce import reduce_curve
from threshold_lab.core.curves.sweep import Sweep
from threshold_lab.core.errors import InputError, quoted
from threshold_lab.core.output import Output, output, refused, writing

KINDS = ("roc", "pr")
RATE = 22_050
SECONDS = 0.25
MOST_POINTS = 400
FADE = 0.005
BASE = 220.0
REFERENCE = 0.15

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Sound:
    """The samples (frames x 2 channels, int16) and each segment's description."""

    kind: str
    seconds: float
    samples: npt.NDArray[np.int16]
    segments: tuple[dict[str, Any], ...]
    reduced: bool

    def sentence(self, path: Path | str) -> str:
        """What the file holds, in one line."""
        total = len(self.segments) * self.seconds
        y = "TPR" if self.kind == "roc" else "precision"
        x = "FPR" if self.kind == "roc" else "recall"
        kept = " (reduced from a longer curve, as the charts reduce it)" if self.reduced else ""
        return (
            f"wrote {path}: the {self.kind.upper()} curve as {len(self.segments)} tones of "
            f"{self.seconds:g} s{kept}, {total:g} s in all; pitch is {y} (220 Hz at 0, "
            f"880 Hz at 1), left to right is {x}"
        )


def parse_kind(text: object) -> str:
    return curve_kind("sonify", text, KINDS)


def parse_seconds(text: object, named: str = "--seconds") -> float:
    """Seconds a point, from 0.05 to 2; refusals name the value as ``named`` (the
    flag, or plain mode's words)."""
    try:
        s = float(str(text).strip())
    except ValueError:
        raise InputError(f"{named} {quoted(text)}: give a number of seconds") from None
    if not 0.05 <= s <= 2:
        raise InputError(f"{named} {quoted(text)}: from 0.05 to 2 seconds a point")
    return s


def _points(sweep: Sweep, kind: str) -> tuple[FloatArray, FloatArray, npt.NDArray[np.intp]]:
    """x and y (NaN: no value) at each point kept, and the points' indices. A long ROC
    curve is reduced on its counts (FP, TP: the same shape), never converted whole."""
    pos, neg = float(sweep.positives), float(sweep.negatives)
    if pos <= 0 or (kind == "roc" and neg <= 0):
        missing = "positives" if pos <= 0 else "negatives"
        raise InputError(
            f"sonify {kind}: the rows have no actual {missing}: the curve is undefined"
        )
    m = sweep.tp.shape[0]
    keep = np.arange(m, dtype=np.intp)
    if m > MOST_POINTS:
        if kind == "roc":
            keep = reduce_curve(sweep.fp, sweep.tp, columns=MOST_POINTS // 4, rising=True)
        else:
            _, precision = _xy(sweep.tp, sweep.fp, pos, neg, kind)
            keep = reduce_curve(
                sweep.tp, np.nan_to_num(precision), columns=MOST_POINTS // 4, rising=True
            )
        if keep.shape[0] > MOST_POINTS:  # still too many: evenly, both ends kept
            at = np.linspace(0, keep.shape[0] - 1, MOST_POINTS)
            keep = keep[np.unique(np.round(at).astype(np.intp))]
    x, y = _xy(sweep.tp[keep], sweep.fp[keep], pos, neg, kind)
    return x, y, keep


def _xy(tp: Any, fp: Any, pos: float, neg: float, kind: str) -> tuple[FloatArray, FloatArray]:
    t = np.asarray(tp, dtype=np.float64)
    f = np.asarray(fp, dtype=np.float64)
    if kind == "roc":
        return f / neg, t / pos
    with np.errstate(invalid="ignore", divide="ignore"):
        return t / pos, np.where(t + f > 0, t / np.where(t + f > 0, t + f, 1.0), np.nan)


def _tone(freq: float, n: int, fade: int) -> FloatArray:
    t = np.arange(n, dtype=np.float64) / RATE
    wave_ = np.sin(2 * np.pi * freq * t)
    env = np.ones(n)
    k = min(fade, n // 2)
    if k:
        ramp = np.arange(k, dtype=np.float64) / k
        env[:k] = ramp
        env[n - k :] = ramp[::-1]
    out: FloatArray = wave_ * env
    return out


def sonify(
    sweep: Sweep, kind: str = "roc", seconds: float = SECONDS, *, reference: bool = False
) -> Sound:
    """``sweep``'s ``kind`` curve (roc or pr) as sound (see the module's contract)."""
    kind = parse_kind(kind)
    seconds = parse_seconds(seconds, "seconds")
    x, y, keep = _points(sweep, kind)
    n = round(seconds * RATE)
    fade = round(FADE * RATE)
    out = np.zeros((x.shape[0] * n, 2), dtype=np.float64)
    segments = []
    thresholds = sweep.thresholds
    for i, (xi, yi, k) in enumerate(zip(x.tolist(), y.tolist(), keep.tolist(), strict=True)):
        block = out[i * n : (i + 1) * n]
        freq = None if yi != yi else BASE * 2.0 ** (2.0 * yi)
        if freq is not None:
            tone = _tone(freq, n, fade)
            block[:, 0] += 0.5 * (1.0 - xi) * tone
            block[:, 1] += 0.5 * xi * tone
        if reference:
            chance = REFERENCE * _tone(BASE * 2.0 ** (2.0 * xi), n, fade)
            block[:, 0] += chance
            block[:, 1] += chance
        segments.append(
            {
                "start": i * seconds,
                "seconds": seconds,
                "frequency": freq,
                "x": xi,
                "y": None if yi != yi else yi,
                "threshold": None if k == 0 else float(thresholds[k - 1]),
                "point": int(k),
            }
        )
    samples = np.round(np.clip(out, -1.0, 1.0) * 32767).astype(np.int16)
    return Sound(kind, seconds, samples, tuple(segments), keep.shape[0] < sweep.tp.shape[0])


def check_wav(path: str | Path, flag: str, inputs: tuple[str, ...] = ()) -> Output:
    """The WAV file to write, checked before any work (its name ends in .wav)."""
    p = Path(path)
    if p.suffix.lower() != ".wav":
        raise InputError(f"{flag} {p}: name a .wav file (a WAV sound file is written)")
    return output(p, flag, inputs=inputs)


def write_wav(out: Output, sound: Sound) -> Path:
    """Write ``sound`` as a 16-bit stereo WAV file, whole or not at all."""
    with writing(out) as tmp:
        try:
            with wave.open(str(tmp), "wb") as w:
                w.setnchannels(2)
                w.setsampwidth(2)
                w.setframerate(RATE)
                w.writeframes(sound.samples.astype("<i2").tobytes())
        except OSError as exc:
            raise refused(out, exc) from None
    return out.path
