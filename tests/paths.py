"""Where the tests find the repository and their data, wherever a test file sits."""

from pathlib import Path

#: The repository's root (pyproject.toml, core/, tui/, docs/).
ROOT = Path(__file__).resolve().parent.parent
#: Fixture files: tests/data.
DATA = ROOT / "tests" / "data"
