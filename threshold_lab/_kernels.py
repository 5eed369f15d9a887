"""Which of numpy's compiled kernels the ``threshold-lab`` command runs on, chosen
before numpy is imported.

numpy chooses its kernels by what the processor has. On AMD's Zen 4 processors
(family 25 with AVX-512) its AVX-512 sorts store through the memory form of a
compress instruction, which Zen 4 runs in microcode: one ``np.sort`` of 10^7 doubles
takes five to six times as long as with numpy's AVX2 kernels on the same processor
(numpy/x86-simd-sort issue 6). The sweep is such a sort, and a report of 10^7 rows
takes 1.7 times as long with them. So the command, on such a processor, turns
numpy's AVX-512 kernels off for its own process (``NPY_DISABLE_CPU_FEATURES``),
numpy 2.0 and later (earlier ones have no AVX2 sort). A variable the user has set,
even empty, is left as it is: ``NPY_DISABLE_CPU_FEATURES=`` keeps numpy's own choice.
A Python session that imports threshold_lab keeps its numpy as it is (docs/python.md
says how to choose the same there).

Nothing here imports numpy but :func:`import_numpy`, as its last step.
"""

from __future__ import annotations

import os
import sys
import warnings
from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise

VARIABLE = "NPY_DISABLE_CPU_FEATURES"

#: numpy's names of its AVX-512 kernels: from 2.4 on, the x86-64-v4 group and what
#: builds on it; before, each AVX-512 feature. A name a numpy does not dispatch is
#: passed over with an ImportWarning, which the import below silences.
_AVX512 = {
    (2, 4): "X86_V4 AVX512_ICL AVX512_SPR",
    (2, 0): "AVX512F AVX512CD AVX512_KNL AVX512_KNM AVX512_SKX AVX512_CLX AVX512_CNL "
    "AVX512_ICL AVX512_SPR",
}


def zen4(cpuinfo: str) -> bool:
    """True where the first processor ``/proc/cpuinfo`` describes is AMD's family 25
    with AVX-512 (Zen 4; Zen 3 is family 25 without it, Zen 5 is family 26).

    >>> zen4("vendor_id\\t: AuthenticAMD\\ncpu family\\t: 25\\nflags\\t\\t: fpu avx2 avx512f\\n")
    True
    >>> zen4("vendor_id\\t: AuthenticAMD\\ncpu family\\t: 26\\nflags\\t\\t: fpu avx2 avx512f\\n")
    False
    """
    fields = first_processor(cpuinfo)
    return (
        fields.get("vendor_id") == "AuthenticAMD"
        and fields.get("cpu family") == "25"
        and "avx512f" in fields.get("flags", "").split()
    )


def first_processor(cpuinfo: str) -> dict[str, str]:
    """The fields of the first processor ``/proc/cpuinfo`` describes (its first block).

    >>> first_processor("processor\\t: 0\\nflags\\t\\t: fpu avx2\\n\\nprocessor\\t: 1\\n")
    {'processor': '0', 'flags': 'fpu avx2'}
    """
    fields: dict[str, str] = {}
    for line in cpuinfo.splitlines():
        if not line.strip():
            if fields:
                break  # the first processor's block ends
            continue
        name, _, value = line.partition(":")
        fields[name.strip()] = value.strip()
    return fields


def command_line(argv: Sequence[str], orig_argv: Sequence[str]) -> bool:
    """True where this process is the ``threshold-lab`` command: its script (the
    interpreter's ``argv[0]`` while the package is imported), or ``python -m
    threshold_lab``.

    >>> command_line(["/venv/bin/threshold-lab", "report"], ["python", "/venv/bin/threshold-lab"])
    True
    >>> command_line(["-m", "x"], ["python", "-W", "error", "-m", "threshold_lab", "x"])
    True
    >>> command_line(["-c"], ["python", "-c", "import threshold_lab"])
    False
    """
    if argv and os.path.basename(argv[0]) == "threshold-lab":
        return True
    if not argv or argv[0] != "-m":
        return False
    words = list(orig_argv[1:])
    return "-mthreshold_lab" in words or any(
        pair == ("-m", "threshold_lab") for pair in pairwise(words)
    )


def _numpy_version() -> tuple[int, int] | None:
    """The installed numpy's (major, minor), read from its version.py without
    importing it; None where it cannot be read."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("numpy")
        if spec is None or not spec.submodule_search_locations:
            return None
        folder = spec.submodule_search_locations[0]
        with open(os.path.join(folder, "version.py"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("version ="):
                    major, minor = line.split("=", 1)[1].strip().strip("\"'").split(".")[:2]
                    return int(major), int(minor)
    except (OSError, ValueError, ImportError):
        return None
    return None


def _cpuinfo() -> str:
    """The first few KiB of /proc/cpuinfo (the first processor's block), or ""."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            return f.read(8192)
    except OSError:
        return ""


def choice(
    environ: Mapping[str, str],
    argv: Sequence[str],
    orig_argv: Sequence[str],
    cpuinfo: Callable[[], str] = _cpuinfo,
    numpy_version: Callable[[], tuple[int, int] | None] = _numpy_version,
) -> str | None:
    """The value for :data:`VARIABLE` this process should have, or None to leave it:
    numpy's AVX-512 kernels off where this is the command line on Zen 4, with a
    numpy that has AVX2 sorts, and the user has not set the variable."""
    if VARIABLE in environ or not command_line(argv, orig_argv):
        return None
    if not sys.platform.startswith("linux") or not zen4(cpuinfo()):
        return None
    return avx512_names(numpy_version())


def avx512_names(version: tuple[int, int] | None) -> str | None:
    """What turns off the AVX-512 kernels of numpy ``version`` (a (major, minor)),
    where it has AVX2 sorts to fall back on (2.0 and later); None before, or where the
    version is not known.

    >>> avx512_names((2, 4)), avx512_names((1, 26))
    ('X86_V4 AVX512_ICL AVX512_SPR', None)
    """
    if version is None:
        return None
    for since, names in _AVX512.items():
        if version >= since:
            return names
    return None


def import_numpy(names: str | None = None) -> None:
    """Import numpy, with its AVX-512 kernels off first where :func:`choice` says
    (or ``names`` off, where given). A numpy that cannot turn them off (built with
    them as its baseline) refuses at import, and cannot be imported again in the
    same process: the command then starts again with the variable set empty, as it
    would have run without this."""
    if "numpy" in sys.modules:
        return
    if VARIABLE in os.environ:  # the user's choice, or the command started again
        names = ""
    elif names is None:
        names = choice(os.environ, sys.argv, getattr(sys, "orig_argv", ()))
    if not names:
        try:
            import numpy
        except RuntimeError as exc:  # numpy refuses the user's own variable
            if not _said(exc):
                raise
        return
    os.environ[VARIABLE] = names
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ImportWarning)
            import numpy  # noqa: F401
    except RuntimeError:
        os.environ[VARIABLE] = ""
        sys.stdout.flush()
        os.execv(sys.executable, [sys.executable, *sys.orig_argv[1:]])


def _said(refusal: RuntimeError) -> bool:
    """numpy's refusal of a variable the user set, as the command's one line (and the
    command leaves with status 2); False, to raise it as it is, in a Python session or
    for any other error."""
    text = str(refusal)
    if VARIABLE not in text or not command_line(sys.argv, getattr(sys, "orig_argv", ())):
        return False
    why = " ".join(text.split("\n", 1)[-1].split())
    value = os.environ.get(VARIABLE, "")
    sys.stderr.write(f"threshold-lab: error: numpy refuses {VARIABLE}={value!r}: {why}\n")
    raise SystemExit(2)
