"""The report's output is a contract: the golden outputs of every preset and of the
feature fixtures (written by ``python -m tests.golden_cases``) still hold, the
JSON field for field (fields may be added), the text byte for byte."""

from __future__ import annotations

import json

import pytest

from tests.golden_cases import CASES, KINDS, contains, output, path


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_report_matches_its_golden_output(case: str, kind: str) -> None:
    golden = path(case, kind).read_text(encoding="utf-8")
    new = output(case, kind)
    if kind == "json":
        assert contains(json.loads(golden), json.loads(new)) == []
    else:
        assert new == golden
