"""``max net_benefit at pt X`` solved exactly over the sweep: the point of highest
net benefit by a brute force over every threshold in fractions (ties to the highest
threshold), the least-cost point with FP:FN = pt : 1 − pt, at a prevalence too; the
goal's refusals; and the paired bootstrap of two models' net benefit difference held to
the same draws resampled by hand."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.compare.paired import paired_net_benefit_bootstrap
from threshold_lab.core.curves.sweep import build_sweep
from threshold_lab.core.data.dataset import make_dataset
from threshold_lab.core.decide.goal import parse_goal
from threshold_lab.core.decide.solve import Setting, solve
from threshold_lab.core.errors import InputError

ROWS = st.lists(
    st.tuples(st.sampled_from([k / 8 for k in range(9)]) | st.floats(0, 1), st.booleans()),
    min_size=2,
    max_size=40,
)
PT = st.sampled_from(["0.05", "0.1", "1/3", "0.5", "0.9", "1/7"])


def _brute(rows: list[tuple[float, bool]], pt: Fraction, prevalence: Fraction | None) -> int:
    """The sweep index of the highest net benefit, the highest threshold among ties."""
    scores = sorted({s for s, _ in rows}, reverse=True)
    pos = sum(1 for _, y in rows if y)
    neg = len(rows) - pos
    best: tuple[Fraction, int] | None = None
    for k in range(len(scores) + 1):
        acted = [(s, y) for s, y in rows if k > 0 and s >= scores[k - 1]]
        tp = sum(1 for _, y in acted if y)
        fp = len(acted) - tp
        odds = pt / (1 - pt)
        if prevalence is None:
            nb = Fraction(tp, len(rows)) - Fraction(fp, len(rows)) * odds
        else:
            nb = Fraction(tp, pos) * prevalence - Fraction(fp, neg) * (1 - prevalence) * odds
        if best is None or nb > best[0]:
            best = (nb, k)
    assert best is not None
    return best[1]


@settings(max_examples=150, deadline=None)
@given(ROWS, PT, st.sampled_from([None, Fraction(1, 20), Fraction(1, 2)]))
def test_the_goal_is_the_brute_force_best_and_the_least_cost_point(
    rows: list[tuple[float, bool]], pt: str, prevalence: Fraction | None
) -> None:
    data = make_dataset([s for s, _ in rows], [y for _, y in rows])
    if prevalence is not None and not (0 < data.positives < data.n):
        return  # a prevalence needs both classes (refused: its own test)
    sweep = build_sweep(data)
    p = Fraction(pt)
    d = solve(Setting(sweep, 2.0, prevalence), parse_goal(f"max net_benefit at pt {pt}"))
    assert d.index == _brute(rows, p, prevalence)
    cost = solve(Setting(sweep, 2.0, prevalence), parse_goal(f"min cost fp={p} fn={1 - p}"))
    assert d.index == cost.index
    assert d.objective.exact is not None


def test_the_goal_reads_back_and_says_the_cost_it_equals() -> None:
    from threshold_lab.core.data.presets import preset
    from threshold_lab.core.decide.solve import decision_sentence

    goal = parse_goal("MAX Net-Benefit AT PT 1/5")
    assert goal.text() == "max net_benefit at pt 0.2"
    sweep = build_sweep(preset("deliveries").data)
    d = solve(Setting(sweep, 2.0), goal)
    assert (d.threshold, d.objective.short()) == (0.55, "1/8")
    assert "least-cost point with FP:FN costs 0.2 : 0.8" in decision_sentence(d, sweep)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("min net_benefit at pt 0.2", "net benefit is maximised"),
        ("max net_benefit", '"nothing" after "max net_benefit" should be "at pt X"'),
        ("max net_benefit at 0.2", 'should be "at pt X"'),
        ("max net_benefit at pt 0", "is not strictly between 0 and 1"),
        ("max net_benefit at pt 1.5", "is not strictly between 0 and 1"),
        ("max net_benefit at pt x", "is not a number"),
        ("max net_benefit at pt 0.2 where recall >= 0.9", "nothing more is taken"),
    ],
)
def test_a_malformed_net_benefit_goal_is_refused_naming_the_word(text: str, words: str) -> None:
    with pytest.raises(InputError, match=r"^goal: ") as e:
        parse_goal(text)
    assert words in str(e.value)


def test_the_paired_bootstrap_is_rows_resampled_by_hand() -> None:
    # The implementation draws each replicate's counts per cell of (a's bin, b's bin);
    # here the same draws pick concrete rows of those cells, and net benefit is summed
    # over the rows drawn, by the definition.
    rng = np.random.default_rng(5)
    n = 60
    y = rng.random(n) < 0.3
    a = np.round(rng.random(n), 2)
    b = np.clip(a + rng.normal(0, 0.2, n), 0, 1)
    da, db = make_dataset(a, y), make_dataset(b, y)
    pts = np.array([0.1, 0.25, 0.5])
    w = 1 / n
    intervals, reason = paired_net_benefit_bootstrap(
        da, db, pts, (w, w), replicates=200, seed=9, confidence=0.9
    )
    assert reason is None and intervals is not None
    bins_a, bins_b = np.searchsorted(pts, a, "right"), np.searchsorted(pts, b, "right")
    draw = np.random.default_rng(9)
    classes = []
    for rows in (np.flatnonzero(y), np.flatnonzero(~y)):
        cell = bins_a[rows] * 4 + bins_b[rows]
        found = np.unique(cell)
        members = [rows[cell == c] for c in found]  # the rows of each cell
        share = np.array([len(m) for m in members]) / rows.size
        classes.append((members, share, rows.size))
    odds = pts / (1 - pts)
    diffs = []
    for _ in range(200):
        drawn: list[int] = []
        for members, share, size in classes:
            counts = draw.multinomial(size, share)
            for m, c in zip(members, counts, strict=True):
                drawn += [int(m[0])] * int(c)  # any row of the cell: they act alike
        rows = np.array(drawn)
        nb = []
        for s in (a, b):
            acted = s[rows][:, None] >= pts[None, :]
            tp = (acted & y[rows][:, None]).sum(axis=0)
            fp = (acted & ~y[rows][:, None]).sum(axis=0)
            nb.append(w * tp - w * fp * odds)
        diffs.append(nb[0] - nb[1])
    lo, hi = np.quantile(np.array(diffs), [0.05, 0.95], axis=0)
    assert [i.low for i in intervals] == pytest.approx(lo.tolist(), abs=1e-12)
    assert [i.high for i in intervals] == pytest.approx(hi.tolist(), abs=1e-12)


@settings(max_examples=100, deadline=None)
@given(ROWS, st.sampled_from([1, 2, 3, 5]), st.sampled_from([Fraction(0), Fraction(1, 50)]))
def test_the_useful_range_is_the_same_whatever_the_block(
    rows: list[tuple[float, bool]], block: int, harm: Fraction
) -> None:
    from threshold_lab.core import blocks
    from threshold_lab.core.decide.net_benefit import DEFAULT_GRID, decision_curve

    sweep = build_sweep(make_dataset([s for s, _ in rows], [y for _, y in rows]))
    whole = decision_curve(sweep, DEFAULT_GRID[:1], harm=harm).useful_range
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(blocks, "BLOCK", block)
        blocked = decision_curve(sweep, DEFAULT_GRID[:1], harm=harm).useful_range
    assert blocked == whole
