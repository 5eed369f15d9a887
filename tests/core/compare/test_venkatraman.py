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


def test_the_unpaired_venkatraman_says_it_is_not_built(capsys: pytest.CaptureFixture[str]) -> None:
    import json

    from threshold_lab.tui.cli import main

    argv = ["report", "deliveries", "--json", "--unpaired", "--test", "venkatraman,bootstrap"]
    assert main(argv) == 0
    auc = json.loads(capsys.readouterr().out)["comparison"][0]["auc_difference"]
    assert auc["venkatraman"] is None and "not built yet" in auc["venkatraman_reason"]
    assert 0 <= auc["bootstrap"]["p_value"] <= 1  # the unpaired bootstrap test is
