"""Where the tests find the repository and their data, wherever a test file sits."""

from pathlib import Path

#: The repository's root (pyproject.toml, core/, tui/, docs/).
ROOT = Path(__file__).resolve().parent.parent
#: Fixture files: tests/data.
DATA = ROOT / "tests" / "data"


def clinics_rows() -> list[tuple[str, str, float, int]]:
    """tests/data/clinics.csv's rows as (id, site, score, label): the groups' fixture."""
    lines = (DATA / "clinics.csv").read_text().splitlines()[1:]
    return [(c[0], c[1], float(c[2]), int(c[3])) for c in (x.split(",") for x in lines)]
