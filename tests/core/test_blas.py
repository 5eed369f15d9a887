"""Core's sums of products never run on BLAS's threads.

Above 10^4 values OpenBLAS splits a dot product across its threads and wakes them at
every call; core sums products block by block, and on a busy machine the waking cost
more than the arithmetic. Every product in core goes through ``blocks.dot``, which
calls BLAS on pieces under that size: the report is the same bytes whatever the thread
count.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys

import numpy as np
from threshold_lab.core.blocks import DOT_BLOCK, dot

from tests.paths import ROOT


def _products(tree: ast.AST) -> list[int]:
    return [
        node.lineno
        for node in ast.walk(tree)
        if (isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult))
        or (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("dot", "matmul", "inner", "vdot", "tensordot")
        )
    ]


def test_every_product_in_core_goes_through_blocks_dot() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "core").rglob("*.py"))
        if path != ROOT / "core" / "blocks.py"
        for line in _products(ast.parse(path.read_text(encoding="utf-8")))
    ]
    assert found == []


def test_dot_is_np_dot_bit_for_bit_up_to_its_block() -> None:
    rng = np.random.default_rng(29)
    for n in (0, 1, 7, DOT_BLOCK):
        a, b = rng.random(n), rng.random(n)
        assert dot(a, b) == float(np.dot(a, b))
    ints = rng.integers(0, 9, DOT_BLOCK)
    assert dot(ints, np.ones(DOT_BLOCK)) == float(ints.sum())


def test_dot_adds_its_blocks_exactly() -> None:
    n = 5 * DOT_BLOCK + 3
    a = np.full(n, 0.1)
    b = np.arange(n, dtype=np.float64)
    # Each block's sum is a float; their total is rounded once.
    expected = float(
        sum(
            np.float64(np.dot(a[i : i + DOT_BLOCK], b[i : i + DOT_BLOCK]))
            for i in range(0, n, DOT_BLOCK)
        )
    )
    assert abs(dot(a, b) - expected) <= 1e-9 * abs(expected)
    assert abs(dot(a, b) - 0.1 * n * (n - 1) / 2) <= 1e-9 * abs(expected)


_REPORT = """
import numpy as np, threshold_lab as tl
rng = np.random.default_rng(29)
y = rng.random(40_000) < 0.3
s = 1 / (1 + np.exp(-rng.normal(y * 1.1 - 0.5)))
print(tl.report(y, s, bootstrap=100, seed=1).to_json())
"""


def _report(threads: str) -> str:
    env = {**os.environ, "OPENBLAS_NUM_THREADS": threads}
    out = subprocess.run(
        [sys.executable, "-c", _REPORT], capture_output=True, text=True, check=True, env=env
    )
    return out.stdout


def test_the_report_is_the_same_bytes_on_one_blas_thread_and_on_two() -> None:
    assert _report("1") == _report("2")
