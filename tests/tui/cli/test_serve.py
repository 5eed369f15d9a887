"""threshold-lab serve: starts on loopback, serves the page, runs the explorer, stops."""

from __future__ import annotations

import asyncio
import re
import select
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import aiohttp


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start(port: int, *explorer_args: str) -> tuple[subprocess.Popen[bytes], str]:
    """Start serve on loopback; return the process and the token from its first line."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "threshold_lab", "serve", "--port", str(port), "--", *explorer_args],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 30)
    line = proc.stdout.readline().decode() if ready else ""
    match = re.search(rf"on http://127\.0\.0\.1:{port}/\?token=([\w-]+) ", line)
    if match is None:
        stop(proc)
        raise AssertionError(f"no URL with a token in {line!r}")
    return proc, match.group(1)


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=5)


def get_page(url: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    """Status and body of a GET, retried while the server is not yet listening."""
    deadline = time.monotonic() + 30
    while True:
        try:
            request = urllib.request.Request(url, headers=headers or {})
            with urllib.request.urlopen(request, timeout=5) as r:
                return int(r.status), r.read()
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read()
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)


async def explorer_output(port: int, token: str) -> bytes:
    """Open the browser's websocket and read until the status sentence arrives."""
    got = b""
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(
            f"http://127.0.0.1:{port}/ws/{token}?width=120&height=40",
            headers={"Origin": f"http://127.0.0.1:{port}"},
        ) as ws,
    ):
        try:
            async with asyncio.timeout(30):
                async for msg in ws:
                    data = msg.data if isinstance(msg.data, bytes) else str(msg.data).encode()
                    got += data
                    if b"predicted positive" in got:
                        break
        except TimeoutError:
            pass
    return got


async def websocket_status(url: str, headers: dict[str, str] | None = None) -> int:
    """The HTTP status of a websocket handshake (101 when it is accepted)."""
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as session:
        try:
            async with session.ws_connect(url, headers=headers or {}) as ws:
                await ws.close()
                return 101
        except aiohttp.WSServerHandshakeError as exc:
            return exc.status


def test_serve_answers_on_loopback_then_stops() -> None:
    port = free_port()
    proc, token = start(port, "--preset", "good")
    try:
        status, body = get_page(f"http://127.0.0.1:{port}/?token={token}")
        assert status == 200
        assert b"threshold-lab" in body
        assert f"ws://127.0.0.1:{port}/ws/{token}".encode() in body
        output = asyncio.run(explorer_output(port, token))
        assert b"predicted positive" in output
    finally:
        stop(proc)
    assert proc.returncode is not None


def test_serve_refuses_requests_without_the_token_or_from_elsewhere() -> None:
    port = free_port()
    proc, token = start(port, "--preset", "good")
    here = f"127.0.0.1:{port}"
    try:
        assert get_page(f"http://{here}/?token={token}")[0] == 200
        assert get_page(f"http://localhost:{port}/?token={token}")[0] == 200
        assert get_page(f"http://{here}/")[0] == 403
        assert get_page(f"http://{here}/?token=wrong")[0] == 403
        rebound = {"Host": f"attacker.example:{port}"}
        assert get_page(f"http://{here}/?token={token}", rebound)[0] == 403

        ws = f"http://{here}/ws"
        assert asyncio.run(websocket_status(f"{ws}?width=80&height=24")) == 403
        assert asyncio.run(websocket_status(f"{ws}/wrong?width=80&height=24")) == 403
        evil = {"Origin": "http://evil.example"}
        assert asyncio.run(websocket_status(f"{ws}/{token}", evil)) == 403
        assert asyncio.run(websocket_status(f"{ws}?token={token}", evil)) == 403
        assert asyncio.run(websocket_status(f"{ws}/{token}", rebound)) == 403
        both = {"Host": f"attacker.example:{port}", "Origin": f"http://attacker.example:{port}"}
        assert asyncio.run(websocket_status(f"{ws}/{token}", both)) == 403
        # the same origin, and no Origin at all, are let through
        assert asyncio.run(websocket_status(f"{ws}/{token}", {"Origin": f"http://{here}"})) == 101
        assert asyncio.run(websocket_status(f"{ws}/{token}")) == 101
    finally:
        stop(proc)


def serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "threshold_lab", "serve", *args],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


def test_serve_refuses_a_host_other_than_loopback() -> None:
    proc = serve("--host", "0.0.0.0", "--port", str(free_port()))
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("threshold-lab: error: --host 0.0.0.0 is not a loopback")
    assert "--allow-remote" in lines[0]


def test_serve_reports_a_port_in_use_in_one_line() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen(1)
        port = int(taken.getsockname()[1])
        proc = serve("--port", str(port))
    assert proc.returncode == 2
    assert "Serving" not in proc.stdout
    lines = proc.stderr.splitlines()
    assert len(lines) == 1
    assert lines[0].startswith(f"threshold-lab: error: cannot listen on 127.0.0.1:{port}")


def test_serve_refuses_a_bad_source_before_listening() -> None:
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "threshold_lab",
            "serve",
            "--port",
            str(free_port()),
            "--",
            "nosuch.csv",
        ],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert proc.returncode == 2
    assert "nosuch.csv: no such file" in proc.stderr
    assert "Traceback" not in proc.stderr


def test_the_page_names_no_other_host_and_the_log_never_shows_the_token() -> None:
    """An offline classroom or an air-gapped lab gets the whole page from the server
    itself (its font too), and the request log, which a terminal or a file may keep,
    never repeats the token: not the page's, not the websocket's, not a wrong one."""
    port = free_port()
    proc, token = start(port, "--preset", "canonical")
    here = f"127.0.0.1:{port}"
    try:
        status, body = get_page(f"http://{here}/?token={token}")
        assert status == 200
        page = body.decode()
        addresses = re.findall(r"(?:https?|wss?)://([^/\"'\s)]+)", page)
        assert set(addresses) <= {here}, addresses
        assert "@font-face" in page and "/static/fonts/" in page  # the font is served here
        font = re.search(r"url\(\"?(/static/fonts/[^\")]+)", page)
        assert font is not None and get_page(f"http://{here}{font.group(1)}")[0] == 200
        assert get_page(f"http://{here}/?token=not-{token}")[0] == 403
        assert asyncio.run(websocket_status(f"http://{here}/ws/{token}")) == 101
    finally:
        stop(proc)
    assert proc.stdout is not None
    log = proc.stdout.read().decode()
    assert "GET /" in log and "/ws/" in log and " 403 " in log  # the requests are logged
    # The log's lines may be wrapped anywhere: the token is looked for without them.
    assert token not in "".join(log.split()), log
    assert f"not-{token}" not in "".join(log.split())
