"""The four accessible renderings on the fixtures the accessible-curves issue names: the
canonical fixture, good, imbalanced, a two-model file and 10^6 rows (on 1,000 score
levels, so each oracle runs over the curve's points). The curve's points are counted
here again from the rows (by distinct score, with numpy's unique, not the sweep), and
every walk step's coordinates, the braille line's levels, each WAV segment's tone
(by FFT) and place, and the description's claims are derived from them by the
definitions."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from threshold_lab.core.analysis import curves_for
from threshold_lab.core.curves.braille import braille_line
from threshold_lab.core.curves.describe import describe
from threshold_lab.core.curves.sound import sonify, write_wav
from threshold_lab.core.curves.walk import entered_rows, step_words
from threshold_lab.core.data.dataset import Dataset, make_dataset
from threshold_lab.core.data.loaders import load_file
from threshold_lab.core.data.presets import preset
from threshold_lab.core.output import output

from tests.core.curves.test_braille import _read_back, levels_of
from tests.core.curves.test_describe import roc_claims_of
from tests.core.curves.test_sound import _peak, _read

EXAMPLES = Path(__file__).resolve().parents[3] / "docs" / "examples"


def _million() -> Dataset:
    rng = np.random.default_rng(20261206)
    y = rng.random(10**6) < 0.2
    scores = np.round(rng.random(10**6) * 0.7 + 0.3 * y, 3).astype(np.float64)
    return make_dataset(scores, y)


def _fixture(name: str) -> Dataset:
    if name == "million":
        return _million()
    if name.endswith(".csv"):
        return load_file(EXAMPLES / name)
    return preset(name).data


FIXTURES = ["canonical", "good", "imbalanced", "model_a.csv", "model_b.csv", "million"]


def _points(data: Dataset) -> tuple[list[int], list[int], list[float]]:
    """TP and FP at each distinct score (highest first), above all first: counted
    from the rows."""
    scores, labels = data.scores, data.labels.astype(bool)
    levels, where = np.unique(-scores, return_inverse=True)
    pos = np.bincount(where, weights=labels, minlength=levels.shape[0]).astype(np.int64)
    neg = np.bincount(where, weights=~labels, minlength=levels.shape[0]).astype(np.int64)
    tp = [0, *np.cumsum(pos).tolist()]
    fp = [0, *np.cumsum(neg).tolist()]
    return tp, fp, (-levels).tolist()


@pytest.fixture(scope="module", params=FIXTURES)
def fixture(request: pytest.FixtureRequest) -> tuple[str, Dataset]:
    return request.param, _fixture(request.param)


def test_every_walk_step_is_the_curve_s_point(fixture: tuple[str, Dataset]) -> None:
    _, data = fixture
    tp, fp, ts = _points(data)
    sweep = curves_for(data).sweep
    m, p, n = len(tp), tp[-1], fp[-1]
    steps = range(m) if m <= 300 else np.linspace(0, m - 1, 300).astype(int).tolist()
    for k in steps:
        rows, count = entered_rows(data, sweep, k)
        said = step_words(sweep, "roc", k, rows, count)
        assert said.startswith(f"Point {k + 1} of {m}: FPR {fp[k]}/{n}, TPR {tp[k]}/{p}")
        if k:
            assert count == int(np.count_nonzero(data.scores == ts[k - 1]))
            dtp, dfp = tp[k] - tp[k - 1], fp[k] - fp[k - 1]
            way = "up" if dfp == 0 else "right" if dtp == 0 else "diagonal"
            assert f"; {way}; " in said
        pr = step_words(sweep, "pr", k, rows, count)
        if k > 1:  # which way the PR and DET points move, from the counts
            dtp, dfp = tp[k] - tp[k - 1], fp[k] - fp[k - 1]
            before = Fraction(tp[k - 1], tp[k - 1] + fp[k - 1]) if tp[k - 1] + fp[k - 1] else None
            now = Fraction(tp[k], tp[k] + fp[k])
            vertical = "" if before is None or now == before else "up" if now > before else "down"
            if dtp:
                want_way = f"right and {vertical}" if vertical else "right"
            else:
                want_way = vertical or "no move"
            if before is not None:
                assert f"; {want_way}; " in pr
            det = "down" if dfp == 0 else "right" if dtp == 0 else "diagonal, down and right"
            assert f"; {det}; " in step_words(sweep, "det", k, rows, count)
        want = f"precision {tp[k]}/{tp[k] + fp[k]}" if tp[k] + fp[k] else "precision undefined"
        assert pr.startswith(f"Point {k + 1} of {m}: recall {tp[k]}/{p}, {want}")


@pytest.mark.parametrize("kind", ["roc", "pr", "det"])
def test_the_braille_line_reads_back_to_the_contract(
    fixture: tuple[str, Dataset], kind: str
) -> None:
    _, data = fixture
    tp, fp, _ = _points(data)
    line = braille_line(curves_for(data).sweep, kind, 40)
    want = levels_of(list(zip(tp, fp, strict=True)), tp[-1], fp[-1], kind, 40)
    assert list(line.levels) == want == _read_back(line.cells)


@pytest.mark.parametrize("kind", ["roc", "pr"])
def test_the_wav_decodes_to_each_point_s_tone_and_place(
    fixture: tuple[str, Dataset], kind: str, tmp_path: Path
) -> None:
    _, data = fixture
    tp, fp, _ = _points(data)
    p, n = tp[-1], fp[-1]
    made = sonify(curves_for(data).sweep, kind, 0.1)
    assert len(made.segments) == min(len(tp), len(made.segments)) <= 400
    audio = _read(write_wav(output(tmp_path / "c.wav"), made)).astype(np.float64)
    size = round(0.1 * 22050)
    for i, seg in enumerate(made.segments):
        k = seg["point"]
        x = Fraction(tp[k], p) if kind == "pr" else Fraction(fp[k], n)
        made_k = tp[k] + fp[k]
        y = Fraction(tp[k], p) if kind == "roc" else (Fraction(tp[k], made_k) if made_k else None)
        block = audio[i * size : (i + 1) * size]
        if y is None:
            assert seg["frequency"] is None and not block.any()
            continue
        f = 220 * 2 ** (2 * float(y))
        assert seg["frequency"] == pytest.approx(f)
        assert _peak(block[:, 0] + block[:, 1])[0] == pytest.approx(f, abs=5.0)
        # The loudest sample of a tone of 0.1 s falls within a degree of its crest.
        left, right = np.abs(block).max(axis=0) / 32767
        assert left == pytest.approx(0.5 * (1 - float(x)), abs=1e-3)
        assert right == pytest.approx(0.5 * float(x), abs=1e-3)


def test_every_claim_re_derives(fixture: tuple[str, Dataset]) -> None:
    name, data = fixture
    tp, fp, ts = _points(data)
    p, n = tp[-1], fp[-1]
    sweep = curves_for(data).sweep
    got: dict[str, list[dict[str, object]]] = {}
    d = describe(sweep, "roc")
    for c in d.claims:
        got.setdefault(c["kind"], []).append(
            {k: v for k, v in c.items() if k not in ("kind", "text")}
        )
    hull = got.pop("hull")
    assert len(hull) == 1
    want = roc_claims_of(tp, fp, ts)
    for kind, args in got.items():
        assert want[kind] == args, (name, kind)
    assert 3 <= len(d.claims) <= 7
    pr = {c["kind"]: c for c in describe(sweep, "pr").claims}
    assert pr["precision_at_first"]["precision"] == str(Fraction(tp[1], tp[1] + fp[1]))
    k = tp.index(p)
    assert pr["full_recall"]["precision"] == str(Fraction(p, tp[k] + fp[k]))
    assert pr["full_recall"]["threshold"] == ts[k - 1]
    assert pr["baseline"]["prevalence"] == str(Fraction(p, p + n))
