"""The interpreter a new venv is made from (Makefile's PYTHON): the system's python3
when it can make a venv of 3.11 or later, else python3 on PATH, else what is given."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.paths import ROOT

SHOW = "show-python: ; @echo $(PYTHON)"


def chosen(*assignments: str) -> str:
    # Not what a make around the tests was given (make test PYTHON=...: MAKEFLAGS).
    drop = ("PYTHON", "SYSTEM_PYTHON", "MAKEFLAGS", "MFLAGS", "MAKELEVEL")
    env = {k: v for k, v in os.environ.items() if k not in drop}
    out = subprocess.run(
        [
            "make",
            "-s",
            "--no-print-directory",
            "-C",
            str(ROOT),
            "--eval",
            SHOW,
            "show-python",
            *assignments,
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    return out.stdout.strip()


def fake(tmp_path: Path, name: str, status: int) -> Path:
    """An interpreter that answers the Makefile's question with ``status``."""
    path = tmp_path / name
    path.write_text(f"#!/bin/sh\nexit {status}\n")
    path.chmod(0o755)
    return path


pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def test_a_system_python_that_can_make_the_venv_is_chosen(tmp_path: Path) -> None:
    able = fake(tmp_path, "python3", 0)
    assert chosen(f"SYSTEM_PYTHON={able}") == str(able)


def test_one_too_old_or_without_venv_leaves_python3_on_path(tmp_path: Path) -> None:
    unable = fake(tmp_path, "python3", 1)
    assert chosen(f"SYSTEM_PYTHON={unable}") == "python3"


def test_a_missing_system_python_leaves_python3_on_path(tmp_path: Path) -> None:
    assert chosen(f"SYSTEM_PYTHON={tmp_path / 'nothing'}") == "python3"


def test_the_question_is_3_11_and_venv(tmp_path: Path) -> None:
    """This interpreter (3.11 or later, with venv) passes; the question really runs."""
    assert chosen(f"SYSTEM_PYTHON={sys.executable}") == sys.executable


def test_python_given_is_taken_as_it_is(tmp_path: Path) -> None:
    able = fake(tmp_path, "python3", 0)
    assert chosen(f"SYSTEM_PYTHON={able}", "PYTHON=python3.12") == "python3.12"
