"""Numbers written as text are read as doubles only where the double keeps them:
``1e-400`` is refused rather than read as 0.0, which would tie with a real 0, and
``1_000`` and other scripts' digits are refused rather than taken as Python's float
takes them."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from threshold_lab.core.data.loaders import load_file
from threshold_lab.core.doubles import read_double, underflows
from threshold_lab.core.errors import InputError


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_every_double_written_by_repr_reads_back_to_itself(x: float) -> None:
    assert read_double(repr(x)) == x and read_double(f" {x!r} ") == x


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("1e-400", "'1e-400' is too small for a double: it would read as 0"),
        ("-2.5e-330", "is too small for a double"),
        (
            "0.000000000000000000000000000000000000000000000000000000000000000000000000000000000"
            "0000000000000000000000000000000000000000000000000000000000000000000000000000000000"
            "0000000000000000000000000000000000000000000000000000000000000000000000000000000000"
            "0000000000000000000000000000000000000000000000000000000000000000000000000000000001",
            "is too small for a double",
        ),
        ("1e400", "'1e400' is not a finite number (too large for a double)"),
        ("1_000", "'1_000' is not a number"),
        ("\u0663", "is not a number"),
        ("0x10", "'0x10' is not a number"),
        ("inf", "'inf' is not a finite number"),
        ("-NaN", "'-NaN' is not a finite number"),
        ("", "'' is not a number"),
    ],
)
def test_what_a_double_cannot_keep_is_refused_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(ValueError) as caught:
        read_double(text)
    assert reason in str(caught.value)


def test_zeros_and_subnormals_are_kept() -> None:
    assert [read_double(t) for t in ("0", "-0.0", "0e5", "0.000")] == [0.0] * 4
    assert read_double("1e-310") == 1e-310 and not underflows("1e-310")
    assert underflows("1e-400") and not underflows("0e-400")


@pytest.mark.parametrize("rows", [4, 5000])  # the exact reader, and arrow's fast path
@pytest.mark.parametrize("column", ["score", "weight"])
def test_a_file_cell_that_would_read_as_0_is_refused_naming_its_line(
    tmp_path: Path, rows: int, column: str
) -> None:
    p = tmp_path / "rows.csv"
    body = [f"{0.5 + i / (4 * rows)!r},{i % 2},1" for i in range(rows)]
    body[2] = "0,0,1"  # a real zero, which stays
    body[rows - 1] = "1e-400,1,1" if column == "score" else "0.3,1,1e-400"
    p.write_text("score,label,weight\n" + "\n".join(body) + "\n")
    with pytest.raises(InputError) as caught:
        load_file(p)
    assert f"line {rows + 1}, column '{column}': '1e-400' is too small for a double" in str(
        caught.value
    )
    body[rows - 1] = "0.3,1,1"
    p.write_text("score,label,weight\n" + "\n".join(body) + "\n")
    data = load_file(p)  # the real zero is a score like any other
    assert data.n == rows and float(np.min(data.scores)) == 0.0


def test_underscores_in_a_score_are_refused_in_csv_and_json(tmp_path: Path) -> None:
    csv = tmp_path / "u.csv"
    csv.write_text("score,label\n1_000,1\n0.5,0\n")
    with pytest.raises(InputError, match="line 2, column 'score': '1_000' is not a number"):
        load_file(csv)
    js = tmp_path / "tiny.json"
    js.write_text('{"scores": [1e-400, 0, 0.5], "labels": [1, 0, 1]}')
    with pytest.raises(InputError, match="'1e-400' is too small for a double"):
        load_file(js)
    assert math.isclose(read_double("1e-3"), 0.001)
