"""The ``threshold-lab`` command line.

``threshold-lab [SOURCE] [options]`` opens the explorer; a first word naming a
command (``report``, ``screenshot``, ``serve``) runs that command instead, and
the rest of the line is its arguments. So a file literally named ``report`` is
opened as ``threshold-lab ./report``.

A user error is one line on stderr, ``threshold-lab: error: ...``, and exit
status 2: nothing on stdout, never a traceback. Textual is imported only by the
commands that draw a screen; ``report`` and ``--plain`` run without it.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import importlib
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from threshold_lab.core import output
from threshold_lab.core.errors import InputError
from threshold_lab.core.output import CannotWrite
from threshold_lab.tui.cli.args import PROG, Parser, fail

__all__ = ["COMMANDS", "main", "parser"]


@dataclass(frozen=True)
class Command:
    """A first word of the command line, and the module that runs it (imported only
    when that command runs: ``report`` never loads the engines, the explorer or the
    server, each of which costs start-up time)."""

    summary: str
    usage: str
    module: str
    parser_name: str = "parser"
    run_name: str = "run"

    def _loaded(self, name: str) -> Callable[..., Any]:
        module = importlib.import_module(f"threshold_lab.tui.cli.{self.module}")
        return getattr(module, name)  # type: ignore[no-any-return]

    def parser(self) -> Parser:
        return self._loaded(self.parser_name)()  # type: ignore[no-any-return]

    def run(self, args: argparse.Namespace) -> int:
        return self._loaded(self.run_name)(args)  # type: ignore[no-any-return]


COMMANDS: dict[str, Command] = {
    "report": Command(
        "print the metrics, the exact sweep and the summaries", "SOURCE [options]", "report"
    ),
    "plot": Command(
        "draw one chart (roc, pr, det, decision, ...) as a PNG, SVG or PDF figure",
        "SOURCE --chart C --out FIG.png [options]",
        "plot",
    ),
    "sonify": Command(
        "write a curve (roc or pr) as a WAV file: one tone a point, for listening",
        "SOURCE --chart roc|pr --out FILE.wav [--seconds S] [--reference] [--json]",
        "sonify",
    ),
    "power": Command(
        "power and sample size of one ROC curve's AUC test, or of two paired curves' "
        "difference (pROC's power.roc.test)",
        "[--auc A] [--cases N1] [--controls N0] [--kappa K] [--sig-level S] [--power P] "
        "[--alternative two-sided|greater] [--from SOURCE] [--a A1,A2 --b B1,B2 --rn R "
        "--ra R --delta D] [--power-method delong|obuchowski] [--json]",
        "power",
    ),
    "lesson": Command(
        "run a lesson (a TOML file, or a shipped one) in the explorer, or as text with --plain",
        "FILE|NAME [--plain] [options]",
        "explore",
        "lesson_parser",
        "run_lesson",
    ),
    "exercise": Command(
        "a small fixture meeting exact targets (AUC, AP, precision at T, ...), as CSV",
        "--make TARGET [--make ...] [--rows N] [--ties] [--seed S] --out FILE.csv [--answers]",
        "exercise",
    ),
    "screenshot": Command(
        "write an SVG of one explorer state, without a terminal",
        "[SOURCE] OUT.svg [options]",
        "explore",
        "screenshot_parser",
        "run_screenshot",
    ),
    "aggregate": Command(
        "reduce rows (files, globs, folders of CSV/TSV/Parquet) to score,positives,negatives",
        "INPUT... -o OUT [--engine duckdb|spark] [options]",
        "aggregate",
    ),
    "serve": Command(
        "serve the explorer in a web browser (textual-serve)",
        "[--host H] [--port P] [-- EXPLORER ARGS]",
        "serve",
    ),
}


def parser() -> Parser:
    """The explorer's parser: ``threshold-lab [SOURCE] [options]``. Its help also
    lists the commands, each of which has its own parser and --help."""
    width = max(map(len, COMMANDS))
    usages = [f"{PROG} [SOURCE] [options]"]
    usages += [f"{PROG} {name} {c.usage}" for name, c in COMMANDS.items()]
    from threshold_lab.tui.cli import explore

    p = Parser(
        prog=PROG,
        usage="\n       ".join(usages),
        description=explore.DESCRIPTION,
        epilog=explore.PRESETS_EPILOG,
    )
    explore.add_arguments(p)
    from threshold_lab.core.version import version

    p.add_argument("--version", action="version", version=f"{PROG} {version()}")
    p.add_argument_group(
        "commands",
        f"A first word naming a command runs it ({PROG} COMMAND --help for its options;"
        " a file of that name is ./NAME):\n"
        + "\n".join(f"  {name:<{width}}  {c.summary}" for name, c in COMMANDS.items()),
    )
    return p


#: The commands a SIGTERM or SIGHUP stops as Ctrl-C does: their outputs are left
#: whole or not at all, and one line says so (the explorer and serve have their own).
STOPPED_LIKE_CTRL_C = frozenset({"report", "plot", "aggregate", "screenshot"})


#: The signals a command received while it ran, in order (SIGTERM, SIGHUP).
RECEIVED: list[int] = []


def stopped_by(exc: KeyboardInterrupt) -> int:
    """The signal that stopped a command: the one ``exc`` carries, else the last one
    received (DuckDB raises its own interruption for any), else SIGINT (Ctrl-C)."""
    if isinstance(exc, Stopped):
        return exc.signum
    return RECEIVED[-1] if RECEIVED else int(signal.SIGINT)


def stopped_line(exc: KeyboardInterrupt, left: str) -> str:
    """The one line a stopped command says: how it was stopped, and what it left."""
    signum = stopped_by(exc)
    how = "interrupted" if signum == signal.SIGINT else f"stopped by {signal.Signals(signum).name}"
    return f"{PROG}: {how}; {left}\n"


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP, raised where the command is, as Ctrl-C's KeyboardInterrupt."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum
        self.name = signal.Signals(signum).name


@contextlib.contextmanager
def _stopped_like_ctrl_c(stops: bool) -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Stopped` while the block runs (the handlers
    before are put back after it: ``main`` may run inside another program)."""

    def stop(signum: int, _frame: object) -> None:
        RECEIVED.append(signum)  # an engine may turn the exception into its own
        if output.holding():  # a temporary folder half made or removed: after it
            output.DEFERRED.append(signum)
            return
        raise Stopped(signum)

    def release(signum: int) -> None:
        raise Stopped(signum)

    output.RELEASE.append(release)

    RECEIVED.clear()

    before: dict[int, Any] = {}
    if stops:
        for signum in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(ValueError):  # not the main thread: left as it is
                before[signum] = signal.signal(signum, stop)
    try:
        yield
    finally:
        for caught, handler in before.items():
            signal.signal(caught, handler)
        if stops:
            output.RELEASE.pop()


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``threshold-lab`` command (and ``python -m threshold_lab``)."""
    words = list(sys.argv[1:] if argv is None else argv)
    if words and words[0] in COMMANDS:
        command = COMMANDS[words[0]]
        args = command.parser().parse_args(words[1:])
        run = command.run
    else:
        from threshold_lab.tui.cli import explore

        args = parser().parse_args(words)
        run = explore.run
    if argv is None:
        # The program's own run: what the imports made (modules, classes, functions)
        # lives until it exits, so the collector is told never to look at it again; it
        # would otherwise walk all of it in each full collection and once more at exit.
        # A Python caller's main(argv) leaves its collector as it is.
        gc.freeze()
    try:
        with _stopped_like_ctrl_c(bool(words) and words[0] in STOPPED_LIKE_CTRL_C):
            return run(args)
    except CannotWrite as exc:  # the machine's refusal, not the input's: status 1
        sys.stderr.write(f"{PROG}: error: {exc}\n")
        return 1
    except InputError as exc:
        return fail(str(exc))
    except KeyboardInterrupt as exc:  # Ctrl-C, SIGTERM or SIGHUP: one line, no temporary
        said = getattr(exc, "__notes__", None) or ["nothing was written"]
        sys.stderr.write(stopped_line(exc, said[-1]))
        return 128 + stopped_by(exc)
    except BrokenPipeError:
        # The reader left early (| head): stop quietly, with no traceback at exit.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
