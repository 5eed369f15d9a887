"""textual-serve, guarded: a token on the page and the websocket, the Host and Origin
headers checked, and the listening socket bound before anything is printed.

textual-serve on its own accepts any websocket, so any web page the user visits
could drive the explorer (cross-site WebSocket hijacking), and a DNS-rebound name
could reach it too. Here each request must name one of the served host names
(Host), come from the served page if it comes from a page at all (Origin), and the
page and the websocket must carry the random token printed with the URL.

The token travels in the page's query (``/?token=...``) and in the websocket's path
(``/ws/<token>``): textual-serve's script appends ``?width=..&height=..`` to the
websocket URL the page gives it, so a query there would be mangled.
"""

from __future__ import annotations

import asyncio
import ipaddress
import secrets
import signal
import socket
from typing import Any

import aiohttp_jinja2
import jinja2
from aiohttp import web
from aiohttp.typedefs import Handler
from textual_serve.server import Server, to_int

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WILDCARDS = ("", "0.0.0.0", "::")


def is_loopback(host: str) -> bool:
    """127.0.0.0/8, ::1 or localhost."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def url_host(host: str) -> str:
    """The host as it is written in a URL: an IPv6 address in brackets."""
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def bind(host: str, port: int) -> list[socket.socket]:
    """Listening sockets for every address of host; OSError (a name that does not
    resolve, a port in use, an address not on this machine) before any is kept."""
    infos = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    sockets: list[socket.socket] = []
    try:
        for family, kind, proto, _, address in dict.fromkeys(infos):
            sock = socket.socket(family, kind, proto)
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            sock.bind(address)
            sock.listen(100)
    except OSError:
        for sock in sockets:
            sock.close()
        raise
    return sockets


class GuardedServer(Server):
    """textual-serve's Server with a token, Host and Origin checks, and sockets
    bound by the caller (see :func:`bind`)."""

    def __init__(self, command: str, host: str, port: int, title: str) -> None:
        super().__init__(command, host=host, port=port, title=title)
        self.token = secrets.token_urlsafe(16)
        self.allowed_hosts = self._allowed_hosts(host, port)

    @staticmethod
    def _allowed_hosts(host: str, port: int) -> frozenset[str] | None:
        """The Host headers accepted, lower case; None (any) for a wildcard address,
        whose names are not known here (the token and Origin check still apply)."""
        if host in WILDCARDS:
            return None
        names = {url_host(host).lower()}
        if is_loopback(host):
            names.update(LOOPBACK_NAMES)
        allowed = {f"{name}:{port}" for name in names}
        if port == 80:
            allowed.update(names)
        return frozenset(allowed)

    @property
    def url(self) -> str:
        """The page's address, with the token."""
        return f"http://{url_host(self.host)}:{self.port}/?token={self.token}"

    def refusal(self, request: web.Request) -> str | None:
        """Why this request is refused, or None."""
        host = (request.headers.get("Host") or "").lower()
        if self.allowed_hosts is not None and host not in self.allowed_hosts:
            return "unexpected Host header"
        origin = request.headers.get("Origin")
        if origin is not None and origin.lower() != f"http://{host}":
            return "cross-origin request"
        path = request.path
        if path == "/" or path == "/ws" or path.startswith("/ws/"):
            given = request.match_info.get("token") or request.query.get("token") or ""
            if not secrets.compare_digest(given.encode(), self.token.encode()):
                return "missing or wrong token"
        return None

    @web.middleware
    async def guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        reason = self.refusal(request)
        if reason is not None:
            raise web.HTTPForbidden(text=f"403 Forbidden: {reason}\n")
        return await handler(request)

    async def _make_app(self) -> web.Application:
        app = web.Application(middlewares=[self.guard])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes(
            [
                web.get("/", self.page, name="index"),
                web.get("/ws/{token}", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),
            ]
        )
        return app

    async def page(self, request: web.Request) -> web.Response:
        """textual-serve's page, its websocket URL on the host the browser used
        (already checked) and carrying the token."""
        context: dict[str, Any] = {
            "font_size": to_int(request.query.get("fontsize", "16"), 16),
            "app_websocket_url": f"ws://{request.host}/ws/{self.token}",
            "config": {"static": {"url": f"http://{request.host}/static/"}},
            "application": {"name": self.title},
        }
        return aiohttp_jinja2.render_template("app_index.html", request, context)

    def serve_on(self, sockets: list[socket.socket]) -> None:
        """Serve on already bound sockets until SIGINT or SIGTERM."""
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, self.request_exit)
        web.run_app(
            self._make_app(),
            sock=sockets,
            handle_signals=False,
            loop=loop,
            print=lambda *args: None,
        )
