"""threshold-lab serve: what a browser asks cannot outgrow a terminal, and an explorer
ends with its websocket or with the server.

The first tests run the server in this process with a fake explorer, a few lines of
Python speaking textual-serve's protocol: it reports the size it was given, echoes
the meta packets it receives, and ignores SIGTERM, like an explorer too busy laying
out a huge screen to act on it. The last ones run ``threshold-lab serve`` itself.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web
from threshold_lab.tui.cli import serving

from tests.tui.cli.test_serve import free_port, start, stop

pytestmark = pytest.mark.skipif(
    not Path(f"/proc/self/task/{os.getpid()}/children").exists(),
    reason="needs Linux /proc/<pid>/task/<tid>/children",
)

#: Generous: the checks below wait for an event, never for a duration.
TIMEOUT = 20.0

FAKE_EXPLORER = """
import os, signal, sys
signal.signal(signal.SIGTERM, signal.SIG_IGN)
signal.alarm(60)  # a failing test leaves no process for long
out, stdin = sys.stdout.buffer, sys.stdin.buffer
def packet(kind, payload):
    out.write(kind + len(payload).to_bytes(4, "big") + payload)
    out.flush()
out.write(b"__GANGLION__\\n")
packet(b"D", f"size {os.environ['COLUMNS']}x{os.environ['ROWS']}\\n".encode())
while len(head := stdin.read(5)) == 5:
    payload = stdin.read(int.from_bytes(head[1:], "big"))
    if head[:1] == b"M":
        packet(b"D", payload + b"\\n")
"""


def children(pid: int) -> set[int]:
    """The processes whose parent is pid, zombies included."""
    kids: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        with suppress(OSError):
            kids.update(int(k) for k in (task / "children").read_text().split())
    return kids


def alive(pid: int) -> bool:
    """Running or sleeping: neither gone nor a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


async def eventually(condition: Callable[[], bool]) -> bool:
    """Whether condition becomes true within TIMEOUT."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + TIMEOUT
    while not condition():
        if loop.time() > deadline:
            return False
        await asyncio.sleep(0.05)
    return True


async def read_until(ws: aiohttp.ClientWebSocketResponse, needle: bytes) -> bytes:
    """The first whole line of the explorer's output holding needle (lines before it
    are dropped)."""
    got = b""
    async with asyncio.timeout(TIMEOUT):
        while True:
            for line in got.split(b"\n")[:-1]:
                if needle in line:
                    return line
            msg = await ws.receive()
            assert msg.type == aiohttp.WSMsgType.BINARY, msg
            got += msg.data


@dataclass
class Served:
    server: serving.GuardedServer
    runner: web.AppRunner
    ws_url: str


@asynccontextmanager
async def served(script: str) -> AsyncIterator[Served]:
    """A GuardedServer on a free loopback port, in this process, running script."""
    sockets = serving.bind("127.0.0.1", 0)
    port = int(sockets[0].getsockname()[1])
    server = serving.GuardedServer(
        [sys.executable, "-c", script], host="127.0.0.1", port=port, title="test"
    )
    runner = web.AppRunner(await server._make_app())
    await runner.setup()
    for sock in sockets:
        await web.SockSite(runner, sock).start()
    try:
        yield Served(server, runner, f"http://127.0.0.1:{port}/ws/{server.token}")
    finally:
        await runner.cleanup()
        for service in server.sessions:
            service.kill_now()


@pytest.mark.parametrize(
    ("value", "cells"),
    [
        ("100000", 1000),
        ("1001", 1000),
        ("1000", 1000),
        ("120", 120),
        (" 40 ", 40),
        ("1", 1),
        ("0", 1),
        ("-7", 1),
        (5000, 1000),
        (120.9, 120),
        ("abc", 77),
        ("", 77),
        ("12.5", 77),
        ("9" * 5000, 77),
        (None, 77),
        (True, 77),
        (float("inf"), 77),
        (float("nan"), 77),
        ([120], 77),
    ],
)
def test_cells_is_clamped_to_a_terminal_and_defaults_when_not_a_number(
    value: object, cells: int
) -> None:
    assert serving.cells(value, 77) == cells


def test_terminal_size_defaults_to_textual_serves_and_clamps_each_side() -> None:
    assert serving.terminal_size("100000", "100000") == (1000, 1000)
    assert serving.terminal_size(None, None) == (80, 24)
    assert serving.terminal_size("wide", "30") == (80, 30)


async def test_the_size_asked_at_connect_and_by_resize_is_clamped() -> None:
    async with (
        served(FAKE_EXPLORER) as s,
        aiohttp.ClientSession() as session,
        session.ws_connect(f"{s.ws_url}?width=100000&height=abc") as ws,
    ):
        assert await read_until(ws, b"size ") == b"size 1000x24"
        await ws.send_json(["resize", {"width": 5000, "height": 0}])
        resized = json.loads(await read_until(ws, b'"resize"'))
        assert resized == {"type": "resize", "width": 1000, "height": 1}
        await ws.send_json(["resize", {"width": "wide", "height": None}])
        resized = json.loads(await read_until(ws, b'"resize"'))
        assert resized == {"type": "resize", "width": 80, "height": 24}


async def test_closing_the_socket_kills_an_explorer_that_ignores_sigterm() -> None:
    async with served(FAKE_EXPLORER) as s, aiohttp.ClientSession() as session:
        before = children(os.getpid())
        async with session.ws_connect(f"{s.ws_url}?width=80&height=24") as ws:
            await read_until(ws, b"size ")
            (service,) = s.server.sessions
            pid = service.pid
            assert pid is not None
            assert children(os.getpid()) - before == {pid}
            assert alive(pid)
        assert await eventually(lambda: pid not in children(os.getpid()))
        # The server forgets the session when its handler returns, which may be a beat
        # after the child is reaped (a busy machine showed the two apart).
        assert await eventually(lambda: not s.server.sessions)


async def test_the_servers_shutdown_ends_its_explorers_and_closes_their_sockets() -> None:
    async with served(FAKE_EXPLORER) as s, aiohttp.ClientSession() as session:
        sockets = [await session.ws_connect(f"{s.ws_url}?width=80&height=24") for _ in range(2)]
        for ws in sockets:
            await read_until(ws, b"size ")
        pids = {service.pid for service in s.server.sessions}
        assert len(pids) == 2
        await s.runner.cleanup()
        assert not any(alive(pid) for pid in pids if pid is not None)
        assert pids.isdisjoint(children(os.getpid()))
        for ws in sockets:
            async with asyncio.timeout(TIMEOUT):
                assert (await ws.receive()).type in (
                    aiohttp.WSMsgType.CLOSE,
                    aiohttp.WSMsgType.CLOSED,
                )
            await ws.close()


def command_line(pid: int) -> list[bytes]:
    """The arguments pid was started with."""
    return Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")


def environment(pid: int) -> dict[str, str]:
    """The environment pid was started with."""
    raw = Path(f"/proc/{pid}/environ").read_bytes().decode(errors="replace")
    return dict(entry.split("=", 1) for entry in raw.split("\0") if "=" in entry)


def test_serve_gives_a_huge_tab_1000x1000_and_ends_its_explorer_when_it_closes() -> None:
    port = free_port()
    serve, token = start(port, "--preset", "good")
    url = f"http://127.0.0.1:{port}/ws/{token}?width=100000&height=100000"
    seen: dict[int, tuple[dict[str, str], list[bytes]]] = {}
    forked = command_line(serve.pid)  # a child's until it has exec'd

    def explorer_seen() -> bool:
        """Read what the explorer was started with, while the socket holds it."""
        for pid in children(serve.pid) - seen.keys():
            with suppress(OSError):
                if (command := command_line(pid)) != forked:
                    env = environment(pid)
                    # Under load the environment was once read without COLUMNS, and
                    # the command line once empty (the child caught between fork and
                    # exec): read them again next time.
                    if "COLUMNS" in env and command[:1] != [b""]:
                        seen[pid] = env, command
        return bool(seen)

    async def tab() -> None:
        async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
            assert await eventually(explorer_seen)
            # its first output: Textual is up, handling SIGTERM, laying out the screen
            async with asyncio.timeout(TIMEOUT):
                assert (await ws.receive()).type == aiohttp.WSMsgType.BINARY
            await ws.close()

    try:
        asyncio.run(tab())
        ((pid, (env, command)),) = seen.items()
        assert asyncio.run(eventually(lambda: pid not in children(serve.pid)))
        assert not alive(pid)
        assert (env["COLUMNS"], env["ROWS"]) == ("1000", "1000")
        # the explorer itself, not a shell that would survive it or leave it orphaned
        assert command[:3] == [sys.executable.encode(), b"-m", b"threshold_lab"]
    finally:
        stop(serve)


def test_S_in_a_served_explorer_offers_the_curve_s_sound_as_a_download(tmp_path: Path) -> None:
    """S in a browser tab: textual-serve is told of a download, and the page's
    /download/KEY gives the WAV file of the curve shown, core's bytes."""
    from threshold_lab.core.analysis import curves_for
    from threshold_lab.core.curves.sound import sonify, write_wav
    from threshold_lab.core.data.presets import preset
    from threshold_lab.core.output import output

    port = free_port()
    serve, token = start(port, "--preset", "good")
    url = f"http://127.0.0.1:{port}/ws/{token}?width=120&height=40"

    async def tab() -> bytes:
        async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
            await read_until(ws, b"Threshold")  # the explorer is up
            # textual-serve gives each chunk of a download 4 seconds: on a machine
            # busy with the rest of the suite one may miss it and the download end
            # short, so S is pressed again (a new download) up to twice more.
            for attempt in range(3):
                await ws.send_str(json.dumps(["stdin", "S"]))
                async with asyncio.timeout(TIMEOUT):
                    while True:
                        msg = await ws.receive()
                        if msg.type == aiohttp.WSMsgType.TEXT:
                            kind, *rest = json.loads(msg.data)
                            if kind == "deliver_file_start":
                                key = rest[0]
                                break
                async with session.get(f"http://127.0.0.1:{port}/download/{key}") as r:
                    assert r.status == 200
                    assert r.headers["Content-Disposition"] == "attachment; filename=roc.wav"
                    try:
                        return await r.read()
                    except aiohttp.ClientPayloadError:
                        if attempt == 2:
                            raise
        raise AssertionError("unreachable")

    try:
        got = asyncio.run(tab())
    finally:
        stop(serve)
    want = tmp_path / "roc.wav"
    write_wav(output(want), sonify(curves_for(preset("good").data).sweep, "roc"))
    assert got == want.read_bytes()


@pytest.mark.parametrize(
    "signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP], ids=lambda s: str(s.name)
)
def test_a_signal_to_serve_ends_the_explorers_of_open_tabs(signum: signal.Signals) -> None:
    port = free_port()
    serve, token = start(port, "--preset", "good")
    url = f"http://127.0.0.1:{port}/ws/{token}?width=80&height=24"

    async def tab_open_while_serve_stops() -> set[int]:
        async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
            got = b""
            async with asyncio.timeout(TIMEOUT):
                while b"predicted positive" not in got:
                    msg = await ws.receive()
                    assert msg.type == aiohttp.WSMsgType.BINARY, msg
                    got += msg.data
            pids = children(serve.pid)
            serve.send_signal(signum)
            assert await eventually(lambda: serve.poll() is not None)
            return pids

    try:
        pids = asyncio.run(tab_open_while_serve_stops())
        assert serve.returncode == 0
        assert len(pids) == 1
        assert not any(alive(pid) for pid in pids)
    finally:
        stop(serve)
