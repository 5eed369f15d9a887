"""``make bench`` runs every bench script the docs cite, and each exists; the
benchmarks page is one table of current figures whose every row names its script;
the README's speed section stays short and points at that page."""

from __future__ import annotations

import re

from tests.paths import ROOT

BENCH = ROOT / "bench"
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _make_bench() -> list[str]:
    """The names in the Makefile's ``BENCH :=`` list, in order."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.search(r"^BENCH := ((?:.*\\\n)*.*)$", text, re.M)
    assert found, "the Makefile has no BENCH list"
    return found.group(1).replace("\\\n", " ").split()


def _cited() -> set[str]:
    names: set[str] = set()
    for page in PAGES:
        names |= set(re.findall(r"bench/(\w+)\.py", page.read_text(encoding="utf-8")))
        if page.name == "benchmarks.md":
            names |= set(re.findall(r"`(\w+)\.py`", page.read_text(encoding="utf-8")))
    return names - {"timing"}


def test_make_bench_runs_every_script_the_docs_cite() -> None:
    listed = _make_bench()
    assert len(listed) == len(set(listed))
    missing = sorted(_cited() - set(listed))
    assert not missing, f"cited in the docs but not run by make bench: {missing}"
    absent = sorted(n for n in listed if not (BENCH / f"{n}.py").is_file())
    assert not absent, f"make bench names scripts that do not exist: {absent}"


def test_the_benchmarks_page_is_one_table_each_row_naming_its_script() -> None:
    text = (ROOT / "docs" / "benchmarks.md").read_text(encoding="utf-8")
    header = "| what | figure | compared with | target | script |"
    assert text.count(header) == 1
    table = text.split(header, 1)[1].split("\n\n", 1)[0].strip().splitlines()[1:]
    assert table, "the table has no rows"
    for row in table:
        cells = [c.strip() for c in row.strip("|").split("|")]
        assert len(cells) == 5, row
        assert re.fullmatch(r"`\w+\.py`( `[^`]*`)?", cells[4]), row
    assert not re.search(r"\bissue \d+|#\d+\b|\bsession\b", text), "history belongs in git"


def test_the_readme_speed_section_is_short_and_points_at_the_figures() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    _, found, after = text.partition("\n## Speed and memory\n")
    assert found
    section = after.split("\n## ", 1)[0].strip()
    assert len(section.splitlines()) <= 10
    assert "docs/benchmarks.md" in section
