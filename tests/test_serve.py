"""threshold-lab serve: starts on loopback, serves the page, runs the explorer, stops."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
import urllib.request

import aiohttp


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def explorer_output(port: int) -> bytes:
    """Open the browser's websocket and read until the status sentence arrives."""
    got = b""
    async with (
        aiohttp.ClientSession() as session,
        session.ws_connect(f"http://127.0.0.1:{port}/ws?width=120&height=40") as ws,
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


def test_serve_answers_on_loopback_then_stops() -> None:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "tui", "serve", "--port", str(port), "--", "--preset", "good"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        body = b""
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    assert r.status == 200
                    body = r.read()
                    break
            except OSError:
                time.sleep(0.3)
        assert b"threshold-lab" in body
        output = asyncio.run(explorer_output(port))
        assert b"predicted positive" in output
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    assert proc.returncode is not None


def test_serve_refuses_a_bad_source_before_listening() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "tui", "serve", "--port", str(free_port()), "--", "nosuch.csv"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert proc.returncode == 2
    assert "nosuch.csv: no such file" in proc.stderr
    assert "Traceback" not in proc.stderr
