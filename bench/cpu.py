"""The bot's CPU per interaction (issue 31), saturated, beside an anchor build in the same run.

The load benchmarks' drivers (``bench/discord_load.py``: Hog games against the house and challenges;
``bench/cucumber_load.py``: Cucumber tables with bots) play against ``python -m bot`` run as in
production, members pressing as soon as they see their board. The bot process's CPU, its threads'
and its children's (the picture worker), is read from ``/proc`` before and after the games and
divided by the interactions answered. Each build runs in turn, this checkout's then the anchor's
(a git worktree of ``--anchor``, made and removed by this script), ``--rounds`` times, on the same
machine in the same run: compare them as ratios.

With ``--postgres`` the builds run on a PostgreSQL server this script starts (fsync on, as in
production), a fresh database each, and this checkout also on its SQLite file: the line "PostgreSQL
against SQLite" is issue 54's ratio (at most 1.5x).

    python bench/cpu.py [--anchor eb3d874] [--games 100] [--tables 40] [--rounds 1] [--game hog|cucumber] [--postgres]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import cucumber_load, discord_load  # noqa: E402
from bench.against_fake import acknowledgements, bot_process, checkout, solved_cache  # noqa: E402
from tests.discord.fake_discord import FakeDiscord  # noqa: E402
from tests.postgres_server import create_database, throwaway_server  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """The CPU time of ``pid``, its threads and every live descendant, and of the children it has reaped."""
    total = 0.0
    for pids in (p for p in os.listdir("/proc") if p.isdigit()):
        try:
            fields = Path(f"/proc/{pids}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(pids) == pid or descends(int(pids), pid):
            utime, stime, cutime, cstime = (int(f) for f in fields[11:15])
            total += (utime + stime + cutime + cstime) / TICK
    return total


def descends(pid: int, ancestor: int) -> bool:
    while pid > 1:
        try:
            pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        except OSError:
            return False
        if pid == ancestor:
            return True
    return False


Driver = Callable[[FakeDiscord], Awaitable[int]]


async def hog(fake: FakeDiscord, games: int) -> int:
    house, challenge = discord_load.house_game, discord_load.challenge_game
    return sum(await asyncio.gather(*(house(fake, n) if n % 2 == 0 else challenge(fake, n) for n in range(games))))


async def cucumber(fake: FakeDiscord, tables: int) -> int:
    boards = cucumber_load.Boards()
    fake.observers.append(boards)
    return sum(await asyncio.gather(*(cucumber_load.table(fake, boards, n, 7) for n in range(tables))))


async def measure(tree: Path, drive: Driver, server: str | None = None) -> tuple[float, float, float, float]:
    """CPU ms per interaction, interactions a second, the p99 acknowledgement and the bytes the bot
    sent Discord an interaction (every request's JSON body: boards, hands, edits), for the bot of
    ``tree``: on an SQLite file, or on a new database of the PostgreSQL ``server``."""
    with tempfile.TemporaryDirectory() as scratch:
        cache = await solved_cache(Path(scratch))
        pids: list[int] = []
        url = await create_database(server) if server else None
        async with bot_process(Path(scratch), cache, False, database_url=url, pids=pids, tree=tree) as fake:
            before, started = cpu_seconds(pids[0]), time.perf_counter()
            interactions = await drive(fake)
            elapsed, used = time.perf_counter() - started, cpu_seconds(pids[0]) - before
    waits, _ = acknowledgements(fake)
    p99 = statistics.quantiles(waits, n=100, method="inclusive")[98]
    sent = sum(len(json.dumps(s.body, ensure_ascii=False).encode()) for s in fake.sent if s.body is not None)
    return 1000 * used / interactions, interactions / elapsed, p99, sent / interactions


async def main(anchor: str, games: int, tables: int, rounds: int, only: str | None, server: str | None) -> None:
    discord_load.THINK = cucumber_load.THINK = (0.0, 0.0)  # saturated: every member presses at once
    with checkout(anchor) as other:
        builds: dict[str, tuple[Path, str | None]] = {"this checkout": (ROOT, server), anchor: (other, server)}
        if server:
            builds["on SQLite"] = (ROOT, None)
        drivers: dict[str, Driver] = {
            f"Hog, {games} games": lambda fake: hog(fake, games),
            f"Cucumber, {tables} tables": lambda fake: cucumber(fake, tables),
        }
        for name, drive in drivers.items():
            if only is not None and not name.lower().startswith(only):
                continue
            found: dict[str, list[tuple[float, float, float, float]]] = {build: [] for build in builds}
            for _ in range(rounds):
                for build, (tree, on) in builds.items():
                    found[build].append(await measure(tree, drive, on))
            where = " on PostgreSQL" if server else ""
            print(f"{name}{where}, members pressing at once (median of {rounds}):")
            middle = {b: tuple(statistics.median(r[i] for r in rs) for i in range(4)) for b, rs in found.items()}
            for build, (cpu, rate, p99, size) in middle.items():
                print(f"  {build:<14} {cpu:.2f} ms of bot CPU an interaction, {rate:.0f} interactions/s, "
                      f"acknowledgement p99 {p99:.0f} ms, {size:.0f} bytes sent an interaction")  # fmt: skip
            ratio = middle["this checkout"][0] / middle[anchor][0]
            each = " ".join(f"{a[0] / b[0]:.2f}x" for a, b in zip(found["this checkout"], found[anchor], strict=True))
            print(f"  CPU per interaction: {ratio:.2f}x of {anchor} (round by round: {each})")
            if server:
                ratio = middle["this checkout"][0] / middle["on SQLite"][0]
                each = " ".join(
                    f"{a[0] / b[0]:.2f}x" for a, b in zip(found["this checkout"], found["on SQLite"], strict=True)
                )
                print(f"  PostgreSQL against SQLite, this checkout: {ratio:.2f}x (round by round: {each})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--anchor", default="eb3d874", help="the commit to compare with (default: eb3d874)")
    parser.add_argument("--games", type=int, default=100, help="Hog games at once (default: 100)")
    parser.add_argument("--tables", type=int, default=40, help="Cucumber tables at once (default: 40)")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each build, alternating (default: 1)")
    parser.add_argument("--game", choices=("hog", "cucumber"), help="measure this game alone (default: both)")
    parser.add_argument("--postgres", action="store_true", help="the builds on PostgreSQL, this one on SQLite too")
    args = parser.parse_args()
    if args.postgres:
        with throwaway_server(durable=True) as server:
            asyncio.run(main(args.anchor, args.games, args.tables, args.rounds, args.game, server))
    else:
        asyncio.run(main(args.anchor, args.games, args.tables, args.rounds, args.game, None))
