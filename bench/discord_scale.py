"""Several bot processes on one PostgreSQL beside one: saturated interactions end to end.

The same load as ``bench/discord_load.py`` (half the games against the house, half challenges,
every member pressing again the moment the bot answers), against ``python -m bot`` run as in
production on a throw-away PostgreSQL (fsync on): first one process, then two processes each
running one of two shards (the games' servers split between them), alternately, in this one run.

    python -m pip install -e ".[test]" && python bench/discord_scale.py [--games 100] [--rounds 2]

Target (issue 17): two processes at least 1.6x the throughput of one, p99 acknowledgement under
500 ms at 100 concurrent games.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import bench.discord_load as load  # noqa: E402
from bench.against_fake import acknowledgements, bot_process  # noqa: E402
from bot.games.hog.solutions import SolutionCache  # noqa: E402
from hog_core.rulesets import FA18  # noqa: E402
from hog_core.solver import Solution  # noqa: E402
from storage.shelves import FolderShelf, PostgresShelf  # noqa: E402
from tests.postgres_server import create_database, throwaway_server  # noqa: E402


def cpu_seconds(pids: list[int]) -> dict[int, float]:
    """User and system CPU time each process has used so far (Linux's /proc)."""
    used = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            used[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
    return used


def spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds spent between two readings; a process born in between (a new PostgreSQL backend
    when a bot's pool grows) counts whole."""
    return sum(t - before.get(pid, 0.0) for pid, t in after.items())


def machine_busy() -> tuple[float, float]:
    """All the machine's CPU time so far, busy and in all, in seconds (/proc/stat's first line)."""
    ticks = [int(t) for t in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
    idle = ticks[3] + ticks[4]  # idle, iowait
    return (sum(ticks) - idle) / os.sysconf("SC_CLK_TCK"), sum(ticks) / os.sysconf("SC_CLK_TCK")


def postgres_pids() -> list[int]:
    return [int(p.parent.name) for p in Path("/proc").glob("[0-9]*/comm") if p.read_text().strip() == "postgres"]


@dataclass
class Run:
    rate: float
    p50: float
    p99: float
    busy: dict[str, float]
    """Cores kept busy on average, by whom: the bots, the fake Discord (this process), PostgreSQL."""


async def one_run(server: str, processes: int, games: int, cache: Path, solution: Solution) -> Run:
    with tempfile.TemporaryDirectory() as scratch:
        url = await create_database(server)
        await SolutionCache(PostgresShelf(url)).put(solution, FA18, 100)  # where the bots look for it
        pids: list[int] = []
        async with bot_process(Path(scratch), cache, False, processes, url, pids) as fake:
            groups: dict[str, Callable[[], list[int]]] = {
                "bots": lambda: pids,
                "fake Discord": lambda: [os.getpid()],
                "PostgreSQL": postgres_pids,  # read again at the end: its pools grow under load
            }
            before = {name: cpu_seconds(find()) for name, find in groups.items()}
            machine = machine_busy()
            started = time.perf_counter()
            counts = await asyncio.gather(
                *(
                    load.house_game(fake, n, processes) if n % 2 == 0 else load.challenge_game(fake, n, processes)
                    for n in range(games)
                )
            )
            elapsed = time.perf_counter() - started
            busy = {name: spent(before[name], cpu_seconds(find())) / elapsed for name, find in groups.items()}
            used, total = (after - then for after, then in zip(machine_busy(), machine, strict=True))
            busy["the whole machine"] = used / total * (os.cpu_count() or 1)
    waits, _ = acknowledgements(fake)
    q = statistics.quantiles(waits, n=100, method="inclusive")
    return Run(sum(counts) / elapsed, q[49], q[98], busy)


async def main(server: str, games: int, rounds: int, fsync: str) -> None:
    load.THINK = (0.0, 0.0)
    with tempfile.TemporaryDirectory() as folder:
        cache = Path(folder) / "solutions"
        solution = await SolutionCache(FolderShelf(cache)).get(FA18, 100)  # solved once for every run
        results: dict[int, list[Run]] = {1: [], 2: []}
        for _ in range(rounds):
            for processes in (1, 2):
                results[processes].append(await one_run(server, processes, games, cache, solution))
    print(
        f"{games} games at once, saturated (no think time), PostgreSQL with fsync {fsync}; median of {rounds} rounds:"
    )
    medians = {}
    for processes, runs in results.items():
        rate, p50, p99 = (statistics.median(getattr(r, f) for r in runs) for f in ("rate", "p50", "p99"))
        medians[processes] = rate
        name = f"{processes} process{'es' if processes > 1 else ''}"
        print(f"  {name}: {rate:6.0f} interactions/s, p50 {p50:6.1f} ms, p99 {p99:6.1f} ms")
        busy = {who: statistics.median(r.busy[who] for r in runs) for who in runs[0].busy}
        print(
            "    cores busy: "
            + ", ".join(f"{who} {cores:.2f}" for who, cores in busy.items())
            + f" (of {os.cpu_count()})"
        )
    print(f"  scaling: {medians[2] / medians[1]:.2f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--no-fsync", action="store_true", help="PostgreSQL without fsync (what the disk costs)")
    args = parser.parse_args()
    with throwaway_server(durable=not args.no_fsync) as url:
        asyncio.run(main(url, args.games, args.rounds, "off" if args.no_fsync else "on"))
