"""The command line's choice of numpy's kernels: AVX-512 off on Zen 4, only for the
``threshold-lab`` process, never over the user's own variable, and a numpy that
refuses the choice costs nothing but a fresh start."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from tests.paths import ROOT
from threshold_lab import _kernels as kernels

ZEN4 = """processor\t: 0
vendor_id\t: AuthenticAMD
cpu family\t: 25
model\t\t: 17
model name\t: AMD EPYC 9R14
flags\t\t: fpu vme sse sse2 avx avx2 avx512f avx512dq avx512bw avx512vl

processor\t: 1
vendor_id\t: AuthenticAMD
cpu family\t: 25
"""
ZEN3 = ZEN4.replace(" avx512f avx512dq avx512bw avx512vl", "")
ZEN5 = ZEN4.replace("cpu family\t: 25\nmodel", "cpu family\t: 26\nmodel")
INTEL = ZEN4.replace("AuthenticAMD", "GenuineIntel", 1).replace(": 25\nmodel", ": 6\nmodel")
SCRIPT = ["/venv/bin/threshold-lab", "report"]
RUN = ["/venv/bin/python", "/venv/bin/threshold-lab", "report"]


@pytest.mark.parametrize(
    ("cpuinfo", "expected"),
    [(ZEN4, True), (ZEN3, False), (ZEN5, False), (INTEL, False), ("", False)],
)
def test_zen4_is_amd_family_25_with_avx512(cpuinfo: str, expected: bool) -> None:
    assert kernels.zen4(cpuinfo) is expected


def test_only_the_first_processor_is_read() -> None:
    # A later block saying something else is never reached.
    assert kernels.zen4(ZEN4 + "\nvendor_id\t: GenuineIntel\ncpu family\t: 6\n")
    assert not kernels.zen4(INTEL + "\n" + ZEN4)


@pytest.mark.parametrize(
    ("argv", "orig_argv", "expected"),
    [
        (SCRIPT, RUN, True),
        (["threshold-lab"], ["python", "threshold-lab"], True),
        (["-m", "x"], ["python", "-m", "threshold_lab", "x"], True),
        (["-m"], ["python", "-mthreshold_lab"], True),
        (["-m", "x"], ["python", "-X", "importtime", "-m", "threshold_lab", "x"], True),
        (["-m", "x"], ["python", "-m", "pytest", "x"], False),
        (["-c"], ["python", "-c", "import threshold_lab"], False),
        (["notebook.py"], ["python", "notebook.py"], False),
        (["/venv/bin/threshold-lab-other"], ["python", "/venv/bin/threshold-lab-other"], False),
        ([], [], False),
    ],
)
def test_the_command_line_is_its_script_or_dash_m(
    argv: list[str], orig_argv: list[str], expected: bool
) -> None:
    assert kernels.command_line(argv, orig_argv) is expected


def _choice(
    environ: dict[str, str] | None = None,
    argv: list[str] = SCRIPT,
    cpuinfo: str = ZEN4,
    version: tuple[int, int] | None = (2, 4),
) -> str | None:
    return kernels.choice(
        {} if environ is None else environ,
        argv,
        RUN,
        cpuinfo=lambda: cpuinfo,
        numpy_version=lambda: version,
    )


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="read from /proc/cpuinfo")
def test_the_choice_turns_avx512_off_only_where_it_should() -> None:
    assert _choice() == "X86_V4 AVX512_ICL AVX512_SPR"
    assert _choice(version=(3, 1)) == "X86_V4 AVX512_ICL AVX512_SPR"
    older = _choice(version=(2, 2))
    assert older is not None
    assert "AVX512_SKX" in older.split()
    assert "X86_V4" not in older.split()
    # numpy before 2.0 has no AVX2 sort to fall back on; a version not read: left.
    assert _choice(version=(1, 26)) is None
    assert _choice(version=None) is None
    # The user's variable, even empty, is theirs.
    assert _choice(environ={kernels.VARIABLE: ""}) is None
    assert _choice(environ={kernels.VARIABLE: "AVX512_SPR"}) is None
    # Not the command line, or not Zen 4: left.
    assert _choice(argv=["notebook.py"]) is None
    for other in (ZEN3, ZEN5, INTEL, ""):
        assert _choice(cpuinfo=other) is None


def test_the_choice_is_linux_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "platform", "darwin")
    assert _choice() is None


def test_the_installed_numpys_version_is_read_without_importing_it() -> None:
    major, minor = (int(part) for part in np.__version__.split(".")[:2])
    assert kernels._numpy_version() == (major, minor)


def _fresh(script: str, *args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return _run([sys.executable, "-c", script, *args], env=env)


def _run(argv: list[str], *, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        argv,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        timeout=60,
        check=False,
    )


def _environment(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != kernels.VARIABLE}
    env.update(extra)
    return env


DISPATCHED = """
import json, os, sys
sys.argv[0] = "/venv/bin/threshold-lab"  # as the command's script is, while it imports
import threshold_lab
try:
    from numpy._core._multiarray_umath import __cpu_dispatch__, __cpu_features__
except ImportError:  # numpy 1.26
    from numpy.core._multiarray_umath import __cpu_dispatch__, __cpu_features__
on = [f for f in __cpu_dispatch__ if __cpu_features__[f]]
print(json.dumps({"variable": os.environ.get("NPY_DISABLE_CPU_FEATURES"), "on": on}))
"""


def test_the_command_lines_numpy_runs_as_this_machine_calls_for() -> None:
    """On this machine, whatever it is: the command's process has the variable the
    choice gives, and numpy dispatches no AVX-512 kernel where it is set."""
    expected = kernels.choice({}, ["/venv/bin/threshold-lab"], RUN)
    run = _fresh(DISPATCHED, env=_environment())
    assert run.returncode == 0, run.stderr
    assert run.stderr == ""  # numpy's warning of names it does not dispatch is silenced
    seen = json.loads(run.stdout)
    assert seen["variable"] == expected
    if expected is not None:
        assert not [f for f in seen["on"] if "512" in f or f == "X86_V4"]


def test_a_python_session_keeps_its_numpy_as_it_is() -> None:
    script = DISPATCHED.replace('sys.argv[0] = "/venv/bin/threshold-lab"', "pass")
    run = _fresh(script, env=_environment())
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)["variable"] is None


def test_the_users_variable_stands() -> None:
    run = _fresh(DISPATCHED, env=_environment(NPY_DISABLE_CPU_FEATURES=""))
    assert json.loads(run.stdout)["variable"] == ""


def _refused() -> str:
    """A feature this numpy holds as its baseline, which it refuses to turn off."""
    core = getattr(np, "_core", None) or np.core  # numpy 1.26 names it core
    baseline = list(core._multiarray_umath.__cpu_baseline__)
    if not baseline:
        pytest.skip("this numpy has no baseline features to refuse")
    return str(baseline[-1])


RESTART = """
import importlib.util, os, sys
print("start", repr(os.environ.get("NPY_DISABLE_CPU_FEATURES")), flush=True)
spec = importlib.util.spec_from_file_location("kernels", sys.argv[1])
kernels = importlib.util.module_from_spec(spec)
spec.loader.exec_module(kernels)
kernels.import_numpy(sys.argv[2])
import numpy
print("sorted", numpy.sort(numpy.array([3, 1, 2])).tolist())
"""


def test_a_numpy_that_refuses_the_choice_starts_the_command_again() -> None:
    """Names numpy holds as its baseline make its import fail, and a failed numpy
    cannot be imported again in that process: the command starts again with the
    variable empty, and runs."""
    refused = _refused()
    run = _fresh(RESTART, str(ROOT / "threshold_lab" / "_kernels.py"), refused, env=_environment())
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines() == ["start None", "start ''", "sorted [1, 2, 3]"]
    assert "Traceback" not in run.stderr


def _imported(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module.split(".")[0])
    return names


def test_choosing_imports_nothing_but_the_standard_library() -> None:
    """It runs before numpy is imported: numpy is imported by its last step alone, and
    nothing of the project at all."""
    tree = ast.parse((ROOT / "threshold_lab" / "_kernels.py").read_text(encoding="utf-8"))
    last = next(
        n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == "import_numpy"
    )
    outside = _imported(tree) - _imported(last)
    assert outside <= {
        "__future__",
        "collections",
        "importlib",
        "itertools",
        "os",
        "sys",
        "warnings",
    }
    assert _imported(last) == {"numpy"}


def test_a_variable_numpy_refuses_is_one_line_from_the_command() -> None:
    """The user's own NPY_DISABLE_CPU_FEATURES naming what numpy cannot turn off: the
    command says so in one line and leaves with status 2; a Python session gets numpy's
    own error."""
    refused = _refused()
    env = _environment(NPY_DISABLE_CPU_FEATURES=refused)
    run = _run([sys.executable, "-m", "threshold_lab", "report", "canonical"], env=env)
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr.startswith(
        f"threshold-lab: error: numpy refuses NPY_DISABLE_CPU_FEATURES={refused!r}: "
    )
    assert len(run.stderr.splitlines()) == 1 and "baseline" in run.stderr
    session = _fresh("import threshold_lab", env=env)
    assert session.returncode == 1 and "RuntimeError" in session.stderr
