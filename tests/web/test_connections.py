"""One client cannot take the web server from everyone else: live streams are counted per address
and in all (refused with 429 or 503 and ``Retry-After``), a request's headers must arrive in time,
and a finished game's stream ends. The hoarding test runs ``python -m bot web`` under the common
limit of 1,024 open files."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.platform.compose import platform
from bot.platform.settings import Settings
from bot.web.app import LIVE, Streams
from bot.web.serve import CONNECTIONS_PER_ADDRESS, open_site
from hog_core.events import Player
from hog_core.game import CreateGame, Forfeit
from tests.web.test_gui import free_port

ADA, BOB = Player("1", "Ada"), Player("2", "Bob")


async def test_half_a_request_is_closed_when_its_headers_take_too_long(tmp_path: Path) -> None:
    port = free_port()
    async with platform(Settings(db=tmp_path / "g.sqlite3", cache=tmp_path)) as p:
        runner = await open_site(p, "127.0.0.1", port, headers_timeout=0.5)
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")  # and never the rest
            await writer.drain()
            assert await asyncio.wait_for(reader.read(), 10) == b"", "the server closed it"
            writer.close()
            async with aiohttp.ClientSession() as http, http.get(f"http://127.0.0.1:{port}/") as page:
                assert page.status == 200, "a whole request is served as ever"
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Long: " + b"x" * 20_000 + b"\r\n\r\n")
            answer = await asyncio.wait_for(reader.read(), 10)  # aiohttp's own refusal, not a page of ours
            writer.close()
            assert answer.startswith(b"HTTP/1.0 400") and b"Content-Security-Policy: default-src 'none'" in answer
        finally:
            await runner.cleanup()


async def test_one_address_holds_a_bounded_number_of_connections(tmp_path: Path) -> None:
    port = free_port()
    async with platform(Settings(db=tmp_path / "g.sqlite3", cache=tmp_path)) as p:
        runner = await open_site(p, "127.0.0.1", port)
        held = []
        try:
            for _ in range(CONNECTIONS_PER_ADDRESS):
                held.append(await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.5", 0)))
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.0.5", 0))
            assert await asyncio.wait_for(reader.read(), 10) == b"", "one too many: closed at once"
            writer.close()
            others = aiohttp.TCPConnector(local_addr=("127.0.0.6", 0))
            async with aiohttp.ClientSession(connector=others) as http, http.get(f"http://127.0.0.1:{port}/") as page:
                assert page.status == 200, "another address is served meanwhile"
        finally:
            for _, open_writer in held:
                open_writer.close()
            await runner.cleanup()


async def test_a_finished_games_stream_ends_and_streams_are_counted(tmp_path: Path) -> None:
    port = free_port()
    async with platform(Settings(db=tmp_path / "g.sqlite3", cache=tmp_path)) as p:
        await p.service("hog").create("h1", CreateGame("h1", (ADA, BOB), goal=20, place="c1"), "c1")
        runner = await open_site(p, "127.0.0.1", port)
        try:
            events = f"http://127.0.0.1:{port}/games/h1/events"
            async with aiohttp.ClientSession() as http, http.get(events) as live:
                assert await live.content.readline() == b"event: version\n"
                await p.service("hog").execute("h1", lambda state, chance: [Forfeit("1")], "c2")
                rest = await asyncio.wait_for(live.read(), 10)  # to the stream's end
                assert b"data: 2" in rest
            assert runner.app[LIVE].open == {}, "the stream is no longer counted"
        finally:
            await runner.cleanup()


def test_streams_refused_past_their_budget_say_when_to_come_back() -> None:
    streams = Streams(per_client=2, in_all=3)
    with streams.held("a"), streams.held("a"):
        refused = streams.refusal("a")
        assert refused is not None and refused.status == 429 and refused.headers["Retry-After"] == "30"
        assert streams.refusal("b") is None
        with streams.held("b"):
            full = streams.refusal("c")
            assert full is not None and full.status == 503 and full.headers["Retry-After"] == "30"
    assert streams.open == {}


def limited_to_1024_files() -> None:
    import resource  # not on Windows, where the test is skipped

    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


@pytest.mark.skipif(sys.platform == "win32", reason="no limit of open files to set")
async def test_a_thousand_streams_from_one_client_leave_the_server_to_everyone(tmp_path: Path) -> None:
    db, port = tmp_path / "g.sqlite3", free_port()
    async with platform(Settings(db=db, cache=tmp_path)) as p:
        await p.service("hog").create("h1", CreateGame("h1", (ADA, BOB), goal=20, place="c1"), "c1")
    env = {**os.environ, "HOG_DB": str(db), "HOG_CACHE": str(tmp_path)}
    command = [sys.executable, "-m", "bot", "web", "--port", str(port)]
    server = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limited_to_1024_files
    )
    try:
        assert server.stdout is not None
        assert b"Serving the games of" in await asyncio.to_thread(server.stdout.readline)
        site = f"http://127.0.0.1:{port}"
        hoarder, answers = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)), []
        try:
            asked = [hoarder.get(f"{site}/games/h1/events") for _ in range(1000)]
            answers = await asyncio.gather(*asked)
            statuses = sorted(a.status for a in answers)
            assert statuses == [200] * Streams.per_client + [429] * (1000 - Streams.per_client)
            assert all(a.headers.get("Retry-After") == "30" for a in answers if a.status == 429)
            async with aiohttp.ClientSession() as other:  # someone else, meanwhile
                for _ in range(20):
                    async with other.get(f"{site}/games/h1") as page:
                        assert page.status == 200
        finally:
            for answer in answers:
                answer.close()
            await hoarder.close()
    finally:
        server.terminate()
        _, said = server.communicate(timeout=30)
    assert b"Too many open files" not in said and b"Traceback" not in said
