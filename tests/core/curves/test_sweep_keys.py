"""The unweighted sweep packs each row's label into its score's sort key:
it must equal the plain construction (a stable descending argsort, counts at the ends
of each run of equal scores) on every float a score can be, bit for bit.

The awkward ones: -0.0 beside 0.0 (one score), the smallest subnormals of both signs,
the largest finite doubles, neighbouring doubles one bit apart, all scores negative,
and mixed signs (the scores below 0 are keyed apart from the rest).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
from hypothesis import given
from hypothesis import strategies as st
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset

AWKWARD = [
    -0.0,
    0.0,
    5e-324,
    -5e-324,
    2.2250738585072014e-308,
    -2.2250738585072014e-308,
    1.7976931348623157e308,
    -1.7976931348623157e308,
    1.0,
    np.nextafter(1.0, 2.0),
    np.nextafter(1.0, 0.0),
    -1.0,
    np.nextafter(-1.0, 0.0),
    0.5,
    -0.5,
]

scores = st.one_of(
    st.sampled_from(AWKWARD),
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(-3, 3).map(float),
)


def plain(
    s: npt.NDArray[np.float64], y: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.int64], npt.NDArray[np.int64]]:
    order = np.argsort(-s, kind="stable")
    desc, pos = s[order], y[order]
    ends = np.flatnonzero(np.append(desc[1:] != desc[:-1], True))
    tp = np.concatenate(([0], np.cumsum(pos)[ends]))
    return desc[ends] + 0.0, tp, np.concatenate(([0], ends + 1 - tp[1:]))


@given(st.lists(st.tuples(scores, st.booleans()), min_size=1, max_size=60))
def test_the_packed_key_sweep_is_the_plain_one(rows: list[tuple[float, bool]]) -> None:
    s = np.array([r[0] for r in rows], dtype=np.float64)
    y = np.array([r[1] for r in rows], dtype=bool)
    sweep = build_sweep(make_dataset(s, y))
    thresholds, tp, fp = plain(s, y)
    # Bit for bit: a tie of -0.0 and 0.0 is the one threshold 0.0.
    assert sweep.thresholds.view(np.uint64).tolist() == thresholds.view(np.uint64).tolist()
    assert sweep.tp.tolist() == tp.tolist()
    assert sweep.fp.tolist() == fp.tolist()
    assert sweep.tp.dtype == sweep.fp.dtype == np.int64
    assert sweep.thresholds.flags.c_contiguous


def test_negative_zero_alone_is_the_threshold_zero() -> None:
    sweep = build_sweep(make_dataset(np.array([-0.0, -0.0, -1.0]), np.array([True, False, True])))
    assert sweep.thresholds.view(np.uint64).tolist() == [0, np.float64(-1.0).view(np.uint64)]
    assert sweep.tp.tolist() == [0, 1, 2]
    assert sweep.fp.tolist() == [0, 1, 1]


def test_one_row_and_many_rows_of_one_class() -> None:
    for s, y in (([0.3], [False]), ([-2.0], [True]), ([0.1] * 1000 + [-0.1] * 7, [True] * 1007)):
        sweep = build_sweep(make_dataset(np.array(s), np.array(y)))
        thresholds, tp, fp = plain(np.array(s), np.array(y))
        assert sweep.thresholds.tolist() == thresholds.tolist()
        assert (sweep.tp.tolist(), sweep.fp.tolist()) == (tp.tolist(), fp.tolist())
