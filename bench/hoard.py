"""One client hoarding the web server's connections, and everyone else (issue 38): ``python -m bot web``
runs under the common limit of 1,024 open files; one client opens 1,000 live streams at once (and
1,000 half-sent requests), while another asks for a game's page again and again. Printed side by
side in one run: the other client's page latency p50/p99 with nobody hoarding, then while the
hoarder holds what it was given (target: p99 <= 100 ms), and what the hoarder got.

    python bench/hoard.py [--streams 1000] [--requests 300]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.web import free_port, quantiles  # noqa: E402
from bot.platform.compose import platform  # noqa: E402
from bot.platform.settings import Settings  # noqa: E402
from hog_core.events import Player  # noqa: E402
from hog_core.game import CreateGame  # noqa: E402

HOARDER = "127.0.0.3"
"""The hoarder's address: a client of its own (127.0.0.1 is trusted as a proxy on this machine)."""


def limited() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


async def pages(url: str, requests: int) -> list[float]:
    """Another client's page, one request after another from its own address: seconds each."""
    took = []
    connector = aiohttp.TCPConnector(local_addr=("127.0.0.2", 0))
    async with aiohttp.ClientSession(connector=connector) as session:
        for _ in range(requests):
            started = time.perf_counter()
            async with session.get(url) as page:
                await page.read()
                assert page.status == 200, page.status
            took.append(time.perf_counter() - started)
    return took


async def main(streams: int, requests: int) -> None:
    with tempfile.TemporaryDirectory() as scratch:
        db, port = Path(scratch) / "g.sqlite3", free_port()
        async with platform(Settings(db=db, cache=Path(scratch))) as p:
            players = (Player("1", "Ada"), Player("2", "Bob"))
            await p.service("hog").create("h1", CreateGame("h1", players, goal=50, place="c1"), "c1")
        env = {**os.environ, "HOG_DB": str(db), "HOG_CACHE": scratch}
        command = [sys.executable, "-m", "bot", "web", "--port", str(port)]
        server = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=limited)
        try:
            assert server.stdout is not None
            await asyncio.to_thread(server.stdout.readline)  # listening
            site = f"http://127.0.0.1:{port}"
            quiet = await pages(f"{site}/games/h1", requests)
            hoarder = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, local_addr=(HOARDER, 0)))
            halves, answers = [], []
            try:
                asked = (hoarder.get(f"{site}/games/h1/events") for _ in range(streams))
                answers = await asyncio.gather(*asked, return_exceptions=True)
                for _ in range(streams):  # and as many requests sent by half, never finished
                    _, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(HOARDER, 0))
                    writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
                    halves.append(writer)
                busy = await pages(f"{site}/games/h1", requests)
                got = Counter(a.status if isinstance(a, aiohttp.ClientResponse) else "closed" for a in answers)
            finally:
                for answer in answers:
                    if isinstance(answer, aiohttp.ClientResponse):
                        answer.close()
                for writer in halves:
                    writer.close()
                await hoarder.close()
        finally:
            server.terminate()
            _, said = server.communicate(timeout=30)
    print(f"another client's page, nobody hoarding:        {quantiles([t * 1000 for t in quiet])}")
    print(f"the same, while one client hoards:             {quantiles([t * 1000 for t in busy])}")
    print(f"p99 ratio busy/quiet: {statistics.quantiles(busy, n=100)[98] / statistics.quantiles(quiet, n=100)[98]:.2f}")
    print(f"the hoarder's {streams} streams: {dict(got)} (status: count; closed: past its connections)")
    print(f"'Too many open files' in the server's log: {said.count(b'Too many open files')}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--requests", type=int, default=300)
    arguments = parser.parse_args()
    asyncio.run(main(arguments.streams, arguments.requests))
