"""textual-serve, guarded: a token on the page and the websocket, the Host and Origin
headers checked, and the listening socket bound before anything is printed; a page of
its own that asks nothing of another host, and a request log without the token.

textual-serve on its own accepts any websocket, so any web page the user visits
could drive the explorer (cross-site WebSocket hijacking), and a DNS-rebound name
could reach it too. Here each request must name one of the served host names
(Host), come from the served page if it comes from a page at all (Origin), and the
page and the websocket must carry the random token printed with the URL.

The token travels in the page's query (``/?token=...``) and in the websocket's path
(``/ws/<token>``): textual-serve's script appends ``?width=..&height=..`` to the
websocket URL the page gives it, so a query there would be mangled.

Each websocket drives one explorer process, and nothing the browser sends may make
that process outlive the socket or eat the machine: the terminal size it asks for is
clamped (Textual lays out in buckets of cells, so a 100000x100000 screen grows by
about 100 MB/s while its event loop is too busy to act on SIGTERM), and when the
socket closes, however it closes, its explorer is sent SIGTERM, then SIGKILL after a
grace, and reaped. textual-serve only asks it to quit and waits for it forever.

Nothing leaves the machine: textual-serve's page loads its font from a web font
service (which an offline classroom or an air-gapped lab cannot reach, and which
learns of every visit); this page takes the same font from textual-serve's own static
files, on the served host, and names no other. The request log, which a terminal's
scrollback or a file may keep, shows each path with the token hidden.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import secrets
import shlex
import signal
import socket
from asyncio.subprocess import PIPE, Process
from collections.abc import Awaitable, Callable, Sequence
from contextlib import suppress
from html import escape

from aiohttp import WSCloseCode, web
from aiohttp.abc import AbstractAccessLogger
from aiohttp.typedefs import Handler
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager
from textual_serve.server import Server, to_int

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "[::1]")
WILDCARDS = ("", "0.0.0.0", "::")

#: The largest width or height, in cells, an explorer is given: more than any screen
#: shows, far less than what exhausts memory.
MAX_CELLS = 1000
#: textual-serve's size when the browser names none (or not a number).
DEFAULT_SIZE = (80, 24)
#: Seconds an explorer has to exit on SIGTERM before SIGKILL.
GRACE_SECONDS = 2.0
#: Seconds a closing websocket waits for the browser's reply.
CLOSE_SECONDS = 2.0

log = logging.getLogger("textual-serve")

#: What the request log shows in place of a token.
HIDDEN = "(hidden)"


def without_token(request: web.BaseRequest) -> str:
    """The request's path and query as the log shows them: a websocket's path and a
    ``token`` in the query, whatever they hold (right, wrong or a near miss), hidden.

    >>> from aiohttp.test_utils import make_mocked_request
    >>> without_token(make_mocked_request("GET", "/ws/s3cret?width=80&height=24"))
    '/ws/(hidden)?width=80&height=24'
    >>> without_token(make_mocked_request("GET", "/?token=s3cret&fontsize=20"))
    '/?token=(hidden)&fontsize=20'
    """
    path = request.path
    if path.startswith("/ws/"):
        path = f"/ws/{HIDDEN}"
    query = "&".join(
        f"{key}={HIDDEN if key == 'token' else value}" for key, value in request.query.items()
    )
    return f"{path}?{query}" if query else path


class TokenlessAccessLog(AbstractAccessLogger):
    """aiohttp's request log, one line a request, with the token hidden (see
    :func:`without_token`): client, method, path, status, bytes, seconds."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        self.logger.info(
            '%s "%s %s" %s %s %.3fs',
            request.remote,
            request.method,
            without_token(request),
            response.status,
            response.content_length or response.body_length,
            time,
        )


#: The page: textual-serve's, without its web font service's stylesheet (the same font
#: from its own static files instead, and a monospace stack after it), without its
#: logo, and with no referrer sent anywhere. ``{{``/``}}`` are the CSS's braces.
PAGE = """<!DOCTYPE html>
<html>
  <head>
    <meta charset="utf-8" />
    <meta name="referrer" content="no-referrer" />
    <title>{title}</title>
    <link rel="stylesheet" href="/static/css/xterm.css" />
    <script src="/static/js/textual.js"></script>
    <style>
      @font-face {{
        font-family: "Roboto Mono";
        src: url("/static/fonts/RobotoMono-VariableFont_wght.ttf") format("truetype");
        font-weight: 100 700;
        font-style: normal;
      }}
      body {{ background: #0c181f; }}
      .dialog-container {{
        position: absolute; width: 100vw; height: 100vh; display: flex;
        align-items: center; justify-content: center; z-index: 10;
      }}
      .shade {{
        position: absolute; width: 100%; height: 100%; background: #0c181f;
        background-image: url("/static/images/background.png");
      }}
      .intro {{
        width: 640px; height: 240px; font-size: 16px; z-index: 20;
        font-family: "Roboto Mono", Menlo, Monaco, "DejaVu Sans Mono", "Courier New", monospace;
        text-align: center; color: rgba(255, 255, 255, 0.95); background-color: #12232d;
        display: flex; align-items: center; justify-content: center; margin: 32px;
      }}
      body.-first-byte .intro-dialog, body.-first-byte .intro-dialog .shade {{
        opacity: 0; transition: opacity 0.3s ease-out; display: none;
      }}
      body .textual-terminal {{ opacity: 0; transition: opacity 0.3s ease-out; }}
      body.-first-byte .textual-terminal {{ opacity: 1; transition: opacity 0.3s ease-out; }}
      body button {{
        padding: 16px 32px; background-color: #5e0ba7; color: rgba(255, 255, 255, 0.95);
        border: none; font-family: inherit; margin: 16px; display: block;
      }}
      button:hover {{ background: #ac5af4; cursor: pointer; }}
      .closed-dialog {{ opacity: 0; display: none; }}
      body.-closed .closed-dialog {{ opacity: 1; display: flex; }}
      #start {{ display: none; }}
      #start.-delay {{ display: flex; }}
    </style>
    <script>
      function refresh() {{
        const params = new URLSearchParams(window.location.search);
        params.delete("delay");
        window.location.href = window.location.pathname + "?" + params.toString();
      }}
    </script>
  </head>
  <body>
    <div class="dialog-container intro-dialog">
      <div class="shade"></div>
      <div class="intro">
        <div>{title}</div>
        <button type="button" onclick="refresh()" id="start">Start</button>
      </div>
    </div>
    <div class="dialog-container closed-dialog">
      <div class="shade"></div>
      <div class="intro">
        <div class="message">Session ended.</div>
        <button type="button" onclick="refresh()">Restart</button>
      </div>
    </div>
    <div
      id="terminal"
      class="textual-terminal"
      data-session-websocket-url="{websocket}"
      data-font-size="{font_size}"
    ></div>
  </body>
</html>
"""


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


def cells(value: object, default: int) -> int:
    """One side of the terminal as the browser gives it (query text or a JSON value),
    clamped to 1..MAX_CELLS; default when it is not a number."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        return default
    try:
        number = int(value)
    except (ValueError, OverflowError):  # "abc", "12.5", nan, inf, too many digits
        return default
    return min(max(number, 1), MAX_CELLS)


def terminal_size(width: object, height: object) -> tuple[int, int]:
    """The explorer's width and height for what the browser asked."""
    return cells(width, DEFAULT_SIZE[0]), cells(height, DEFAULT_SIZE[1])


def _signal(process: Process, signum: int) -> None:
    """Send signum unless the process is already gone."""
    with suppress(ProcessLookupError):
        process.send_signal(signum)


async def stop_process(process: Process, grace: float = GRACE_SECONDS) -> None:
    """SIGTERM, SIGKILL if still alive after grace seconds, and wait (reap). Cancelled
    meanwhile (the server's loop going away), SIGKILL at once: no grace is left."""
    try:
        if process.returncode is None:
            _signal(process, signal.SIGTERM)
            with suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), grace)
        if process.returncode is None:
            _signal(process, signal.SIGKILL)
            await process.wait()
    except asyncio.CancelledError:
        _signal(process, signal.SIGKILL)
        raise


class ExplorerService(AppService):
    """textual-serve's AppService for one websocket, with the explorer started without
    a shell, every resize clamped, and an ending that does end it.

    Through ``sh -c`` (textual-serve's way) the process held is dash, which does not
    exec a lone command: signalling it would kill the shell and orphan the explorer.
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        write_bytes: Callable[[bytes], Awaitable[None]],
        write_str: Callable[[str], Awaitable[None]],
        close: Callable[[], Awaitable[None]],
        download_manager: DownloadManager,
        debug: bool = False,
    ) -> None:
        super().__init__(
            shlex.join(argv),
            write_bytes=write_bytes,
            write_str=write_str,
            close=close,
            download_manager=download_manager,
            debug=debug,
        )
        self.argv = tuple(argv)
        self._ending: asyncio.Task[None] | None = None

    @property
    def pid(self) -> int | None:
        """The explorer's process id, once started."""
        return None if self._process is None else self._process.pid

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        """textual-serve's, with the explorer exec'd directly (see the class)."""
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=PIPE,
            stdout=PIPE,
            stderr=PIPE,
            env=self._build_environment(width=width, height=height),
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def set_terminal_size(self, width: int, height: int) -> None:
        """The browser's resize, clamped like the size it connected with: it comes
        from JSON and may be anything."""
        await super().set_terminal_size(*terminal_size(width, height))

    async def stop(self) -> None:
        """textual-serve's stop only asks the explorer to quit and waits forever."""
        await self.end()

    async def end(self) -> None:
        """End the explorer and its output reader; the same ending for every caller
        (the socket's handler, the server's shutdown), which a cancelled caller does
        not interrupt."""
        if self._ending is None:
            self._ending = asyncio.create_task(self._end())
        await asyncio.shield(self._ending)

    async def _end(self) -> None:
        """The process first, so that nothing else can delay its end."""
        if self._process is not None:
            await stop_process(self._process)
        await self._download_manager.cancel_app_downloads(app_service_id=self.app_service_id)
        if self._task is not None:
            # The reader ends at the explorer's end of output; anything else it
            # raises is no longer of use to anyone.
            with suppress(Exception):
                await asyncio.wait_for(self._task, GRACE_SECONDS)
            self._task = None

    def kill_now(self) -> None:
        """SIGKILL, for the server's last moment, with no loop left to wait in."""
        if self._process is not None and self._process.returncode is None:
            _signal(self._process, signal.SIGKILL)


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
    """textual-serve's Server with a token, Host and Origin checks, sockets bound by
    the caller (see :func:`bind`), and explorers that end with their socket or with
    the server (see :class:`ExplorerService`)."""

    def __init__(self, argv: Sequence[str], host: str, port: int, title: str) -> None:
        super().__init__(shlex.join(argv), host=host, port=port, title=title)
        self.argv = tuple(argv)
        self.token = secrets.token_urlsafe(16)
        self.allowed_hosts = self._allowed_hosts(host, port)
        self.sessions: dict[ExplorerService, web.WebSocketResponse] = {}

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
        app.add_routes(
            [
                web.get("/", self.page, name="index"),
                web.get("/ws/{token}", self.handle_websocket, name="websocket"),
                web.get("/download/{key}", self.handle_download, name="download"),
                web.static("/static", self.statics_path, name="static"),
            ]
        )
        app.on_shutdown.append(self.end_sessions)
        return app

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        """One explorer for this socket, at the size asked (clamped), ended when the
        socket closes, normally, by error or by the server's shutdown."""
        websocket = web.WebSocketResponse(heartbeat=15, timeout=CLOSE_SECONDS)
        width, height = terminal_size(request.query.get("width"), request.query.get("height"))
        await websocket.prepare(request)

        async def close() -> None:  # the explorer's own exit (its "exit" message)
            await websocket.close()

        service = ExplorerService(
            self.argv,
            write_bytes=websocket.send_bytes,
            write_str=websocket.send_str,
            close=close,
            download_manager=self.download_manager,
            debug=self.debug,
        )
        self.sessions[service] = websocket
        try:
            await service.start(width, height)
            await self._process_messages(websocket, service)
        except Exception:
            log.exception("explorer session failed")
        finally:
            await service.end()
            # left in sessions if that was cancelled, for serve_on's last kill
            self.sessions.pop(service, None)
        return websocket

    async def end_sessions(self, app: web.Application) -> None:
        """On shutdown, before aiohttp waits for the handlers: end every explorer, then
        close its socket (which ends its handler instead of a 60 s wait)."""
        sessions = list(self.sessions.items())
        await asyncio.gather(*(service.end() for service, _ in sessions))
        await asyncio.gather(
            *(ws.close(code=WSCloseCode.GOING_AWAY) for _, ws in sessions),
            return_exceptions=True,
        )

    async def page(self, request: web.Request) -> web.Response:
        """The explorer's page (see :data:`PAGE`): its websocket URL on the host the
        browser used (already checked) and carrying the token."""
        font_size = to_int(request.query.get("fontsize", "16"), 16)
        text = PAGE.format(
            title=escape(self.title),
            websocket=escape(f"ws://{request.host}/ws/{self.token}"),
            font_size=font_size,
        )
        return web.Response(text=text, content_type="text/html")

    def serve_on(self, sockets: list[socket.socket]) -> None:
        """Serve on already bound sockets until SIGINT, SIGTERM or SIGHUP (its terminal
        closed); the explorers end first (see :meth:`end_sessions`), and any left by
        an error are killed on the way out."""
        self.initialize_logging()
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
            loop.add_signal_handler(signum, self.request_exit)
        try:
            web.run_app(
                self._make_app(),
                sock=sockets,
                handle_signals=False,
                loop=loop,
                print=lambda *args: None,
                access_log_class=TokenlessAccessLog,
                shutdown_timeout=GRACE_SECONDS + CLOSE_SECONDS,
            )
        finally:
            for service in self.sessions:
                service.kill_now()
