"""``threshold-lab serve``: the explorer in a web browser, through textual-serve."""

from __future__ import annotations

import argparse
import importlib.util
import socket
import sys

from threshold_lab.core.errors import InputError, MissingDependency
from threshold_lab.tui.cli import COMMANDS, explore
from threshold_lab.tui.cli.args import PROG, Parser

SUMMARY = COMMANDS["serve"].summary  # the one line the command list gives


def parser() -> Parser:
    p = Parser(
        prog=f"{PROG} serve",
        description="Serve the explorer in a web browser (textual-serve: pip install "
        "'threshold-lab[serve]'). Everything after the options is passed to the explorer, "
        "e.g. serve --port 8001 -- --preset good.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument(
        "--allow-remote",
        action="store_true",
        help="allow a --host other than loopback (other machines can then reach the "
        "explorer, protected only by the token, unencrypted)",
    )
    p.add_argument("explorer_args", nargs=argparse.REMAINDER, metavar="-- EXPLORER ARGS")
    return p


def run(args: argparse.Namespace) -> int:
    """Check the explorer's arguments once, then serve until interrupted; each
    browser tab runs ``python -m tui`` with them."""
    try:
        from threshold_lab.tui.cli import serving  # imports textual-serve: only for this command
    except ImportError as exc:
        if exc.name is None or not exc.name.startswith(("textual_serve", "aiohttp", "jinja2")):
            raise
        missing = (
            "it is not installed"
            if exc.name.startswith("textual_serve")
            or importlib.util.find_spec("textual_serve") is None
            else f"{exc.name.split('.')[0]}, which it needs, is not installed"
        )
        raise MissingDependency(
            f"serve needs textual-serve ({missing}): pip install 'threshold-lab[serve]'"
        ) from None
    extra = [a for a in args.explorer_args if a != "--"]
    explore.check(extra)  # refuse a bad source now, not in each browser tab
    port: int = args.port
    if not 1 <= port <= 65535:
        raise InputError(f"port {port} is not between 1 and 65535")

    host: str = args.host
    if not serving.is_loopback(host):
        if not args.allow_remote:
            raise InputError(
                f"--host {host} is not a loopback address; other machines could reach "
                "the explorer (add --allow-remote to accept that)"
            )
        sys.stderr.write(
            f"{PROG}: warning: serving on {host}: other machines can reach the explorer, "
            "protected only by the token, which travels unencrypted\n"
        )

    try:
        sockets = serving.bind(host, port)
    except socket.gaierror as exc:
        raise InputError(f"cannot resolve host {host!r}: {exc.strerror}") from exc
    except OSError as exc:
        raise InputError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc

    argv = [sys.executable, "-m", "threshold_lab", *extra]
    server = serving.GuardedServer(argv, host=host, port=port, title="threshold-lab")
    sys.stdout.write(f"Serving threshold-lab on {server.url} (Ctrl+C stops)\n")
    sys.stdout.flush()
    server.serve_on(sockets)
    return 0
