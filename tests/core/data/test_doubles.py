"""Numbers written as text are read as doubles only where the double keeps them:
``1e-400`` is refused rather than read as 0.0, which would tie with a real 0, and
``1_000`` and other scripts' digits are refused rather than taken as Python's float
takes them."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from threshold_lab.core.data.loaders import load_file
from threshold_lab.core.doubles import read_double, read_exact, read_typed, underflows
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


@given(
    st.integers(-(10**40), 10**40),
    st.integers(-(10**40), 10**40).filter(bool),
    st.integers(-30, 30),
)
def test_a_typed_fraction_is_read_exactly_and_rounded_once(top: int, bottom: int, e: int) -> None:
    # The oracle: Python's exact fractions, and its one correctly rounded division.
    written = f"{top}e{e}/{bottom}"
    exact = Fraction(top) * Fraction(10) ** e / bottom
    assert read_exact(written) == exact and read_exact(f" {top}/{bottom} ") == Fraction(top, bottom)
    assert read_typed(written) == float(exact)


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_a_typed_decimal_reads_as_the_files_do(x: float) -> None:
    assert read_typed(repr(x)) == read_double(repr(x)) == x
    assert read_exact(repr(x)) == Fraction(repr(x))


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("1/0", "'1/0' is not a number (it divides by zero)"),
        ("1/2/3", "'1/2/3' is not a number"),
        ("1_0/3", "'1_0/3' is not a number"),
        ("inf/2", "'inf/2' is not a number"),
        ("1e-400/3", "'1e-400/3' is too small for a double: it would read as 0"),
        ("1e300/1e-300", "'1e300/1e-300' is not a finite number (too large for a double)"),
        ("0e99999999/1", "'0e99999999/1' is out of range (an exponent has at most four digits)"),
        ("9" * 5000 + "/1", "is out of range (too many digits)"),
    ],
)
def test_a_typed_fraction_that_is_no_double_is_refused_with_the_reason(
    text: str, reason: str
) -> None:
    with pytest.raises(ValueError) as caught:
        read_typed(text)
    assert reason in str(caught.value)
