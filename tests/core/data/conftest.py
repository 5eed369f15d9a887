"""The loaders' tests read their small files through the fast path too: a file under
``delimited.SMALL_BYTES`` goes to the exact reader alone, which would leave the fast
reader's comparisons with it empty. ``test_a_small_file_is_read_exactly`` holds the
rule itself."""

from __future__ import annotations

import pytest
from threshold_lab.core.data import delimited


@pytest.fixture(autouse=True)
def _every_file_tries_the_fast_reader(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(delimited, "SMALL_BYTES", -1)
