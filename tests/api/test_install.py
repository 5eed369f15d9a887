"""A lean install: the base dependencies are numpy and the explorer's three, stated as
ranges; the web server is the [serve] extra, and every optional dependency that is
missing is an ImportError naming the pip line that adds it (one line and exit status
2 on the command line). The exact versions the snapshots need are constraints that
make installs with."""

from __future__ import annotations

import sys
import tomllib
import zipfile
from email.parser import Parser
from importlib.metadata import version
from pathlib import Path

import pytest
from threshold_lab.tui.cli import main

import threshold_lab as tl
from tests.api.test_wheel import wheel  # noqa: F401  (the built wheel, a fixture)
from tests.paths import ROOT

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
USER_EXTRAS = ("serve", "parquet", "engines", "spark", "plot")


def _pins() -> dict[str, str]:
    out = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, pinned = line.partition("==")
            out[name] = pinned
    return out


def test_a_user_s_dependencies_are_ranges_and_the_web_server_is_an_extra() -> None:
    base = PROJECT["dependencies"]
    names = [d.split(">")[0].split("<")[0].split("=")[0].strip() for d in base]
    assert names == ["numpy", "textual", "textual-plotext", "plotext"]
    for extra in USER_EXTRAS:
        for dep in [*base, *PROJECT["optional-dependencies"][extra]]:
            assert "==" not in dep, dep  # never one patch release
    assert PROJECT["optional-dependencies"]["serve"] == ["textual-serve>=1.1.3,<2"]


def test_the_environment_has_the_versions_the_snapshots_were_drawn_with() -> None:
    pins = _pins()
    for name in ("textual", "textual-plotext", "plotext", "textual-serve", "matplotlib"):
        assert version(name) == pins[name], name
    for dep in PROJECT["dependencies"][1:]:  # each pin lies in the range stated
        name = dep.split(">=")[0]
        low, high = dep.split(">=")[1].split(",<")
        assert tuple(map(int, low.split("."))) <= tuple(map(int, pins[name].split(".")))
        assert int(pins[name].split(".")[0]) < int(high)


def test_the_wheel_s_metadata_says_what_it_runs_on(wheel: Path) -> None:  # noqa: F811
    z = zipfile.ZipFile(wheel)
    dist = next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))
    meta = Parser().parsestr(z.read(dist).decode())
    classifiers = meta.get_all("Classifier") or []
    assert "Programming Language :: Python :: 3.11" in classifiers
    assert "Typing :: Typed" in classifiers
    assert meta["Requires-Python"] == ">=3.11"
    requires = meta.get_all("Requires-Dist") or []
    web = [r for r in requires if r.startswith("textual-serve")]
    assert web and all('extra == "serve"' in r or 'extra == "test"' in r for r in web)


def test_serve_without_its_extra_says_how_to_install_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import threshold_lab.tui.cli as cli

    for name in [m for m in sys.modules if m.split(".")[0] == "textual_serve"] + ["textual_serve"]:
        monkeypatch.setitem(sys.modules, name, None)  # as if not installed (its parts too)
    # Imported again (a test before may have imported it: from the package's attribute
    # too, which `from threshold_lab.tui.cli import serving` reads first).
    monkeypatch.delitem(sys.modules, "threshold_lab.tui.cli.serving", raising=False)
    monkeypatch.delattr(cli, "serving", raising=False)
    # A host that is not loopback: were the import to succeed, the run stops there too.
    assert main(["serve", "--host", "192.0.2.1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'threshold-lab[serve]'" in err


def test_a_missing_optional_dependency_is_an_import_error_with_its_pip_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    r = tl.report([1, 0, 1, 0], [0.9, 0.4, 0.6, 0.2])
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(ImportError, match=r"pip install 'threshold-lab\[plot\]'") as caught:
        r.figure("roc")
    assert isinstance(caught.value, tl.MissingDependency)
    assert isinstance(caught.value, tl.InputError)  # the command line's one line, exit 2
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.interchange", None)
    with pytest.raises(ImportError, match=r"pip install 'threshold-lab\[parquet\]'"):
        tl.from_frame({"label": [1, 0], "score": [0.2, 0.1]}, label="label", score="score")
