"""Venkatraman's paired test: E counted as its definition says (rank by rank, ties in
row order as R's rank(ties.method = "first")), symmetric in the two models, 0 with p 1
for one model against itself, reproducible from its seed, small p for different curves."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from threshold_lab.core.compare.venkatraman import ranks, statistic, venkatraman


def _brute_e(a: list[float], b: list[float], y: list[bool]) -> float:
    def r_rank(x: list[float]) -> list[int]:  # R's rank, ties.method = "first"
        order = sorted(range(len(x)), key=lambda i: (x[i], i))
        out = [0] * len(x)
        for rank, i in enumerate(order, start=1):
            out[i] = rank
        return out

    ra, rb = r_rank(a), r_rank(b)
    total = 0.0
    for x in range(1, len(y) + 1):
        ea = sum(1 for i in range(len(y)) if y[i] and ra[i] <= x)
        ea += sum(1 for i in range(len(y)) if not y[i] and ra[i] > x)
        eb = sum(1 for i in range(len(y)) if y[i] and rb[i] <= x)
        eb += sum(1 for i in range(len(y)) if not y[i] and rb[i] > x)
        total += abs(eb - ea)
    return total


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.integers(0, 5), st.integers(0, 5), st.booleans()), min_size=2, max_size=25
    )
)
def test_e_is_its_definition_with_ties_in_row_order(rows: list[tuple[int, int, bool]]) -> None:
    a = [float(x) for x, _, _ in rows]
    b = [float(x) for _, x, _ in rows]
    y = [lab for _, _, lab in rows]
    got = statistic(ranks(np.array(a)), ranks(np.array(b)), np.array(y))
    assert got == _brute_e(a, b, y)
    assert got == statistic(ranks(np.array(b)), ranks(np.array(a)), np.array(y))


def test_one_model_against_itself_and_a_different_one() -> None:
    rng = np.random.default_rng(3)
    y = rng.random(150) < 0.4
    a = rng.normal(size=150) + 1.5 * y
    same = venkatraman(a, a, y, permutations=200, seed=1)
    assert same.statistic == 0 and same.p.value == 1.0
    other = rng.normal(size=150) + 0.0 * y  # no signal at all
    far = venkatraman(a, other, y, permutations=400, seed=1)
    assert far.p.value < 0.01 and "none reached E" in far.text()
    again = venkatraman(a, other, y, permutations=400, seed=1)
    assert again == far


@pytest.mark.parametrize("seed", [1, 2])
def test_under_the_null_p_is_not_small(seed: int) -> None:
    """Two noisy copies of one score: the same curve in expectation."""
    rng = np.random.default_rng(seed)
    y = rng.random(200) < 0.5
    base = rng.normal(size=200) + y
    a = base + rng.normal(0, 0.3, 200)
    b = base + rng.normal(0, 0.3, 200)
    assert venkatraman(a, b, y, permutations=300, seed=seed).p.value > 0.01


def test_the_report_runs_the_tests_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from threshold_lab.tui.cli import main

    argv = ["report", "deliveries", "--json", "--test", "venkatraman,bootstrap"]
    assert main([*argv, "--permutations", "300", "--seed", "5"]) == 0
    auc = json.loads(capsys.readouterr().out)["comparison"][0]["auc_difference"]
    v, b = auc["venkatraman"], auc["bootstrap"]
    assert v["permutations"] == 300 and v["seed"] == 5 and 0 <= v["p_value"] <= 1
    assert b["replicates"] == 1000 and b["method"] == "paired bootstrap"
    assert main(["report", "deliveries", "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)["comparison"][0]["auc_difference"]
    assert "venkatraman" not in plain and "bootstrap" not in plain


def test_unpaired_models_get_the_unpaired_tests(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from threshold_lab.tui.cli import main

    argv = ["report", "deliveries", "--json", "--unpaired", "--test", "venkatraman,bootstrap"]
    assert main([*argv, "--permutations", "200"]) == 0
    auc = json.loads(capsys.readouterr().out)["comparison"][0]["auc_difference"]
    assert auc["venkatraman"]["method"] == "Venkatraman's permutation test (unpaired)"
    assert 0 <= auc["venkatraman"]["p_value"] <= 1 and 0 <= auc["bootstrap"]["p_value"] <= 1


def _brute_unpaired(a: list[float], ya: list[bool], b: list[float], yb: list[bool]) -> float:
    """pROC's unpaired E, step by step in plain Python (R's approxfun: linear, nothing
    outside its range)."""

    def r_rank(x: list[float]) -> list[int]:
        order = sorted(range(len(x)), key=lambda i: (x[i], i))
        out = [0] * len(x)
        for rank, i in enumerate(order, start=1):
            out[i] = rank
        return out

    kappa = (sum(ya) + sum(yb)) / (len(ya) + len(ya))

    def curve(x: list[float], y: list[bool]) -> tuple[list[float], list[float]]:
        rk = r_rank(x)
        cases = [rk[i] for i in range(len(y)) if y[i]]
        controls = [rk[i] for i in range(len(y)) if not y[i]]
        ps: list[float] = []
        es: list[float] = []
        for t in range(1, len(y) + 1):
            f = sum(1 for c in cases if c <= t) / len(cases)
            g = sum(1 for c in controls if c <= t) / len(controls)
            ps.append(kappa * f + (1 - kappa) * g)
            es.append(kappa * f + (1 - kappa) * (1 - g))
        return ps, es

    def approx(ps: list[float], es: list[float], x: float) -> float | None:
        merged: dict[float, list[float]] = {}
        for p, e in zip(ps, es, strict=True):  # approxfun: sorted, ties averaged
            merged.setdefault(p, []).append(e)
        ps = sorted(merged)
        es = [sum(merged[p]) / len(merged[p]) for p in ps]
        if x < ps[0] or x > ps[-1]:
            return None
        for i in range(len(ps) - 1):
            if ps[i] <= x <= ps[i + 1]:
                if ps[i + 1] == ps[i]:
                    return es[i]
                w = (x - ps[i]) / (ps[i + 1] - ps[i])
                return es[i] + w * (es[i + 1] - es[i])
        return es[-1]

    rp, re = curve(a, ya)
    sp, se = curve(b, yb)
    xs = sorted(rp + sp)
    ys: list[float | None] = []
    for x in xs:
        u, v = approx(rp, re, x), approx(sp, se, x)
        ys.append(None if u is None or v is None else abs(u - v))
    total = 0.0
    for i in range(1, len(xs)):
        hi, lo = ys[i], ys[i - 1]
        if hi is not None and lo is not None:
            total += (hi + lo) * (xs[i] - xs[i - 1]) / 2
    return total


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6))
def test_the_unpaired_e_is_its_definition(seed: int) -> None:
    from threshold_lab.core.compare.venkatraman import unpaired_statistic

    rng = np.random.default_rng(seed)
    na, nb = int(rng.integers(4, 20)), int(rng.integers(4, 20))
    ya = list(rng.random(na) < 0.5)
    yb = list(rng.random(nb) < 0.5)
    ya[0], ya[1], yb[0], yb[1] = True, False, True, False  # both classes in each
    a = [float(x) for x in rng.integers(0, 6, na)]
    b = [float(x) for x in rng.integers(0, 6, nb)]
    kappa = (sum(ya) + sum(yb)) / (2 * na)
    got = unpaired_statistic(
        ranks(np.array(a)), ranks(np.array(b)), np.array(ya), np.array(yb), kappa
    )
    assert got == pytest.approx(_brute_unpaired(a, ya, b, yb), abs=1e-12)
