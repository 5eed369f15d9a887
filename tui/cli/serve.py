"""``threshold-lab serve``: the explorer in a web browser, through textual-serve."""

from __future__ import annotations

import argparse
import shlex
import sys

from core.errors import InputError
from tui.cli import explore
from tui.cli.args import PROG, Parser

SUMMARY = "serve the explorer in a web browser (textual-serve)"


def parser() -> Parser:
    p = Parser(
        prog=f"{PROG} serve",
        description="Serve the explorer in a web browser (textual-serve). Everything after "
        "the options is passed to the explorer, e.g. serve --port 8001 -- --preset good.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("explorer_args", nargs=argparse.REMAINDER, metavar="-- EXPLORER ARGS")
    return p


def run(args: argparse.Namespace) -> int:
    """Check the explorer's arguments once, then serve until interrupted; each
    browser tab runs ``python -m tui`` with them."""
    extra = [a for a in args.explorer_args if a != "--"]
    explore.check(extra)  # refuse a bad source now, not in each browser tab
    port: int = args.port
    if not 1 <= port <= 65535:
        raise InputError(f"port {port} is not between 1 and 65535")

    from textual_serve.server import Server

    command = shlex.join([sys.executable, "-m", "tui", *extra])
    sys.stdout.write(f"Serving threshold-lab on http://{args.host}:{port} (Ctrl+C stops)\n")
    sys.stdout.flush()
    Server(command, host=args.host, port=port, title="threshold-lab").serve()
    return 0
