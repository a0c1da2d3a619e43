"""The web front under load (figures for issue 27), each measured here, side by side in one run:

1. A game's page served to 100 concurrent clients: p50/p99 latency (target: p99 <= 20 ms).
2. 1,000 spectators on one game's live stream: the time from a move's commit to each spectator
   receiving it, p50/p99 (target: p99 <= 200 ms).
3. The bot's acknowledgement p99 under Discord load (``bench/discord_load.py``'s games, through the
   fake Discord, the bot serving the web pages too with ``HOG_WEB_PORT``), without and with 1,000
   spectators watching one of the games (target: within 10%).
4. A page's weight without its picture: HTML, CSS and script (target: <= 100 KB).

The clients run in a process of their own (``--clients``), so that they never share the server's
cores' event loop.

    python bench/web.py [--spectators 1000] [--games 50]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.against_fake import acknowledgements, bot_process  # noqa: E402
from bench.discord_load import house_game  # noqa: E402
from bot.games.hog.module import turn  # noqa: E402
from bot.games.hog.solutions import SolutionCache  # noqa: E402
from bot.platform.compose import platform  # noqa: E402
from bot.platform.settings import Settings  # noqa: E402
from bot.web.app import Streams  # noqa: E402
from bot.web.serve import open_site  # noqa: E402
from hog_core.events import Player  # noqa: E402
from hog_core.game import CreateGame  # noqa: E402
from hog_core.rulesets import FA18  # noqa: E402
from storage.shelves import FolderShelf  # noqa: E402
from tests.discord.discord_world import subcommand  # noqa: E402


def free_port() -> int:
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        return int(free.getsockname()[1])


def quantiles(values: list[float]) -> str:
    q = statistics.quantiles(values, n=100, method="inclusive")
    return f"p50 {q[49]:.1f} ms, p99 {q[98]:.1f} ms, max {max(values):.1f} ms"


# --- the clients' process ---------------------------------------------------------------------------


async def page_clients(url: str, clients: int, requests: int) -> list[float]:
    """``clients`` at once, each asking for ``url`` in turn until ``requests`` are answered; each one's ms."""
    times: list[float] = []
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=clients)) as session:

        async def client() -> None:
            while len(times) < requests:
                started = time.perf_counter()
                async with session.get(url) as answer:
                    await answer.read()
                    assert answer.status == 200
                times.append(1000 * (time.perf_counter() - started))

        await asyncio.gather(*(client() for _ in range(clients)))  # a warm-up: connections opened, page made
        times.clear()
        await asyncio.gather(*(client() for _ in range(clients)))
    return times


def loopback(n: int) -> str:
    """The ``n``-th address of the loopback network after 127.0.0.1 (all of 127.0.0.0/8 is this machine)."""
    return f"127.0.{n // 250}.{n % 250 + 2}"


async def spectators(url: str, count: int, versions: int) -> dict[int, list[float]]:
    """``count`` watchers of ``url``'s stream: when each received each version (wall-clock seconds),
    printing ``ready`` once every one of them is listening. As spectators are, they come from many
    addresses: ``Streams.per_client`` from each loopback address (the server refuses more from one)."""
    heard: dict[int, list[float]] = {}
    connected = 0
    ready = asyncio.Event()
    each = Streams.per_client
    sessions = [
        aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, local_addr=(loopback(n), 0)))
        for n in range(-(-count // each))
    ]
    try:

        async def watch(session: aiohttp.ClientSession) -> None:
            nonlocal connected
            async with session.get(url, timeout=aiohttp.ClientTimeout(total=None)) as stream:
                seen = 0
                while seen < versions:
                    line = await stream.content.readline()
                    if not line:  # the server ended the stream
                        print("lost", flush=True)
                        return
                    if line.startswith(b"data: "):
                        version = int(line[6:])
                        if seen == 0:
                            connected += 1
                            if connected == count:
                                ready.set()
                        else:
                            heard.setdefault(version, []).append(time.time())
                        seen += 1

        watching = [asyncio.create_task(watch(sessions[i // each])) for i in range(count)]
        await ready.wait()
        print("ready", flush=True)
        await asyncio.gather(*watching)
    finally:
        for session in sessions:
            await session.close()
    return heard


# --- the server's side ------------------------------------------------------------------------------


async def clients_process(*argv: str) -> asyncio.subprocess.Process:
    return await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--clients",
        *argv,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        cwd=ROOT,
    )


async def pages_and_spectators(scratch: Path, count: int) -> None:
    port = free_port()
    settings = Settings(db=scratch / "web.sqlite3", cache=scratch / "solutions")
    async with platform(settings) as p:
        service = p.service("hog")
        await service.create("w1", CreateGame("w1", (Player("1", "Ann"), Player("2", "Ben")), place="c1"), "new")
        for n in range(6):  # a game some way in: its page has steps to show
            await service.execute("w1", turn(("1", "2")[n % 2], 3), f"m{n}")
        runner = await open_site(p, "127.0.0.1", port)
        try:
            base = f"http://127.0.0.1:{port}"
            async with aiohttp.ClientSession() as session:
                async with session.get(base + "/games/w1") as answer:
                    page = await answer.text()
                weights = {"/games/w1": len(page.encode())}
                for asset in re.findall(r'<(?:link rel="stylesheet" href|script src)="(/[^"]+)"', page):
                    async with session.get(base + asset) as answer:  # its every stylesheet and script
                        weights[asset] = len(await answer.read())
            pages = await clients_process("pages", f"{base}/games/w1?step=4", "100", "3000")
            out, _ = await pages.communicate()
            times = json.loads(out)
            print(f"1. a game's page, 100 clients at once, {len(times)} requests: {quantiles(times)}")

            moves = 10
            watchers = await clients_process("watch", f"{base}/games/w1/events", str(count), str(moves + 1))
            assert watchers.stdout is not None
            assert (await watchers.stdout.readline()).strip() == b"ready"
            committed = {}
            for n in range(moves):
                outcome = await service.execute("w1", turn(("1", "2")[(6 + n) % 2], 3), f"w{n}")
                committed[outcome.state.version] = time.time()
                await asyncio.sleep(0.3)
            heard = json.loads((await watchers.communicate())[0])
            delays = [1000 * (t - committed[int(v)]) for v, ts in heard.items() for t in ts]
            deliveries = f"{len(delays)} deliveries"
            print(f"2. {count} spectators, {moves} moves: commit -> received {quantiles(delays)} ({deliveries})")
            total = sum(weights.values())
            print(f"4. a page's weight without its picture: {total / 1024:.1f} KB ({weights})")
        finally:
            await runner.cleanup()


async def acknowledgement(scratch: Path, games: int, count: int) -> str:
    """The Discord load's acknowledgement figures, with ``count`` spectators watching one game."""
    cache = scratch / "solutions"
    await SolutionCache(FolderShelf(cache)).get(FA18, 100)
    port = free_port()
    folder = scratch / f"ack-{count}"
    folder.mkdir()
    async with bot_process(folder, cache, False, env_extra={"HOG_WEB_PORT": str(port)}) as fake:
        watchers = None
        if count:
            command = await fake.interact(subcommand("house", who="99999", person="Watched"))
            await fake.response(command, timeout=60)
            shown = await fake.wait_for(
                lambda s: s.method == "PATCH" and s.path.endswith(f"token{command}/messages/@original")
            )
            game_id = next(c["custom_id"] for row in shown.body["components"] for c in row["components"]).split(":")[2]
            stream = f"http://127.0.0.1:{port}/games/{game_id}/events"
            watchers = await clients_process("watch", stream, str(count), str(10**9))  # watching until the end
            assert watchers.stdout is not None
            assert (await watchers.stdout.readline()).strip() == b"ready"
        await asyncio.gather(*(house_game(fake, n) for n in range(games)))
        if watchers is not None:
            running = watchers.returncode is None
            if running:
                watchers.kill()
            out, err = await watchers.communicate()
            said = (out + err).decode()
            if not running or "lost" in said:
                raise SystemExit(f"the spectators left before the load ended: {said[:500]!r}")
    return acknowledgements(fake)[1]


async def main(count: int, games: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        scratch = Path(folder)
        (scratch / "solutions").mkdir()
        await SolutionCache(FolderShelf(scratch / "solutions")).get(FA18, 100)
        await pages_and_spectators(scratch, count)
        without = await acknowledgement(scratch, games, 0)
        with_them = await acknowledgement(scratch, games, count)
    print(f"3. the bot's {games} house games at once, saturated, serving the web pages too:")
    print(f"   without spectators: {without}")
    print(f"   with {count} spectators on one game: {with_them}")


async def clients(mode: str, url: str, count: int, amount: int) -> None:
    if mode == "pages":
        print(json.dumps(await page_clients(url, count, amount)))
    else:
        print(json.dumps(await spectators(url, count, amount)))


if __name__ == "__main__":
    if sys.argv[1:2] == ["--clients"]:
        mode, url, count, amount = sys.argv[2:6]
        asyncio.run(clients(mode, url, int(count), int(amount)))
        sys.exit(0)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--spectators", type=int, default=1000)
    parser.add_argument("--games", type=int, default=50)
    args = parser.parse_args()
    asyncio.run(main(args.spectators, args.games))
