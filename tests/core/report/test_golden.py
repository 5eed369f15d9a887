"""The report's output is a contract: the golden outputs of every preset and of the
feature fixtures (written by ``python -m tests.golden_cases``) still hold, the
JSON field for field (fields may be added), the text byte for byte (a float to the
last bits the CPU allows: see ``tests.golden_cases``)."""

from __future__ import annotations

import json

import pytest

from tests.golden_cases import CASES, KINDS, contains, output, path, same_text


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_report_matches_its_golden_output(case: str, kind: str) -> None:
    golden = path(case, kind).read_text(encoding="utf-8")
    new = output(case, kind)
    if kind == "json":
        assert contains(json.loads(golden), json.loads(new)) == []
    else:
        assert new == golden or same_text(golden, new), new


def test_the_last_bits_allowed_are_the_documented_ones() -> None:
    """The examples in ``same_float`` and ``same_text`` hold: an ulp or two passes, a
    changed figure does not."""
    import doctest

    import tests.golden_cases

    assert doctest.testmod(tests.golden_cases).failed == 0
