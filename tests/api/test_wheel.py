"""The built wheel installs one import name, threshold_lab: in a fresh environment
with only the wheel, ``import core`` and ``import tui`` fail and everything else works
(the command, ``python -m threshold_lab``, the API)."""

from __future__ import annotations

import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

from tests.paths import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A wheel built from a copy of the sources (the checkout stays untouched)."""
    src = tmp_path_factory.mktemp("src")
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for name in ("threshold_lab", "core", "tui", "docs/lessons"):
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", str(out), str(src)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (built,) = out.glob("threshold_lab-*.whl")
    return built


def test_the_wheel_has_one_top_level_name(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    tops = {n.split("/")[0] for n in names}
    dist = next(t for t in tops if t.endswith(".dist-info"))
    assert tops == {"threshold_lab", dist}
    assert "threshold_lab/core/curves/sweep.py" in names
    assert "threshold_lab/tui/app.tcss" in names
    assert "threshold_lab/lessons/denominator.toml" in names
    top_level = zipfile.ZipFile(wheel).read(f"{dist}/top_level.txt").decode().split()
    assert top_level == ["threshold_lab"]
    scripts = zipfile.ZipFile(wheel).read(f"{dist}/entry_points.txt").decode()
    assert "threshold-lab = threshold_lab.tui.cli:main" in scripts


def test_the_listed_packages_are_every_folder() -> None:
    import tomllib

    listed = set(
        tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]
    )
    folders = {"threshold_lab", "threshold_lab.lessons"} | {
        "threshold_lab." + ".".join(p.parent.relative_to(ROOT).parts)
        for top in ("core", "tui")
        for p in (ROOT / top).rglob("__init__.py")
    }
    assert listed == folders


def test_a_fresh_environment_with_only_the_wheel(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(env_dir)], check=True)
    python = env_dir / "bin" / "python"
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    # The wheel, unpacked as pip would; its dependencies from this environment, read
    # as a plain path (so this environment's editable install of the checkout is not).
    zipfile.ZipFile(wheel).extractall(site)
    Path(site, "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run = tmp_path / "elsewhere"
    run.mkdir()

    def python_c(code: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(python), "-c", code], capture_output=True, text=True, cwd=run, timeout=120
        )

    for name in ("core", "tui"):
        out = python_c(f"import {name}")
        assert out.returncode == 1 and "ModuleNotFoundError" in out.stderr
    out = python_c(
        "import threshold_lab as tl, threshold_lab.core.curves.sweep as s\n"
        f"print(s.__file__.startswith({site!r}), "
        "tl.report([1, 0, 1], [0.9, 0.2, 0.6]).roc_auc.exact)"
    )
    assert out.stdout.split() == ["True", "1"], out.stderr
    out = subprocess.run(
        [str(python), "-m", "threshold_lab", "report", "canonical", "--json"],
        capture_output=True,
        text=True,
        cwd=run,
        timeout=120,
    )
    assert out.returncode == 0 and '"exact": "7/12"' in out.stdout
    # The shipped lessons are in the wheel, found by name.
    out = subprocess.run(
        [str(python), "-m", "threshold_lab", "lesson", "denominator", "--plain"],
        input="2/3\n",
        capture_output=True,
        text=True,
        cwd=run,
        timeout=120,
    )
    assert "Step 1 of 10." in out.stdout and "Right: the answer is 2/3" in out.stdout, out.stderr
